/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pipeline verdicts and actions on mbuf bursts: PASS (merged by GRO), TX
 * (re-segmented and re-tagged), DROP, ABORTED, out-of-range verdicts, the
 * before-GRO hook, GRO age mode and flush, unconfigured ports, oversized
 * bursts. Exact frames, exact counters, conservation, mempool back.
 */
#include <rte_cycles.h>

#include "pl_test.h"

#define SEG_PAY 100

static struct rte_mempool *mp;

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	if (mp == NULL)
		mp = tp_test_pool_create("plv", 512, 0);
	return 0;
}

/* Port 0: edsa, VLAN strip, GRO burst. */
static void
conf_edsa(struct tp_pipeline_conf *c, const char *prog)
{
	tp_pipeline_conf_init(c);
	c->port[0].enabled = true;
	snprintf(c->port[0].tagger, sizeof(c->port[0].tagger), "edsa");
	c->prog_spec = prog;
}

/* Segment i of the test flow from switch port sp. */
static void
seg_spec(struct pl_spec *s, uint8_t sp, unsigned int i)
{
	pl_default_spec(s);
	pl_edsa_rx(s, sp);
	s->seq = 1000 + i * SEG_PAY;
	s->ip_id = (uint16_t)(100 + i);
	s->paylen = SEG_PAY;
	s->payseed = (uint8_t)(i * SEG_PAY);
}

static void
four_segs(struct rte_mbuf **m, uint8_t sp)
{
	struct pl_spec s;

	for (unsigned int i = 0; i < 4; i++) {
		seg_spec(&s, sp, i);
		m[i] = pl_mbuf(mp, &s);
	}
}

static void
test_pass_merged(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *pkts[2 * 4];
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	uint16_t r;

	(void)state;
	conf_edsa(&c, "pass");
	pl = pl_make(&c);
	four_segs(pkts, 3);
	r = tp_pipeline_rx_burst(pl, 0, 0, pkts, 4);
	assert_int_equal(r, 1);
	/* One merged packet: the untagged first segment's headers + 400 bytes. */
	assert_int_equal(pkts[0]->pkt_len, 14 + 20 + 20 + 4 * SEG_PAY);
	assert_int_equal(tp_gro_segs(pkts[0]), 4);
	assert_true(pkts[0]->ol_flags & RTE_MBUF_F_RX_LRO);
	assert_true(tp_dsa_meta(pkts[0])->flags & TP_DSA_META_F_VALID);
	assert_int_equal(tp_dsa_meta(pkts[0])->port, 3);

	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.rx, 4);
	assert_int_equal(st.pass, 4);
	assert_int_equal(st.verdict[TP_PASS], 4);
	assert_int_equal(st.verdict_pkts[TP_PASS], 1);
	assert_int_equal(st.stage[TP_STAGE_DSA].in, 4);
	assert_int_equal(st.stage[TP_STAGE_DSA].out, 4);
	assert_int_equal(st.stage[TP_STAGE_GRO].in, 4);
	assert_int_equal(st.stage[TP_STAGE_GRO].out, 1);
	assert_int_equal(st.port[0].rx, 4);
	assert_int_equal(st.port[0].rx_queue[0], 4);
	assert_int_equal(st.drop, 0);
	pl_assert_conservation(pl);
	rte_pktmbuf_free(pkts[0]);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* TX: the merged packet leaves as its four original frames, MACs swapped,
 * re-tagged edsa FROM_CPU for source switch port 3 (docs/ref/dsa-tags.md §4.4). */
