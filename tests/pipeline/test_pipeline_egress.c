/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Egress: VLAN re-insert (software and NIC flags), edsa re-tag of 802.1Q
 * frames, hardware TSO flags, software re-segmentation with a mempool that
 * runs dry, and a TX ring that refuses frames (rte_eth_from_rings).
 */
#include <rte_ethdev.h>
#include <rte_eth_ring.h>
#include <rte_ring.h>

#include "pl_test.h"

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

static void
conf_port0(struct tp_pipeline_conf *c, const char *tagger, const char *prog,
	   struct pl_cap *cap)
{
	tp_pipeline_conf_init(c);
	c->port[0].enabled = true;
	snprintf(c->port[0].tagger, sizeof(c->port[0].tagger), "%s", tagger);
	c->prog_spec = prog;
	c->egress_cb = pl_cap_egress;
	c->egress_arg = cap;
}

static void
qinq_spec(struct pl_spec *s)
{
	pl_default_spec(s);
	s->outer_tpid = 0x88A8;
	s->outer_tci = 0x0064;
	s->inner_tpid = 0x8100;
	s->inner_tci = 0x20C8; /* PCP 1, VID 200 */
}

static void
test_vlan_reinsert_sw(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct pl_cap cap = { .n = 0 };
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct rte_mbuf *m[2];
	struct pl_spec s;

	(void)state;
	conf_port0(&c, "none", "tx", &cap);
	pl = pl_make(&c);
	qinq_spec(&s);
	m[0] = pl_mbuf(mp, &s);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 1), 0);
	assert_int_equal(cap.n, 1);
	pl_swap_mac(&s);
	pl_assert_frame(cap.m[0], &s);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.stage[TP_STAGE_VLAN].out, 1);
	assert_int_equal(st.tx, 1);
	pl_assert_conservation(pl);
	pl_cap_free(&cap);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

static void
test_vlan_reinsert_nic(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct pl_cap cap = { .n = 0 };
	struct tp_pipeline_conf c;
	struct tp_pipeline *pl;
	struct rte_mbuf *m[2];
	struct pl_spec s;

	(void)state;
	conf_port0(&c, "none", "tx", &cap);
	c.port[0].tx_caps = TP_PORT_TX_VLAN_INSERT | TP_PORT_TX_QINQ_INSERT;
	pl = pl_make(&c);
	qinq_spec(&s);
	m[0] = pl_mbuf(mp, &s);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 1), 0);
	assert_int_equal(cap.n, 1);
	/* Untouched frame, the NIC is asked to insert both tags. */
	pl_swap_mac(&s);
	s.outer_tpid = s.inner_tpid = 0;
	pl_assert_frame(cap.m[0], &s);
	assert_true(cap.m[0]->ol_flags & RTE_MBUF_F_TX_VLAN);
	assert_true(cap.m[0]->ol_flags & RTE_MBUF_F_TX_QINQ);
	assert_int_equal(cap.m[0]->vlan_tci, 0x20C8);
	assert_int_equal(cap.m[0]->vlan_tci_outer, 0x0064);
	pl_assert_conservation(pl);
	pl_cap_free(&cap);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* edsa RX of an 802.1Q frame (tag "e0 18 00 64", docs/ref/dsa-tags.md §4.3) becomes
 * 8100/0064 then vlan_tci; TX converts the re-inserted 802.1Q tag in place:
 * da da 00 00 60 18 00 64 (FROM_CPU, tagged). */
