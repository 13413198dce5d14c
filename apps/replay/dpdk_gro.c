/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay --compare dpdk-gro: DPDK's own librte_gro on the same input.
 *
 * What a DPDK application would run for the same job, step by step, each
 * timed apart:
 *  1. untag: librte_gro parses no switch tag, so the frames first go
 *     through tagpipe's own DSA and VLAN strip (the same tagger, switch
 *     and VLAN configuration as tagpipe's pipeline); a DPDK user would have
 *     to write this step;
 *  2. parse: librte_gro needs packet_type and l2_len/l3_len/l4_len filled
 *     in (rte_gro.h, rte_gro_reassemble); a NIC with ptype offload gives
 *     them, so this is shown apart;
 *  3. GRO: context ("heavyweight") mode, rte_gro_reassemble() per burst and
 *     rte_gro_timeout_flush() after it with the flush interval of tagpipe's
 *     GRO (0 = everything, as tagpipe's burst mode; else its age).
 * Its best configuration for the input: max_flow_num = 2 x the TCP/IPv4
 * flows the input holds (counted before the run), max_item_per_flow = 4
 * (items past a flow's first are packets it could not append, e.g. after
 * a reordering). The flush walks every item of the table
 * (gro_tcp4_tbl_timeout_flush in lib/gro/gro_tcp4.c), so a table sized for
 * the real flows is its cheapest.
 *
 * DPDK 22.11 merges TCP/IPv4 only (RTE_GRO_TCP_IPV4; RTE_GRO_TCP_IPV6
 * arrived in 23.07): every other frame passes through unmerged, and the
 * survey before the run counts those by type, so the report can name them.
 * librte_gro checks no checksum.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_gro.h>
#include <rte_net.h>

#include "replay.h"

const char *const replay_dgro_kind_names[REPLAY_DGRO_NB_KINDS] = {
	"tcp4", "tcp6", "udp4", "udp6", "other_ip4", "other_ip6", "not_ip", "untag_drop",
};

struct replay_dgro {
	void *ctx;
	uint64_t flush_tsc;
	const struct tp_dsa_tagger *tagger;
	struct tp_dsa_conf dsa;
	struct tp_vlan_conf vlan;
	bool vlan_strip;
	struct tp_dsa_stats dsa_st;
	struct tp_vlan_stats vlan_st;
	struct rte_mbuf **drops;
	/* Survey: TCP/IPv4 flow keys seen (sorted and counted at start). */
	uint64_t *keys;
	size_t nkeys, cap;
};

struct replay_dgro *
replay_dgro_create(const struct replay_opts *o, uint64_t flush_tsc)
{
	struct replay_dgro *d = calloc(1, sizeof(*d));
	struct tp_port_conf pc;

	if (d == NULL)
		return NULL;
	memset(&pc, 0, sizeof(pc));
	tp_vlan_conf_init(&pc.vlan_conf);
	replay_port_conf(o, &pc);
	d->tagger = tp_dsa_tagger_find(pc.tagger);
	d->dsa = pc.dsa;
	d->vlan = pc.vlan_conf;
	d->vlan_strip = pc.vlan == TP_VLAN_POLICY_STRIP;
	d->flush_tsc = flush_tsc;
	d->drops = calloc(o->burst, sizeof(*d->drops));
	if (d->tagger == NULL || d->drops == NULL) {
		replay_dgro_destroy(d);
		return NULL;
	}
	return d;
}

void
replay_dgro_destroy(struct replay_dgro *d)
{
	if (d == NULL)
		return;
	if (d->ctx != NULL)
		rte_gro_ctx_destroy(d->ctx);
	free(d->drops);
	free(d->keys);
	free(d);
}

/* Step 1: tagpipe's untag stages; frames they drop are freed. */
uint16_t
replay_dgro_untag(struct replay_dgro *d, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t k = tp_dsa_strip_burst(d->tagger, pkts, n, &d->dsa, d->drops, &d->dsa_st);

	rte_pktmbuf_free_bulk(d->drops, n - k);
	if (d->vlan_strip) {
		uint16_t k2 = tp_vlan_strip_burst(&d->vlan, pkts, k, d->drops, &d->vlan_st);

		rte_pktmbuf_free_bulk(d->drops, k - k2);
		k = k2;
	}
	return k;
}

/* Step 2: what a NIC with ptype offload would have filled in. */
void
replay_dgro_ptype(struct rte_mbuf **pkts, uint16_t n)
{
	for (uint16_t i = 0; i < n; i++) {
		struct rte_net_hdr_lens hl = { 0 };

		pkts[i]->packet_type = rte_net_get_ptype(pkts[i], &hl, RTE_PTYPE_ALL_MASK);
		pkts[i]->l2_len = hl.l2_len;
		pkts[i]->l3_len = hl.l3_len;
		pkts[i]->l4_len = hl.l4_len;
	}
}

static enum replay_dgro_kind
kind_of(uint32_t pt)
{
	uint32_t l3 = pt & RTE_PTYPE_L3_MASK, l4 = pt & RTE_PTYPE_L4_MASK;
	bool v4 = RTE_ETH_IS_IPV4_HDR(l3), v6 = RTE_ETH_IS_IPV6_HDR(l3);

	if (!v4 && !v6)
		return REPLAY_DGRO_NOT_IP;
	if (l4 == RTE_PTYPE_L4_TCP)
		return v4 ? REPLAY_DGRO_TCP4 : REPLAY_DGRO_TCP6;
	if (l4 == RTE_PTYPE_L4_UDP)
		return v4 ? REPLAY_DGRO_UDP4 : REPLAY_DGRO_UDP6;
	return v4 ? REPLAY_DGRO_OTHER4 : REPLAY_DGRO_OTHER6;
}

/* The flow a TCP/IPv4 frame belongs to, as librte_gro keys it (addresses
 * and ports; hashed to 64 bits, enough to count flows). */
static uint64_t
tcp4_key(const struct rte_mbuf *m)
{
	const uint8_t *ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, m->l2_len);
	uint64_t h = 1469598103934665603ULL; /* FNV-1a offset basis */
	uint8_t b[12];

	memcpy(b, ip + 12, 8);                /* source, destination address */
	memcpy(b + 8, ip + m->l3_len, 4);     /* source, destination port */
	for (int i = 0; i < 12; i++)
		h = (h ^ b[i]) * 1099511628211ULL; /* FNV-1a prime */
	return h;
}

