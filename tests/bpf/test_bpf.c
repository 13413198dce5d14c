/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * XDP object files as verdict programs (tp_prog.h, "XDP objects").
 * Programs: the C files in tests/bpf/progs/, built by meson with clang
 * -target bpf;
 * Debian's libxdp1 objects under /usr/lib/x86_64-linux-gnu/bpf when
 * installed. Frames and expected output bytes: gen_bpf_frames.py (scapy).
 * Expected verdicts and counters follow from each program's documented
 * behaviour (file headers in progs/; xdp-tools' xdp-filter sources for
 * xdpfilt_*.o: filter_ports key = port in network byte order, value bits
 * DST 2 | UDP 8, a hit adds 1 << 6; xdp_stats_map[action] = {packets, bytes}).
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>

#include <rte_dev.h>
#include <rte_ethdev.h>

#include "bpf_test.h"
#include "pl_test.h"
#include "tp_bpf.h"


static uint8_t **exp_f;
static uint32_t *exp_l;

/* "bpf:" (compiled) or "bpf-interp:": every test runs in both modes. */
static const char *mode = "bpf:";

static struct tp_prog *
open_ok(const char *file, const char *sel)
{
	char spec[600], err[256] = "";
	struct tp_prog *p = NULL;
	int rc;

	snprintf(spec, sizeof(spec), "%s%s%s%s", mode, file, sel ? ":" : "", sel ? sel : "");
	rc = tp_prog_open(spec, &p, err, sizeof(err));
	if (rc != 0)
		fail_msg("open %s: %s", spec, err);
	if (strcmp(mode, "bpf:") == 0) {
		char what[600];

		/* x86-64 has the JIT: it must be in use; elsewhere the
		 * interpreter runs and says why */
#if defined(__x86_64__)
		static const char want[] = ", jit, ";
#else
		static const char want[] = ", no JIT for this architecture: interpreter, ";
#endif
		tp_prog_bpf_describe(p, what, sizeof(what));
		if (strstr(what, want) == NULL)
			fail_msg("%s: describe lacks '%s': %s", spec, want, what);
	}
	return p;
}

static void
open_fails(const char *file, const char *sel, const char *want)
{
	char spec[600], err[256] = "";
	struct tp_prog *p = NULL;
	int rc;

	snprintf(spec, sizeof(spec), "%s%s%s%s", strncmp(file, "bpf", 3) ? mode : "",
		 file, sel ? ":" : "", sel ? sel : "");
	rc = tp_prog_open(spec, &p, err, sizeof(err));
	if (rc == 0)
		fail_msg("%s opened, expected an error with '%s'", spec, want);
	if (strstr(err, want) == NULL)
		fail_msg("%s: error '%s' lacks '%s'", spec, err, want);
}

static void
load_frames(struct rte_mbuf **m)
{
	for (unsigned int i = 0; i < NF; i++)
		m[i] = tp_test_mbuf_from_bytes(mp, in_f[i], in_l[i]);
}

static void
run(struct tp_prog *p, uint16_t port, struct rte_mbuf **m, uint16_t n,
    uint8_t *v, uint32_t *k)
{
	struct tp_prog_env env = { .priv = tp_prog_priv(p), .port = port, .queue = 0 };

	tp_prog_ops_of(p)->burst(&env, m, n, v, k);
}

static void
expect_verdicts(const uint8_t *got, const uint8_t *want, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (got[i] != want[i])
			fail_msg("frame %u: verdict %u, expected %u", i, got[i], want[i]);
}

static void
expect_bytes_from(const char *pcap, struct rte_mbuf **m)
{
	unsigned int n = tp_test_pcap_read(tp_test_build_path(pcap), &exp_f, &exp_l, NULL);

	assert_int_equal(n, NF);
	for (unsigned int i = 0; i < NF; i++)
		tp_test_assert_mbuf_bytes(m[i], exp_f[i], exp_l[i]);
	tp_test_pcap_free(exp_f, exp_l, n);
}

static void
free_all(struct rte_mbuf **m, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		rte_pktmbuf_free(m[i]);
}

/* tp_prog_bpf_map_dump (or with btf, _dump_btf) of map name as a string
 * (static buffer), which must have that many lines. */
static const char *
dump_lines_of(struct tp_prog *p, const char *name, int lines, bool btf)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	int idx = tp_prog_bpf_map_find(p, name);

	assert_non_null(f);
	assert_int_equal(btf ? tp_prog_bpf_map_dump_btf(p, idx, f) :
			 tp_prog_bpf_map_dump(p, idx, f), lines);
	fclose(f);
	return buf;
}

static const char *
dump_of(struct tp_prog *p, const char *name, int lines)
{
	return dump_lines_of(p, name, lines, false);
}

static const char *
dump_of_btf(struct tp_prog *p, const char *name, int lines)
{
	return dump_lines_of(p, name, lines, true);
}

/* rc of a find by name, failing the test when it is an error. */
static int
found(int rc, const char *what, const char *name)
{
	if (rc < 0)
		fail_msg("%s %s: %d", what, name, rc);
	return rc;
}

static int
map_idx(struct tp_prog *p, const char *name)
{
	return found(tp_prog_bpf_map_find(p, name), "map", name);
}

static uint64_t
u64_at(struct tp_prog *p, const char *map, uint32_t key, unsigned int off)
{
	uint8_t buf[4096];
	uint64_t v;

	assert_int_equal(tp_prog_bpf_map_lookup(p, map_idx(p, map), &key, buf), 0);
	memcpy(&v, buf + off, 8);
	return v;
}

/* Parsing through ctx->data, a BPF-to-BPF call, global data, atomics. */
static void
check_parse(const char *file)
{
	static const uint8_t want[NF] = { XDP_DROP, XDP_PASS, XDP_TX, XDP_PASS,
					  XDP_PASS, XDP_ABORTED, XDP_PASS, XDP_PASS };
	struct tp_prog *p = open_ok(obj(file), NULL);
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF], zero = 0;
	uint16_t port22 = 22;
	uint8_t ro[64];
	struct tp_bpf_stats st;

	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_verdicts(v, want, NF);
	expect_bytes_from("tests/bpf/parse_out.pcap", m);
	/* seen starts at 1000 and counts frames 0..3 (IPv4); tx_count = 1 */
	assert_int_equal(u64_at(p, ".data", 0, 0), 1004);
	assert_int_equal(u64_at(p, ".bss", 0, 0), 1);
	assert_int_equal(tp_prog_bpf_stats(p, &st), 0);
	assert_int_equal(st.runs, NF);
	assert_int_equal(st.aborted_oob, 0);
	/* blocked_port lives in .rodata: block SSH instead of HTTP */
	assert_int_equal(tp_prog_bpf_map_lookup(p, map_idx(p, ".rodata"), &zero, ro), 0);
	memcpy(ro, &port22, 2);
	assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, ".rodata"), &zero, ro, 0), 0);
	free_all(m, NF);
	load_frames(m);
	run(p, 0, m, 2, v, k);
	assert_int_equal(v[0], XDP_PASS);
	assert_int_equal(v[1], XDP_DROP);
	free_all(m, NF);
	tp_prog_close(p);
}

static void
test_parse(void **state)
{
	(void)state;
	check_parse("t_parse.o");
}

/* The same source built for eBPF v3: ALU32/JMP32 give the same results. */
static void
test_parse_v3(void **state)
{
	(void)state;
	check_parse("t_parse_v3.o");
}

/* bpf_xdp_adjust_meta in front of tagpipe's metadata, and its 32-byte cap. */
static void
test_meta(void **state)
{
	struct tp_prog *p = open_ok(obj("t_misc.o"), NULL);
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF];

	(void)state;
	load_frames(m);
	run(p, 0, m, NF, v, k);
	for (unsigned int i = 0; i < NF; i++)
		assert_int_equal(v[i], XDP_PASS);
	expect_bytes_from("tests/bpf/in.pcap", m);
	free_all(m, NF);
	tp_prog_close(p);
}

/* bpf_csum_diff over IPv4 headers: scapy's are valid; one corrupted. */
static void
test_csum(void **state)
{
	static const uint8_t want[NF] = { XDP_PASS, XDP_PASS, XDP_PASS, XDP_PASS,
					  XDP_TX, XDP_TX, XDP_TX, XDP_TX };
	struct tp_prog *p = open_ok(obj("t_misc.o"), "xdp_csum");
	struct rte_mbuf *m[NF], *bad;
	uint8_t v[NF], copy[64];
	uint32_t k[NF];

	(void)state;
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_verdicts(v, want, NF);
	free_all(m, NF);
	memcpy(copy, in_f[0], in_l[0]);
	copy[14 + 10] ^= 0x01; /* IPv4 header checksum, low bit */
	bad = tp_test_mbuf_from_bytes(mp, copy, in_l[0]);
	run(p, 0, &bad, 1, v, k);
	assert_int_equal(v[0], XDP_DROP);
	rte_pktmbuf_free(bad);
	tp_prog_close(p);
}

/* An object whose BTF crashes libbpf (fuzz_bpf's seed libbpf_btf_crash,
 * after its burst) is refused with a clear error; the application lives. */
static void
test_libbpf_crash_refused(void **state)
{
	const char *seed = tp_test_src_path("tests/fuzz/corpus/bpf/libbpf_btf_crash");
	char path[64];
	uint8_t *buf;
	long n;
	FILE *f;

	(void)state;
	f = fopen(seed, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 2);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	snprintf(path, sizeof(path), "/tmp/tp_bpf_crash_%d.o", (int)getpid());
	f = fopen(path, "wb");
	assert_non_null(f);
	/* the fuzz input: a 2-byte burst length, the burst, then the ELF */
	assert_true(2 + (buf[0] << 8 | buf[1]) < n);
	fwrite(buf + 2 + (buf[0] << 8 | buf[1]), 1, (size_t)(n - 2 - (buf[0] << 8 | buf[1])), f);
	fclose(f);
	free(buf);
	open_fails(path, NULL, "libbpf crashed reading its BTF");
	unlink(path);
}

/* bpf_trace_printk to the tagpipe.bpf log at INFO: the exact line for a
 * frame of 192.0.2.2 of 154 bytes, and a bad format refused (the program
 * checks both return values and passes). */
static void
test_trace_printk(void **state)
{
	struct tp_prog *p = open_ok(obj("t_misc.o"), "xdp_printk");
	struct rte_mbuf *m;
	struct pl_spec s;
	char *logbuf = NULL;
	size_t loglen = 0;
	FILE *logf = open_memstream(&logbuf, &loglen), *old = rte_log_get_stream();
	uint8_t v;
	uint32_t k;

	(void)state;
	assert_non_null(logf);
	pl_default_spec(&s);                   /* 192.0.2.2, 100-byte payload */
	m = pl_mbuf(mp, &s);
	assert_int_equal(rte_pktmbuf_pkt_len(m), 154);
	rte_openlog_stream(logf);
	assert_int_equal(rte_log_set_level_pattern("tagpipe.bpf", RTE_LOG_INFO), 0);
	run(p, 0, &m, 1, &v, &k);
	assert_int_equal(rte_log_set_level_pattern("tagpipe.bpf", RTE_LOG_NOTICE), 0);
	rte_openlog_stream(old);
	fclose(logf);
	assert_int_equal(v, XDP_PASS);
	assert_non_null(strstr(logbuf, "bpf_trace_printk: src 192.0.2.2 len 154 tp\n"));
	free(logbuf);
	rte_pktmbuf_free(m);
	tp_prog_close(p);
}

/* tp_prog_bpf_exec_info / _exec_line of path:sel opened now, and the INFO
 * line the open logged: all three must say want_* exactly. */
static void
expect_exec(const char *path, const char *sel, const char *by, const char *checks,
	    const char *reason)
{
	bool compiled = strcmp(mode, "bpf:") == 0;
	char *logbuf = NULL, spec[600], err[256], line[1200], want[1200];
	size_t loglen = 0;
	FILE *logf = open_memstream(&logbuf, &loglen), *old = rte_log_get_stream();
	struct tp_bpf_exec_info in;
	struct tp_prog *p = NULL;
	const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	assert_non_null(logf);
	snprintf(spec, sizeof(spec), "%s%s:%s", mode, path, sel);
	rte_openlog_stream(logf);
	assert_int_equal(rte_log_set_level_pattern("tagpipe.bpf", RTE_LOG_INFO), 0);
	if (tp_prog_open(spec, &p, err, sizeof(err)) != 0)
		fail_msg("open %s: %s", spec, err);
	assert_int_equal(rte_log_set_level_pattern("tagpipe.bpf", RTE_LOG_NOTICE), 0);
	rte_openlog_stream(old);
	fclose(logf);
	assert_int_equal(tp_prog_bpf_exec_info(p, &in), 0);
	assert_string_equal(in.path, path);
	assert_string_equal(in.section, "xdp");
	assert_string_equal(in.verified_by, by);
	assert_string_equal(in.execution, compiled ? "jit" : "interpreter");
	assert_string_equal(in.checks, checks);
	assert_string_equal(in.reason, reason);
	assert_false(in.frags);
	snprintf(want, sizeof(want), "%s (section xdp, function %s): verified by %s, "
		 "execution %s, memory checks %s: %s", path, in.function, by,
		 compiled ? "jit" : "interpreter", checks, reason);
	assert_int_equal(tp_prog_bpf_exec_line(p, line, sizeof(line)), (int)strlen(want));
	assert_string_equal(line, want);
	snprintf(line, sizeof(line), "tagpipe: XDP object %s\n", want);
	if (strstr(logbuf, line) == NULL)
		fail_msg("%s: log '%s' lacks '%s'", file, logbuf, line);
	free(logbuf);
	tp_prog_close(p);
}

/* What proved an object safe and how it runs, in the words every report
 * uses: tagpipe's checks alone, a loop nobody proved finite, the kernel
 * (where this process may ask it), a fall back to the interpreter. */
static void
test_exec_info(void **state)
{
	bool compiled = strcmp(mode, "bpf:") == 0;
	const char *run = compiled ? "every memory access is checked at run time" :
			  "bpf-interp: the interpreter checks every memory access";
	struct tp_bpf_exec_info in;
	struct tp_prog *p;
	char reason[600], what[600];
	unsigned int pc;

	(void)state;
	assert_int_equal(tp_prog_bpf_exec_info(NULL, &in), -EINVAL);
	assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_OFF), 0);
	snprintf(reason, sizeof(reason), "kernel verifier not asked; %s", run);
	expect_exec(obj("t_parse.o"), "xdp_parse", "tagpipe", "checked", reason);
	/* a loop, unverified: nobody proved it ends */
	p = open_ok(obj("t_loop.o"), "xdp_xor");
	assert_int_equal(tp_prog_bpf_exec_info(p, &in), 0);
	tp_prog_close(p);
	assert_int_equal(sscanf(in.reason, "kernel verifier not asked; a loop (pc %u)", &pc), 1);
	snprintf(reason, sizeof(reason), "kernel verifier not asked; a loop (pc %u) nobody "
		 "proved finite runs under a budget of 1000000 backward jumps; %s", pc, run);
	expect_exec(obj("t_loop.o"), "xdp_xor", "nobody", "checked", reason);
	assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_AUTO), 0);

	p = open_ok(obj("t_parse.o"), NULL);
	tp_prog_bpf_describe(p, what, sizeof(what));
	tp_prog_close(p);
	if (strstr(what, "verified by the kernel") != NULL) {
		snprintf(reason, sizeof(reason), "the kernel's verifier accepted it; %s",
			 compiled ? "jit code runs its memory accesses unchecked, as "
			 "the kernel's JIT does" : "bpf-interp: the interpreter checks every "
			 "memory access");
		expect_exec(obj("t_parse.o"), "xdp_parse", "kernel",
			    compiled ? "proven" : "checked", reason);
		expect_exec(obj("t_loop.o"), "xdp_xor", "kernel",
			    compiled ? "proven" : "checked", reason);
	} else {
		print_message("kernel verifier unavailable here: %s\n", what);
	}
	if (compiled) {
		/* No compiler anywhere: still the JIT, and nothing said at
		 * WARNING (there is no fall back to the interpreter on x86-64). */
		char *logbuf = NULL;
		size_t loglen = 0;
		FILE *logf = open_memstream(&logbuf, &loglen), *old = rte_log_get_stream();
		const char *cc = getenv("CC");
		char *saved = cc ? strdup(cc) : NULL, spec[600], err[256];

		assert_non_null(logf);
		assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_OFF), 0);
		setenv("CC", "/nonexistent/cc", 1);
		rte_openlog_stream(logf);
		snprintf(spec, sizeof(spec), "bpf:%s", obj("t_parse.o"));
		p = NULL;
		assert_int_equal(tp_prog_open(spec, &p, err, sizeof(err)), 0);
		rte_openlog_stream(old);
		fclose(logf);
		if (saved != NULL)
			setenv("CC", saved, 1);
		else
			unsetenv("CC");
		free(saved);
		assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_AUTO), 0);
		assert_int_equal(tp_prog_bpf_exec_info(p, &in), 0);
		assert_string_equal(in.execution, "jit");
		assert_string_equal(in.checks, "checked");
		assert_string_equal(in.reason, "kernel verifier not asked; every memory access "
				    "is checked at run time");
		if (strstr(logbuf, "the interpreter runs it") != NULL)
			fail_msg("log '%s' reports a fall back to the interpreter", logbuf);
		free(logbuf);
		tp_prog_close(p);
	}
	/* an xdp.frags program says so */
	p = open_ok(obj("t_misc.o"), "xdp.frags");
	assert_int_equal(tp_prog_bpf_exec_info(p, &in), 0);
	assert_true(in.frags);
	tp_prog_close(p);
}

