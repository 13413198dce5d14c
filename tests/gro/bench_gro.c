/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: tagpipe's tp_gro against DPDK's librte_gro on the same input,
 * at the same flush points, with librte_gro in its best configuration.
 *
 * Input: bulk TCP/IPv4 as a Linux sender makes it (MSS 1448 with the
 * timestamp option, 1514-byte frames), 1, 32, 256 and 1024 flows
 * interleaved round-robin, bursts of 32. Checksum flags GOOD as a NIC sets
 * them, packet_type and l2/l3/l4_len set (librte_gro needs them): both
 * engines trust the NIC's checksums, neither computes one. Frames are copied
 * into fresh mbufs just before each burst, as a NIC's DMA would have written
 * them (the copy is not timed).
 *
 * Two ways of running a GRO, each engine in its own:
 *  - held across bursts: tp_gro in AGE mode, librte_gro in context mode
 *    (rte_gro_reassemble); both flushed completely every K bursts
 *    (tp_gro_flush_all / rte_gro_timeout_flush(ctx, 0)), K = the bursts that
 *    give every flow one 64 KiB aggregate (45 segments), at least 1.
 *    librte_gro's cost depends on its table size (linear scans over flows
 *    and items, lib/gro/gro_tcp4.c): max_flow_num is swept over {F, 2F} and
 *    max_item_per_flow over {1, 4} (its documentation's example uses 2F x 4)
 *    and the best median is kept; every configuration is printed.
 *  - per burst: tp_gro in BURST mode against rte_gro_reassemble_burst
 *    (max_flow_num = min(F, 32) x max_item_per_flow {1, 32/F}, best kept).
 *
 * Each configuration runs REPS times; cycles per packet are printed as the
 * median with the min-max spread (the machines are shared and noisy: compare
 * the ratios, which come from one run), and then tagpipe against DPDK's
 * best in alternating pairs of runs, the median of the pairs' ratios with
 * their spread (the figure least moved by a noisy neighbour). Instructions
 * per packet: see
 * callgrind_gro.sh. A second table times TCP checksum verification of a
 * 1448-byte payload (software path of tp_gro, against DPDK's rte_raw_cksum).
 *
 * A second input, VXLAN: the same bulk TCP inside VXLAN over UDP/IPv4, as
 * Linux's vxlan driver sends it (outer DF with incrementing outer IDs, UDP
 * checksum 0, outer source port per inner flow, inner MSS 1398 so that the
 * outer frame is 1514 bytes), against librte_gro's RTE_GRO_IPV4_VXLAN_TCP_IPV4
 * engine (lib/gro/gro_vxlan_tcp4.c), swept over the same table sizes;
 * packet_type (tunnel VXLAN, inner IPv4/TCP), outer_l2/outer_l3/l2/l3/l4_len
 * and the NIC's checksum flags set for both.
 *
 * Environment: TP_GRO_BENCH_INPUT=tcp|vxlan (one input), TP_GRO_BENCH_FLOWS=N (one flow count), TP_GRO_BENCH_ENGINE=
 * tagpipe|dpdk (one engine, its best-known configuration only),
 * TP_GRO_BENCH_REPS=N, TP_GRO_BENCH_AGE_ONLY=1 (no per-burst table). Only prints; never fails on figures.
 */
#include "tp_test.h"
#include "tp_gro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_gro.h>
#include <rte_ip.h>
#include <rte_malloc.h>

#include "gro_bulk.h"
#include "gro_tpkt.h"

#define BURST 32
#define TOTAL 65536u
#define MSS GRO_BULK_MSS
#define SEGS_64K 45        /* 45 x 1448 + 52 header bytes <= 65535 */
#define MAX_CONF 4
#define MAX_REPS 31

static unsigned int reps = 9;
static const char *only_engine;

static struct rte_mempool *mp;
static uint8_t *frames;             /* TOTAL frames of frame_len bytes */
static uint32_t frame_len;
static struct rte_mbuf *in[TOTAL], *outs[2 * TOTAL + BURST];

enum engine { ENG_TP_AGE, ENG_DPDK_CTX, ENG_TP_BURST, ENG_DPDK_BURST };

struct conf {
	enum engine e;
	uint16_t max_flow_num, max_item_per_flow;   /* librte_gro only */
};

struct result {
	double med, min, max;       /* cycles per packet over the repetitions */
	unsigned int out;           /* packets out of GRO */
	unsigned int merged;
	uint64_t segs_in_merged;
};

enum input { IN_TCP, IN_VXLAN };
static enum input input;

#define VX_MSS 1398         /* 1514-byte outer frames */
#define VX_HDR 50           /* outer Ethernet 14 + IPv4 20 + UDP 8 + VXLAN 8 */

static void
put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Wrap the inner frame in[0..n) in VXLAN/UDP/IPv4 as Linux's vxlan does. */
static uint32_t
vxlan_wrap(const uint8_t *inner, uint32_t n, unsigned int f, unsigned int k, uint8_t *o)
{
	uint8_t *ip = o + 14, *u = ip + 20;
	uint32_t s = 0, i;

	memcpy(o, "\x02\x00\x00\x00\x50\x02\x02\x00\x00\x00\x50\x01\x08\x00", 14);
	ip[0] = 0x45;
	ip[1] = 0;
	put16(ip + 2, 20 + 8 + 8 + n);
	put16(ip + 4, (uint16_t)(f * 7919u + k));
	put16(ip + 6, 0x4000);
	ip[8] = 64;
	ip[9] = 17;
	ip[10] = ip[11] = 0;
	memcpy(ip + 12, "\xc0\x00\x02\x01\xc6\x33\x64\x01", 8);
	for (i = 0; i < 20; i += 2)
		s += (uint32_t)ip[i] << 8 | ip[i + 1];
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	put16(ip + 10, (uint16_t)~s);
	put16(u, 32768 + (f * 40503u) % 28232);     /* source port from the flow hash */
	put16(u + 2, 4789);
	put16(u + 4, 8 + 8 + n);
	u[6] = u[7] = 0;
	memset(u + 8, 0, 8);
	u[8] = 0x08;
	u[14] = 42;                                  /* VNI 42 */
	memcpy(u + 16, inner, n);
	return VX_HDR + n;
}

static void
make_frames(unsigned int nflows)
{
	static uint8_t buf[TPKT_MAX];
	unsigned int i;

	for (i = 0; i < TOTAL; i++) {
		unsigned int f = i % nflows, k = i / nflows;

		frame_len = gro_bulk_tcp4_frame(f, k, input == IN_VXLAN ? VX_MSS : MSS, buf);
		if (input == IN_VXLAN) {
			static uint8_t vx[TPKT_MAX];

			frame_len = vxlan_wrap(buf, frame_len, f, k, vx);
			memcpy(buf, vx, frame_len);
		}
		memcpy(frames + (size_t)i * frame_len, buf, frame_len);
	}
}

/* Copy frames [i, i + n) into fresh mbufs with what a NIC would set. */
static void
fill_mbufs(unsigned int i, unsigned int n)
{
	unsigned int j;

	assert_int_equal(rte_pktmbuf_alloc_bulk(mp, in + i, n), 0);
	for (j = i; j < i + n; j++) {
		struct rte_mbuf *m = in[j];

		memcpy(rte_pktmbuf_append(m, (uint16_t)frame_len),
		       frames + (size_t)j * frame_len, frame_len);
		gro_bulk_tcp4_nic_meta(m);
		if (input == IN_VXLAN) {
			/* what a NIC that parses VXLAN reports (inner checksums) */
			m->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP |
					 RTE_PTYPE_TUNNEL_VXLAN | RTE_PTYPE_INNER_L2_ETHER |
					 RTE_PTYPE_INNER_L3_IPV4 | RTE_PTYPE_INNER_L4_TCP;
			m->outer_l2_len = 14;
			m->outer_l3_len = 20;
			m->l2_len = 8 + 8 + 14;
		}
	}
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One pass over TOTAL frames; returns GRO cycles (merge + flush calls). */
static uint64_t
run_once(const struct conf *c, unsigned int nflows, unsigned int k_bursts,
	 struct result *r)
{
	struct tp_gro *g = NULL;
	void *ctx = NULL;
	uint64_t t0, cycles = 0;
	unsigned int i, no = 0;
	const uint64_t types = input == IN_VXLAN ? RTE_GRO_IPV4_VXLAN_TCP_IPV4 : RTE_GRO_TCP_IPV4;
	struct rte_gro_param p = {
		.gro_types = types,
		.max_flow_num = c->max_flow_num,
		.max_item_per_flow = c->max_item_per_flow,
		.socket_id = (uint16_t)rte_socket_id(),
	};

	if (c->e == ENG_DPDK_CTX) {
		ctx = rte_gro_ctx_create(&p);
		assert_non_null(ctx);
	} else if (c->e == ENG_TP_AGE || c->e == ENG_TP_BURST) {
		struct tp_gro_conf tc = {
			.max_flows = RTE_MAX(1024u, 2 * nflows),
			.mode = c->e == ENG_TP_AGE ? TP_GRO_MODE_AGE : TP_GRO_MODE_BURST,
			.age_tsc = UINT64_MAX / 2,          /* flushed explicitly */
			.socket_id = (int)rte_socket_id(),
			.tunnels = input == IN_VXLAN ? TP_GRO_TUN_VXLAN : 0,
		};

		g = tp_gro_create(&tc);
		assert_non_null(g);
	}

	for (i = 0; i < TOTAL; i += BURST) {
		int flush = (i / BURST + 1) % k_bursts == 0 || i + BURST == TOTAL;

		fill_mbufs(i, BURST);
		t0 = rte_rdtsc();
		switch (c->e) {
		case ENG_TP_AGE:
			no += (unsigned int)tp_gro_merge_burst(g, in + i, BURST, outs + no,
							       2 * BURST, 0);
			if (flush)
				while (tp_gro_held_flows(g) > 0)
					no += tp_gro_flush_all(g, outs + no, 65535);
			break;
		case ENG_DPDK_CTX: {
			uint16_t left = rte_gro_reassemble(in + i, BURST, ctx);

			memcpy(outs + no, in + i, left * sizeof(*in));
			no += left;
			if (flush)
				while (rte_gro_get_pkt_count(ctx) > 0)
					no += rte_gro_timeout_flush(ctx, 0, types,
								    outs + no, 65535);
			break;
		}
		case ENG_TP_BURST:
			no += (unsigned int)tp_gro_merge_burst(g, in + i, BURST, outs + no,
							       2 * BURST, 0);
			break;
		case ENG_DPDK_BURST: {
			uint16_t left = rte_gro_reassemble_burst(in + i, BURST, &p);

			memcpy(outs + no, in + i, left * sizeof(*in));
			no += left;
			break;
		}
		}
		cycles += rte_rdtsc() - t0;
	}

	r->out = no;
	r->merged = 0;
	r->segs_in_merged = 0;
	for (i = 0; i < no; i++) {
		if (outs[i]->nb_segs > 1) {
			r->merged++;
			r->segs_in_merged += outs[i]->nb_segs;
		}
		rte_pktmbuf_free(outs[i]);
	}
	if (ctx != NULL)
		rte_gro_ctx_destroy(ctx);
	tp_gro_destroy(g);
	return cycles;
}

static struct result
run(const struct conf *c, unsigned int nflows, unsigned int k_bursts)
{
	double cpp[MAX_REPS];
	struct result r = { 0 };
	unsigned int i;

	for (i = 0; i < reps; i++)
		cpp[i] = (double)run_once(c, nflows, k_bursts, &r) / TOTAL;
	qsort(cpp, reps, sizeof(cpp[0]), cmp_double);
	r.med = cpp[reps / 2];
	r.min = cpp[0];
	r.max = cpp[reps - 1];
	return r;
}

/* tagpipe against DPDK's best in alternating runs (dpdk, tagpipe, dpdk,
 * ...): each ratio is of two neighbours in time, so a slow phase of a
 * shared machine (steal time) weighs on both sides of it. */
static void
paired_ratio(const struct conf *tc, const struct conf *dc, unsigned int nflows,
	     unsigned int k)
{
	double ratio[MAX_REPS];
	struct result scratch = { 0 };
	unsigned int i;

	for (i = 0; i < reps; i++) {
		double d = (double)run_once(dc, nflows, k, &scratch);
		double t = (double)run_once(tc, nflows, k, &scratch);

		ratio[i] = t / d;
	}
	qsort(ratio, reps, sizeof(ratio[0]), cmp_double);
	printf("%6u  tagpipe/dpdk in %u alternating pairs: median %.2fx (%.2fx-%.2fx)\n",
	       nflows, reps, ratio[reps / 2], ratio[0], ratio[reps - 1]);
}

static void
print_row(unsigned int nflows, const char *engine, const char *cfg,
	  const struct result *r, const char *mark)
{
	printf("%6u  %-9s %-22s %8.1f %8.1f-%-8.1f %7u %7.2f %8.2f %s\n", nflows, engine,
	       cfg, r->med, r->min, r->max, r->out, (double)TOTAL / r->out,
	       r->merged ? (double)r->segs_in_merged / r->merged : 0.0, mark);
}

/* Sweep the DPDK configurations, print each, return the best (by median). */
static struct result
best_dpdk(struct conf *confs, unsigned int n, unsigned int nflows,
	  unsigned int k, struct conf *best_conf)
{
	struct result rs[MAX_CONF], best;
	unsigned int i, b = 0;
	char cfg[48];

	for (i = 0; i < n; i++) {
		rs[i] = run(&confs[i], nflows, k);
		if (rs[i].med < rs[b].med)
			b = i;
	}
	for (i = 0; i < n; i++) {
		snprintf(cfg, sizeof(cfg), "flows %u x items %u", confs[i].max_flow_num,
			 confs[i].max_item_per_flow);
		print_row(nflows, "dpdk", cfg, &rs[i], i == b ? "<- best" : "");
	}
	best = rs[b];
	*best_conf = confs[b];
	return best;
}

static void
bench_mode(int per_burst)
{
	static const unsigned int flows[] = { 1, 32, 256, 1024 };
	const char *env = getenv("TP_GRO_BENCH_FLOWS");
	unsigned int fi;

	if (per_burst)
		printf("\n== per burst: tp_gro BURST mode vs rte_gro_reassemble_burst ==\n");
	else
		printf("\n== held across bursts, full flush every K bursts: tp_gro AGE mode "
		       "(tp_gro_flush_all) vs librte_gro context mode "
		       "(rte_gro_timeout_flush(ctx, 0)) ==\n");
	printf("%6s  %-9s %-22s %8s %17s %7s %7s %8s\n", "flows", "engine", "config",
	       "cyc/pkt", "min-max", "out", "merge", "segs/agg");
	for (fi = 0; fi < RTE_DIM(flows); fi++) {
		unsigned int nf = flows[fi];
		unsigned int k = per_burst ? 1 : RTE_MAX(1u, SEGS_64K * nf / BURST);
		unsigned int dflows = per_burst ? RTE_MIN(nf, (unsigned int)BURST) : nf;
		struct conf dc[MAX_CONF], bestc = { 0 };
		struct conf tc = { .e = per_burst ? ENG_TP_BURST : ENG_TP_AGE };
		struct result tr = { 0 }, dr = { 0 };
		unsigned int nd = 0;
		char cfg[48];

		if (env != NULL && (unsigned int)atoi(env) != nf)
			continue;
		make_frames(nf);
		if (per_burst) {
			dc[nd++] = (struct conf){ ENG_DPDK_BURST, (uint16_t)dflows, 1 };
			if (BURST / dflows > 1)
				dc[nd++] = (struct conf){ ENG_DPDK_BURST, (uint16_t)dflows,
							  (uint16_t)(BURST / dflows) };
		} else {
			dc[nd++] = (struct conf){ ENG_DPDK_CTX, (uint16_t)nf, 1 };
			dc[nd++] = (struct conf){ ENG_DPDK_CTX, (uint16_t)nf, 4 };
			dc[nd++] = (struct conf){ ENG_DPDK_CTX, (uint16_t)(2 * nf), 1 };
			dc[nd++] = (struct conf){ ENG_DPDK_CTX, (uint16_t)(2 * nf), 4 };
		}
		if (only_engine != NULL && strcmp(only_engine, "dpdk") == 0) {
			/* profiling: the configuration that measured best here */
			dr = run(&dc[0], nf, k);
			snprintf(cfg, sizeof(cfg), "flows %u x items %u", dc[0].max_flow_num,
				 dc[0].max_item_per_flow);
			print_row(nf, "dpdk", cfg, &dr, "");
			continue;
		}
		if (only_engine == NULL)
			dr = best_dpdk(dc, nd, nf, k, &bestc);
		tr = run(&tc, nf, k);
		snprintf(cfg, sizeof(cfg), "%s, K=%u", per_burst ? "burst mode" : "age mode", k);
		print_row(nf, "tagpipe", cfg, &tr, "");
		if (only_engine == NULL) {
			printf("%6u  tagpipe/dpdk cycles: %.2fx (min %.2fx, max %.2fx); merge "
			       "ratio %.2f vs %.2f\n", nf, tr.med / dr.med, tr.min / dr.min,
			       tr.max / dr.max, (double)TOTAL / tr.out, (double)TOTAL / dr.out);
			paired_ratio(&tc, &bestc, nf, k);
		}
	}
}

/* TCP checksum verification of one 1448-byte segment (1500-byte datagram):
 * the cost tp_gro pays per packet when the NIC gave no checksum status. */
static void
bench_csum(void)
{
	static uint8_t buf[TPKT_MAX];
	struct tpkt t;
	const struct rte_ipv4_hdr *ip;
	const uint8_t *th;
	uint32_t len, l4_len, i, n = 20000;
	double cyc[MAX_REPS];
	unsigned int r, valid;

	tpkt_init(&t, 0);
	t.pay_char = 0;
	t.paylen = MSS;
	t.optlen = 12;
	memcpy(t.opts, "\x01\x01\x08\x0a\x00\x00\x12\x34\x00\x00\x56\x78", 12);
	len = tpkt_build(&t, buf);
	ip = (const struct rte_ipv4_hdr *)(buf + 14);
	th = buf + 34;
	l4_len = len - 34;
	printf("\n== TCP checksum verification, %u-byte segment (%u B payload), data in "
	       "L1 ==\n", l4_len, MSS);
	for (int e = 0; e < 2; e++) {
		valid = 0;
		for (r = 0; r < reps; r++) {
			uint64_t t0 = rte_rdtsc();

			for (i = 0; i < n; i++) {
				/* the barrier keeps each verification a real one */
				__asm__ volatile("" : : "r"(buf) : "memory");
				if (e == 0)
					valid += rte_ipv4_udptcp_cksum_verify(ip, th) == 0;
				else
					valid += tp_gro_tcp_csum_ok(ip, 0, th, l4_len);
			}
			cyc[r] = (double)(rte_rdtsc() - t0) / n;
		}
		qsort(cyc, reps, sizeof(cyc[0]), cmp_double);
		printf("%-46s %8.1f cycles (min %.1f, max %.1f)\n",
		       e == 0 ? "DPDK rte_ipv4_udptcp_cksum_verify (rte_raw_cksum)" :
				"tp_gro software verification",
		       cyc[reps / 2], cyc[0], cyc[reps - 1]);
		assert_int_equal(valid, n * reps);   /* the segment is valid */
	}
}

static void
bench(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);

	(void)state;
	const char *in_env = getenv("TP_GRO_BENCH_INPUT");

	for (int x = IN_TCP; x <= IN_VXLAN; x++) {
		input = (enum input)x;
		if (in_env != NULL && strcmp(in_env, x == IN_TCP ? "tcp" : "vxlan") != 0)
			continue;
		if (x == IN_TCP)
			printf("\nGRO benchmark, plain TCP: %u IPv4 frames of 1514 B (MSS %d, TCP "
			       "timestamps), bursts of %d, round-robin flows, NIC checksum flags "
			       "GOOD (neither engine computes a checksum), TSC %.2f GHz, %u "
			       "repetitions: median cycles/packet and min-max\n",
			       TOTAL, MSS, BURST, rte_get_tsc_hz() / 1e9, reps);
		else
			printf("\nGRO benchmark, VXLAN: %u frames of 1514 B (VXLAN/UDP/IPv4, inner "
			       "TCP/IPv4 MSS %d with timestamps; outer DF, incrementing outer IDs, "
			       "UDP checksum 0), librte_gro's RTE_GRO_IPV4_VXLAN_TCP_IPV4 engine, "
			       "tp_gro with TP_GRO_TUN_VXLAN; bursts of %d, NIC flags GOOD, %u "
			       "repetitions\n", TOTAL, VX_MSS, BURST, reps);
		bench_mode(0);
		if (getenv("TP_GRO_BENCH_AGE_ONLY") == NULL)
			bench_mode(1);
	}
	if (only_engine == NULL && getenv("TP_GRO_BENCH_FLOWS") == NULL)
		bench_csum();
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bench),
	};

	if (getenv("TP_GRO_BENCH_REPS") != NULL)
		reps = RTE_MIN(RTE_MAX((unsigned int)atoi(getenv("TP_GRO_BENCH_REPS")), 1u),
			       (unsigned int)MAX_REPS);
	only_engine = getenv("TP_GRO_BENCH_ENGINE");
	tp_test_eal_init_bench();
	mp = tp_test_pool_create("gro_bench", TOTAL + 1024, 2048);
	frames = malloc((size_t)TOTAL * 1600);
	assert_non_null(frames);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
