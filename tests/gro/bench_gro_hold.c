/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: how long GRO holds a segment (tagpipe issue 30, item 2). A GRO
 * that saves cycles by holding packets longer has not won, so the hold time
 * is printed beside the merge ratio and the cycles, for tp_gro (burst mode;
 * age mode as tagpipe-fwd runs it) and for DPDK's librte_gro as
 * dpdk-testpmd 22.11's csum engine runs it, on the same input and the same
 * arrival schedule.
 *
 * Input: bulk TCP/IPv4 (gro_bulk.h: MSS 1448 with timestamps, 1514-byte
 * frames, in order), 1 and 32 flows interleaved round-robin; IPv4 and TCP
 * checksums GOOD, packet_type and l2/l3/l4_len set as a NIC and testpmd's
 * csum engine leave them: both engines trust the checksums.
 *
 * Arrival in real time: frame i arrives at t0 + i * gap, gap = the time of
 * 1538 bytes at 10 or 25 Gbit/s (the 1514-byte frame, its 4-byte FCS, 8
 * bytes of preamble and start delimiter, 12 of inter-frame gap: IEEE
 * 802.3 clause 4). A poll loop spins as a PMD's does: each poll takes every
 * frame whose arrival time has passed, at most one burst of 32, writes it
 * into fresh mbufs (as a NIC's DMA would; not counted as engine time),
 * hands the burst to the engine, and "transmits" (frees) what the engine
 * releases. Polls that find nothing are empty polls; they happen as they do
 * in a real poll loop, and an engine that flushes on them gets the call.
 * A run in which the loop was descheduled longer than any hold asked for
 * is run again (see RETRY_US); the stalls are printed with each table.
 *
 * Hold of a segment = release TSC (just after the engine call that released
 * the packet containing it) - RX TSC (just after the poll that received it).
 * A released packet of flow f with TCP sequence s and payload L contains the
 * segments [(s - isn_f) / 1448, (s - isn_f + L) / 1448) of f: every input
 * segment gets its own hold, and must be released exactly once (else the
 * run fails: an engine lost or duplicated data). "wire p99" is measured from
 * the scheduled arrival instead: it adds the time the frame waited for the
 * poll (a slow engine delays the next poll).
 *
 * Engine cycles = TSC cycles inside the engine's merge and flush calls over
 * the run, divided by the frames, minus the cost of reading the TSC around
 * each call (measured, printed). The held-count test an empty poll makes
 * before deciding to call the engine is not counted (both sides have one).
 *
 * Each (flows, rate, engine) runs REPS times, engines interleaved within a
 * repetition; cycles are the median of the repetitions, hold percentiles
 * come from all repetitions' segments pooled (nearest rank). Only prints;
 * fails only when something is broken (a segment lost or duplicated, a
 * header inconsistent, an mbuf leaked).
 */
#include "tp_test.h"
#include "tp_gro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_gro.h>

#include "gro_bulk.h"
#include "gro_tpkt.h"

#define NFRAMES 48000u      /* per run: 59 ms at 10GbE, 24 ms at 25GbE */
#define BURST 32
#define REPS 3
#define WIRE_BYTES 1538     /* 1514 + FCS 4 + preamble/SFD 8 + IFG 12 */
#define FRAME_LEN (GRO_BULK_HDR + GRO_BULK_MSS)

/*
 * dpdk-testpmd 22.11 (DPDK v22.11.11, app/test-pmd/testpmd.h, testpmd.c,
 * config.c setup_gro): "set port P gro on" with the default flush setting
 * gives rte_gro_reassemble_burst a table of GRO_DEFAULT_FLOW_NUM =
 * RTE_GRO_MAX_BURST_ITEM_NUM / GRO_DEFAULT_ITEM_NUM_PER_FLOW = 128 / 32 = 4
 * flows x 32 items (librte_gro sizes the burst table by min(burst, flows x
 * items, 128), so every flow of a 32-frame burst fits); init_config creates
 * each lcore's context for the heavyweight mode with max_flow_num =
 * GRO_MAX_FLUSH_CYCLES = 4 and max_item_per_flow = MAX_PKT_BURST = 512
 * (gro_tcp4_tbl_create makes 4 x 512 = 2048 flow and item slots), and a
 * flush returns at most MAX_PKT_BURST minus the packets already in the burst.
 */
#define TESTPMD_BURST_FLOWS (RTE_GRO_MAX_BURST_ITEM_NUM / 32)
#define TESTPMD_BURST_ITEMS 32
#define TESTPMD_CTX_FLOWS 4
#define TESTPMD_CTX_ITEMS 512
#define TESTPMD_MAX_PKT_BURST 512

enum kind { TP_BURST, TP_AGE, DPDK_LIGHT, DPDK_HEAVY };

struct engine_conf {
	enum kind kind;
	unsigned int arg;   /* TP_AGE: age in us; DPDK: testpmd's gro flush N */
};

static const struct engine_conf confs[] = {
	{ TP_BURST, 0 },
	{ TP_AGE, 10 },
	{ TP_AGE, 50 },
	{ TP_AGE, 100 },
	{ DPDK_LIGHT, 1 },
	{ DPDK_HEAVY, 2 },
	{ DPDK_HEAVY, 3 },
	{ DPDK_HEAVY, 4 },
};
#define NCONF RTE_DIM(confs)

struct engine {
	const struct engine_conf *c;
	struct tp_gro *g;
	void *ctx;
	struct rte_gro_param burst_param;
	unsigned int gro_times;     /* testpmd's fs->gro_times */
	uint64_t busy;              /* cycles inside engine calls */
	uint64_t busy_idle;         /* of busy, in calls on empty polls */
};

static struct rte_mempool *mp;
static uint8_t *frames;             /* NFRAMES templates of FRAME_LEN bytes */
static unsigned int nflows;
static uint64_t tsc_ovh;            /* cost of the two TSC reads around a call */
static uint64_t sched[NFRAMES], rx_tsc[NFRAMES], rel_tsc[NFRAMES];
static unsigned int released, outputs;
/* per configuration, all repetitions: TSC cycles */
static uint64_t hold_rx[NCONF][REPS * NFRAMES], hold_wire[NCONF][REPS * NFRAMES];

struct row {
	double cyc[REPS], idle[REPS];   /* engine cycles per frame: all, empty polls */
	uint64_t outputs[REPS], polls[REPS], nonempty[REPS];
};

/* Gaps between successive polls longer than STALL_US (engine time
 * included): on a shared machine mostly the loop being descheduled. A
 * run with a gap over RETRY_US (longer than any hold asked for: the
 * backlog it leaves changes the bursts, the merges and the holds) is run
 * again, up to MAX_TRIES times; the last one is kept. */
#define STALL_US 5
#define RETRY_US 150
#define MAX_TRIES 5
#define STUCK_POLLS 100000000u

struct stalls {
	uint64_t n, tsc, max;
};

static void
engine_open(struct engine *e, const struct engine_conf *c)
{
	memset(e, 0, sizeof(*e));
	e->c = c;
	if (c->kind == TP_BURST || c->kind == TP_AGE) {
		struct tp_gro_conf tc = {
			.max_flows = RTE_MAX(1024u, 2 * nflows),
			.mode = c->kind == TP_AGE ? TP_GRO_MODE_AGE : TP_GRO_MODE_BURST,
			.age_tsc = c->kind == TP_AGE ? tp_gro_usec_to_tsc(c->arg) : 0,
			.socket_id = (int)rte_socket_id(),
		};

		e->g = tp_gro_create(&tc);
		assert_non_null(e->g);
	} else if (c->kind == DPDK_LIGHT) {
		e->burst_param = (struct rte_gro_param){
			.gro_types = RTE_GRO_TCP_IPV4,
			.max_flow_num = TESTPMD_BURST_FLOWS,
			.max_item_per_flow = TESTPMD_BURST_ITEMS,
			.socket_id = (uint16_t)rte_socket_id(),
		};
	} else {
		struct rte_gro_param p = {
			.gro_types = RTE_GRO_TCP_IPV4,
			.max_flow_num = TESTPMD_CTX_FLOWS,
			.max_item_per_flow = TESTPMD_CTX_ITEMS,
			.socket_id = (uint16_t)rte_socket_id(),
		};

		e->ctx = rte_gro_ctx_create(&p);
		assert_non_null(e->ctx);
	}
}

static void
engine_close(struct engine *e)
{
	if (e->g != NULL)
		assert_int_equal(tp_gro_held(e->g), 0);
	if (e->ctx != NULL) {
		assert_int_equal(rte_gro_get_pkt_count(e->ctx), 0);
		rte_gro_ctx_destroy(e->ctx);
	}
	tp_gro_destroy(e->g);
}

static inline void
busy_add(struct engine *e, uint64_t t0, uint16_t n)
{
	uint64_t d = rte_rdtsc() - t0;

	d = d > tsc_ovh ? d - tsc_ovh : 0;
	e->busy += d;
	if (n == 0)
		e->busy_idle += d;
}

/*
 * One poll: the n received frames in rx (n may be 0) go to the engine the
 * way its application calls it; what it releases goes to out (room for
 * TESTPMD_MAX_PKT_BURST). Returns the count released.
 */
static uint16_t
engine_poll(struct engine *e, struct rte_mbuf **rx, uint16_t n, struct rte_mbuf **out)
{
	uint64_t t0;
	uint16_t nb = 0;
	int r;

	switch (e->c->kind) {
	case TP_BURST:
		/* tagpipe-fwd's pipeline engine returns on an empty burst
		 * unless age mode holds something (apps/fwd/engine_pipeline.c) */
		if (n == 0)
			return 0;
		t0 = rte_rdtsc();
		r = tp_gro_merge_burst(e->g, rx, n, out, 2 * BURST, 0);
		busy_add(e, t0, n);
		assert_true(r >= 0);
		return (uint16_t)r;
	case TP_AGE:
		/* age mode: every poll while something is held, empty ones
		 * included, runs the pipeline's GRO stage, which completes the
		 * aggregates older than the age as far as its output room (two
		 * per frame of a burst) goes (lib/pipeline/pipeline_rx.c) */
		if (n == 0 && tp_gro_held(e->g) == 0)
			return 0;
		t0 = rte_rdtsc();
		r = tp_gro_merge_burst(e->g, rx, n, out, 2 * BURST, t0);
		busy_add(e, t0, n);
		assert_true(r >= 0);
		return (uint16_t)r;
	case DPDK_LIGHT:
		/* "set gro flush 1", testpmd's default: the csum engine
		 * returns on an empty burst, and merges within each burst */
		if (n == 0)
			return 0;
		memcpy(out, rx, n * sizeof(*rx));
		t0 = rte_rdtsc();
		nb = rte_gro_reassemble_burst(out, n, &e->burst_param);
		busy_add(e, t0, n);
		return nb;
	case DPDK_HEAVY:
		/*
		 * "set gro flush N", N = 2..4: DPDK v22.11.11
		 * app/test-pmd/csumonly.c, pkt_burst_checksum_forward. An
		 * empty RX burst goes on (instead of returning) only in this
		 * mode and only while the context holds packets (added in
		 * 22.11.5 by "app/testpmd: fix GRO packets flush on
		 * timeout"); then, empty or not, the burst is given to
		 * rte_gro_reassemble, the poll counter is incremented, and
		 * when it reaches N everything held is flushed (timeout 0)
		 * into the rest of the 512-entry burst array and the counter
		 * restarts. So empty polls count toward N while something is
		 * held.
		 */
		if (n == 0 && rte_gro_get_pkt_count(e->ctx) == 0)
			return 0;
		memcpy(out, rx, n * sizeof(*rx));
		t0 = rte_rdtsc();
		nb = rte_gro_reassemble(out, n, e->ctx);
		if (++e->gro_times >= e->c->arg) {
			uint64_t held = rte_gro_get_pkt_count(e->ctx);

			if (held > (uint64_t)(TESTPMD_MAX_PKT_BURST - nb))
				held = TESTPMD_MAX_PKT_BURST - nb;
			nb += rte_gro_timeout_flush(e->ctx, 0, RTE_GRO_TCP_IPV4, out + nb,
						    (uint16_t)held);
			e->gro_times = 0;
		}
		busy_add(e, t0, n);
		return nb;
	}
	return 0;
}

static inline uint32_t
rd16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static inline uint32_t
rd32(const uint8_t *p)
{
	return rd16(p) << 16 | rd16(p + 2);
}

/* A released packet: mark the release time of every segment it contains. */
static void
account(const struct rte_mbuf *m, uint64_t t)
{
	const uint8_t *ip = rte_pktmbuf_mtod(m, const uint8_t *) + 14;
	const uint8_t *th = ip + 20;
	uint32_t f = rd16(th) - GRO_BULK_SPORT_BASE, off, hdr, len, k;

	if (m->data_len < GRO_BULK_HDR || f >= nflows || rd16(ip + 2) != m->pkt_len - 14)
		fail_msg("released packet: flow %u of %u, IP length %u, pkt_len %u",
			 f, nflows, rd16(ip + 2), m->pkt_len);
	off = rd32(th + 4) - gro_bulk_isn(f);
	hdr = 34 + (uint32_t)(th[12] >> 4) * 4;
	len = m->pkt_len - hdr;
	if (hdr != GRO_BULK_HDR || len == 0 || off % GRO_BULK_MSS || len % GRO_BULK_MSS)
		fail_msg("released packet of flow %u: offset %u, payload %u", f, off, len);
	for (k = off / GRO_BULK_MSS; k < (off + len) / GRO_BULK_MSS; k++) {
		uint64_t i = (uint64_t)k * nflows + f;

		if (i >= NFRAMES || rel_tsc[i] != 0)
			fail_msg("segment %u of flow %u released twice or never sent", k, f);
		rel_tsc[i] = t;
		released++;
	}
	outputs++;
}

/* One run of NFRAMES frames at one frame every gap TSC cycles. */
static struct stalls
run_once(unsigned int ci, double gap, unsigned int rep, struct row *row)
{
	struct stalls st = { 0, 0, 0 };
	struct rte_mbuf *burst[BURST], *out[TESTPMD_MAX_PKT_BURST];
	unsigned int next = 0, i;
	uint64_t t0, last_poll = 0, idle_polls = 0;
	const uint64_t stall_min = rte_get_tsc_hz() / 1000000 * STALL_US;
	const struct engine_conf *c = &confs[ci];
	struct engine e;

	engine_open(&e, c);
	memset(rel_tsc, 0, sizeof(rel_tsc));
	released = outputs = 0;
	row->outputs[rep] = row->polls[rep] = row->nonempty[rep] = 0;
	t0 = rte_rdtsc() + (uint64_t)gap;
	for (i = 0; i < NFRAMES; i++)
		sched[i] = t0 + (uint64_t)((double)i * gap);

	while (released < NFRAMES) {
		uint64_t now = rte_rdtsc(), trx, trel;
		uint16_t n = 0, nout, j;

		if (last_poll != 0 && now - last_poll > stall_min) {
			st.n++;
			st.tsc += now - last_poll;
			st.max = RTE_MAX(st.max, now - last_poll);
		}
		last_poll = now;
		/* an engine that holds a packet forever: counted in polls, not
		 * in time, since a descheduled loop makes no polls (every
		 * engine here releases within 100 us or 4 polls) */
		if (++idle_polls > STUCK_POLLS)
			fail_msg("%s %u: %u of %u segments released, %u received, then "
				 "nothing for %u polls", c->kind <= TP_AGE ? "tp_gro" : "librte_gro",
				 c->arg, released, NFRAMES, next, STUCK_POLLS);
		while (next + n < NFRAMES && n < BURST && sched[next + n] <= now)
			n++;
		if (n > 0) {
			/* what a NIC's DMA and the PMD leave in the mbufs */
			assert_int_equal(rte_pktmbuf_alloc_bulk(mp, burst, n), 0);
			for (j = 0; j < n; j++) {
				memcpy(rte_pktmbuf_append(burst[j], FRAME_LEN),
				       frames + (size_t)(next + j) * FRAME_LEN, FRAME_LEN);
				gro_bulk_tcp4_nic_meta(burst[j]);
			}
			row->nonempty[rep]++;
		}
		row->polls[rep]++;
		trx = rte_rdtsc();
		for (j = 0; j < n; j++)
			rx_tsc[next + j] = trx;
		next += n;
		nout = engine_poll(&e, burst, n, out);
		if (n > 0 || nout > 0)
			idle_polls = 0;
		trel = rte_rdtsc();
		for (j = 0; j < nout; j++) {
			account(out[j], trel);
			rte_pktmbuf_free(out[j]);
		}
	}
	engine_close(&e);
	row->cyc[rep] = (double)e.busy / NFRAMES;
	row->idle[rep] = (double)e.busy_idle / NFRAMES;
	row->outputs[rep] = outputs;
	for (i = 0; i < NFRAMES; i++) {
		hold_rx[ci][(size_t)rep * NFRAMES + i] = rel_tsc[i] - rx_tsc[i];
		hold_wire[ci][(size_t)rep * NFRAMES + i] = rel_tsc[i] - sched[i];
	}
	return st;
}

static uint64_t
sum3(const uint64_t v[REPS])
{
	uint64_t s = 0;

	for (unsigned int r = 0; r < REPS; r++)
		s += v[r];
	return s;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted v[0..n), in microseconds. */
static double
pct_us(const uint64_t *v, size_t n, unsigned int pct)
{
	size_t rank = (n * pct + 99) / 100;

	return (double)v[rank > 0 ? rank - 1 : 0] * 1e6 / (double)rte_get_tsc_hz();
}

static void
conf_name(const struct engine_conf *c, char *eng, char *set, size_t len)
{
	switch (c->kind) {
	case TP_BURST:
		snprintf(eng, len, "tp_gro");
		snprintf(set, len, "burst mode");
		break;
	case TP_AGE:
		snprintf(eng, len, "tp_gro");
		snprintf(set, len, "age %u us", c->arg);
		break;
	case DPDK_LIGHT:
		snprintf(eng, len, "librte_gro");
		snprintf(set, len, "testpmd flush 1");
		break;
	case DPDK_HEAVY:
		snprintf(eng, len, "librte_gro");
		snprintf(set, len, "testpmd flush %u", c->arg);
		break;
	}
}

static void
make_frames(void)
{
	static uint8_t buf[TPKT_MAX];
	unsigned int i;

	for (i = 0; i < NFRAMES; i++) {
		assert_int_equal(gro_bulk_tcp4_frame(i % nflows, i / nflows, GRO_BULK_MSS, buf),
				 FRAME_LEN);
		memcpy(frames + (size_t)i * FRAME_LEN, buf, FRAME_LEN);
	}
}

static void
table(unsigned int gbps)
{
	double fps = (double)gbps * 1e9 / (WIRE_BYTES * 8);
	double gap = (double)rte_get_tsc_hz() / fps;
	static struct row rows[NCONF];
	const uint64_t retry_tsc = rte_get_tsc_hz() / 1000000 * RETRY_US;
	struct stalls all = { 0, 0, 0 };
	unsigned int r, c, retried = 0, kept_stalled = 0;

	memset(rows, 0, sizeof(rows));
	printf("\n== %u flow%s, %uGbE: %.0f frames/s, one every %.3f us (%.0f TSC cycles) ==\n",
	       nflows, nflows > 1 ? "s" : "", gbps, fps, 1e6 / fps, gap);
	printf("%-10s %-16s %6s %8s %8s %8s %9s %9s %8s %8s\n", "engine", "setting", "merge",
	       "hold p50", "p99", "max", "wire p99", "cyc/frame", "of idle", "rx/poll");
	/* each repetition runs every configuration, so that a noisy phase of
	 * a shared machine falls on all of them rather than on one */
	for (r = 0; r < REPS; r++)
		for (c = 0; c < NCONF; c++) {
			struct stalls st;
			unsigned int t = 0;

			while ((st = run_once(c, gap, r, &rows[c])).max > retry_tsc &&
			       ++t < MAX_TRIES)
				retried++;
			kept_stalled += st.max > retry_tsc;
			all.n += st.n;
			all.tsc += st.tsc;
			all.max = RTE_MAX(all.max, st.max);
		}
	for (c = 0; c < NCONF; c++) {
		const size_t ns = (size_t)REPS * NFRAMES;
		char eng[32], set[32];

		qsort(rows[c].cyc, REPS, sizeof(double), cmp_double);
		qsort(rows[c].idle, REPS, sizeof(double), cmp_double);
		qsort(hold_rx[c], ns, sizeof(uint64_t), cmp_u64);
		qsort(hold_wire[c], ns, sizeof(uint64_t), cmp_u64);
		conf_name(&confs[c], eng, set, sizeof(eng));
		printf("%-10s %-16s %6.2f %8.2f %8.2f %8.1f %9.2f %9.1f %8.1f %8.2f\n", eng, set,
		       (double)ns / (double)sum3(rows[c].outputs), pct_us(hold_rx[c], ns, 50),
		       pct_us(hold_rx[c], ns, 99), pct_us(hold_rx[c], ns, 100),
		       pct_us(hold_wire[c], ns, 99), rows[c].cyc[REPS / 2],
		       rows[c].idle[REPS / 2], (double)ns / (double)sum3(rows[c].nonempty));
	}
	printf("poll loop: %.1f polls per frame (%s); kept runs: %" PRIu64 " gaps between "
	       "polls over %d us, %.2f%% of their time, longest %.0f us; %u runs repeated "
	       "for a gap over %d us, %u kept with one after %d tries\n",
	       (double)sum3(rows[0].polls) / ((double)REPS * NFRAMES), "tp_gro burst mode",
	       all.n, STALL_US, 100.0 * (double)all.tsc / ((double)REPS * NCONF * NFRAMES * gap),
	       (double)all.max * 1e6 / (double)rte_get_tsc_hz(), retried, RETRY_US,
	       kept_stalled, MAX_TRIES);
}

/* The cost of the two TSC reads around an engine call: the least of many. */
static uint64_t
measure_tsc_ovh(void)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 10000; i++) {
		uint64_t a = rte_rdtsc(), b = rte_rdtsc();

		best = RTE_MIN(best, b - a);
	}
	return best;
}

