/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Soak: net_aqc on the chip model (loop wire, step mode) carrying mixed
 * traffic for a given time while faults are injected at random - RX
 * write-back DMA errors, corrupted write-back lengths, late/out-of-order
 * write-back, TX engine stalls, frames the MAC received damaged, the
 * mempool squeezed during RX refill, and link flaps.
 *
 * usage: soak_aqc SECONDS [SEED] [aqc107|aqc113]
 * At the end (faults cleared, everything drained) every frame the driver
 * took for TX, plus every damaged frame injected, must be received or
 * counted as dropped with a reason; every received frame must be one that
 * was sent, byte for byte, in sending order; the pool's in-use count must
 * be back to its start. Prints the figures; exit 0 when all of that holds,
 * 1 otherwise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_random.h>

#include "aqc_test.h"

#define RING 256
#define POOL 2048

/* Frame seq: its kind, size and bytes are functions of seq; the ports
 * carry seq (sport = low 16 bits, dport = high 16) so the receiver can
 * rebuild it. Every 7th is 802.1Q tagged (TCI from seq). */
static uint32_t
frame(uint8_t *f, uint32_t seq)
{
	uint32_t h = seq * 2654435761u;
	uint32_t pay = 18 + (h >> 8) % 1400, len;
	uint16_t sp = (uint16_t)seq, dp = (uint16_t)(seq >> 16);

	switch ((h >> 4) % 3) {
	case 0:
		len = aqc_test_udp4(f, pay, sp, dp, seq);
		break;
	case 1:
		len = aqc_test_tcp4(f, pay, sp, dp, seq);
		break;
	default:
		len = aqc_test_udp6(f, pay > 1380 ? 1380 : pay, sp, dp, seq);
		break;
	}
	if (seq % 7 == 0) {
		memmove(f + 16, f + 12, len - 12);
		f[12] = 0x81;
		f[13] = 0x00;
		f[14] = (uint8_t)((seq >> 8) & 0x0f);
		f[15] = (uint8_t)seq;
		len += 4;
	}
	return len;
}

/* seq of a received frame (its L4 ports), or UINT32_MAX if unreadable. */
static uint32_t
seq_of(const uint8_t *f, uint32_t len)
{
	uint32_t off = 12;
	uint16_t et;

	if (len < 14)
		return UINT32_MAX;
	et = (uint16_t)(f[12] << 8 | f[13]);
	if (et == 0x8100) {
		off += 4;
		et = (uint16_t)(f[16] << 8 | f[17]);
	}
	off += 2;
	off += et == 0x86DD ? 40 : 20;
	if (len < off + 4)
		return UINT32_MAX;
	return (uint32_t)(f[off] << 8 | f[off + 1]) | (uint32_t)(f[off + 2] << 8 | f[off + 3]) << 16;
}

struct soak {
	struct aqc_test_port p;
	struct rte_mempool *mp;
	uint64_t sent, refused, received, corrupt, reordered, bad_injected;
	uint64_t fault_rx_dma, fault_rx_len, fault_rx_late, stalls, squeezes, flaps;
	uint32_t next_seq, last_rx_seq;
	bool any_rx;
};

static void
tx_some(struct soak *s, unsigned int n)
{
	struct rte_mbuf *tx[32];
	static uint8_t f[2048];
	uint16_t k, sent;

	for (k = 0; k < n; k++) {
		uint32_t len = frame(f, s->next_seq + k);

		tx[k] = rte_pktmbuf_alloc(s->mp);
		if (tx[k] == NULL)
			break;
		memcpy(rte_pktmbuf_append(tx[k], (uint16_t)len), f, len);
	}
	sent = rte_eth_tx_burst(s->p.id, 0, tx, k);
	/* refused frames are not sent: their seq is used again */
	rte_pktmbuf_free_bulk(tx + sent, k - sent);
	s->refused += k - sent;
	s->sent += sent;
	s->next_seq += sent;
}

