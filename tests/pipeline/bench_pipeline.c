/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark (prints only, never fails on time): TSC cycles per input frame
 * of tagpipe's pipeline and of its untag stages, next to DPDK's librte_gro
 * alone on the same traffic. Every figure is the median over REPS fresh
 * repetitions with the min-max spread beside it (a machine shared with
 * other work preempts some runs).
 *
 * Traffic: bulk TCP/IPv4, 1448 payload bytes, F flows in round robin (so a
 * burst of 32 holds min(F, 32) flows), bursts of 32, checksum flags GOOD as
 * a NIC sets them. The pipeline gets edsa (8) + 802.1ad + 802.1Q tags in
 * front of IPv4; librte_gro gets the same frames without the tags (what a
 * DPDK user would have to produce first: librte_gro reads no switch tag),
 * packet_type and l2/l3/l4_len set as a NIC's parser would give them.
 *
 * Flush points, the same for both (the way librte_gro's documentation means
 * context mode to be used): every K bursts, K = the bursts that give each
 * flow one 64 KiB aggregate (45 segments of 1448 within IPv4's 65535), all
 * held aggregates are completed: rte_gro_timeout_flush(ctx, 0, ...) for
 * DPDK, tp_pipeline_flush(pl, true, ...) for the pipeline (GRO age mode
 * with an age that never expires in between). librte_gro's context:
 * max_flow_num = 2 x F, max_item_per_flow = 4 (every item past the first
 * of a flow is a packet it could not merge; 4 leaves room for reordering).
 *
 * Cases
 *   dsa           tp_dsa_strip_burst("edsa") alone
 *   dsa+qinq      the same, then tp_vlan_strip_burst
 *   fused         both in one pass, tp_dsa_vlan_strip_prefix (it takes
 *                 every frame here): what the pipeline runs
 *     (all three "hot": each frame's first data line and mbuf lines in
 *      cache, touched just before the timed call; the stage's own cost)
 *   dsa/fill, dsa+qinq/fill, fused/fill  the same without that touch: the lines are
 *                 where filling 32 frames of 1.5 KB left them (a burst's
 *                 data is larger than L1, so some first lines are not in it)
 *   timer         the timed region with no call: the floor that every row
 *                 includes (two rte_rdtsc_precise per burst)
 *   dpdk-ctx      librte_gro alone, context mode, flushes as above
 *   pipeline      edsa + QinQ strip + GRO + "pass" + actions, flushes as
 *                 above, stage timing off (the real cost)
 *   pipeline/st   the same with conf.stage_cycles: cycles per stage
 *   dpdk-burst    rte_gro_reassemble_burst (lightweight mode, per burst)
 *   pipeline-brst the pipeline in GRO burst mode (per burst)
 * Each burst's mbufs are filled just before its call, as a NIC's RX would
 * have just written them (in cache; freed mbufs come back hot from the
 * mempool cache). Timing covers only the calls named; filling mbufs and
 * freeing the output are outside.
 *
 * The pipeline / librte_gro ratio is printed twice: of the two medians, and
 * as the median of alternating pairs of runs (each ratio of two neighbours
 * in time), the figure least moved by a noisy neighbour.
 *
 * usage: bench_pipeline [-f FLOWS] [-c CASE] [-r REPS]
 *   (one flow count / one case, e.g. under valgrind --tool=callgrind)
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_gro.h>

#include "pl_test.h"

#define BURST 32
#define MIN_FRAMES 16384
#define MAX_FRAMES 46080 /* 1024 flows x 45 segments */
#define MAX_REPS 31
#define MSS 1448
#define SEGS_64K 45      /* (65535 - 20 - 20) / 1448 */

static struct rte_mempool *mp;
static uint8_t *frame[2][MAX_FRAMES];   /* [0] tagged, [1] bare IPv4 */
static uint32_t flen[2][MAX_FRAMES];
static struct rte_mbuf *in[MAX_FRAMES];
static unsigned int nframes, flush_every;
static int reps = 9;

static void
make_frames(unsigned int flows)
{
	static uint8_t buf[PL_MAX_FRAME];
	unsigned int window;

	flush_every = (SEGS_64K * flows + BURST - 1) / BURST;
	window = flush_every * BURST;
	nframes = window >= MIN_FRAMES ? window : MIN_FRAMES / window * window;
	for (unsigned int i = 0; i < nframes; i++) {
		unsigned int f = i % flows, k = i / flows;

		for (int bare = 0; bare < 2; bare++) {
			struct pl_spec s;

			pl_default_spec(&s);
			if (!bare) {
				pl_edsa_rx(&s, (uint8_t)(f % 8));
				s.outer_tpid = 0x88A8;
				s.outer_tci = 100;
				s.inner_tpid = 0x8100;
				s.inner_tci = (uint16_t)(200 + f / 8 % 1000);
			}
			s.sip = 0x0A000000 + f;
			s.sport = (uint16_t)(10000 + f);
			/* each connection its own ISN and IP ID base, as Linux
			 * picks them (RFC 6528; per-socket IDs) */
			s.seq = 1 + f * 2654435761u + k * MSS;
			s.ip_id = (uint16_t)(f * 40503u + k);
			s.paylen = MSS;
			s.payseed = (uint8_t)k;
			flen[bare][i] = (uint32_t)pl_build(buf, &s);
			free(frame[bare][i]);
			frame[bare][i] = malloc(flen[bare][i]);
			if (frame[bare][i] == NULL)
				exit(1);
			memcpy(frame[bare][i], buf, flen[bare][i]);
		}
	}
}

/* Frames [at, at + BURST) into fresh mbufs, as a NIC's RX would have just
 * written them (so they are in cache, as DDIO puts them in the LLC). */
static void
fill(bool bare, unsigned int at)
{
	const uint64_t good = RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD;

	for (unsigned int i = at; i < at + BURST; i++) {
		in[i] = tp_test_mbuf_from_bytes(mp, frame[bare][i], flen[bare][i]);
		in[i]->ol_flags = good;
		if (bare) {
			in[i]->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 |
					     RTE_PTYPE_L4_TCP;
			in[i]->l2_len = 14;
			in[i]->l3_len = 20;
			in[i]->l4_len = 20;
		}
	}
}

/* One repetition's figures. */
struct run {
	uint64_t cycles;
	uint64_t out;
	uint64_t stage[TP_STAGE_MAX];
};

/* Bring a burst's mbuf lines and first data line into the cache. */
static void
warm(struct rte_mbuf **pkts, uint16_t n)
{
	volatile uint8_t sink = 0;

	for (uint16_t i = 0; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];

		sink += *rte_pktmbuf_mtod(m, volatile uint8_t *);
		sink += *(volatile const uint8_t *)&m->cacheline1;
		sink += (uint8_t)m->ol_flags;
	}
	(void)sink;
}

/* What a strip row calls. */
enum strip {
	S_NONE,  /* nothing: the "timer" row, the cost of the timed region
		  * itself, which every row includes */
	S_DSA,   /* tp_dsa_strip_burst */
	S_TWO,   /* tp_dsa_strip_burst, then tp_vlan_strip_burst */
	S_FUSED, /* tp_dsa_vlan_strip_prefix, the two bursts on what it
		  * leaves (nothing here): what the pipeline runs */
};

/* hot: the frames' first lines touched first. */
static struct run
run_strip(enum strip what, bool hot)
{
	const struct tp_dsa_tagger *t = tp_dsa_tagger_find("edsa");
	struct tp_vlan_conf vc;
	struct tp_dsa_stats ds = { 0 };
	struct tp_vlan_stats vs = { 0 };
	struct rte_mbuf *drops[BURST];
	struct run r = { 0 };

	tp_vlan_conf_init(&vc);
	for (unsigned int at = 0; at < nframes; at += BURST) {
		struct rte_mbuf **b = in + at;
		uint64_t t0;
		uint16_t j = 0, k = BURST;

		fill(false, at);
		if (hot)
			warm(b, BURST);
		t0 = rte_rdtsc_precise();
		if (what == S_FUSED)
			j = tp_dsa_vlan_strip_prefix(t, b, BURST, NULL, &vc, &ds, &vs);
		if (what != S_NONE && j < BURST)
			k = j + tp_dsa_strip_burst(t, b + j, BURST - j, NULL, drops, &ds);
		if (what >= S_TWO && j < k)
			k = j + tp_vlan_strip_burst(&vc, b + j, k - j, drops, &vs);
		r.cycles += rte_rdtsc_precise() - t0;
		r.out += k;
		rte_pktmbuf_free_bulk(b, BURST);
	}
	return r;
}

static struct run
run_dpdk_ctx(unsigned int flows)
{
	struct rte_gro_param p = {
		.gro_types = RTE_GRO_TCP_IPV4,
		.max_flow_num = (uint16_t)(2 * flows),
		.max_item_per_flow = 4,
		.socket_id = 0,
	};
	void *ctx = rte_gro_ctx_create(&p);
	struct rte_mbuf *out[BURST];
	struct run r = { 0 };
	uint64_t t0;
	uint16_t n;

	if (ctx == NULL) {
		fprintf(stderr, "bench: rte_gro_ctx_create failed\n");
		exit(1);
	}
	for (unsigned int at = 0, b = 0; at < nframes; at += BURST) {
		fill(true, at);
		t0 = rte_rdtsc_precise();
		n = rte_gro_reassemble(in + at, BURST, ctx);
		r.cycles += rte_rdtsc_precise() - t0;
		r.out += n;
		rte_pktmbuf_free_bulk(in + at, n);
		if (++b % flush_every != 0)
			continue;
		do {
			t0 = rte_rdtsc_precise();
			n = rte_gro_timeout_flush(ctx, 0, RTE_GRO_TCP_IPV4, out, BURST);
			r.cycles += rte_rdtsc_precise() - t0;
			r.out += n;
			rte_pktmbuf_free_bulk(out, n);
		} while (n > 0);
	}
	rte_gro_ctx_destroy(ctx);
	return r;
}

static struct run
run_dpdk_burst(void)
{
	struct rte_gro_param p = {
		.gro_types = RTE_GRO_TCP_IPV4,
		.max_flow_num = BURST,
		.max_item_per_flow = RTE_GRO_MAX_BURST_ITEM_NUM / BURST,
	};
	struct run r = { 0 };

	for (unsigned int at = 0; at < nframes; at += BURST) {
		uint64_t t0;
		uint16_t n;

		fill(true, at);
		t0 = rte_rdtsc_precise();
		n = rte_gro_reassemble_burst(in + at, BURST, &p);

		r.cycles += rte_rdtsc_precise() - t0;
		r.out += n;
		rte_pktmbuf_free_bulk(in + at, n);
	}
	return r;
}

/* The pipeline; age: GRO age mode flushed every flush_every bursts, else
 * burst mode. */
static struct run
run_pipeline(unsigned int flows, bool age, bool stage_cycles)
{
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl = NULL;
	struct rte_mbuf *out[2 * BURST];
	struct run r = { 0 };
	char err[256];
	uint64_t t0;
	uint16_t n;

	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	snprintf(c.port[0].tagger, sizeof(c.port[0].tagger), "edsa");
	c.gro.max_flows = 2 * flows;
	if (age) {
		c.gro.mode = TP_GRO_AGE;
		c.gro.age_usec = 1000000;
	}
	c.prog_spec = "pass";
	c.stage_cycles = stage_cycles;
	c.max_burst = BURST;
	if (tp_pipeline_create(&c, &pl, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench: %s\n", err);
		exit(1);
	}
	for (unsigned int at = 0, b = 0; at < nframes; at += BURST) {
		fill(false, at);
		memcpy(out, in + at, BURST * sizeof(*out));
		t0 = rte_rdtsc_precise();
		n = tp_pipeline_rx_burst(pl, 0, 0, out, BURST);
		r.cycles += rte_rdtsc_precise() - t0;
		r.out += n;
		rte_pktmbuf_free_bulk(out, n);
		if (!age || ++b % flush_every != 0)
			continue;
		do {
			t0 = rte_rdtsc_precise();
			n = tp_pipeline_flush(pl, true, out, 2 * BURST);
			r.cycles += rte_rdtsc_precise() - t0;
			r.out += n;
			rte_pktmbuf_free_bulk(out, n);
		} while (n > 0);
	}
	tp_pipeline_stats_get(pl, &st);
	if (st.pass != nframes || st.held_in_gro != 0)
		fprintf(stderr, "bench: pass %" PRIu64 " held %" PRIu64 ", %u in\n",
			st.pass, st.held_in_gro, nframes);
	for (int s = 0; s < TP_STAGE_MAX; s++)
		r.stage[s] = st.stage[s].cycles;
	tp_pipeline_destroy(pl);
	return r;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median, min and max of v[0..n), n >= 1 (sorts v). */
struct spread {
	double med, min, max;
};

static struct spread
spread_of(double *v, int n)
{
	struct spread s;

	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	s.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	s.min = v[0];
	s.max = v[n - 1];
	return s;
}

enum bench_case {
	C_TIMER, C_DSA, C_DSA_QINQ, C_FUSED, C_DSA_FILL, C_DSA_QINQ_FILL, C_FUSED_FILL,
	C_DPDK_CTX, C_PIPE,
	C_PIPE_ST, C_DPDK_BURST, C_PIPE_BURST,
	C_MAX
};

static const char *const case_name[C_MAX] = {
	"timer", "dsa", "dsa+qinq", "fused", "dsa/fill", "dsa+qinq/fill", "fused/fill",
	"dpdk-ctx",
	"pipeline", "pipeline/st", "dpdk-burst", "pipeline-brst",
};

static struct run
run_case(enum bench_case c, unsigned int flows)
{
	switch (c) {
	case C_TIMER: return run_strip(S_NONE, true);
	case C_DSA: return run_strip(S_DSA, true);
	case C_DSA_QINQ: return run_strip(S_TWO, true);
	case C_FUSED: return run_strip(S_FUSED, true);
	case C_DSA_FILL: return run_strip(S_DSA, false);
	case C_DSA_QINQ_FILL: return run_strip(S_TWO, false);
	case C_FUSED_FILL: return run_strip(S_FUSED, false);
	case C_DPDK_CTX: return run_dpdk_ctx(flows);
	case C_PIPE: return run_pipeline(flows, true, false);
	case C_PIPE_ST: return run_pipeline(flows, true, true);
	case C_DPDK_BURST: return run_dpdk_burst();
	default: return run_pipeline(flows, false, false);
	}
}

/* Runs the case reps times; prints its row; returns the median cyc/pkt. */
static double
bench(enum bench_case c, unsigned int flows)
{
	double cpp[MAX_REPS], st[TP_STAGE_MAX][MAX_REPS];
	double ratio = 0;
	struct spread s;

	for (int r = 0; r < reps; r++) {
		struct run x = run_case(c, flows);

		cpp[r] = (double)x.cycles / nframes;
		ratio = x.out ? (double)nframes / (double)x.out : 0;
		for (int k = 0; k < TP_STAGE_MAX; k++)
			st[k][r] = (double)x.stage[k] / nframes;
	}
	if (tp_test_pool_in_use(mp) != 0)
		fprintf(stderr, "bench: %s: %u mbufs not back in the pool\n",
			case_name[c], tp_test_pool_in_use(mp));
	s = spread_of(cpp, reps);
	printf("%-13s %5u %6u %9.1f  [%7.1f - %7.1f] %7.2f", case_name[c], flows,
	       c == C_DPDK_CTX || c == C_PIPE || c == C_PIPE_ST ? flush_every : 1,
	       s.med, s.min, s.max, c <= C_FUSED_FILL ? 0.0 : ratio);
	if (c == C_PIPE_ST)
		for (int k = 0; k < TP_STAGE_MAX; k++)
			printf("  %s %.1f", tp_stage_name((unsigned int)k),
			       spread_of(st[k], reps).med);
	printf("\n");
	return s.med;
}

/* The pipeline against librte_gro alone in alternating runs: each ratio
 * is of two neighbours in time, so a slow phase of a shared machine weighs
 * on both (the figure least moved by a noisy neighbour). */
static void
paired(unsigned int flows)
{
	double ratio[MAX_REPS];
	struct spread s;

	for (int r = 0; r < reps; r++) {
		struct run d = run_case(C_DPDK_CTX, flows);
		struct run p = run_case(C_PIPE, flows);

		ratio[r] = (double)p.cycles / (double)d.cycles;
	}
	s = spread_of(ratio, reps);
	printf("  %u flows: the same in %d alternating pairs: median %.2fx (%.2fx - %.2fx)\n",
	       flows, reps, s.med, s.min, s.max);
}

int
main(int argc, char **argv)
{
	static const unsigned int all_flows[] = { 1, 32, 256, 1024 };
	unsigned int one_flows = 0;
	int one_case = -1, opt;

	while ((opt = getopt(argc, argv, "f:c:r:")) != -1) {
		if (opt == 'f') {
			one_flows = (unsigned int)atoi(optarg);
			if (one_flows < 1 || one_flows > 1024)
				return fprintf(stderr, "bench: -f %s: 1..1024\n", optarg), 2;
		} else if (opt == 'c') {
			for (int c = 0; c < C_MAX; c++)
				if (strcmp(optarg, case_name[c]) == 0)
					one_case = c;
			if (one_case < 0)
				return fprintf(stderr, "bench: -c %s: unknown case\n", optarg), 2;
		} else if (opt == 'r') {
			reps = atoi(optarg);
			if (reps < 1 || reps > MAX_REPS)
				return fprintf(stderr, "bench: -r %s: 1..%d\n", optarg, MAX_REPS), 2;
		} else {
			return fprintf(stderr, "usage: %s [-f FLOWS] [-c CASE] [-r REPS]\n",
				       argv[0]), 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	tp_test_eal_init_bench();
	/* as a pipeline does at creation: the strip rows then write the meta
	 * field the pipeline's strip writes */
	if (tp_dsa_meta_register() != 0)
		return fprintf(stderr, "bench: tp_dsa_meta_register failed\n"), 1;
	mp = tp_test_pool_create("bench", MAX_FRAMES + 4 * BURST, 0);

	printf("bench_pipeline: TSC cycles per input frame, median [min - max] of %d "
	       "repetitions; burst %d, TSC %" PRIu64 " Hz\n"
	       "  dpdk-ctx: max_flow_num 2 x flows, max_item_per_flow 4, full flush "
	       "every K bursts; the pipeline flushes at the same points\n",
	       reps, BURST, rte_get_tsc_hz());
	printf("%-13s %5s %6s %9s  %19s %7s\n", "case", "flows", "K", "cyc/pkt",
	       "spread", "in/out");
	for (unsigned int i = 0; i < RTE_DIM(all_flows); i++) {
		unsigned int f = one_flows ? one_flows : all_flows[i];
		double dpdk = 0, pipe = 0;

		make_frames(f);
		for (int c = 0; c < C_MAX; c++) {
			double v;

			if (one_case >= 0 && c != one_case)
				continue;
			/* The untag stages and the timer: flow count does not matter. */
			if (c <= C_FUSED_FILL && i > 0 && one_flows == 0)
				continue;
			v = bench((enum bench_case)c, f);
			if (c == C_DPDK_CTX)
				dpdk = v;
			else if (c == C_PIPE)
				pipe = v;
		}
		if (dpdk > 0 && pipe > 0) {
			printf("  %u flows: pipeline / librte_gro alone = %.2fx\n", f,
			       pipe / dpdk);
			paired(f);
		}
		if (one_flows)
			break;
	}
	for (unsigned int i = 0; i < MAX_FRAMES; i++) {
		free(frame[0][i]);
		free(frame[1][i]);
	}
	return 0;
}
