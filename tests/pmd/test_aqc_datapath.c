/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc datapath on the chip model: 1 and 8 queue pairs (RSS), jumbo
 * frames over several buffers in both directions, ring wrap-around over many
 * laps, ring-full drops counted, start/stop/restart and queue stop/start
 * without leaking mbufs, two model ports cabled together, and the model
 * thread under sustained traffic.
 */
#include <string.h>

#include <rte_ether.h>

#include "aqc_test.h"

static const char *const vdevs[] = {
	"net_aqc_sim0,mode=step",
	"net_aqc_sim1,mode=step,wire=none",
	"net_aqc_sim2,mode=step,wire=peer,peer=net_aqc_sim3",
	"net_aqc_sim3,mode=step,wire=peer,peer=net_aqc_sim2",
	"net_aqc_sim4",
	NULL,
};

static const uint8_t key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static int
setup(void **state)
{
	(void)state;
	return aqc_test_eal_init(vdevs);
}

/* Size of frame i of a sequence: 60 .. 1514 bytes. */
static uint32_t
seq_frame(uint8_t *f, uint32_t i)
{
	uint32_t payload = (i * 37u) % (1514 - 42 - 18 + 1) + 18;

	return aqc_test_udp4(f, payload, (uint16_t)i, 9, i);
}

static void
test_one_queue_pair(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dp_1q", 1024, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_eth_stats st;
	struct aqc_test_port p;
	uint64_t bytes = 0;
	uint32_t sent = 0, got = 0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 256, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	while (got < 500) {
		struct rte_mbuf *tx[32], *rx[32];
		uint16_t n = RTE_MIN(32u, 500 - sent), k;
		uint8_t f[1600];

		for (k = 0; k < n; k++) {
			uint32_t len = seq_frame(f, sent + k);

			tx[k] = tp_test_mbuf_from_bytes(mp, f, len);
			bytes += len;
		}
		assert_int_equal(rte_eth_tx_burst(p.id, 0, tx, n), n);
		sent += n;
		aqc_model_step(p.model, 1000);
		n = rte_eth_rx_burst(p.id, 0, rx, 32);
		for (k = 0; k < n; k++, got++) {
			uint32_t len = seq_frame(f, got);

			tp_test_assert_mbuf_bytes(rx[k], f, len);
			/* no RX offloads: the simple burst, packet type only */
			assert_int_equal(rx[k]->packet_type, RTE_PTYPE_L2_ETHER |
					 RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP);
			assert_int_equal(rx[k]->ol_flags, 0);
			rte_pktmbuf_free(rx[k]);
		}
		assert_true(n > 0);
	}
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 500);
	assert_int_equal(st.opackets, 500);
	assert_int_equal(st.ibytes, bytes);
	assert_int_equal(st.obytes, bytes);
	assert_int_equal(st.imissed, 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* 8 queue pairs, RSS: each frame lands on queue RETA[hash & 63] where the
 * driver fills the RETA with i % 8 (docs/ref/aqc.md §6.1: 64 entries). */
static void
test_eight_queue_pairs(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dp_8q", 4096, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int per_q[8] = { 0 }, seen[256] = { 0 };
	struct rte_eth_stats st;
	struct aqc_test_port p;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 8, 128, mp, 0, 0, true, key);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	for (uint32_t i = 0; i < 256; i++) {
		uint8_t f[128];
		uint32_t len = aqc_test_udp4(f, 30, (uint16_t)(1000 + i), 4789, i);
		struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, f, len);

		assert_int_equal(rte_eth_tx_burst(p.id, i % 8, &m, 1), 1);
	}
	assert_int_equal(aqc_model_step(p.model, 10000), 256);  /* TX frames; the loop delivers inline */
	for (uint16_t q = 0; q < 8; q++) {
		struct rte_mbuf *rx[64];
		uint16_t n;

		while ((n = rte_eth_rx_burst(p.id, q, rx, 64)) > 0) {
			for (uint16_t k = 0; k < n; k++) {
				const uint8_t *d = rte_pktmbuf_mtod(rx[k], const uint8_t *);
				uint32_t i = ((uint32_t)d[34] << 8 | d[35]) - 1000, h;
				uint8_t tuple[12], f[128];
				uint32_t len;

				assert_true(i < 256);
				len = aqc_test_udp4(f, 30, (uint16_t)(1000 + i), 4789, i);
				tp_test_assert_mbuf_bytes(rx[k], f, len);
				memcpy(tuple, f + 26, 8);
				memcpy(tuple + 8, f + 34, 4);
				h = aqc_test_toeplitz(key, tuple, 12);
				assert_int_equal(rx[k]->hash.rss, h);
				assert_int_equal(q, (h & 63) % 8);
				seen[i]++;
				per_q[q]++;
				rte_pktmbuf_free(rx[k]);
			}
		}
	}
	for (unsigned int i = 0; i < 256; i++)
		assert_int_equal(seen[i], 1);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	for (unsigned int q = 0; q < 8; q++) {
		assert_int_equal(st.q_opackets[q], 32);
		assert_int_equal(st.q_ipackets[q], per_q[q]);
		assert_true(per_q[q] > 0);   /* 256 flows spread over all 8 */
	}
	assert_int_equal(st.ipackets, 256);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* RSS updates while the port runs: RETA, key, hash types (docs/ref/aqc.md §6.1). */