static void
rx_all(struct soak *s)
{
	struct rte_mbuf *rx[64];
	static uint8_t got[16384], want[2048];
	uint16_t n;

	do {
		n = rte_eth_rx_burst(s->p.id, 0, rx, 64);
		for (uint16_t k = 0; k < n; k++) {
			uint32_t len = tp_test_mbuf_to_bytes(rx[k], got, sizeof(got));
			uint32_t seq = seq_of(got, len);

			s->received++;
			if (seq == UINT32_MAX || len != frame(want, seq) ||
			    memcmp(got, want, len) != 0)
				s->corrupt++;
			else if (s->any_rx && seq <= s->last_rx_seq)
				s->reordered++;
			else
				s->last_rx_seq = seq;
			s->any_rx = true;
			rte_pktmbuf_free(rx[k]);
		}
	} while (n > 0);
}

static double
now_s(void)
{
	return aqc_test_now_s();
}

int
main(int argc, char **argv)
{
	static const char *const vdevs[] = { "net_aqc_sim0,mode=step,wire=loop", NULL };
	struct aqc_model_dma_faults none = { 0 }, fl;
	struct rte_eth_stats st;
	struct aqc_model_counters c;
	struct soak s = { 0 };
	struct rte_mbuf *held[POOL];
	unsigned int start, nheld = 0, stall_left = 0, squeeze_left = 0;
	double secs, t0, next_flap;
	uint64_t iters = 0, accounted, drops;
	uint8_t bad[2048];
	char *end;
	int ok;

	secs = argc > 1 ? strtod(argv[1], &end) : -1;
	if (argc < 2 || argc > 4 || *end != '\0' || secs <= 0) {
		fprintf(stderr, "usage: %s SECONDS [SEED] [aqc107|aqc113]\n", argv[0]);
		return 2;
	}
	/* DPDK's PRNG, seeded: the same seed injects the same faults */
	rte_srand(argc > 2 ? strtoull(argv[2], NULL, 0) : 1);
	{
		char *targv[] = { argv[0], argc > 3 ? argv[3] : (char *)"aqc107" };

		aqc_test_model_from_args(2, targv);
	}
	aqc_test_eal_init(vdevs);
	aqc_test_port(&s.p, "net_aqc_sim0");
	s.mp = tp_test_pool_create("soak", POOL, 0);
	start = tp_test_pool_in_use(s.mp);
	aqc_test_start(&s.p, 1, RING, s.mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(s.p.id), 0);
	aqc_model_get_counters(s.p.model, &c);
	t0 = now_s();
	next_flap = t0 + 5.0;
	while (now_s() - t0 < secs) {
		uint32_t r = (uint32_t)rte_rand();

		iters++;
		if (r % 64 == 0) {
			/* one DMA fault kind, hitting the next 1-3 frames */
			fl = none;
			fl.tx_stall = stall_left > 0;
			switch ((r >> 8) % 3) {
			case 0:
				fl.rx_dma_err = 1 + (r >> 12) % 3;
				s.fault_rx_dma += fl.rx_dma_err;
				break;
			case 1:
				fl.rx_bad_len = 1 + (r >> 12) % 3;
				s.fault_rx_len += fl.rx_bad_len;
				break;
			default:
				fl.rx_late = 1 + (r >> 12) % 3;
				s.fault_rx_late += fl.rx_late;
				break;
			}
			aqc_model_set_dma_faults(s.p.model, &fl);
		} else if (r % 512 == 1 && stall_left == 0) {
			stall_left = 1 + (r >> 10) % 32;   /* bursts the TX engine sleeps */
			fl = none;
			fl.tx_stall = true;
			aqc_model_set_dma_faults(s.p.model, &fl);
			s.stalls++;
		} else if (r % 128 == 2) {
			uint32_t len = frame(bad, 0x7fffffffu - (uint32_t)s.bad_injected);

			/* taken (ierrors), or dropped and counted by the model
			 * (ring full: imissed, link down) - only a bad length
			 * (-EINVAL) is not a frame at all */
			if (aqc_model_inject_bad(s.p.model, bad, len) != -EINVAL)
				s.bad_injected++;
		} else if (r % 1024 == 3 && squeeze_left == 0) {
			/* take every free mbuf for a while: RX refill fails */
			while (nheld < POOL && (held[nheld] = rte_pktmbuf_alloc(s.mp)) != NULL)
				nheld++;
			squeeze_left = 1 + (r >> 12) % 64;
			s.squeezes++;
		}
		if (stall_left > 0 && --stall_left == 0) {
			fl = none;
			aqc_model_set_dma_faults(s.p.model, &fl);
		}
		if (squeeze_left > 0 && --squeeze_left == 0) {
			rte_pktmbuf_free_bulk(held, nheld);
			nheld = 0;
		}
		if (now_s() >= next_flap) {
			/* the cable out and back, frames sent while it is out */
			aqc_model_set_cable(s.p.model, false);
			aqc_test_wait_link(s.p.id, RTE_ETH_LINK_DOWN);
			tx_some(&s, 16);
			aqc_model_step(s.p.model, 1024);
			aqc_model_set_cable(s.p.model, true);
			aqc_test_wait_link(s.p.id, RTE_ETH_LINK_UP);
			s.flaps++;
			next_flap = now_s() + 5.0;
		}
		tx_some(&s, 1 + r % 32);
		aqc_model_step(s.p.model, 1024);
		rx_all(&s);
	}
	/* drain: faults off, mbufs back, the engine runs until nothing moves */
	aqc_model_set_dma_faults(s.p.model, &none);
	rte_pktmbuf_free_bulk(held, nheld);
	for (int i = 0; i < 64; i++) {
		aqc_model_step(s.p.model, 4096);
		rx_all(&s);
		tx_some(&s, 0);
	}
	assert_int_equal(rte_eth_stats_get(s.p.id, &st), 0);
	{
		struct aqc_model_counters c1;

		aqc_model_get_counters(s.p.model, &c1);
		c.rx_disabled = c1.rx_disabled - c.rx_disabled;
		c.rx_filtered = c1.rx_filtered - c.rx_filtered;
		c.tx_errors = c1.tx_errors - c.tx_errors;
		c.faults_injected = c1.faults_injected - c.faults_injected;
		c.tx_frames = c1.tx_frames - c.tx_frames;
	}
	aqc_test_stop(&s.p);
	drops = st.ierrors + st.imissed + c.rx_disabled + c.rx_filtered + c.tx_errors;
	accounted = s.received + drops;
	printf("soak: %.0f s, model %s, %" PRIu64 " iterations\n", now_s() - t0,
	       aqc_test_model(), iters);
	printf("frames in (taken by tx_burst): %" PRIu64 " + %" PRIu64
	       " damaged injected; refused by tx_burst (ring full/stalled, resent): %" PRIu64 "\n",
	       s.sent, s.bad_injected, s.refused);
	printf("frames out (received): %" PRIu64 " (byte-exact, in order: %" PRIu64
	       "; corrupt %" PRIu64 ", out of order %" PRIu64 ")\n", s.received,
	       s.received - s.corrupt - s.reordered, s.corrupt, s.reordered);
	printf("dropped: ierrors %" PRIu64 " (DMA error, bad length, MAC error), imissed %"
	       PRIu64 " (ring full), link down %" PRIu64 ", filtered %" PRIu64
	       ", tx descriptor errors %" PRIu64 "; rx_nombuf %" PRIu64 " (refill slots)\n",
	       st.ierrors, st.imissed, c.rx_disabled, c.rx_filtered, c.tx_errors, st.rx_nombuf);
	printf("faults injected: rx DMA error %" PRIu64 ", rx bad length %" PRIu64
	       ", rx late %" PRIu64 " (requested; hit %" PRIu64 "), TX stalls %" PRIu64
	       ", pool squeezes %" PRIu64 ", link flaps %" PRIu64 ", damaged frames %" PRIu64 "\n",
	       s.fault_rx_dma, s.fault_rx_len, s.fault_rx_late, c.faults_injected, s.stalls,
	       s.squeezes, s.flaps, s.bad_injected);
	printf("unaccounted: %" PRId64 "; mempool in use: start %u, end %u\n",
	       (int64_t)(s.sent + s.bad_injected) - (int64_t)accounted, start,
	       tp_test_pool_in_use(s.mp));
	ok = accounted == s.sent + s.bad_injected && s.corrupt == 0 && s.reordered == 0 &&
	     tp_test_pool_in_use(s.mp) == start;
	printf("soak: %s\n", ok ? "OK" : "FAILED");
	rte_mempool_free(s.mp);
	return ok ? 0 : 1;
}
