/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/vlan: exact bytes and flags for strip/insert, NIC-stripped tags, bad
 * input, TX offload, and exhaustive round trips (all 4096 VIDs, single and
 * double tagged, every TPID pair of the set {8100, 88a8, 9100, 9200}).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tp_test.h"
#include "tp_vlan.h"

static struct rte_mempool *mp;

/* Base frame: docs/ref/dsa-tags.md §4.1, "the frame from port 3" (TCP SYN, 54 bytes). */
static const char base_hex[] =
	"02 00 00 00 00 01 02 00 00 00 00 02 08 00 45 00"
	"00 28 00 01 40 00 40 06 b6 cb c0 00 02 02 c0 00"
	"02 01 9c 40 00 50 00 00 00 01 00 00 00 00 50 02"
	"ff ff 8f 4d 00 00";
static uint8_t base[64];
static size_t base_len;

#define F_RX_ALL (RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED | \
		  RTE_MBUF_F_RX_QINQ | RTE_MBUF_F_RX_QINQ_STRIPPED)

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	mp = tp_test_pool_create("vlan", 512, 0);
	base_len = tp_test_hex(base_hex, base, sizeof(base));
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	rte_mempool_free(mp);
	return 0;
}

/* base with tags (tpid, tci) pairs inserted after the SA. */
static size_t
tagged(uint8_t *out, const uint16_t *tpid, const uint16_t *tci, unsigned int n)
{
	size_t off = 12;
	unsigned int i;

	memcpy(out, base, 12);
	for (i = 0; i < n; i++) {
		out[off++] = (uint8_t)(tpid[i] >> 8);
		out[off++] = (uint8_t)tpid[i];
		out[off++] = (uint8_t)(tci[i] >> 8);
		out[off++] = (uint8_t)tci[i];
	}
	memcpy(out + off, base + 12, base_len - 12);
	return off + base_len - 12;
}

static void
test_strip_single_exact(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_vlan_stats st = { 0 };
	uint8_t f[128];
	size_t len = tagged(f, (const uint16_t[]){ 0x8100 }, (const uint16_t[]){ 0xB064 }, 1);
	struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
	struct rte_mbuf *drops[1];

	(void)state;
	assert_int_equal(len, 58);
	assert_int_equal(tp_vlan_strip_burst(NULL, &m, 1, drops, &st), 1);
	tp_test_assert_mbuf_bytes(m, base, (uint32_t)base_len);
	assert_int_equal(m->vlan_tci, 0xB064);
	assert_int_equal(m->ol_flags & F_RX_ALL,
			 RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED);
	assert_int_equal(st.in, 1);
	assert_int_equal(st.out, 1);
	assert_int_equal(st.single, 1);
	assert_int_equal(st.qinq, 0);
	rte_pktmbuf_free(m);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* The tcpdump capture 802.1ad_QinQ.pcap: 802.1ad_QinQ.out prints
 * "vlan 200, p 0, ethertype 802.1Q (0x8100), vlan 2001, p 0, ethertype ARP". */
static void
test_strip_tcpdump_qinq(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_vlan_stats st = { 0 };
	uint8_t **frames;
	uint32_t *lens;
	int lt;
	unsigned int n, i;

	(void)state;
	n = tp_test_pcap_read(tp_test_src_path("pcaps/tags/tcpdump/802.1ad_QinQ.pcap"),
			      &frames, &lens, &lt);
	assert_int_equal(lt, 1);
	assert_int_equal(n, 2);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, frames[i], lens[i]);
		uint8_t exp[256];

		assert_int_equal(tp_vlan_strip_burst(NULL, &m, 1, NULL, &st), 1);
		assert_int_equal(m->vlan_tci_outer & 0x0FFF, 200);
		assert_int_equal(m->vlan_tci_outer >> 13, 0);
		assert_int_equal(m->vlan_tci & 0x0FFF, 2001);
		assert_int_equal(m->vlan_tci >> 13, 0);
		assert_int_equal(m->ol_flags & F_RX_ALL, F_RX_ALL);
		memcpy(exp, frames[i], 12);
		memcpy(exp + 12, frames[i] + 20, lens[i] - 20);
		assert_int_equal(exp[12], 0x08);
		assert_int_equal(exp[13], 0x06); /* ARP */
		tp_test_assert_mbuf_bytes(m, exp, lens[i] - 8);
		rte_pktmbuf_free(m);
	}
	assert_int_equal(st.qinq, 2);
	tp_test_pcap_free(frames, lens, n);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* A third tag stays in the frame; an unknown TPID is not a tag. */
