/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay --compare dpdk-gro: DPDK's own librte_gro on the same input.
 *
 * Context ("heavyweight") mode, as testpmd's csum engine uses it:
 * rte_gro_reassemble() on each burst, then rte_gro_timeout_flush() with the
 * same flush interval as tagpipe's GRO (0 cycles = everything, for burst mode;
 * the age in TSC cycles for age mode). librte_gro needs packet_type and
 * l2_len/l3_len/l4_len filled in (gro-rules.md §4d, "Requirements"); a NIC
 * with ptype offload gives them for free, so that parse is timed apart.
 *
 * DPDK 22.11 has RTE_GRO_TCP_IPV4 only; RTE_GRO_TCP_IPV6 arrived in 23.07
 * (gro-rules.md §4b). TCP/IPv6 frames therefore pass through unmerged here,
 * and the report says so. Table size: max_flow_num = the flows given,
 * max_item_per_flow = 1, i.e. the same number of held aggregates as
 * tagpipe's table (create sizes both arrays with the product, §4d).
 */
#include <errno.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_gro.h>
#include <rte_net.h>

#include "replay.h"

struct replay_dgro {
	void *ctx;
	uint64_t flush_tsc;
};

struct replay_dgro *
replay_dgro_create(uint32_t max_flows, uint64_t flush_tsc, int socket_id)
{
	struct rte_gro_param p = {
		.gro_types = RTE_GRO_TCP_IPV4,
		.max_flow_num = (uint16_t)RTE_MIN(max_flows, (uint32_t)UINT16_MAX),
		.max_item_per_flow = 1,
		.socket_id = (uint16_t)(socket_id < 0 ? 0 : socket_id),
	};
	struct replay_dgro *d = calloc(1, sizeof(*d));

	if (d == NULL)
		return NULL;
	d->ctx = rte_gro_ctx_create(&p);
	if (d->ctx == NULL) {
		free(d);
		return NULL;
	}
	d->flush_tsc = flush_tsc;
	return d;
}

void
replay_dgro_destroy(struct replay_dgro *d)
{
	if (d == NULL)
		return;
	rte_gro_ctx_destroy(d->ctx);
	free(d);
}

/* What a NIC with ptype offload would have filled in. */
static void
set_ptype(struct rte_mbuf **pkts, uint16_t n)
{
	for (uint16_t i = 0; i < n; i++) {
		struct rte_net_hdr_lens hl = { 0 };

		pkts[i]->packet_type = rte_net_get_ptype(pkts[i], &hl, RTE_PTYPE_ALL_MASK);
		pkts[i]->l2_len = hl.l2_len;
		pkts[i]->l3_len = hl.l3_len;
		pkts[i]->l4_len = hl.l4_len;
	}
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
	uint64_t t0, t1, t2;
	uint16_t left, nf, nb = 0;

	t0 = rte_rdtsc_precise();
	set_ptype(pkts, n);
	t1 = rte_rdtsc_precise();
	left = rte_gro_reassemble(pkts, n, d->ctx);
	/* Unprocessed packets come back at the front of pkts. */
	for (uint16_t i = 0; i < left && nb < max_out; i++)
		out[nb++] = pkts[i];
	nf = rte_gro_timeout_flush(d->ctx, d->flush_tsc, RTE_GRO_TCP_IPV4,
				   out + nb, (uint16_t)(max_out - nb));
	t2 = rte_rdtsc_precise();
	nb += nf;
	st->in += n;
	st->parse_cycles += t1 - t0;
	st->cycles += t2 - t1;
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