/* Where a program runs with GRO on: a plain "xdp" program on each wire
 * frame, before GRO, as the kernel runs XDP in the driver; an "xdp.frags"
 * program after GRO on the merged packet. Four segments of one flow, every
 * verdict DROP (bench_drop always; prog_frags because the merged packet is
 * not 100 bytes): 4 verdicts against 1, and GRO holds nothing either way. */
static void
test_hook_by_section(void **state)
{
	static const struct { const char *file, *sel; uint64_t verdicts; } c[] = {
		{ "t_bench.o", "xdp", 4 },
		{ "t_misc.o", "xdp.frags", 1 },
	};
	unsigned int start = tp_test_pool_in_use(mp);

	(void)state;
	for (unsigned int i = 0; i < RTE_DIM(c); i++) {
		struct tp_pipeline_conf pc;
		struct tp_pipeline_stats st;
		struct tp_pipeline *pl = NULL;
		struct rte_mbuf *pkts[4];
		struct pl_spec s;
		char err[256] = "";

		tp_pipeline_conf_init(&pc);
		pc.port[0].enabled = true;
		pc.gro.mode = TP_GRO_BURST;
		pc.prog = open_ok(obj(c[i].file), c[i].sel);
		assert_int_equal(tp_pipeline_create(&pc, &pl, err, sizeof(err)), 0);
		pl_default_spec(&s);
		for (unsigned int k = 0; k < 4; k++) {
			s.seq = 1000 + 100 * k;
			s.ip_id = (uint16_t)(100 + k);
			pkts[k] = pl_mbuf(mp, &s);
		}
		assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, 4), 0);
		tp_pipeline_stats_get(pl, &st);
		assert_int_equal(st.rx, 4);
		assert_int_equal(st.drop, 4);
		assert_int_equal(st.verdict_pkts[TP_DROP], c[i].verdicts);
		assert_int_equal(st.held_in_gro, 0);
		tp_pipeline_destroy(pl);
		tp_prog_close(pc.prog);
	}
	assert_int_equal(tp_test_pool_in_use(mp), start);
}

/* xdp.frags: get_buff_len, load_bytes and store_bytes across segments. */
static void
test_frags(void **state)
{
	struct tp_prog *p = open_ok(obj("t_misc.o"), "xdp.frags");
	struct rte_mbuf *m[3];
	uint8_t v[3], want[100];
	uint32_t k[3];

	(void)state;
	assert_int_equal(in_l[2], 100);
	memcpy(want, in_f[2], 100);
	memcpy(want + 38, "ABCD", 4);
	m[0] = tp_test_mbuf_chain_from_bytes(mp, in_f[2], 100, 40); /* 40+40+20 */
	m[1] = tp_test_mbuf_from_bytes(mp, in_f[2], 100);
	m[2] = tp_test_mbuf_from_bytes(mp, in_f[0], in_l[0]);
	assert_int_equal(m[0]->nb_segs, 3);
	run(p, 0, m, 3, v, k);
	assert_int_equal(v[0], XDP_PASS);
	assert_int_equal(v[1], XDP_PASS);
	assert_int_equal(v[2], XDP_DROP);
	tp_test_assert_mbuf_bytes(m[0], want, 100);
	tp_test_assert_mbuf_bytes(m[1], want, 100);
	free_all(m, 3);
	tp_prog_close(p);
}

/* A legacy "maps" section (struct bpf_map_def). */
static void
test_legacy_maps(void **state)
{
	struct tp_prog *p = open_ok(obj("t_legacy.o"), NULL);
	struct tp_bpf_map_info info;
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF], total = 0;

	(void)state;
	assert_int_equal(tp_prog_bpf_map_info(p, map_idx(p, "counts"), &info), 0);
	assert_int_equal(info.type, BPF_MAP_TYPE_ARRAY);
	assert_int_equal(info.max_entries, 2);
	assert_int_equal(info.value_size, 8);
	load_frames(m);
	run(p, 0, m, NF, v, k);
	for (unsigned int i = 0; i < NF; i++) {
		assert_int_equal(v[i], XDP_PASS);
		total += in_l[i];
	}
	assert_int_equal(total, 54 + 54 + 100 + 52 + 42 + 10 + 62 + 46);
	assert_int_equal(u64_at(p, "counts", 0, 0), NF);
	assert_int_equal(u64_at(p, "counts", 1, 0), total);
	free_all(m, NF);
	tp_prog_close(p);
}

/* HASH counter per IPv4 source, PERCPU_ARRAY per queue. */
static void
test_hash_counter(void **state)
{
	static const uint8_t want[NF] = { XDP_PASS, XDP_PASS, XDP_PASS, XDP_PASS,
					  XDP_DROP, XDP_DROP, XDP_DROP, XDP_DROP };
	struct tp_prog *p = open_ok(obj("t_maps.o"), NULL);
	struct tp_bpf_map_info info;
	struct rte_mbuf *m[NF];
	uint8_t v[NF], buf[256];
	uint32_t k[NF], a1 = rte_cpu_to_be_32(0x0a000001), a2 = rte_cpu_to_be_32(0x0a000002);
	uint32_t a3 = rte_cpu_to_be_32(0x0a000003), q0 = 0;
	uint64_t init[2] = { 7, 7 };
	int flows;

	(void)state;
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_verdicts(v, want, NF);
	flows = map_idx(p, "flows");
	assert_int_equal(tp_prog_bpf_map_info(p, flows, &info), 0);
	assert_int_equal(info.type, BPF_MAP_TYPE_HASH);
	assert_int_equal(info.key_size, 4);
	assert_int_equal(info.value_size, 16);
	assert_int_equal(u64_at(p, "flows", a1, 0), 2);
	assert_int_equal(u64_at(p, "flows", a1, 8), 54 + 54);
	assert_int_equal(u64_at(p, "flows", a2, 0), 2);
	assert_int_equal(u64_at(p, "flows", a2, 8), 100 + 52);
	assert_int_equal(tp_prog_bpf_map_lookup(p, flows, &a3, buf), -ENOENT);
	/* runs: per-CPU, this lcore (index 0) saw all 8; others none */
	assert_int_equal(tp_prog_bpf_map_info(p, map_idx(p, "runs"), &info), 0);
	assert_true(info.ncpu >= 1);
	assert_int_equal(tp_prog_bpf_map_lookup(p, map_idx(p, "runs"), &q0, buf), 0);
	assert_int_equal(*(uint64_t *)buf, NF);
	for (uint32_t c = 1; c < info.ncpu; c++)
		assert_int_equal(*(uint64_t *)(buf + c * info.value_stride), 0);
	/* control plane: BPF_NOEXIST on a present key, delete, re-add */
	assert_int_equal(tp_prog_bpf_map_update(p, flows, &a1, init, BPF_NOEXIST), -EEXIST);
	assert_int_equal(tp_prog_bpf_map_update(p, flows, &a3, init, BPF_EXIST), -ENOENT);
	assert_int_equal(tp_prog_bpf_map_delete(p, flows, &a1), 0);
	assert_int_equal(tp_prog_bpf_map_delete(p, flows, &a1), -ENOENT);
	assert_int_equal(tp_prog_bpf_map_update(p, flows, &a1, init, BPF_NOEXIST), 0);
	free_all(m, NF);
	load_frames(m);
	run(p, 0, m, 1, v, k);
	assert_int_equal(u64_at(p, "flows", a1, 0), 8);
	assert_int_equal(u64_at(p, "flows", a1, 8), 7 + 54);
	free_all(m, NF);
	tp_prog_close(p);
}

/* LRU_HASH: a full map evicts the least recently used element. */
static void
test_lru(void **state)
{
	struct tp_prog *p = open_ok(obj("t_maps.o"), "xdp_lru");
	struct tp_bpf_map_info info;
	struct rte_mbuf *m[NF], *b[4];
	uint8_t v[4], buf[64];
	uint32_t k[4];
	uint32_t a1 = rte_cpu_to_be_32(0x0a000001), a2 = rte_cpu_to_be_32(0x0a000002);
	uint32_t a3 = rte_cpu_to_be_32(0x0a000003);
	uint64_t ten = 10;
	uint8_t f3[64];
	int lru;

	(void)state;
	lru = map_idx(p, "recent");
	assert_int_equal(tp_prog_bpf_map_info(p, lru, &info), 0);
	assert_int_equal(info.type, BPF_MAP_TYPE_LRU_HASH);
	load_frames(m);
	/* sources .1 (miss), .2 (miss: full now), .2 (hit), .3 (miss: the
	 * least recently used, .1, goes) */
	memcpy(f3, in_f[0], in_l[0]);
	f3[14 + 15] = 3; /* frame 0 from 10.0.0.3 */
	b[0] = m[0]; b[1] = m[2]; b[2] = m[3];
	b[3] = tp_test_mbuf_from_bytes(mp, f3, in_l[0]);
	run(p, 0, b, 4, v, k);
	expect_verdicts(v, (const uint8_t[4]){ XDP_DROP, XDP_DROP, XDP_PASS, XDP_DROP }, 4);
	assert_int_equal(tp_prog_bpf_map_lookup(p, lru, &a1, buf), -ENOENT);
	assert_int_equal(u64_at(p, "recent", a2, 0), 2);
	assert_int_equal(u64_at(p, "recent", a3, 0), 1);
	/* control plane: an insert into the full map evicts too (.2 was
	 * looked up more recently than .3 was inserted) */
	run(p, 0, &b[2], 1, v, k); /* .2 hit: 3 */
	assert_int_equal(tp_prog_bpf_map_update(p, lru, &a1, &ten, BPF_NOEXIST), 0);
	assert_int_equal(tp_prog_bpf_map_lookup(p, lru, &a3, buf), -ENOENT);
	assert_int_equal(u64_at(p, "recent", a2, 0), 3);
	assert_int_equal(u64_at(p, "recent", a1, 0), 10);
	assert_int_equal(tp_prog_bpf_map_update(p, lru, &a3, &ten, BPF_EXIST), -ENOENT);
	{
		const char *d = dump_of(p, "recent", 2);

		assert_non_null(strstr(d, "0a000002=0300000000000000\n"));
		assert_non_null(strstr(d, "0a000001=0a00000000000000\n"));
	}
	free_all(m, NF);
	rte_pktmbuf_free(b[3]);
	tp_prog_close(p);
}

/* LPM_TRIE: the longest matching prefix wins. */
/* Keys and values as the object's BTF types (t_maps.o): a struct value,
 * a per-CPU integer, a struct key, typed delete; hex still taken; what
 * fits neither refused by name; the typed dump. */
/* t_misc.o's ifcfg (struct if_key -> struct if_cfg): a string, nested
 * structs, bitfields, __be16 elements and an array of structs, in the flat
 * top-level form and in the form the dump prints, which reads back as
 * the same element. */
