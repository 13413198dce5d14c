/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * C verdict programs that change the packet (tp_prog.h "Acting on the
 * packet"): MAC swap through load/store, VLAN push, VLAN pop, tail trim,
 * each followed by TX through a pipeline; VLAN push on a merged packet
 * (every re-segmented frame carries the tag); the bounds of every edit
 * (refused requests change nothing). Expected frames are built by pl_build
 * from a spec, never taken from the pipeline's output.
 */
#include <errno.h>

#include "pl_test.h"

#define SEG_PAY 100
#define PUSH_TCI 0x2064    /* PCP 1, VID 100 */
#define POP_TCI 0x0005

static struct rte_mempool *mp;

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	if (mp == NULL)
		mp = tp_test_pool_create("ple", 512, 0);
	return 0;
}

/* ---- the programs -------------------------------------------------------- */

static inline enum tp_verdict
prog_macswap(void *priv, struct tp_xdp_md *ctx)
{
	uint8_t mac[12], sw[12];

	(void)priv;
	if (tp_xdp_load_bytes(ctx, 0, mac, sizeof(mac)) != 0)
		return TP_ABORTED;
	memcpy(sw, mac + 6, 6);
	memcpy(sw + 6, mac, 6);
	if (tp_xdp_store_bytes(ctx, 0, sw, sizeof(sw)) != 0)
		return TP_ABORTED;
	return TP_TX;
}
TP_PROG_DEFINE(burst_macswap, prog_macswap)

static inline enum tp_verdict
prog_push(void *priv, struct tp_xdp_md *ctx)
{
	(void)priv;
	return tp_xdp_vlan_push(ctx, 0x8100, PUSH_TCI) == 0 ? TP_TX : TP_ABORTED;
}
TP_PROG_DEFINE(burst_push, prog_push)

static int popped_tci = -1;

static inline enum tp_verdict
prog_pop(void *priv, struct tp_xdp_md *ctx)
{
	int tci = tp_xdp_vlan_pop(ctx);

	(void)priv;
	if (tci == -ENOENT)
		return TP_DROP;
	popped_tci = tci;
	return tci >= 0 ? TP_TX : TP_ABORTED;
}
TP_PROG_DEFINE(burst_pop, prog_pop)

static inline enum tp_verdict
prog_trim(void *priv, struct tp_xdp_md *ctx)
{
	(void)priv;
	return tp_xdp_adjust_tail(ctx, -4) == 0 ? TP_TX : TP_ABORTED;
}
TP_PROG_DEFINE(burst_trim, prog_trim)

static const struct tp_prog_ops ops[] = {
	{ .name = "t-macswap", .burst = burst_macswap },
	{ .name = "t-push", .burst = burst_push },
	{ .name = "t-pop", .burst = burst_pop },
	{ .name = "t-trim", .burst = burst_trim },
};

static int
setup_group(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < RTE_DIM(ops); i++)
		assert_int_equal(tp_prog_register(&ops[i]), 0);
	return 0;
}

/* ---- through the pipeline ------------------------------------------------ */

/* Port 0, no switch tag, tags left in the frame, no GRO; TX captured. */
static struct tp_pipeline *
plain_pipeline(const char *prog, struct pl_cap *cap)
{
	struct tp_pipeline_conf c;

	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	c.port[0].vlan = TP_VLAN_POLICY_KEEP;
	c.gro.mode = TP_GRO_OFF;
	c.prog_spec = prog;
	c.egress_cb = pl_cap_egress;
	c.egress_arg = cap;
	return pl_make(&c);
}

/* Run one frame (bytes in[0..len)) through prog; expect it TX'ed as spec. */
static void
run_one(const char *prog, const uint8_t *in, size_t len,
	const struct pl_spec *want)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct pl_cap cap = { .n = 0 };
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl = plain_pipeline(prog, &cap);
	struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, in, (uint32_t)len);

	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, &m, 1), 0);
	assert_int_equal(cap.n, 1);
	assert_int_equal(cap.verdict[0], TP_TX);
	assert_int_equal(cap.port[0], 0);
	pl_assert_frame(cap.m[0], want);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.rx, 1);
	assert_int_equal(st.tx, 1);
	assert_int_equal(st.verdict[TP_TX], 1);
	assert_int_equal(st.port[0].tx, 1);
	pl_assert_conservation(pl);
	pl_cap_free(&cap);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