int
replay_dgro_survey(struct replay_dgro *d, struct rte_mbuf **pkts, uint16_t n,
		   struct replay_engine_stats *st)
{
	uint16_t k = replay_dgro_untag(d, pkts, n);

	st->kinds[REPLAY_DGRO_UNTAG_DROP] += n - k;
	replay_dgro_ptype(pkts, k);
	for (uint16_t i = 0; i < k; i++) {
		enum replay_dgro_kind kd = kind_of(pkts[i]->packet_type);

		st->kinds[kd]++;
		if (kd != REPLAY_DGRO_TCP4 || rte_pktmbuf_data_len(pkts[i]) <
		    pkts[i]->l2_len + pkts[i]->l3_len + 4)
			continue;
		if (d->nkeys == d->cap) {
			size_t cap = d->cap ? 2 * d->cap : 1024;
			uint64_t *nk = realloc(d->keys, cap * sizeof(*nk));

			if (nk == NULL) {
				rte_pktmbuf_free_bulk(pkts, k);
				return -ENOMEM;
			}
			d->keys = nk;
			d->cap = cap;
		}
		d->keys[d->nkeys++] = tcp4_key(pkts[i]);
	}
	rte_pktmbuf_free_bulk(pkts, k);
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int
replay_dgro_start(struct replay_dgro *d, int socket_id, struct replay_engine_stats *st)
{
	struct rte_gro_param p = {
		.gro_types = RTE_GRO_TCP_IPV4,
		.max_item_per_flow = REPLAY_DGRO_ITEMS,
		.socket_id = (uint16_t)(socket_id < 0 ? 0 : socket_id),
	};
	uint32_t flows = 0;

	qsort(d->keys, d->nkeys, sizeof(*d->keys), cmp_u64);
	for (size_t i = 0; i < d->nkeys; i++)
		flows += i == 0 || d->keys[i] != d->keys[i - 1];
	st->flows = flows;
	p.max_flow_num = (uint16_t)RTE_MIN(RTE_MAX(2 * flows, 2u), (uint32_t)UINT16_MAX);
	st->max_flow_num = p.max_flow_num;
	d->ctx = rte_gro_ctx_create(&p);
	return d->ctx != NULL ? 0 : -ENOMEM;
}

static void
count_out(struct replay_engine_stats *st, struct rte_mbuf **pkts, uint16_t n)
{
	for (uint16_t i = 0; i < n; i++)
		replay_hist_add(st->hist, pkts[i]->nb_segs);
	st->out += n;
}

uint16_t
replay_dgro_burst(struct replay_dgro *d, struct rte_mbuf **pkts, uint16_t n,
		  struct rte_mbuf **out, uint16_t max_out,
		  struct replay_engine_stats *st)
{
	uint64_t t0, t1, t2, t3;
	uint16_t k, left, nf, nb = 0;

	t0 = rte_rdtsc_precise();
	k = replay_dgro_untag(d, pkts, n);
	t1 = rte_rdtsc_precise();
	replay_dgro_ptype(pkts, k);
	t2 = rte_rdtsc_precise();
	left = rte_gro_reassemble(pkts, k, d->ctx);
	/* Unprocessed packets come back at the front of pkts. */
	for (uint16_t i = 0; i < left && nb < max_out; i++)
		out[nb++] = pkts[i];
	nf = rte_gro_timeout_flush(d->ctx, d->flush_tsc, RTE_GRO_TCP_IPV4,
				   out + nb, (uint16_t)(max_out - nb));
	t3 = rte_rdtsc_precise();
	nb += nf;
	st->frames += n;
	st->in += k;
	st->untag_cycles += t1 - t0;
	st->parse_cycles += t2 - t1;
	st->cycles += t3 - t2;
	count_out(st, out, nb);
	return nb;
}

uint16_t
replay_dgro_drain(struct replay_dgro *d, struct rte_mbuf **out, uint16_t max_out,
		  struct replay_engine_stats *st)
{
	uint64_t t0 = rte_rdtsc_precise();
	uint16_t nb = rte_gro_timeout_flush(d->ctx, 0, RTE_GRO_TCP_IPV4, out, max_out);

	st->cycles += rte_rdtsc_precise() - t0;
	count_out(st, out, nb);
	return nb;
}

uint64_t
replay_dgro_held(struct replay_dgro *d)
{
	return rte_gro_get_pkt_count(d->ctx);
}