static void
btf_text_nested(struct tp_prog *p)
{
	static const char want[] =
		"{name: \"eth0\", vid: 7, pad: 0} = {lim: {rate: 1000, burst: 64}, enabled: 1, "
		"prio: 5, offset: -3, ports: [80, 443], queue: [{rate: 1, burst: 2}, "
		"{rate: 3, burst: 4}]}\n";
	static const char *const bad[] = {
		"ifcfg:\"eth0\",7,0={1000, 64},1,8,0,[0, 0],[{0, 0}, {0, 0}]", /* prio: 3 bits */
		"ifcfg:\"eth0\",7,0={1000, 64},1,0,-2049,[0, 0],[{0, 0}, {0, 0}]", /* 12 bits */
		"ifcfg:\"eth0\",7,0={1000, 64},1,0,0,[0, 0],[{0, 0}]",       /* 1 of 2 */
		"ifcfg:\"eth0\",7,0={rate: 1, bust: 2},1,0,0,[0, 0],[{0, 0}, {0, 0}]",
		"ifcfg:\"0123456789abcdefg\",7,0={1, 2},1,0,0,[0, 0],[{0, 0}, {0, 0}]",
		"ifcfg:\"eth0\",7={1, 2},1,0,0,[0, 0],[{0, 0}, {0, 0}]",     /* key short */
		"ifcfg:\"eth0,7,0={1, 2},1,0,0,[0, 0],[{0, 0}, {0, 0}]",      /* unclosed */
	};
	struct if_key { char name[16]; uint16_t vid, pad; } k = { "eth0", 7, 0 };
	uint8_t v[32], w[32] = { 0 };
	char err[256], spec[512];
	const char *d;

	assert_int_equal(tp_prog_bpf_map_update_text(p, "ifcfg:\"eth0\",7,0={rate: 1000, "
						     "burst: 64},1,5,-3,[80, 443],[{1, 2}, "
						     "{3, 4}]", err, sizeof(err)), 0);
	assert_int_equal(tp_prog_bpf_map_lookup(p, map_idx(p, "ifcfg"), &k, v), 0);
	/* built by hand: lim, then the bitfields in bytes 8-9 (bit 0
	 * enabled, bits 1-3 prio, bits 4-15 offset), the two __be16 right
	 * after them (a 2-byte member needs no more alignment), then queue */
	w[0] = 0xe8, w[1] = 0x03, w[4] = 64;
	w[8] = (uint8_t)(1 | 5 << 1 | (0xffd & 0xf) << 4);
	w[9] = (uint8_t)((-3 & 0xfff) >> 4);
	w[10] = 0, w[11] = 80, w[12] = 0x01, w[13] = 0xbb;
	w[16] = 1, w[20] = 2, w[24] = 3, w[28] = 4;
	assert_memory_equal(v, w, sizeof(w));
	d = dump_of_btf(p, "ifcfg", 1);
	assert_string_equal(d, want);
	/* what the dump printed, typed back: the same element, unchanged */
	snprintf(spec, sizeof(spec), "ifcfg:%.*s=%.*s", (int)(strstr(want, " = ") - want), want,
		 (int)(strlen(want) - 1 - (size_t)(strstr(want, " = ") + 3 - want)),
		 strstr(want, " = ") + 3);
	memset(v, 0, sizeof(v));
	assert_int_equal(tp_prog_bpf_map_update_text(p, spec, err, sizeof(err)), 0);
	assert_int_equal(tp_prog_bpf_map_lookup(p, map_idx(p, "ifcfg"), &k, v), 0);
	assert_memory_equal(v, w, sizeof(w));
	assert_string_equal(dump_of_btf(p, "ifcfg", 1), want);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (tp_prog_bpf_map_update_text(p, bad[i], err, sizeof(err)) != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
	assert_int_equal(tp_prog_bpf_map_delete_text(p, "ifcfg:\"eth0\",7,0", err, sizeof(err)),
			 0);
}

static void
test_btf_text(void **state)
{
	struct tp_prog *p = open_ok(obj("t_maps.o"), "xdp_lpm");
	struct { uint64_t packets, bytes; } fv;
	struct { uint32_t plen, addr; } r24 = { 24, rte_cpu_to_be_32(0xc0a80100) };
	uint32_t key = 7, got;
	uint64_t runs[RTE_MAX_LCORE];
	char err[256];
	const char *d;

	(void)state;
	assert_int_equal(tp_prog_bpf_map_update_text(p, "flows:7=3,180", err, sizeof(err)), 0);
	assert_int_equal(tp_prog_bpf_map_lookup(p, map_idx(p, "flows"), &key, &fv), 0);
	assert_int_equal(fv.packets, 3);
	assert_int_equal(fv.bytes, 180);
	d = dump_of_btf(p, "flows", 1);
	assert_string_equal(d, "7 = {packets: 3, bytes: 180}\n");
	/* exactly the size in hex: read as hex */
	assert_int_equal(tp_prog_bpf_map_update_text(p, "flows:08000000=0100000000000000"
						     "0200000000000000", err, sizeof(err)), 0);
	d = dump_of(p, "flows", 2); /* in slot order */
	assert_non_null(strstr(d, "07000000=0300000000000000b400000000000000\n"));
	assert_non_null(strstr(d, "08000000=01000000000000000200000000000000\n"));
	assert_int_equal(tp_prog_bpf_map_delete_text(p, "flows:8", err, sizeof(err)), 0);
	assert_int_equal(tp_prog_bpf_map_update_text(p, "flows:7=3", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "value '3' is not 16 hex bytes nor a value of its BTF type"));
	assert_int_equal(tp_prog_bpf_map_update_text(p, "flows:-1=1,1", err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "key '-1' is not 4 hex bytes nor a value of its BTF type"));
	assert_int_equal(tp_prog_bpf_map_update_text(p, "flows:7=1,2,3", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(tp_prog_bpf_map_update_text(p, "flows:4294967296=1,2", err,
						     sizeof(err)), -EINVAL);
	/* per-CPU: every lcore's copy */
	assert_int_equal(tp_prog_bpf_map_update_text(p, "runs:1=0x10", err, sizeof(err)), 0);
	key = 1;
	assert_int_equal(tp_prog_bpf_map_lookup(p, map_idx(p, "runs"), &key, runs), 0);
	assert_int_equal(runs[0], 16);
	assert_non_null(strstr(dump_of_btf(p, "runs", 1), "1 = 16"));
	/* a struct key, members in order: the same element as its bytes */
	assert_int_equal(tp_prog_bpf_map_update_text(p, "routes:24,0x0001a8c0=3", err,
						     sizeof(err)), 0);
	assert_int_equal(tp_prog_bpf_map_lookup(p, map_idx(p, "routes"), &r24, &got), 0);
	assert_int_equal(got, 3);
	assert_string_equal(dump_of_btf(p, "routes", 1),
			    "{prefixlen: 24, addr: 108736} = 3\n");
	tp_prog_close(p);
	p = open_ok(obj("t_misc.o"), "xdp");
	btf_text_nested(p);
	tp_prog_close(p);

	/* a __be32 key: a dotted address, stored in network order */
	p = open_ok(obj("t_fib.o"), "xdp_fib");
	assert_int_equal(tp_prog_bpf_map_update_text(p, "hosts:192.168.1.1=5", err, sizeof(err)),
			 0);
	key = rte_cpu_to_be_32(0xc0a80101);
	assert_int_equal(tp_prog_bpf_map_lookup(p, map_idx(p, "hosts"), &key, &got), 0);
	assert_int_equal(got, 5);
	assert_string_equal(dump_of_btf(p, "hosts", 1), "192.168.1.1 = 5\n");
	assert_string_equal(dump_of(p, "hosts", 1), "c0a80101=05000000\n");
	assert_int_equal(tp_prog_bpf_map_update_text(p, "hosts:192.168.1=5", err, sizeof(err)),
			 -EINVAL);
	tp_prog_close(p);
}

static void
test_lpm(void **state)
{
	struct tp_prog *p = open_ok(obj("t_maps.o"), "xdp_lpm");
	struct { uint32_t plen, addr; } r16 = { 16, rte_cpu_to_be_32(0xc0a80000) },
		r24 = { 24, rte_cpu_to_be_32(0xc0a80100) },
		r32 = { 32, rte_cpu_to_be_32(0xc0a80107) },
		r23 = { 23, rte_cpu_to_be_32(0xc0a80000) },
		r33 = { 33, 0 };
	uint32_t drop = XDP_DROP, tx = XDP_TX, ab = XDP_ABORTED;
	struct rte_mbuf *m[NF], *far;
	uint8_t v[NF], f[64];
	uint32_t k[NF];
	int rt;

	(void)state;
	rt = map_idx(p, "routes");
	assert_int_equal(tp_prog_bpf_map_update(p, rt, &r16, &drop, 0), 0);
	assert_int_equal(tp_prog_bpf_map_update(p, rt, &r24, &tx, 0), 0);
	assert_int_equal(tp_prog_bpf_map_update(p, rt, &r32, &ab, 0), 0);
	assert_int_equal(tp_prog_bpf_map_update(p, rt, &r33, &ab, 0), -EINVAL);
	load_frames(m);
	run(p, 0, m, NF, v, k);
	/* 192.168.1.1, .1.1, .1.2 -> /24; .1.7 -> /32; the rest not IPv4 */
	expect_verdicts(v, (const uint8_t[NF]){ XDP_TX, XDP_TX, XDP_TX, XDP_ABORTED,
						XDP_PASS, XDP_PASS, XDP_PASS, XDP_PASS }, NF);
	assert_int_equal(tp_prog_bpf_map_delete(p, rt, &r23), -ENOENT);
	assert_int_equal(tp_prog_bpf_map_delete(p, rt, &r24), 0);
	memcpy(f, in_f[0], in_l[0]);
	f[14 + 16] = 10; /* destination 10.168.1.1: no prefix */
	far = tp_test_mbuf_from_bytes(mp, f, in_l[0]);
	run(p, 0, m, 4, v, k);
	expect_verdicts(v, (const uint8_t[4]){ XDP_DROP, XDP_DROP, XDP_DROP, XDP_ABORTED }, 4);
	run(p, 0, &far, 1, v, k);
	assert_int_equal(v[0], XDP_PASS);
	rte_pktmbuf_free(far);
	free_all(m, NF);
	tp_prog_close(p);
}

/* bpf_redirect_map to a DEVMAP, bpf_redirect(ingress_ifindex), selection
 * by section and by function name. */
static void
test_redirect(void **state)
{
	static const uint8_t want[NF] = { XDP_REDIRECT, XDP_REDIRECT, XDP_DROP, XDP_DROP,
					  XDP_PASS, XDP_PASS, XDP_PASS, XDP_PASS };
	struct tp_prog *p = open_ok(obj("t_maps.o"), "xdp_redirect");
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF], key = 1, ifindex = 3, bad = 8;

	(void)state;
	assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "ports"), &key, &ifindex, 0), 0);
	assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "ports"), &bad, &ifindex, 0),
			 -E2BIG);
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_verdicts(v, want, NF);
	assert_int_equal(k[0], 2);
	assert_int_equal(k[1], 2);
	tp_prog_close(p);

	p = open_ok(obj("t_maps.o"), "xdp_ingress");
	run(p, 4, m, NF, v, k);
	for (unsigned int i = 0; i < NF; i++) {
		assert_int_equal(v[i], XDP_REDIRECT);
		assert_int_equal(k[i], 4); /* ifindex 5 = port 4 + 1 -> key 4 */
	}
	free_all(m, NF);
	tp_prog_close(p);
}

/* A pipeline on ports 0..3 (redirect key p -> port p, egress captured,
 * GRO off) running program p. */
static struct tp_pipeline *
bcast_pipeline(struct tp_prog *p, struct tp_redirect_map *rm, struct pl_cap *cap)
{
	struct tp_pipeline_conf pc;
	struct tp_pipeline *pl = NULL;
	char err[256] = "";

	tp_pipeline_conf_init(&pc);
	for (unsigned int port = 0; port < 4; port++) {
		pc.port[port].enabled = true;
		assert_int_equal(tp_redirect_map_set_port(rm, port, (uint16_t)port, 0, -1), 0);
	}
	pc.gro.mode = TP_GRO_OFF;
	pc.prog = p;
	pc.redirect = rm;
	pc.egress_cb = pl_cap_egress;
	pc.egress_arg = cap;
	if (tp_pipeline_create(&pc, &pl, err, sizeof(err)) != 0)
		fail_msg("pipeline: %s", err);
	return pl;
}

/* Frames 0..3 of in.pcap from port 1 through pipeline pl. */
static void
bcast_run(struct tp_pipeline *pl)
{
	struct rte_mbuf *m[8];

	for (unsigned int i = 0; i < 4; i++)
		m[i] = tp_test_mbuf_from_bytes(mp, in_f[i], in_l[i]);
	assert_int_equal(tp_pipeline_rx_burst(pl, 1, 0, m, 4), 0);
	pl_assert_conservation(pl);
}

/* cap holds, on each port of mask, frames 0..3 in order; no other port. */
static void
bcast_expect(const struct pl_cap *cap, unsigned int mask)
{
	unsigned int per[4] = { 0 };

	for (unsigned int i = 0; i < cap->n; i++) {
		uint16_t port = cap->port[i];

		if (port >= 4 || !(mask & 1u << port))
			fail_msg("a copy on port %u", port);
		assert_int_equal(cap->verdict[i], TP_REDIRECT);
		tp_test_assert_mbuf_bytes(cap->m[i], in_f[per[port]], in_l[per[port]]);
		per[port]++;
	}
	for (unsigned int port = 0; port < 4; port++)
		assert_int_equal(per[port], mask & 1u << port ? 4 : 0);
}

/* bpf_redirect_map with BPF_F_BROADCAST: the targets (the ingress port
 * left out with BPF_F_EXCLUDE_INGRESS), then through the pipeline: a copy
 * to each port, the packet itself to the last, exact bytes and counters;
 * a DEVMAP_HASH of struct bpf_devmap_val with the ingress port kept and an
 * entry the redirect map has no target for. */
static void
test_broadcast(void **state)
{
	struct tp_prog *p = open_ok(obj("t_bcast.o"), "xdp_bcast");
	struct tp_redirect_map *rm = tp_redirect_map_create(4);
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct pl_cap *cap = calloc(1, sizeof(*cap));
	struct rte_mbuf *m[NF];
	uint32_t k[NF], keys[8], pos = 0;
	uint8_t v[NF];

	(void)state;
	assert_non_null(rm);
	assert_non_null(cap);
	for (uint32_t key = 0; key < 4; key++) {
		uint32_t ifindex = key + 1;

		assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "ports"), &key, &ifindex,
							0), 0);
	}
	load_frames(m);
	run(p, 1, m, NF, v, k);
	for (unsigned int i = 0; i < NF; i++) {
		assert_int_equal(v[i], XDP_REDIRECT);
		assert_true(k[i] & TP_REDIRECT_KEY_MULTI);
	}
	assert_int_equal(tp_prog_redirect_targets(p, k[0], 1, &pos, keys, 8), 3);
	assert_int_equal(keys[0], 0);
	assert_int_equal(keys[1], 2);
	assert_int_equal(keys[2], 3);
	assert_int_equal(tp_prog_redirect_targets(p, k[0], 1, &pos, keys, 8), 0);
	pos = 0; /* in batches, as the pipeline asks */
	assert_int_equal(tp_prog_redirect_targets(p, k[0], 1, &pos, keys, 2), 2);
	assert_int_equal(tp_prog_redirect_targets(p, k[0], 1, &pos, keys, 2), 1);
	assert_int_equal(keys[0], 3);
	free_all(m, NF);

	pl = bcast_pipeline(p, rm, cap);
	bcast_run(pl);
	bcast_expect(cap, 1u << 0 | 1u << 2 | 1u << 3);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.rx, 4);
	assert_int_equal(st.verdict_pkts[TP_REDIRECT], 4);
	assert_int_equal(st.copies, 8);
	assert_int_equal(st.redirect, 12);
	assert_int_equal(st.drop, 0);
	pl_cap_free(cap);
	/* an entry whose target the redirect map lacks: those copies are
	 * dropped as having no target */
	{
		uint32_t key = 4, ifindex = 9;

		assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "ports"), &key, &ifindex,
							0), 0);
	}
	tp_pipeline_stats_reset(pl);
	bcast_run(pl);
	bcast_expect(cap, 1u << 0 | 1u << 2 | 1u << 3);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.copies, 12);
	assert_int_equal(st.redirect, 12);
	assert_int_equal(st.drop_reason[TP_DROP_NO_TARGET], 4);
	pl_cap_free(cap);
	tp_pipeline_destroy(pl);
	tp_prog_close(p);

	/* DEVMAP_HASH (bpf_devmap_val values), the ingress port kept */
	p = open_ok(obj("t_bcast.o"), "xdp_bcast_all");
	{
		uint32_t key = 10, val[2] = { 2, 0 };

		assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "ports_hash"), &key, val, 0),
				 0);
		key = 20;
		val[0] = 1;
		assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "ports_hash"), &key, val, 0),
				 0);
	}
	pl = bcast_pipeline(p, rm, cap);
	bcast_run(pl);
	bcast_expect(cap, 1u << 0 | 1u << 1);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.copies, 4);
	assert_int_equal(st.redirect, 8);
	pl_cap_free(cap);
	tp_pipeline_destroy(pl);
	tp_prog_close(p);
	tp_redirect_map_free(rm);
	free(cap);
	assert_int_equal(tp_test_pool_in_use(mp), start);
}

/* CPUMAP: the key is the CPU, an entry is set when its qsize is not 0, and
 * the target is redirect key TP_BPF_CPUMAP_KEY_BASE + CPU (here a worker
 * ring); broadcast on a CPUMAP is ABORTED; a miss forgets the target. */
static void
test_cpumap(void **state)
{
	struct tp_prog *p = open_ok(obj("t_bcast.o"), "xdp_cpu");
	const uint32_t cpu2 = TP_BPF_CPUMAP_KEY_BASE + 2, cpu0 = TP_BPF_CPUMAP_KEY_BASE;
	/* sources .1 (CPU 1, no entry: PASS), .2 (CPU 2), the rest CPU 0 */
	static const uint8_t want[NF] = { XDP_PASS, XDP_PASS, XDP_REDIRECT, XDP_REDIRECT,
					  XDP_REDIRECT, XDP_REDIRECT, XDP_REDIRECT,
					  XDP_REDIRECT };
	struct tp_redirect_map *rm = tp_redirect_map_create(TP_BPF_CPUMAP_KEY_BASE + 4);
	struct rte_ring *ring = rte_ring_create("bpf_cpu2", 16, SOCKET_ID_ANY, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_pipeline_conf pc;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl = NULL;
	struct rte_mbuf *m[NF];
	uint32_t k[NF], cpu, val[2] = { 64, 0 };
	uint8_t v[NF];
	void *got[16];
	char err[256];

	(void)state;
	assert_non_null(rm);
	assert_non_null(ring);
	cpu = 0;
	assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "cpus"), &cpu, val, 0), 0);
	cpu = 2;
	assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "cpus"), &cpu, val, 0), 0);
	cpu = 1;
	val[0] = 16385; /* above the kernel's sanity limit */
	assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "cpus"), &cpu, val, 0),
			 -EOVERFLOW);
	val[0] = 0;     /* qsize 0: no entry */
	assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "cpus"), &cpu, val, 0), 0);
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_verdicts(v, want, NF);
	assert_int_equal(k[2], cpu2);
	assert_int_equal(k[3], cpu2);
	for (unsigned int i = 4; i < NF; i++)
		assert_int_equal(k[i], cpu0);
	free_all(m, NF);

	/* through a pipeline: CPU 2's frames on its worker ring, CPU 0 has
	 * no target in the redirect map */
	assert_int_equal(tp_redirect_map_set_ring(rm, cpu2, ring), 0);
	tp_pipeline_conf_init(&pc);
	pc.port[0].enabled = true;
	pc.port[0].vlan = TP_VLAN_POLICY_KEEP;
	pc.gro.mode = TP_GRO_OFF;
	pc.prog = p;
	pc.redirect = rm;
	pc.pass_cb = pl_cap_pass;
	{
		struct pl_cap *cap = calloc(1, sizeof(*cap));

		assert_non_null(cap);
		pc.pass_arg = cap;
		assert_int_equal(tp_pipeline_create(&pc, &pl, err, sizeof(err)), 0);
		load_frames(m);
		assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, NF), 0);
		pl_assert_conservation(pl);
		assert_int_equal(cap->n, 2);
		pl_cap_free(cap);
		free(cap);
	}
	assert_int_equal(rte_ring_dequeue_burst(ring, got, 16, NULL), 2);
	tp_test_assert_mbuf_bytes(got[0], in_f[2], in_l[2]);
	tp_test_assert_mbuf_bytes(got[1], in_f[3], in_l[3]);
	rte_pktmbuf_free(got[0]);
	rte_pktmbuf_free(got[1]);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.redirect, 2);
	assert_int_equal(st.drop_reason[TP_DROP_NO_TARGET], 4);
	tp_pipeline_destroy(pl);
	tp_prog_close(p);
	tp_redirect_map_free(rm);
	rte_ring_free(ring);

	p = open_ok(obj("t_bcast.o"), "xdp_cpu_bcast");
	load_frames(m);
	run(p, 0, m, 1, v, k);
	assert_int_equal(v[0], XDP_ABORTED);
	tp_prog_close(p);
	p = open_ok(obj("t_bcast.o"), "xdp_stale");
	run(p, 0, m, 1, v, k);
	assert_int_equal(v[0], XDP_REDIRECT);
	assert_int_equal(k[0], UINT32_MAX);
	free_all(m, NF);
	tp_prog_close(p);
	assert_int_equal(tp_test_pool_in_use(mp), start);
}