static void
test_rss_update(void **state)
{
	static const uint8_t key2[40] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
		21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
	};
	struct rte_mempool *mp = tp_test_pool_create("dp_rss", 2048, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_eth_rss_reta_entry64 reta = { .mask = ~0ull };
	struct rte_eth_rss_conf conf = { 0 };
	struct aqc_test_port p;
	uint8_t got_key[40], f[128], tuple[12];
	struct rte_mbuf *m;
	uint32_t len;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim1");
	aqc_test_start(&p, 8, 64, mp, 0, 0, true, key);
	conf.rss_key = got_key;
	conf.rss_key_len = sizeof(got_key);
	assert_int_equal(rte_eth_dev_rss_hash_conf_get(p.id, &conf), 0);
	assert_memory_equal(got_key, key, 40);
	/* every RETA entry to queue 5 */
	for (int i = 0; i < 64; i++)
		reta.reta[i] = 5;
	assert_int_equal(rte_eth_dev_rss_reta_update(p.id, &reta, 64), 0);
	for (uint32_t i = 0; i < 16; i++) {
		len = aqc_test_udp4(f, 20, (uint16_t)(100 + i), 7, i);
		assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	}
	for (uint16_t q = 0; q < 8; q++) {
		struct rte_mbuf *rx[32];
		uint16_t n = rte_eth_rx_burst(p.id, q, rx, 32);

		assert_int_equal(n, q == 5 ? 16 : 0);
		for (uint16_t k = 0; k < n; k++)
			rte_pktmbuf_free(rx[k]);
	}
	/* bad RETA: queue 9 does not exist */
	reta.reta[3] = 9;
	assert_int_not_equal(rte_eth_dev_rss_reta_update(p.id, &reta, 64), 0);
	/* new key, IPv4 header only: RSS type 2 over the addresses (§5.4) */
	conf.rss_key = (uint8_t *)(uintptr_t)key2;
	conf.rss_key_len = 40;
	conf.rss_hf = RTE_ETH_RSS_IPV4;
	assert_int_equal(rte_eth_dev_rss_hash_update(p.id, &conf), 0);
	len = aqc_test_tcp4(f, 20, 1, 2, 3);
	assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	assert_int_equal(rte_eth_rx_burst(p.id, 5, &m, 1), 1);
	memcpy(tuple, f + 26, 8);
	assert_int_equal(m->hash.rss, aqc_test_toeplitz(key2, tuple, 8));
	assert_true(m->ol_flags & RTE_MBUF_F_RX_RSS_HASH);
	rte_pktmbuf_free(m);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* docs/ref/aqc.md §5.4: a frame longer than the buffer spans consecutive descriptors,
 * DD on each, EOP on the last, total length in each. */
static void
test_jumbo(void **state)
{
	/* data room 1 KiB + headroom: 1 KiB hardware buffers */
	struct rte_mempool *mp = tp_test_pool_create("dp_jumbo", 512,
						     1024 + RTE_PKTMBUF_HEADROOM);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port in, loop;
	static uint8_t f[16352];
	struct rte_mbuf *m, *seg;
	uint32_t len, dw[4];
	unsigned int s;

	(void)state;
	aqc_test_port(&in, "net_aqc_sim1");
	aqc_test_start(&in, 1, 64, mp, RTE_ETH_RX_OFFLOAD_SCATTER, 0, false, NULL);
	assert_int_equal(BITS(aqc_test_reg(&in, DOC_RXD_BUFSZ(0)), 4, 0), 1);
	len = aqc_test_udp4(f, 9000 - 42, 7, 7, 77);
	assert_int_equal(len, 9000);
	assert_int_equal(aqc_model_inject(in.model, f, len), 0);
	for (s = 0; s < 9; s++) {
		aqc_test_rx_desc(&in, 0, s, dw);
		assert_int_equal(BITS(dw[2], 0, 0), 1);              /* DD on each */
		assert_int_equal(BITS(dw[2], 1, 1), s == 8);         /* EOP on last */
		assert_int_equal(BITS(dw[2], 31, 16), 9000);         /* total length */
	}
	aqc_test_rx_desc(&in, 0, 9, dw);
	assert_int_equal(dw[2], 0);
	assert_int_equal(rte_eth_rx_burst(in.id, 0, &m, 1), 1);
	assert_int_equal(m->nb_segs, 9);
	assert_int_equal(m->pkt_len, 9000);
	for (s = 0, seg = m; seg != NULL; seg = seg->next, s++)
		assert_int_equal(seg->data_len, s < 8 ? 1024 : 9000 - 8 * 1024);
	tp_test_assert_mbuf_bytes(m, f, len);
	rte_pktmbuf_free(m);
	/* the largest frame (docs/ref/aqc.md §6.8: 16352) takes 16 buffers */
	len = aqc_test_udp4(f, 16352 - 42, 8, 8, 78);
	assert_int_equal(aqc_model_inject(in.model, f, len), 0);
	assert_int_equal(rte_eth_rx_burst(in.id, 0, &m, 1), 1);
	assert_int_equal(m->nb_segs, 16);
	tp_test_assert_mbuf_bytes(m, f, len);
	rte_pktmbuf_free(m);
	aqc_test_stop(&in);

	/* TX of a multi-segment chain, and back through the loop */
	aqc_test_port(&loop, "net_aqc_sim0");
	aqc_test_start(&loop, 1, 64, mp, RTE_ETH_RX_OFFLOAD_SCATTER,
		       RTE_ETH_TX_OFFLOAD_MULTI_SEGS, false, NULL);
	len = aqc_test_tcp4(f, 9000 - 54, 9, 9, 79);
	m = tp_test_mbuf_chain_from_bytes(mp, f, len, 700);
	assert_int_equal(m->nb_segs, 13);
	assert_int_equal(rte_eth_tx_burst(loop.id, 0, &m, 1), 1);
	for (s = 0; s < 13; s++) {
		aqc_test_tx_desc(&loop, 0, s, dw);
		assert_int_equal(BITS(dw[2], 19, 4), s < 12 ? 700 : len - 12 * 700);
		assert_int_equal(BITS(dw[2], 21, 21), s == 12);
		assert_int_equal(BITS(dw[3], 31, 14), len);
	}
	assert_int_equal(aqc_model_step(loop.model, 64), 1);
	assert_int_equal(rte_eth_rx_burst(loop.id, 0, &m, 1), 1);
	assert_int_equal(m->nb_segs, 9);
	tp_test_assert_mbuf_bytes(m, f, len);
	rte_pktmbuf_free(m);
	aqc_test_stop(&loop);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* 32-descriptor rings, 60 laps, bursts of 7: every frame intact, in order. */
static void
test_wrap_around(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dp_wrap", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	uint32_t sent = 0, got = 0, total = 32 * 60;
	uint32_t last_head = 0, wraps = 0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 32, mp, 0, 0, false, NULL);
	while (got < total) {
		struct rte_mbuf *tx[7], *rx[32];
		uint16_t n = RTE_MIN(7u, total - sent), k, r;
		uint8_t f[1600];
		uint32_t head;

		for (k = 0; k < n; k++)
			tx[k] = tp_test_mbuf_from_bytes(mp, f, seq_frame(f, sent + k));
		assert_int_equal(rte_eth_tx_burst(p.id, 0, tx, n), n);
		sent += n;
		assert_int_equal(aqc_model_step(p.model, 64), n);
		r = rte_eth_rx_burst(p.id, 0, rx, 32);
		assert_int_equal(r, n);
		for (k = 0; k < r; k++, got++) {
			tp_test_assert_mbuf_bytes(rx[k], f, seq_frame(f, got));
			rte_pktmbuf_free(rx[k]);
		}
		head = aqc_test_reg(&p, DOC_RXD_HEAD(0));
		assert_true(head < 32);
		wraps += head < last_head;
		last_head = head;
	}
	assert_true(wraps >= 59);
	{
		/* a chain longer than the ring can never be sent: dropped and
		 * counted (oerrors), not left blocking the queue */
		struct rte_eth_stats st;
		struct rte_mbuf *m;
		uint8_t f[1600];
		uint32_t len = seq_frame(f, 5);

		assert_int_equal(rte_eth_stats_reset(p.id), 0);
		m = tp_test_mbuf_chain_from_bytes(mp, f, 800, 20);
		assert_int_equal(m->nb_segs, 40);
		assert_int_equal(rte_eth_tx_burst(p.id, 0, &m, 1), 1);
		m = tp_test_mbuf_from_bytes(mp, f, len);
		assert_int_equal(rte_eth_tx_burst(p.id, 0, &m, 1), 1);
		assert_int_equal(aqc_model_step(p.model, 64), 1);
		assert_int_equal(rte_eth_rx_burst(p.id, 0, &m, 1), 1);
		tp_test_assert_mbuf_bytes(m, f, len);
		rte_pktmbuf_free(m);
		assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
		assert_int_equal(st.oerrors, 1);
		assert_int_equal(st.q_opackets[0], 1);
	}
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* Ring full = a counted drop (0x6818, imissed), never a partial packet. */
static void
test_ring_full(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dp_full", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_model_counters c0, c1;
	struct rte_mbuf *rx[64];
	struct rte_eth_stats st;
	struct aqc_test_port p;
	static uint8_t f[9000];
	uint32_t len;
	unsigned int ok = 0, full = 0;
	uint16_t n;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim1");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	aqc_model_get_counters(p.model, &c0);
	for (uint32_t i = 0; i < 100; i++) {
		int rc;

		len = aqc_test_udp4(f, 22, (uint16_t)i, 1, i);
		rc = aqc_model_inject(p.model, f, len);
		if (rc == 0)
			ok++;
		else if (rc == -ENOBUFS)
			full++;
		else
			fail_msg("inject %u: %d", i, rc);
	}
	assert_int_equal(ok, 63);     /* 64 descriptors, one always kept back */
	assert_int_equal(full, 37);
	assert_int_equal(aqc_test_reg(&p, 0x6818), 37);
	aqc_model_get_counters(p.model, &c1);
	assert_int_equal(c1.rx_ring_full - c0.rx_ring_full, 37);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.imissed, 37);
	assert_int_equal(st.ipackets, 63);
	n = rte_eth_rx_burst(p.id, 0, rx, 64);
	assert_int_equal(n, 63);
	for (uint16_t k = 0; k < n; k++) {
		len = aqc_test_udp4(f, 22, k, 1, k);
		tp_test_assert_mbuf_bytes(rx[k], f, len);
		rte_pktmbuf_free(rx[k]);
	}
	/* 61 small frames leave 2 free descriptors; a 9000-byte frame needs 5
	 * 2 KiB buffers and is dropped whole */
	for (uint32_t i = 0; i < 61; i++) {
		len = aqc_test_udp4(f, 22, (uint16_t)i, 2, i);
		assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	}
	len = aqc_test_udp4(f, 9000 - 42, 3, 3, 3);
	assert_int_equal(aqc_model_inject(p.model, f, len), -ENOBUFS);
	assert_int_equal(aqc_test_reg(&p, 0x6818), 38);
	n = rte_eth_rx_burst(p.id, 0, rx, 64);
	assert_int_equal(n, 61);
	for (uint16_t k = 0; k < n; k++) {
		assert_int_equal(rx[k]->nb_segs, 1);
		rte_pktmbuf_free(rx[k]);
	}
	assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 64), 0);
	/* after the refill the jumbo frame fits */
	assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 64), 1);
	tp_test_assert_mbuf_bytes(rx[0], f, len);
	rte_pktmbuf_free(rx[0]);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

