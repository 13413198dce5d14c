/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe against the kernel on the same frames: each object runs in the
 * running kernel through BPF_PROG_TEST_RUN (libbpf bpf_prog_test_run_opts)
 * and in tagpipe (compiled, then interpreted), and the verdicts, the output
 * bytes and the map side effects must agree. Skipped where this process may not load BPF.
 * The 10-byte runt (frame 5) is left out: the kernel's test run refuses
 * input shorter than an Ethernet header. The helpers that ask the device
 * or the sockets run last, in a network namespace of the test's own
 * (unshare(2)): no sockets, lo of MTU 1500 as a tagpipe port that is no
 * ethdev, forwarding on.
 */
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "bpf_test.h"
#include "tp_bpf.h"



struct kprog {
	struct bpf_object *obj;
	int fd;
};

static int
quiet(enum libbpf_print_level l, const char *f, va_list ap)
{
	(void)l; (void)f; (void)ap;
	return 0;
}

/* Load function func of file into the kernel; fd -1 when not allowed. */
static struct kprog
kload(const char *file, const char *func)
{
	struct kprog k = { NULL, -1 };
	struct bpf_program *p;
	struct bpf_map *m;

	libbpf_set_print(quiet);
	k.obj = bpf_object__open_file(file, NULL);
	assert_non_null(k.obj);
	bpf_object__for_each_program(p, k.obj) {
		if (strcmp(bpf_program__name(p), func) == 0) {
			bpf_program__set_type(p, BPF_PROG_TYPE_XDP);
			/* what libbpf's "xdp.frags" section means */
			if (strcmp(bpf_program__section_name(p), "xdp.frags") == 0)
				bpf_program__set_flags(p, bpf_program__flags(p) |
						       BPF_F_XDP_HAS_FRAGS);
		} else
			bpf_program__set_autoload(p, false);
	}
	bpf_object__for_each_map(m, k.obj)
		bpf_map__set_pin_path(m, NULL);
	if (bpf_object__load(k.obj) == 0)
		k.fd = bpf_program__fd(bpf_object__find_program_by_name(k.obj, func));
	return k;
}

/* "bpf:" (compiled) or "bpf-interp:": every comparison runs in both. */
static const char *mode = "bpf:";

static struct tp_prog *
topen(const char *file, const char *sel)
{
	char spec[600], err[256] = "";
	struct tp_prog *p = NULL;

	snprintf(spec, sizeof(spec), "%s%s%s%s", mode, file, sel ? ":" : "", sel ? sel : "");
	if (tp_prog_open(spec, &p, err, sizeof(err)) != 0)
		fail_msg("open %s: %s", spec, err);
	return p;
}

/* Run both on frames 0..7 but the runt; compare verdicts and bytes. */
static void
compare_runs(struct kprog *k, struct tp_prog *t)
{
	struct tp_prog_env env = { .priv = tp_prog_priv(t) };

	for (unsigned int i = 0; i < NF; i++) {
		uint8_t out[256];
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = in_f[i],
			    .data_size_in = in_l[i], .data_out = out,
			    .data_size_out = sizeof(out), .repeat = 1);
		struct rte_mbuf *m;
		uint8_t v;
		uint32_t key;

		if (i == 5)
			continue;
		assert_int_equal(bpf_prog_test_run_opts(k->fd, &o), 0);
		m = tp_test_mbuf_from_bytes(mp, in_f[i], in_l[i]);
		tp_prog_ops_of(t)->burst(&env, &m, 1, &v, &key);
		if (v != o.retval)
			fail_msg("frame %u: tagpipe verdict %u, kernel %u", i, v, o.retval);
		tp_test_assert_mbuf_bytes(m, out, o.data_size_out);
		rte_pktmbuf_free(m);
	}
}

