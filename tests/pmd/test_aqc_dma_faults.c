/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc under DMA and firmware faults injected into the chip model
 * (aqc_model_set_dma_faults, fw_fault=mute), in step mode: RX write-back
 * with the DMA error bit, write-back lengths corrupted (0, or more than
 * the buffer), write-back late and out of order, a TX engine that stops
 * fetching, and an A1 firmware that stops answering. Each test asserts the
 * driver's and the model's counters exactly and that every mbuf is back
 * in its pool at the end.
 */
#include <string.h>

#include <rte_bus_vdev.h>

#include "aqc_test.h"

#define DOC_RXD_DD 1u   /* doc 5.4: write-back dword 2 bit 0 */

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
	return aqc_test_udp4(f, 40 + i % 300, (uint16_t)i, 9, i);
}

static void
inject_n(struct aqc_test_port *p, uint32_t first, uint32_t n)
{
	static uint8_t f[2048];

	for (uint32_t i = first; i < first + n; i++)
		assert_int_equal(aqc_model_inject(p->model, f, frame(f, i)), 0);
}

/* One RX burst must give exactly frames [first, first + n), in order. */
static void
rx_expect(struct aqc_test_port *p, uint32_t first, uint16_t n)
{
	struct rte_mbuf *rx[64];
	static uint8_t f[2048];
	uint16_t got = rte_eth_rx_burst(p->id, 0, rx, 64);

	assert_int_equal(got, n);
	for (uint16_t k = 0; k < got; k++) {
		tp_test_assert_mbuf_bytes(rx[k], f, frame(f, first + k));
		rte_pktmbuf_free(rx[k]);
	}
}

static uint64_t
faults_injected(struct aqc_test_port *p)
{
	struct aqc_model_counters c;

	aqc_model_get_counters(p->model, &c);
	return c.faults_injected;
}

/* Write-back with the DMA error bit (a failed buffer write): each such
 * frame is freed and counted in ierrors, the frames after it come up. */
static void
test_rx_dma_error(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dflt_dmaerr", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_model_dma_faults fl = { .rx_dma_err = 3 };
	struct rte_eth_stats st;
	struct aqc_test_port p;
	uint64_t f0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	f0 = faults_injected(&p);
	aqc_model_set_dma_faults(p.model, &fl);
	inject_n(&p, 0, 10);
	rx_expect(&p, 3, 7);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 7);
	assert_int_equal(st.ierrors, 3);
	assert_int_equal(st.imissed, 0);
	assert_int_equal(faults_injected(&p) - f0, 3);
	/* the ring goes on: slots of the bad frames were refilled */
	inject_n(&p, 100, 40);
	rx_expect(&p, 100, 40);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 47);
	assert_int_equal(st.ierrors, 3);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* DD and EOP with a corrupted length: 0 (no frame is empty) or one byte
 * more than the buffer. The driver must not hand either up (an empty
 * mbuf, or a length past the buffer): both dropped, counted in ierrors. */
static void
test_rx_bad_length(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dflt_badlen", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_model_dma_faults fl = { .rx_bad_len = 4 };
	struct rte_eth_stats st;
	struct aqc_test_port p;
	uint32_t dw[4];
	uint64_t f0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	f0 = faults_injected(&p);
	aqc_model_set_dma_faults(p.model, &fl);
	inject_n(&p, 0, 10);
	/* what the model wrote: slot 0 too long, slot 1 zero, DD on both */
	aqc_test_rx_desc(&p, 0, 0, dw);
	assert_int_equal(dw[2] & DOC_RXD_DD, DOC_RXD_DD);
	assert_int_equal(dw[2] >> 16, 2048 + 1);
	aqc_test_rx_desc(&p, 0, 1, dw);
	assert_int_equal(dw[2] & DOC_RXD_DD, DOC_RXD_DD);
	assert_int_equal(dw[2] >> 16, 0);
	rx_expect(&p, 4, 6);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 6);
	assert_int_equal(st.ierrors, 4);
	assert_int_equal(faults_injected(&p) - f0, 4);
	inject_n(&p, 200, 30);
	rx_expect(&p, 200, 30);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 36);
	assert_int_equal(st.ierrors, 4);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* Write-back late and out of order: the first frame's DD lands after the
 * next frames' (at the model's next DMA pass). The driver must neither
 * skip ahead to the completed ones nor take the unfinished slot: nothing
 * comes up until the late write-back lands, then all in order. */