static void
loop_some(const struct aqc_test_port *p, struct rte_mempool *mp, uint16_t q, uint16_t n)
{
	struct rte_mbuf *tx[32], *rx[32];
	uint8_t f[256];

	for (uint16_t k = 0; k < n; k++)
		tx[k] = tp_test_mbuf_from_bytes(mp, f, aqc_test_udp4(f, 100, k, q, k));
	assert_int_equal(rte_eth_tx_burst(p->id, q, tx, n), n);
	aqc_model_step(p->model, 1000);
	assert_int_equal(rte_eth_rx_burst(p->id, 0, rx, 32), n);
	for (uint16_t k = 0; k < n; k++) {
		tp_test_assert_mbuf_bytes(rx[k], f, aqc_test_udp4(f, 100, k, q, k));
		rte_pktmbuf_free(rx[k]);
	}
}

/* The chip fills every posted descriptor, lap after lap: the driver takes
 * exactly those, never the stale write-back in the slot kept empty. */
static void
test_full_ring_laps(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dp_laps", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	struct rte_mbuf *rx[64];
	uint8_t f[128];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim1");
	aqc_test_start(&p, 1, 32, mp, 0, 0, false, NULL);
	for (uint32_t lap = 0; lap < 5; lap++) {
		uint16_t n;

		for (uint32_t i = 0; i < 31; i++)
			assert_int_equal(aqc_model_inject(p.model, f,
				aqc_test_udp4(f, 30, (uint16_t)i, (uint16_t)lap, i)), 0);
		assert_int_equal(aqc_model_inject(p.model, f, aqc_test_udp4(f, 30, 0, 0, 0)),
				 -ENOBUFS);
		n = rte_eth_rx_burst(p.id, 0, rx, 64);
		assert_int_equal(n, 31);
		for (uint16_t k = 0; k < n; k++) {
			tp_test_assert_mbuf_bytes(rx[k], f,
				aqc_test_udp4(f, 30, k, (uint16_t)lap, k));
			rte_pktmbuf_free(rx[k]);
		}
		assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 64), 0);
	}
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* MBUF_FAST_FREE: single segments, chains and VLAN-inserted packets (with a
 * context slot) mixed; the reclaim puts them back as they are. */