static void
test_edsa_vlan_roundtrip(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	const uint8_t rx[8] = { 0xda, 0xda, 0, 0, 0xe0, 0x18, 0x00, 0x64 };
	const uint8_t tx[8] = { 0xda, 0xda, 0, 0, 0x60, 0x18, 0x00, 0x64 };
	struct pl_cap cap = { .n = 0 }, pass = { .n = 0 };
	struct tp_pipeline_conf c;
	struct tp_pipeline *pl;
	struct rte_mbuf *m[2];
	struct pl_spec s;

	(void)state;
	conf_port0(&c, "edsa", "tx", &cap);
	pl = pl_make(&c);
	pl_default_spec(&s);
	memcpy(s.tag, rx, 8);
	s.tag_len = 8;
	m[0] = pl_mbuf(mp, &s);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 1), 0);
	assert_int_equal(cap.n, 1);
	pl_swap_mac(&s);
	memcpy(s.tag, tx, 8);
	pl_assert_frame(cap.m[0], &s);
	pl_cap_free(&cap);
	tp_pipeline_destroy(pl);

	/* The program sees the switch port and the VLAN the tag carried. */
	conf_port0(&c, "edsa", "pass", &cap);
	c.pass_cb = pl_cap_pass;
	c.pass_arg = &pass;
	pl = pl_make(&c);
	pl_default_spec(&s);
	memcpy(s.tag, rx, 8);
	s.tag_len = 8;
	m[0] = pl_mbuf(mp, &s);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 1), 0);
	assert_int_equal(pass.n, 1);
	assert_int_equal(pass.m[0]->vlan_tci, 0x0064);
	assert_true(pass.m[0]->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED);
	{
		struct tp_prog_env env = { .port = 0, .queue = 0 };
		struct tp_xdp_md ctx;

		tp_xdp_md_fill(&ctx, &env, pass.m[0]);
		assert_int_equal(ctx.switch_port, 3);
		assert_int_equal(ctx.nb_vlan, 1);
		assert_int_equal(ctx.vlan_tci, 0x0064);
		assert_int_equal(ctx.gro_segs, 1);
		assert_int_equal(ctx.pkt_len, 14 + 20 + 20 + 100);
		assert_ptr_equal(ctx.data_end, ctx.data + 154);
	}
	pl_cap_free(&pass);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

static void
four_edsa(struct rte_mbuf **m, uint8_t sp)
{
	for (unsigned int i = 0; i < 4; i++) {
		struct pl_spec s;

		pl_default_spec(&s);
		pl_edsa_rx(&s, sp);
		s.seq = 1000 + i * 100;
		s.ip_id = (uint16_t)(100 + i);
		s.payseed = (uint8_t)(i * 100);
		m[i] = pl_mbuf(mp, &s);
	}
}

/* Port with TSO: the merged packet leaves as one mbuf with TSO metadata,
 * l2_len covering MACs + the inserted edsa tag. */
static void
test_tso_hw(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct pl_cap cap = { .n = 0 };
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct rte_mbuf *m[8];
	uint8_t got[PL_MAX_FRAME], want[PL_MAX_FRAME];
	struct pl_spec s;
	uint32_t len;

	(void)state;
	conf_port0(&c, "edsa", "tx", &cap);
	c.port[0].tx_caps = TP_PORT_TX_TSO;
	pl = pl_make(&c);
	four_edsa(m, 3);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 4), 0);
	assert_int_equal(cap.n, 1);
	assert_true(cap.m[0]->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
	assert_true(cap.m[0]->ol_flags & RTE_MBUF_F_TX_IPV4);
	assert_true(cap.m[0]->ol_flags & RTE_MBUF_F_TX_IP_CKSUM);
	assert_false(cap.m[0]->ol_flags & RTE_MBUF_F_RX_LRO);
	assert_int_equal(cap.m[0]->l2_len, 14 + 8);
	assert_int_equal(cap.m[0]->l3_len, 20);
	assert_int_equal(cap.m[0]->l4_len, 20);
	assert_int_equal(cap.m[0]->tso_segsz, 100);
	len = tp_test_mbuf_to_bytes(cap.m[0], got, sizeof(got));
	assert_int_equal(len, 22 + 40 + 400);
	/* MACs swapped + FROM_CPU tag, IPv4 total length 440, payload in order. */
	pl_default_spec(&s);
	pl_swap_mac(&s);
	pl_edsa_tx(&s, 3);
	pl_build(want, &s);
	assert_memory_equal(got, want, 22);
	assert_int_equal(got[22 + 2] << 8 | got[22 + 3], 440);
	for (unsigned int i = 0; i < 400; i++)
		assert_int_equal(got[62 + i], (uint8_t)i);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.tso, 1);
	assert_int_equal(st.tx, 4);
	assert_int_equal(st.port[0].tx, 4);
	assert_int_equal(st.port[0].tx_wire, 1);
	pl_assert_conservation(pl);
	pl_cap_free(&cap);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* TSO with tags written in software: l2_len grows by the QinQ tags the
 * VLAN insert puts back; the NIC then copies them in front of every
 * segment. A fixed-IP-ID aggregate is split in software instead (hardware
 * TSO would increment the IDs). */
