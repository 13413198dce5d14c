/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_gro's API contract: configuration errors, ownership and counters,
 * flush modes, the two "table full" rules, per-flow limits, checksum
 * options, pass-through reasons, and bad wire input (truncated and random
 * frames) that must come back untouched, never crash or read out of bounds.
 */
#include "tp_test.h"
#include "gro_run.h"
#include "gro_priv.h"          /* gro_csum_select_avx2: both sum variants */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ip.h>

static struct rte_mempool *mp;

static struct rte_mbuf *
mk(const struct tpkt *t)
{
	static uint8_t buf[TPKT_MAX];
	uint32_t len = tpkt_build(t, buf);

	return tp_test_mbuf_from_bytes(mp, buf, len);
}

/* a segment of flow f (sport 3000+f) at segment index k, 100 bytes */
static struct rte_mbuf *
seg(int v6, int f, int k)
{
	struct tpkt t;

	tpkt_init(&t, v6);
	t.sport = (uint16_t)(3000 + f);
	t.seq = 100 + (uint32_t)k * 100;
	t.ip_id = (uint16_t)k;
	return mk(&t);
}

/* the TCP source port at byte off of the frame */
static unsigned int
port_at(const struct rte_mbuf *m, unsigned int off)
{
	const uint8_t *p = rte_pktmbuf_mtod_offset(m, const uint8_t *, off);

	return (unsigned int)(p[0] << 8 | p[1]);
}

static void
free_all(struct rte_mbuf **o, int n)
{
	int i;

	for (i = 0; i < n; i++)
		rte_pktmbuf_free(o[i]);
}

static void
test_conf_errors(void **state)
{
	static const struct tp_gro_conf bad[] = {
		{ .max_flows = 65536 },
		{ .max_segs = 1 },
		{ .max_ip_len = 100 },
		{ .max_ip_len = 65536 },
		{ .mode = (enum tp_gro_flush_mode)7 },
		{ .order = (enum tp_gro_order)2 },
	};
	struct tp_gro *g;
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(bad); i++) {
		rte_errno = 0;
		assert_null(tp_gro_create(&bad[i]));
		assert_int_equal(rte_errno, EINVAL);
	}
	g = tp_gro_create(NULL);
	assert_non_null(g);
	assert_true(tp_gro_memory(g) > 1024 * sizeof(uint16_t));
	assert_int_equal(tp_gro_held(g), 0);
	tp_gro_destroy(g);
	tp_gro_destroy(NULL);
}

static void
test_names(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < TP_GRO_FLUSH_MAX; i++)
		assert_non_null(tp_gro_flush_reason_names[i]);
	for (i = 0; i < TP_GRO_PASS_MAX; i++)
		assert_non_null(tp_gro_pass_reason_names[i]);
	assert_string_equal(tp_gro_flush_reason_names[TP_GRO_FLUSH_PSH_FIN], "psh_fin");
	assert_string_equal(tp_gro_pass_reason_names[TP_GRO_PASS_LRO], "already_merged");
}

/* Held mbufs are freed by destroy; out_max too small takes nothing. */
static void
test_ownership(void **state)
{
	struct tp_gro_conf c = { .mode = TP_GRO_MODE_AGE, .age_tsc = 1000,
				 .socket_id = SOCKET_ID_ANY };
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro *g = tp_gro_create(&c);
	struct rte_mbuf *in[4], *out[8];
	int i;

	(void)state;
	for (i = 0; i < 4; i++)
		in[i] = seg(0, 0, i);
	assert_int_equal(tp_gro_merge_burst(g, in, 4, out, 7, 0), -EINVAL);
	assert_int_equal(tp_gro_held(g), 0);
	assert_int_equal(tp_gro_merge_burst(g, in, 4, out, 8, 0), 0);
	assert_int_equal(tp_gro_held(g), 4);
	assert_int_equal(tp_gro_held_flows(g), 1);
	/* not old enough: start 0 + age 1000 > 999 */
	assert_int_equal(tp_gro_flush(g, 999, out, 8), 0);
	assert_int_equal(tp_gro_merge_burst(g, NULL, 0, out, 0, 999), 0);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* AGE mode: aggregates leave when old enough, oldest first, max at a time. */
static void
test_age_flush(void **state)
{
	struct tp_gro_conf c = { .mode = TP_GRO_MODE_AGE, .age_tsc = 100,
				 .socket_id = SOCKET_ID_ANY };
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro *g = tp_gro_create(&c);
	struct rte_mbuf *in[4], *out[8];
	struct tp_gro_stats st;
	int f;

	(void)state;
	for (f = 0; f < 3; f++) {
		in[0] = seg(0, f, 0);
		in[1] = seg(0, f, 1);
		assert_int_equal(tp_gro_merge_burst(g, in, 2, out, 4, (uint64_t)f * 10), 0);
	}
	assert_int_equal(tp_gro_held(g), 6);
	/* at 115: flows started at 0 and 10 are old enough; one at a time */
	assert_int_equal(tp_gro_flush(g, 115, out, 1), 1);
	assert_int_equal(port_at(out[0], 34),
			 3000);
	assert_int_equal(tp_gro_segs(out[0]), 2);
	free_all(out, 1);
	assert_int_equal(tp_gro_flush(g, 115, out, 8), 1);
	assert_int_equal(port_at(out[0], 34),
			 3001);
	free_all(out, 1);
	/* merge_burst in AGE mode also flushes what is old: n = 0 */
	assert_int_equal(tp_gro_merge_burst(g, in, 0, out, 8, 119), 0);
	assert_int_equal(tp_gro_merge_burst(g, in, 0, out, 8, 120), 1);
	free_all(out, 1);
	assert_int_equal(tp_gro_held(g), 0);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.flush[TP_GRO_FLUSH_AGE], 3);
	assert_int_equal(st.pkts_out, 3);
	tp_gro_stats_reset(g);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.pkts_in, 0);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* BURST mode: nothing held after a call; flush_all with a small max. */