static void
test_fast_free(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dp_ff", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	uint32_t got = 0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp, 0, RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE |
		       RTE_ETH_TX_OFFLOAD_MULTI_SEGS | RTE_ETH_TX_OFFLOAD_VLAN_INSERT,
		       false, NULL);
	for (uint32_t i = 0; i < 600; i += 6) {
		struct rte_mbuf *tx[6], *rx[16];
		uint8_t f[1600], want[1604];
		uint16_t n;

		for (uint32_t k = 0; k < 6; k++) {
			uint32_t len = seq_frame(f, i + k);

			tx[k] = k % 3 == 1 ? tp_test_mbuf_chain_from_bytes(mp, f, len, 200) :
					     tp_test_mbuf_from_bytes(mp, f, len);
			if (k % 3 == 2) {
				tx[k]->ol_flags = RTE_MBUF_F_TX_VLAN;
				tx[k]->vlan_tci = (uint16_t)(i + k);
			}
		}
		assert_int_equal(rte_eth_tx_burst(p.id, 0, tx, 6), 6);
		assert_int_equal(aqc_model_step(p.model, 64), 6);
		n = rte_eth_rx_burst(p.id, 0, rx, 16);
		assert_int_equal(n, 6);
		for (uint32_t k = 0; k < 6; k++, got++) {
			uint32_t len = seq_frame(f, i + k);

			if (k % 3 == 2) {
				memcpy(want, f, 12);
				want[12] = 0x81;
				want[13] = 0x00;
				want[14] = (uint8_t)((i + k) >> 8);
				want[15] = (uint8_t)(i + k);
				memcpy(want + 16, f + 12, len - 12);
				tp_test_assert_mbuf_bytes(rx[k], want, len + 4);
			} else {
				tp_test_assert_mbuf_bytes(rx[k], f, len);
			}
			rte_pktmbuf_free(rx[k]);
		}
		/* everything sent so far is reclaimed or still in the ring */
		assert_true(tp_test_pool_in_use(mp) <= start + 63 + 64);
	}
	assert_int_equal(got, 600);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* Mbuf accounting over start/stop/restart and queue stop/start. */