static void
test_tx_resegment_retag(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *pkts[8];
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct pl_cap cap = { .n = 0 };

	(void)state;
	conf_edsa(&c, "tx");
	c.egress_cb = pl_cap_egress;
	c.egress_arg = &cap;
	c.tx_queue = 2;
	pl = pl_make(&c);
	four_segs(pkts, 3);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, 4), 0);
	assert_int_equal(cap.n, 4);
	assert_int_equal(cap.calls, 1);
	for (unsigned int i = 0; i < 4; i++) {
		struct pl_spec s;

		seg_spec(&s, 3, i);
		pl_swap_mac(&s);
		pl_edsa_tx(&s, 3);
		pl_assert_frame(cap.m[i], &s);
		assert_int_equal(cap.port[i], 0);
		assert_int_equal(cap.queue[i], 2);
		assert_int_equal(cap.verdict[i], TP_TX);
	}
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.tx, 4);
	assert_int_equal(st.verdict_pkts[TP_TX], 1);
	assert_int_equal(st.segmented, 1);
	assert_int_equal(st.port[0].tx, 4);
	assert_int_equal(st.port[0].tx_wire, 4);
	pl_assert_conservation(pl);
	pl_cap_free(&cap);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* A registered program: verdict = dport - 1000 (values up to 5). */
static inline enum tp_verdict
by_dport(void *priv, struct tp_xdp_md *ctx)
{
	const uint8_t *l4 = ctx->data + 14 + 20;

	(void)priv;
	if (l4 + 4 > ctx->data_end)
		return TP_ABORTED;
	ctx->redirect_key = 7;
	return (enum tp_verdict)(((l4[2] << 8) | l4[3]) - 1000);
}
TP_PROG_DEFINE(by_dport_burst, by_dport)

static const struct tp_prog_ops by_dport_ops = {
	.name = "test-by-dport",
	.usage = "test-by-dport  verdict = dport - 1000",
	.burst = by_dport_burst,
};

static void
test_all_verdicts(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *pkts[16];
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct pl_cap cap = { .n = 0 }, pass = { .n = 0 }, drops = { .n = 0 };
	/* dport-1000 per frame: ABORTED, DROP, PASS, TX, REDIRECT, 5, PASS, DROP */
	const uint16_t v[8] = { 0, 1, 2, 3, 4, 5, 2, 1 };

	(void)state;
	assert_int_equal(tp_prog_register(&by_dport_ops), 0);
	assert_int_equal(tp_prog_register(&by_dport_ops), -EEXIST);
	conf_edsa(&c, "test-by-dport");
	c.gro.mode = TP_GRO_OFF;
	c.egress_cb = pl_cap_egress;
	c.egress_arg = &cap;
	c.pass_cb = pl_cap_pass;
	c.pass_arg = &pass;
	c.drop_cb = pl_cap_drop;
	c.drop_arg = &drops;
	pl = pl_make(&c);
	for (unsigned int i = 0; i < 8; i++) {
		struct pl_spec s;

		seg_spec(&s, 1, 0);
		s.dport = (uint16_t)(1000 + v[i]);
		pkts[i] = pl_mbuf(mp, &s);
	}
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, 8), 0);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.rx, 8);
	assert_int_equal(st.aborted, 2);
	assert_int_equal(st.bad_verdict, 1);
	assert_int_equal(st.verdict[TP_ABORTED], 2);
	assert_int_equal(st.verdict[TP_DROP], 2);
	assert_int_equal(st.verdict[TP_PASS], 2);
	assert_int_equal(st.verdict[TP_TX], 1);
	assert_int_equal(st.verdict[TP_REDIRECT], 1);
	assert_int_equal(st.drop_reason[TP_DROP_VERDICT], 2);
	/* No redirect map: the REDIRECT frame has no target. */
	assert_int_equal(st.drop_reason[TP_DROP_NO_TARGET], 1);
	assert_int_equal(st.drop, 3);
	assert_int_equal(st.pass, 2);
	assert_int_equal(st.tx, 1);
	assert_int_equal(st.redirect, 0);
	assert_int_equal(pass.n, 2);
	assert_int_equal(pass.calls, 1);
	assert_int_equal(cap.n, 1);
	assert_int_equal(drops.aborted_seen, 2);
	assert_int_equal(drops.dropped_seen, 3);
	assert_int_equal(st.stage[TP_STAGE_ACTIONS].in, 8);
	assert_int_equal(st.stage[TP_STAGE_ACTIONS].drop, 5);
	/* PASS frames keep their order and lost their edsa tag. */
	{
		struct pl_spec s;

		seg_spec(&s, 1, 0);
		s.tag_len = 0;
		s.dport = 1002;
		pl_assert_frame(pass.m[0], &s);
		pl_assert_frame(pass.m[1], &s);
	}
	pl_assert_conservation(pl);
	pl_cap_free(&cap);
	pl_cap_free(&pass);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Hook before GRO: one verdict per frame; PASS frames still merge. */