static void
test_macswap_tx(void **state)
{
	uint8_t b[PL_MAX_FRAME];
	struct pl_spec s, want;
	size_t n;

	(void)state;
	pl_default_spec(&s);
	n = pl_build(b, &s);
	want = s;
	pl_swap_mac(&want);
	run_one("t-macswap", b, n, &want);
}

static void
test_vlan_push_tx(void **state)
{
	uint8_t b[PL_MAX_FRAME];
	struct pl_spec s, want;
	size_t n;

	(void)state;
	pl_default_spec(&s);
	n = pl_build(b, &s);
	want = s;
	want.inner_tpid = 0x8100;
	want.inner_tci = PUSH_TCI;
	run_one("t-push", b, n, &want);
}

static void
test_vlan_pop_tx(void **state)
{
	uint8_t b[PL_MAX_FRAME];
	struct pl_spec s, want;
	size_t n;

	(void)state;
	pl_default_spec(&s);
	s.inner_tpid = 0x8100;
	s.inner_tci = POP_TCI;
	n = pl_build(b, &s);
	pl_default_spec(&want);
	popped_tci = -1;
	run_one("t-pop", b, n, &want);
	assert_int_equal(popped_tci, POP_TCI);
}

/* An untagged frame: pop says -ENOENT, the program drops it. */
static void
test_vlan_pop_untagged(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct pl_cap cap = { .n = 0 };
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct rte_mbuf *m;
	struct pl_spec s;

	(void)state;
	pl = plain_pipeline("t-pop", &cap);
	pl_default_spec(&s);
	m = pl_mbuf(mp, &s);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, &m, 1), 0);
	assert_int_equal(cap.n, 0);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.drop_reason[TP_DROP_VERDICT], 1);
	assert_int_equal(st.drop, 1);
	pl_assert_conservation(pl);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Four trailing bytes after the IP datagram (as a capture with the FCS
 * would have) trimmed off. */
static void
test_trim_tail_tx(void **state)
{
	static const uint8_t fcs[4] = { 0xde, 0xad, 0xbe, 0xef };
	uint8_t b[PL_MAX_FRAME];
	struct pl_spec s;
	size_t n;

	(void)state;
	pl_default_spec(&s);
	n = pl_build(b, &s);
	memcpy(b + n, fcs, sizeof(fcs));
	run_one("t-trim", b, n + sizeof(fcs), &s);
}

/* Segment i of one TCP flow. */
static void
seg_spec(struct pl_spec *s, unsigned int i)
{
	pl_default_spec(s);
	s->seq = 1000 + i * SEG_PAY;
	s->ip_id = (uint16_t)(100 + i);
	s->paylen = SEG_PAY;
	s->payseed = (uint8_t)(i * SEG_PAY);
}

/* A pipeline (GRO on, TX and drops captured) running prog on the four
 * frames of one flow, which GRO merges into one packet. */
static struct tp_pipeline *
run_merged(const char *prog, struct pl_cap *cap)
{
	struct tp_pipeline_conf c;
	struct rte_mbuf *pkts[8];
	struct tp_pipeline *pl;
	struct pl_spec s;

	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	c.prog_spec = prog;
	c.egress_cb = pl_cap_egress;
	c.egress_arg = cap;
	c.drop_cb = pl_cap_drop;
	c.drop_arg = cap;
	pl = pl_make(&c);
	for (unsigned int i = 0; i < 4; i++) {
		seg_spec(&s, i);
		pkts[i] = pl_mbuf(mp, &s);
	}
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, 4), 0);
	return pl;
}

/* GRO merges four frames; the program pushes a tag on the merged packet;
 * each of the four frames it is split into on egress carries the pushed
 * 802.1Q tag (l2_len followed the push, so the segmenter copies it). */
static void
test_vlan_push_merged(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct pl_cap cap = { .n = 0 };
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct pl_spec s;

	(void)state;
	pl = run_merged("t-push", &cap);
	assert_int_equal(cap.n, 4);
	for (unsigned int i = 0; i < 4; i++) {
		seg_spec(&s, i);
		s.inner_tpid = 0x8100;
		s.inner_tci = PUSH_TCI;
		pl_assert_frame(cap.m[i], &s);
		assert_int_equal(cap.verdict[i], TP_TX);
	}
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.tx, 4);
	assert_int_equal(st.verdict_pkts[TP_TX], 1);
	assert_int_equal(st.segmented, 1);
	pl_assert_conservation(pl);
	pl_cap_free(&cap);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Tail edits of a merged packet are refused: the program aborts it. */