static struct bpf_map *
kmap(struct kprog *k, const char *suffix)
{
	struct bpf_map *m;
	size_t sl = strlen(suffix);

	bpf_object__for_each_map(m, k->obj) {
		const char *n = bpf_map__name(m);
		size_t nl = strlen(n);

		if (nl >= sl && strcmp(n + nl - sl, suffix) == 0)
			return m;
	}
	fail_msg("kernel map *%s not found", suffix);
	return NULL;
}

/* Programs without map configuration: verdicts and bytes. */
static void
test_same_as_kernel(void **state)
{
	static const struct { const char *file, *func, *sel; } c[] = {
		{ "t_parse.o", "xdp_parse", NULL },
		{ "t_parse_v3.o", "xdp_parse", NULL },
		{ "t_adjust.o", "xdp_vlan_push", NULL },
		{ "t_adjust.o", "xdp_vlan_pop", "xdp_pop" },
		{ "t_adjust.o", "prog_trim", "xdp_trim" },
		{ "t_misc.o", "prog_csum", "xdp_csum" },
		{ DEB "xdpfilt_alw_all.o", "xdpfilt_alw_all", NULL },
		{ DEB "xdpfilt_dny_all.o", "xdpfilt_dny_all", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct kprog k;
		struct tp_prog *t;

		if (access(obj(c[i].file), R_OK) != 0)
			continue;
		k = kload(obj(c[i].file), c[i].func);
		if (k.fd < 0) {
			bpf_object__close(k.obj);
			skip();
		}
		t = topen(obj(c[i].file), c[i].sel);
		compare_runs(&k, t);
		if (i <= 1) { /* .data: seen = 1000 + IPv4 frames, both sides */
			uint32_t zero = 0;
			uint64_t ks, ts;
			uint8_t buf[64];

			assert_int_equal(bpf_map__lookup_elem(kmap(&k, ".data"), &zero, 4,
							      &ks, 8, 0), 0);
			assert_int_equal(tp_prog_bpf_map_lookup(t, tp_prog_bpf_map_find(t, ".data"),
								&zero, buf), 0);
			memcpy(&ts, buf, 8);
			assert_int_equal(ks, 1004);
			assert_int_equal(ts, ks);
		}
		tp_prog_close(t);
		bpf_object__close(k.obj);
	}
}

/* xdp-filter with UDP port 9 in filter_ports, both sides; stats summed
 * over CPUs must agree. */
static void
test_xdpfilt_same_as_kernel(void **state)
{
	const char *files[2] = { DEB "xdpfilt_dny_udp.o", DEB "xdpfilt_alw_udp.o" };
	const char *funcs[2] = { "xdpfilt_dny_udp", "xdpfilt_alw_udp" };

	(void)state;
	if (access(files[0], R_OK) != 0)
		skip();
	for (int f = 0; f < 2; f++) {
		int kn = libbpf_num_possible_cpus();
		struct kprog k = kload(files[f], funcs[f]);
		struct tp_prog *t;
		struct tp_bpf_map_info info;
		uint32_t port = rte_cpu_to_be_16(9);
		uint64_t *kv, tv[256 * 2];
		int fp;

		if (k.fd < 0) {
			bpf_object__close(k.obj);
			skip();
		}
		kv = calloc((size_t)kn * 2, sizeof(uint64_t));
		for (int c = 0; c < kn; c++)
			kv[c] = 2 | 8;
		assert_int_equal(bpf_map__update_elem(kmap(&k, "filter_ports"), &port, 4, kv,
						      (size_t)kn * 8, 0), 0);
		t = topen(files[f], NULL);
		fp = tp_prog_bpf_map_find(t, "filter_ports");
		assert_int_equal(tp_prog_bpf_map_info(t, fp, &info), 0);
		for (uint32_t c = 0; c < info.ncpu; c++)
			tv[c] = 2 | 8;
		assert_int_equal(tp_prog_bpf_map_update(t, fp, &port, tv, 0), 0);
		compare_runs(&k, t);
		for (uint32_t act = 0; act <= XDP_REDIRECT; act++) {
			uint64_t ksum[2] = { 0, 0 }, tsum[2] = { 0, 0 };
			int sm = tp_prog_bpf_map_find(t, "xdp_stats_map");

			assert_int_equal(bpf_map__lookup_elem(kmap(&k, "xdp_stats_map"), &act, 4,
							      kv, (size_t)kn * 16, 0), 0);
			for (int c = 0; c < kn; c++) {
				ksum[0] += kv[2 * c];
				ksum[1] += kv[2 * c + 1];
			}
			assert_int_equal(tp_prog_bpf_map_info(t, sm, &info), 0);
			assert_int_equal(tp_prog_bpf_map_lookup(t, sm, &act, tv), 0);
			for (uint32_t c = 0; c < info.ncpu; c++) {
				tsum[0] += tv[2 * c];
				tsum[1] += tv[2 * c + 1];
			}
			assert_int_equal(tsum[0], ksum[0]);
			assert_int_equal(tsum[1], ksum[1]);
		}
		free(kv);
		tp_prog_close(t);
		bpf_object__close(k.obj);
	}
}

struct lb_both {
	struct kprog *k;
	struct tp_prog *t;
};

static int
lb_update_both(void *ctx, const char *map, const void *key, const void *value)
{
	struct lb_both *b = ctx;
	struct bpf_map *km = kmap(b->k, map);

	assert_int_equal(bpf_map__update_elem(km, key, bpf_map__key_size(km), value,
					      bpf_map__value_size(km), 0), 0);
	return tp_prog_bpf_map_update(b->t, tp_prog_bpf_map_find(b->t, map), key, value, 0);
}

/* u64 slot of ARRAY map name, both sides equal; returns it. */
static uint64_t
same_u64(struct kprog *k, struct tp_prog *t, const char *name, uint32_t slot,
	 unsigned int off)
{
	struct bpf_map *km = kmap(k, name);
	uint8_t kv[64], tv[64];
	uint64_t a, b;

	assert_int_equal(bpf_map__lookup_elem(km, &slot, 4, kv, bpf_map__value_size(km), 0),
			 0);
	assert_int_equal(tp_prog_bpf_map_lookup(t, tp_prog_bpf_map_find(t, name), &slot, tv),
			 0);
	memcpy(&a, kv + off, 8);
	memcpy(&b, tv + off, 8);
	if (a != b)
		fail_msg("%s[%u] +%u: kernel %llu, tagpipe %llu", name, slot, off,
			 (unsigned long long)a, (unsigned long long)b);
	return a;
}

/* The Katran-style balancer (BPF-to-BPF calls, one returning nothing;
 * byte swaps before r0 is set; LRU, jhash, IP-in-IP): same verdicts,
 * bytes and counters, twice (the second time from the connection table). */
static void
test_lb_same_as_kernel(void **state)
{
	struct kprog k = kload(obj("t_lb.o"), "xdp_lb");
	struct tp_prog *t;
	struct lb_both both;

	(void)state;
	if (k.fd < 0) {
		bpf_object__close(k.obj);
		skip();
	}
	t = topen(obj("t_lb.o"), NULL);
	both = (struct lb_both){ &k, t };
	lb_configure(lb_update_both, &both);
	compare_runs(&k, t);
	compare_runs(&k, t);
	for (uint32_t s = 0; s < 4; s++)
		same_u64(&k, t, "stats", s, 0);
	assert_int_equal(same_u64(&k, t, "stats", 0, 0), 4);
	assert_int_equal(same_u64(&k, t, "stats", 2, 0), 2);
	tp_prog_close(t);
	bpf_object__close(k.obj);
}

/* t_grow's function asks for each length of want[] on a fresh packet of
 * len bytes (tagpipe's laid out as the kernel's test frame, kframe_mbuf):
 * verdict, return code, length and bytes as the kernel's. */
static void
grow_same(const char *func, uint32_t len, const uint32_t *want, unsigned int n)
{
	struct kprog k = kload(obj("t_grow.o"), func);
	uint8_t *in = calloc(1, len), *kout = malloc(16384), *tout = malloc(16384);
	struct tp_prog *t;

	assert_non_null(in);
	assert_non_null(kout);
	assert_non_null(tout);
	if (k.fd < 0) {
		bpf_object__close(k.obj);
		free(in);
		free(kout);
		free(tout);
		skip();
	}
	memcpy(in, in_f[0], in_l[0]);
	t = topen(obj("t_grow.o"), func);
	for (unsigned int i = 0; i < n; i++) {
		struct tp_prog_env env = { .priv = tp_prog_priv(t) };
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = in, .data_size_in = len,
			    .data_out = kout, .data_size_out = 16384, .repeat = 1);
		struct lb_both both = { &k, t };
		uint32_t zero = 0, tl, key;
		struct rte_mbuf *m;
		uint8_t v;

		assert_int_equal(lb_update_both(&both, "cfg", &zero, &want[i]), 0);
		assert_int_equal(bpf_prog_test_run_opts(k.fd, &o), 0);
		m = kframe_mbuf(in, len);
		tp_prog_ops_of(t)->burst(&env, &m, 1, &v, &key);
		if (v != o.retval)
			fail_msg("%s, %u -> %u bytes: tagpipe verdict %u, kernel %u", func, len,
				 want[i], v, o.retval);
		same_u64(&k, t, "out", 0, 0);
		same_u64(&k, t, "out", 1, 0);
		tl = tp_test_mbuf_to_bytes(m, tout, 16384);
		assert_int_equal(tl, o.data_size_out);
		assert_memory_equal(tout, kout, tl);
		rte_pktmbuf_free(m);
	}
	tp_prog_close(t);
	bpf_object__close(k.obj);
	free(in);
	free(kout);
	free(tout);
}