static void
test_start_stop_restart(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dp_ss", 1024, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	struct rte_mbuf *tx[10];
	uint8_t f[256];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 2, 64, mp, 0, 0, false, NULL);
	assert_int_equal(tp_test_pool_in_use(mp), start + 2 * 63);
	/* frames left in the TX ring (chip never ran) are freed by stop */
	for (int k = 0; k < 10; k++)
		tx[k] = tp_test_mbuf_from_bytes(mp, f, aqc_test_udp4(f, 100, k, 1, k));
	assert_int_equal(rte_eth_tx_burst(p.id, 1, tx, 10), 10);
	assert_int_equal(tp_test_pool_in_use(mp), start + 2 * 63 + 10);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	for (int round = 0; round < 3; round++) {
		assert_int_equal(rte_eth_dev_start(p.id), 0);
		assert_int_equal(tp_test_pool_in_use(mp), start + 2 * 63);
		aqc_test_wait_link(p.id, RTE_ETH_LINK_UP);   /* autonegotiation */
		loop_some(&p, mp, 0, 20);
		loop_some(&p, mp, 1, 5);
		/* a frame received but not read is freed by stop as well */
		tx[0] = tp_test_mbuf_from_bytes(mp, f, aqc_test_udp4(f, 100, 1, 1, 1));
		assert_int_equal(rte_eth_tx_burst(p.id, 0, tx, 1), 1);
		aqc_model_step(p.model, 10);
		aqc_test_stop(&p);
		TP_TEST_ASSERT_POOL_BACK(mp, start);
	}
	/* per-queue stop/start */
	assert_int_equal(rte_eth_dev_start(p.id), 0);
	aqc_test_wait_link(p.id, RTE_ETH_LINK_UP);
	assert_int_equal(rte_eth_dev_rx_queue_stop(p.id, 1), 0);
	assert_int_equal(tp_test_pool_in_use(mp), start + 63);
	assert_false(aqc_test_reg(&p, DOC_RXD_CTL(1)) & (1u << 31));
	assert_int_equal(rte_eth_dev_rx_queue_start(p.id, 1), 0);
	assert_true(aqc_test_reg(&p, DOC_RXD_CTL(1)) & (1u << 31));
	assert_int_equal(tp_test_pool_in_use(mp), start + 2 * 63);
	/* queue 0 carries traffic, is stopped mid-ring and restarts at 0 */
	loop_some(&p, mp, 0, 13);
	assert_int_equal(rte_eth_dev_tx_queue_stop(p.id, 0), 0);
	assert_int_equal(rte_eth_dev_rx_queue_stop(p.id, 0), 0);
	assert_false(aqc_test_reg(&p, DOC_TXD_CTL(0)) & (1u << 31));
	assert_int_equal(aqc_test_reg(&p, DOC_TXD_HEAD(0)), 0);
	assert_int_equal(aqc_test_reg(&p, DOC_RXD_HEAD(0)), 0);
	assert_int_equal(tp_test_pool_in_use(mp), start + 63);
	assert_int_equal(rte_eth_dev_tx_queue_start(p.id, 0), 0);
	assert_int_equal(rte_eth_dev_rx_queue_start(p.id, 0), 0);
	loop_some(&p, mp, 0, 8);
	loop_some(&p, mp, 1, 20);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* wire=peer: what one port sends, the other receives. */