static void
test_trim_merged_refused(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct pl_cap cap = { .n = 0 };
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;

	(void)state;
	pl = run_merged("t-trim", &cap);
	assert_int_equal(cap.n, 0);
	assert_int_equal(cap.aborted_seen, 1);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.aborted, 4);
	assert_int_equal(st.verdict_pkts[TP_ABORTED], 1);
	pl_assert_conservation(pl);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* ---- the functions' bounds ----------------------------------------------- */

struct snap {
	uint8_t bytes[PL_MAX_FRAME];
	uint32_t len;
	uint16_t data_off, data_len;
	uint64_t l2_len;
	struct tp_xdp_md ctx;
};

static void
snap_take(struct snap *sn, const struct rte_mbuf *m, const struct tp_xdp_md *c)
{
	sn->len = tp_test_mbuf_to_bytes(m, sn->bytes, sizeof(sn->bytes));
	sn->data_off = m->data_off;
	sn->data_len = m->data_len;
	sn->l2_len = m->l2_len;
	sn->ctx = *c;
}

static void
snap_same(const struct snap *sn, const struct rte_mbuf *m,
	  const struct tp_xdp_md *c)
{
	tp_test_assert_mbuf_bytes(m, sn->bytes, sn->len);
	assert_int_equal(m->pkt_len, sn->len);
	assert_int_equal(m->data_off, sn->data_off);
	assert_int_equal(m->data_len, sn->data_len);
	assert_int_equal(m->l2_len, sn->l2_len);
	assert_memory_equal(c, &sn->ctx, sizeof(*c));
}

static void
ctx_of(struct tp_xdp_md *c, struct rte_mbuf *m)
{
	const struct tp_prog_env env = { .priv = NULL, .port = 0, .queue = 0 };

	tp_xdp_md_fill(c, &env, m);
}

/* A 60-byte frame: bytes 0..59. */
static struct rte_mbuf *
small_frame(uint8_t *b)
{
	for (unsigned int i = 0; i < 60; i++)
		b[i] = (uint8_t)i;
	return tp_test_mbuf_from_bytes(mp, b, 60);
}

