/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_telemetry endpoints for the pipeline counters (contract:
 * tp_telemetry.h) and the list of live pipelines they read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_spinlock.h>
#include <rte_telemetry.h>

#include "pipeline_priv.h"
#include "tp_prog.h"
#include "tp_telemetry.h"

static TAILQ_HEAD(, tp_pipeline) pl_list = TAILQ_HEAD_INITIALIZER(pl_list);
static rte_spinlock_t pl_lock = RTE_SPINLOCK_INITIALIZER;

void
pl_registry_add(struct tp_pipeline *pl)
{
	rte_spinlock_lock(&pl_lock);
	TAILQ_INSERT_TAIL(&pl_list, pl, next);
	rte_spinlock_unlock(&pl_lock);
}

void
pl_registry_del(struct tp_pipeline *pl)
{
	rte_spinlock_lock(&pl_lock);
	TAILQ_REMOVE(&pl_list, pl, next);
	rte_spinlock_unlock(&pl_lock);
}

/* Sum of all pipelines, or the one named by params. -ENOENT if none. */
static int
collect(const char *params, struct tp_pipeline_stats *sum,
	bool enabled[TP_PIPELINE_MAX_PORTS])
{
	struct tp_pipeline *pl;
	int found = 0;

	memset(sum, 0, sizeof(*sum));
	memset(enabled, 0, TP_PIPELINE_MAX_PORTS * sizeof(bool));
	rte_spinlock_lock(&pl_lock);
	TAILQ_FOREACH(pl, &pl_list, next) {
		struct tp_pipeline_stats st;

		if (params != NULL && *params != '\0' && strcmp(params, pl->name) != 0)
			continue;
		tp_pipeline_stats_get(pl, &st);
		tp_pipeline_stats_add(sum, &st);
		for (unsigned int p = 0; p < TP_PIPELINE_MAX_PORTS; p++)
			enabled[p] |= pl->port[p].enabled;
		found = 1;
	}
	rte_spinlock_unlock(&pl_lock);
	return found || params == NULL || *params == '\0' ? 0 : -ENOENT;
}

/* Every counter endpoint: collect the counters, answer with a dict. */
static int
start_dict(const char *params, struct rte_tel_data *d, struct tp_pipeline_stats *s,
	   bool enabled[TP_PIPELINE_MAX_PORTS])
{
	if (collect(params, s, enabled) < 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	return 0;
}

static int
h_pipelines(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_pipeline *pl;

	(void)cmd;
	(void)params;
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	rte_spinlock_lock(&pl_lock);
	TAILQ_FOREACH(pl, &pl_list, next)
		rte_tel_data_add_array_string(d, pl->name);
	rte_spinlock_unlock(&pl_lock);
	return 0;
}

static int
h_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_pipeline_stats s;
	bool en[TP_PIPELINE_MAX_PORTS];

	(void)cmd;
	if (start_dict(params, d, &s, en) < 0)
		return -EINVAL;
	rte_tel_data_add_dict_u64(d, "rx", s.rx);
	rte_tel_data_add_dict_u64(d, "pass", s.pass);
	rte_tel_data_add_dict_u64(d, "tx", s.tx);
	rte_tel_data_add_dict_u64(d, "redirect", s.redirect);
	rte_tel_data_add_dict_u64(d, "drop", s.drop);
	rte_tel_data_add_dict_u64(d, "aborted", s.aborted);
	rte_tel_data_add_dict_u64(d, "held_in_gro", s.held_in_gro);
	for (unsigned int v = 0; v < TP_NB_VERDICTS; v++) {
		char k[40];

		snprintf(k, sizeof(k), "verdict_%s", tp_verdict_name(v));
		rte_tel_data_add_dict_u64(d, k, s.verdict[v]);
		snprintf(k, sizeof(k), "verdict_%s_pkts", tp_verdict_name(v));
		rte_tel_data_add_dict_u64(d, k, s.verdict_pkts[v]);
	}
	rte_tel_data_add_dict_u64(d, "bad_verdict", s.bad_verdict);
	rte_tel_data_add_dict_u64(d, "tso", s.tso);
	rte_tel_data_add_dict_u64(d, "segmented", s.segmented);
	rte_tel_data_add_dict_u64(d, "tx_retries", s.tx_retries);
	return 0;
}

static int
h_drops(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_pipeline_stats s;
	bool en[TP_PIPELINE_MAX_PORTS];

	(void)cmd;
	if (start_dict(params, d, &s, en) < 0)
		return -EINVAL;
	for (unsigned int r = 0; r < TP_DROP_MAX; r++)
		rte_tel_data_add_dict_u64(d, tp_drop_reason_name(r), s.drop_reason[r]);
	return 0;
}