static void
test_burst_mode(void **state)
{
	struct tp_gro_conf c = { .mode = TP_GRO_MODE_BURST, .socket_id = SOCKET_ID_ANY };
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro *g = tp_gro_create(&c);
	struct rte_mbuf *in[6], *out[12];
	struct tp_gro_stats st;
	int i, n;

	(void)state;
	for (i = 0; i < 6; i++)
		in[i] = seg((i % 3) & 1, i % 3, i / 3);
	n = tp_gro_merge_burst(g, in, 6, out, 12, 0);
	assert_int_equal(n, 3);
	assert_int_equal(tp_gro_held(g), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(tp_gro_segs(out[i]), 2);
	free_all(out, n);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.flush[TP_GRO_FLUSH_BURST], 3);
	/* a burst of one: the same mbuf back, nothing held, counted as
	 * passed alone, not as an aggregate */
	in[0] = seg(0, 0, 5);
	n = tp_gro_merge_burst(g, in, 1, out, 2, 0);
	assert_int_equal(n, 1);
	assert_ptr_equal(out[0], in[0]);
	assert_int_equal(tp_gro_held(g), 0);
	free_all(out, n);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.pass[TP_GRO_PASS_ALONE], 1);
	assert_int_equal(st.passed, 1);
	assert_int_equal(st.aggregates_out, 3);
	assert_int_equal(st.pkts_in, 7);
	assert_int_equal(st.pkts_out, 4);
	tp_gro_destroy(g);

	c.mode = TP_GRO_MODE_AGE;
	c.age_tsc = 1;
	g = tp_gro_create(&c);
	for (i = 0; i < 6; i++)
		in[i] = seg(0, i, 0);
	assert_int_equal(tp_gro_merge_burst(g, in, 6, out, 12, 0), 0);
	assert_int_equal(tp_gro_flush_all(g, out, 4), 4);
	assert_int_equal(tp_gro_held_flows(g), 2);
	assert_int_equal(tp_gro_flush_all(g, out + 4, 4), 2);
	for (i = 0; i < 6; i++)   /* oldest first */
		assert_int_equal(port_at(out[i], 34), 3000 + i);
	free_all(out, 6);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Table full: the oldest aggregate of the table leaves; bucket full (9
 * flows with one RSS hash): the oldest of the bucket leaves. */
static void
test_table_full(void **state)
{
	struct tp_gro_conf c = { .max_flows = 2, .mode = TP_GRO_MODE_AGE, .age_tsc = 1,
				 .socket_id = SOCKET_ID_ANY };
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro *g = tp_gro_create(&c);
	struct rte_mbuf *in[9], *out[18];
	struct tp_gro_stats st;
	int i, n;

	(void)state;
	for (i = 0; i < 3; i++)
		in[i] = seg(0, i, 0);
	n = tp_gro_merge_burst(g, in, 3, out, 6, 0);
	assert_int_equal(n, 1);
	assert_int_equal(port_at(out[0], 34),
			 3000);
	free_all(out, n);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.flush[TP_GRO_FLUSH_TABLE_FULL], 1);
	assert_int_equal(tp_gro_flush_all(g, out, 8), 2);
	free_all(out, 2);
	tp_gro_destroy(g);

	c.max_flows = 1024;
	g = tp_gro_create(&c);
	for (i = 0; i < 9; i++) {
		in[i] = seg(1, i, 0);
		in[i]->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
		in[i]->hash.rss = 0x55;
	}
	n = tp_gro_merge_burst(g, in, 9, out, 18, 0);
	assert_int_equal(n, 1);
	assert_int_equal(port_at(out[0], 54),
			 3000);
	free_all(out, n);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.flush[TP_GRO_FLUSH_BUCKET_FULL], 1);
	assert_int_equal(tp_gro_held_flows(g), 8);
	/* the evicted flow comes back: its next segment starts anew, evicting
	 * the now-oldest (flow 1) */
	in[0] = seg(1, 0, 1);
	in[0]->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
	in[0]->hash.rss = 0x55;
	assert_int_equal(tp_gro_merge_burst(g, in, 1, out, 2, 0), 1);
	assert_int_equal(port_at(out[0], 54),
			 3001);
	free_all(out, 1);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* conf.max_segs and conf.max_ip_len end aggregates early. */
