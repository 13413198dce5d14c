/* SPDX-License-Identifier: BSD-3-Clause */
/* Differential runs: interpreter against compiled code (bpf_diff.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_diff.h"

struct seg_snap {
	uint16_t data_off;
	uint16_t data_len;
	uint16_t buf_len;
	uint8_t *buf;             /* buf_len bytes: headroom, data, tailroom */
	size_t cap;
};

struct map_snap {
	uint8_t *values;          /* values_len */
	uint8_t *state;           /* slots (hash types) */
	uint8_t *keys;            /* slots * key_size (hash types) */
	uint8_t *ref;             /* slots (LRU types) */
	uint32_t *plen;           /* LPM_TRIE: per prefix length */
	size_t nplen;
	uint32_t count, hand;
};

struct bpf_diff_snap {
	uint32_t nb_maps;
	struct map_snap maps[BPF_MAX_MAPS];
	uint32_t pkt_len;
	uint16_t nb_segs;
	struct seg_snap seg[BPF_DIFF_MAX_SEGS];
};

/* A stack for every run: the same address in both modes. */
static uint8_t diff_stack[BPF_MAX_FRAMES * BPF_STACK_SIZE] __attribute__((aligned(16)));

static void *
xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (p == NULL) {
		fprintf(stderr, "bpf_diff: out of memory\n");
		abort();
	}
	return p;
}

static size_t
nplen_of(const struct tp_bpf_map *m)
{
	return m->plen_count != NULL ? (size_t)(m->key_size - 4) * 8 + 1 : 0;
}

struct bpf_diff_snap *
bpf_diff_snap_new(const struct tp_bpf *p)
{
	struct bpf_diff_snap *s = xcalloc(1, sizeof(*s));

	s->nb_maps = p->nb_maps;
	for (uint32_t k = 0; k < p->nb_maps; k++) {
		const struct tp_bpf_map *m = &p->maps[k];
		struct map_snap *ms = &s->maps[k];

		if (m->values != NULL)
			ms->values = xcalloc(m->values_len, 1);
		if (m->state != NULL) {
			ms->state = xcalloc(m->slots, 1);
			ms->keys = xcalloc(m->slots, m->key_size);
		}
		if (m->ref != NULL)
			ms->ref = xcalloc(m->slots, 1);
		ms->nplen = nplen_of(m);
		if (ms->nplen)
			ms->plen = xcalloc(ms->nplen, sizeof(uint32_t));
	}
	return s;
}

void
bpf_diff_snap_free(struct bpf_diff_snap *s)
{
	if (s == NULL)
		return;
	for (uint32_t k = 0; k < s->nb_maps; k++) {
		free(s->maps[k].values);
		free(s->maps[k].state);
		free(s->maps[k].keys);
		free(s->maps[k].ref);
		free(s->maps[k].plen);
	}
	for (unsigned int i = 0; i < BPF_DIFF_MAX_SEGS; i++)
		free(s->seg[i].buf);
	free(s);
}

void
bpf_diff_save(struct bpf_diff_snap *s, const struct tp_bpf *p, const struct rte_mbuf *m)
{
	unsigned int i = 0;

	for (uint32_t k = 0; k < p->nb_maps; k++) {
		const struct tp_bpf_map *mp = &p->maps[k];
		struct map_snap *ms = &s->maps[k];

		if (ms->values != NULL)
			memcpy(ms->values, mp->values, mp->values_len);
		if (ms->state != NULL) {
			memcpy(ms->state, mp->state, mp->slots);
			memcpy(ms->keys, mp->keys, (size_t)mp->slots * mp->key_size);
		}
		if (ms->ref != NULL)
			memcpy(ms->ref, mp->ref, mp->slots);
		if (ms->plen != NULL)
			memcpy(ms->plen, mp->plen_count, ms->nplen * sizeof(uint32_t));
		ms->count = mp->count;
		ms->hand = mp->hand;
	}
	s->pkt_len = m->pkt_len;
	s->nb_segs = m->nb_segs;
	for (const struct rte_mbuf *g = m; g != NULL && i < BPF_DIFF_MAX_SEGS; g = g->next, i++) {
		struct seg_snap *ss = &s->seg[i];

		if (ss->cap < g->buf_len) {
			free(ss->buf);
			ss->buf = xcalloc(g->buf_len, 1);
			ss->cap = g->buf_len;
		}
		ss->data_off = g->data_off;
		ss->data_len = g->data_len;
		ss->buf_len = g->buf_len;
		memcpy(ss->buf, g->buf_addr, g->buf_len);
	}
}

