/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc under faults a NIC and a host really produce, on the chip model
 * in step mode: RX mbuf pool exhaustion during refill, damaged frames (MAC
 * error write-back) mixed into traffic, the link going down and up with
 * frames in the ring, and a port reset with frames in the ring. Each test
 * asserts the driver's counters exactly and that every mbuf is back in its
 * pool at the end.
 */
#include <string.h>

#include "aqc_test.h"

static const char *const vdevs[] = {
	"net_aqc_sim0,mode=step,wire=none",
	NULL,
};

static int
setup(void **state)
{
	(void)state;
	return aqc_test_eal_init(vdevs);
}

static uint32_t
frame(uint8_t *f, uint32_t i)
{
	return aqc_test_udp4(f, 40 + i % 200, (uint16_t)i, 7, i);
}

/* Inject frames [first, first + n): returns how many a ring took; the
 * others must be -ENOBUFS (ring full). */
static unsigned int
inject(struct aqc_test_port *p, uint32_t first, uint32_t n)
{
	static uint8_t f[2048];
	unsigned int ok = 0;

	for (uint32_t i = first; i < first + n; i++) {
		int rc = aqc_model_inject(p->model, f, frame(f, i));

		if (rc == 0)
			ok++;
		else if (rc != -ENOBUFS)
			fail_msg("inject %u: %d", i, rc);
	}
	return ok;
}

/* Receive with a burst of max, which must give exactly n frames, frames
 * [first, first + n). */
static void
rx_take(struct aqc_test_port *p, uint32_t first, uint16_t n, uint16_t max,
	struct rte_mbuf **keep)
{
	struct rte_mbuf *rx[64];
	static uint8_t f[2048];
	uint16_t got;

	assert_true(n <= max && max <= 64);
	got = rte_eth_rx_burst(p->id, 0, rx, max);
	assert_int_equal(got, n);
	for (uint16_t k = 0; k < got; k++) {
		tp_test_assert_mbuf_bytes(rx[k], f, frame(f, first + k));
		if (keep != NULL)
			keep[k] = rx[k];
		else
			rte_pktmbuf_free(rx[k]);
	}
}

/* Receive everything there is: exactly frames [first, first + n). */
static void
rx_check(struct aqc_test_port *p, uint32_t first, uint16_t n, struct rte_mbuf **keep)
{
	rx_take(p, first, n, 64, keep);
}

/* The pool runs dry while the driver refills: it keeps handing up what the
 * chip wrote, counts every slot it could not refill in rx_nombuf (all or
 * nothing per refill, aqc_rx.c), and traffic resumes once mbufs return. */
