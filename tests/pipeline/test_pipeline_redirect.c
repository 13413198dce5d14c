/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Redirect through the map: port/queue targets re-tagged for several
 * taggers (dsa, brcm-prepend, trailer; layouts from
 * docs/ref/dsa-tags.md §3),
 * worker-ring targets, empty entries, control-plane updates between
 * bursts, a ring that refuses frames; and the array/hash/redirect map API.
 */
#include <rte_ring.h>

#include "pl_test.h"

static struct rte_mempool *mp;

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	if (mp == NULL)
		mp = tp_test_pool_create("plr", 512, 0);
	return 0;
}

static void
from_port(struct pl_spec *s, uint8_t sp)
{
	pl_default_spec(s);
	pl_edsa_rx(s, sp);
	s->sport = (uint16_t)(6000 + sp);
}

/* The untagged frame of from_port(sp) into b; returns its length. */
static size_t
untagged(uint8_t *b, uint8_t sp)
{
	struct pl_spec s;

	from_port(&s, sp);
	s.tag_len = 0;
	return pl_build(b, &s);
}

static void
test_by_switch_port(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_redirect_map *rm = tp_redirect_map_create(8);
	struct rte_ring *ring = rte_ring_create("plr_w", 16, SOCKET_ID_ANY, 0);
	struct pl_cap cap = { .n = 0 };
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct rte_mbuf *m[8], *w[4];
	uint8_t b[PL_MAX_FRAME], want[PL_MAX_FRAME];
	size_t len;

	(void)state;
	assert_non_null(rm);
	assert_non_null(ring);
	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	snprintf(c.port[0].tagger, sizeof(c.port[0].tagger), "edsa");
	c.port[1].enabled = true;
	snprintf(c.port[1].tagger, sizeof(c.port[1].tagger), "dsa");
	c.port[2].enabled = true;
	snprintf(c.port[2].tagger, sizeof(c.port[2].tagger), "brcm-prepend");
	c.port[3].enabled = true;
	snprintf(c.port[3].tagger, sizeof(c.port[3].tagger), "trailer");
	c.prog_spec = "by-switch-port";
	c.redirect = rm;
	c.egress_cb = pl_cap_egress;
	c.egress_arg = &cap;
	assert_int_equal(tp_redirect_map_set_port(rm, 0, 1, 1, 5), 0);
	assert_int_equal(tp_redirect_map_set_port(rm, 1, 2, 0, 2), 0);
	assert_int_equal(tp_redirect_map_set_port(rm, 2, 3, 3, -1), 0);
	assert_int_equal(tp_redirect_map_set_ring(rm, 3, ring), 0);
	pl = pl_make(&c);
	for (uint8_t sp = 0; sp < 5; sp++) {
		struct pl_spec s;

		from_port(&s, sp);
		m[sp] = pl_mbuf(mp, &s);
	}
	/* And one more from port 0, to see a group of two. */
	{
		struct pl_spec s;

		from_port(&s, 0);
		s.sport = 7000;
		m[5] = pl_mbuf(mp, &s);
	}
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 6), 0);

	/* Groups in order of first appearance: key 0 (two frames, one
	 * egress call), key 1, key 2; key 3 went to the ring; key 4 empty. */
	assert_int_equal(cap.n, 4);
	assert_int_equal(cap.calls, 3);
	/* port 1, dsa FROM_CPU to switch port 5: 40 28 00 00 after SA. */
	{
		struct pl_spec s;

		from_port(&s, 0);
		pl_dsa_tx(&s, 5);
		pl_assert_frame(cap.m[0], &s);
		s.sport = 7000;
		pl_assert_frame(cap.m[1], &s);
		assert_int_equal(cap.port[0], 1);
		assert_int_equal(cap.queue[0], 1);
		assert_int_equal(cap.verdict[0], TP_REDIRECT);
	}
	/* port 2, brcm-prepend to port 2: 20 00 00 04 before the DA. */
	len = untagged(b, 1);
	want[0] = 0x20;
	want[1] = 0x00;
	want[2] = 0x00;
	want[3] = 0x04;
	memcpy(want + 4, b, len);
	tp_test_assert_mbuf_bytes(cap.m[2], want, (uint32_t)len + 4);
	assert_int_equal(cap.port[2], 2);
	/* port 3, trailer for the packet's own switch port 2: 80 04 10 00. */
	len = untagged(b, 2);
	memcpy(want, b, len);
	want[len] = 0x80;
	want[len + 1] = 0x04;
	want[len + 2] = 0x10;
	want[len + 3] = 0x00;
	tp_test_assert_mbuf_bytes(cap.m[3], want, (uint32_t)len + 4);
	assert_int_equal(cap.port[3], 3);
	assert_int_equal(cap.queue[3], 3);
	/* The worker gets the packet as the pipeline sees it: untagged,
	 * switch port in the meta. */
	assert_int_equal(rte_ring_dequeue_burst(ring, (void **)w, 4, NULL), 1);
	len = untagged(b, 3);
	tp_test_assert_mbuf_bytes(w[0], b, (uint32_t)len);
	assert_int_equal(tp_dsa_meta(w[0])->port, 3);
	rte_pktmbuf_free(w[0]);

	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.redirect, 5);
	assert_int_equal(st.verdict[TP_REDIRECT], 6);
	assert_int_equal(st.drop_reason[TP_DROP_NO_TARGET], 1);
	assert_int_equal(st.port[1].tx, 2);
	assert_int_equal(st.port[2].tx, 1);
	assert_int_equal(st.port[3].tx, 1);
	pl_assert_conservation(pl);
	pl_cap_free(&cap);
	tp_pipeline_destroy(pl);
	tp_redirect_map_free(rm);
	rte_ring_free(ring);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* redirect:7 while the control plane re-points entry 7 between bursts;
 * a worker ring that holds 3 refuses the rest (ring_full). */