static void
test_tso_vlan_and_fixedid(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct pl_cap cap = { .n = 0 };
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct rte_mbuf *m[8];
	uint8_t got[PL_MAX_FRAME], want[PL_MAX_FRAME];
	struct pl_spec s;

	(void)state;
	conf_port0(&c, "none", "tx", &cap);
	c.port[0].tx_caps = TP_PORT_TX_TSO;
	pl = pl_make(&c);
	for (unsigned int i = 0; i < 4; i++) {
		qinq_spec(&s);
		s.seq = 1000 + i * 100;
		s.ip_id = (uint16_t)(100 + i);
		s.payseed = (uint8_t)(i * 100);
		m[i] = pl_mbuf(mp, &s);
	}
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 4), 0);
	assert_int_equal(cap.n, 1);
	assert_true(cap.m[0]->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
	assert_int_equal(cap.m[0]->l2_len, 14 + 8);
	assert_int_equal(tp_test_mbuf_to_bytes(cap.m[0], got, sizeof(got)), 22 + 40 + 400);
	qinq_spec(&s);
	pl_swap_mac(&s);
	pl_build(want, &s);
	assert_memory_equal(got, want, 22);
	pl_cap_free(&cap);

	/* Same flow, fixed IP IDs. */
	for (unsigned int i = 0; i < 4; i++) {
		qinq_spec(&s);
		s.seq = 1000 + i * 100;
		s.payseed = (uint8_t)(i * 100);
		m[i] = pl_mbuf(mp, &s);
	}
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 4), 0);
	assert_int_equal(cap.n, 4);
	for (unsigned int i = 0; i < 4; i++) {
		qinq_spec(&s);
		s.seq = 1000 + i * 100;
		s.payseed = (uint8_t)(i * 100);
		pl_swap_mac(&s);
		pl_assert_frame(cap.m[i], &s);
	}
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.tso, 1);
	assert_int_equal(st.segmented, 1);
	assert_int_equal(st.tx, 8);
	assert_int_equal(st.port[0].tx_wire, 1 + 4);
	pl_assert_conservation(pl);
	pl_cap_free(&cap);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* A merged packet that is one big mbuf (NIC LRO layout) must be copied to
 * be segmented: a pool that runs dry is a counted drop; a pool that has
 * room gives back the exact original frames. */
static void
test_segment_pool_dry(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mempool *small = tp_test_pool_create("plsmall", 2, 0);
	struct rte_mempool *big = tp_test_pool_create("plbig", 8, 0);
	struct pl_cap cap = { .n = 0 };
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct rte_mbuf *m[2];
	struct pl_spec s;

	(void)state;
	for (int round = 0; round < 2; round++) {
		conf_port0(&c, "none", "tx", &cap);
		c.gro.mode = TP_GRO_OFF;
		c.seg_pool = round == 0 ? small : big;
		pl = pl_make(&c);
		pl_default_spec(&s);
		s.paylen = 400;
		m[0] = pl_mbuf(mp, &s);
		m[0]->ol_flags |= RTE_MBUF_F_RX_LRO;
		m[0]->tso_segsz = 100;
		m[0]->l2_len = 14;
		m[0]->l3_len = 20;
		m[0]->l4_len = 20;
		assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 1), 0);
		tp_pipeline_stats_get(pl, &st);
		assert_int_equal(st.verdict[TP_TX], 4); /* frames it stands for */
		if (round == 0) {
			assert_int_equal(cap.n, 0);
			assert_int_equal(st.drop_reason[TP_DROP_NO_MBUF], 4);
			assert_int_equal(st.drop, 4);
			TP_TEST_ASSERT_POOL_BACK(small, 0);
		} else {
			assert_int_equal(cap.n, 4);
			for (unsigned int i = 0; i < 4; i++) {
				pl_default_spec(&s);
				pl_swap_mac(&s);
				s.seq = 1000 + i * 100;
				s.ip_id = (uint16_t)(100 + i);
				s.payseed = (uint8_t)(i * 100);
				pl_assert_frame(cap.m[i], &s);
			}
			assert_int_equal(st.tx, 4);
			assert_int_equal(st.segmented, 1);
		}
		/* rx counts frames: the LRO mbuf stands for 4. */
		assert_int_equal(st.rx, 4);
		assert_int_equal(st.port[0].rx, 4);
		pl_assert_conservation(pl);
		pl_cap_free(&cap);
		tp_pipeline_destroy(pl);
	}
	TP_TEST_ASSERT_POOL_BACK(big, 0);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(small);
	rte_mempool_free(big);
}

