/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Strip benchmark: TSC cycles per packet for every tagger's RX strip, for
 * single and double VLAN strip, and for DSA strip + QinQ strip (two calls,
 * and for dsa/edsa also the fused pass tp_dsa_vlan_strip_prefix that the
 * pipeline runs), in bursts of 32 mbufs, side by side with DPDK's
 * rte_vlan_strip() on the same frames.
 * Hot cache (the same 32 mbufs every burst); only the strip calls are timed
 * (frames are restored outside the timed region). Each figure is the median
 * burst minus the empty timed region's median, and in parentheses the best
 * burst minus the best empty one (the machine is shared, so medians carry
 * other processes' noise). Prints figures; never fails on time (it fails
 * only if a frame is not stripped, which would make a figure meaningless).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ether.h>

#include "tp_test.h"
#include "tp_dsa_tag.h"
#include "tp_vlan.h"

#define BURST 32
#define SETS 1       /* bursts timed back to back per sample */
#define ROUNDS 20000 /* samples per figure */
#define FRAME_LEN 128

static struct rte_mempool *mp;
static struct rte_mbuf *pkts[SETS][BURST];
static uint8_t frame[FRAME_LEN + 32];
static uint16_t frame_len;

/* One valid RX tag per tagger (docs/ref/dsa-tags.md §3 layouts), port 3 where possible. */
static const struct {
	const char *name;
	const char *tag;
} rx_tags[] = {
	{ "none", "" },
	{ "brcm", "00 00 20 03" }, { "brcm-prepend", "00 00 20 03" },
	{ "brcm-legacy", "88 74 00 00 00 03" }, { "dsa", "c0 18 00 00" },
	{ "edsa", "da da 00 00 c0 18 00 00" }, { "gswip", "00 00 00 00 00 00 00 30" },
	{ "ksz8795", "03" }, { "ksz9477", "03" }, { "ksz9893", "02" }, { "lan937x", "03" },
	{ "ksz8463", "02" }, { "hellcreek", "03" }, { "xrs700x", "08" },
	{ "trailer", "80 03 00 00" }, { "lan9303", "81 00 00 03" }, { "mtk", "00 03 00 00" },
	{ "mt7628", "81 08 0c 03" }, { "qca", "80 03" }, { "ar9331", "33 40" },
	{ "ocelot", "88 80 00 0a 00 00 00 00 00 00 00 00 00 00 18 00 00 04 00 64" },
	{ "seville", "88 80 00 05 00 00 00 00 00 00 00 00 00 00 18 00 00 04 00 64" },
	{ "rtl4a", "88 99 a0 03" }, { "rtl8_4", "88 99 04 00 00 00 00 03" },
	{ "rtl8_4t", "88 99 04 00 00 00 00 03" }, { "a5psw", "e0 01 00 03 00 00 00 00" },
	{ "yt921x", "99 88 00 00 9d 80 00 00" }, { "gsw1xx", "88 c3 03 00 00 00 00 00" },
	{ "mxl862xx", "88 c3 00 00 00 00 00 03" }, { "nxp_netc", "fd 3a 00 00 19 00" },
	{ "ocelot-8021q", "81 00 0c 03" }, { "vsc73xx-8021q", "81 00 0c 03" },
	{ "sja1105", "da db 0c 03" }, { "sja1110", "da db 0c 03" },
};