static void
test_strip_third_and_unknown(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_vlan_stats st = { 0 };
	uint8_t f[128], exp[128];
	size_t len = tagged(f, (const uint16_t[]){ 0x88A8, 0x8100, 0x8100 },
			    (const uint16_t[]){ 10, 20, 30 }, 3);
	size_t elen = tagged(exp, (const uint16_t[]){ 0x8100 }, (const uint16_t[]){ 30 }, 1);
	struct rte_mbuf *m[2];

	(void)state;
	m[0] = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
	len = tagged(f, (const uint16_t[]){ 0x9100 }, (const uint16_t[]){ 5 }, 1);
	m[1] = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
	assert_int_equal(tp_vlan_strip_burst(NULL, m, 2, NULL, &st), 2);
	tp_test_assert_mbuf_bytes(m[0], exp, (uint32_t)elen);
	assert_int_equal(m[0]->vlan_tci_outer, 10);
	assert_int_equal(m[0]->vlan_tci, 20);
	tp_test_assert_mbuf_bytes(m[1], f, (uint32_t)len); /* 0x9100 not in default set */
	assert_int_equal(m[1]->ol_flags & F_RX_ALL, 0);
	assert_int_equal(st.qinq, 1);
	assert_int_equal(st.untagged, 1);
	rte_pktmbuf_free(m[0]);
	rte_pktmbuf_free(m[1]);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* NIC already stripped: QINQ_STRIPPED -> untouched; VLAN_STRIPPED + a tag
 * left in the frame -> that one is the inner tag. */
static void
test_strip_nic_stripped(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_vlan_stats st = { 0 };
	uint8_t f[128];
	size_t len = tagged(f, (const uint16_t[]){ 0x8100 }, (const uint16_t[]){ 0x2007 }, 1);
	struct rte_mbuf *m[3];

	(void)state;
	m[0] = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
	m[0]->ol_flags = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	m[0]->vlan_tci = 0x0123;
	m[1] = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
	m[1]->ol_flags = F_RX_ALL;
	m[1]->vlan_tci = 1;
	m[1]->vlan_tci_outer = 2;
	m[2] = tp_test_mbuf_from_bytes(mp, base, (uint32_t)base_len);
	m[2]->ol_flags = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	m[2]->vlan_tci = 77;
	assert_int_equal(tp_vlan_strip_burst(NULL, m, 3, NULL, &st), 3);
	tp_test_assert_mbuf_bytes(m[0], base, (uint32_t)base_len);
	assert_int_equal(m[0]->vlan_tci_outer, 0x0123);
	assert_int_equal(m[0]->vlan_tci, 0x2007);
	assert_int_equal(m[0]->ol_flags & F_RX_ALL, F_RX_ALL);
	tp_test_assert_mbuf_bytes(m[1], f, (uint32_t)len);
	assert_int_equal(m[1]->vlan_tci, 1);
	assert_int_equal(m[1]->vlan_tci_outer, 2);
	tp_test_assert_mbuf_bytes(m[2], base, (uint32_t)base_len);
	assert_int_equal(m[2]->vlan_tci, 77);
	assert_int_equal(m[2]->ol_flags & F_RX_ALL,
			 RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED);
	assert_int_equal(st.nic, 3);
	rte_pktmbuf_free_bulk(m, 3);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Too short and segmented frames: counted drops, order kept. */
static void
test_strip_bad_input(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_vlan_stats st = { 0 };
	uint8_t f[128];
	size_t len = tagged(f, (const uint16_t[]){ 0x88A8, 0x8100 },
			    (const uint16_t[]){ 1, 2 }, 2);
	struct rte_mbuf *m[6], *drops[6], *keep0, *keep5;

	(void)state;
	m[0] = keep0 = tp_test_mbuf_from_bytes(mp, base, (uint32_t)base_len);
	m[1] = tp_test_mbuf_from_bytes(mp, f, 17);          /* TCI cut */
	m[2] = tp_test_mbuf_from_bytes(mp, f, 21);          /* inner EtherType cut */
	m[3] = tp_test_mbuf_chain_from_bytes(mp, f, (uint32_t)len, 16); /* tag split */
	m[4] = tp_test_mbuf_chain_from_bytes(mp, f, (uint32_t)len, 10); /* MACs split */
	m[5] = keep5 = tp_test_mbuf_chain_from_bytes(mp, f, (uint32_t)len, 22);
	assert_int_equal(tp_vlan_strip_burst(NULL, m, 6, drops, &st), 2);
	assert_ptr_equal(m[0], keep0);
	assert_ptr_equal(m[1], keep5);
	assert_int_equal(m[1]->vlan_tci, 2);
	assert_int_equal(m[1]->pkt_len, len - 8);
	assert_int_equal(st.drop[TP_VLAN_DROP_TOO_SHORT], 2);
	assert_int_equal(st.drop[TP_VLAN_DROP_SEGMENTED], 2);
	assert_int_equal(st.in, 6);
	assert_int_equal(st.out, 2);
	assert_string_equal(tp_vlan_drop_name(TP_VLAN_DROP_SEGMENTED), "tag_not_contiguous");
	assert_null(tp_vlan_drop_name(TP_VLAN_DROP_MAX));
	rte_pktmbuf_free_bulk(drops, 4);
	rte_pktmbuf_free_bulk(m, 2);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

static void
test_conf(void **state)
{
	struct tp_vlan_conf c;

	(void)state;
	assert_int_equal(tp_vlan_conf_init(&c), 0);
	assert_int_equal(c.n_tpid, 2);
	assert_int_equal(c.tpid[0], 0x8100);
	assert_int_equal(c.tpid[1], 0x88A8);
	assert_int_equal(c.tx_outer_tpid, 0x88A8);
	assert_int_equal(c.tx_inner_tpid, 0x8100);
	assert_int_equal(tp_vlan_conf_parse_tpids(&c, "8100,0x88a8,9100,9200"), 0);
	assert_int_equal(c.n_tpid, 4);
	assert_int_equal(c.tpid[3], 0x9200);
	assert_int_equal(tp_vlan_conf_parse_tpids(&c, "9100"), 0);
	assert_int_equal(c.tpid[1], 0x9100); /* unused slots copy the first */
	assert_int_equal(tp_vlan_conf_parse_tpids(&c, ""), -EINVAL);
	assert_int_equal(tp_vlan_conf_parse_tpids(&c, "8100,zz"), -EINVAL);
	assert_int_equal(tp_vlan_conf_parse_tpids(&c, "8100,0500"), -EINVAL);
	assert_int_equal(tp_vlan_conf_parse_tpids(&c, "8100,88a8,9100,9200,9300"), -EINVAL);
	assert_int_equal(tp_vlan_conf_parse_tpids(&c, "18100"), -EINVAL);
	assert_int_equal(tp_vlan_conf_set_tpids(&c, (const uint16_t[]){ 1 }, 0), -EINVAL);
	assert_int_equal(tp_vlan_conf_init(NULL), -EINVAL);
}

/* n_tpid bounds the set: a conf from tp_vlan_conf_init() narrowed by hand
 * to { 0x9100 } leaves 0x8100 and 0x88A8 frames byte for byte untouched
 * (slots 1..3 still hold 0x88A8 and copies) and strips 0x9100; n_tpid 0
 * strips nothing. */
static void
test_strip_n_tpid(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	const uint16_t tp[3] = { 0x8100, 0x88A8, 0x9100 };
	struct tp_vlan_stats st = { 0 };
	struct tp_vlan_conf c;
	uint8_t f[3][128];
	size_t len[3];
	struct rte_mbuf *m[3];
	unsigned int i;

	(void)state;
	assert_int_equal(tp_vlan_conf_init(&c), 0);
	c.n_tpid = 1;
	c.tpid[0] = 0x9100;
	for (i = 0; i < 3; i++) {
		len[i] = tagged(f[i], &tp[i], (const uint16_t[]){ 0x0064 }, 1);
		m[i] = tp_test_mbuf_from_bytes(mp, f[i], (uint32_t)len[i]);
	}
	assert_int_equal(tp_vlan_strip_burst(&c, m, 3, NULL, &st), 3);
	tp_test_assert_mbuf_bytes(m[0], f[0], (uint32_t)len[0]);
	tp_test_assert_mbuf_bytes(m[1], f[1], (uint32_t)len[1]);
	tp_test_assert_mbuf_bytes(m[2], base, (uint32_t)base_len);
	assert_int_equal(m[0]->ol_flags & F_RX_ALL, 0);
	assert_int_equal(m[1]->ol_flags & F_RX_ALL, 0);
	assert_int_equal(m[2]->vlan_tci, 0x0064);
	assert_int_equal(st.untagged, 2);
	assert_int_equal(st.single, 1);
	for (i = 0; i < 3; i++)
		rte_pktmbuf_free(m[i]);

	memset(&st, 0, sizeof(st));
	c.n_tpid = 0;
	m[0] = tp_test_mbuf_from_bytes(mp, f[2], (uint32_t)len[2]);
	assert_int_equal(tp_vlan_strip_burst(&c, m, 1, NULL, &st), 1);
	tp_test_assert_mbuf_bytes(m[0], f[2], (uint32_t)len[2]);
	assert_int_equal(st.untagged, 1);
	assert_int_equal(st.single, 0);
	rte_pktmbuf_free(m[0]);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* The _reasons variants: each dropped mbuf's reason next to it. */
static void
test_drop_reasons(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_vlan_stats st = { 0 };
	uint8_t f[128], why[3];
	size_t len = tagged(f, (const uint16_t[]){ 0x8100 }, (const uint16_t[]){ 0x0064 }, 1);
	struct rte_mbuf *m[3], *drops[3];

	(void)state;
	m[0] = tp_test_mbuf_from_bytes(mp, f, 16);               /* TPID, half a TCI */
	m[1] = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);    /* kept */
	m[2] = tp_test_mbuf_from_bytes(mp, f, 17);
	memset(why, 0xFF, sizeof(why));
	assert_int_equal(tp_vlan_strip_burst_reasons(NULL, m, 3, drops, why, &st), 1);
	assert_int_equal(why[0], TP_VLAN_DROP_TOO_SHORT);
	assert_int_equal(why[1], TP_VLAN_DROP_TOO_SHORT);
	assert_int_equal(why[2], 0xFF);
	assert_int_equal(st.drop[TP_VLAN_DROP_TOO_SHORT], 2);
	rte_pktmbuf_free_bulk(drops, 2);

	/* Insert: the kept frame (now m[0]) with 2 bytes of headroom cannot
	 * take a tag. */
	m[0]->ol_flags = RTE_MBUF_F_TX_VLAN;
	m[0]->vlan_tci = 0x0064;
	m[0]->data_off = 2;
	memset(why, 0xFF, sizeof(why));
	assert_int_equal(tp_vlan_insert_burst_reasons(NULL, m, 1, drops, why, &st), 0);
	assert_int_equal(why[0], TP_VLAN_DROP_NO_HEADROOM);
	assert_int_equal(why[1], 0xFF);
	rte_pktmbuf_free(drops[0]);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Insert: software single/double, TX offload, nothing asked, no headroom. */
static void
test_insert(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_vlan_stats st = { 0 };
	struct tp_vlan_conf c;
	uint8_t f1[128], f2[128];
	size_t l1 = tagged(f1, (const uint16_t[]){ 0x8100 }, (const uint16_t[]){ 0xE00A }, 1);
	size_t l2 = tagged(f2, (const uint16_t[]){ 0x88A8, 0x8100 },
			   (const uint16_t[]){ 0x0FFF, 0x1001 }, 2);
	struct rte_mbuf *m[5], *drops[5];

	(void)state;
	tp_vlan_conf_init(&c);
	m[0] = tp_test_mbuf_from_bytes(mp, base, (uint32_t)base_len);
	m[0]->ol_flags = RTE_MBUF_F_TX_VLAN;
	m[0]->vlan_tci = 0xE00A;
	m[1] = tp_test_mbuf_from_bytes(mp, base, (uint32_t)base_len);
	m[1]->ol_flags = F_RX_ALL;
	m[1]->vlan_tci_outer = 0x0FFF;
	m[1]->vlan_tci = 0x1001;
	m[2] = tp_test_mbuf_from_bytes(mp, base, (uint32_t)base_len);
	m[3] = rte_pktmbuf_alloc(mp); /* only 2 bytes of headroom */
	assert_non_null(m[3]);
	m[3]->data_off = 2;
	memcpy(rte_pktmbuf_append(m[3], (uint16_t)base_len), base, base_len);
	m[3]->ol_flags = RTE_MBUF_F_TX_VLAN;
	m[4] = tp_test_mbuf_from_bytes(mp, base, (uint32_t)base_len);
	m[4]->ol_flags = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	m[4]->vlan_tci = 0xE00A;
	assert_int_equal(tp_vlan_insert_burst(&c, m, 5, drops, &st), 4);
	tp_test_assert_mbuf_bytes(m[0], f1, (uint32_t)l1);
	assert_int_equal(m[0]->ol_flags & (F_RX_ALL | RTE_MBUF_F_TX_VLAN | RTE_MBUF_F_TX_QINQ), 0);
	tp_test_assert_mbuf_bytes(m[1], f2, (uint32_t)l2);
	tp_test_assert_mbuf_bytes(m[2], base, (uint32_t)base_len);
	tp_test_assert_mbuf_bytes(m[3], f1, (uint32_t)l1); /* was m[4] */
	assert_int_equal(st.drop[TP_VLAN_DROP_NO_HEADROOM], 1);
	assert_int_equal(st.single, 2);
	assert_int_equal(st.qinq, 1);
	assert_int_equal(st.untagged, 1);
	/* A second insert adds nothing. */
	assert_int_equal(tp_vlan_insert_burst(&c, m, 4, drops + 1, &st), 4);
	tp_test_assert_mbuf_bytes(m[1], f2, (uint32_t)l2);
	rte_pktmbuf_free_bulk(m, 4);
	rte_pktmbuf_free(drops[0]);

	/* TX offload: frame untouched, TX flags set, RX_*_STRIPPED cleared. */
	c.tx_offload = TP_VLAN_TX_OFFLOAD_VLAN | TP_VLAN_TX_OFFLOAD_QINQ;
	m[0] = tp_test_mbuf_from_bytes(mp, base, (uint32_t)base_len);
	m[0]->ol_flags = F_RX_ALL;
	m[1] = tp_test_mbuf_from_bytes(mp, base, (uint32_t)base_len);
	m[1]->ol_flags = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	memset(&st, 0, sizeof(st));
	assert_int_equal(tp_vlan_insert_burst(&c, m, 2, NULL, &st), 2);
	tp_test_assert_mbuf_bytes(m[0], base, (uint32_t)base_len);
	assert_int_equal(m[0]->ol_flags & (RTE_MBUF_F_TX_VLAN | RTE_MBUF_F_TX_QINQ |
					  RTE_MBUF_F_RX_VLAN_STRIPPED | RTE_MBUF_F_RX_QINQ_STRIPPED),
			 RTE_MBUF_F_TX_VLAN | RTE_MBUF_F_TX_QINQ);
	assert_int_equal(m[1]->ol_flags & (RTE_MBUF_F_TX_VLAN | RTE_MBUF_F_TX_QINQ |
					  RTE_MBUF_F_RX_VLAN_STRIPPED),
			 RTE_MBUF_F_TX_VLAN);
	assert_int_equal(st.nic, 2);
	/* Only single-tag offload: QinQ goes in software. */
	c.tx_offload = TP_VLAN_TX_OFFLOAD_VLAN;
	m[0]->ol_flags = F_RX_ALL;
	m[0]->vlan_tci_outer = 0x0FFF;
	m[0]->vlan_tci = 0x1001;
	assert_int_equal(tp_vlan_insert_burst(&c, m, 1, NULL, &st), 1);
	tp_test_assert_mbuf_bytes(m[0], f2, (uint32_t)l2);
	rte_pktmbuf_free_bulk(m, 2);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Insert keeps the header lengths a TX offload reads true: l2_len grows by
 * the tag bytes written in software when the frame asks for checksum or
 * segmentation offload; outer_l2_len instead when the outer lengths are in
 * use; nothing without such an offload, and nothing when the NIC inserts. */
static void
test_insert_tx_l2_len(void **state)
{
	static const struct {
		uint64_t ask;       /* ol_flags besides the VLAN request */
		uint64_t vlan;      /* TX_VLAN, or TX_VLAN | TX_QINQ */
		bool nic;           /* the port inserts the tags */
		uint8_t l2, outer;  /* l2_len, outer_l2_len after insert */
	} cases[] = {
		{ RTE_MBUF_F_TX_TCP_CKSUM | RTE_MBUF_F_TX_IPV4, RTE_MBUF_F_TX_VLAN, false, 18, 7 },
		{ RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV6, RTE_MBUF_F_TX_VLAN | RTE_MBUF_F_TX_QINQ,
		  false, 22, 7 },
		{ RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_IPV4, RTE_MBUF_F_TX_VLAN, false, 18, 7 },
		{ RTE_MBUF_F_TX_UDP_CKSUM | RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_TUNNEL_VXLAN |
		  RTE_MBUF_F_TX_OUTER_IPV4 | RTE_MBUF_F_TX_OUTER_IP_CKSUM,
		  RTE_MBUF_F_TX_VLAN, false, 14, 11 },
		{ RTE_MBUF_F_TX_TCP_CKSUM | RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_TUNNEL_VXLAN,
		  RTE_MBUF_F_TX_VLAN, false, 18, 7 },
		{ RTE_MBUF_F_TX_IPV4, RTE_MBUF_F_TX_VLAN, false, 14, 7 },
		{ 0, RTE_MBUF_F_TX_VLAN, false, 14, 7 },
		{ RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4, RTE_MBUF_F_TX_VLAN, true, 14, 7 },
	};
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_vlan_stats st = { 0 };
	struct tp_vlan_conf c;

	(void)state;
	for (unsigned int i = 0; i < RTE_DIM(cases); i++) {
		struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, base, (uint32_t)base_len);

		tp_vlan_conf_init(&c);
		if (cases[i].nic)
			c.tx_offload = TP_VLAN_TX_OFFLOAD_VLAN | TP_VLAN_TX_OFFLOAD_QINQ;
		m->ol_flags = cases[i].ask | cases[i].vlan;
		m->vlan_tci = 0x0123;
		m->vlan_tci_outer = 0x0456;
		m->l2_len = 14;
		m->outer_l2_len = 7;
		assert_int_equal(tp_vlan_insert_burst(&c, &m, 1, NULL, &st), 1);
		assert_int_equal(m->l2_len, cases[i].l2);
		assert_int_equal(m->outer_l2_len, cases[i].outer);
		assert_int_equal(m->ol_flags & cases[i].ask, cases[i].ask);
		rte_pktmbuf_free(m);
	}
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* All 4096 VIDs (with PCP/DEI varied), single and double, every TPID pair. */
static void
test_roundtrip_all_vids(void **state)
{
	static const uint16_t tpids[] = { 0x8100, 0x88A8, 0x9100, 0x9200 };
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_vlan_stats st = { 0 };
	struct tp_vlan_conf c;
	unsigned int o, in, vid, checked = 0;

	(void)state;
	tp_vlan_conf_init(&c);
	assert_int_equal(tp_vlan_conf_set_tpids(&c, tpids, 4), 0);
	for (o = 0; o < 4; o++) {
		for (in = 0; in <= 4; in++) {
			int dbl = in < 4;

			c.tx_outer_tpid = tpids[o];
			c.tx_inner_tpid = dbl ? tpids[in] : tpids[o];
			for (vid = 0; vid < 4096; vid += 32) {
				struct rte_mbuf *m[32];
				uint8_t f[32][128];
				size_t len[32];
				unsigned int j;

				for (j = 0; j < 32; j++) {
					uint16_t v = (uint16_t)(vid + j);
					uint16_t tco = (uint16_t)(((v * 7u) & 0xF) << 12 | v);
					uint16_t tci = (uint16_t)(((v * 3u) & 0xF) << 12 | (4095 - v));

					if (dbl)
						len[j] = tagged(f[j], (const uint16_t[]){ tpids[o], tpids[in] },
								(const uint16_t[]){ tco, tci }, 2);
					else
						len[j] = tagged(f[j], &tpids[o], &tco, 1);
					m[j] = tp_test_mbuf_from_bytes(mp, f[j], (uint32_t)len[j]);
				}
				assert_int_equal(tp_vlan_strip_burst(&c, m, 32, NULL, &st), 32);
				for (j = 0; j < 32; j++) {
					uint16_t v = (uint16_t)(vid + j);

					tp_test_assert_mbuf_bytes(m[j], base, (uint32_t)base_len);
					if (dbl) {
						assert_int_equal(m[j]->vlan_tci_outer & 0xFFF, v);
						assert_int_equal(m[j]->vlan_tci & 0xFFF, 4095 - v);
						assert_int_equal(m[j]->ol_flags & F_RX_ALL, F_RX_ALL);
					} else {
						assert_int_equal(m[j]->vlan_tci,
								 ((v * 7u) & 0xF) << 12 | v);
						assert_int_equal(m[j]->ol_flags & F_RX_ALL,
								 RTE_MBUF_F_RX_VLAN |
								 RTE_MBUF_F_RX_VLAN_STRIPPED);
					}
				}
				assert_int_equal(tp_vlan_insert_burst(&c, m, 32, NULL, &st), 32);
				for (j = 0; j < 32; j++)
					tp_test_assert_mbuf_bytes(m[j], f[j], (uint32_t)len[j]);
				rte_pktmbuf_free_bulk(m, 32);
				checked += 32;
			}
		}
	}
	assert_int_equal(checked, 4 * 5 * 4096);
	assert_int_equal(st.drop[TP_VLAN_DROP_TOO_SHORT] + st.drop[TP_VLAN_DROP_SEGMENTED] +
			 st.drop[TP_VLAN_DROP_NO_HEADROOM], 0);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strip_single_exact),
		cmocka_unit_test(test_strip_tcpdump_qinq),
		cmocka_unit_test(test_strip_third_and_unknown),
		cmocka_unit_test(test_strip_nic_stripped),
		cmocka_unit_test(test_strip_bad_input),
		cmocka_unit_test(test_strip_n_tpid),
		cmocka_unit_test(test_drop_reasons),
		cmocka_unit_test(test_conf),
		cmocka_unit_test(test_insert),
		cmocka_unit_test(test_insert_tx_l2_len),
		cmocka_unit_test(test_roundtrip_all_vids),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