static void
test_hook_before_gro(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *pkts[10];
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;

	(void)state;
	conf_edsa(&c, "pass");
	c.hook = TP_HOOK_BEFORE_GRO;
	pl = pl_make(&c);
	four_segs(pkts, 2);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, 4), 1);
	assert_int_equal(tp_gro_segs(pkts[0]), 4);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.verdict_pkts[TP_PASS], 4);
	assert_int_equal(st.stage[TP_STAGE_VERDICT].in, 4);
	assert_int_equal(st.pass, 4);
	pl_assert_conservation(pl);
	rte_pktmbuf_free(pkts[0]);
	tp_pipeline_destroy(pl);

	/* drop before GRO: nothing reaches GRO. */
	conf_edsa(&c, "drop");
	c.hook = TP_HOOK_BEFORE_GRO;
	pl = pl_make(&c);
	four_segs(pkts, 2);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, 4), 0);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.verdict_pkts[TP_DROP], 4);
	assert_int_equal(st.drop_reason[TP_DROP_VERDICT], 4);
	assert_int_equal(st.stage[TP_STAGE_GRO].in, 0);
	pl_assert_conservation(pl);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Age mode: frames stay in GRO across bursts; flush hands them over. */
static void
test_age_and_flush(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *pkts[8], *out[4];
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;

	(void)state;
	conf_edsa(&c, "pass");
	c.gro.mode = TP_GRO_AGE;
	c.gro.age_usec = 1000000;
	pl = pl_make(&c);
	four_segs(pkts, 1);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, 2), 0);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.held_in_gro, 2);
	assert_int_equal(tp_pipeline_held(pl), 2);
	pl_assert_conservation(pl);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts + 2, 2), 0);
	assert_int_equal(tp_pipeline_held(pl), 4);
	/* Not aged yet. */
	assert_int_equal(tp_pipeline_flush(pl, false, out, 4), 0);
	/* No room: nothing taken. */
	assert_int_equal(tp_pipeline_flush(pl, true, out, 0), 0);
	assert_int_equal(tp_pipeline_flush(pl, true, out, 4), 1);
	assert_int_equal(tp_gro_segs(out[0]), 4);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.held_in_gro, 0);
	assert_int_equal(st.pass, 4);
	pl_assert_conservation(pl);
	rte_pktmbuf_free(out[0]);

	/* Destroy with frames held: they are freed with the instance. */
	four_segs(pkts, 1);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, 4), 0);
	assert_int_equal(tp_pipeline_held(pl), 4);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Age mode without pass_cb: aggregates that age out are handed back only
 * as far as the caller's 2n room goes; the rest wait for the next call. */
static void
test_age_room(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *pkts[8], *two[2], *rest[8];
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct pl_spec s;

	(void)state;
	conf_edsa(&c, "pass");
	c.gro.mode = TP_GRO_AGE;
	c.gro.age_usec = 1;
	pl = pl_make(&c);
	/* Segment 0 of four flows (switch ports 0..3): four aggregates. */
	for (uint8_t sp = 0; sp < 4; sp++) {
		seg_spec(&s, sp, 0);
		pkts[sp] = pl_mbuf(mp, &s);
	}
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, 4), 0);
	assert_int_equal(tp_pipeline_held(pl), 4);
	rte_delay_us_block(100);
	/* n = 1 (a fifth flow, held): room for 2 of the 4 aged. */
	seg_spec(&s, 5, 0);
	two[0] = pl_mbuf(mp, &s);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, two, 1), 2);
	assert_int_equal(tp_dsa_meta(two[0])->port, 0); /* oldest first */
	assert_int_equal(tp_dsa_meta(two[1])->port, 1);
	rte_pktmbuf_free_bulk(two, 2);
	assert_int_equal(tp_pipeline_held(pl), 3);
	pl_assert_conservation(pl);
	assert_int_equal(tp_pipeline_flush(pl, true, rest, 8), 3);
	rte_pktmbuf_free_bulk(rest, 3);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.pass, 5);
	assert_int_equal(st.held_in_gro, 0);
	pl_assert_conservation(pl);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* A program that records the largest burst it is given. */