/* A real ethdev whose TX ring holds 3 frames: 3 leave, 2 are tx_full drops
 * after the bounded retries; nothing leaks. */
static void
test_tx_ring_full(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_ring *rxr = rte_ring_create("pl_rxr", 4, SOCKET_ID_ANY,
					       RING_F_SP_ENQ | RING_F_SC_DEQ);
	struct rte_ring *txr = rte_ring_create("pl_txr", 4, SOCKET_ID_ANY,
					       RING_F_SP_ENQ | RING_F_SC_DEQ);
	struct rte_eth_conf ec = { 0 };
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct pl_cap drops = { .n = 0 };
	struct rte_mbuf *m[8], *back[8];
	int port;

	(void)state;
	assert_non_null(rxr);
	assert_non_null(txr);
	port = rte_eth_from_rings("pl_ring0", &rxr, 1, &txr, 1, SOCKET_ID_ANY);
	assert_true(port >= 0 && port < TP_PIPELINE_MAX_PORTS);
	assert_int_equal(rte_eth_dev_configure((uint16_t)port, 1, 1, &ec), 0);
	assert_int_equal(rte_eth_rx_queue_setup((uint16_t)port, 0, 4, SOCKET_ID_ANY, NULL, mp), 0);
	assert_int_equal(rte_eth_tx_queue_setup((uint16_t)port, 0, 4, SOCKET_ID_ANY, NULL), 0);
	assert_int_equal(rte_eth_dev_start((uint16_t)port), 0);

	tp_pipeline_conf_init(&c);
	c.port[port].enabled = true;
	c.prog_spec = "tx";
	c.gro.mode = TP_GRO_OFF;
	c.drop_cb = pl_cap_drop;
	c.drop_arg = &drops;
	pl = pl_make(&c);
	for (unsigned int i = 0; i < 5; i++) {
		struct pl_spec s;

		pl_default_spec(&s);
		s.sport = (uint16_t)(5000 + i);
		m[i] = pl_mbuf(mp, &s);
	}
	assert_int_equal(tp_pipeline_rx_burst(pl, (uint16_t)port, 0, m, 5), 0);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.tx, 3);
	assert_int_equal(st.drop_reason[TP_DROP_TX_FULL], 2);
	assert_int_equal(st.port[port].tx_full, 2);
	assert_int_equal(st.port[port].tx, 3);
	assert_int_equal(st.tx_retries, 4);
	assert_int_equal(drops.dropped_seen, 2);
	pl_assert_conservation(pl);
	/* What reached the wire: the first three, MACs swapped. */
	assert_int_equal(rte_ring_dequeue_burst(txr, (void **)back, 8, NULL), 3);
	for (unsigned int i = 0; i < 3; i++) {
		struct pl_spec s;

		pl_default_spec(&s);
		s.sport = (uint16_t)(5000 + i);
		pl_swap_mac(&s);
		pl_assert_frame(back[i], &s);
		rte_pktmbuf_free(back[i]);
	}
	tp_pipeline_destroy(pl);
	rte_eth_dev_stop((uint16_t)port);
	rte_eth_dev_close((uint16_t)port);
	rte_ring_free(rxr);
	rte_ring_free(txr);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_vlan_reinsert_sw, setup),
		cmocka_unit_test_setup(test_vlan_reinsert_nic, setup),
		cmocka_unit_test_setup(test_edsa_vlan_roundtrip, setup),
		cmocka_unit_test_setup(test_tso_hw, setup),
		cmocka_unit_test_setup(test_tso_vlan_and_fixedid, setup),
		cmocka_unit_test_setup(test_segment_pool_dry, setup),
		cmocka_unit_test_setup(test_tx_ring_full, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
