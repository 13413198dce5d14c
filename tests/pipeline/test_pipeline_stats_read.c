/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_pipeline_stats_get from another thread while the pipeline runs
 * (tp_stats.h "Reading from another thread"): every counter the reader
 * sees only grows and never exceeds its final value, and once the
 * traffic stops the totals are exact.
 */
#include <pthread.h>

#include "pl_test.h"

#define BURST 32
#define ROUNDS 3000

static struct rte_mempool *mp;

/* TX when the IP ID is even, DROP when odd. */
static inline enum tp_verdict
prog_even_tx(void *priv, struct tp_xdp_md *ctx)
{
	const uint8_t *ip = ctx->data + 14;

	(void)priv;
	if (ip + 20 > ctx->data_end)
		return TP_ABORTED;
	return (ip[5] & 1) ? TP_DROP : TP_TX;
}
TP_PROG_DEFINE(burst_even_tx, prog_even_tx)

static const struct tp_prog_ops even_ops = {
	.name = "t-even-tx",
	.burst = burst_even_tx,
};

static void
free_egress(void *arg, enum tp_verdict v, uint16_t port, uint16_t queue,
	    struct rte_mbuf **pkts, uint16_t n)
{
	(void)arg;
	(void)v;
	(void)port;
	(void)queue;
	rte_pktmbuf_free_bulk(pkts, n);
}

/* The counters the reader follows. */
#define NB_WATCH 9
static void
watch(const struct tp_pipeline_stats *st, uint64_t *v)
{
	const uint64_t w[NB_WATCH] = {
		st->rx, st->tx, st->drop, st->verdict[TP_TX],
		st->verdict[TP_DROP], st->drop_reason[TP_DROP_VERDICT],
		st->stage[TP_STAGE_VERDICT].in, st->port[0].rx, st->port[0].tx,
	};

	memcpy(v, w, sizeof(w));
}

struct reader {
	const struct tp_pipeline *pl;
	volatile int stop;
	volatile int started;
	unsigned int reads;
	unsigned int went_back;       /* a counter smaller than before */
	unsigned int get_failed;      /* cmocka asserts belong to the main thread */
	uint64_t max[NB_WATCH];
};

static void *
reader_main(void *arg)
{
	struct reader *r = arg;
	uint64_t prev[NB_WATCH] = { 0 }, cur[NB_WATCH];

	do {
		struct tp_pipeline_stats st;

		if (tp_pipeline_stats_get(r->pl, &st) != 0)
			r->get_failed++;
		watch(&st, cur);
		for (unsigned int i = 0; i < NB_WATCH; i++) {
			if (cur[i] < prev[i])
				r->went_back++;
			if (cur[i] > r->max[i])
				r->max[i] = cur[i];
			prev[i] = cur[i];
		}
		r->reads++;
		__atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);
	} while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE));
	return NULL;
}

static void
test_read_while_running(void **state)
{
	static struct reader r;
	unsigned int start;
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	uint64_t fin[NB_WATCH];
	pthread_t th;
	struct pl_spec s;
	const uint64_t total = (uint64_t)BURST * ROUNDS;

	(void)state;
	tp_test_eal_init(NULL);
	mp = tp_test_pool_create("plsr", 2 * BURST, 0);
	start = tp_test_pool_in_use(mp);
	assert_int_equal(tp_prog_register(&even_ops), 0);
	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	c.gro.mode = TP_GRO_OFF;
	c.prog_spec = "t-even-tx";
	c.egress_cb = free_egress;
	pl = pl_make(&c);

	memset(&r, 0, sizeof(r));
	r.pl = pl;
	assert_int_equal(pthread_create(&th, NULL, reader_main, &r), 0);
	while (!__atomic_load_n(&r.started, __ATOMIC_ACQUIRE))
		sched_yield();
	for (unsigned int k = 0; k < ROUNDS; k++) {
		struct rte_mbuf *pkts[BURST];

		for (unsigned int i = 0; i < BURST; i++) {
			pl_default_spec(&s);
			s.ip_id = (uint16_t)i;
			pkts[i] = pl_mbuf(mp, &s);
		}
		assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, pkts, BURST), 0);
	}
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(th, NULL), 0);

	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.rx, total);
	assert_int_equal(st.tx, total / 2);
	assert_int_equal(st.drop, total / 2);
	assert_int_equal(st.verdict[TP_TX], total / 2);
	assert_int_equal(st.verdict[TP_DROP], total / 2);
	assert_int_equal(st.drop_reason[TP_DROP_VERDICT], total / 2);
	assert_int_equal(st.stage[TP_STAGE_VERDICT].in, total);
	assert_int_equal(st.stage[TP_STAGE_VERDICT].calls, ROUNDS);
	assert_int_equal(st.port[0].rx, total);
	assert_int_equal(st.port[0].tx, total / 2);
	pl_assert_conservation(pl);
	watch(&st, fin);
	assert_true(r.reads >= 1);
	assert_int_equal(r.went_back, 0);
	assert_int_equal(r.get_failed, 0);
	for (unsigned int i = 0; i < NB_WATCH; i++)
		assert_true(r.max[i] <= fin[i]);
	printf("stats_read: %u reads while %u bursts ran\n", r.reads, ROUNDS);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_while_running),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
