/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the tests/bpf test binaries (one include per binary): the
 * frames of gen_bpf_frames.py loaded once per group, paths of the
 * objects meson built, and the mempool accounting.
 */
#ifndef BPF_TEST_H
#define BPF_TEST_H

#include <stdio.h>

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
	tp_test_pcap_free(in_f, in_l, NF);
	return 0;
}

#endif /* BPF_TEST_H */