static void
test_limits(void **state)
{
	struct tp_gro_conf c = { .max_segs = 3, .mode = TP_GRO_MODE_BURST,
				 .socket_id = SOCKET_ID_ANY };
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro *g = tp_gro_create(&c);
	struct rte_mbuf *in[8], *out[16];
	struct tp_gro_stats st;
	int i, n;

	(void)state;
	for (i = 0; i < 8; i++)
		in[i] = seg(0, 0, i);
	n = tp_gro_merge_burst(g, in, 8, out, 16, 0);
	assert_int_equal(n, 3);
	assert_int_equal(tp_gro_segs(out[0]), 3);
	assert_int_equal(tp_gro_segs(out[1]), 3);
	assert_int_equal(tp_gro_segs(out[2]), 2);
	free_all(out, n);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.flush[TP_GRO_FLUSH_MAX_SEGS], 2);
	tp_gro_destroy(g);

	c.max_segs = 0;
	c.max_ip_len = 40 + 250;   /* room for two 100-byte payloads */
	g = tp_gro_create(&c);
	for (i = 0; i < 8; i++)
		in[i] = seg(0, 0, i);
	n = tp_gro_merge_burst(g, in, 8, out, 16, 0);
	assert_int_equal(n, 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(tp_gro_segs(out[i]), 2);
		tview_check_merged(out[i], 100);
	}
	free_all(out, n);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.flush[TP_GRO_FLUSH_SIZE], 3);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Checksum options: NIC GOOD trusted (a wrong checksum merges!), BAD passed,
 * UNKNOWN verified, or trusted and counted with no_sw_csum. */
