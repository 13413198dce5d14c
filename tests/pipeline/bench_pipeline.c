/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark (prints only): TSC cycles per input frame of the whole pipeline
 * (edsa untag + QinQ untag + GRO + program + actions) with the "pass" and
 * "acl" programs, at 1 and 1024 TCP flows, next to DPDK's librte_gro alone
 * (rte_gro_reassemble_burst, lightweight mode) on the same frames; and
 * merging across bursts: GRO age mode (1 s, final flush) against DPDK's
 * context mode (rte_gro_reassemble + rte_gro_timeout_flush after every
 * burst with a 10 ms timeout, as dpdk-testpmd flushes; table sized for the
 * run's flows x 32 items; its flush walks the whole table, which is what
 * its figure shows at 1024 flows).
 *
 * Input: edsa tag (8) + 802.1ad/802.1Q tags (8) + IPv4/TCP, 1448 payload
 * bytes, in bursts of 32. 1 flow: every burst merges into one packet.
 * 1024 flows: round robin, so a burst of 32 holds 32 flows and nothing
 * merges within a burst (both GROs run per burst).
 * DPDK's GRO cannot read DSA tags: it is given its best case, packet_type
 * and l2_len covering MAC + edsa + both tags already set (what a NIC's
 * parser would give), and does no tag work and no checksum check. The
 * pipeline gets bare frames and does all of it; its checksum check is
 * skipped when the mbufs say GOOD (as from a NIC), shown as "csum good",
 * or done in software ("csum sw").
 * Timing covers only the burst calls; mbuf filling and freeing the output
 * are outside. Best of ROUNDS rounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_gro.h>

#include "pl_test.h"

#define BURST 32
#define NFRAMES 16384
#define ROUNDS 5
#define MSS 1448

static struct rte_mempool *mp;
static uint8_t *frame[NFRAMES];
static uint32_t flen[NFRAMES];
static struct rte_mbuf *in[NFRAMES];

static void
make_frames(unsigned int flows)
{
	for (unsigned int i = 0; i < NFRAMES; i++) {
		unsigned int f = i % flows, k = i / flows;
		struct pl_spec s;

		pl_default_spec(&s);
		pl_edsa_rx(&s, (uint8_t)(f % 8));
		s.outer_tpid = 0x88A8;
		s.outer_tci = 100;
		s.inner_tpid = 0x8100;
		s.inner_tci = (uint16_t)(200 + f / 8 % 1000);
		s.sip = 0x0A000000 + f;
		s.sport = (uint16_t)(10000 + f);
		s.seq = 1 + k * MSS;
		s.ip_id = (uint16_t)k;
		s.paylen = MSS;
		s.payseed = (uint8_t)k;
		free(frame[i]);
		frame[i] = malloc(PL_MAX_FRAME);
		flen[i] = (uint32_t)pl_build(frame[i], &s);
	}
}

static void
fill(uint64_t ol, bool dpdk)
{
	for (unsigned int i = 0; i < NFRAMES; i++) {
		in[i] = tp_test_mbuf_from_bytes(mp, frame[i], flen[i]);
		in[i]->ol_flags = ol;
		if (dpdk) {
			in[i]->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 |
					     RTE_PTYPE_L4_TCP;
			in[i]->l2_len = 14 + 8 + 8;
			in[i]->l3_len = 20;
			in[i]->l4_len = 20;
		}
	}
}

struct result {
	double cpp;          /* cycles per input frame */
	double out_per_in;   /* packets out per frame in */
	double stage[TP_STAGE_MAX];
};

static struct result
run_pipeline(const char *prog, bool csum_good)
{
	struct result best = { .cpp = 1e18 };

	for (int r = 0; r < ROUNDS; r++) {
		struct tp_pipeline_conf c;
		struct tp_pipeline_stats st;
		struct tp_pipeline *pl = NULL;
		struct rte_mbuf *out[2 * BURST];
		uint64_t cyc = 0, nout = 0;
		char err[256];

		tp_pipeline_conf_init(&c);
		c.port[0].enabled = true;
		snprintf(c.port[0].tagger, sizeof(c.port[0].tagger), "edsa");
		c.gro.max_flows = 2048;
		c.prog_spec = prog;
		if (tp_pipeline_create(&c, &pl, err, sizeof(err)) != 0) {
			fprintf(stderr, "bench: %s\n", err);
			exit(1);
		}
		fill(csum_good ? RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD : 0,
		     false);
		for (unsigned int at = 0; at < NFRAMES; at += BURST) {
			uint64_t t0;
			uint16_t n;

			memcpy(out, in + at, BURST * sizeof(*out));
			t0 = rte_rdtsc_precise();
			n = tp_pipeline_rx_burst(pl, 0, 0, out, BURST);
			cyc += rte_rdtsc_precise() - t0;
			nout += n;
			rte_pktmbuf_free_bulk(out, n);
		}
		tp_pipeline_stats_get(pl, &st);
		if (st.pass != NFRAMES)
			fprintf(stderr, "bench: pass %" PRIu64 " != %u\n", st.pass, NFRAMES);
		if ((double)cyc / NFRAMES < best.cpp) {
			best.cpp = (double)cyc / NFRAMES;
			best.out_per_in = (double)nout / NFRAMES;
			for (int s = 0; s < TP_STAGE_MAX; s++)
				best.stage[s] = (double)st.stage[s].cycles / NFRAMES;
		}
		tp_pipeline_destroy(pl);
	}
	return best;
}

