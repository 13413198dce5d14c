/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch-port key does not depend on call order: a table created before
 * lib/dsa_tag registers its dynfield still keeps segments of one TCP flow
 * from two switch ports apart (its own process, so the field is surely not
 * registered yet when the table is made).
 */
#include "tp_test.h"
#include "gro_run.h"
#include "tp_dsa_tag.h"
#include "tp_gro.h"

#include <rte_mbuf_dyn.h>

static struct rte_mbuf *
seg(struct rte_mempool *mp, int k, uint8_t sw_port)
{
	static uint8_t buf[TPKT_MAX];
	struct tpkt t;
	struct rte_mbuf *m;

	tpkt_init(&t, 0);
	t.seq = 100 + (uint32_t)k * 100;
	t.ip_id = (uint16_t)k;
	m = tp_test_mbuf_from_bytes(mp, buf, tpkt_build(&t, buf));
	gro_test_dsa_set(m, 1, sw_port, 0);
	return m;
}

static void
test_create_before_register(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("gro_order", 64, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro_conf c = { .mode = TP_GRO_MODE_BURST, .socket_id = SOCKET_ID_ANY };
	struct rte_mbuf *in[2], *out[4];
	struct tp_gro *g;

	(void)state;
	assert_true(rte_mbuf_dynfield_lookup(TP_DSA_META_FIELD, NULL) < 0);
	g = tp_gro_create(&c);
	assert_non_null(g);
	assert_true(rte_mbuf_dynfield_lookup(TP_DSA_META_FIELD, NULL) >= 0);
	assert_int_equal(tp_dsa_meta_register(), 0);
	assert_int_equal(tp_dsa_meta_offset,
			 rte_mbuf_dynfield_lookup(TP_DSA_META_FIELD, NULL));

	/* Consecutive segments, switch ports 1 and 2: two flows. */
	in[0] = seg(mp, 0, 1);
	in[1] = seg(mp, 1, 2);
	assert_int_equal(tp_gro_merge_burst(g, in, 2, out, 4, 0), 2);
	assert_int_equal(tp_gro_segs(out[0]), 1);
	assert_int_equal(tp_gro_segs(out[1]), 1);
	assert_int_equal(tp_dsa_meta(out[0])->port, 1);
	assert_int_equal(tp_dsa_meta(out[1])->port, 2);
	rte_pktmbuf_free_bulk(out, 2);

	/* The same two segments from one port merge. */
	in[0] = seg(mp, 0, 1);
	in[1] = seg(mp, 1, 1);
	assert_int_equal(tp_gro_merge_burst(g, in, 2, out, 4, 0), 1);
	assert_int_equal(tp_gro_segs(out[0]), 2);
	rte_pktmbuf_free(out[0]);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_before_register),
	};

	tp_test_eal_init(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