static void
test_csum_modes(void **state)
{
	struct tp_gro_conf c = { .mode = TP_GRO_MODE_BURST, .socket_id = SOCKET_ID_ANY };
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro *g = tp_gro_create(&c);
	struct rte_mbuf *in[2], *out[4];
	struct tp_gro_stats st;
	struct tpkt t;
	int n;

	(void)state;
	/* wrong TCP checksum, NIC says GOOD: trusted, merged */
	in[0] = seg(0, 0, 0);
	tpkt_init(&t, 0);
	t.sport = 3000;
	t.seq = 200;
	t.ip_id = 1;
	t.bad_tcp_csum = 1;
	in[1] = mk(&t);
	in[0]->ol_flags = in[1]->ol_flags =
		RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	n = tp_gro_merge_burst(g, in, 2, out, 4, 0);
	assert_int_equal(n, 1);
	free_all(out, n);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.csum_sw_ip + st.csum_sw_l4, 0);
	/* good checksum, NIC says BAD: passed through */
	in[0] = seg(0, 0, 0);
	in[1] = seg(0, 0, 1);
	in[1]->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_BAD;
	n = tp_gro_merge_burst(g, in, 2, out, 4, 0);
	assert_int_equal(n, 2);
	free_all(out, n);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.pass[TP_GRO_PASS_BAD_L4_CSUM], 1);
	assert_int_equal(st.flush[TP_GRO_FLUSH_BYPASS], 1);
	assert_int_equal(st.csum_sw_l4, 1);
	assert_int_equal(st.csum_sw_ip, 2);
	assert_int_equal(st.sw_csum_off, 0);
	tp_gro_destroy(g);

	c.no_sw_csum = 1;
	g = tp_gro_create(&c);
	in[0] = seg(0, 0, 0);
	in[1] = mk(&t);        /* wrong checksum, UNKNOWN, trusted */
	n = tp_gro_merge_burst(g, in, 2, out, 4, 0);
	assert_int_equal(n, 1);
	free_all(out, n);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.sw_csum_off, 1);
	assert_int_equal(st.csum_sw_ip + st.csum_sw_l4, 0);
	assert_int_equal(st.csum_unverified, 4);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* A packet the NIC already merged (RTE_MBUF_F_RX_LRO) passes through, and
 * the held aggregate of its own flow leaves before it, in both orders, as
 * Linux flushes it (an skb_is_gso skb carries GRO's flush flag); another
 * flow's aggregate stays held. Burst: flow 1 k=0,1; flow 2 k=0; flow 1's
 * LRO'd k=2 (standing for k=2..). Out: [1:0-1], LRO, then at the end of
 * the burst [2:0]. */
static void
test_lro_input_keeps_flow_order(void **state)
{
	struct tp_gro_conf c = { .mode = TP_GRO_MODE_BURST, .socket_id = SOCKET_ID_ANY };
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *in[4], *out[8];
	struct tp_gro_stats st;

	(void)state;
	for (int kernel = 0; kernel < 2; kernel++) {
		struct tp_gro *g;
		uint16_t n;

		c.order = kernel ? TP_GRO_ORDER_KERNEL : TP_GRO_ORDER_FLOW;
		g = tp_gro_create(&c);
		assert_non_null(g);
		in[0] = seg(0, 1, 0);
		in[1] = seg(0, 1, 1);
		in[2] = seg(0, 2, 0);
		in[3] = seg(0, 1, 2);
		in[3]->ol_flags |= RTE_MBUF_F_RX_LRO;
		in[3]->tso_segsz = 100;
		n = tp_gro_merge_burst(g, in, 4, out, 8, 0);
		assert_int_equal(n, 3);
		assert_int_equal(tp_gro_segs(out[0]), 2);
		assert_int_equal(port_at(out[0], 34), 3001);
		assert_ptr_equal(out[1], in[3]);
		assert_true(out[1]->ol_flags & RTE_MBUF_F_RX_LRO);
		assert_int_equal(port_at(out[2], 34), 3002);
		assert_int_equal(tp_gro_segs(out[2]), 1);
		tp_gro_stats_get(g, &st);
		assert_int_equal(st.pass[TP_GRO_PASS_LRO], 1);
		assert_int_equal(st.csum_sw_l4, 3);   /* the LRO'd packet is not verified */
		free_all(out, n);
		tp_gro_destroy(g);
	}
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Frames GRO must hand back untouched, each counted by its reason. */
static void
test_pass_reasons(void **state)
{
	static const uint8_t arp[60] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1,
					 0x08, 0x06 };
	static uint8_t buf[TPKT_MAX], got[TPKT_MAX];
	struct tp_gro_conf c = { .mode = TP_GRO_MODE_BURST, .socket_id = SOCKET_ID_ANY };
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro *g = tp_gro_create(&c);
	struct rte_mbuf *in[8], *out[16];
	struct tp_gro_stats st;
	struct tpkt t;
	uint32_t len[8];
	int n, i;

	(void)state;
	in[0] = tp_test_mbuf_from_bytes(mp, arp, sizeof(arp));
	len[0] = sizeof(arp);
	tpkt_init(&t, 0);
	len[1] = tpkt_build(&t, buf);
	buf[14 + 9] = 17;                    /* UDP (checksums do not matter) */
	in[1] = tp_test_mbuf_from_bytes(mp, buf, len[1]);
	tpkt_init(&t, 0);
	t.ntags = 2;
	t.tpid[0] = t.tpid[1] = 0x8100;
	len[2] = tpkt_build(&t, buf);
	/* a third tag: 3 x 802.1Q */
	memmove(buf + 16 + 4, buf + 16, len[2] - 16);
	buf[16] = 0x81;
	buf[17] = 0x00;
	buf[18] = 0;
	buf[19] = 7;
	len[2] += 4;
	in[2] = tp_test_mbuf_from_bytes(mp, buf, len[2]);
	tpkt_init(&t, 0);
	len[3] = tpkt_build(&t, buf);
	in[3] = tp_test_mbuf_chain_from_bytes(mp, buf, len[3], 40);   /* split hdrs */
	in[4] = seg(0, 1, 0);
	in[4]->ol_flags |= RTE_MBUF_F_RX_LRO;
	len[4] = in[4]->pkt_len;
	tpkt_init(&t, 0);
	t.flags |= 0x08;                     /* PSH alone */
	t.sport = 3333;
	len[5] = tpkt_build(&t, buf);
	in[5] = tp_test_mbuf_from_bytes(mp, buf, len[5]);
	tpkt_init(&t, 1);
	t.sport = 3334;
	len[6] = tpkt_build(&t, buf);
	buf[14 + 4] = 0xFF;                  /* IPv6 payload length > frame */
	in[6] = tp_test_mbuf_from_bytes(mp, buf, len[6]);
	tpkt_init(&t, 0);
	t.sport = 3335;
	len[7] = tpkt_build(&t, buf);
	buf[14] = 0x44;                      /* IHL 4 */
	in[7] = tp_test_mbuf_from_bytes(mp, buf, len[7]);
	for (i = 0; i < 8; i++) {
		if (i != 3 && i != 4)
			len[i] = in[i]->pkt_len;
	}
	{
		uint8_t keep[8][256];

		for (i = 0; i < 8; i++)
			tp_test_mbuf_to_bytes(in[i], keep[i], 256);
		n = tp_gro_merge_burst(g, in, 8, out, 16, 0);
		assert_int_equal(n, 8);
		for (i = 0; i < 8; i++) {
			uint32_t l = tp_test_mbuf_to_bytes(out[i], got, sizeof(got));

			assert_int_equal(l, len[i]);
			assert_memory_equal(got, keep[i], RTE_MIN(l, 256u));
		}
	}
	free_all(out, n);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.pass[TP_GRO_PASS_NOT_IP], 2);
	assert_int_equal(st.pass[TP_GRO_PASS_NOT_TCP], 1);
	assert_int_equal(st.pass[TP_GRO_PASS_HDR_SPLIT], 1);
	assert_int_equal(st.pass[TP_GRO_PASS_LRO], 1);
	assert_int_equal(st.pass[TP_GRO_PASS_PSH_FIN], 1);
	assert_int_equal(st.pass[TP_GRO_PASS_BAD_LEN], 1);
	assert_int_equal(st.pass[TP_GRO_PASS_IP_HDR], 1);
	assert_int_equal(st.passed, 8);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Every prefix of valid frames (IPv4/IPv6, tags, options, extension
 * headers) and random bytes behind a valid Ethernet/IP start: handed back
 * byte for byte (prefixes can't merge: their lengths disagree). Each frame
 * ends exactly at the end of its mbuf's data room, so a read past the frame
 * would also leave the buffer (the sanitize build's UBSan checks the
 * arithmetic; DPDK's own memory is not poisoned for ASan). */
static void
test_bad_input(void **state)
{
	static uint8_t buf[TPKT_MAX], got[TPKT_MAX];
	/* age mode: every frame is parsed (burst mode hands a burst of one
	 * back unparsed); what it holds comes back with flush_all */
	struct tp_gro_conf c = { .mode = TP_GRO_MODE_AGE, .age_tsc = 1000,
				 .socket_id = SOCKET_ID_ANY };
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro *g = tp_gro_create(&c);
	struct rte_mbuf *in[1], *out[2];
	struct tp_gro_stats st;
	uint64_t x = 88172645463325252ull;
	int v, cut, r, n;

	(void)state;
	for (v = 0; v < 8; v++) {
		struct tpkt t;
		uint32_t len;

		tpkt_init(&t, v & 1);
		t.ntags = (v >> 1) & 1;
		t.tpid[0] = 0x88A8;
		if (v & 4) {
			if (v & 1)
				t.ext_type = 60;
			else
				t.ipopt_len = 8;
			t.optlen = 12;
		}
		t.no_pad = 1;
		len = tpkt_build(&t, buf);
		for (cut = 0; cut < (int)len; cut++) {
			for (r = 0; r < 2; r++) {
				struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
				uint8_t *d;
				int k;

				/* put the frame flush against the end of the buffer */
				m->data_off = (uint16_t)(m->buf_len - cut);
				d = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)cut);
				if (cut > 0)
					assert_non_null(d);
				memcpy(d, buf, (size_t)cut);
				for (k = 40; r && k < cut; k++) {   /* garble past byte 40 */
					x ^= x << 13;
					x ^= x >> 7;
					x ^= x << 17;
					d[k] = (uint8_t)x;
				}
				memcpy(got, d, (size_t)cut);
				in[0] = m;
				n = tp_gro_merge_burst(g, in, 1, out, 2, 0);
				if (n == 0)
					n = tp_gro_flush_all(g, out, 2);
				assert_int_equal(n, 1);
				assert_ptr_equal(out[0], m);
				tp_test_assert_mbuf_bytes(m, got, (uint32_t)cut);
				rte_pktmbuf_free(m);
			}
		}
	}
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.pkts_in, st.pkts_out);
	assert_true(st.pass[TP_GRO_PASS_BAD_LEN] > 100);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Chained (scattered) input frames merge like single-mbuf ones; the merged
 * chain segments back (copy path) into the original frames. Also with the
 * first mbuf holding exactly the headers: the chain then gets no
 * zero-length segment (some TX paths refuse those). */
static void
test_chained_input(void **state)
{
	static uint8_t frames[6][2000], got[TPKT_MAX], cat[TPKT_MAX];
	struct tp_gro_conf c = { .mode = TP_GRO_MODE_BURST, .socket_id = SOCKET_ID_ANY };
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro *g = tp_gro_create(&c);
	struct rte_mbuf *in[6], *out[12], *segs[8];
	struct tp_gro_stats st;
	uint32_t len[6], off = 0, l;
	int v6, i, n, exact;

	(void)state;
	for (exact = 0; exact < 2; exact++)
	for (v6 = 0; v6 < 2; v6++) {
		const uint16_t split = exact ? (v6 ? 74 : 54) : (v6 ? 90 : 70);
		const struct rte_mbuf *sg;

		for (i = 0; i < 6; i++) {
			struct tpkt t;

			tpkt_init(&t, v6);
			t.pay_char = 0;
			t.paylen = 1000;
			t.seq = 100 + (uint32_t)i * 1000;
			t.ip_id = (uint16_t)i;
			len[i] = tpkt_build(&t, frames[i]);
			/* first mbuf: headers and a little payload; then 300-byte pieces
			 * (one frame single, to mix layouts) */
			in[i] = i == 2 ? tp_test_mbuf_from_bytes(mp, frames[i], len[i]) :
					 tp_test_mbuf_chain_from_bytes(mp, frames[i], len[i], split);
		}
		n = tp_gro_merge_burst(g, in, 6, out, 12, 0);
		assert_int_equal(n, 1);
		for (sg = out[0]; sg != NULL; sg = sg->next)
			assert_true(sg->data_len > 0);
		tview_check_merged(out[0], 1000);
		assert_int_equal(tp_gro_segs(out[0]), 6);
		assert_int_equal(out[0]->pkt_len, len[0] + 5 * 1000);
		/* the payload is every frame's payload in order */
		l = tp_test_mbuf_to_bytes(out[0], got, sizeof(got));
		memcpy(cat, frames[0], len[0]);
		off = len[0];
		for (i = 1; i < 6; i++) {
			memcpy(cat + off, frames[i] + len[i] - 1000, 1000);
			off += 1000;
		}
		assert_int_equal(l, off);
		/* past the headers (the checksum and lengths were rewritten) */
		assert_memory_equal(got + (v6 ? 74 : 54), cat + (v6 ? 74 : 54),
				    l - (v6 ? 74 : 54));
		n = tp_gro_segment(out[0], segs, 8, mp);
		assert_int_equal(n, 6);
		for (i = 0; i < 6; i++) {
			tp_test_assert_mbuf_bytes(segs[i], frames[i], len[i]);
			rte_pktmbuf_free(segs[i]);
		}
	}
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.merged_out, 4);
	assert_int_equal(st.segs_merged, 24);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* TCP checksum offload through tp_gro_segment: with RTE_MBUF_F_TX_TCP_CKSUM
 * on the aggregate, every segment keeps the flag and carries the
 * pseudo-header checksum (with its length) that DPDK's TX checksum offload
 * expects; completing it as the NIC would gives back the original frame,
 * byte for byte. */
static void
test_segment_csum_offload(void **state)
{
	static uint8_t frames[5][2000];
	struct tp_gro_conf c = { .mode = TP_GRO_MODE_BURST, .socket_id = SOCKET_ID_ANY };
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro *g = tp_gro_create(&c);
	struct rte_mbuf *in[5], *out[10], *segs[8];
	uint32_t len[5];
	int v6, i, n;

	(void)state;
	for (v6 = 0; v6 < 2; v6++) {
		const uint16_t l2 = 14, l3 = v6 ? 40 : 20;

		for (i = 0; i < 5; i++) {
			struct tpkt t;

			tpkt_init(&t, v6);
			t.paylen = 700;
			t.seq = 100 + (uint32_t)i * 700;
			t.ip_id = (uint16_t)i;
			len[i] = tpkt_build(&t, frames[i]);
			in[i] = tp_test_mbuf_from_bytes(mp, frames[i], len[i]);
		}
		n = tp_gro_merge_burst(g, in, 5, out, 10, 0);
		assert_int_equal(n, 1);
		out[0]->ol_flags |= RTE_MBUF_F_TX_TCP_CKSUM |
				    (v6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4);
		n = tp_gro_segment(out[0], segs, 8, mp);
		assert_int_equal(n, 5);
		for (i = 0; i < 5; i++) {
			struct rte_mbuf *s = segs[i];
			uint8_t *ip = rte_pktmbuf_mtod_offset(s, uint8_t *, l2);
			uint8_t *th = ip + l3;
			uint16_t field, want, full;

			assert_int_equal(s->nb_segs, 1);
			assert_true(s->ol_flags & RTE_MBUF_F_TX_TCP_CKSUM);
			assert_int_equal(s->l2_len, l2);
			assert_int_equal(s->l3_len, l3);
			memcpy(&field, th + 16, 2);
			want = v6 ? rte_ipv6_phdr_cksum((const struct rte_ipv6_hdr *)ip, 0) :
				    rte_ipv4_phdr_cksum((const struct rte_ipv4_hdr *)ip, 0);
			assert_int_equal(field, want);
			/* what the NIC does: the full sum over pseudo-header and
			 * segment, field zeroed */
			th[16] = th[17] = 0;
			full = v6 ? rte_ipv6_udptcp_cksum((const struct rte_ipv6_hdr *)ip, th) :
				    rte_ipv4_udptcp_cksum((const struct rte_ipv4_hdr *)ip, th);
			memcpy(th + 16, &full, 2);
			tp_test_assert_mbuf_bytes(s, frames[i], len[i]);
			rte_pktmbuf_free(s);
		}
	}
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* The output as (source port, segments) pairs, in order. */
static void
assert_out(struct rte_mbuf **o, int n, const unsigned int *want, int nwant)
{
	int i;

	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++) {
		/* IPv4 header length from the frame: options move the ports */
		unsigned int l4 = 14 + 4u * (*rte_pktmbuf_mtod_offset(o[i], uint8_t *, 14) & 0xF);

		assert_int_equal(port_at(o[i], l4), want[2 * i]);
		assert_int_equal(tp_gro_segs(o[i]) == 1 ? o[i]->nb_segs : tp_gro_segs(o[i]),
				 want[2 * i + 1]);
	}
	free_all(o, n);
}

enum odd_frame { ODD_IP_OPTS, ODD_BAD_TCP_CSUM, ODD_IP_RESERVED };

/* Segments 0 and 1 of flow 0, a copy of segment 2 that GRO refuses (IPv4
 * options, a bad TCP checksum or the IPv4 reserved bit), then segments
 * 2 .. last of the flow. */
static void
odd_frame_case(struct tp_gro *g, enum odd_frame odd, int last, const unsigned int *want,
	       int nwant)
{
	struct rte_mbuf *in[8], *out[16];
	struct tpkt t;
	int i, n = 0;

	in[n++] = seg(0, 0, 0);
	in[n++] = seg(0, 0, 1);
	tpkt_init(&t, 0);
	t.sport = 3000;
	t.seq = 300;
	t.ip_id = 2;
	if (odd == ODD_BAD_TCP_CSUM)
		t.bad_tcp_csum = 1;
	else if (odd == ODD_IP_RESERVED)
		t.rsv = 1;
	else
		t.ipopt_len = 4;
	in[n++] = mk(&t);
	for (i = 2; i <= last; i++)
		in[n++] = seg(0, 0, i);
	n = tp_gro_merge_burst(g, in, (uint16_t)n, out, 16, 0);
	assert_out(out, n, want, nwant);
}

/*
 * TP_GRO_ORDER_KERNEL against TP_GRO_ORDER_FLOW on the cases where they
 * differ (the kernel's behaviour as the veth oracle in tests/gro/kernel
 * measured it and net/core/gro.c, net/ipv4/af_inet.c, tcp_offload.c say):
 *  1. a bad TCP checksum overtakes its flow's aggregate, which stays open
 *     and takes the next segment;
 *  2. IPv4 options likewise;
 *  3. without RSS hashes every flow is in bucket 0 of 8: a ninth flow
 *     completes the oldest aggregate;
 *  4. at the end of a burst the buckets leave in index order (hash & 7),
 *     each oldest first;
 *  5. the IPv4 reserved flag bit, unlike 1 and 2, is the same in both: it
 *     only sets inet_gro_receive's flush word, so the flow is looked up and
 *     its aggregate leaves first.
 */
static void
test_kernel_order(void **state)
{
	struct tp_gro_conf c = { .mode = TP_GRO_MODE_BURST, .socket_id = SOCKET_ID_ANY };
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *in[20], *out[40];
	struct tp_gro *gk, *gf;
	int n, i, order;

	(void)state;
	c.order = TP_GRO_ORDER_KERNEL;
	gk = tp_gro_create(&c);
	c.order = TP_GRO_ORDER_FLOW;
	gf = tp_gro_create(&c);
	assert_non_null(gk);
	assert_non_null(gf);

	for (order = 0; order < 2; order++) {
		struct tp_gro *g = order ? gf : gk;

		/* 1: A0 A1 A2(bad TCP checksum) A2 A3; kernel: the bad one
		 * passes first, then A0..A3 as one */
		{
			static const unsigned int k1[] = { 3000, 1, 3000, 4 };
			static const unsigned int f1[] = { 3000, 2, 3000, 1, 3000, 2 };

			odd_frame_case(g, ODD_BAD_TCP_CSUM, 3, order ? f1 : k1, order ? 3 : 2);
		}
		/* 2: A0 A1 A2(IPv4 options) A2 */
		{
			static const unsigned int k2[] = { 3000, 1, 3000, 3 };
			static const unsigned int f2[] = { 3000, 2, 3000, 1, 3000, 1 };

			odd_frame_case(g, ODD_IP_OPTS, 2, order ? f2 : k2, order ? 3 : 2);
		}
		/* 5: A0 A1 A2(reserved bit) A2: the same in both orders */
		{
			static const unsigned int k5[] = { 3000, 2, 3000, 1, 3000, 1 };

			odd_frame_case(g, ODD_IP_RESERVED, 2, k5, 3);
		}

		/* 3: nine flows, two segments each, interleaved, no RSS hash */
		for (i = 0; i < 18; i++)
			in[i] = seg(0, i % 9, i / 9);
		n = tp_gro_merge_burst(g, in, 18, out, 36, 0);
		if (order == 0) {
			/* the ninth flow pushes the first out of bucket 0, each
			 * second segment then pushes out the next oldest: no merge */
			assert_int_equal(n, 18);
			for (i = 0; i < 18; i++)
				assert_int_equal(out[i]->nb_segs, 1);
			free_all(out, n);
		} else {
			assert_int_equal(n, 9);
			for (i = 0; i < 9; i++) {
				assert_int_equal(port_at(out[i], 34), 3000 + i);
				assert_int_equal(tp_gro_segs(out[i]), 2);
			}
			free_all(out, n);
		}

		/* 4: flows with RSS hashes 1, 8, 2, 0 (buckets 1, 0, 2, 0) */
		for (i = 0; i < 4; i++) {
			static const uint32_t h[] = { 1, 8, 2, 0 };

			in[i] = seg(0, i, 0);
			in[i]->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
			in[i]->hash.rss = h[i];
		}
		n = tp_gro_merge_burst(g, in, 4, out, 8, 0);
		if (order == 0) {
			static const unsigned int want[] = { 3001, 1, 3003, 1, 3000, 1, 3002, 1 };

			assert_out(out, n, want, 4);
		} else {
			static const unsigned int want[] = { 3000, 1, 3001, 1, 3002, 1, 3003, 1 };

			assert_out(out, n, want, 4);
		}
	}
	tp_gro_destroy(gk);
	tp_gro_destroy(gf);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* RFC 1071 the slow way: big-endian 16-bit words, byte by byte. */
static int
ref_tcp_csum_ok(const uint8_t *ip4, const uint8_t *l4, uint32_t len)
{
	uint32_t s = 6 + len, i;

	for (i = 12; i < 20; i += 2)
		s += (uint32_t)(ip4[i] << 8 | ip4[i + 1]);
	for (i = 0; i + 1 < len; i += 2)
		s += (uint32_t)(l4[i] << 8 | l4[i + 1]);
	if (len & 1)
		s += (uint32_t)l4[len - 1] << 8;
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return s == 0xFFFF;
}

/* tp_gro_tcp_csum_ok, both the AVX2 and the SSE sum, against the reference
 * for every length 0..1600 at 16 alignments, on random bytes whose
 * checksum field is set right (valid) and then off by one bit. */
static void
test_csum_verify(void **state)
{
	static uint8_t buf[1700 + 64];
	uint8_t ip4[20] = { 0x45, [12] = 192, 168, 1, 200, 10, 0, 0, 1 };
	uint64_t rs = 0x9E3779B97F4A7C15ull;
	uint32_t len, a, i, n_ok = 0, n = 0;
	int avx;

	(void)state;
	for (avx = 0; avx < 2; avx++) {
		gro_csum_select_avx2(avx);
		for (len = 20; len <= 1600; len++) {
			for (a = 0; a < 16; a++) {
				uint8_t *l4 = buf + a;
				uint32_t s;

				for (i = 0; i < len; i++) {
					rs ^= rs << 13;
					rs ^= rs >> 7;
					rs ^= rs << 17;
					l4[i] = (uint8_t)rs;
				}
				/* make the checksum field right: sum with it 0, store ~sum */
				l4[16] = l4[17] = 0;
				s = 6 + len;
				for (i = 12; i < 20; i += 2)
					s += (uint32_t)(ip4[i] << 8 | ip4[i + 1]);
				for (i = 0; i + 1 < len; i += 2)
					s += (uint32_t)(l4[i] << 8 | l4[i + 1]);
				if (len & 1)
					s += (uint32_t)l4[len - 1] << 8;
				while (s >> 16)
					s = (s & 0xFFFF) + (s >> 16);
				l4[16] = (uint8_t)(~s >> 8);
				l4[17] = (uint8_t)~s;
				assert_int_equal(ref_tcp_csum_ok(ip4, l4, len), 1);
				n_ok += tp_gro_tcp_csum_ok(ip4, 0, l4, len) == 1;
				l4[len - 1 - (rs % len)] ^= (uint8_t)(1u << (rs % 8));
				assert_int_equal(ref_tcp_csum_ok(ip4, l4, len), 0);
				n_ok += tp_gro_tcp_csum_ok(ip4, 0, l4, len) == 0;
				n += 2;
			}
		}
	}
	gro_csum_select_avx2(1);
	assert_int_equal(n_ok, n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_errors),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_ownership),
		cmocka_unit_test(test_age_flush),
		cmocka_unit_test(test_burst_mode),
		cmocka_unit_test(test_table_full),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_csum_modes),
		cmocka_unit_test(test_csum_verify),
		cmocka_unit_test(test_kernel_order),
		cmocka_unit_test(test_pass_reasons),
		cmocka_unit_test(test_lro_input_keeps_flow_order),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_chained_input),
		cmocka_unit_test(test_segment_csum_offload),
	};

	tp_test_eal_init(NULL);
	mp = tp_test_pool_create("gro_api", 1024, 2048);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