static void
test_rx_late_out_of_order(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dflt_late", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_model_dma_faults fl = { .rx_late = 1 };
	struct rte_eth_stats st;
	struct aqc_test_port p;
	uint32_t dw[4];
	uint64_t f0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	f0 = faults_injected(&p);
	aqc_model_set_dma_faults(p.model, &fl);
	inject_n(&p, 0, 3);
	aqc_test_rx_desc(&p, 0, 0, dw);
	assert_int_equal(dw[2] & DOC_RXD_DD, 0);
	aqc_test_rx_desc(&p, 0, 1, dw);
	assert_int_equal(dw[2] & DOC_RXD_DD, DOC_RXD_DD);
	rx_expect(&p, 0, 0);
	rx_expect(&p, 0, 0);
	aqc_model_step(p.model, 64);   /* the late write-back lands */
	rx_expect(&p, 0, 3);
	/* two late frames in a row, then one on time */
	fl.rx_late = 2;
	aqc_model_set_dma_faults(p.model, &fl);
	inject_n(&p, 10, 3);
	rx_expect(&p, 0, 0);
	aqc_model_step(p.model, 64);
	rx_expect(&p, 10, 3);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 6);
	assert_int_equal(st.ierrors, 0);
	assert_int_equal(faults_injected(&p) - f0, 3);
	/* a late write-back pending when the port stops is dropped with its
	 * ring: nothing written into the ring afterwards, no mbuf lost */
	fl.rx_late = 1;
	aqc_model_set_dma_faults(p.model, &fl);
	inject_n(&p, 20, 2);
	aqc_test_stop(&p);
	aqc_model_step(p.model, 64);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	inject_n(&p, 30, 5);
	rx_expect(&p, 30, 5);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

struct tap {
	uint32_t n;
	uint32_t next;   /* frame index the next one must be */
	bool bad;
};

static void
tap_fn(void *arg, const uint8_t *fr, uint32_t len)
{
	struct tap *t = arg;
	static uint8_t f[2048];
	uint32_t want = frame(f, t->next++);

	t->bad |= len != want || memcmp(fr, f, len) != 0;
	t->n++;
}

/* Send frames [first, first + n) as far as the ring takes them; returns
 * how many it took, freeing the others (the caller's job in DPDK). */
static uint16_t
tx_some(struct aqc_test_port *p, struct rte_mempool *mp, uint32_t first, uint16_t n)
{
	struct rte_mbuf *tx[64];
	static uint8_t f[2048];
	uint16_t sent;

	assert_true(n <= 64);
	for (uint16_t k = 0; k < n; k++) {
		tx[k] = tp_test_mbuf_from_bytes(mp, f, frame(f, first + k));
		assert_non_null(tx[k]);
	}
	sent = rte_eth_tx_burst(p->id, 0, tx, n);
	rte_pktmbuf_free_bulk(tx + sent, n - sent);
	return sent;
}

/* The TX engine stops fetching: the ring fills (nb_desc - 1 frames, one
 * slot is always left empty), then tx_burst takes nothing - no mbuf lost,
 * none freed early. When the engine resumes every held frame leaves in
 * order; a reset while stalled gives every held mbuf back. */
