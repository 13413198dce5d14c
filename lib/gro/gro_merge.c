/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_gro_merge_burst: per burst, parse a chunk of packets (prefetching
 * ahead), then walk them in arrival order: find the held aggregate of the
 * packet's flow in its bucket, apply Linux's flush rules (doc §1c), append
 * or start a new aggregate.
 */
#include <errno.h>

#include <rte_branch_prediction.h>
#include <rte_prefetch.h>

#include "gro_priv.h"
#include "gro_parse.h"

#define GRO_CHUNK 32
#define GRO_PREFETCH 4

static inline int
key_eq(const struct gro_key *a, const struct gro_key *b)
{
	uint64_t d = 0;
	int i;

	for (i = 0; i < 10; i++)
		d |= a->w[i] ^ b->w[i];
	return d == 0;
}

static inline int
ext_eq(const struct gro_flow *f, const struct gro_pkt *p)
{
	const uint8_t *a = rte_pktmbuf_mtod_offset(f->head, const uint8_t *, f->l2_len + 40);
	const uint8_t *b = rte_pktmbuf_mtod_offset(p->m, const uint8_t *, p->l2_len + 40);
	uint32_t k = p->ext_patch;

	if (k == GRO_NIL)
		return memcmp(a, b, p->key.ext_len) == 0;
	/* the held flow's byte at the fragment's next-header position is TCP */
	return memcmp(a, b, k) == 0 && a[k] == 6 &&
	       memcmp(a + k + 1, b + k + 1, p->key.ext_len - k - 1) == 0;
}

/* Held entry of p's flow, or GRO_NIL. Extension headers are compared byte
 * for byte against the held head (its headers are intact while held). */
static inline uint16_t
lookup(const struct tp_gro *g, const struct gro_pkt *p)
{
	const struct gro_bucket *b = &g->buckets[p->hash & g->bucket_mask];
	unsigned int used = b->used;

	while (used) {
		unsigned int i = (unsigned int)__builtin_ctz(used);
		const struct gro_flow *f;

		used &= used - 1;
		if (b->hash[i] != p->hash)
			continue;
		f = &g->flows[b->flow[i]];
		if (!key_eq(&f->key, &p->key))
			continue;
		if (p->key.ext_len != 0 && !ext_eq(f, p))
			continue;
		return b->flow[i];
	}
	return GRO_NIL;
}

/* TP_GRO_FLUSH_MAX: p may be appended to f; else the reason to flush f. */
static inline enum tp_gro_flush_reason
check(const struct tp_gro *g, const struct gro_flow *f, const struct gro_pkt *p)
{
	if ((p->tcpw ^ f->tcpw) & ~(GRO_TCPW_PSH | GRO_TCPW_FIN))
		return TP_GRO_FLUSH_FLAGS;
	if (p->ack != f->ack)
		return TP_GRO_FLUSH_ACK;
	if (p->optlen != 0 && memcmp(p->opts, f->opts, p->optlen) != 0)
		return TP_GRO_FLUSH_OPTS;
	if (p->seq != f->next_seq)
		return TP_GRO_FLUSH_SEQ;
	if (p->paylen > f->mss)
		return TP_GRO_FLUSH_MSS;
	if (p->l3w != f->l3w)
		return TP_GRO_FLUSH_L3;
	if (!p->v6) {
		/* inet_gro_flush (include/net/gro.h, doc §1c): with the second
		 * segment an equal ID selects fixed mode; then every ID must equal
		 * the first, else be first + segments so far. */
		uint16_t off = (uint16_t)(p->ip_id - f->first_id);

		if (f->segs == 1) {
			if (off > 1)
				return TP_GRO_FLUSH_IPID;
		} else if (off != (f->id_mode == GRO_ID_FIXED ? 0 : f->segs)) {
			return TP_GRO_FLUSH_IPID;
		}
	}
	if (f->ip_len + p->paylen > g->max_ip_len ||
	    (uint32_t)f->mbufs + p->m->nb_segs > RTE_MBUF_MAX_NB_SEGS)
		return TP_GRO_FLUSH_SIZE;
	return TP_GRO_FLUSH_MAX;
}

static inline void
append(struct tp_gro *g, struct gro_flow *f, const struct gro_pkt *p)
{
	struct rte_mbuf *m = p->m;

	if (f->segs == 1)
		f->id_mode = (p->v6 || p->ip_id != f->first_id) ? GRO_ID_INC : GRO_ID_FIXED;
	/* keep only the payload: headers stay in the headroom, padding goes
	 * (a chained packet has no padding: see trailer()) */
	m->data_off = (uint16_t)(m->data_off + f->hdr_len);
	m->pkt_len = p->paylen;
	f->tail->next = m;
	f->mbufs = (uint16_t)(f->mbufs + m->nb_segs);
	if (m->nb_segs == 1) {
		m->data_len = p->paylen;
		f->tail = m;
	} else {
		m->data_len = (uint16_t)(m->data_len - f->hdr_len);
		f->tail = rte_pktmbuf_lastseg(m);
	}
	f->next_seq += p->paylen;
	f->ip_len += p->paylen;
	f->segs++;
	f->psh_fin = (uint8_t)((p->tcpw >> 16) & 0x09);
	g->held_segs++;
}