/* The routes fib_out.pcap was built for (gen_bpf_frames.py). */
static const char *const fib_routes[] = {
	"192.168.1.0/24 via 10.1.0.1 dev 2 lladdr 02:00:00:00:00:99 smac 02:00:00:00:00:aa "
	"metric 7",
	"192.168.1.2/32,dev,3,lladdr,02:00:00:00:00:98,mtu,80",
	"blackhole 192.168.1.7",
	"2001:db8::/64 dev 1 lladdr 02:00:00:00:00:66 smac 02:00:00:00:00:bb",
};

/* bpf_fib_lookup: a router on the routes above, exact bytes, verdicts,
 * egress ports and return codes; the helper's argument checks; routes
 * the API refuses, by name. */
static void
test_fib_lookup(void **state)
{
	static const uint8_t want[NF] = { XDP_REDIRECT, XDP_REDIRECT, XDP_PASS, XDP_DROP,
					  XDP_PASS, XDP_PASS, XDP_REDIRECT, XDP_PASS };
	static const struct {
		const char *spec, *why;
	} bad[] = {
		{ "10.0.0.0/33 dev 1", "bad prefix '10.0.0.0/33'" },
		{ "10.0.0.0/8", "no 'dev PORT'" },
		{ "10.0.0.0/8 dev 32", "bad dev '32'" },
		{ "10.0.0.0/8 dev 1 colour red", "unknown word 'colour'" },
		{ "10.0.0.0/8 dev 1 lladdr 02:00:00:00:00", "bad lladdr" },
		{ "10.0.0.0/8 dev 1 via 2001:db8::1", "bad via '2001:db8::1'" },
		{ "blackhole 10.0.0.0/8 dev 1", "unknown word 'dev'" },
		{ "10.0.0.0/8 dev", "'dev' needs a value" },
	};
	struct tp_prog *p = open_ok(obj("t_fib.o"), "xdp_fib");
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF];
	char err[256];

	(void)state;
	for (unsigned int i = 0; i < RTE_DIM(fib_routes); i++)
		if (tp_prog_bpf_route_add(p, fib_routes[i], err, sizeof(err)) != 0)
			fail_msg("route '%s': %s", fib_routes[i], err);
	for (unsigned int i = 0; i < RTE_DIM(bad); i++) {
		err[0] = '\0';
		assert_int_equal(tp_prog_bpf_route_add(p, bad[i].spec, err, sizeof(err)), -EINVAL);
		if (strstr(err, bad[i].why) == NULL)
			fail_msg("route '%s': error '%s' lacks '%s'", bad[i].spec, err, bad[i].why);
	}
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_verdicts(v, want, NF);
	assert_int_equal(k[0], 2); /* dev 2: ifindex 3, redirect key 2 */
	assert_int_equal(k[1], 2);
	assert_int_equal(k[6], 1);
	expect_bytes_from("tests/bpf/fib_out.pcap", m);
	assert_int_equal(u64_at(p, "rcs", BPF_FIB_LKUP_RET_SUCCESS, 0), 3);
	assert_int_equal(u64_at(p, "rcs", BPF_FIB_LKUP_RET_BLACKHOLE, 0), 1);
	assert_int_equal(u64_at(p, "rcs", BPF_FIB_LKUP_RET_FRAG_NEEDED, 0), 1);
	assert_int_equal(u64_at(p, "rcs", BPF_FIB_LKUP_RET_NOT_FWDED, 0), 0);
	assert_int_equal(u64_at(p, "rcs", 15, 0), 80); /* mtu_result */
	free_all(m, NF);

	/* the same frames from another ingress port, after routes that
	 * replace the /24 (no neighbour now) and make .1.7 unreachable */
	assert_int_equal(tp_prog_bpf_route_add(p, "192.168.1.0/24 dev 4", err, sizeof(err)), 0);
	assert_int_equal(tp_prog_bpf_route_add(p, "unreachable 192.168.1.7/32", err,
					       sizeof(err)), 0);
	load_frames(m);
	run(p, 5, m, NF, v, k);
	for (unsigned int i = 0; i < NF; i++)
		assert_int_equal(v[i], i == 3 ? XDP_DROP : i == 6 ? XDP_REDIRECT : XDP_PASS);
	{
		/* frame 6 forwarded as before, the others untouched */
		uint8_t **fi, **fo;
		uint32_t *li, *lo;

		assert_int_equal(tp_test_pcap_read(tp_test_build_path("tests/bpf/in.pcap"),
						   &fi, &li, NULL), NF);
		assert_int_equal(tp_test_pcap_read(tp_test_build_path("tests/bpf/fib_out.pcap"),
						   &fo, &lo, NULL), NF);
		for (unsigned int i = 0; i < NF; i++)
			tp_test_assert_mbuf_bytes(m[i], i == 6 ? fo[i] : fi[i],
						  i == 6 ? lo[i] : li[i]);
		tp_test_pcap_free(fi, li, NF);
		tp_test_pcap_free(fo, lo, NF);
	}
	free_all(m, NF);
	assert_int_equal(u64_at(p, "rcs", BPF_FIB_LKUP_RET_NO_NEIGH, 0), 2);
	assert_int_equal(u64_at(p, "rcs", BPF_FIB_LKUP_RET_UNREACHABLE, 0), 1);
	tp_prog_close(p);

	/* argument checks, as the kernel's: unknown flag, short struct,
	 * unknown family, no such device */
	p = open_ok(obj("t_fib.o"), "xdp_fib_args");
	load_frames(m);
	run(p, 0, m, 1, v, k);
	assert_int_equal(v[0], XDP_PASS);
	assert_int_equal((int64_t)u64_at(p, "args", 0, 0), -EINVAL);
	assert_int_equal((int64_t)u64_at(p, "args", 1, 0), -EINVAL);
	assert_int_equal((int64_t)u64_at(p, "args", 2, 0), -EAFNOSUPPORT);
	assert_int_equal((int64_t)u64_at(p, "args", 3, 0), -ENODEV);
	free_all(m, NF);
	tp_prog_close(p);
}

/* xdp_router: xdp_fib's router in BPF-to-BPF calls (one returns nothing),
 * with bpf_check_mtu on the egress port before the redirect. Ports 1 and
 * 2 are no ethdev here: MTU 1500, so the same bytes as xdp_fib. */
static void
test_router(void **state)
{
	static const uint8_t want[NF] = { XDP_REDIRECT, XDP_REDIRECT, XDP_PASS, XDP_DROP,
					  XDP_PASS, XDP_PASS, XDP_REDIRECT, XDP_PASS };
	struct tp_prog *p = open_ok(obj("t_fib.o"), "xdp_router");
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF];
	char err[256];

	(void)state;
	for (unsigned int i = 0; i < RTE_DIM(fib_routes); i++)
		assert_int_equal(tp_prog_bpf_route_add(p, fib_routes[i], err, sizeof(err)), 0);
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_verdicts(v, want, NF);
	assert_int_equal(k[0], 2);
	assert_int_equal(k[6], 1);
	expect_bytes_from("tests/bpf/fib_out.pcap", m);
	assert_int_equal(u64_at(p, "rcs", BPF_FIB_LKUP_RET_SUCCESS, 0), 3);
	assert_int_equal(u64_at(p, "rcs", 13, 0), 1500); /* the MTU check_mtu said */
	assert_int_equal(u64_at(p, "rcs", 14, 0), 0);    /* nothing too long */
	free_all(m, NF);
	tp_prog_close(p);
}

/* The results t_helpers.c's xdp_mtu stores, for a frame of len bytes on a
 * port of MTU mtu (net/core/filter.c bpf_xdp_check_mtu). */
static void
expect_check_mtu(struct tp_prog *p, uint32_t mtu)
{
	static const int64_t rc[8] = {
		BPF_MTU_CHK_RET_SUCCESS, BPF_MTU_CHK_RET_SUCCESS, BPF_MTU_CHK_RET_FRAG_NEEDED,
		BPF_MTU_CHK_RET_SUCCESS, BPF_MTU_CHK_RET_FRAG_NEEDED, -EINVAL, -ENODEV,
		BPF_MTU_CHK_RET_SUCCESS,
	};

	for (uint32_t s = 0; s < 8; s++) {
		int64_t got = (int64_t)u64_at(p, "mtu", s, 0);
		uint32_t out = (uint32_t)u64_at(p, "mtu", s, 8);

		/* after an error mtu_len stays what the program put there */
		uint32_t want = s == 5 ? 9 : s == 6 ? 7 : mtu;

		if (got != rc[s] || out != want)
			fail_msg("check_mtu case %u: rc %ld mtu_len %u, expected %ld %u", s,
				 (long)got, out, (long)rc[s], want);
	}
}

/* bpf_check_mtu on a port that is no ethdev (1500) and on one that is
 * (net_null with its MTU set); the socket lookups find nothing. */
#define NULL_VDEV "net_null_bpf_mtu"

static void
test_check_mtu_and_sockets(void **state)
{
	struct tp_prog *p = open_ok(obj("t_helpers.o"), "xdp_mtu");
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF];
	uint16_t port;

	(void)state;
	load_frames(m);
	run(p, 7, m, 1, v, k);
	assert_int_equal(v[0], XDP_PASS);
	expect_check_mtu(p, 1500);
	/* an ethdev's MTU is the port's (rte_eth_dev_get_mtu) */
	if (rte_eth_dev_get_port_by_name(NULL_VDEV, &port) != 0) {
		struct rte_eth_conf conf = { 0 };

		assert_int_equal(rte_dev_probe(NULL_VDEV), 0);
		assert_int_equal(rte_eth_dev_get_port_by_name(NULL_VDEV, &port), 0);
		assert_int_equal(rte_eth_dev_configure(port, 1, 1, &conf), 0);
	}
	assert_int_equal(rte_eth_dev_set_mtu(port, 1400), 0);
	run(p, port, m, 1, v, k);
	expect_check_mtu(p, 1400);
	free_all(m, NF);
	tp_prog_close(p);

	p = open_ok(obj("t_helpers.o"), "xdp_sk");
	load_frames(m);
	run(p, 0, m, NF, v, k);
	for (unsigned int i = 0; i < NF; i++)
		assert_int_equal(v[i], XDP_PASS);
	assert_int_equal(u64_at(p, "socks", 0, 0), 3 * NF);
	assert_int_equal(u64_at(p, "socks", 1, 0), 0);
	free_all(m, NF);
	tp_prog_close(p);
}

static int
lb_update(void *ctx, const char *map, const void *key, const void *value)
{
	struct tp_prog *p = ctx;

	return tp_prog_bpf_map_update(p, map_idx(p, map), key, value, 0);
}

/* A Katran-style balancer (BPF-to-BPF calls, LRU connection table, jhash
 * ring, IP-in-IP with adjust_head): the bytes gen_bpf_frames.py computed;
 * then the connection table answers, and a real taken away drops. */
static void
test_lb(void **state)
{
	static const uint8_t want[NF] = { XDP_TX, XDP_PASS, XDP_TX, XDP_PASS,
					  XDP_PASS, XDP_PASS, XDP_PASS, XDP_PASS };
	struct tp_prog *p = open_ok(obj("t_lb.o"), NULL);
	struct rte_mbuf *m[NF];
	uint8_t v[NF], gone[12] = { 0 };
	uint32_t k[NF], three = 3;

	(void)state;
	lb_configure(lb_update, p);
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_verdicts(v, want, NF);
	expect_bytes_from("tests/bpf/lb_out.pcap", m);
	assert_int_equal(u64_at(p, "stats", 0, 0), 2);
	assert_int_equal(u64_at(p, "stats", 1, 0), in_l[0] + in_l[2]);
	assert_int_equal(u64_at(p, "stats", 2, 0), 0);
	free_all(m, NF);
	/* frame 2 went to real 3 (lb_out.pcap): without it, a drop */
	assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "reals"), &three, gone, 0), 0);
	load_frames(m);
	run(p, 0, m, NF, v, k);
	assert_int_equal(v[0], XDP_TX);
	assert_int_equal(v[2], XDP_DROP);
	assert_int_equal(u64_at(p, "stats", 2, 0), 2); /* both from conns */
	assert_int_equal(u64_at(p, "stats", 3, 0), 1);
	free_all(m, NF);
	tp_prog_close(p);
}

/* t_grow's program sel asked for length want on packet m: its verdict,
 * then rc and the length it saw in `out`, and (on success) the length, the
 * grown bytes zero but the last (0xab), and nb_segs. */
static void
grow_case(struct tp_prog *p, struct rte_mbuf *m, uint32_t want, int64_t rc,
	  uint16_t segs)
{
	uint32_t zero = 0, len0 = rte_pktmbuf_pkt_len(m), k;
	uint8_t v, *buf;

	assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "cfg"), &zero, &want, 0), 0);
	run(p, 0, &m, 1, &v, &k);
	assert_int_equal((int64_t)u64_at(p, "out", 0, 0), rc);
	if (rc != 0) {
		assert_int_equal(v, XDP_DROP);
		assert_int_equal(rte_pktmbuf_pkt_len(m), len0);
		return;
	}
	assert_int_equal(v, XDP_TX);
	assert_int_equal(u64_at(p, "out", 1, 0), want);
	assert_int_equal(rte_pktmbuf_pkt_len(m), want);
	assert_int_equal(m->nb_segs, segs);
	buf = malloc(want);
	assert_non_null(buf);
	assert_int_equal(tp_test_mbuf_to_bytes(m, buf, want), want);
	assert_int_equal(buf[want - 1], 0xab);
	for (uint32_t i = RTE_MIN(len0, want - 1); i < want - 1; i++)
		if (buf[i] != 0)
			fail_msg("grown byte %u is 0x%02x", i, buf[i]);
	free(buf);
}

/* bpf_xdp_adjust_tail's limits, exact: a frame ends anywhere in its mbuf's
 * buffer (DPDK's default: 2048 bytes after 128 of headroom; the kernel's
 * test frame: 3520 after 256) and not a byte further; a chained packet
 * (xdp.frags) grows in its last segment's buffer and is cut across
 * segments, down to 14 bytes. */
static void
test_grow(void **state)
{
	struct tp_prog *p = open_ok(obj("t_grow.o"), "xdp_grow");
	uint8_t *big = calloc(1, 8000);
	struct rte_mbuf *m;

	(void)state;
	assert_non_null(big);
	memcpy(big, in_f[2], in_l[2]);
	m = tp_test_mbuf_from_bytes(mp, in_f[2], in_l[2]);
	grow_case(p, m, 2049, -EINVAL, 1);
	grow_case(p, m, 2048, 0, 1);
	grow_case(p, m, 60, 0, 1);
	grow_case(p, m, 13, -EINVAL, 1);
	rte_pktmbuf_free(m);
	m = kframe_mbuf(big, 128);
	grow_case(p, m, KFRAME_DATA + 1, -EINVAL, 1);
	grow_case(p, m, KFRAME_DATA, 0, 1);
	rte_pktmbuf_free(m);
	tp_prog_close(p);

	p = open_ok(obj("t_grow.o"), "xdp_grow_frags");
	m = kframe_mbuf(big, 5000); /* 3520 + 1480 */
	assert_int_equal(m->nb_segs, 2);
	/* the last segment has KFRAME_BUF - 128 - 1480 bytes of tailroom */
	grow_case(p, m, 5000 + KFRAME_BUF - 128 - 1480 + 1, -EINVAL, 2);
	grow_case(p, m, 5100, 0, 2);
	grow_case(p, m, 4000, 0, 2);
	grow_case(p, m, 3000, 0, 1); /* the second segment freed */
	grow_case(p, m, 13, -EINVAL, 1);
	rte_pktmbuf_free(m);
	m = kframe_mbuf(big, 5000);
	grow_case(p, m, 3520, 0, 1); /* exactly the first segment */
	rte_pktmbuf_free(m);
	tp_prog_close(p);
	free(big);
}

