/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "/tagpipe/bpf_map,NAME" (rte_telemetry): the shape and elements of map
 * NAME of the first open XDP object that has one (the hex of
 * tp_prog_bpf_map_dump), at most RTE_TEL_MAX_DICT_ENTRIES elements.
 * Objects join the list when opened and leave it before they are freed,
 * under one lock the endpoint holds while it reads, so a dump never reads
 * a freed object.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_spinlock.h>
#include <rte_telemetry.h>

#include "bpf_priv.h"

#define BPF_TEL_MAX_OBJECTS 64

static struct {
	rte_spinlock_t lock;
	struct tp_bpf *obj[BPF_TEL_MAX_OBJECTS];
} open_objects = { .lock = RTE_SPINLOCK_INITIALIZER };

void
tpb_telemetry_add(struct tp_bpf *b)
{
	rte_spinlock_lock(&open_objects.lock);
	for (unsigned int i = 0; i < BPF_TEL_MAX_OBJECTS; i++)
		if (open_objects.obj[i] == NULL) {
			open_objects.obj[i] = b;
			break;
		}
	/* more objects than slots: the extra ones are not in telemetry */
	rte_spinlock_unlock(&open_objects.lock);
}

void
tpb_telemetry_del(struct tp_bpf *b)
{
	rte_spinlock_lock(&open_objects.lock);
	for (unsigned int i = 0; i < BPF_TEL_MAX_OBJECTS; i++)
		if (open_objects.obj[i] == b)
			open_objects.obj[i] = NULL;
	rte_spinlock_unlock(&open_objects.lock);
}

/* Under the lock: the first object with map name, dumped into *buf. */
static int
dump_first(const char *name, const struct tp_bpf_map **shape, char **buf, size_t *len)
{
	for (unsigned int i = 0; i < BPF_TEL_MAX_OBJECTS; i++) {
		const struct tp_bpf *b = open_objects.obj[i];
		FILE *f;

		if (b == NULL)
			continue;
		for (uint32_t m = 0; m < b->nb_maps; m++) {
			if (strcmp(b->maps[m].name, name) != 0)
				continue;
			f = open_memstream(buf, len);
			if (f == NULL)
				return -ENOMEM;
			tpb_obj_map_dump(b, (int)m, f);
			fclose(f);
			*shape = &b->maps[m];
			return 0;
		}
	}
	return -ENOENT;
}

static int
h_bpf_map(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct tp_bpf_map *m = NULL;
	struct rte_tel_data *el;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	int n = 0, rc;

	(void)cmd;
	if (params == NULL || *params == '\0')
		return -EINVAL;
	el = rte_tel_data_alloc();
	if (el == NULL)
		return -ENOMEM;
	rte_spinlock_lock(&open_objects.lock);
	rc = dump_first(params, &m, &buf, &len);
	if (rc == 0) {
		rte_tel_data_start_dict(d);
		rte_tel_data_add_dict_u64(d, "type", m->type);
		rte_tel_data_add_dict_u64(d, "key_size", m->key_size);
		rte_tel_data_add_dict_u64(d, "value_size", m->value_size);
		rte_tel_data_add_dict_u64(d, "max_entries", m->max_entries);
		rte_tel_data_add_dict_u64(d, "ncpu", m->ncpu);
	}
	rte_spinlock_unlock(&open_objects.lock);
	if (rc < 0) {
		rte_tel_data_free(el);
		free(buf);
		return -EINVAL;
	}
	rte_tel_data_start_dict(el);
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (eq == NULL)
			continue;
		*eq = '\0';
		if (n == RTE_TEL_MAX_DICT_ENTRIES ||
		    rte_tel_data_add_dict_string(el, line, eq + 1) < 0) {
			rte_tel_data_add_dict_u64(d, "truncated", 1);
			break;
		}
		n++;
	}
	rte_tel_data_add_dict_u64(d, "elements", (uint64_t)n);
	rte_tel_data_add_dict_container(d, "values", el, 0);
	free(buf);
	return 0;
}

/* Registered when the library loads, as DPDK's libraries register theirs
 * (rte_telemetry keeps the list until the EAL starts its socket). */
RTE_INIT(bpf_telemetry_init)
{
	rte_telemetry_register_cmd("/tagpipe/bpf_map", h_bpf_map,
		"An XDP object's map: shape and elements (hex KEY: VALUE). Parameter: map name");
}
