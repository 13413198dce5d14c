/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay --compare dpdk-gro, the like-for-like row: tp_gro and
 * librte_gro alone, on exactly the frames both can merge.
 *
 * The main rows run each engine on the whole input, where tagpipe also
 * merges what DPDK 22.11 passes through untouched (TCP/IPv6 above all), so
 * their cycles per frame pay for different work. Here both get the same
 * frames: the input's TCP/IPv4 frames only (as the survey classifies them
 * once untagged), in their order, in bursts of --burst, untagged by
 * tagpipe's stages beforehand and, for librte_gro, packet_type and header
 * lengths filled in (neither step timed: each is the same for both and is
 * shown in the main rows). Timed: tp_gro_merge_burst (with its own flush at
 * the burst's end) against rte_gro_reassemble + rte_gro_timeout_flush with
 * the same flush interval, then each engine's final drain, after one pass
 * of each that is not counted (first touch of the tables). librte_gro in
 * the configuration of the main rows (max_flow_num 2 x the flows,
 * max_item_per_flow 4), tp_gro in tagpipe's (--gro, --gro-flows,
 * --gro-csum). The two engines alternate which runs first in each loop, so
 * neither always finds the caches warmed by the other.
 */
#include <errno.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_gro.h>

#include <tp_gro.h>

#include "replay.h"

struct alone_run {
	const struct replay_opts *o;
	const struct replay_input *sub;
	struct rte_mempool *mp;
	struct replay_dgro *d;
	struct rte_mbuf **pkts, **out;
	uint16_t max_out;
};

static struct tp_gro *
tp_engine_create(const struct replay_opts *o)
{
	const struct tp_pipeline_gro *pg = &o->gro_conf;
	struct tp_gro_conf gc = {
		.max_flows = pg->max_flows,
		.max_segs = pg->max_segs,
		.mode = pg->mode == TP_GRO_AGE ? TP_GRO_MODE_AGE : TP_GRO_MODE_BURST,
		.age_tsc = pg->mode == TP_GRO_AGE ? tp_gro_usec_to_tsc(pg->age_usec) : 0,
		.no_sw_csum = pg->no_sw_csum,
		.socket_id = (int)rte_socket_id(),
		.order = pg->kernel_order ? TP_GRO_ORDER_KERNEL : TP_GRO_ORDER_FLOW,
		.tunnels = pg->tunnels,
		.udp = pg->udp,
	};

	memcpy(gc.vxlan_ports, pg->vxlan_ports, sizeof(gc.vxlan_ports));
	return tp_gro_create(&gc);
}

/* One pass of sub through tp_gro; cycles inside it, packets out in *nout. */
static int
tp_pass(struct alone_run *r, struct tp_gro *g, uint64_t *cycles, uint64_t *nout)
{
	uint64_t t0;
	int k;

	for (uint32_t i = 0; i < r->sub->nb_frames; i += r->o->burst) {
		uint16_t n = (uint16_t)RTE_MIN((uint32_t)r->o->burst, r->sub->nb_frames - i);

		if (replay_make_burst(r->mp, r->sub, i, r->pkts, n) < 0)
			return -ENOMEM;
		n = replay_dgro_untag(r->d, r->pkts, n);
		t0 = rte_rdtsc_precise();
		k = tp_gro_merge_burst(g, r->pkts, n, r->out, r->max_out, rte_rdtsc());
		*cycles += rte_rdtsc_precise() - t0;
		if (k < 0)
			return k;
		*nout += (uint64_t)k;
		rte_pktmbuf_free_bulk(r->out, (unsigned int)k);
	}
	while (tp_gro_held_flows(g) > 0) {
		t0 = rte_rdtsc_precise();
		k = tp_gro_flush_all(g, r->out, r->max_out);
		*cycles += rte_rdtsc_precise() - t0;
		*nout += (uint64_t)k;
		rte_pktmbuf_free_bulk(r->out, (unsigned int)k);
	}
	return 0;
}