/* A program that is not xdp.frags never sees a packet of several buffers:
 * one that fits its first buffer is made one (counted), one that does not
 * is dropped unrun (counted); an xdp.frags program gets the chain. */
static void
test_frames_only_linear(void **state)
{
	static const uint8_t want[NF] = { XDP_DROP, XDP_PASS, XDP_TX, XDP_PASS,
					  XDP_PASS, XDP_ABORTED, XDP_PASS, XDP_PASS };
	struct tp_prog *p = open_ok(obj("t_parse.o"), NULL);
	uint8_t *big = calloc(1, 3000);
	struct tp_bpf_stats st;
	struct rte_mbuf *m[NF + 1];
	uint8_t v[NF + 1];
	uint32_t k[NF + 1];

	(void)state;
	assert_non_null(big);
	memcpy(big, in_f[0], in_l[0]);
	for (unsigned int i = 0; i < NF; i++)
		m[i] = in_l[i] > 20 ? tp_test_mbuf_chain_from_bytes(mp, in_f[i], in_l[i], 20) :
		       tp_test_mbuf_from_bytes(mp, in_f[i], in_l[i]);
	/* 3000 bytes: more than a default mbuf's 2048 */
	m[NF] = tp_test_mbuf_chain_from_bytes(mp, big, 3000, 2000);
	run(p, 0, m, NF + 1, v, k);
	expect_verdicts(v, want, NF);
	assert_int_equal(v[NF], XDP_DROP);
	assert_int_equal(k[NF], UINT32_MAX);
	expect_bytes_from("tests/bpf/parse_out.pcap", m);
	for (unsigned int i = 0; i < NF; i++)
		assert_int_equal(m[i]->nb_segs, 1);
	assert_int_equal(m[NF]->nb_segs, 2);
	assert_int_equal(tp_prog_bpf_stats(p, &st), 0);
	assert_int_equal(st.linearized, 7);
	assert_int_equal(st.multibuf_dropped, 1);
	assert_int_equal(st.runs, NF);
	free_all(m, NF + 1);
	tp_prog_close(p);
	free(big);
}

/* adjust_head VLAN push (VID from tagpipe metadata) and pop, adjust_tail. */
static void
test_adjust(void **state)
{
	static const uint8_t want_push[NF] = { XDP_TX, XDP_TX, XDP_TX, XDP_TX,
					       XDP_TX, XDP_ABORTED, XDP_TX, XDP_TX };
	struct tp_prog *p = open_ok(obj("t_adjust.o"), NULL);
	struct rte_mbuf *m[NF], *one;
	uint8_t v[NF];
	uint32_t k[NF];
	uint8_t **ef;
	uint32_t *el;

	(void)state;
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_verdicts(v, want_push, NF);
	expect_bytes_from("tests/bpf/push_out.pcap", m);
	free_all(m, NF);
	/* one stripped tag recorded in the mbuf: metadata nb_vlan 1, VID 101 */
	one = tp_test_mbuf_from_bytes(mp, in_f[2], in_l[2]);
	one->ol_flags |= RTE_MBUF_F_RX_VLAN_STRIPPED;
	one->vlan_tci = 77;
	run(p, 0, &one, 1, v, k);
	assert_int_equal(v[0], XDP_TX);
	assert_int_equal(tp_test_pcap_read(tp_test_build_path("tests/bpf/push_out.pcap"),
					   &ef, &el, NULL), NF);
	ef[2][15] = 101; /* TCI low byte: VID 100 + 1 */
	tp_test_assert_mbuf_bytes(one, ef[2], el[2]);
	tp_test_pcap_free(ef, el, NF);
	rte_pktmbuf_free(one);
	tp_prog_close(p);

	p = open_ok(obj("t_adjust.o"), "xdp_pop");
	load_frames(m);
	run(p, 0, m, NF, v, k);
	for (unsigned int i = 0; i < NF; i++)
		assert_int_equal(v[i], XDP_PASS);
	expect_bytes_from("tests/bpf/pop_out.pcap", m);
	free_all(m, NF);
	tp_prog_close(p);

	p = open_ok(obj("t_adjust.o"), "prog_trim");
	load_frames(m);
	run(p, 0, m, NF, v, k);
	for (unsigned int i = 0; i < NF; i++)
		assert_int_equal(v[i], XDP_TX);
	expect_bytes_from("tests/bpf/trim_out.pcap", m);
	free_all(m, NF);
	tp_prog_close(p);
}

static int
prog_no(struct tp_prog *p, const char *name)
{
	return found(tp_prog_bpf_prog_find(p, name), "program", name);
}

/* Tail calls through a PROG_ARRAY the object fills itself, changed by the
 * control plane; the 33-call chain limit; a tail call from a callee. */
static void
test_tail_calls(void **state)
{
	static const uint8_t want[NF] = { XDP_DROP, XDP_DROP, XDP_TX, XDP_TX,
					  XDP_PASS, XDP_PASS, XDP_PASS, XDP_PASS };
	struct tp_prog *p = open_ok(obj("t_tail.o"), "xdp");
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF], slot, got, udp, bad = 99;
	int jmp;

	(void)state;
	/* the selected program, then tail_udp, tail_ipv4, chain,
	 * xdp_chain_entry, xdp_tail_sub (sub is static: not a program) */
	assert_int_equal(tp_prog_bpf_prog_count(p), 6);
	assert_int_equal(prog_no(p, "xdp_tail_entry"), 0);
	assert_int_equal(tp_prog_bpf_prog_find(p, "sub"), -ENOENT);
	udp = (uint32_t)prog_no(p, "tail_udp");
	jmp = map_idx(p, "jmp");
	slot = 1;
	assert_int_equal(tp_prog_bpf_map_lookup(p, jmp, &slot, &got), 0);
	assert_int_equal(got, udp);
	slot = 0;
	assert_int_equal(tp_prog_bpf_map_lookup(p, jmp, &slot, &got), 0);
	assert_int_equal(got, (uint32_t)prog_no(p, "tail_ipv4"));
	slot = 3;
	assert_int_equal(tp_prog_bpf_map_lookup(p, jmp, &slot, &got), -ENOENT);
	assert_string_equal(dump_of(p, "jmp", 3),
			    "00000000=tail_ipv4\n01000000=tail_udp\n02000000=chain\n");
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_verdicts(v, want, NF);
	expect_bytes_from("tests/bpf/tail_out.pcap", m);
	assert_int_equal(u64_at(p, ".bss", 0, 0), 4); /* ipv4_runs */
	free_all(m, NF);

	/* jmp[3] = tail_udp: ARP, IPv6 and the VLAN frame now TX, the runt
	 * ABORTED (no Ethernet header);
	 * jmp[0] emptied: IPv4 falls through to XDP_PASS */
	assert_int_equal(tp_prog_bpf_map_update(p, jmp, &slot, &bad, 0), -EINVAL);
	assert_int_equal(tp_prog_bpf_map_update(p, jmp, &slot, &udp, 0), 0);
	slot = 0;
	assert_int_equal(tp_prog_bpf_map_delete(p, jmp, &slot), 0);
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_verdicts(v, (const uint8_t[NF]){ XDP_PASS, XDP_PASS, XDP_PASS, XDP_PASS,
						XDP_TX, XDP_ABORTED, XDP_TX, XDP_TX }, NF);
	assert_int_equal(u64_at(p, ".bss", 0, 0), 4);
	free_all(m, NF);
	tp_prog_close(p);

	/* chain tail-calls itself: 33 tail calls (MAX_TAIL_CALL_CNT), then
	 * the 33rd run of chain falls through to XDP_TX; per packet */
	p = open_ok(obj("t_tail.o"), "xdp_chain");
	load_frames(m);
	run(p, 0, m, 2, v, k);
	assert_int_equal(v[0], XDP_TX);
	assert_int_equal(v[1], XDP_TX);
	assert_int_equal(u64_at(p, ".bss", 0, 8), 2 * 33); /* chain_runs */
	free_all(m, NF);
	tp_prog_close(p);

	/* from a BPF-to-BPF callee: tail_udp's verdict returns to the caller */
	p = open_ok(obj("t_tail.o"), "xdp_sub");
	load_frames(m);
	run(p, 2, m, NF, v, k);
	expect_verdicts(v, (const uint8_t[NF]){ XDP_TX, XDP_TX, XDP_TX, XDP_TX,
						XDP_TX, XDP_ABORTED, XDP_TX, XDP_TX }, NF);
	assert_int_equal(u64_at(p, ".bss", 0, 16), 7); /* sub_tx */
	free_all(m, NF);
	slot = 1;
	assert_int_equal(tp_prog_bpf_map_delete(p, map_idx(p, "jmp"), &slot), 0);
	load_frames(m);
	run(p, 2, m, 1, v, k);
	assert_int_equal(v[0], UINT8_MAX); /* 100 + rx queue: not an action */
	free_all(m, NF);
	tp_prog_close(p);
}

/* Loops: run when the kernel verified them or with --bpf-unverified, under
 * the budget; a loop without an exit is refused. */
static void
test_loops(void **state)
{
	char spec[600], err[256] = "", what[600];
	struct tp_prog *p = NULL;
	struct rte_mbuf *m[NF];
	struct tp_bpf_stats st;
	uint8_t v[NF];
	uint32_t k[NF];
	uint8_t x = 0;

	(void)state;
	snprintf(spec, sizeof(spec), "%s%s", mode, obj("t_loop.o"));
	if (tp_prog_open(spec, &p, err, sizeof(err)) == 0) {
		tp_prog_bpf_describe(p, what, sizeof(what));
		assert_non_null(strstr(what, "verified by the kernel"));
		tp_prog_close(p);
	} else {
		print_message("loop refused without the kernel: %s\n", err);
		assert_non_null(strstr(err, "pc 13: a loop (back-edge) tagpipe cannot "
				       "prove finite"));
	}
	assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_OFF), 0);
	p = open_ok(obj("t_loop.o"), NULL);
	load_frames(m);
	run(p, 0, m, NF, v, k);
	for (unsigned int i = 0; i < NF; i++) {
		x = 0;
		for (unsigned int b = 0; b < 16 && b < in_l[i]; b++)
			x ^= in_f[i][b];
		if (v[i] != ((x & 1) ? XDP_DROP : XDP_PASS))
			fail_msg("frame %u: verdict %u for xor 0x%02x", i, v[i], x);
	}
	assert_int_equal(u64_at(p, ".bss", 0, 0), x); /* last_xor: frame 7 */
	free_all(m, NF);
	tp_prog_close(p);

	p = open_ok(obj("t_loop.o"), "xdp/spin");
	load_frames(m);
	run(p, 0, m, 1, v, k);
	assert_int_equal(v[0], XDP_ABORTED);
	assert_int_equal(tp_prog_bpf_stats(p, &st), 0);
	assert_int_equal(st.runs, 1);
	assert_int_equal(st.aborted_loop, 1);
	assert_int_equal(st.aborted_oob, 0);
	/* one count per iteration; the 1,000,001st backward jump is refused */
	assert_int_equal(u64_at(p, ".bss", 0, 8), 1000001);
	free_all(m, NF);
	tp_prog_close(p);
	open_fails(obj("t_loop.o"), "xdp/forever", "pc 0: infinite loop: no path "
		   "from here reaches an exit");
	assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_AUTO), 0);
}

/* Escapes are stopped at run time; unverifiable programs are refused. */
static void
test_bad(void **state)
{
	struct tp_prog *p;
	struct rte_mbuf *m[2];
	struct tp_bpf_stats st;
	uint8_t v[2], big[256];
	uint32_t k[2];

	(void)state;
	/* the kernel would refuse these two: tagpipe's own run-time checks */
	assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_OFF), 0);
	p = open_ok(obj("t_bad.o"), NULL);
	memset(big, 0, sizeof(big));
	big[200] = 0x42;
	m[0] = tp_test_mbuf_from_bytes(mp, in_f[0], in_l[0]);
	m[1] = tp_test_mbuf_from_bytes(mp, big, sizeof(big));
	run(p, 0, m, 2, v, k);
	assert_int_equal(v[0], XDP_ABORTED);
	assert_int_equal(v[1], XDP_DROP);
	assert_int_equal(tp_prog_bpf_stats(p, &st), 0);
	assert_int_equal(st.runs, 2);
	assert_int_equal(st.aborted_oob, 1);
	tp_prog_close(p);

	/* a write, then a read out of bounds: the write stays (compiled code
	 * checks the two as one span, then each alone when the span fails) */
	p = open_ok(obj("t_bad.o"), "xdp_partial");
	run(p, 0, m, 2, v, k);
	assert_int_equal(v[0], XDP_ABORTED);
	assert_int_equal(v[1], XDP_PASS);
	assert_int_equal(rte_pktmbuf_mtod(m[0], uint8_t *)[0], 0xee);
	assert_int_equal(rte_pktmbuf_mtod(m[1], uint8_t *)[0], 0xee);
	assert_int_equal(tp_prog_bpf_stats(p, &st), 0);
	assert_int_equal(st.aborted_oob, 1);
	tp_prog_close(p);

	p = open_ok(obj("t_bad.o"), "xdp_stack");
	run(p, 0, m, 2, v, k);
	assert_int_equal(v[0], XDP_ABORTED);
	assert_int_equal(v[1], XDP_ABORTED);
	assert_int_equal(tp_prog_bpf_stats(p, &st), 0);
	assert_int_equal(st.aborted_oob, 2);
	tp_prog_close(p);
	free_all(m, 2);
	assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_AUTO), 0);
	assert_int_equal(tp_prog_bpf_set_verify((enum tp_bpf_verify)7), -EINVAL);

	open_fails(obj("t_bad.o"), "xdp_uninit", "r7 is read before it is set");
	open_fails(obj("t_bad.o"), "xdp_ctxw", "write to the context");
	open_fails(obj("t_bad.o"), "xdp_syncookie", "helper 204 is not supported");
	open_fails(obj("t_bad.o"), "no_such", "no program 'no_such'");
	open_fails(obj("missing.o"), NULL, "No such file");
	{
		char spec[512];

		snprintf(spec, sizeof(spec), "bpf:%s", tp_test_src_path("tests/bpf/test_bpf.c"));
		open_fails(spec, NULL, "not an ELF file");
	}
	open_fails("bpf:", NULL, "expected FILE.o[:SECTION]");
}

static bool
have(const char *path)
{
	return access(path, R_OK) == 0;
}

/* path opens, and the kernel verified it as tagpipe loaded it. */
static void
assert_kernel_verified(const char *path)
{
	struct tp_prog *p = open_ok(path, NULL);
	char what[600];

	tp_prog_bpf_describe(p, what, sizeof(what));
	tp_prog_close(p);
	if (strstr(what, "verified by the kernel)") == NULL)
		fail_msg("%s: %s", path, what);
}

/* The running kernel's verifier, where this process may load BPF. */
static void
test_kernel_verifier(void **state)
{
	static const char *const mine[] = {
		"t_parse.o", "t_bench.o", "t_maps.o", "t_tail.o", "t_misc.o",
		"t_adjust.o", "t_fib.o", "t_mim.o", "t_ringbuf.o", "t_bpfloop.o",
	};
	static const char *const debian[] = {
		"xdpfilt_alw_all.o", "xdpfilt_dny_all.o", "xdpfilt_dny_eth.o",
		"xsk_def_xdp_prog.o", "xsk_def_xdp_prog_5.3.o", "xdp-dispatcher.o",
	};
	struct tp_prog *p = open_ok(obj("t_parse.o"), NULL);
	char what[600];

	(void)state;
	tp_prog_bpf_describe(p, what, sizeof(what));
	tp_prog_close(p);
	if (strstr(what, "verified by the kernel") == NULL) {
		/* the kernel was there, but tagpipe read another program */
		if (strstr(what, "reading of the file differs") != NULL)
			fail_msg("%s", what);
		print_message("kernel verifier unavailable here: %s\n", what);
		/* refused when required */
		assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_KERNEL), 0);
		open_fails(obj("t_parse.o"), NULL, "kernel verification required");
		assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_AUTO), 0);
		skip();
	}
	/* what the kernel verified is what tagpipe loaded, for each object
	 * of the tests and of libxdp1: the compiled code relies on it */
	for (size_t i = 0; i < RTE_DIM(mine); i++)
		assert_kernel_verified(obj(mine[i]));
	for (size_t i = 0; i < RTE_DIM(debian) && have(DEB "xdpfilt_dny_all.o"); i++) {
		char path[256];

		snprintf(path, sizeof(path), DEB "%s", debian[i]);
		assert_kernel_verified(path);
	}
	/* no data_end check before data[200]: the kernel says so */
	open_fails(obj("t_bad.o"), NULL, "the kernel verifier rejects it: ");
	open_fails(obj("t_bad.o"), NULL, "outside of the packet");
	/* libbpf cannot open legacy maps: not verifiable, refused if required */
	p = open_ok(obj("t_legacy.o"), NULL);
	tp_prog_bpf_describe(p, what, sizeof(what));
	tp_prog_close(p);
	assert_non_null(strstr(what, "not kernel-verified"));
	assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_KERNEL), 0);
	open_fails(obj("t_legacy.o"), NULL, "kernel verification required");
	tp_prog_close(open_ok(obj("t_maps.o"), "xdp_redirect"));
	assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_AUTO), 0);
}

