/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark (prints only): TSC cycles per 64-byte frame through the whole
 * pipeline (no tagger, VLAN strip policy, GRO off, program, actions; TX
 * handed to an egress callback that frees), and of the program's burst
 * function alone, for:
 *   built-in "drop"          vs  t_bench.o (XDP_DROP)
 *   built-in "tx" (MAC swap) vs  t_bench.o:xdp_tx
 *   xdpfilt_dny_all.o (Debian libxdp1, empty filter maps: every frame
 *   walks Ethernet/IPv4/UDP and is dropped)
 * each XDP object compiled ("bpf:") and interpreted ("bpf-interp:").
 * Frames: Ether/IPv4/UDP, 64 bytes, bursts of 32. Best of ROUNDS rounds;
 * mbuf filling and freeing are outside the timed region. "prog only"
 * times each burst call with its mbufs in cache (as the stages before the
 * program leave them) and includes the two TSC reads per burst, about 3
 * cycles per frame.
 * Environment: TP_BPF_BENCH_ONLY=TEXT runs only the rows whose label
 * contains TEXT (for callgrind or perf on one program).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "tp_test.h"
#include "tagpipe.h"

#define BURST 32
#define NFRAMES 8192
#define ROUNDS 15

static struct rte_mempool *mp;
static struct rte_mbuf *in[NFRAMES];
static uint8_t frame[64];

static void
build_frame(void)
{
	static const char *hex =
		"020000000002 020000000001 0800"
		"4500 0032 0001 0000 4011 0000 0a000001 c0a80101"
		"15b3 0035 001e 0000";
	size_t n = tp_test_hex(hex, frame, sizeof(frame));

	memset(frame + n, 0x5a, sizeof(frame) - n);
}

static void
fill(void)
{
	for (unsigned int i = 0; i < NFRAMES; i++)
		in[i] = tp_test_mbuf_from_bytes(mp, frame, sizeof(frame));
}

/* Read each mbuf's first line and first data byte. */
static void
warm(struct rte_mbuf **pkts, unsigned int n)
{
	volatile uint8_t sink = 0;

	for (unsigned int i = 0; i < n; i++)
		sink += *rte_pktmbuf_mtod(pkts[i], volatile uint8_t *) + (uint8_t)pkts[i]->data_len;
	(void)sink;
}

static void
on_egress(void *arg, enum tp_verdict v, uint16_t port, uint16_t queue,
	  struct rte_mbuf **pkts, uint16_t n)
{
	(void)arg; (void)v; (void)port; (void)queue;
	rte_pktmbuf_free_bulk(pkts, n);
}

static struct tp_prog *
open_prog(const char *spec)
{
	struct tp_prog *p = NULL;
	char err[256];

	if (tp_prog_open(spec, &p, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_bpf: %s\n", err);
		exit(1);
	}
	return p;
}

static double
run_pipeline(struct tp_prog *prog)
{
	double best = 1e18;

	for (int r = 0; r < ROUNDS; r++) {
		struct tp_pipeline_conf c;
		struct tp_pipeline *pl = NULL;
		struct rte_mbuf *out[2 * BURST];
		uint64_t cyc = 0;
		char err[256];

		tp_pipeline_conf_init(&c);
		c.port[0].enabled = true;
		c.gro.mode = TP_GRO_OFF;
		c.prog = prog;
		c.egress_cb = on_egress;
		if (tp_pipeline_create(&c, &pl, err, sizeof(err)) != 0) {
			fprintf(stderr, "bench_bpf: %s\n", err);
			exit(1);
		}
		fill();
		for (unsigned int at = 0; at < NFRAMES; at += BURST) {
			uint64_t t0;
			uint16_t n;

			memcpy(out, in + at, BURST * sizeof(*out));
			t0 = rte_rdtsc_precise();
			n = tp_pipeline_rx_burst(pl, 0, 0, out, BURST);
			cyc += rte_rdtsc_precise() - t0;
			rte_pktmbuf_free_bulk(out, n);
		}
		tp_pipeline_destroy(pl);
		if ((double)cyc / NFRAMES < best)
			best = (double)cyc / NFRAMES;
	}
	return best;
}

static double
run_prog_only(struct tp_prog *prog)
{
	struct tp_prog_env env = { .priv = tp_prog_priv(prog) };
	tp_prog_burst_fn fn = tp_prog_ops_of(prog)->burst;
	uint8_t verdict[BURST];
	uint32_t key[BURST];
	double best = 1e18;

	fill();
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t t = 0;

		for (unsigned int at = 0; at < NFRAMES; at += BURST) {
			uint64_t t0;

			/* the burst's mbuf and first data lines in cache, as the
			 * pipeline's earlier stages leave them: the program's own
			 * cost, not the first touch of 8192 mbufs */
			warm(in + at, BURST);
			t0 = rte_rdtsc_precise();
			fn(&env, in + at, BURST, verdict, key);
			t += rte_rdtsc_precise() - t0;
		}
		if ((double)t / NFRAMES < best)
			best = (double)t / NFRAMES;
	}
	rte_pktmbuf_free_bulk(in, NFRAMES);
	return best;
}

int
main(void)
{
#define DNY_ALL "/usr/lib/x86_64-linux-gnu/bpf/xdpfilt_dny_all.o"
	static const struct { const char *label, *kind, *file, *sel; } rows[] = {
		{ "drop (built-in C)", NULL, NULL, "drop" },
		{ "XDP_DROP t_bench.o compiled", "bpf:", "t_bench.o", NULL },
		{ "XDP_DROP t_bench.o interpreted", "bpf-interp:", "t_bench.o", NULL },
		{ "tx (built-in C, MAC swap)", NULL, NULL, "tx" },
		{ "XDP_TX t_bench.o:xdp_tx compiled", "bpf:", "t_bench.o", "xdp_tx" },
		{ "XDP_TX t_bench.o:xdp_tx interpreted", "bpf-interp:", "t_bench.o", "xdp_tx" },
		{ "xdpfilt_dny_all.o compiled", "bpf:", DNY_ALL, NULL },
		{ "xdpfilt_dny_all.o interpreted", "bpf-interp:", DNY_ALL, NULL },
	};

	tp_test_eal_init_bench();
	mp = tp_test_pool_create("bench_bpf", NFRAMES + 4 * BURST, 0);
	build_frame();
	printf("bench_bpf: cycles per 64-byte frame (TSC %" PRIu64 " Hz), best of %d\n",
	       rte_get_tsc_hz(), ROUNDS);
	printf("%-42s %10s %10s\n", "program", "pipeline", "prog only");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *only = getenv("TP_BPF_BENCH_ONLY");
		char spec[512], rel[128];
		struct tp_prog *p;

		if (only != NULL && strstr(rows[i].label, only) == NULL)
			continue;
		if (rows[i].file == NULL) {
			snprintf(spec, sizeof(spec), "%s", rows[i].sel);
		} else {
			const char *f = rows[i].file;

			if (f[0] != '/') {
				snprintf(rel, sizeof(rel), "tests/bpf/%s", f);
				f = tp_test_build_path(rel);
			}
			if (access(f, R_OK) != 0) {
				printf("%-42s %10s\n", rows[i].label, "(absent)");
				continue;
			}
			snprintf(spec, sizeof(spec), "%s%s%s%s", rows[i].kind, f,
				 rows[i].sel ? ":" : "", rows[i].sel ? rows[i].sel : "");
		}
		p = open_prog(spec);
		printf("%-42s %10.1f %10.1f\n", rows[i].label, run_pipeline(p),
		       run_prog_only(p));
		tp_prog_close(p);
	}
	return 0;
}