static unsigned int seen_max, seen_total, seen_calls;

static void
count_burst(const struct tp_prog_env *env, struct rte_mbuf **pkts, uint16_t n,
	    uint8_t *verdict, uint32_t *key)
{
	(void)env;
	(void)pkts;
	(void)key;
	seen_max = RTE_MAX(seen_max, (unsigned int)n);
	seen_total += n;
	seen_calls++;
	memset(verdict, TP_PASS, n);
}

static const struct tp_prog_ops count_ops = {
	.name = "test-count-burst",
	.usage = "test-count-burst  PASS all, record the burst sizes",
	.burst = count_burst,
};

struct order_cap {
	unsigned int n;
	uint16_t sport[2 * TP_PIPELINE_MAX_BURST];
};

static void
free_pass(void *arg, uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
	  uint16_t n)
{
	struct order_cap *oc = arg;

	(void)port;
	(void)queue;
	for (uint16_t i = 0; i < n; i++) {
		const uint8_t *l4 = rte_pktmbuf_mtod_offset(pkts[i], const uint8_t *,
							    14 + 20);

		oc->sport[oc->n++] = (uint16_t)(l4[0] << 8 | l4[1]);
	}
	rte_pktmbuf_free_bulk(pkts, n);
}

/* GRO age mode with pass_cb gives one rx_burst 256 aged aggregates plus
 * 256 frames it passes (UDP): 512 packets, which the program must see in
 * calls of at most TP_PIPELINE_MAX_BURST, in GRO's order. */
static void
test_prog_burst_bounded(void **state)
{
	struct rte_mempool *big = tp_test_pool_create("plv_big", 1024, 0);
	unsigned int start = tp_test_pool_in_use(big);
	static struct rte_mbuf *pkts[TP_PIPELINE_MAX_BURST];
	struct order_cap oc = { .n = 0 };
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct pl_spec s;

	(void)state;
	assert_int_equal(tp_prog_register(&count_ops), 0);
	conf_edsa(&c, "test-count-burst");
	c.gro.mode = TP_GRO_AGE;
	c.gro.age_usec = 1;
	c.gro.max_flows = 1024;
	c.pass_cb = free_pass;
	c.pass_arg = &oc;
	pl = pl_make(&c);
	for (unsigned int i = 0; i < TP_PIPELINE_MAX_BURST; i++) {
		seg_spec(&s, 1, 0);
		s.sport = (uint16_t)(2000 + i); /* 256 flows, one segment each */
		pkts[i] = pl_mbuf(big, &s);
	}
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, TP_PIPELINE_MAX_BURST), 0);
	assert_int_equal(tp_pipeline_held(pl), TP_PIPELINE_MAX_BURST);
	assert_int_equal(seen_calls, 0);
	rte_delay_us_block(100);
	for (unsigned int i = 0; i < TP_PIPELINE_MAX_BURST; i++) {
		seg_spec(&s, 1, 0);
		s.proto = 17;
		s.sport = (uint16_t)(5000 + i);
		pkts[i] = pl_mbuf(big, &s);
	}
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, TP_PIPELINE_MAX_BURST), 0);
	assert_int_equal(seen_total, 2 * TP_PIPELINE_MAX_BURST);
	assert_int_equal(seen_max, TP_PIPELINE_MAX_BURST);
	assert_int_equal(seen_calls, 2);
	assert_int_equal(oc.n, 2 * TP_PIPELINE_MAX_BURST);
	/* Every packet once, each kind in its input order (GRO puts what it
	 * passes through ahead of the aged aggregates). */
	{
		unsigned int next_tcp = 2000, next_udp = 5000;

		for (unsigned int i = 0; i < oc.n; i++) {
			if (oc.sport[i] < 5000)
				assert_int_equal(oc.sport[i], next_tcp++);
			else
				assert_int_equal(oc.sport[i], next_udp++);
		}
		assert_int_equal(next_tcp, 2000 + TP_PIPELINE_MAX_BURST);
		assert_int_equal(next_udp, 5000 + TP_PIPELINE_MAX_BURST);
	}
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.pass, 2 * TP_PIPELINE_MAX_BURST);
	assert_int_equal(st.stage[TP_STAGE_VERDICT].in, 2 * TP_PIPELINE_MAX_BURST);
	assert_int_equal(st.held_in_gro, 0);
	pl_assert_conservation(pl);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(big, start);
	rte_mempool_free(big);
}