/* Debian's xdp-filter objects, unmodified: UDP port 9 allowed (dny) or
 * denied (alw). */
static void
test_xdpfilt_udp(void **state)
{
	static const uint8_t want_dny[NF] = { XDP_DROP, XDP_DROP, XDP_PASS, XDP_DROP,
					      XDP_DROP, XDP_ABORTED, XDP_DROP, XDP_PASS };
	static const uint8_t want_alw[NF] = { XDP_PASS, XDP_PASS, XDP_DROP, XDP_PASS,
					      XDP_PASS, XDP_ABORTED, XDP_PASS, XDP_DROP };
	const char *files[2] = { DEB "xdpfilt_dny_udp.o", DEB "xdpfilt_alw_udp.o" };
	const uint8_t *wants[2] = { want_dny, want_alw };

	(void)state;
	if (!have(files[0]) || !have(files[1]))
		skip();
	for (int f = 0; f < 2; f++) {
		struct tp_prog *p = open_ok(files[f], NULL);
		struct tp_bpf_map_info info;
		struct rte_mbuf *m[NF];
		uint8_t v[NF], vals[8 * 256];
		uint32_t k[NF], port = rte_cpu_to_be_16(9);
		int fp = map_idx(p, "filter_ports");
		uint64_t drop_b, pass_b;

		assert_int_equal(tp_prog_bpf_map_info(p, fp, &info), 0);
		assert_int_equal(info.type, BPF_MAP_TYPE_PERCPU_ARRAY);
		assert_int_equal(info.max_entries, 65536);
		for (uint32_t c = 0; c < info.ncpu; c++) {
			uint64_t flags = 2 | 8; /* MAP_FLAG_DST | MAP_FLAG_UDP */

			memcpy(vals + c * info.value_stride, &flags, 8);
		}
		assert_int_equal(tp_prog_bpf_map_update(p, fp, &port, vals, 0), 0);
		load_frames(m);
		run(p, 0, m, NF, v, k);
		expect_verdicts(v, wants[f], NF);
		/* the hits (frames 2 and 7) add 1 << 6 each to this lcore's copy */
		assert_int_equal(u64_at(p, "filter_ports", port, 0), 10 + 2 * 64);
		/* xdp_stats_map[action] = {rx_packets, rx_bytes} */
		drop_b = f == 0 ? 54 + 54 + 52 + 42 + 62 : 100 + 46;
		pass_b = f == 0 ? 100 + 46 : 54 + 54 + 52 + 42 + 62;
		assert_int_equal(u64_at(p, "xdp_stats_map", XDP_ABORTED, 0), 1);
		assert_int_equal(u64_at(p, "xdp_stats_map", XDP_ABORTED, 8), 10);
		assert_int_equal(u64_at(p, "xdp_stats_map", XDP_DROP, 0), f == 0 ? 5 : 2);
		assert_int_equal(u64_at(p, "xdp_stats_map", XDP_DROP, 8), drop_b);
		assert_int_equal(u64_at(p, "xdp_stats_map", XDP_PASS, 0), f == 0 ? 2 : 5);
		assert_int_equal(u64_at(p, "xdp_stats_map", XDP_PASS, 8), pass_b);
		expect_bytes_from("tests/bpf/in.pcap", m); /* untouched */
		free_all(m, NF);
		tp_prog_close(p);
	}
}

/* Every XDP object libxdp1 ships opens, or is refused naming why. */
static void
test_debian_objects(void **state)
{
	static const char *const ok[] = {
		"xdpfilt_alw_all.o", "xdpfilt_alw_eth.o", "xdpfilt_alw_ip.o",
		"xdpfilt_alw_tcp.o", "xdpfilt_alw_udp.o", "xdpfilt_dny_all.o",
		"xdpfilt_dny_eth.o", "xdpfilt_dny_ip.o", "xdpfilt_dny_tcp.o",
		"xdpfilt_dny_udp.o", "xsk_def_xdp_prog.o", "xsk_def_xdp_prog_5.3.o",
		"xdp-dispatcher.o", "xdpdump_xdp.o",
	};
	char path[256];

	(void)state;
	if (!have(DEB "xdpfilt_dny_all.o"))
		skip();
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(path, sizeof(path), DEB "%s", ok[i]);
		tp_prog_close(open_ok(path, NULL));
	}
}

/* xdpdump's capture program (xdp-tools xdpdump/xdpdump_xdp.c): frames
 * arriving on trace_cfg.capture_if_ifindex go to xdpdump_perf_map as
 * struct pkt_trace_metadata {u32 ifindex, rx_queue; u16 pkt_len, cap_len,
 * flags, prog_index; int action} (xdpdump.h, 20 bytes, packed) followed
 * by the first min(pkt_len, capture_snaplen) bytes; verdict XDP_PASS. */
static void
test_xdpdump(void **state)
{
	struct tp_prog *p;
	struct rte_mbuf *m[NF];
	uint8_t v[NF], rec[256], want[256];
	uint32_t k[NF], zero = 0, cfg[3] = { 1, 64, 7 }; /* ifindex 1 = port 0 */
	uint64_t lost = 1;
	int perf;

	(void)state;
	if (!have(DEB "xdpdump_xdp.o"))
		skip();
	p = open_ok(DEB "xdpdump_xdp.o", NULL);
	perf = map_idx(p, "xdpdump_perf_map");
	assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, ".data"), &zero, cfg, 0), 0);
	load_frames(m);
	run(p, 0, m, NF, v, k);
	for (unsigned int i = 0; i < NF; i++) {
		uint16_t len = (uint16_t)in_l[i], cap = len < 64 ? len : 64, prog = 7;
		uint32_t ifx = 1, rxq = 0;

		assert_int_equal(v[i], XDP_PASS);
		memset(want, 0, 20);
		memcpy(want, &ifx, 4);
		memcpy(want + 4, &rxq, 4);
		memcpy(want + 8, &len, 2);
		memcpy(want + 10, &cap, 2);
		memcpy(want + 14, &prog, 2);
		memcpy(want + 20, in_f[i], cap);
		assert_int_equal(tp_prog_bpf_perf_read(p, perf, 0, rec, sizeof(rec), &lost),
				 20 + cap);
		assert_memory_equal(rec, want, 20 + cap);
	}
	assert_int_equal(tp_prog_bpf_perf_read(p, perf, 0, rec, sizeof(rec), &lost), -EAGAIN);
	assert_int_equal(lost, 0);
	/* another port: not captured */
	run(p, 2, m, NF, v, k);
	assert_int_equal(tp_prog_bpf_perf_read(p, perf, 0, rec, sizeof(rec), NULL), -EAGAIN);
	assert_int_equal(tp_prog_bpf_perf_read(p, map_idx(p, ".data"), 0, rec, 8, NULL),
			 -EINVAL);
	free_all(m, NF);
	tp_prog_close(p);
}

/* AF_XDP default programs: empty XSKMAP -> XDP_PASS, a set entry for the
 * rx queue -> REDIRECT to that tagpipe target. */
static void
test_xsk_default(void **state)
{
	const char *files[2] = { DEB "xsk_def_xdp_prog.o", DEB "xsk_def_xdp_prog_5.3.o" };

	(void)state;
	if (!have(files[0]) || !have(files[1]))
		skip();
	for (int f = 0; f < 2; f++) {
		struct tp_prog *p = open_ok(files[f], NULL);
		struct rte_mbuf *m[NF];
		uint8_t v[NF];
		uint32_t k[NF], q = 0, ifindex = 4;

		load_frames(m);
		run(p, 0, m, NF, v, k);
		for (unsigned int i = 0; i < NF; i++)
			assert_int_equal(v[i], XDP_PASS);
		assert_int_equal(tp_prog_bpf_map_update(p, map_idx(p, "xsks_map"), &q,
							&ifindex, 0), 0);
		run(p, 0, m, NF, v, k);
		for (unsigned int i = 0; i < NF; i++) {
			assert_int_equal(v[i], XDP_REDIRECT);
			assert_int_equal(k[i], 3);
		}
		free_all(m, NF);
		tp_prog_close(p);
	}
}

/* Every one of the NF verdicts is want. */
static void
expect_all(const uint8_t *v, uint8_t want)
{
	for (unsigned int i = 0; i < NF; i++)
		if (v[i] != want)
			fail_msg("frame %u: verdict %u, expected %u", i, v[i], want);
}

/* Records tp_prog_bpf_ringbuf_consume hands over, each appended to buf
 * as (u32 length, bytes). */
struct rb_got {
	uint8_t buf[16384];
	size_t used;
};

static int
rb_collect(void *ctx, const void *data, size_t len)
{
	struct rb_got *g = ctx;
	uint32_t l = (uint32_t)len;

	if (g->used + 4 + len > sizeof(g->buf))
		fail_msg("ringbuf: more records than expected");
	memcpy(g->buf + g->used, &l, 4);
	memcpy(g->buf + g->used + 4, data, len);
	g->used += 4 + len;
	return 0;
}

/* What prog_ringbuf leaves for frame f from port (t_ringbuf.c header),
 * in rb_collect's format: the event unless discarded (length a multiple
 * of 4), then the output of the length. */
static size_t
rb_expect(uint8_t *out, unsigned int f, uint16_t port, bool event, bool output)
{
	uint32_t len = in_l[f], l16 = 16, l4 = 4, ifx = (uint32_t)port + 1;
	size_t o = 0;

	if (event && (len & 3) != 0) {
		memcpy(out, &l16, 4);
		memcpy(out + 4, &len, 4);
		memcpy(out + 8, &ifx, 4);
		memcpy(out + 12, in_f[f], 8);
		o = 20;
	}
	if (output) {
		memcpy(out + o, &l4, 4);
		memcpy(out + o + 4, &len, 4);
		o += 8;
	}
	return o;
}

/* prog_ringbuf on frame f from port 0 when used bytes are in the ring
 * and nothing consumes: its verdict; used and the expected records grow. */
/* noinline: GCC 12 -O3 warns wrongly (stringop-overflow) when inlined */
static __attribute__((noinline)) uint8_t
rb_fill_one(uint64_t *used, uint8_t *want, size_t *wl, unsigned int f)
{
	bool ev = *used + 24 <= 4095, out = ev && *used + 24 + 16 <= 4095;

	*used += (ev ? 24 : 0) + (out ? 16 : 0);
	*wl += rb_expect(want + *wl, f, 0, ev, out);
	return !ev ? XDP_DROP : out ? XDP_PASS : XDP_TX;
}

/* BPF_MAP_TYPE_RINGBUF: records, discard, output, query, a full ring (the
 * kernel's rule: the producer never gets more than size - 1 bytes ahead),
 * a record wrapping the end of the ring, the control plane. */
static void
test_ringbuf(void **state)
{
	static struct rb_got got;
	static uint8_t want[sizeof(got.buf)];
	struct tp_prog *p = open_ok(obj("t_ringbuf.o"), NULL);
	struct tp_bpf_map_info info;
	struct rte_mbuf *m[NF];
	uint8_t v[NF], wv[NF], key[4] = { 0 }, val[4] = { 0 };
	uint32_t k[NF];
	uint64_t used = 0;
	size_t wl = 0;
	int rb = map_idx(p, "rb");

	(void)state;
	assert_int_equal(tp_prog_bpf_map_info(p, rb, &info), 0);
	assert_int_equal(info.type, BPF_MAP_TYPE_RINGBUF);
	assert_int_equal(info.key_size, 0);
	assert_int_equal(info.value_size, 0);
	assert_int_equal(info.max_entries, 4096);
	assert_int_equal(tp_prog_bpf_map_lookup(p, rb, key, val), -EOPNOTSUPP);
	assert_int_equal(tp_prog_bpf_map_update(p, rb, key, val, 0), -EOPNOTSUPP);
	assert_int_equal(tp_prog_bpf_map_delete(p, rb, key), -EOPNOTSUPP);
	assert_int_equal(tp_prog_bpf_ringbuf_consume(p, map_idx(p, ".bss"), rb_collect, &got),
			 -EINVAL);
	assert_int_equal(tp_prog_bpf_ringbuf_consume(p, rb, rb_collect, &got), 0);

	load_frames(m);
	run(p, 3, m, NF, v, k);
	for (unsigned int i = 0; i < NF; i++) {
		assert_int_equal(v[i], XDP_PASS);
		wl += rb_expect(want + wl, i, 3, true, true);
	}
	/* every frame: event (16 + 8 header) and output (4 + 8, padded to 16),
	 * discarded records counting until consumed */
	assert_int_equal(u64_at(p, ".bss", 0, 0), NF * 40);
	assert_int_equal(u64_at(p, ".bss", 0, 8), 4096);
	got.used = 0;
	assert_int_equal(tp_prog_bpf_ringbuf_consume(p, rb, rb_collect, &got), NF + 6);
	assert_int_equal(got.used, wl);
	assert_memory_equal(got.buf, want, wl);
	assert_int_equal(tp_prog_bpf_ringbuf_consume(p, rb, rb_collect, &got), 0);

	/* fill it: 13 bursts without a consumer; the producer starts at
	 * NF * 40 = 320, so a record wraps the ring's end on the way */
	wl = 0;
	for (unsigned int b = 0; b < 13; b++) {
		for (unsigned int i = 0; i < NF; i++)
			wv[i] = rb_fill_one(&used, want, &wl, i);
		run(p, 0, m, NF, v, k);
		expect_verdicts(v, wv, NF);
	}
	assert_int_equal(used, 102 * 40);  /* 102 frames fit, 2 dropped */
	assert_int_equal(u64_at(p, ".bss", 0, 0), used);
	got.used = 0;
	assert_int_equal(tp_prog_bpf_ringbuf_consume(p, rb, rb_collect, &got),
			 102 + 102 / NF * 6 + 4); /* frames 96..101: events of 0, 1, 4, 5 */
	assert_int_equal(got.used, wl);
	assert_memory_equal(got.buf, want, wl);
	/* room again; dump shows (and consumes) the records in hex */
	run(p, 0, m, 1, v, k);
	assert_int_equal(v[0], XDP_PASS);
	{
		char line[128];
		size_t n = 0;

		n += (size_t)snprintf(line, sizeof(line), "%02x000000%02x000000%02x%02x%02x%02x"
				      "%02x%02x%02x%02x\n%02x000000\n", in_l[0], 1,
				      in_f[0][0], in_f[0][1], in_f[0][2], in_f[0][3],
				      in_f[0][4], in_f[0][5], in_f[0][6], in_f[0][7], in_l[0]);
		assert_true(n < sizeof(line));
		assert_string_equal(dump_of(p, "rb", 2), line);
	}
	free_all(m, NF);
	tp_prog_close(p);

	/* flags and sizes the kernel's helpers refuse */
	p = open_ok(obj("t_ringbuf.o"), "xdp_rb_flags");
	m[0] = tp_test_mbuf_from_bytes(mp, in_f[0], in_l[0]);
	run(p, 0, m, 1, v, k);
	assert_int_equal(v[0], XDP_PASS);
	assert_int_equal(tp_prog_bpf_ringbuf_consume(p, map_idx(p, "rb"), rb_collect, &got), 0);
	free_all(m, 1);
	tp_prog_close(p);
	open_fails(obj("t_rb_legacy.o"), NULL,
		   "ringbuf max_entries 5000 is not a power of 2 multiple of 4096");
}

/* rounds bursts of the NF frames, each frame ABORTED, the ring consumed
 * (finding no record) every 25 bursts: 200 reservations of 8 bytes fit in
 * t_ringbuf.c's 4096, so a reservation left behind would show as a full
 * ring. */