static void
test_redirect_updates_and_ring_full(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_redirect_map *rm = tp_redirect_map_create(8);
	struct rte_ring *ring = rte_ring_create("plr_small", 4, SOCKET_ID_ANY,
						RING_F_SC_DEQ);
	struct pl_cap cap = { .n = 0 };
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct rte_mbuf *m[8], *w[8];

	(void)state;
	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	c.port[1].enabled = true;
	c.gro.mode = TP_GRO_OFF;
	c.prog_spec = "redirect:7";
	c.redirect = rm;
	c.egress_cb = pl_cap_egress;
	c.egress_arg = &cap;
	pl = pl_make(&c);

	for (int round = 0; round < 3; round++) {
		for (unsigned int i = 0; i < 5; i++) {
			struct pl_spec s;

			pl_default_spec(&s);
			s.sport = (uint16_t)(100 + i);
			m[i] = pl_mbuf(mp, &s);
		}
		if (round == 0)
			assert_int_equal(tp_redirect_map_set_ring(rm, 7, ring), 0);
		else if (round == 1)
			assert_int_equal(tp_redirect_map_set_port(rm, 7, 1, 2, -1), 0);
		else
			assert_int_equal(tp_redirect_map_clear(rm, 7), 0);
		assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 5), 0);
	}
	assert_int_equal(rte_ring_dequeue_burst(ring, (void **)w, 8, NULL), 3);
	for (unsigned int i = 0; i < 3; i++) {
		struct pl_spec s;

		pl_default_spec(&s);
		s.sport = (uint16_t)(100 + i);
		pl_assert_frame(w[i], &s);
		rte_pktmbuf_free(w[i]);
	}
	assert_int_equal(cap.n, 5);
	assert_int_equal(cap.port[0], 1);
	assert_int_equal(cap.queue[0], 2);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.rx, 15);
	assert_int_equal(st.redirect, 3 + 5);
	assert_int_equal(st.drop_reason[TP_DROP_RING_FULL], 2);
	assert_int_equal(st.drop_reason[TP_DROP_NO_TARGET], 5);
	assert_int_equal(st.tx_retries, 4);
	pl_assert_conservation(pl);
	pl_cap_free(&cap);
	tp_pipeline_destroy(pl);
	tp_redirect_map_free(rm);
	rte_ring_free(ring);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Redirect to a port the pipeline does not know: counted drop. */