/* Put the tagged frame (tag at the tagger's position, VLAN tags inside). */
static void
build(const struct tp_dsa_tagger *t, const char *taghex, unsigned int nvlan)
{
	uint8_t tag[32], inner[FRAME_LEN];
	size_t tl = t != NULL ? tp_test_hex(taghex, tag, sizeof(tag)) : 0;
	unsigned int i, off = 12, len;

	memset(inner, 0x5a, sizeof(inner));
	for (i = 0; i < 12; i++)
		inner[i] = (uint8_t)(i + 1);
	if (nvlan == 2) {
		memcpy(inner + off, "\x88\xa8\x00\xc8", 4);
		off += 4;
	}
	if (nvlan >= 1) {
		memcpy(inner + off, "\x81\x00\x07\xd1", 4);
		off += 4;
	}
	inner[off] = 0x08;
	inner[off + 1] = 0x00;
	len = FRAME_LEN - (unsigned int)tl;
	if (t == NULL || t->position == TP_DSA_POS_NONE) {
		memcpy(frame, inner, len);
	} else if (t->position == TP_DSA_POS_BEFORE_DA) {
		memcpy(frame, tag, tl);
		memcpy(frame + tl, inner, len);
	} else if (t->position == TP_DSA_POS_AFTER_SA) {
		memcpy(frame, inner, 12);
		memcpy(frame + 12, tag, tl);
		memcpy(frame + 12 + tl, inner + 12, len - 12);
	} else {
		memcpy(frame, inner, len);
		memcpy(frame + len, tag, tl);
	}
	frame_len = FRAME_LEN;
}

/* Restore all mbufs to the frame (outside the timed region). */
static void
reset(void)
{
	unsigned int i;

	for (i = 0; i < SETS * BURST; i++) {
		struct rte_mbuf *m = pkts[i / BURST][i % BURST];

		m->data_off = RTE_PKTMBUF_HEADROOM;
		m->data_len = frame_len;
		m->pkt_len = frame_len;
		m->ol_flags = 0;
		memcpy(rte_pktmbuf_mtod(m, uint8_t *), frame, frame_len);
	}
}

enum what { W_EMPTY, W_DSA, W_VLAN, W_RTE_VLAN, W_DSA_VLAN, W_FUSED };

static uint64_t samples[ROUNDS];
static double last_min, min_overhead; /* best burst of the last run() */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Median cycles per packet over ROUNDS bursts (robust against the other
 * processes sharing the cores), minus the timer overhead. */
static double
run(enum what w, const struct tp_dsa_tagger *t, double overhead)
{
	struct tp_dsa_stats ds = { 0 };
	struct tp_vlan_stats vs = { 0 };
	unsigned int r, i, b, k = BURST;

	for (r = 0; r < ROUNDS; r++) {
		uint64_t t0, t1;

		reset();
		t0 = rte_rdtsc_precise();
		for (b = 0; b < SETS; b++) {
			struct rte_mbuf **pk = pkts[b];

			switch (w) {
			case W_EMPTY:
				break;
			case W_DSA:
				k = tp_dsa_strip_burst(t, pk, BURST, NULL, NULL, &ds);
				break;
			case W_VLAN:
				k = tp_vlan_strip_burst(NULL, pk, BURST, NULL, &vs);
				break;
			case W_RTE_VLAN:
				for (i = 0; i < BURST; i++)
					rte_vlan_strip(pk[i]);
				break;
			case W_DSA_VLAN:
				k = tp_dsa_strip_burst(t, pk, BURST, NULL, NULL, &ds);
				k = tp_vlan_strip_burst(NULL, pk, k, NULL, &vs);
				break;
			case W_FUSED:
				/* as the pipeline runs it; it takes every frame here */
				k = tp_dsa_vlan_strip_prefix(t, pk, BURST, NULL, NULL, &ds, &vs);
				break;
			}
			if (k != BURST) {
				fprintf(stderr, "bench: %s dropped frames\n", t ? t->name : "vlan");
				exit(1);
			}
		}
		t1 = rte_rdtsc_precise();
		samples[r] = t1 - t0;
	}
	qsort(samples, ROUNDS, sizeof(samples[0]), cmp_u64);
	last_min = (double)samples[0] / (SETS * BURST) - min_overhead;
	return (double)samples[ROUNDS / 2] / (SETS * BURST) - overhead;
}

struct fig {
	double med, min;
};

static struct fig
measure(enum what w, const struct tp_dsa_tagger *t, double ovh)
{
	struct fig f;

	f.med = run(w, t, ovh);
	f.min = last_min;
	return f;
}