/* bpf_xdp_adjust_tail at the limits of the kernel's frame: a 128-byte
 * frame grows to 3520 bytes and not one more; a 5000-byte one of two
 * buffers grows in its last and is cut across them. */
static void
test_grow_same_as_kernel(void **state)
{
	static const uint32_t lin[] = { 3520, 3521, 200, 60, 14, 13 };
	static const uint32_t frags[] = { 5100, 5000, 4000, 3520, 3000, 14, 13 };

	(void)state;
	grow_same("xdp_grow", 128, lin, RTE_DIM(lin));
	grow_same("xdp_grow_frags", 5000, frags, RTE_DIM(frags));
}

/* Redirect maps: DEVMAP broadcast (BPF_F_BROADCAST, with and without
 * BPF_F_EXCLUDE_INGRESS), CPUMAP by CPU, broadcast refused on a CPUMAP, a
 * miss after a target. Entries name ifindex 1 (lo in the kernel, port 0
 * in tagpipe) and CPU 0, which every machine has. */
static void
test_redirect_maps_same_as_kernel(void **state)
{
	static const char *const funcs[] = {
		"xdp_bcast", "xdp_bcast_all", "xdp_cpu", "xdp_cpu_bcast", "xdp_stale",
	};

	(void)state;
	for (size_t i = 0; i < RTE_DIM(funcs); i++) {
		struct kprog k = kload(obj("t_bcast.o"), funcs[i]);
		uint32_t zero = 0, lo = 1, dv[2] = { 1, 0 }, cv[2] = { 64, 0 };
		struct lb_both both;
		struct tp_prog *t;

		if (k.fd < 0) {
			bpf_object__close(k.obj);
			skip();
		}
		t = topen(obj("t_bcast.o"), funcs[i]);
		both = (struct lb_both){ &k, t };
		assert_int_equal(lb_update_both(&both, "ports", &zero, &lo), 0);
		assert_int_equal(lb_update_both(&both, "ports_hash", &zero, dv), 0);
		assert_int_equal(lb_update_both(&both, "cpus", &zero, cv), 0);
		compare_runs(&k, t);
		tp_prog_close(t);
		bpf_object__close(k.obj);
	}
}