static void
test_bounds_refused(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	uint8_t b[64], buf[8] = { 0 };
	struct tp_xdp_md c;
	struct snap sn;
	struct rte_mbuf *m;
	int32_t head, tail;

	(void)state;
	m = small_frame(b);
	ctx_of(&c, m);
	snap_take(&sn, m, &c);
	head = (int32_t)rte_pktmbuf_headroom(m);
	tail = (int32_t)rte_pktmbuf_tailroom(m);
	assert_int_equal(tp_xdp_adjust_head(&c, -head - 1), -EINVAL);
	assert_int_equal(tp_xdp_adjust_head(&c, 60 - 13), -EINVAL);
	assert_int_equal(tp_xdp_adjust_head(&c, INT32_MIN), -EINVAL);
	assert_int_equal(tp_xdp_adjust_head(&c, INT32_MAX), -EINVAL);
	assert_int_equal(tp_xdp_adjust_tail(&c, tail + 1), -EINVAL);
	assert_int_equal(tp_xdp_adjust_tail(&c, -(60 - 13)), -EINVAL);
	assert_int_equal(tp_xdp_adjust_tail(&c, INT32_MIN), -EINVAL);
	assert_int_equal(tp_xdp_adjust_tail(&c, INT32_MAX), -EINVAL);
	assert_int_equal(tp_xdp_vlan_push(&c, 0x05ff, 1), -EINVAL);
	assert_int_equal(tp_xdp_vlan_pop(&c), -ENOENT); /* bytes 12,13: 0x0c0d */
	assert_int_equal(tp_xdp_load_bytes(&c, 60, buf, 1), -EINVAL);
	assert_int_equal(tp_xdp_load_bytes(&c, 53, buf, 8), -EINVAL);
	assert_int_equal(tp_xdp_load_bytes(&c, 0, buf, 0), -EINVAL);
	assert_int_equal(tp_xdp_load_bytes(&c, UINT32_MAX, buf, 2), -EINVAL);
	assert_int_equal(tp_xdp_store_bytes(&c, 53, buf, 8), -EINVAL);
	assert_int_equal(tp_xdp_store_bytes(&c, UINT32_MAX, buf, 2), -EINVAL);
	snap_same(&sn, m, &c);
	/* exactly at the bounds: accepted */
	assert_int_equal(tp_xdp_adjust_head(&c, 60 - 14), 0);
	assert_int_equal(c.data_end - c.data, 14);
	assert_int_equal(c.pkt_len, 14);
	tp_test_assert_mbuf_bytes(m, b + 46, 14);
	assert_int_equal(tp_xdp_adjust_head(&c, -head - 46), 0);
	assert_int_equal(rte_pktmbuf_headroom(m), 0);
	assert_int_equal(c.pkt_len, 60 + head);
	assert_ptr_equal(c.data, m->buf_addr);
	rte_pktmbuf_free(m);

	/* headroom of 2: no room for a tag */
	m = rte_pktmbuf_alloc(mp);
	assert_non_null(m);
	m->data_off = 2;
	memcpy(rte_pktmbuf_append(m, 60), b, 60);
	ctx_of(&c, m);
	snap_take(&sn, m, &c);
	assert_int_equal(tp_xdp_vlan_push(&c, 0x8100, 1), -ENOSPC);
	assert_int_equal(tp_xdp_adjust_head(&c, -3), -EINVAL);
	snap_same(&sn, m, &c);
	rte_pktmbuf_free(m);

	/* a tag whose EtherType is not in the frame */
	{
		uint8_t t[17] = { 0 };

		t[12] = 0x81;
		m = tp_test_mbuf_from_bytes(mp, t, sizeof(t));
		ctx_of(&c, m);
		snap_take(&sn, m, &c);
		assert_int_equal(tp_xdp_vlan_pop(&c), -EINVAL);
		snap_same(&sn, m, &c);
		rte_pktmbuf_free(m);
		/* a runt: no MAC header to put a tag after */
		m = tp_test_mbuf_from_bytes(mp, t, 10);
		ctx_of(&c, m);
		snap_take(&sn, m, &c);
		assert_int_equal(tp_xdp_vlan_push(&c, 0x8100, 1), -EINVAL);
		assert_int_equal(tp_xdp_vlan_pop(&c), -ENOENT);
		snap_same(&sn, m, &c);
		rte_pktmbuf_free(m);
	}
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Grown bytes: head not initialised (overwritten here), tail zeroed. */
static void
test_grow_shrink_exact(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	uint8_t b[64], want[80];
	struct tp_xdp_md c;
	struct rte_mbuf *m;

	(void)state;
	m = small_frame(b);
	ctx_of(&c, m);
	assert_int_equal(tp_xdp_adjust_tail(&c, 3), 0);
	assert_int_equal(c.pkt_len, 63);
	assert_int_equal(c.data_end - c.data, 63);
	memcpy(want, b, 60);
	memset(want + 60, 0, 3);
	tp_test_assert_mbuf_bytes(m, want, 63);
	assert_int_equal(tp_xdp_adjust_tail(&c, -10), 0);
	tp_test_assert_mbuf_bytes(m, b, 53);
	assert_int_equal(tp_xdp_adjust_head(&c, -2), 0);
	assert_int_equal(c.pkt_len, 55);
	c.data[0] = 0xaa;
	c.data[1] = 0xbb;
	want[0] = 0xaa;
	want[1] = 0xbb;
	memcpy(want + 2, b, 53);
	tp_test_assert_mbuf_bytes(m, want, 55);
	/* push then pop gives the frame back */
	assert_int_equal(tp_xdp_vlan_push(&c, 0x88a8, 0xfffe), 0);
	memmove(want + 16, want + 12, 43);
	want[12] = 0x88;
	want[13] = 0xa8;
	want[14] = 0xff;
	want[15] = 0xfe;
	tp_test_assert_mbuf_bytes(m, want, 59);
	assert_int_equal(tp_xdp_vlan_pop(&c), 0xfffe);
	memcpy(want + 2, b, 53);
	want[0] = 0xaa;
	want[1] = 0xbb;
	tp_test_assert_mbuf_bytes(m, want, 55);
	assert_int_equal(c.pkt_len, 55);
	rte_pktmbuf_free(m);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* A chain of 3 segments (60 + 60 + 30 bytes): load/store across the
 * boundaries, head edits on the first segment, tail edits as the kernel's
 * multi-buffer XDP: growth in the last segment's buffer, cuts across
 * segments (the emptied ones freed), at least 14 bytes left. */
static void
test_chained(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	uint8_t b[150], got[40], put[20];
	struct tp_xdp_md c;
	struct snap sn;
	struct rte_mbuf *m;

	(void)state;
	for (unsigned int i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i * 7);
	m = tp_test_mbuf_chain_from_bytes(mp, b, sizeof(b), 60);
	assert_int_equal(m->nb_segs, 3);
	ctx_of(&c, m);
	assert_int_equal(tp_xdp_load_bytes(&c, 50, got, 40), 0);
	assert_memory_equal(got, b + 50, 40);
	assert_int_equal(tp_xdp_load_bytes(&c, 110, got, 40), 0);
	assert_memory_equal(got, b + 110, 40);
	snap_take(&sn, m, &c);
	assert_int_equal(tp_xdp_adjust_tail(&c, -137), -EINVAL); /* 13 left */
	assert_int_equal(tp_xdp_adjust_tail(&c, (int32_t)rte_pktmbuf_tailroom(
		rte_pktmbuf_lastseg(m)) + 1), -EINVAL);
	assert_int_equal(tp_xdp_adjust_head(&c, 60 - 13), -EINVAL);
	assert_int_equal(tp_xdp_load_bytes(&c, 131, got, 20), -EINVAL);
	snap_same(&sn, m, &c);
	for (unsigned int i = 0; i < sizeof(put); i++)
		put[i] = (uint8_t)(0xf0 + i);
	assert_int_equal(tp_xdp_store_bytes(&c, 110, put, sizeof(put)), 0);
	memcpy(b + 110, put, sizeof(put));
	tp_test_assert_mbuf_bytes(m, b, sizeof(b));
	assert_int_equal(tp_xdp_adjust_head(&c, 2), 0);
	assert_int_equal(c.pkt_len, 148);
	assert_int_equal(c.data_end - c.data, 58);
	tp_test_assert_mbuf_bytes(m, b + 2, 148);
	/* cut 31: the last segment freed, the middle one loses a byte */
	assert_int_equal(tp_xdp_adjust_tail(&c, -31), 0);
	assert_int_equal(m->nb_segs, 2);
	assert_int_equal(c.pkt_len, 117);
	tp_test_assert_mbuf_bytes(m, b + 2, 117);
	/* grow 3 zero bytes in the (new) last segment */
	assert_int_equal(tp_xdp_adjust_tail(&c, 3), 0);
	memset(b + 2 + 117, 0, 3);
	tp_test_assert_mbuf_bytes(m, b + 2, 120);
	/* down to the first segment alone: 20 of its 58 bytes */
	assert_int_equal(tp_xdp_adjust_tail(&c, -100), 0);
	assert_int_equal(m->nb_segs, 1);
	assert_null(m->next);
	assert_int_equal(c.data_end - c.data, 20);
	tp_test_assert_mbuf_bytes(m, b + 2, 20);
	rte_pktmbuf_free(m);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* A merged packet (RX_LRO) with a 14-byte L2 header: l2_len follows the
 * head edits, which may not cut into L3; tail edits refused. */
static void
test_merged_l2_len(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	uint8_t b[64];
	struct tp_xdp_md c;
	struct snap sn;
	struct rte_mbuf *m;

	(void)state;
	m = small_frame(b);
	m->ol_flags |= RTE_MBUF_F_RX_LRO;
	m->l2_len = 14;
	ctx_of(&c, m);
	snap_take(&sn, m, &c);
	assert_int_equal(tp_xdp_adjust_head(&c, 1), -EINVAL);
	assert_int_equal(tp_xdp_adjust_tail(&c, -1), -EOPNOTSUPP);
	snap_same(&sn, m, &c);
	assert_int_equal(tp_xdp_vlan_push(&c, 0x8100, 7), 0);
	assert_int_equal(m->l2_len, 18);
	assert_int_equal(tp_xdp_adjust_head(&c, -8), 0);
	assert_int_equal(m->l2_len, 26);
	assert_int_equal(tp_xdp_adjust_head(&c, 8), 0);
	assert_int_equal(tp_xdp_vlan_pop(&c), 7);
	assert_int_equal(m->l2_len, 14);
	tp_test_assert_mbuf_bytes(m, b, 60);
	rte_pktmbuf_free(m);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_macswap_tx, setup),
		cmocka_unit_test_setup(test_vlan_push_tx, setup),
		cmocka_unit_test_setup(test_vlan_pop_tx, setup),
		cmocka_unit_test_setup(test_vlan_pop_untagged, setup),
		cmocka_unit_test_setup(test_trim_tail_tx, setup),
		cmocka_unit_test_setup(test_vlan_push_merged, setup),
		cmocka_unit_test_setup(test_trim_merged_refused, setup),
		cmocka_unit_test_setup(test_bounds_refused, setup),
		cmocka_unit_test_setup(test_grow_shrink_exact, setup),
		cmocka_unit_test_setup(test_chained, setup),
		cmocka_unit_test_setup(test_merged_l2_len, setup),
	};

	return cmocka_run_group_tests(tests, setup_group, NULL);
}