static void
test_unconfigured_port_and_big_burst(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *pkts[2 * (TP_PIPELINE_MAX_BURST + 2)];
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct pl_cap drops = { .n = 0 };

	(void)state;
	conf_edsa(&c, "drop");
	c.drop_cb = pl_cap_drop;
	c.drop_arg = &drops;
	c.gro.mode = TP_GRO_OFF;
	pl = pl_make(&c);
	four_segs(pkts, 0);
	assert_int_equal(tp_pipeline_rx_burst(pl, 5, 0, pkts, 4), 0);
	assert_int_equal(tp_pipeline_rx_burst(pl, 999, 0, pkts, 0), 0);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.drop_reason[TP_DROP_NO_PORT], 4);
	assert_int_equal(drops.dropped_seen, 4);
	for (unsigned int i = 0; i < TP_PIPELINE_MAX_BURST + 2; i++) {
		struct pl_spec s;

		seg_spec(&s, 0, 0);
		pkts[i] = pl_mbuf(mp, &s);
	}
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, TP_PIPELINE_MAX_BURST + 2), 0);
	tp_pipeline_stats_get(pl, &st);
	/* a burst above the maximum runs in two: every frame gets its verdict */
	assert_int_equal(st.drop_reason[TP_DROP_VERDICT], TP_PIPELINE_MAX_BURST + 2);
	assert_int_equal(st.stage[TP_STAGE_VERDICT].calls, 2);
	assert_int_equal(st.rx, 4 + TP_PIPELINE_MAX_BURST + 2);
	pl_assert_conservation(pl);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Bad wire input: an edsa frame naming a port outside n_ports is a counted
 * stage drop; a tag split over two segments and a runt too. */
/* A burst of 300 segments of one flow, above TP_PIPELINE_MAX_BURST, with
 * GRO in burst mode: it runs as 256 + 44, each merged on its own (an
 * aggregate of at most conf.gro.max_segs), the PASS packets in pkts in
 * sequence order, every segment in exactly one of them. */
static void
test_big_burst_merges_in_parts(void **state)
{
	struct rte_mempool *big = tp_test_pool_create("plv_bigb", 1024, 0);
	unsigned int start = tp_test_pool_in_use(big);
	static struct rte_mbuf *pkts[2 * 300];
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct pl_spec s;
	uint32_t segs = 0, boundary = 0;
	uint16_t r;

	(void)state;
	conf_edsa(&c, "pass");
	c.gro.mode = TP_GRO_BURST;
	pl = pl_make(&c);
	for (unsigned int i = 0; i < 300; i++) {
		seg_spec(&s, 1, i);
		pkts[i] = pl_mbuf(big, &s);
	}
	r = tp_pipeline_rx_burst(pl, 0, 0, pkts, 300);
	tp_pipeline_stats_get(pl, &st);
	assert_true(r >= 2);
	for (uint16_t i = 0; i < r; i++) {
		const uint8_t *th = rte_pktmbuf_mtod(pkts[i], const uint8_t *) + 14 + 20;
		uint32_t seq = (uint32_t)th[4] << 24 | th[5] << 16 | th[6] << 8 | th[7];

		/* the aggregate starts where the previous one ended */
		assert_int_equal(seq, 1000 + segs * SEG_PAY);
		segs += tp_gro_segs(pkts[i]);
		boundary += segs == TP_PIPELINE_MAX_BURST;
	}
	assert_int_equal(segs, 300);
	assert_int_equal(boundary, 1);   /* no aggregate spans the two parts */
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.rx, 300);
	assert_int_equal(st.pass, 300);
	assert_int_equal(st.drop, 0);
	assert_int_equal(st.stage[TP_STAGE_GRO].calls, 2);
	assert_int_equal(st.stage[TP_STAGE_GRO].in, 300);
	assert_int_equal(st.stage[TP_STAGE_GRO].out, r);
	pl_assert_conservation(pl);
	rte_pktmbuf_free_bulk(pkts, r);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(big, start);
	rte_mempool_free(big);
}