static void
rb_rounds_aborted(struct tp_prog *p, unsigned int rounds, struct rb_got *got)
{
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF];

	for (unsigned int round = 0; round < rounds; round++) {
		load_frames(m);
		run(p, 0, m, NF, v, k);
		expect_all(v, XDP_ABORTED);
		free_all(m, NF);
		if (round % 25 == 24)
			assert_int_equal(tp_prog_bpf_ringbuf_consume(p, map_idx(p, "rb"),
								     rb_collect, got), 0);
	}
}

/* Programs the kernel's verifier refuses for their reservations; with
 * --bpf-unverified tagpipe's run-time checks stop them. */
/* 1 when fd is readable now. */
static int
readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN);
}

static int
rb_count(void *ctx, const void *data, size_t len)
{
	(void)data;
	(void)len;
	(*(int *)ctx)++;
	return 0;
}

/* Consumer wakeups: a commit at the consumer's position makes the ring's
 * fd readable (the kernel's rule), NO_WAKEUP never, FORCE_WAKEUP always;
 * consuming clears it; poll waits for it. */
static void
test_ringbuf_wakeup(void **state)
{
	struct tp_prog *p = open_ok(obj("t_ringbuf.o"), NULL);
	struct tp_prog *quiet = open_ok(obj("t_ringbuf.o"), "xdp_rb_quiet");
	struct tp_prog *force = open_ok(obj("t_ringbuf.o"), "xdp_rb_force");
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF];
	int rb = map_idx(p, "rb"), fd, n = 0;

	(void)state;
	assert_int_equal(tp_prog_bpf_ringbuf_fd(p, map_idx(p, ".bss")), -EINVAL);
	fd = tp_prog_bpf_ringbuf_fd(p, rb);
	assert_true(fd >= 0);
	assert_int_equal(tp_prog_bpf_ringbuf_fd(p, rb), fd);
	assert_false(readable(fd));
	assert_int_equal(tp_prog_bpf_ringbuf_poll(p, rb, 0, rb_count, &n), 0);
	/* frame 0's submit or discard is at the consumer: readable; poll
	 * gives every submitted record (6 events, 8 outputs) and clears it */
	load_frames(m);
	run(p, 0, m, NF, v, k);
	free_all(m, NF);
	assert_true(readable(fd));
	assert_int_equal(tp_prog_bpf_ringbuf_poll(p, rb, 1000, rb_count, &n), NF + 6);
	assert_false(readable(fd));
	/* a commit behind the consumer's position wakes nobody: the fd is
	 * read (cleared) without consuming, so the consumer stays at the
	 * first frame's records */
	load_frames(m);
	run(p, 0, m, 1, v, k);
	assert_true(readable(fd));
	assert_int_equal(read(fd, &(uint64_t){ 0 }, 8), 8);
	run(p, 0, m + 1, 1, v, k);
	assert_false(readable(fd));
	free_all(m, NF);
	tp_prog_close(p);

	/* NO_WAKEUP at the consumer: silent */
	rb = map_idx(quiet, "rb");
	fd = tp_prog_bpf_ringbuf_fd(quiet, rb);
	load_frames(m);
	run(quiet, 0, m, 1, v, k);
	assert_int_equal(v[0], XDP_PASS);
	assert_false(readable(fd));
	n = 0;
	assert_int_equal(tp_prog_bpf_ringbuf_consume(quiet, rb, rb_count, &n), 1);
	tp_prog_close(quiet);

	/* FORCE_WAKEUP behind the consumer: wakes; and an fd made while a
	 * record waits is readable at once */
	rb = map_idx(force, "rb");
	run(force, 0, m + 1, 1, v, k);
	fd = tp_prog_bpf_ringbuf_fd(force, rb);
	assert_true(readable(fd));
	assert_int_equal(read(fd, &(uint64_t){ 0 }, 8), 8);
	run(force, 0, m + 2, 1, v, k);
	assert_true(readable(fd));
	assert_int_equal(tp_prog_bpf_ringbuf_consume(force, rb, rb_count, &n), 2);
	assert_false(readable(fd));
	free_all(m, NF);
	tp_prog_close(force);
}

static void
test_ringbuf_unverified(void **state)
{
	static struct rb_got got;
	struct tp_bpf_stats st;
	struct tp_prog *p;
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF];
	uint64_t magic = 0x1122334455667788ull;
	char what[600];

	(void)state;
	p = open_ok(obj("t_ringbuf.o"), NULL);
	tp_prog_bpf_describe(p, what, sizeof(what));
	tp_prog_close(p);
	if (strstr(what, "verified by the kernel") != NULL) {
		open_fails(obj("t_ringbuf.o"), "xdp_rb_leak", "Unreleased reference");
		open_fails(obj("t_ringbuf.o"), "xdp_rb_stale", "the kernel verifier rejects it");
	}
	assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_OFF), 0);
	/* ends holding a reservation: discarded, ABORTED, the ring not stuck */
	p = open_ok(obj("t_ringbuf.o"), "xdp_rb_leak");
	rb_rounds_aborted(p, 300, &got);
	assert_int_equal(tp_prog_bpf_stats(p, &st), 0);
	assert_int_equal(st.runs, 300 * NF);
	assert_int_equal(st.aborted_helper, 300 * NF);
	assert_int_equal(st.aborted_oob, 0);
	tp_prog_close(p);
	/* stopped (OOB) while holding a reservation: counted as OOB, the
	 * record discarded, so the ring never fills */
	p = open_ok(obj("t_ringbuf.o"), "xdp_rb_oob");
	rb_rounds_aborted(p, 50, &got);
	assert_int_equal(tp_prog_bpf_stats(p, &st), 0);
	assert_int_equal(st.aborted_oob, 50 * NF);
	assert_int_equal(st.aborted_helper, 0);
	tp_prog_close(p);
	/* writes through a submitted record: OOB; the record was submitted */
	p = open_ok(obj("t_ringbuf.o"), "xdp_rb_stale");
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_all(v, XDP_ABORTED);
	assert_int_equal(tp_prog_bpf_stats(p, &st), 0);
	assert_int_equal(st.aborted_oob, NF);
	assert_int_equal(st.aborted_helper, 0);
	got.used = 0;
	assert_int_equal(tp_prog_bpf_ringbuf_consume(p, map_idx(p, "rb"), rb_collect, &got), NF);
	assert_int_equal(got.used, NF * 12);
	for (unsigned int i = 0; i < NF; i++) {
		assert_int_equal(got.buf[i * 12], 8);
		assert_memory_equal(got.buf + i * 12 + 4, &magic, 8);
	}
	free_all(m, NF);
	tp_prog_close(p);
	assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_AUTO), 0);
}

/* bpf_loop with a callback that makes a BPF-to-BPF call (t_bpfloop.c);
 * expected values from the program's documented behaviour. */
static void
test_bpf_loop(void **state)
{
	struct tp_prog *p = open_ok(obj("t_bpfloop.o"), NULL);
	struct tp_bpf_stats st;
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF];
	uint64_t calls = 0;

	(void)state;
	load_frames(m);
	for (unsigned int i = 0; i < NF; i++) {
		unsigned int s = in_f[i][0] & 15, last = s < 10 ? s : 9;
		int64_t sum = 0;

		for (unsigned int j = 0; j <= last; j++)
			sum += j * j;
		calls += last + 1;
		run(p, 0, &m[i], 1, &v[i], &k[i]);
		assert_int_equal(v[i], XDP_PASS);
		assert_int_equal((int64_t)u64_at(p, ".bss", 0, 0), s < 10 ? s + 1 : 10);
		assert_int_equal((int64_t)u64_at(p, ".bss", 0, 8), sum);
		assert_int_equal((int64_t)u64_at(p, ".bss", 0, 16), -E2BIG);
		assert_int_equal((int64_t)u64_at(p, ".bss", 0, 24), -EINVAL);
		assert_int_equal(u64_at(p, ".bss", 0, 32), calls);
	}
	free_all(m, NF);
	tp_prog_close(p);

	/* a callback that is not a function: refused by the kernel, stopped
	 * by tagpipe at run time */
	{
		char what[600];

		p = open_ok(obj("t_bpfloop.o"), NULL);
		tp_prog_bpf_describe(p, what, sizeof(what));
		tp_prog_close(p);
		if (strstr(what, "verified by the kernel") != NULL)
			open_fails(obj("t_bpfloop.o"), "xdp_loop_bad",
				   "the kernel verifier rejects it");
	}
	assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_OFF), 0);
	p = open_ok(obj("t_bpfloop.o"), "xdp_loop_bad");
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_all(v, XDP_ABORTED);
	assert_int_equal(tp_prog_bpf_stats(p, &st), 0);
	assert_int_equal(st.aborted_helper, NF);
	free_all(m, NF);
	tp_prog_close(p);
	assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_AUTO), 0);
}

/* Map-in-map (t_mim.c): the inner map a lookup gives is used by the map
 * helpers; slots set at load (BTF .values), by index and by name. */
static void
test_map_in_map(void **state)
{
	struct tp_prog *p = open_ok(obj("t_mim.o"), NULL);
	int outer = map_idx(p, "outer"), outer_h = map_idx(p, "outer_h");
	int a = map_idx(p, "inner_a"), b = map_idx(p, "inner_b"), other = map_idx(p, "other");
	struct tp_bpf_map_info info;
	struct rte_mbuf *m[NF];
	uint8_t v[NF];
	uint32_t k[NF], key0 = 0, key1 = 1, idx = 0, bad = 999;
	uint64_t bytes = 0;
	char err[256];

	(void)state;
	for (unsigned int i = 0; i < NF; i++)
		bytes += in_l[i];
	assert_int_equal(tp_prog_bpf_map_info(p, outer, &info), 0);
	assert_int_equal(info.type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	assert_int_equal(info.key_size, 4);
	assert_int_equal(info.value_size, 4);
	assert_int_equal(info.max_entries, 2);
	assert_int_equal(tp_prog_bpf_map_lookup(p, outer, &key0, &idx), 0);
	assert_int_equal(idx, a);
	assert_int_equal(tp_prog_bpf_map_lookup(p, outer, &key1, &idx), -ENOENT);
	load_frames(m);
	run(p, 0, m, NF, v, k);
	expect_all(v, XDP_TX);
	run(p, 1, m, NF, v, k);
	expect_all(v, XDP_PASS);
	assert_int_equal(u64_at(p, "inner_a", 0, 0), NF);

	idx = (uint32_t)other;
	assert_int_equal(tp_prog_bpf_map_update(p, outer, &key1, &idx, 0), -EINVAL);
	assert_int_equal(tp_prog_bpf_map_update(p, outer, &key1, &bad, 0), -EINVAL);
	idx = (uint32_t)b;
	assert_int_equal(tp_prog_bpf_map_update(p, outer, &key1, &idx, 0), 0);
	assert_int_equal(tp_prog_bpf_map_update_text(p, "outer_h:01000000=inner_a", err,
						     sizeof(err)), 0);
	assert_int_equal(tp_prog_bpf_map_lookup(p, outer_h, &key1, &idx), 0);
	assert_int_equal(idx, a);
	assert_int_equal(tp_prog_bpf_map_lookup(p, outer_h, &key0, &idx), -ENOENT);
	assert_int_not_equal(tp_prog_bpf_map_update_text(p, "outer_h:01000000=other", err,
							 sizeof(err)), 0);
	assert_non_null(strstr(err, "map 'other' (type 2, key 4, value 4, max_entries 4) is "
			       "not of map 'outer_h''s inner shape (type 2, key 4, value 8"));
	run(p, 1, m, NF, v, k);
	expect_all(v, XDP_TX);
	assert_int_equal(u64_at(p, "inner_b", 0, 0), NF);
	assert_int_equal(u64_at(p, "inner_a", 0, 0), NF);
	assert_int_equal(u64_at(p, "inner_a", 1, 0), bytes);
	assert_string_equal(dump_of(p, "outer", 2), "00000000=inner_a\n01000000=inner_b\n");
	assert_string_equal(dump_of(p, "outer_h", 1), "01000000=inner_a\n");
	/* an emptied slot: no inner map */
	assert_int_equal(tp_prog_bpf_map_delete(p, outer, &key0), 0);
	run(p, 0, m, NF, v, k);
	expect_all(v, XDP_PASS);
	assert_int_equal(u64_at(p, "inner_a", 0, 0), NF);
	free_all(m, NF);
	tp_prog_close(p);
}

/* ---- test_isa: t_isa.o's slots (progs/t_isa_ops.h) computed in C from
 * the instruction set's definitions (the kernel's Documentation/bpf/
 * standardization/instruction-set.rst): unsigned division with x / 0 = 0
 * and x % 0 = x, shift counts masked to the width, ALU32 results
 * zero-extended, byte swaps, signed and unsigned compares. */
enum isa_op {
	ISA_ADD, ISA_SUB, ISA_MUL, ISA_DIV, ISA_MOD, ISA_OR, ISA_AND, ISA_XOR,
	ISA_LSH, ISA_RSH, ISA_ARSH, ISA_MOV, ISA_NEG, ISA_BE16, ISA_BE32, ISA_BE64,
	ISA_LE16, ISA_LE32, ISA_LE64,
	ISA_EQ, ISA_NE, ISA_GT, ISA_GE, ISA_LT, ISA_LE, ISA_SGT, ISA_SGE, ISA_SLT,
	ISA_SLE, ISA_SET,
};

static uint64_t
isa_alu(int w, enum isa_op op, uint64_t a, uint64_t b)
{
	if (w == 32) {
		uint32_t x = (uint32_t)a, y = (uint32_t)b;

		switch (op) {
		case ISA_ADD: return (uint32_t)(x + y);
		case ISA_SUB: return (uint32_t)(x - y);
		case ISA_MUL: return (uint32_t)(x * y);
		case ISA_DIV: return y ? x / y : 0;
		case ISA_MOD: return y ? x % y : x;
		case ISA_OR: return x | y;
		case ISA_AND: return x & y;
		case ISA_XOR: return x ^ y;
		case ISA_LSH: return (uint32_t)(x << (y & 31));
		case ISA_RSH: return x >> (y & 31);
		case ISA_ARSH: return (uint32_t)((int32_t)x >> (y & 31));
		case ISA_MOV: return y;
		case ISA_NEG: return (uint32_t)-x;
		default: fail_msg("isa: op %d on 32 bits", op);
		}
	}
	switch (op) {
	case ISA_ADD: return a + b;
	case ISA_SUB: return a - b;
	case ISA_MUL: return a * b;
	case ISA_DIV: return b ? a / b : 0;
	case ISA_MOD: return b ? a % b : a;
	case ISA_OR: return a | b;
	case ISA_AND: return a & b;
	case ISA_XOR: return a ^ b;
	case ISA_LSH: return a << (b & 63);
	case ISA_RSH: return a >> (b & 63);
	case ISA_ARSH: return (uint64_t)((int64_t)a >> (b & 63));
	case ISA_MOV: return b;
	case ISA_NEG: return -a;
	case ISA_BE16: return __builtin_bswap16((uint16_t)a);
	case ISA_BE32: return __builtin_bswap32((uint32_t)a);
	case ISA_BE64: return __builtin_bswap64(a);
	case ISA_LE16: return (uint16_t)a;
	case ISA_LE32: return (uint32_t)a;
	case ISA_LE64: return a;
	default: fail_msg("isa: op %d", op);
	}
	return 0;
}

/* 1 when the jump is taken */
static uint64_t
isa_jmp(int w, enum isa_op c, uint64_t x, uint64_t y)
{
	int64_t sx = (int64_t)x, sy = (int64_t)y;

	if (w == 32) {
		x = (uint32_t)x;
		y = (uint32_t)y;
		sx = (int32_t)x;
		sy = (int32_t)y;
	}
	switch (c) {
	case ISA_EQ: return x == y;
	case ISA_NE: return x != y;
	case ISA_GT: return x > y;
	case ISA_GE: return x >= y;
	case ISA_LT: return x < y;
	case ISA_LE: return x <= y;
	case ISA_SGT: return sx > sy;
	case ISA_SGE: return sx >= sy;
	case ISA_SLT: return sx < sy;
	case ISA_SLE: return sx <= sy;
	case ISA_SET: return (x & y) != 0;
	default: fail_msg("isa: condition %d", c);
	}
	return 0;
}

#include "progs/t_isa_ops.h"

/* Frame bytes 0..15 for a and b: no two alike. */
static void
isa_bytes(uint64_t a, uint64_t b, uint8_t *f)
{
	for (unsigned int k = 0; k < 16; k++)
		f[k] = (uint8_t)(0x40 + 7 * k + (k < 8 ? a >> (8 * k) : b >> (8 * (k - 8))));
}

/* The bytes 0..15 t_isa.o leaves (its byte-wise block, one at a time). */
static void
isa_bytes_after(uint64_t a, uint64_t b, uint8_t *f)
{
	isa_bytes(a, b, f);
	f[1] = f[0];
	f[2] = f[1];
	f[8] = f[4];
	f[9] = f[5];
	f[10] = f[11];
	f[11] = f[12];
	f[12] = (uint8_t)a;
	f[13] = (uint8_t)(a >> 8);
}

/* The expected slots for a and b (e: room for all of them); the count. */
static unsigned int
isa_expect(uint64_t a, uint64_t b, uint64_t *e)
{
	uint64_t *e0 = e;
	/* a constant K as the instruction's imm field gives it */
#define K64(K) ((uint64_t)(int64_t)(int32_t)(K))
#define KW(W, K) ((W) == 64 ? K64(K) : (uint64_t)(uint32_t)(int32_t)(K))
#define E_BIN(W, OP, D, S) *e++ = isa_alu(W, ISA_##OP, (D) == (S) ? b : a, b);
#define E_IMM(W, OP, D, K) *e++ = isa_alu(W, ISA_##OP, a, KW(W, K));
#define E_JMP(W, C, D, S) *e++ = isa_jmp(W, ISA_##C, a, b);
#define E_JMPK(W, C, D, K) *e++ = isa_jmp(W, ISA_##C, a, KW(W, K));
	T_ISA_OPS(E_BIN, E_IMM, E_JMP, E_JMPK)
	/* t_isa.c's byte-wise block, one byte at a time on f (frame bytes
	 * 0..15, as isa_bytes() fills them) */
	{
		uint8_t f[16];

		isa_bytes(a, b, f);
		f[1] = f[0];
		f[2] = f[1];
		f[8] = f[4];
		f[9] = f[5];
		f[10] = f[11];
		f[11] = f[12];
		*e++ = f[12];                   /* r2 */
		f[12] = (uint8_t)a;
		f[13] = (uint8_t)(a >> 8);
		*e++ = (uint64_t)f[15] << 8 | f[14]; /* r3 */
		*e++ = f[14];                   /* r4 */
	}
	/* atomics, in t_isa.c's order: fetched value, value left */
	*e++ = a; *e++ = a + b;                 /* fetch_add */
	*e++ = a + b;                           /* add */
	*e++ = a & b;                           /* and */
	*e++ = a ^ b;                           /* xor */
	*e++ = a; *e++ = a & b;                 /* fetch_and */
	*e++ = a | b;                           /* or */
	*e++ = a; *e++ = a | b;                 /* fetch_or */
	*e++ = a; *e++ = a ^ b;                 /* fetch_xor */
	*e++ = a; *e++ = b;                     /* xchg */
	*e++ = a; *e++ = b;                     /* cmpxchg a -> b: swaps */
	*e++ = a; *e++ = a == b ? 7 : a;        /* cmpxchg b -> 7 */
	*e++ = (uint32_t)a; *e++ = (uint32_t)(a ^ b); /* 32-bit fetch_xor */
	*e++ = (uint32_t)a;                     /* 32-bit cmpxchg b -> a + 1 */
	*e++ = (uint32_t)a == (uint32_t)b ? (uint32_t)(a + 1) : (uint32_t)a;
	return (unsigned int)(e - e0);
}

/* Every slot of t_isa.o on chosen inputs (division by zero, 32-bit
 * divisors that are zero in a 64-bit value, shift counts past the width,
 * sign bits), run unchecked (kernel-verified, where it can be asked) and
 * checked (verification off). */
static void
test_isa(void **state)
{
	static const uint64_t in[][2] = {
		{ 0x123456789abcdef0ull, 0 },
		{ 0xfedcba9876543210ull, 3 },
		{ 0x8000000000000000ull, 0xffffffffffffffffull },
		{ 5, 0x100000000ull },
		{ 0xffffffffull, 0x1f },
		{ 0x7fffffff80000000ull, 65 },
		{ 0xdeadbeefull, 0xdeadbeefull },
		{ 1, 0x80000000ull },
		{ 0, 0 },
		{ 0xfffffffffffffff9ull, 7 },
		{ 0x80000000ull, 0xffffffff80000000ull },
		{ 0x1234, 0xffffffff00000000ull },
	};
	enum { NI = sizeof(in) / sizeof(in[0]), MAXS = 400 };
	static uint8_t frame[32 + 8 * MAXS];
	uint64_t want[MAXS];
	unsigned int ns = isa_expect(0, 0, want), len = 32 + 8 * ns;

	(void)state;
	assert_true(ns <= MAXS);
	for (int pass = 0; pass < 2; pass++) {
		struct tp_prog *p;
		struct rte_mbuf *m[NI];
		uint8_t v[NI];
		uint32_t k[NI];

		if (pass == 1)
			assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_OFF), 0);
		p = open_ok(obj("t_isa.o"), NULL);
		for (unsigned int i = 0; i < NI; i++) {
			memset(frame, 0, sizeof(frame));
			isa_bytes(in[i][0], in[i][1], frame);
			memcpy(frame + 16, &in[i][0], 8);
			memcpy(frame + 24, &in[i][1], 8);
			m[i] = tp_test_mbuf_from_bytes(mp, frame, len);
		}
		run(p, 0, m, NI, v, k);
		for (unsigned int i = 0; i < NI; i++) {
			const uint8_t *got = rte_pktmbuf_mtod(m[i], const uint8_t *);

			uint8_t f[16];

			assert_int_equal(v[i], XDP_TX);
			isa_bytes_after(in[i][0], in[i][1], f);
			if (memcmp(got, f, 16) != 0)
				fail_msg("%s%s: a %#" PRIx64 ": frame bytes 0..15 differ", mode,
					 pass ? " unverified" : "", in[i][0]);
			isa_expect(in[i][0], in[i][1], want);
			for (unsigned int s = 0; s < ns; s++) {
				uint64_t g;

				memcpy(&g, got + 32 + 8 * s, 8);
				if (g != want[s])
					fail_msg("%s%s: a %#" PRIx64 " b %#" PRIx64 ": slot %u: "
						 "%#" PRIx64 ", expected %#" PRIx64, mode,
						 pass ? " unverified" : "", in[i][0], in[i][1], s,
						 g, want[s]);
			}
		}
		free_all(m, NI);
		tp_prog_close(p);
		if (pass == 1)
			assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_AUTO), 0);
	}
}