static void
bench(void **state)
{
	static const unsigned int flow_counts[] = { 1, 32 };
	static const unsigned int rates[] = { 10, 25 };
	unsigned int start = tp_test_pool_in_use(mp);

	(void)state;
	tsc_ovh = measure_tsc_ovh();
	printf("\nGRO hold time: %u frames per run (1514 B, bulk TCP/IPv4, MSS %d with "
	       "timestamps, round-robin flows), arriving in real time at line rate "
	       "(%d bytes on the wire per frame); polls of at most %d frames; "
	       "TSC %.3f GHz (TSC reads around an engine call: %" PRIu64 " cycles, subtracted); "
	       "%d repetitions\n", NFRAMES, GRO_BULK_MSS, WIRE_BYTES, BURST,
	       rte_get_tsc_hz() / 1e9, tsc_ovh, REPS);
	printf("  hold = release - RX poll, per input segment, p50/p99/max of all "
	       "repetitions' segments pooled, us; wire p99 = release - scheduled arrival "
	       "(adds the wait for the poll); merge = segments / packets out; cyc/frame = "
	       "engine cycles per input frame, median of the repetitions, 'of idle' the "
	       "part spent in calls on polls that received nothing; rx/poll = frames per "
	       "non-empty poll\n");
	printf("  tp_gro: checksums trusted (flags GOOD); burst mode = everything "
	       "completed at the end of each burst; age N us = held across polls, "
	       "completed once N us old, on every poll while something is held "
	       "(tagpipe-fwd's pipeline engine), 64 KiB at most\n");
	printf("  librte_gro as dpdk-testpmd 22.11.11's csum engine runs it (checksums "
	       "not checked): 'set gro flush 1' (default) = rte_gro_reassemble_burst "
	       "per RX burst (4 flows x 32 items), nothing held across polls; 'set gro "
	       "flush N' (N 2..4) = rte_gro_reassemble into a context (4 x 512) and "
	       "everything in it flushed (rte_gro_timeout_flush, timeout 0) every N-th "
	       "poll, where polls that receive nothing count while the context holds "
	       "packets\n");
	for (unsigned int fi = 0; fi < RTE_DIM(flow_counts); fi++) {
		nflows = flow_counts[fi];
		make_frames();
		for (unsigned int ri = 0; ri < RTE_DIM(rates); ri++)
			table(rates[ri]);
	}
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bench),
	};

	tp_test_eal_init_bench();
	/* in flight at once: what the engines hold plus one burst */
	mp = tp_test_pool_create("gro_hold", 8192, 2048);
	frames = malloc((size_t)NFRAMES * FRAME_LEN);
	assert_non_null(frames);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