/* Set the MTU of this network namespace's loopback device (SIOCSIFMTU). */
static int
lo_mtu(int mtu)
{
	struct ifreq ifr = { .ifr_mtu = mtu };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), rc;

	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	rc = ioctl(fd, SIOCSIFMTU, &ifr);
	close(fd);
	return rc;
}

/* Write "1" to a sysctl file: 0 or -1. */
static int
sysctl_one(const char *path)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (f == NULL)
		return -1;
	rc = fputs("1\n", f) < 0 ? -1 : 0;
	return fclose(f) != 0 ? -1 : rc;
}

/* In a network namespace of its own (no sockets, lo of MTU 1500, so the
 * kernel's test device matches a tagpipe port that is no ethdev):
 * bpf_check_mtu's cases, the socket lookups, and the router with
 * bpf_check_mtu (neither side has a route: both pass). */
static void
test_netns_helpers_same_as_kernel(void **state)
{
	static const struct { const char *file, *func, *sel; } c[] = {
		{ "t_helpers.o", "xdp_mtu", "xdp_mtu" },
		{ "t_helpers.o", "xdp_sk", "xdp_sk" },
		{ "t_fib.o", "xdp_router", "xdp_router" },
	};

	(void)state;
	/* forwarding on (a new namespace starts with it off: FWD_DISABLED,
	 * which tagpipe's ports never answer) */
	if (unshare(CLONE_NEWNET) != 0 || lo_mtu(1500) != 0 ||
	    sysctl_one("/proc/sys/net/ipv4/ip_forward") != 0 ||
	    sysctl_one("/proc/sys/net/ipv6/conf/all/forwarding") != 0) {
		print_message("no network namespace of our own: %s\n", strerror(errno));
		skip();
	}
	for (size_t i = 0; i < RTE_DIM(c); i++) {
		struct kprog k = kload(obj(c[i].file), c[i].func);
		struct tp_prog *t;

		if (k.fd < 0) {
			bpf_object__close(k.obj);
			skip();
		}
		t = topen(obj(c[i].file), c[i].sel);
		compare_runs(&k, t);
		if (i == 0) {
			for (uint32_t s = 0; s < 8; s++) {
				same_u64(&k, t, "mtu", s, 0);
				same_u64(&k, t, "mtu", s, 8);
			}
			assert_int_equal(same_u64(&k, t, "mtu", 0, 8) & 0xffffffff, 1500);
			assert_int_equal((int64_t)same_u64(&k, t, "mtu", 2, 0),
					 BPF_MTU_CHK_RET_FRAG_NEEDED);
		} else if (i == 1) {
			assert_int_equal(same_u64(&k, t, "socks", 0, 0), 3 * (NF - 1));
			assert_int_equal(same_u64(&k, t, "socks", 1, 0), 0);
		} else {
			/* no route on either side: 5 IP frames NOT_FWDED */
			for (uint32_t s = 0; s < 16; s++)
				same_u64(&k, t, "rcs", s, 0);
			assert_int_equal(same_u64(&k, t, "rcs", BPF_FIB_LKUP_RET_NOT_FWDED, 0), 5);
		}
		tp_prog_close(t);
		bpf_object__close(k.obj);
	}
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_kernel),
		cmocka_unit_test(test_xdpfilt_same_as_kernel),
		cmocka_unit_test(test_lb_same_as_kernel),
		cmocka_unit_test(test_redirect_maps_same_as_kernel),
		cmocka_unit_test(test_grow_same_as_kernel),
		/* last: it moves the process into a network namespace (a new
		 * one each time) */
		cmocka_unit_test(test_netns_helpers_same_as_kernel),
	};
	int failed;

	failed = cmocka_run_group_tests_name("compiled", tests, setup, teardown);
	mode = "bpf-interp:";
	failed += cmocka_run_group_tests_name("interpreted", tests, setup, teardown);
	return failed;
}