static void
test_tx_stall(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dflt_txstall", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp), posted;
	struct aqc_model_dma_faults fl = { .tx_stall = true }, none = { 0 };
	struct aqc_model_counters c0, c;
	struct rte_eth_stats st;
	struct aqc_test_port p;
	struct tap t = { 0 };
	uint32_t sent = 0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	posted = tp_test_pool_in_use(mp) - start;   /* RX ring */
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	aqc_model_get_counters(p.model, &c0);
	aqc_model_set_tx_tap(p.model, tap_fn, &t);
	aqc_model_set_dma_faults(p.model, &fl);
	for (int i = 0; i < 4; i++) {
		sent += tx_some(&p, mp, sent, 32);
		aqc_model_step(p.model, 256);
	}
	assert_int_equal(sent, 63);
	assert_int_equal(tx_some(&p, mp, sent, 8), 0);
	aqc_model_get_counters(p.model, &c);
	assert_int_equal(c.tx_frames - c0.tx_frames, 0);
	assert_int_equal(t.n, 0);
	assert_int_equal(tp_test_pool_in_use(mp), start + posted + 63);

	/* the engine resumes: the 63 leave in order, the ring takes more */
	aqc_model_set_dma_faults(p.model, &none);
	aqc_model_step(p.model, 256);
	assert_int_equal(t.n, 63);
	for (int i = 0; i < 2; i++) {
		uint16_t k = tx_some(&p, mp, sent, 20);

		assert_int_equal(k, 20);
		sent += k;
		aqc_model_step(p.model, 256);
	}
	assert_int_equal(t.n, 103);
	assert_false(t.bad);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.opackets, 103);
	assert_int_equal(st.oerrors, 0);

	/* stalled again, then reset: every held mbuf goes back */
	aqc_model_set_dma_faults(p.model, &fl);
	assert_int_equal(tx_some(&p, mp, 1000, 30), 30);
	aqc_model_step(p.model, 256);
	assert_int_equal(rte_eth_dev_reset(p.id), 0);
	assert_int_equal(tp_test_pool_in_use(mp), start);
	aqc_model_set_dma_faults(p.model, &none);
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	t.next = 2000;
	assert_int_equal(tx_some(&p, mp, 2000, 10), 10);
	aqc_model_step(p.model, 256);
	assert_int_equal(t.n, 113);
	assert_false(t.bad);
	aqc_model_get_counters(p.model, &c);
	assert_int_equal(c.tx_frames - c0.tx_frames, 113);
	aqc_model_set_tx_tap(p.model, NULL, NULL);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* A1 firmware that stops answering (fw_fault=mute, or at run time): a
 * probe fails on the first MIF read with a clear error within its 100 ms
 * timeout, no port left; at run time a statistics request times out with
 * a clear error, the counters keep their last values, and they move again
 * once the firmware answers. */
static void
test_fw_mute(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dflt_mute", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_eth_xstat xs[64], xs2[64];
	struct rte_eth_xstat_name names[64];
	struct aqc_test_port p;
	uint16_t port;
	double t0, dt;
	int n, i;

	(void)state;
	if (aqc_test_a2()) {
		/* A2's mute mailbox is fw_fault=no_ack (test_aqc_a2.c) */
		rte_mempool_free(mp);
		skip();
	}
	aqc_test_log_capture();
	t0 = aqc_test_now_s();
	assert_true(rte_vdev_init("net_aqc_sim5", "mode=step,wire=none,fw_fault=mute") < 0);
	dt = aqc_test_now_s() - t0;
	aqc_test_log_expect("MIF read at");
	assert_true(dt < 10.0);
	assert_int_not_equal(rte_eth_dev_get_port_by_name("net_aqc_sim5", &port), 0);
	assert_null(aqc_model_lookup("net_aqc_sim5"));

	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	n = rte_eth_xstats_get(p.id, xs, 64);
	assert_true(n > 0 && n <= 64);
	assert_int_equal(aqc_model_set_fw_fault(p.model, AQC_FW_MUTE), 0);
	inject_n(&p, 0, 5);
	aqc_test_log_capture();
	t0 = aqc_test_now_s();
	assert_int_equal(rte_eth_xstats_get(p.id, xs2, 64), n);
	dt = aqc_test_now_s() - t0;
	aqc_test_log_expect("statistics request not acknowledged");
	assert_true(dt >= 0.1 && dt < 10.0);
	/* the firmware's counters stay as they were (the model's own wire
	 * counters, the sim's extra xstats, do move) */
	assert_int_equal(rte_eth_xstats_get_names(p.id, names, 64), n);
	for (i = 0; i < n; i++)
		if (strncmp(names[i].name, "mac_", 4) == 0)
			assert_int_equal(xs2[i].value, xs[i].value);
	rx_expect(&p, 0, 5);   /* the datapath does not need the firmware */
	assert_int_equal(aqc_model_set_fw_fault(p.model, AQC_FW_OK), 0);
	assert_int_equal(rte_eth_xstats_get(p.id, xs2, 64), n);
	for (i = 0; i < n && strcmp(names[i].name, "mac_uprc") != 0; i++)
		;
	assert_true(i < n);
	assert_int_equal(xs2[i].value - xs[i].value, 5);   /* counted now */
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rx_dma_error),
		cmocka_unit_test(test_rx_bad_length),
		cmocka_unit_test(test_rx_late_out_of_order),
		cmocka_unit_test(test_tx_stall),
		cmocka_unit_test(test_fw_mute),
	};

	aqc_test_model_from_args(argc, argv);
	return cmocka_run_group_tests(tests, setup, NULL);
}
