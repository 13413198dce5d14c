/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A program from an instruction array (contract: bpf_insns.h): the same
 * steps as opening an object (prog_bpf.c bpf_open) with the ELF part
 * (bpf_load.c) replaced by the caller's maps and instructions.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf_insns.h"

void
tpb_insns_close(struct tp_bpf *p)
{
	if (p == NULL)
		return;
	tpb_compiled_free(p);
	tpb_fib_free(p);
	btf__free(p->btf);
	for (uint32_t i = 0; i < p->nb_maps; i++)
		tpb_map_fini(&p->maps[i]);
	free(p->lruns);
	free(p->insns);
	free(p->insn_flags);
	free(p->counters);
	free(p);
}

static int
add_maps(struct tp_bpf *p, const struct bpf_insns_spec *s, char *err, size_t errlen)
{
	for (uint32_t k = 0; k < s->nb_maps; k++) {
		const struct bpf_insns_map *d = &s->maps[k];
		struct tp_bpf_map *m = &p->maps[k];

		if (d->name != NULL)
			snprintf(m->name, sizeof(m->name), "%s", d->name);
		else
			snprintf(m->name, sizeof(m->name), "map%u", k);
		m->type = d->type;
		m->key_size = d->key_size;
		m->value_size = d->value_size;
		m->max_entries = d->max_entries;
		if (tpb_map_init(m, p->ncpu, err, errlen) < 0) {
			tpb_map_fini(m);
			return -EINVAL;
		}
		p->nb_maps++;
	}
	return 0;
}

/* ld_imm64 with a map given by index -> the address bpf_load.c would
 * have relocated it to. */
static int
resolve_maps(struct tp_bpf *p, char *err, size_t errlen)
{
	for (uint32_t pc = 0; pc + 1 < p->nb_insns; pc++) {
		struct bpf_insn *i = &p->insns[pc];
		uint32_t k = (uint32_t)i->imm, off = (uint32_t)i[1].imm;
		const struct tp_bpf_map *m;
		uint64_t v;

		if (i->code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (i->src_reg != BPF_PSEUDO_MAP_IDX && i->src_reg != BPF_PSEUDO_MAP_IDX_VALUE) {
			pc++;
			continue;
		}
		if (k >= p->nb_maps) {
			snprintf(err, errlen, "insns: pc %u: map index %u (%u maps)", pc, k,
				 p->nb_maps);
			return -EINVAL;
		}
		m = &p->maps[k];
		if (i->src_reg == BPF_PSEUDO_MAP_IDX) {
			if (off != 0) {
				snprintf(err, errlen, "insns: pc %u: map handle with offset %u",
					 pc, off);
				return -EINVAL;
			}
			v = (uintptr_t)m;
		} else {
			/* kernel/bpf/arraymap.c array_map_direct_value_addr */
			if (m->type != BPF_MAP_TYPE_ARRAY || m->max_entries != 1 ||
			    off >= m->value_size) {
				snprintf(err, errlen, "insns: pc %u: value address %u of map "
					 "'%s' (a one-entry array of %u bytes only)", pc, off,
					 m->name, m->value_size);
				return -EINVAL;
			}
			v = (uintptr_t)m->values + off;
		}
		i[0].src_reg = 0;
		i[0].imm = (int32_t)(uint32_t)v;
		i[1].imm = (int32_t)(uint32_t)(v >> 32);
		pc++;
	}
	return 0;
}

int
tpb_insns_open(const struct bpf_insns_spec *s, struct tp_bpf **out, char *err, size_t errlen)
{
	struct tp_bpf *p;
	int rc;

	*out = NULL;
	if (s->nb_insns == 0 || s->nb_insns > BPF_MAX_INSNS || s->nb_maps > BPF_MAX_MAPS ||
	    s->nb_entries >= BPF_MAX_PROGS) {
		snprintf(err, errlen, "insns: %u instructions, %u maps, %u entries "
			 "(1..%d, at most %d, at most %d)", s->nb_insns, s->nb_maps,
			 s->nb_entries, BPF_MAX_INSNS, BPF_MAX_MAPS, BPF_MAX_PROGS - 1);
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		goto nomem;
	snprintf(p->path, sizeof(p->path), "insns");
	snprintf(p->section, sizeof(p->section), "xdp");
	snprintf(p->func, sizeof(p->func), "prog0");
	p->ncpu = s->ncpu ? s->ncpu : 1;
	p->counters = calloc(p->ncpu, sizeof(*p->counters));
	p->insns = malloc(s->nb_insns * sizeof(*p->insns));
	if (p->counters == NULL || p->insns == NULL)
		goto nomem_p;
	memcpy(p->insns, s->insns, s->nb_insns * sizeof(*p->insns));
	p->nb_insns = s->nb_insns;
	p->nb_progs = 1 + s->nb_entries;
	for (uint32_t k = 0; k < p->nb_progs; k++) {
		struct bpf_prog_ent *e = &p->progs[k];

		e->entry = k == 0 ? 0 : s->entries[k - 1];
		if (e->entry >= p->nb_insns) {
			snprintf(err, errlen, "insns: program %u starts at pc %u (%u "
				 "instructions)", k, e->entry, p->nb_insns);
			tpb_insns_close(p);
			return -EINVAL;
		}
		snprintf(e->name, sizeof(e->name), "prog%u", k);
		snprintf(e->section, sizeof(e->section), "xdp");
	}
	rc = add_maps(p, s, err, errlen);
	if (rc == 0)
		rc = resolve_maps(p, err, errlen);
	if (rc == 0)
		rc = tpb_verify_and_rewrite(p, err, errlen);
	if (rc < 0) {
		tpb_insns_close(p);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	snprintf(p->verify_note, sizeof(p->verify_note), "kernel verifier not asked");
	snprintf(p->mode_note, sizeof(p->mode_note), "interpreted");
	/* as prog_bpf.c: every map whose values a program may reach */
	for (uint32_t i = 0; i < p->nb_maps; i++) {
		if (tpb_map_is_opaque(p->maps[i].type))
			continue;
		p->regions[p->nb_regions].base = (uintptr_t)p->maps[i].values;
		p->regions[p->nb_regions].len = p->maps[i].values_len;
		p->nb_regions++;
	}
	*out = p;
	return 0;
nomem_p:
	tpb_insns_close(p);
nomem:
	snprintf(err, errlen, "insns: out of memory");
	return -ENOMEM;
}