void
bpf_diff_restore(const struct bpf_diff_snap *s, struct tp_bpf *p, struct rte_mbuf *m)
{
	unsigned int i = 0;

	for (uint32_t k = 0; k < p->nb_maps; k++) {
		struct tp_bpf_map *mp = &p->maps[k];
		const struct map_snap *ms = &s->maps[k];

		if (ms->values != NULL)
			memcpy(mp->values, ms->values, mp->values_len);
		if (ms->state != NULL) {
			memcpy(mp->state, ms->state, mp->slots);
			memcpy(mp->keys, ms->keys, (size_t)mp->slots * mp->key_size);
		}
		if (ms->ref != NULL)
			memcpy(mp->ref, ms->ref, mp->slots);
		if (ms->plen != NULL)
			memcpy(mp->plen_count, ms->plen, ms->nplen * sizeof(uint32_t));
		mp->count = ms->count;
		mp->hand = ms->hand;
	}
	m->pkt_len = s->pkt_len;
	for (struct rte_mbuf *g = m; g != NULL && i < BPF_DIFF_MAX_SEGS; g = g->next, i++) {
		const struct seg_snap *ss = &s->seg[i];

		g->data_off = ss->data_off;
		g->data_len = ss->data_len;
		memcpy(g->buf_addr, ss->buf, ss->buf_len);
	}
}

/* First differing byte of a[0..n) and b[0..n), or -1. */
static long
first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return (long)i;
	return -1;
}

int
bpf_diff_compare(const struct bpf_diff_snap *a, const struct bpf_diff_snap *b,
		 const struct tp_bpf *p, char *why, size_t len)
{
	long at;

	for (uint32_t k = 0; k < p->nb_maps; k++) {
		const struct tp_bpf_map *mp = &p->maps[k];
		const struct map_snap *x = &a->maps[k], *y = &b->maps[k];

		if (x->values != NULL &&
		    (at = first_diff(x->values, y->values, mp->values_len)) >= 0) {
			snprintf(why, len, "map '%s' value byte %ld: 0x%02x, 0x%02x", mp->name,
				 at, x->values[at], y->values[at]);
			return -1;
		}
		if (x->state != NULL &&
		    (first_diff(x->state, y->state, mp->slots) >= 0 ||
		     first_diff(x->keys, y->keys, (size_t)mp->slots * mp->key_size) >= 0)) {
			snprintf(why, len, "map '%s': hash slots or keys differ", mp->name);
			return -1;
		}
		if ((x->ref != NULL && first_diff(x->ref, y->ref, mp->slots) >= 0) ||
		    x->hand != y->hand) {
			snprintf(why, len, "map '%s': LRU reference bits or hand differ",
				 mp->name);
			return -1;
		}
		if (x->count != y->count ||
		    (x->plen != NULL && first_diff((const uint8_t *)x->plen,
						   (const uint8_t *)y->plen,
						   x->nplen * sizeof(uint32_t)) >= 0)) {
			snprintf(why, len, "map '%s': element count %u, %u", mp->name, x->count,
				 y->count);
			return -1;
		}
	}
	if (a->pkt_len != b->pkt_len || a->nb_segs != b->nb_segs) {
		snprintf(why, len, "packet: pkt_len %u, %u; segments %u, %u", a->pkt_len,
			 b->pkt_len, a->nb_segs, b->nb_segs);
		return -1;
	}
	for (unsigned int i = 0; i < a->nb_segs && i < BPF_DIFF_MAX_SEGS; i++) {
		const struct seg_snap *x = &a->seg[i], *y = &b->seg[i];

		if (x->data_off != y->data_off || x->data_len != y->data_len) {
			snprintf(why, len, "segment %u: data_off %u, %u; data_len %u, %u", i,
				 x->data_off, y->data_off, x->data_len, y->data_len);
			return -1;
		}
		if ((at = first_diff(x->buf, y->buf, x->buf_len)) >= 0) {
			snprintf(why, len, "segment %u: byte %ld of the buffer (data at %u): "
				 "0x%02x, 0x%02x", i, at, x->data_off, x->buf[at], y->buf[at]);
			return -1;
		}
	}
	return 0;
}

/* bpf_tp_meta's stand-in: what prog_bpf.c puts in front of the data
 * (struct tp_xdp_meta); its contents do not matter here, only that both
 * runs see the same bytes. */
static const uint8_t meta_pattern[8] = { 0x00, 0x64, 0x00, 0xc8, 0x03, 0x01, 0x02, 0x00 };