static inline void
start(struct tp_gro *g, const struct gro_pkt *p, uint64_t now, struct rte_mbuf **out,
      uint32_t *no)
{
	struct gro_bucket *b = &g->buckets[p->hash & g->bucket_mask];
	struct gro_flow *f;
	uint16_t idx;
	unsigned int slot;

	if (b->used == 0xFF) {
		/* gro_flush_oldest: the bucket's oldest aggregate goes (doc §2) */
		uint16_t old = b->flow[0];
		unsigned int i;

		for (i = 1; i < GRO_BUCKET_SLOTS; i++)
			if ((int32_t)(g->flows[b->flow[i]].birth - g->flows[old].birth) < 0)
				old = b->flow[i];
		out[(*no)++] = gro_complete(g, old, TP_GRO_FLUSH_BUCKET_FULL);
	}
	if (g->nb_free == 0)
		out[(*no)++] = gro_complete(g, g->age_head, TP_GRO_FLUSH_TABLE_FULL);
	slot = (unsigned int)__builtin_ctz(~(unsigned int)b->used);
	idx = gro_flow_alloc(g);
	f = &g->flows[idx];
	f->next_seq = p->seq + p->paylen;
	f->ack = p->ack;
	f->tcpw = p->tcpw;
	f->l3w = p->l3w;
	f->ip_len = p->ip_len;
	f->hash = p->hash;
	f->mss = p->paylen;
	f->segs = 1;
	f->first_id = p->ip_id;
	f->hdr_len = (uint16_t)(p->l2_len + p->l3_len + p->l4_len);
	f->id_mode = GRO_ID_NONE;
	f->psh_fin = 0;
	f->optlen = p->optlen;
	f->v6 = p->v6;
	f->start_tsc = now;
	f->birth = g->births++;
	f->head = p->m;
	f->tail = rte_pktmbuf_lastseg(p->m);
	f->mbufs = p->m->nb_segs;
	f->head_single = p->m->nb_segs == 1;
	f->l2_len = p->l2_len;
	f->l3_len = p->l3_len;
	memcpy(f->opts, p->opts, p->optlen);
	f->key = p->key;
	gro_flow_link(g, idx, p->hash & g->bucket_mask, (uint8_t)slot);
}

static inline void
process(struct tp_gro *g, const struct gro_pkt *p, uint64_t now,
	struct rte_mbuf **out, uint32_t *no)
{
	enum tp_gro_flush_reason why;
	struct gro_flow *f;
	uint16_t idx;

	if (p->pass != GRO_HOLDABLE) {
		/* keep the flow in order: its held aggregate leaves first */
		if (p->has_key && (idx = lookup(g, p)) != GRO_NIL)
			out[(*no)++] = gro_complete(g, idx, TP_GRO_FLUSH_BYPASS);
		g->st.pass[p->pass]++;
		g->st.passed++;
		out[(*no)++] = p->m;
		return;
	}
	idx = lookup(g, p);
	if (idx != GRO_NIL) {
		f = &g->flows[idx];
		why = check(g, f, p);
		if (why == TP_GRO_FLUSH_MAX) {
			append(g, f, p);
			if (p->paylen < f->mss)
				why = TP_GRO_FLUSH_SHORT;
			else if (f->psh_fin)
				why = TP_GRO_FLUSH_PSH_FIN;
			else if (f->segs >= g->max_segs)
				why = TP_GRO_FLUSH_MAX_SEGS;
			if (why != TP_GRO_FLUSH_MAX)
				out[(*no)++] = gro_complete(g, idx, why);
			return;
		}
		out[(*no)++] = gro_complete(g, idx, why);
	}
	if (p->tcpw & (GRO_TCPW_PSH | GRO_TCPW_FIN)) {
		/* a flush-marked segment with nothing to join is not held */
		g->st.pass[TP_GRO_PASS_PSH_FIN]++;
		g->st.passed++;
		out[(*no)++] = p->m;
		return;
	}
	start(g, p, now, out, no);
}

int
tp_gro_merge_burst(struct tp_gro *g, struct rte_mbuf **pkts, uint16_t n,
		   struct rte_mbuf **out, uint16_t out_max, uint64_t now_tsc)
{
	struct gro_pkt pk[GRO_CHUNK];
	uint32_t no = 0, base, j;

	if ((uint32_t)out_max < 2u * n)
		return -EINVAL;
	for (base = 0; base < n; base += GRO_CHUNK) {
		uint32_t cnt = RTE_MIN((uint32_t)GRO_CHUNK, n - base);

		for (j = 0; j < cnt && j < GRO_PREFETCH; j++)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[base + j], void *));
		for (j = 0; j < cnt; j++) {
			if (j + GRO_PREFETCH < cnt)
				rte_prefetch0(rte_pktmbuf_mtod(pkts[base + j + GRO_PREFETCH],
							       void *));
			gro_parse(g, &pk[j], pkts[base + j]);
			if (pk[j].has_key)
				rte_prefetch0(&g->buckets[pk[j].hash & g->bucket_mask]);
		}
		for (j = 0; j < cnt; j++)
			process(g, &pk[j], now_tsc, out, &no);
	}
	g->st.pkts_in += n;
	g->st.pkts_out += no;
	if (g->conf.mode == TP_GRO_MODE_BURST) {
		while (g->age_head != GRO_NIL && no < out_max) {
			out[no++] = gro_complete(g, g->age_head, TP_GRO_FLUSH_BURST);
			g->st.pkts_out++;
		}
	} else {
		no += tp_gro_flush(g, now_tsc, out + no, (uint16_t)(out_max - no));
	}
	return (int)no;
}
