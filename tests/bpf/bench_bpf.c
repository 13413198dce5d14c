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
 * each XDP object run by the JIT ("bpf:") and interpreted ("bpf-interp:").
 * Frames: Ether/IPv4/UDP, 64 bytes, bursts of 32. Best of ROUNDS rounds;
 * mbuf filling and freeing are outside the timed region. "prog only"
 * times each burst call with its mbufs in cache (as the stages before the
 * program leave them) and includes the two TSC reads per burst, about 3
 * cycles per frame.
 * "kernel JIT" is the same object in the running kernel, where this
 * process may load BPF: BPF_PROG_TEST_RUN (bpf_prog_test_run_opts) of the
 * same 64-byte frame KREPEAT times, the kernel's mean ns per run in TSC
 * cycles, best of KROUNDS. It is the peer of "prog only": one frame in
 * cache, the program's run and the kernel's loop around it (no driver, no
 * XDP_DROP freeing), with the kernel's maps of the same shapes, empty.
 * "open": milliseconds to open xdpfilt_dny_all.o with the JIT -- ELF and
 * BTF parsing, maps, tagpipe's checks and rewrite, translation -- with the
 * kernel's verifier not asked (TP_BPF_VERIFY_OFF), median and range of
 * OPENS opens, and of as many for the interpreter, which does all but the
 * translation, the two kinds alternating. Under the table, each object's describe() line: whether
 * the JIT runs it and whether the kernel verified it (then its accesses
 * run unchecked).
 * Environment: TP_BPF_BENCH_ONLY=TEXT runs only the rows whose label
 * contains TEXT (for callgrind or perf on one program).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <rte_cycles.h>

#include "tp_test.h"
#include "tagpipe.h"

#define BURST 32
#define NFRAMES 8192
#define ROUNDS 15
#define KREPEAT 1000000
#define KROUNDS 5
#define OPENS 21

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

static int
quiet(enum libbpf_print_level l, const char *f, va_list ap)
{
	(void)l; (void)f; (void)ap;
	return 0;
}

/* The kernel's JIT on the frame (see the file comment): TSC cycles per
 * run, or -1 when the kernel may not load the object here. func: the
 * program's function or section name, as in tagpipe's FILE.o:SECTION;
 * NULL for the object's first program. */
static double
kernel_cycles(const char *file, const char *func)
{
	struct bpf_object *obj;
	struct bpf_program *p, *sel = NULL;
	struct bpf_map *m;
	double best = -1;

	libbpf_set_print(quiet);
	obj = bpf_object__open_file(file, NULL);
	if (obj == NULL)
		return -1;
	bpf_object__for_each_program(p, obj) {
		if (sel == NULL && (func == NULL || strcmp(bpf_program__name(p), func) == 0 ||
				    strcmp(bpf_program__section_name(p), func) == 0)) {
			sel = p;
			bpf_program__set_type(p, BPF_PROG_TYPE_XDP);
		} else {
			bpf_program__set_autoload(p, false);
		}
	}
	bpf_object__for_each_map(m, obj)
		bpf_map__set_pin_path(m, NULL);
	if (sel != NULL && bpf_object__load(obj) == 0) {
		for (int r = 0; r < KROUNDS; r++) {
			LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame,
				    .data_size_in = sizeof(frame), .repeat = KREPEAT);
			double c;

			if (bpf_prog_test_run_opts(bpf_program__fd(sel), &o) != 0)
				break;
			c = o.duration * 1e-9 * (double)rte_get_tsc_hz();
			if (best < 0 || c < best)
				best = c;
		}
	}
	bpf_object__close(obj);
	return best;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
open_once_ms(const char *spec)
{
	uint64_t t0 = rte_rdtsc_precise();
	struct tp_prog *p = open_prog(spec);
	double ms = (double)(rte_rdtsc_precise() - t0) * 1e3 / (double)rte_get_tsc_hz();

	tp_prog_close(p);
	return ms;
}

/* The "open" line: OPENS opens of file with the JIT and, alternating with
 * them (so that neither gains from the order), OPENS for the interpreter,
 * which does all but the translation; median and range in ms, the
 * kernel's verifier not asked (its time is the kernel's, not tagpipe's). */