static void
test_stage_drops(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *pkts[8];
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct pl_spec s;
	uint16_t r;

	(void)state;
	conf_edsa(&c, "pass");
	c.port[0].dsa.n_ports = 4;
	c.gro.mode = TP_GRO_OFF;
	pl = pl_make(&c);
	seg_spec(&s, 6, 0);
	pkts[0] = pl_mbuf(mp, &s);
	seg_spec(&s, 2, 0);
	pkts[1] = pl_mbuf(mp, &s);
	/* A tag split across segments (first segment 16 bytes). */
	seg_spec(&s, 1, 0);
	{
		uint8_t b[PL_MAX_FRAME];
		size_t len = pl_build(b, &s);

		pkts[2] = tp_test_mbuf_chain_from_bytes(mp, b, (uint32_t)len, 16);
	}
	/* A runt: shorter than the tag + Ethernet header. */
	{
		const uint8_t runt[10] = { 0 };

		pkts[3] = tp_test_mbuf_from_bytes(mp, runt, sizeof(runt));
	}
	r = tp_pipeline_rx_burst(pl, 0, 0, pkts, 4);
	assert_int_equal(r, 1);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.drop_reason[TP_DROP_DSA_BASE + TP_DSA_DROP_PORT_RANGE], 1);
	assert_int_equal(st.drop_reason[TP_DROP_DSA_BASE + TP_DSA_DROP_SEGMENTED], 1);
	assert_int_equal(st.drop_reason[TP_DROP_DSA_BASE + TP_DSA_DROP_TOO_SHORT], 1);
	assert_int_equal(st.stage[TP_STAGE_DSA].drop, 3);
	assert_string_equal(tp_drop_reason_name(TP_DROP_DSA_BASE + TP_DSA_DROP_PORT_RANGE),
			    "dsa_port_range");
	assert_string_equal(tp_drop_reason_name(TP_DROP_TX_FULL), "tx_full");
	assert_string_equal(tp_drop_reason_name(TP_DROP_VLAN_BASE + TP_VLAN_DROP_NO_HEADROOM),
			    "vlan_no_headroom");
	assert_null(tp_drop_reason_name(TP_DROP_MAX));
	assert_string_equal(tp_verdict_name(TP_REDIRECT), "redirect");
	assert_string_equal(tp_stage_name(TP_STAGE_GRO), "gro");
	pl_assert_conservation(pl);
	rte_pktmbuf_free(pkts[0]);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_pass_merged, setup),
		cmocka_unit_test_setup(test_tx_resegment_retag, setup),
		cmocka_unit_test_setup(test_all_verdicts, setup),
		cmocka_unit_test_setup(test_hook_before_gro, setup),
		cmocka_unit_test_setup(test_age_and_flush, setup),
		cmocka_unit_test_setup(test_age_room, setup),
		cmocka_unit_test_setup(test_prog_burst_bounded, setup),
		cmocka_unit_test_setup(test_unconfigured_port_and_big_burst, setup),
		cmocka_unit_test_setup(test_big_burst_merges_in_parts, setup),
		cmocka_unit_test_setup(test_stage_drops, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