/* Across bursts: the pipeline in GRO age mode (1 s: nothing ages during
 * the run, everything is completed by the final flush) against DPDK's
 * heavyweight mode (rte_gro_ctx + rte_gro_reassemble + timeout flush). */
static struct result
run_pipeline_age(void)
{
	struct result best = { .cpp = 1e18 };

	for (int r = 0; r < ROUNDS; r++) {
		struct tp_pipeline_conf c;
		struct tp_pipeline *pl = NULL;
		struct rte_mbuf *out[2 * BURST];
		uint64_t cyc = 0, nout = 0, t0;
		char err[256];
		uint16_t n;

		tp_pipeline_conf_init(&c);
		c.port[0].enabled = true;
		snprintf(c.port[0].tagger, sizeof(c.port[0].tagger), "edsa");
		c.gro.mode = TP_GRO_AGE;
		c.gro.age_usec = 1000000;
		c.gro.max_flows = 2048;
		if (tp_pipeline_create(&c, &pl, err, sizeof(err)) != 0) {
			fprintf(stderr, "bench: %s\n", err);
			exit(1);
		}
		fill(RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD, false);
		for (unsigned int at = 0; at < NFRAMES; at += BURST) {
			memcpy(out, in + at, BURST * sizeof(*out));
			t0 = rte_rdtsc_precise();
			n = tp_pipeline_rx_burst(pl, 0, 0, out, BURST);
			cyc += rte_rdtsc_precise() - t0;
			nout += n;
			rte_pktmbuf_free_bulk(out, n);
		}
		do {
			t0 = rte_rdtsc_precise();
			n = tp_pipeline_flush(pl, true, out, BURST);
			cyc += rte_rdtsc_precise() - t0;
			nout += n;
			rte_pktmbuf_free_bulk(out, n);
		} while (n > 0);
		if ((double)cyc / NFRAMES < best.cpp) {
			best.cpp = (double)cyc / NFRAMES;
			best.out_per_in = (double)nout / NFRAMES;
		}
		tp_pipeline_destroy(pl);
	}
	return best;
}

/* Table sized for the flows of the run, 32 items per flow; flushed after
 * every burst as dpdk-testpmd does by default. */
static struct result
run_dpdk_ctx(unsigned int flows)
{
	struct result best = { .cpp = 1e18 };
	struct rte_gro_param p = {
		.gro_types = RTE_GRO_TCP_IPV4,
		.max_flow_num = (uint16_t)flows,
		.max_item_per_flow = 32,
		.socket_id = 0,
	};
	uint64_t timeout = rte_get_tsc_hz() / 100; /* 10 ms */

	for (int r = 0; r < ROUNDS; r++) {
		void *ctx = rte_gro_ctx_create(&p);
		struct rte_mbuf *out[BURST];
		uint64_t cyc = 0, nout = 0, t0;
		uint16_t n;

		if (ctx == NULL) {
			fprintf(stderr, "bench: rte_gro_ctx_create failed\n");
			exit(1);
		}
		fill(0, true);
		for (unsigned int at = 0; at < NFRAMES; at += BURST) {
			t0 = rte_rdtsc_precise();
			n = rte_gro_reassemble(in + at, BURST, ctx);
			cyc += rte_rdtsc_precise() - t0;
			nout += n;
			rte_pktmbuf_free_bulk(in + at, n);
			t0 = rte_rdtsc_precise();
			n = rte_gro_timeout_flush(ctx, timeout, RTE_GRO_TCP_IPV4, out, BURST);
			cyc += rte_rdtsc_precise() - t0;
			nout += n;
			rte_pktmbuf_free_bulk(out, n);
		}
		do {
			t0 = rte_rdtsc_precise();
			n = rte_gro_timeout_flush(ctx, 0, RTE_GRO_TCP_IPV4, out, BURST);
			cyc += rte_rdtsc_precise() - t0;
			nout += n;
			rte_pktmbuf_free_bulk(out, n);
		} while (n > 0);
		rte_gro_ctx_destroy(ctx);
		if ((double)cyc / NFRAMES < best.cpp) {
			best.cpp = (double)cyc / NFRAMES;
			best.out_per_in = (double)nout / NFRAMES;
		}
	}
	return best;
}