static void
open_times(const char *file)
{
	double jit[OPENS], interp[OPENS];
	char sj[512], si[512];

	snprintf(sj, sizeof(sj), "bpf:%s", file);
	snprintf(si, sizeof(si), "bpf-interp:%s", file);
	if (tp_prog_bpf_set_verify(TP_BPF_VERIFY_OFF) != 0)
		exit(1);
	for (int i = 0; i < OPENS; i++) {
		jit[i] = open_once_ms(sj);
		interp[i] = open_once_ms(si);
	}
	if (tp_prog_bpf_set_verify(TP_BPF_VERIFY_AUTO) != 0)
		exit(1);
	qsort(jit, OPENS, sizeof(jit[0]), cmp_double);
	qsort(interp, OPENS, sizeof(interp[0]), cmp_double);
	printf("open: %.2f ms (median of %d, %.2f-%.2f) %s with the JIT, kernel verifier "
	       "not asked; interpreted: %.2f ms (%.2f-%.2f)\n", jit[OPENS / 2], OPENS, jit[0],
	       jit[OPENS - 1], file, interp[OPENS / 2], interp[0], interp[OPENS - 1]);
}

int
main(void)
{
#define DNY_ALL "/usr/lib/x86_64-linux-gnu/bpf/xdpfilt_dny_all.o"
	static const struct { const char *label, *kind, *file, *sel; } rows[] = {
		{ "drop (built-in C)", NULL, NULL, "drop" },
		{ "XDP_DROP t_bench.o jit", "bpf:", "t_bench.o", NULL },
		{ "XDP_DROP t_bench.o interpreted", "bpf-interp:", "t_bench.o", NULL },
		{ "tx (built-in C, MAC swap)", NULL, NULL, "tx" },
		{ "XDP_TX t_bench.o:xdp_tx jit", "bpf:", "t_bench.o", "xdp_tx" },
		{ "XDP_TX t_bench.o:xdp_tx interpreted", "bpf-interp:", "t_bench.o", "xdp_tx" },
		{ "xdpfilt_dny_all.o jit", "bpf:", DNY_ALL, NULL },
		{ "xdpfilt_dny_all.o interpreted", "bpf-interp:", DNY_ALL, NULL },
	};

	static char notes[8][600];
	unsigned int nnotes = 0;

	tp_test_eal_init_bench();
	mp = tp_test_pool_create("bench_bpf", NFRAMES + 4 * BURST, 0);
	build_frame();
	printf("bench_bpf: cycles per 64-byte frame (TSC %" PRIu64 " Hz), best of %d\n",
	       rte_get_tsc_hz(), ROUNDS);
	printf("%-42s %10s %10s %11s\n", "program", "pipeline", "prog only", "kernel JIT");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *only = getenv("TP_BPF_BENCH_ONLY");
		char spec[512], rel[128];
		const char *file = NULL;
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
			file = f;
			snprintf(spec, sizeof(spec), "%s%s%s%s", rows[i].kind, f,
				 rows[i].sel ? ":" : "", rows[i].sel ? rows[i].sel : "");
		}
		p = open_prog(spec);
		if (file != NULL && strcmp(rows[i].kind, "bpf:") == 0 &&
		    tp_prog_bpf_describe(p, notes[nnotes], sizeof(notes[0])) > 0)
			nnotes++;
		printf("%-42s %10.1f %10.1f", rows[i].label, run_pipeline(p), run_prog_only(p));
		if (file != NULL && strcmp(rows[i].kind, "bpf:") == 0) {
			double k = kernel_cycles(file, rows[i].sel);

			if (k < 0)
				printf(" %11s", "(not here)");
			else
				printf(" %11.1f", k);
		}
		printf("\n");
		tp_prog_close(p);
	}
	for (unsigned int i = 0; i < nnotes; i++)
		printf("  %s\n", notes[i]);
	if (access(DNY_ALL, R_OK) == 0)
		open_times(DNY_ALL);
	else
		printf("open: %s absent\n", DNY_ALL);
	return 0;
}
