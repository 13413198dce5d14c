/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc under faults a NIC and a host really produce, on the chip model
 * in step mode: RX mbuf pool exhaustion during refill, damaged frames (MAC
 * error write-back) mixed into traffic, the link going down and up with
 * frames in the ring, and a port reset with frames in the ring; and faults
 * injected into the model (aqc_model_set_dma_faults, fw_fault=mute): RX
 * write-back with the DMA error bit, write-back lengths corrupted (0, or
 * more than the buffer), write-back late and out of order, a TX engine
 * that stops fetching, an A1 firmware that stops answering, a peer cable
 * that stalls (aqc_model_set_peer_stall), a global reset of the chip that
 * the driver did not ask for (aqc_model_global_reset). Each test
 * asserts the driver's (and the model's) counters exactly and that every
 * mbuf is back in its pool at the end.
 */
#include <string.h>

#include <rte_bus_vdev.h>

#include "aqc_test.h"

static const char *const vdevs[] = {
	"net_aqc_sim0,mode=step,wire=none",
	"net_aqc_sim1,mode=step,wire=peer,peer=net_aqc_sim2",
	"net_aqc_sim2,mode=step,wire=peer,peer=net_aqc_sim1",
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

/* Damaged frames (bad FCS: the MAC error bit in the write-back, docs/ref/aqc.md §5.4)
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

/* Inject frames [first, first + n): every one must reach the ring. */
static void
assert_n_injected(struct aqc_test_port *p, uint32_t first, uint32_t n)
{
	assert_int_equal(inject(p, first, n), n);
}

/* One RX burst must give exactly frames [first, first + n), in order. */
static void
rx_check_n(struct aqc_test_port *p, uint32_t first, uint16_t n)
{
	rx_check(p, first, n, NULL);
}

#define DOC_RXD_DD 1u   /* docs/ref/aqc.md §5.4: write-back dword 2 bit 0 */

static uint64_t
faults_injected(struct aqc_test_port *p)
{
	struct aqc_model_counters c;

	aqc_model_get_counters(p->model, &c);
	return c.faults_injected;
}

/* Frames 0..9 injected with fl pending: the first nbad hit, each freed
 * and counted in ierrors; the others come up in order, and the ring goes
 * on (the bad frames' slots refilled). check, when not NULL, looks at the
 * write-backs before the driver does. */
static void
rx_fault_case(const char *pool, const struct aqc_model_dma_faults *fl, uint32_t nbad,
	      void (*check)(struct aqc_test_port *p))
{
	struct rte_mempool *mp = tp_test_pool_create(pool, 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_eth_stats st;
	struct aqc_test_port p;
	uint64_t f0;

	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	f0 = faults_injected(&p);
	aqc_model_set_dma_faults(p.model, fl);
	assert_n_injected(&p, 0, 10);
	if (check != NULL)
		check(&p);
	rx_check_n(&p, nbad, (uint16_t)(10 - nbad));
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 10 - nbad);
	assert_int_equal(st.ierrors, nbad);
	assert_int_equal(st.imissed, 0);
	assert_int_equal(faults_injected(&p) - f0, nbad);
	assert_n_injected(&p, 100, 40);
	rx_check_n(&p, 100, 40);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 50 - nbad);
	assert_int_equal(st.ierrors, nbad);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* Write-back with the DMA error bit (a failed buffer write). */
static void
test_rx_dma_error(void **state)
{
	const struct aqc_model_dma_faults fl = { .rx_dma_err = 3 };

	(void)state;
	rx_fault_case("flt_dmaerr", &fl, 3, NULL);
}

/* What the model wrote for the first two: slot 0 one byte more than the
 * 2048-byte buffer, slot 1 length 0, DD on both. */
static void
check_bad_lengths(struct aqc_test_port *p)
{
	uint32_t dw[4];

	aqc_test_rx_desc(p, 0, 0, dw);
	assert_int_equal(dw[2] & DOC_RXD_DD, DOC_RXD_DD);
	assert_int_equal(dw[2] >> 16, 2048 + 1);
	aqc_test_rx_desc(p, 0, 1, dw);
	assert_int_equal(dw[2] & DOC_RXD_DD, DOC_RXD_DD);
	assert_int_equal(dw[2] >> 16, 0);
}

/* DD and EOP with a corrupted length: 0 (no frame is empty) or more than
 * the buffer. The driver must hand neither up (an empty mbuf, or a length
 * past the buffer). */
static void
test_rx_bad_length(void **state)
{
	const struct aqc_model_dma_faults fl = { .rx_bad_len = 4 };

	(void)state;
	rx_fault_case("flt_badlen", &fl, 4, check_bad_lengths);
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
	assert_n_injected(&p, 0, 3);
	aqc_test_rx_desc(&p, 0, 0, dw);
	assert_int_equal(dw[2] & DOC_RXD_DD, 0);
	aqc_test_rx_desc(&p, 0, 1, dw);
	assert_int_equal(dw[2] & DOC_RXD_DD, DOC_RXD_DD);
	rx_check_n(&p, 0, 0);
	rx_check_n(&p, 0, 0);
	aqc_model_step(p.model, 64);   /* the late write-back lands */
	rx_check_n(&p, 0, 3);
	/* two late frames in a row, then one on time */
	fl.rx_late = 2;
	aqc_model_set_dma_faults(p.model, &fl);
	assert_n_injected(&p, 10, 3);
	rx_check_n(&p, 0, 0);
	aqc_model_step(p.model, 64);
	rx_check_n(&p, 10, 3);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 6);
	assert_int_equal(st.ierrors, 0);
	assert_int_equal(faults_injected(&p) - f0, 3);
	/* a late write-back pending when the port stops is dropped with its
	 * ring: nothing written into the ring afterwards, no mbuf lost */
	fl.rx_late = 1;
	aqc_model_set_dma_faults(p.model, &fl);
	assert_n_injected(&p, 20, 2);
	aqc_test_stop(&p);
	aqc_model_step(p.model, 64);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	assert_n_injected(&p, 30, 5);
	rx_check_n(&p, 30, 5);
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

/* The cable to a peer stalls (port b, aqc_model_set_peer_stall): a's
 * frames wait in the cable's queue (128 slots, AQM_PEER_SLOTS), then in
 * a's TX ring (63 of 64 descriptors), then tx_burst takes nothing; b's own
 * TX frames stay in its ring; nothing arrives anywhere and nothing is
 * lost. When the stall ends the 128 queued frames arrive in one go: b's
 * RX ring takes 63, the 65 it has no room for are dropped and counted
 * (imissed, model_rx_ring_full); everything else arrives in order. */
static void
test_peer_stall(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("flt_peer", 1024, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_model_counters ca0, ca, cb0, cb;
	struct rte_eth_stats st;
	struct aqc_test_port a, b, w;
	uint32_t sent = 0;

	(void)state;
	aqc_test_port(&w, "net_aqc_sim0");
	assert_int_equal(aqc_model_set_peer_stall(w.model, true), -EINVAL);
	aqc_test_port(&a, "net_aqc_sim1");
	aqc_test_port(&b, "net_aqc_sim2");
	aqc_test_start(&a, 1, 64, mp, 0, 0, false, NULL);
	aqc_test_start(&b, 1, 64, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(a.id), 0);
	assert_int_equal(rte_eth_stats_reset(b.id), 0);
	aqc_model_get_counters(a.model, &ca0);
	aqc_model_get_counters(b.model, &cb0);
	assert_int_equal(aqc_model_set_peer_stall(b.model, true), 0);
	for (int i = 0; i < 8; i++) {
		sent += tx_some(&a, mp, sent, 32);
		aqc_model_step(a.model, 256);
	}
	assert_int_equal(sent, 128 + 63);
	assert_int_equal(tx_some(&a, mp, sent, 8), 0);
	assert_int_equal(tx_some(&b, mp, 1000, 10), 10);
	assert_int_equal(aqc_model_step(b.model, 1000), 0);
	assert_int_equal(aqc_model_step(a.model, 1000), 0);
	rx_take(&a, 0, 0, 64, NULL);
	rx_take(&b, 0, 0, 64, NULL);
	aqc_model_get_counters(a.model, &ca);
	assert_int_equal(ca.tx_frames - ca0.tx_frames, 128);
	aqc_model_get_counters(b.model, &cb);
	assert_int_equal(cb.tx_frames - cb0.tx_frames, 0);
	assert_int_equal(cb.rx_frames - cb0.rx_frames, 0);

	/* the stall ends: b sends its 10, takes 63 of the 128 queued */
	assert_int_equal(aqc_model_set_peer_stall(b.model, false), 0);
	assert_int_equal(aqc_model_step(b.model, 1000), 10 + 128);
	rx_take(&b, 0, 63, 64, NULL);
	/* a's 63 held frames leave, b's 10 arrive at a */
	assert_int_equal(aqc_model_step(a.model, 1000), 63 + 10);
	rx_take(&a, 1000, 10, 64, NULL);
	assert_int_equal(aqc_model_step(b.model, 1000), 63);
	rx_take(&b, 128, 63, 64, NULL);
	assert_int_equal(rte_eth_stats_get(b.id, &st), 0);
	assert_int_equal(st.ipackets, 63 + 63);
	assert_int_equal(st.imissed, 65);
	assert_int_equal(st.opackets, 10);
	aqc_model_get_counters(b.model, &cb);
	assert_int_equal(cb.rx_ring_full - cb0.rx_ring_full, 65);
	assert_int_equal(rte_eth_stats_get(a.id, &st), 0);
	assert_int_equal(st.opackets, 128 + 63);
	assert_int_equal(st.ipackets, 10);
	assert_int_equal(st.imissed, 0);
	assert_int_equal(st.oerrors, 0);
	aqc_test_stop(&a);
	aqc_test_stop(&b);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

static int
count_event(uint16_t port, enum rte_eth_event_type ev, void *arg, void *ret)
{
	(void)port;
	(void)ev;
	(void)ret;
	(*(unsigned int *)arg)++;
	return 0;
}

static uint64_t
xstat(uint16_t port, const char *name)
{
	uint64_t id, v;

	assert_int_equal(rte_eth_xstats_get_id_by_name(port, name, &id), 0);
	assert_int_equal(rte_eth_xstats_get_by_id(port, &id, &v, 1), 1);
	return v;
}

/* The chip resets under traffic without the driver asking (another
 * function, the firmware): rings and packet buffers go off, the DMA
 * counters restart at 0. The driver notices on its next statistics read,
 * counts it (chip_resets), raises RTE_ETH_EVENT_INTR_RESET once and keeps
 * the counters it had read (a restart at 0 is not taken for a wrap; what
 * the chip counted after the last read is gone with its registers); frames written before the
 * reset are still received, tx_burst keeps returning, nothing hangs.
 * rte_eth_dev_reset gives every mbuf back and counts the frames the reset
 * stranded in the TX ring (tx_lost_in_reset); a new start carries
 * traffic. */
static void
test_global_reset_in_traffic(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("flt_greset", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp), events = 0;
	struct aqc_model_counters c0, c;
	struct rte_eth_stats st;
	struct aqc_test_port p;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	if (aqc_test_a2()) {
		assert_int_equal(aqc_model_global_reset(p.model), -ENOTSUP);
		return;
	}
	assert_int_equal(rte_eth_dev_callback_register(p.id, RTE_ETH_EVENT_INTR_RESET,
						       count_event, &events), 0);
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	aqc_model_get_counters(p.model, &c0);
	assert_int_equal(inject(&p, 0, 20), 20);
	assert_int_equal(tx_some(&p, mp, 0, 20), 20);
	assert_int_equal(aqc_model_step(p.model, 256), 20);
	assert_int_equal(tx_some(&p, mp, 20, 10), 10);    /* not yet fetched */
	/* an application polling its counters: what the chip counted so far
	 * is banked (the reset puts the chip's registers back to 0) */
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 20);
	assert_int_equal(st.opackets, 20);

	assert_int_equal(aqc_model_global_reset(p.model), 0);
	for (int i = 0; i < 500 && (aqc_test_reg(&p, 0x7900) & 1); i++)
		rte_delay_us_sleep(1000);   /* TPB_CTL bit 0: packet buffer on */
	assert_int_equal(aqc_test_reg(&p, 0x7900) & 1, 0);
	rte_delay_us_sleep(20000);          /* the firmware reboots */
	assert_int_equal(events, 0);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(events, 1);
	assert_int_equal(st.ipackets, 20);
	assert_int_equal(st.opackets, 20);
	assert_int_equal(st.imissed, 0);
	assert_int_equal(xstat(p.id, "chip_resets"), 1);
	assert_int_equal(events, 1);                       /* raised once */
	rx_take(&p, 0, 20, 64, NULL);
	assert_int_equal(tx_some(&p, mp, 30, 8), 8);       /* no hang */
	assert_int_equal(aqc_model_step(p.model, 256), 0);  /* rings are off */
	assert_int_equal(aqc_model_inject(p.model, (uint8_t[60]){ 0 }, 60), -ENETDOWN);
	aqc_model_get_counters(p.model, &c);
	assert_int_equal(c.tx_frames - c0.tx_frames, 20);

	assert_int_equal(rte_eth_dev_reset(p.id), 0);
	assert_int_equal(tp_test_pool_in_use(mp), start);
	assert_int_equal(xstat(p.id, "tx_lost_in_reset"), 18);
	assert_int_equal(xstat(p.id, "chip_resets"), 1);

	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	assert_int_equal(inject(&p, 100, 5), 5);
	rx_take(&p, 100, 5, 64, NULL);
	assert_int_equal(tx_some(&p, mp, 200, 5), 5);
	assert_int_equal(aqc_model_step(p.model, 256), 5);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 5);
	assert_int_equal(st.opackets, 5);
	assert_int_equal(events, 1);
	assert_int_equal(xstat(p.id, "chip_resets"), 0);
	aqc_test_stop(&p);
	assert_int_equal(rte_eth_dev_callback_unregister(p.id, RTE_ETH_EVENT_INTR_RESET,
							 count_event, &events), 0);
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
	/* gave up after its timeout, not at once: no upper bound (a busy
	 * machine is slow; a hang is meson's test timeout) */
	assert_true(dt >= 0.1);
	assert_int_not_equal(rte_eth_dev_get_port_by_name("net_aqc_sim5", &port), 0);
	assert_null(aqc_model_lookup("net_aqc_sim5"));

	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	n = rte_eth_xstats_get(p.id, xs, 64);
	assert_true(n > 0 && n <= 64);
	assert_int_equal(aqc_model_set_fw_fault(p.model, AQC_FW_MUTE), 0);
	assert_n_injected(&p, 0, 5);
	aqc_test_log_capture();
	t0 = aqc_test_now_s();
	assert_int_equal(rte_eth_xstats_get(p.id, xs2, 64), n);
	dt = aqc_test_now_s() - t0;
	aqc_test_log_expect("statistics request not acknowledged");
	assert_true(dt >= 0.1);
	/* the firmware's counters stay as they were (the model's own wire
	 * counters, the sim's extra xstats, do move) */
	assert_int_equal(rte_eth_xstats_get_names(p.id, names, 64), n);
	for (i = 0; i < n; i++)
		if (strncmp(names[i].name, "mac_", 4) == 0)
			assert_int_equal(xs2[i].value, xs[i].value);
	rx_check_n(&p, 0, 5);   /* the datapath does not need the firmware */
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
		cmocka_unit_test(test_pool_exhausted),
		cmocka_unit_test(test_mac_errors_in_traffic),
		cmocka_unit_test(test_link_flap_in_traffic),
		cmocka_unit_test(test_reset_in_traffic),
		cmocka_unit_test(test_rx_dma_error),
		cmocka_unit_test(test_rx_bad_length),
		cmocka_unit_test(test_rx_late_out_of_order),
		cmocka_unit_test(test_tx_stall),
		cmocka_unit_test(test_peer_stall),
		cmocka_unit_test(test_global_reset_in_traffic),
		cmocka_unit_test(test_fw_mute),
	};

	aqc_test_model_from_args(argc, argv);
	return cmocka_run_group_tests(tests, setup, NULL);
}