/* ---- test_jit_vs_interp: the JIT against the interpreter, the
 * reference semantics, on every test object and Debian's objects,
 * kernel-verified (accesses unchecked) and unverified (checked), over
 * frames derived from in.pcap's: up to 4 of the first 64 bytes changed,
 * every third frame cut short. Verdicts, keys, bytes and the fault
 * counters must be the same. */
static uint32_t
lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

static uint32_t
diff_frame(unsigned int k, uint8_t *out, uint64_t *seed)
{
	uint32_t len = in_l[k % NF], nflip = lcg(seed) % 5;

	memcpy(out, in_f[k % NF], len);
	for (uint32_t i = 0; i < nflip; i++)
		out[lcg(seed) % RTE_MIN(len, 64u)] = (uint8_t)lcg(seed);
	if (k % 3 == 2)
		len = 1 + lcg(seed) % len;
	return len;
}

static void
diff_one(const char *what)
{
	enum { N = 96 };
	static uint8_t buf[RTE_MBUF_DEFAULT_DATAROOM];
	struct tp_prog *pj = NULL, *pi = NULL;
	char sj[600], si[600], ej[256] = "", ei[256] = "", desc[600];
	struct rte_mbuf *mj[N], *mi[N];
	uint8_t vj[N], vi[N];
	uint32_t kj[N], ki[N];
	struct tp_bpf_stats stj, sti;
	uint64_t seed = 1;
	int rj, ri;

	snprintf(sj, sizeof(sj), "bpf:%s", what);
	snprintf(si, sizeof(si), "bpf-interp:%s", what);
	rj = tp_prog_open(sj, &pj, ej, sizeof(ej));
	ri = tp_prog_open(si, &pi, ei, sizeof(ei));
	if (rj != ri || strcmp(ej, ei) != 0)
		fail_msg("%s: open %d '%s', interpreted %d '%s'", what, rj, ej, ri, ei);
	if (rj != 0)
		return;
	tp_prog_bpf_describe(pj, desc, sizeof(desc));
	if (strstr(desc, ", jit, ") == NULL)
		fail_msg("%s not run by the JIT: %s", what, desc);
	for (unsigned int k = 0; k < N; k++) {
		uint32_t len = diff_frame(k, buf, &seed);

		mj[k] = tp_test_mbuf_from_bytes(mp, buf, len);
		mi[k] = tp_test_mbuf_from_bytes(mp, buf, len);
	}
	run(pj, 0, mj, N, vj, kj);
	run(pi, 0, mi, N, vi, ki);
	for (unsigned int k = 0; k < N; k++) {
		if (vj[k] != vi[k] || kj[k] != ki[k])
			fail_msg("%s: frame %u: verdict %u key %u, interpreted %u key %u", what, k,
				 vj[k], kj[k], vi[k], ki[k]);
		if (rte_pktmbuf_pkt_len(mj[k]) != rte_pktmbuf_pkt_len(mi[k]) ||
		    rte_pktmbuf_data_len(mj[k]) != rte_pktmbuf_data_len(mi[k]) ||
		    memcmp(rte_pktmbuf_mtod(mj[k], const void *), rte_pktmbuf_mtod(mi[k], const void *),
			   rte_pktmbuf_data_len(mj[k])) != 0)
			fail_msg("%s: frame %u: bytes differ from the interpreter's", what, k);
	}
	assert_int_equal(tp_prog_bpf_stats(pj, &stj), 0);
	assert_int_equal(tp_prog_bpf_stats(pi, &sti), 0);
	if (stj.runs != sti.runs || stj.aborted_oob != sti.aborted_oob ||
	    stj.aborted_helper != sti.aborted_helper || stj.aborted_loop != sti.aborted_loop)
		fail_msg("%s: runs %" PRIu64 " oob %" PRIu64 " helper %" PRIu64 " loop %" PRIu64
			 ", interpreted %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, what,
			 stj.runs, stj.aborted_oob, stj.aborted_helper, stj.aborted_loop, sti.runs,
			 sti.aborted_oob, sti.aborted_helper, sti.aborted_loop);
	free_all(mj, N);
	free_all(mi, N);
	tp_prog_close(pj);
	tp_prog_close(pi);
}

static void
test_jit_vs_interp(void **state)
{
	/* FILE[:SECTION] in the build's tests/bpf (DEB: Debian's libxdp1) */
	static const char *const objs[] = {
		"t_parse.o", "t_parse_v3.o", "t_isa.o", "t_maps.o", "t_maps.o:xdp_ingress",
		"t_maps.o:xdp_lpm", "t_maps.o:xdp_lru", "t_maps.o:xdp_redirect", "t_adjust.o",
		"t_adjust.o:prog_trim", "t_adjust.o:xdp_pop", "t_bad.o", "t_bad.o:xdp_partial",
		"t_bad.o:xdp_stack", "t_bench.o", "t_bench.o:xdp_tx", "t_misc.o",
		"t_misc.o:xdp_csum", "t_legacy.o", "t_tail.o", "t_tail.o:xdp_chain",
		"t_tail.o:xdp_sub", "t_loop.o", "t_ringbuf.o", "t_ringbuf.o:xdp_rb_flags",
		"t_ringbuf.o:xdp_rb_oob", "t_ringbuf.o:xdp_rb_stale", "t_rb_legacy.o",
		"t_bpfloop.o", "t_bpfloop.o:xdp_loop_bad", "t_mim.o", "t_fib.o",
		"t_fib.o:xdp_fib", "t_fib.o:xdp_fib_args",
		DEB "xdpfilt_alw_all.o", DEB "xdpfilt_alw_eth.o", DEB "xdpfilt_alw_ip.o",
		DEB "xdpfilt_alw_tcp.o", DEB "xdpfilt_alw_udp.o", DEB "xdpfilt_dny_all.o",
		DEB "xdpfilt_dny_eth.o", DEB "xdpfilt_dny_ip.o", DEB "xdpfilt_dny_tcp.o",
		DEB "xdpfilt_dny_udp.o", DEB "xsk_def_xdp_prog.o", DEB "xsk_def_xdp_prog_5.3.o",
		DEB "xdp-dispatcher.o", DEB "xdpdump_xdp.o",
	};
	char what[512];

	(void)state;
	if (strcmp(mode, "bpf:") != 0)
		skip(); /* the test opens both modes itself */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1)
			assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_OFF), 0);
		for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
			const char *o = objs[i];

			if (o[0] == '/') {
				char file[300];

				snprintf(file, sizeof(file), "%.*s", (int)strcspn(o, ":"), o);
				if (!have(file))
					continue;
				snprintf(what, sizeof(what), "%s", o);
			} else {
				char file[64];
				size_t n = strcspn(o, ":");

				snprintf(file, sizeof(file), "%.*s", (int)n, o);
				snprintf(what, sizeof(what), "%s%s", obj(file), o + n);
			}
			diff_one(what);
		}
		if (pass == 1)
			assert_int_equal(tp_prog_bpf_set_verify(TP_BPF_VERIFY_AUTO), 0);
	}
}

/* meson runs this suite with no C compiler reachable (tests/meson.build,
 * tp_nocc_env): the JIT must not need one. Names a compiler found, or NULL. */
static const char *
compiler_reachable(void)
{
	static char found[600];
	static const char *const cc[] = { "cc", "gcc", "clang" };
	const char *path = getenv("PATH");

	if (getenv("CC") != NULL)
		return "$CC is set";
	for (const char *d = path ? path : ""; *d != '\0';) {
		size_t n = strcspn(d, ":");

		for (size_t k = 0; k < sizeof(cc) / sizeof(cc[0]); k++) {
			snprintf(found, sizeof(found), "%.*s/%s", (int)n, d, cc[k]);
			if (n > 0 && access(found, X_OK) == 0)
				return found;
		}
		d += n + (d[n] == ':');
	}
	return NULL;
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_v3),
		cmocka_unit_test(test_isa),
		cmocka_unit_test(test_jit_vs_interp),
		cmocka_unit_test(test_meta),
		cmocka_unit_test(test_csum),
		cmocka_unit_test(test_frags),
		cmocka_unit_test(test_hook_by_section),
		cmocka_unit_test(test_trace_printk),
		cmocka_unit_test(test_exec_info),
		cmocka_unit_test(test_libbpf_crash_refused),
		cmocka_unit_test(test_legacy_maps),
		cmocka_unit_test(test_hash_counter),
		cmocka_unit_test(test_redirect),
		cmocka_unit_test(test_broadcast),
		cmocka_unit_test(test_cpumap),
		cmocka_unit_test(test_fib_lookup),
		cmocka_unit_test(test_router),
		cmocka_unit_test(test_check_mtu_and_sockets),
		cmocka_unit_test(test_lb),
		cmocka_unit_test(test_lru),
		cmocka_unit_test(test_lpm),
		cmocka_unit_test(test_btf_text),
		cmocka_unit_test(test_adjust),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_frames_only_linear),
		cmocka_unit_test(test_tail_calls),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_kernel_verifier),
		cmocka_unit_test(test_xdpfilt_udp),
		cmocka_unit_test(test_debian_objects),
		cmocka_unit_test(test_xsk_default),
		cmocka_unit_test(test_xdpdump),
		cmocka_unit_test(test_ringbuf),
		cmocka_unit_test(test_ringbuf_wakeup),
		cmocka_unit_test(test_ringbuf_unverified),
		cmocka_unit_test(test_bpf_loop),
		cmocka_unit_test(test_map_in_map),
	};

	const char *cc = compiler_reachable();
	int failed;

	if (cc != NULL) {
		fprintf(stderr, "test_bpf: a C compiler is reachable (%s); run through "
			"meson test, which removes them\n", cc);
		return 1;
	}
	failed = cmocka_run_group_tests_name("jit", tests, setup, teardown);
	mode = "bpf-interp:";
	failed += cmocka_run_group_tests_name("interpreted", tests, setup, teardown);
	return failed;
}