/* The same pass through librte_gro's context ctx. */
static int
dpdk_pass(struct alone_run *r, void *ctx, uint64_t flush_tsc, uint64_t *cycles,
	  uint64_t *nout)
{
	uint64_t t0;
	uint16_t k, left;

	for (uint32_t i = 0; i < r->sub->nb_frames; i += r->o->burst) {
		uint16_t n = (uint16_t)RTE_MIN((uint32_t)r->o->burst, r->sub->nb_frames - i);

		if (replay_make_burst(r->mp, r->sub, i, r->pkts, n) < 0)
			return -ENOMEM;
		n = replay_dgro_untag(r->d, r->pkts, n);
		replay_dgro_ptype(r->pkts, n);
		t0 = rte_rdtsc_precise();
		left = rte_gro_reassemble(r->pkts, n, ctx);
		k = rte_gro_timeout_flush(ctx, flush_tsc, RTE_GRO_TCP_IPV4, r->out,
					  r->max_out);
		*cycles += rte_rdtsc_precise() - t0;
		*nout += (uint64_t)left + k;
		rte_pktmbuf_free_bulk(r->pkts, left);
		rte_pktmbuf_free_bulk(r->out, k);
	}
	while (rte_gro_get_pkt_count(ctx) > 0) {
		t0 = rte_rdtsc_precise();
		k = rte_gro_timeout_flush(ctx, 0, RTE_GRO_TCP_IPV4, r->out, r->max_out);
		*cycles += rte_rdtsc_precise() - t0;
		*nout += k;
		rte_pktmbuf_free_bulk(r->out, k);
		if (k == 0)
			return -EIO;
	}
	return 0;
}

int
replay_gro_alone(const struct replay_opts *o, const struct replay_input *sub,
		 struct rte_mempool *mp, struct replay_dgro *d, uint16_t max_flow_num,
		 struct replay_alone *res)
{
	struct rte_gro_param p = {
		.gro_types = RTE_GRO_TCP_IPV4,
		.max_flow_num = max_flow_num,
		.max_item_per_flow = REPLAY_DGRO_ITEMS,
		.socket_id = (uint16_t)rte_socket_id(),
	};
	struct alone_run r = { o, sub, mp, d, NULL, NULL, (uint16_t)(2 * o->burst) };
	uint64_t flush_tsc = o->gro_age_us * rte_get_tsc_hz() / 1000000;
	struct tp_gro *g = NULL;
	void *ctx = NULL;
	int rc = 0;

	res->frames = sub->nb_frames;
	if (sub->nb_frames == 0)
		return 0;
	r.pkts = calloc(o->burst, sizeof(*r.pkts));
	r.out = calloc(r.max_out, sizeof(*r.out));
	g = tp_engine_create(o);
	ctx = rte_gro_ctx_create(&p);
	if (r.pkts == NULL || r.out == NULL || g == NULL || ctx == NULL) {
		replay_err("cannot set up the GRO-alone comparison");
		rc = -ENOMEM;
		goto end;
	}
	/* one pass of each, not counted: the first pass through a table
	 * just created pays for its first touch, which no loop after it does */
	{
		uint64_t c0 = 0, n0 = 0;

		rc = tp_pass(&r, g, &c0, &n0);
		if (rc == 0)
			rc = dpdk_pass(&r, ctx, flush_tsc, &c0, &n0);
	}
	for (unsigned long loop = 0; loop < o->loops && rc == 0; loop++) {
		uint64_t tc = 0, dc = 0, tn = 0, dn = 0;

		if (loop % 2 == 0) {
			rc = tp_pass(&r, g, &tc, &tn);
			if (rc == 0)
				rc = dpdk_pass(&r, ctx, flush_tsc, &dc, &dn);
		} else {
			rc = dpdk_pass(&r, ctx, flush_tsc, &dc, &dn);
			if (rc == 0)
				rc = tp_pass(&r, g, &tc, &tn);
		}
		if (rc < 0)
			break;
		res->tp_out = tn;
		res->dpdk_out = dn;
		if (replay_series_add(&res->tp, (double)tc / sub->nb_frames) < 0 ||
		    replay_series_add(&res->dpdk, (double)dc / sub->nb_frames) < 0)
			rc = -ENOMEM;
	}
	if (rc < 0)
		replay_err("the GRO-alone comparison failed: %s", rte_strerror(-rc));
end:
	if (ctx != NULL)
		rte_gro_ctx_destroy(ctx);
	tp_gro_destroy(g);
	free(r.out);
	free(r.pkts);
	return rc;
}
