/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The test harness checks itself: if mbuf builders or the pool accounting
 * were wrong, every other test's byte and leak assertions would be too.
 */
#include "tp_test.h"

#include <string.h>

static struct rte_mempool *pool;

static int
setup(void **state)
{
	tp_test_eal_setup(state);
	pool = tp_test_pool_create("harness", 64, 0);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	rte_mempool_free(pool);
	return 0;
}

static void
hex_parses_every_separator(void **state)
{
	uint8_t b[8];

	(void)state;
	assert_int_equal(tp_test_hex("00 11:22-33aA\n Ff", b, sizeof(b)), 6);
	assert_memory_equal(b, "\x00\x11\x22\x33\xaa\xff", 6);
	assert_int_equal(tp_test_hex("", b, sizeof(b)), 0);
}

static void
single_segment_round_trip(void **state)
{
	unsigned int start = tp_test_pool_in_use(pool);
	uint8_t in[100], out[100];
	struct rte_mbuf *m;

	(void)state;
	for (unsigned int i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7);
	m = tp_test_mbuf_from_bytes(pool, in, sizeof(in));
	assert_int_equal(m->nb_segs, 1);
	assert_int_equal(rte_pktmbuf_pkt_len(m), sizeof(in));
	assert_int_equal(tp_test_pool_in_use(pool), start + 1);
	assert_int_equal(tp_test_mbuf_to_bytes(m, out, sizeof(out)), sizeof(in));
	assert_memory_equal(in, out, sizeof(in));
	tp_test_assert_mbuf_bytes(m, in, sizeof(in));
	rte_pktmbuf_free(m);
	TP_TEST_ASSERT_POOL_BACK(pool, start);
}

static void
chain_splits_at_segment_size(void **state)
{
	unsigned int start = tp_test_pool_in_use(pool);
	uint8_t in[1000];
	struct rte_mbuf *m, *s;
	unsigned int n = 0;

	(void)state;
	for (unsigned int i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i ^ 0x5a);
	m = tp_test_mbuf_chain_from_bytes(pool, in, sizeof(in), 300);
	assert_int_equal(m->nb_segs, 4);
	assert_int_equal(rte_pktmbuf_pkt_len(m), 1000);
	for (s = m; s != NULL; s = s->next, n++)
		assert_int_equal(s->data_len, n < 3 ? 300 : 100);
	assert_int_equal(n, 4);
	assert_int_equal(tp_test_pool_in_use(pool), start + 4);
	tp_test_assert_mbuf_bytes(m, in, sizeof(in));
	rte_pktmbuf_free(m);
	TP_TEST_ASSERT_POOL_BACK(pool, start);
}

static void
pcap_reader_reads_demo(void **state)
{
	uint8_t **frames;
	uint32_t *lens;
	int dlt;
	unsigned int n;

	(void)state;
	n = tp_test_pcap_read(tp_test_src_path("pcaps/demo.pcap"), &frames, &lens, &dlt);
	/* gen_demo.py: 5 bulk flows of 64 segments plus 6 small frames. */
	assert_int_equal(n, 5 * 64 + 6);
	assert_int_equal(dlt, 1);
	assert_int_equal(lens[0], 14 + 20 + 32 + 1448);
	/* First frame: 02:00:00:00:00:0b <- 02:00:00:00:00:0a, IPv4. */
	assert_memory_equal(frames[0], "\x02\x00\x00\x00\x00\x0b\x02\x00\x00\x00\x00\x0a\x08\x00", 14);
	tp_test_pcap_free(frames, lens, n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hex_parses_every_separator),
		cmocka_unit_test(single_segment_round_trip),
		cmocka_unit_test(chain_splits_at_segment_size),
		cmocka_unit_test(pcap_reader_reads_demo),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