static struct result
run_dpdk(void)
{
	struct result best = { .cpp = 1e18 };
	struct rte_gro_param p = {
		.gro_types = RTE_GRO_TCP_IPV4,
		.max_flow_num = BURST,
		.max_item_per_flow = RTE_GRO_MAX_BURST_ITEM_NUM / BURST,
	};

	for (int r = 0; r < ROUNDS; r++) {
		uint64_t cyc = 0, nout = 0;

		fill(0, true);
		for (unsigned int at = 0; at < NFRAMES; at += BURST) {
			uint64_t t0 = rte_rdtsc_precise();
			uint16_t n = rte_gro_reassemble_burst(in + at, BURST, &p);

			cyc += rte_rdtsc_precise() - t0;
			nout += n;
			rte_pktmbuf_free_bulk(in + at, n);
		}
		if ((double)cyc / NFRAMES < best.cpp) {
			best.cpp = (double)cyc / NFRAMES;
			best.out_per_in = (double)nout / NFRAMES;
		}
	}
	return best;
}

static void
row(const char *what, unsigned int flows, const struct result *r, bool stages)
{
	if (tp_test_pool_in_use(mp) != 0)
		fprintf(stderr, "bench: %s: %u mbufs not back in the pool\n", what,
			tp_test_pool_in_use(mp));
	printf("%-36s %5u  %8.1f  %6.3f", what, flows, r->cpp, r->out_per_in);
	if (stages)
		printf("   dsa %.1f vlan %.1f gro %.1f verdict %.1f actions %.1f",
		       r->stage[TP_STAGE_DSA], r->stage[TP_STAGE_VLAN],
		       r->stage[TP_STAGE_GRO], r->stage[TP_STAGE_VERDICT],
		       r->stage[TP_STAGE_ACTIONS]);
	printf("\n");
}

int
main(void)
{
	static const unsigned int flows[] = { 1, 1024 };
	char rules[] = "/tmp/tp_bench_acl_XXXXXX", spec[64];
	int fd;
	FILE *f;

	setvbuf(stdout, NULL, _IOLBF, 0);
	tp_test_eal_init(NULL);
	mp = tp_test_pool_create("bench", NFRAMES + 4 * BURST, 0);
	/* 8 rules that do not match the traffic, then the default: every
	 * packet walks the whole list. */
	fd = mkstemp(rules);
	if (fd < 0)
		return 1;
	f = fdopen(fd, "w");
	for (int i = 0; i < 8; i++)
		fprintf(f, "drop tcp 172.16.%d.0/24 any any %d\n", i, 22 + i);
	fprintf(f, "default pass\n");
	fclose(f);
	snprintf(spec, sizeof(spec), "acl:%s", rules);

	printf("bench_pipeline: TSC cycles per input frame (best of %d), burst %d, "
	       "%d frames, TSC %" PRIu64 " Hz\n", ROUNDS, BURST, NFRAMES, rte_get_tsc_hz());
	printf("%-36s %5s  %8s  %6s   %s\n", "case", "flows", "cyc/pkt", "out/in",
	       "per stage (cyc/pkt)");
	for (unsigned int i = 0; i < RTE_DIM(flows); i++) {
		struct result r;

		make_frames(flows[i]);
		r = run_dpdk();
		row("dpdk librte_gro alone", flows[i], &r, false);
		r = run_pipeline("pass", true);
		row("pipeline edsa+qinq+gro+pass csum good", flows[i], &r, true);
		r = run_pipeline(spec, true);
		row("pipeline edsa+qinq+gro+acl csum good", flows[i], &r, true);
		r = run_pipeline("pass", false);
		row("pipeline edsa+qinq+gro+pass csum sw", flows[i], &r, true);
		r = run_dpdk_ctx(flows[i]);
		row("dpdk librte_gro ctx, across bursts", flows[i], &r, false);
		r = run_pipeline_age();
		row("pipeline gro age 1s + pass, good", flows[i], &r, false);
	}
	unlink(rules);
	for (unsigned int i = 0; i < NFRAMES; i++)
		free(frame[i]);
	return 0;
}