static int
h_stages(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_pipeline_stats s;
	bool en[TP_PIPELINE_MAX_PORTS];

	(void)cmd;
	if (start_dict(params, d, &s, en) < 0)
		return -EINVAL;
	for (unsigned int i = 0; i < TP_STAGE_MAX; i++) {
		struct rte_tel_data *c = rte_tel_data_alloc();

		if (c == NULL)
			return -ENOMEM;
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "calls", s.stage[i].calls);
		rte_tel_data_add_dict_u64(c, "in", s.stage[i].in);
		rte_tel_data_add_dict_u64(c, "out", s.stage[i].out);
		rte_tel_data_add_dict_u64(c, "drop", s.stage[i].drop);
		rte_tel_data_add_dict_u64(c, "cycles", s.stage[i].cycles);
		rte_tel_data_add_dict_container(d, tp_stage_name(i), c, 0);
	}
	return 0;
}

static int
h_ports(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_pipeline_stats s;
	bool en[TP_PIPELINE_MAX_PORTS];

	(void)cmd;
	if (start_dict(params, d, &s, en) < 0)
		return -EINVAL;
	for (unsigned int p = 0; p < TP_PIPELINE_MAX_PORTS; p++) {
		struct rte_tel_data *c;
		char name[16];

		if (!en[p])
			continue;
		c = rte_tel_data_alloc();
		if (c == NULL)
			return -ENOMEM;
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "rx", s.port[p].rx);
		rte_tel_data_add_dict_u64(c, "tx", s.port[p].tx);
		rte_tel_data_add_dict_u64(c, "tx_full", s.port[p].tx_full);
		rte_tel_data_add_dict_u64(c, "tx_wire", s.port[p].tx_wire);
		snprintf(name, sizeof(name), "%u", p);
		rte_tel_data_add_dict_container(d, name, c, 0);
	}
	return 0;
}

/* "/tagpipe/bpf_map,NAME": the map NAME of the first pipeline whose
 * verdict program is an XDP object that has it: its shape and elements
 * (tp_prog_bpf_map_dump's hex), at most RTE_TEL_MAX_DICT_ENTRIES. */
static int
h_bpf_map(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_bpf_map_info mi;
	struct rte_tel_data *el;
	struct tp_pipeline *pl;
	const struct tp_prog *prog = NULL;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	int idx = -1, n = 0;
	FILE *f;

	(void)cmd;
	if (params == NULL || *params == '\0')
		return -EINVAL;
	rte_spinlock_lock(&pl_lock);
	TAILQ_FOREACH(pl, &pl_list, next) {
		idx = tp_prog_bpf_map_find(pl->prog, params);
		if (idx >= 0) {
			prog = pl->prog;
			break;
		}
	}
	/* under pl_lock: a pipeline leaves the list before its program can be
	 * closed (pipeline.c destroy; tagpipe-fwd closes its shared one after
	 * destroying every pipeline) */
	f = prog != NULL ? open_memstream(&buf, &len) : NULL;
	if (f != NULL) {
		tp_prog_bpf_map_info(prog, idx, &mi);
		tp_prog_bpf_map_dump(prog, idx, f);
		fclose(f);
	}
	rte_spinlock_unlock(&pl_lock);
	if (buf == NULL)
		return -EINVAL;
	el = rte_tel_data_alloc();
	if (el == NULL) {
		free(buf);
		return -ENOMEM;
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "type", mi.type);
	rte_tel_data_add_dict_u64(d, "key_size", mi.key_size);
	rte_tel_data_add_dict_u64(d, "value_size", mi.value_size);
	rte_tel_data_add_dict_u64(d, "max_entries", mi.max_entries);
	rte_tel_data_add_dict_u64(d, "ncpu", mi.ncpu);
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

int
tp_telemetry_register(void)
{
	static const struct {
		const char *cmd;
		telemetry_cb fn;
		const char *help;
	} eps[] = {
		{ "/tagpipe/pipelines", h_pipelines,
		  "Names of the tagpipe pipelines. No parameters" },
		{ "/tagpipe/stats", h_stats,
		  "Conservation and verdict counters (frames). Parameter: pipeline name (optional)" },
		{ "/tagpipe/drops", h_drops,
		  "Drops per reason (frames). Parameter: pipeline name (optional)" },
		{ "/tagpipe/stages", h_stages,
		  "Per stage calls/in/out/drop/cycles. Parameter: pipeline name (optional)" },
		{ "/tagpipe/ports", h_ports,
		  "Per port rx/tx/tx_full/tx_wire. Parameter: pipeline name (optional)" },
		{ "/tagpipe/bpf_map", h_bpf_map,
		  "An XDP object's map: shape and elements (hex KEY: VALUE). Parameter: map name" },
	};
	static bool done;

	if (done)
		return 0;
	for (unsigned int i = 0; i < RTE_DIM(eps); i++) {
		int rc = rte_telemetry_register_cmd(eps[i].cmd, eps[i].fn, eps[i].help);

		if (rc < 0 && rc != -EINVAL)
			return rc;
	}
	done = true;
	return 0;
}