int
main(void)
{
	struct fig v1, v2, r1, worst = { 0, 0 }, worst_min = { 0, 0 }, edsa_fused = { 0, 0 };
	const char *worst_name = "", *worst_min_name = "";
	double ovh;
	unsigned int i;

	tp_test_eal_init_bench();
	if (tp_dsa_meta_register() != 0)
		return 1;
	mp = tp_test_pool_create("bench", SETS * BURST + 64, 0);
	for (i = 0; i < SETS; i++)
		if (rte_pktmbuf_alloc_bulk(mp, pkts[i], BURST) != 0)
			return 1;
	build(NULL, "", 0);
	ovh = run(W_EMPTY, NULL, 0);
	min_overhead = 0;
	min_overhead = last_min;
	printf("bench_tags: TSC %.2f GHz; %d samples of %d bursts of %d mbufs; cycles/pkt as\n"
	       "  median sample (best sample), timer overhead %.2f (%.2f) subtracted\n",
	       rte_get_tsc_hz() / 1e9, ROUNDS, SETS, BURST, ovh, min_overhead);

	build(NULL, "", 1);
	v1 = measure(W_VLAN, NULL, ovh);
	r1 = measure(W_RTE_VLAN, NULL, ovh);
	build(NULL, "", 2);
	v2 = measure(W_VLAN, NULL, ovh);
	printf("%-16s %16s %16s\n", "vlan", "tp_vlan", "rte_vlan_strip");
	printf("%-16s %7.2f (%6.2f) %7.2f (%6.2f)\n", "single 802.1Q", v1.med, v1.min,
	       r1.med, r1.min);
	printf("%-16s %7.2f (%6.2f) %16s\n", "QinQ 88a8+8100", v2.med, v2.min, "-");
	printf("\n%-16s %16s %16s %16s\n", "tagger", "strip", "strip+QinQ", "fused");
	for (i = 0; i < sizeof(rx_tags) / sizeof(rx_tags[0]); i++) {
		const struct tp_dsa_tagger *t = tp_dsa_tagger_find(rx_tags[i].name);
		struct fig s, sq, fu = { 0, 0 }, best;
		int has_fused;

		if (t == NULL)
			return 1;
		build(t, rx_tags[i].tag, 0);
		s = measure(W_DSA, t, ovh);
		build(t, rx_tags[i].tag, 2);
		sq = measure(W_DSA_VLAN, t, ovh);
		reset();
		has_fused = tp_dsa_vlan_strip_prefix(t, pkts[0], BURST, NULL, NULL,
						     &(struct tp_dsa_stats){ 0 },
						     &(struct tp_vlan_stats){ 0 }) == BURST;
		if (has_fused)
			fu = measure(W_FUSED, t, ovh);
		printf("%-16s %7.2f (%6.2f) %7.2f (%6.2f)", t->name, s.med, s.min, sq.med,
		       sq.min);
		if (has_fused)
			printf(" %7.2f (%6.2f)\n", fu.med, fu.min);
		else
			printf(" %16s\n", "-");
		/* what the pipeline runs: the fused pass where there is one */
		best = has_fused ? fu : sq;
		if (best.med > worst.med) {
			worst = best;
			worst_name = t->name;
		}
		if (best.min > worst_min.min) {
			worst_min = best;
			worst_min_name = t->name;
		}
		if (strcmp(t->name, "edsa") == 0)
			edsa_fused = fu;
	}
	printf("\nsingle VLAN: tp_vlan %.2f (%.2f) vs rte_vlan_strip %.2f (%.2f) cycles/pkt\n"
	       "edsa + QinQ in the fused pass: %.2f (%.2f) cycles/pkt (aim <= 20)\n"
	       "worst DSA strip + QinQ strip as the pipeline runs it (fused where the tagger "
	       "has it): median %s %.2f, best-burst %s %.2f cycles/pkt\n",
	       v1.med, v1.min, r1.med, r1.min, edsa_fused.med, edsa_fused.min, worst_name,
	       worst.med, worst_min_name, worst_min.min);
	for (i = 0; i < SETS; i++)
		rte_pktmbuf_free_bulk(pkts[i], BURST);
	rte_mempool_free(mp);
	return 0;
}