static void
test_pool_exhausted(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("flt_nombuf", 128, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *held[128];
	struct rte_eth_stats st;
	struct aqc_test_port p;
	unsigned int nheld = 0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	/* 63 of 64 descriptors posted; take every other mbuf */
	assert_int_equal(tp_test_pool_in_use(mp), start + 63);
	while (nheld < RTE_DIM(held) && (held[nheld] = rte_pktmbuf_alloc(mp)) != NULL)
		nheld++;
	assert_int_equal(nheld, 128 - 63);

	/* 40 frames up; 41 slots unposted > threshold 32: refill of 40 fails */
	assert_int_equal(inject(&p, 0, 40), 40);
	rx_check(&p, 0, 40, &held[nheld]);
	nheld += 40;
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.rx_nombuf, 40);
	/* 23 descriptors still posted: 23 of 30 frames fit, 7 dropped as ring full */
	assert_int_equal(inject(&p, 40, 30), 23);
	rx_check(&p, 40, 23, &held[nheld]);
	nheld += 23;
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.rx_nombuf, 40 + 63);
	assert_int_equal(st.imissed, 7);
	/* nothing posted: every frame is dropped and counted, none handed up */
	assert_int_equal(inject(&p, 70, 5), 0);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, held + nheld, 8), 0);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.imissed, 12);
	assert_int_equal(st.rx_nombuf, 40 + 63 + 63);

	/* mbufs come back: the next poll refills the ring, traffic resumes */
	rte_pktmbuf_free_bulk(held, nheld);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, held, 8), 0);
	assert_int_equal(tp_test_pool_in_use(mp), start + 63);
	assert_int_equal(inject(&p, 100, 20), 20);
	rx_check(&p, 100, 20, NULL);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 40 + 23 + 20);
	assert_int_equal(st.imissed, 12);
	assert_int_equal(st.rx_nombuf, 40 + 63 + 63);
	assert_int_equal(st.ierrors, 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* Damaged frames (bad FCS: the MAC error bit in the write-back, doc 5.4)
 * between good ones: each is freed and counted in ierrors, the good ones
 * come up in order. */
static void
test_mac_errors_in_traffic(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("flt_macerr", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *rx[64];
	struct rte_eth_stats st;
	struct aqc_test_port p;
	static uint8_t f[2048];
	uint32_t good = 0, bad = 0;
	uint16_t n;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 128, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	for (uint32_t i = 0; i < 60; i++) {
		if (i % 3 == 1) {
			assert_int_equal(aqc_model_inject_bad(p.model, f, frame(f, 1000 + i)), 0);
			bad++;
		} else {
			assert_int_equal(aqc_model_inject(p.model, f, frame(f, good)), 0);
			good++;
		}
	}
	n = rte_eth_rx_burst(p.id, 0, rx, 64);
	assert_int_equal(n, good);
	for (uint16_t k = 0; k < n; k++) {
		tp_test_assert_mbuf_bytes(rx[k], f, frame(f, k));
		rte_pktmbuf_free(rx[k]);
	}
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, good);
	assert_int_equal(st.ierrors, bad);
	assert_int_equal(st.imissed, 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* The cable is pulled with frames in the ring: those still come up, the
 * cable brings nothing while down (-ENETDOWN), and traffic resumes once
 * the link is back. */
static void
test_link_flap_in_traffic(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("flt_flap", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_eth_stats st;
	struct aqc_test_port p;
	static uint8_t f[2048];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 128, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	for (int flap = 0; flap < 3; flap++) {
		uint32_t base = (uint32_t)flap * 100;

		assert_int_equal(inject(&p, base, 30), 30);
		aqc_model_set_cable(p.model, false);
		aqc_test_wait_link(p.id, RTE_ETH_LINK_DOWN);
		assert_int_equal(aqc_model_inject(p.model, f, frame(f, base + 99)), -ENETDOWN);
		rx_check(&p, base, 30, NULL);
		aqc_model_set_cable(p.model, true);
		aqc_test_wait_link(p.id, RTE_ETH_LINK_UP);
		assert_int_equal(inject(&p, base + 30, 20), 20);
		rx_check(&p, base + 30, 20, NULL);
	}
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 3 * 50);
	assert_int_equal(st.imissed, 0);
	assert_int_equal(st.ierrors, 0);
	assert_int_equal(st.rx_nombuf, 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* A reset with frames written to the ring and not yet received: every
 * mbuf the rings held goes back to the pool; the port comes back after
 * reconfiguration and carries traffic again. */
static void
test_reset_in_traffic(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("flt_reset", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	for (int round = 0; round < 3; round++) {
		assert_int_equal(inject(&p, 0, 25), 25);
		rx_take(&p, 0, 10, 10, NULL);  /* 15 left in the ring */
		assert_int_equal(rte_eth_dev_reset(p.id), 0);
		assert_int_equal(tp_test_pool_in_use(mp), start);
		aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
		assert_int_equal(tp_test_pool_in_use(mp), start + 63);
		assert_int_equal(inject(&p, 500, 30), 30);
		rx_check(&p, 500, 30, NULL);
	}
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_exhausted),
		cmocka_unit_test(test_mac_errors_in_traffic),
		cmocka_unit_test(test_link_flap_in_traffic),
		cmocka_unit_test(test_reset_in_traffic),
	};

	aqc_test_model_from_args(argc, argv);
	return cmocka_run_group_tests(tests, setup, NULL);
}