static void
test_peer(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dp_peer", 1024, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port a, b;

	(void)state;
	aqc_test_port(&a, "net_aqc_sim2");
	aqc_test_port(&b, "net_aqc_sim3");
	aqc_test_start(&a, 1, 128, mp, 0, 0, false, NULL);
	aqc_test_start(&b, 1, 128, mp, 0, 0, false, NULL);
	for (int dir = 0; dir < 2; dir++) {
		const struct aqc_test_port *tx = dir ? &b : &a, *rx = dir ? &a : &b;
		struct rte_mbuf *pk[50];
		uint8_t f[1600];

		for (uint32_t k = 0; k < 50; k++)
			pk[k] = tp_test_mbuf_from_bytes(mp, f, seq_frame(f, k + 100 * dir));
		assert_int_equal(rte_eth_tx_burst(tx->id, 0, pk, 50), 50);
		assert_int_equal(aqc_model_step(tx->model, 1000), 50);
		assert_int_equal(rte_eth_rx_burst(rx->id, 0, pk, 50), 0);
		assert_int_equal(aqc_model_step(rx->model, 1000), 50);
		assert_int_equal(rte_eth_rx_burst(rx->id, 0, pk, 50), 50);
		for (uint32_t k = 0; k < 50; k++) {
			tp_test_assert_mbuf_bytes(pk[k], f, seq_frame(f, k + 100 * dir));
			rte_pktmbuf_free(pk[k]);
		}
	}
	aqc_test_stop(&a);
	aqc_test_stop(&b);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* The model thread (default mode): 20000 frames through the loop. */
static void
test_thread_mode(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("dp_thr", 2048, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_eth_stats st;
	struct aqc_test_port p;
	uint32_t sent = 0, got = 0, total = 20000;
	uint64_t deadline = rte_get_timer_cycles() + 20 * rte_get_timer_hz();

	(void)state;
	aqc_test_port(&p, "net_aqc_sim4");
	aqc_test_start(&p, 1, 256, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	while (got < total && rte_get_timer_cycles() < deadline) {
		struct rte_mbuf *tx[32], *rx[64];
		uint8_t f[1600];
		uint16_t n = 0, r;

		if (sent - got < 64 && sent < total) {
			n = RTE_MIN(32u, total - sent);
			for (uint16_t k = 0; k < n; k++)
				tx[k] = tp_test_mbuf_from_bytes(mp, f, seq_frame(f, sent + k));
			n = rte_eth_tx_burst(p.id, 0, tx, n);
			sent += n;
		}
		r = rte_eth_rx_burst(p.id, 0, rx, 64);
		for (uint16_t k = 0; k < r; k++, got++) {
			tp_test_assert_mbuf_bytes(rx[k], f, seq_frame(f, got));
			rte_pktmbuf_free(rx[k]);
		}
	}
	assert_int_equal(got, total);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, total);
	assert_int_equal(st.opackets, total);
	assert_int_equal(st.imissed, 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_queue_pair),
		cmocka_unit_test(test_eight_queue_pairs),
		cmocka_unit_test(test_rss_update),
		cmocka_unit_test(test_jumbo),
		cmocka_unit_test(test_wrap_around),
		cmocka_unit_test(test_ring_full),
		cmocka_unit_test(test_full_ring_laps),
		cmocka_unit_test(test_fast_free),
		cmocka_unit_test(test_start_stop_restart),
		cmocka_unit_test(test_peer),
		cmocka_unit_test(test_thread_mode),
	};

	aqc_test_model_from_args(argc, argv);

	return cmocka_run_group_tests(tests, setup, NULL);
}