void
bpf_diff_run(struct tp_bpf *p, bool compiled, struct rte_mbuf *m, uint32_t cpu,
	     uint32_t budget, struct bpf_diff_out *o)
{
	uint8_t *data = rte_pktmbuf_mtod(m, uint8_t *);
	struct bpf_run rs = {
		.prog = p,
		.cpu = cpu,
		.stack = diff_stack,
		.redirect_key = UINT32_MAX,
		.loop_left = p->has_loops ? budget : UINT32_MAX,
		.m = m,
	};
	uint64_t r0;

	rs.ctx.ingress_ifindex = 1;
	rs.ctx.rx_queue_index = 0;
	rs.ctx.data = (uintptr_t)data;
	rs.ctx.data_end = (uintptr_t)data + m->data_len;
	rs.ctx.data_meta = (uintptr_t)data;
	if (p->reads_meta && rte_pktmbuf_headroom(m) >= BPF_TP_META_LEN) {
		rs.ctx.data_meta -= BPF_TP_META_LEN;
		memcpy((void *)(uintptr_t)rs.ctx.data_meta, meta_pattern, BPF_TP_META_LEN);
	}
	for (size_t i = 0; i < sizeof(diff_stack); i++)
		diff_stack[i] = (uint8_t)(0xa5 ^ (i * 7));
	if (compiled)
		p->compiled(&rs, 1, &r0, &tpb_cg_ops);
	else
		r0 = tpb_run(&rs);
	if (rs.rb_open != 0)
		tpb_ringbuf_abandon(&rs); /* as prog_bpf.c conclude() */
	o->r0 = r0;
	o->fault = rs.fault;
	o->why = rs.fault ? (uint32_t)rs.why : 0;
	o->redirect_key = rs.redirect_key;
	o->tail_calls = rs.tail_calls;
	o->loop_left = rs.loop_left;
}

const char *
bpf_diff_why(const struct bpf_diff_out *o)
{
	if (!o->fault)
		return "-";
	switch (o->why) {
	case BPF_CNT_OOB: return "oob";
	case BPF_CNT_BAD_HELPER_ARG: return "helper";
	case BPF_CNT_INSN_LIMIT: return "loop";
	default: return "?";
	}
}

static int
compare_out(const struct tp_bpf *p, const struct bpf_diff_out *a, const struct bpf_diff_out *b,
	    char *why, size_t len)
{
	if (a->fault != b->fault || a->why != b->why) {
		snprintf(why, len, "fault: interpreter %s, compiled %s (r0 0x%" PRIx64
			 ", 0x%" PRIx64 ")", bpf_diff_why(a), bpf_diff_why(b), a->r0, b->r0);
		return -1;
	}
	if (a->r0 != b->r0) {
		snprintf(why, len, "r0: interpreter 0x%" PRIx64 ", compiled 0x%" PRIx64,
			 a->r0, b->r0);
		return -1;
	}
	if (a->redirect_key != b->redirect_key) {
		snprintf(why, len, "redirect key: interpreter %u, compiled %u",
			 a->redirect_key, b->redirect_key);
		return -1;
	}
	if (a->tail_calls != b->tail_calls) {
		snprintf(why, len, "tail calls taken: interpreter %u, compiled %u",
			 a->tail_calls, b->tail_calls);
		return -1;
	}
	/* the budget is a contract for programs with loops only (an acyclic
	 * program's budget is never set, see prog_bpf.c prepare()) */
	if (p->has_loops && a->loop_left != b->loop_left) {
		snprintf(why, len, "loop budget left: interpreter %u, compiled %u",
			 a->loop_left, b->loop_left);
		return -1;
	}
	return 0;
}

uint16_t
bpf_diff_snap_segs(const struct bpf_diff_snap *s)
{
	return s->nb_segs;
}

int
bpf_diff_both(struct tp_bpf *p, struct rte_mbuf *m, uint32_t cpu, uint32_t budget,
	      struct bpf_diff_out *o, char *why, size_t len)
{
	struct bpf_diff_snap *before = bpf_diff_snap_new(p), *after_i = bpf_diff_snap_new(p);
	struct bpf_diff_out oc;
	char d[200];
	int rc = 0;

	bpf_diff_save(before, p, m);
	bpf_diff_run(p, false, m, cpu, budget, o);
	if (m->nb_segs != before->nb_segs) {
		/* segments freed: the state cannot be put back */
		bpf_diff_snap_free(before);
		bpf_diff_snap_free(after_i);
		return 1;
	}
	bpf_diff_save(after_i, p, m);
	bpf_diff_restore(before, p, m);
	bpf_diff_run(p, true, m, cpu, budget, &oc);
	bpf_diff_save(before, p, m); /* now: after the compiled run */
	if (compare_out(p, o, &oc, why, len) < 0) {
		rc = -1;
	} else if (bpf_diff_compare(after_i, before, p, d, sizeof(d)) < 0) {
		snprintf(why, len, "%s (interpreter first; r0 0x%" PRIx64 ", fault %s)", d,
			 o->r0, bpf_diff_why(o));
		rc = -1;
	}
	bpf_diff_snap_free(before);
	bpf_diff_snap_free(after_i);
	return rc;
}

bool
bpf_diff_deterministic(const struct tp_bpf *p)
{
	for (uint32_t pc = 0; pc < p->nb_insns; pc++) {
		const struct bpf_insn *i = &p->insns[pc];

		if ((p->insn_flags[pc] & BPF_IF_REACHED) && i->code == (BPF_JMP | BPF_CALL) &&
		    i->src_reg == 0 &&
		    (i->imm == BPF_FUNC_ktime_get_ns || i->imm == BPF_FUNC_get_prandom_u32))
			return false;
	}
	return true;
}
