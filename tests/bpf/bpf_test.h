/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the tests/bpf test binaries (one include per binary): the
 * frames of gen_bpf_frames.py loaded once per group, paths of the
 * objects meson built, and the mempool accounting.
 */
#ifndef BPF_TEST_H
#define BPF_TEST_H

#include <stdio.h>
#include <string.h>

#include "tp_test.h"

#define NF 8                 /* frames in in.pcap */
#define DEB "/usr/lib/x86_64-linux-gnu/bpf/"

static struct rte_mempool *mp;
static uint8_t **in_f;
static uint32_t *in_l;
static unsigned int start_use;

/* Path of a built test object (tests/bpf/NAME), or NAME when absolute. */
static const char *
obj(const char *name)
{
	static char buf[8][512];
	static int k;
	char rel[256];

	if (name[0] == '/')
		return name;
	snprintf(rel, sizeof(rel), "tests/bpf/%s", name);
	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "%s", tp_test_build_path(rel));
	return buf[k];
}

/* The kernel's XDP test frame (net/bpf/test_run.c, include/net/xdp.h): a
 * 4096-byte page, 256 bytes of headroom (XDP_PACKET_HEADROOM), 320 at the
 * end for skb_shared_info, so 3520 bytes of data; a frame longer than
 * that continues in fragments of a page each. */
#define KFRAME_HEADROOM 256
#define KFRAME_DATA 3520
#define KFRAME_BUF (KFRAME_HEADROOM + KFRAME_DATA)

static struct rte_mempool *kpool;

/* An mbuf laid out as the kernel lays out len bytes of data: the first
 * KFRAME_DATA bytes after KFRAME_HEADROOM of headroom, the rest in more
 * segments (default headroom) of the same pool. */
static inline struct rte_mbuf *
kframe_mbuf(const uint8_t *data, uint32_t len)
{
	struct rte_mbuf *head, *seg;
	uint32_t off = 0;

	if (kpool == NULL)
		kpool = tp_test_pool_create("bpf_kframe", 64, KFRAME_BUF);
	head = rte_pktmbuf_alloc(kpool);
	assert_non_null(head);
	head->data_off = KFRAME_HEADROOM;
	off = RTE_MIN(len, (uint32_t)KFRAME_DATA);
	memcpy(rte_pktmbuf_append(head, (uint16_t)off), data, off);
	while (off < len) {
		uint32_t n = RTE_MIN(len - off, (uint32_t)KFRAME_DATA);

		seg = tp_test_mbuf_from_bytes(kpool, data + off, n);
		assert_int_equal(rte_pktmbuf_chain(head, seg), 0);
		off += n;
	}
	return head;
}

/* t_lb's configuration (the one gen_bpf_frames.py built lb_out.pcap for):
 * VIPs 192.168.1.1:80/TCP (vip_num 0) and 192.168.1.2:9/UDP (vip_num 1),
 * ring slot i -> real i % 5, real r < 4 at 10.1.0.(10 + r) behind
 * 02:00:00:00:01:0r, real 4 of address 0. upd(ctx, map, key, value)
 * writes one element and returns 0. */
typedef int (*lb_update_fn)(void *ctx, const char *map, const void *key,
			    const void *value);

static inline void
lb_configure(lb_update_fn upd, void *ctx)
{
	static const struct { uint8_t key[8]; uint32_t meta[2]; } vips[] = {
		{ { 192, 168, 1, 1, 0, 80, 6, 0 }, { 0, 0 } },
		{ { 192, 168, 1, 2, 0, 9, 17, 0 }, { 0, 1 } },
	};

	for (unsigned int i = 0; i < 2; i++)
		assert_int_equal(upd(ctx, "vips", vips[i].key, vips[i].meta), 0);
	for (uint32_t slot = 0; slot < 64; slot++) {
		uint32_t real = slot % 5;

		assert_int_equal(upd(ctx, "ring", &slot, &real), 0);
	}
	for (uint32_t r = 0; r < 5; r++) {
		uint8_t real[12] = { 10, 1, 0, (uint8_t)(10 + r), 2, 0, 0, 0, 1, (uint8_t)r };

		if (r == 4)
			memset(real, 0, sizeof(real));
		assert_int_equal(upd(ctx, "reals", &r, real), 0);
	}
}

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	mp = tp_test_pool_create("bpf", 256, 0);
	assert_int_equal(tp_test_pcap_read(tp_test_build_path("tests/bpf/in.pcap"),
					   &in_f, &in_l, NULL), NF);
	start_use = tp_test_pool_in_use(mp);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	TP_TEST_ASSERT_POOL_BACK(mp, start_use);
	if (kpool != NULL)
		assert_int_equal(tp_test_pool_in_use(kpool), 0);
	tp_test_pcap_free(in_f, in_l, NF);
	return 0;
}

#endif /* BPF_TEST_H */