static void
test_redirect_unknown_port(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_redirect_map *rm = tp_redirect_map_create(1);
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct rte_mbuf *m[2];
	struct pl_spec s;

	(void)state;
	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	c.prog_spec = "redirect:0";
	c.redirect = rm;
	assert_int_equal(tp_redirect_map_set_port(rm, 0, 9, 0, -1), 0);
	pl = pl_make(&c);
	pl_default_spec(&s);
	m[0] = pl_mbuf(mp, &s);
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 1), 0);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.drop_reason[TP_DROP_NO_PORT], 1);
	pl_assert_conservation(pl);
	tp_pipeline_destroy(pl);
	tp_redirect_map_free(rm);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

static void
test_map_api(void **state)
{
	struct tp_redirect_map *rm = tp_redirect_map_create(4);
	struct rte_ring *r1 = rte_ring_create("plr_r1", 4, SOCKET_ID_ANY, 0);
	struct tp_redirect_target t;

	(void)state;
	assert_non_null(rm);

	assert_int_equal(tp_redirect_map_get(rm, 0, &t), 0);
	assert_int_equal(t.kind, TP_REDIRECT_NONE);
	assert_int_equal(tp_redirect_map_set_port(rm, 4, 0, 0, -1), -ENOENT);
	assert_int_equal(tp_redirect_map_set_port(rm, 0, 0, 0, 256), -EINVAL);
	assert_int_equal(tp_redirect_map_set_ring(rm, 0, NULL), -EINVAL);
	{
		/* A single-producer ring cannot be a (shareable) target. */
		struct rte_ring *sp = rte_ring_create("plr_sp", 4, SOCKET_ID_ANY,
						      RING_F_SP_ENQ);

		assert_non_null(sp);
		assert_int_equal(tp_redirect_map_set_ring(rm, 0, sp), -EINVAL);
		assert_int_equal(tp_redirect_map_get(rm, 0, &t), 0);
		assert_int_equal(t.kind, TP_REDIRECT_NONE);
		assert_int_equal(rm->nb_rings, 0);
		rte_ring_free(sp);
	}
	assert_int_equal(tp_redirect_map_set_port(rm, 1, 17, 3, 9), 0);
	assert_int_equal(tp_redirect_map_get(rm, 1, &t), 0);
	assert_int_equal(t.kind, TP_REDIRECT_PORT);
	assert_int_equal(t.port, 17);
	assert_int_equal(t.queue, 3);
	assert_int_equal(t.switch_port, 9);
	assert_int_equal(tp_redirect_map_set_port(rm, 1, 17, 3, -1), 0);
	assert_int_equal(tp_redirect_map_get(rm, 1, &t), 0);
	assert_int_equal(t.switch_port, -1);
	assert_int_equal(tp_redirect_map_set_ring(rm, 2, r1), 0);
	assert_int_equal(tp_redirect_map_set_ring(rm, 3, r1), 0);
	assert_int_equal(rm->nb_rings, 1);   /* the same ring keeps one slot */
	assert_int_equal(tp_redirect_map_get(rm, 3, &t), 0);
	assert_int_equal(t.kind, TP_REDIRECT_RING);
	assert_ptr_equal(t.ring, r1);
	assert_int_equal(tp_redirect_map_clear(rm, 3), 0);
	assert_int_equal(tp_redirect_map_word(rm, 3), 0);
	assert_int_equal(tp_redirect_map_word(rm, 100), 0);
	assert_null(tp_redirect_map_create(0));

	tp_redirect_map_free(rm);
	rte_ring_free(r1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_by_switch_port, setup),
		cmocka_unit_test_setup(test_redirect_updates_and_ring_full, setup),
		cmocka_unit_test_setup(test_redirect_unknown_port, setup),
		cmocka_unit_test_setup(test_map_api, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
