/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pcap wire of net_aqc_sim: when rx_pcap starts to deliver (rx_start,
 * rx_delay_ms), how frames the L2 filters drop show in the counters a
 * user reads (MAC counters count them, the DMA counters do not, and the
 * model's xstats name them), replaying the capture (rx_loops), and the
 * random fault injector (faults, fault_seed) accounting for every frame.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>
#include <rte_cycles.h>

#include "aqc_test.h"

#define NFRAMES 3
#define FAULT_PLAYS 200u

static char pcap_path[512];
static char vdev[7][700];
static uint8_t frames[NFRAMES][128];
static uint32_t lens[NFRAMES];

static int
setup(void **state)
{
	const char *const *list;
	static const char *v[8];
	pcap_t *dead = pcap_open_dead(DLT_EN10MB, 65535);
	pcap_dumper_t *d;

	(void)state;
	snprintf(pcap_path, sizeof(pcap_path), "%s",
		 tp_test_build_path("aqc_wire_test.pcap"));
	snprintf(pcap_path + strlen(pcap_path) - 5, 32, "_%d.pcap", (int)getpid());
	assert_non_null(dead);
	d = pcap_dump_open(dead, pcap_path);
	assert_non_null(d);
	for (uint32_t i = 0; i < NFRAMES; i++) {
		struct pcap_pkthdr h = { .caplen = 0 };

		lens[i] = aqc_test_udp4(frames[i], 30 + i, (uint16_t)(10 + i), 20, i);
		h.caplen = h.len = lens[i];
		pcap_dump((u_char *)d, &h, frames[i]);
	}
	pcap_dump_close(d);
	pcap_close(dead);
	snprintf(vdev[0], sizeof(vdev[0]),
		 "net_aqc_sim0,wire=pcap,rx_pcap=%s,rx_start=poll,rx_delay_ms=0", pcap_path);
	snprintf(vdev[1], sizeof(vdev[1]),
		 "net_aqc_sim1,wire=pcap,rx_pcap=%s,rx_start=link,rx_delay_ms=0", pcap_path);
	snprintf(vdev[2], sizeof(vdev[2]),
		 "net_aqc_sim2,wire=pcap,rx_pcap=%s,rx_start=link,rx_delay_ms=60000", pcap_path);
	snprintf(vdev[3], sizeof(vdev[3]),
		 "net_aqc_sim3,wire=pcap,rx_pcap=%s,rx_start=now", pcap_path);
	snprintf(vdev[4], sizeof(vdev[4]),
		 "net_aqc_sim4,wire=pcap,rx_pcap=%s,rx_start=link,rx_delay_ms=0,rx_loops=5",
		 pcap_path);
	snprintf(vdev[5], sizeof(vdev[5]),
		 "net_aqc_sim5,wire=pcap,rx_pcap=%s,rx_start=link,rx_delay_ms=0,rx_loops=0",
		 pcap_path);
	snprintf(vdev[6], sizeof(vdev[6]),
		 "net_aqc_sim6,wire=pcap,rx_pcap=%s,rx_start=poll,rx_delay_ms=0,rx_loops=%u,"
		 "faults=10,fault_seed=9", pcap_path, FAULT_PLAYS);
	for (int i = 0; i < 7; i++)
		v[i] = vdev[i];
	v[7] = NULL;
	list = v;
	return aqc_test_eal_init(list);
}

static int
teardown(void **state)
{
	(void)state;
	unlink(pcap_path);
	return 0;
}

static void
check_received(uint16_t port)
{
	struct rte_mbuf *rx[NFRAMES];

	aqc_test_rx_all(port, 0, rx, NFRAMES);
	for (int i = 0; i < NFRAMES; i++) {
		tp_test_assert_mbuf_bytes(rx[i], frames[i], lens[i]);
		rte_pktmbuf_free(rx[i]);
	}
}

/* rx_start=poll: link up is not enough; the first poll opens the wire. */
static void
test_start_on_poll(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("wire_poll", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_model_counters c;
	struct aqc_test_port p;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	rte_delay_us_sleep(200000);
	aqc_model_get_counters(p.model, &c);
	assert_int_equal(c.pcap_in, 0);
	assert_int_equal(c.rx_frames, 0);
	check_received(p.id);     /* its first rx_burst is the poll */
	aqc_model_get_counters(p.model, &c);
	assert_int_equal(c.pcap_in, NFRAMES);
	assert_int_equal(c.rx_filtered, 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* rx_start=link: frames arrive without any poll once the link is up. */
static void
test_start_on_link(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("wire_link", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_model_counters c = { 0 };
	struct aqc_test_port p;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim1");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	for (int i = 0; i < 2000 && c.rx_frames < NFRAMES; i++) {
		rte_delay_us_sleep(1000);
		aqc_model_get_counters(p.model, &c);
	}
	assert_int_equal(c.rx_frames, NFRAMES);
	check_received(p.id);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* rx_delay_ms: nothing before the delay, polls or not. */
static void
test_start_delay(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("wire_delay", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_model_counters c;
	struct aqc_test_port p;
	struct rte_mbuf *rx[4];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim2");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	for (int i = 0; i < 300; i++) {
		assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 4), 0);
		rte_delay_us_sleep(1000);
	}
	aqc_model_get_counters(p.model, &c);
	assert_int_equal(c.pcap_in, 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

static uint64_t
xstat(uint16_t port, const char *name)
{
	uint64_t id = 0, v = ~0ull;

	assert_int_equal(rte_eth_xstats_get_id_by_name(port, name, &id), 0);
	assert_int_equal(rte_eth_xstats_get_by_id(port, &id, &v, 1), 1);
	return v;
}

/* rx_start=now and no promiscuous mode: the frames (to another MAC) are
 * dropped by the L2 filter -- and a user can see it: MAC counters 3, DMA
 * counters 0, model_rx_l2_filtered 3. */
static void
test_filtered_frames_are_counted(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("wire_filt", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_model_counters c = { 0 };
	struct rte_eth_stats st;
	struct aqc_test_port p;
	uint64_t id;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim3");
	aqc_test_start_promisc(&p, 1, 64, mp, 0, 0, false, NULL, false);
	for (int i = 0; i < 2000 && c.pcap_in < NFRAMES; i++) {
		rte_delay_us_sleep(1000);
		aqc_model_get_counters(p.model, &c);
	}
	assert_int_equal(c.rx_filtered, NFRAMES);
	assert_int_equal(c.rx_frames, 0);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 0);
	assert_int_equal(st.imissed, 0);
	/* docs/ref/aqc.md §3.1 A1 mailbox counters / §3.4 A2 "B0" statistics */
	assert_int_equal(xstat(p.id, aqc_test_a2() ? "mac_rx_unicast_frames" : "mac_uprc"),
			 NFRAMES);
	assert_int_equal(xstat(p.id, aqc_test_a2() ? "mac_rx_good_octets" : "mac_ubrc"),
			 lens[0] + lens[1] + lens[2]);
	assert_int_equal(xstat(p.id, "model_rx_l2_filtered"), NFRAMES);
	assert_int_equal(xstat(p.id, "model_rx_ring_full"), 0);
	assert_int_equal(xstat(p.id, "model_pcap_frames_read"), NFRAMES);
	assert_int_equal(rte_eth_xstats_get_id_by_name(p.id, "model_dma_faults", &id), 0);
	/* reset: the model's counts restart from zero in the xstats too */
	assert_int_equal(rte_eth_xstats_reset(p.id), 0);
	assert_int_equal(xstat(p.id, "model_rx_l2_filtered"), 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* rx_loops=5: the capture five times over, in order, then nothing. */
static void
test_rx_loops(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("wire_loops", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *rx[5 * NFRAMES];
	struct aqc_model_counters c;
	struct aqc_test_port p;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim4");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	aqc_test_rx_all(p.id, 0, rx, 5 * NFRAMES);
	for (int i = 0; i < 5 * NFRAMES; i++) {
		tp_test_assert_mbuf_bytes(rx[i], frames[i % NFRAMES], lens[i % NFRAMES]);
		rte_pktmbuf_free(rx[i]);
	}
	rte_delay_us_sleep(50000);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 4), 0);
	aqc_model_get_counters(p.model, &c);
	assert_int_equal(c.pcap_in, 5 * NFRAMES);
	assert_int_equal(xstat(p.id, "model_pcap_frames_read"), 5 * NFRAMES);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* rx_loops=0: without end - far more frames than one play, still in
 * order, and the wire waits (nothing lost) while the ring is full. */
static void
test_rx_loops_endless(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("wire_endless", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *rx[32];
	struct aqc_model_counters c;
	struct rte_eth_stats st;
	struct aqc_test_port p;
	uint32_t got = 0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim5");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	for (int i = 0; i < 5000 && got < 3000; i++) {
		uint16_t n = rte_eth_rx_burst(p.id, 0, rx, 32);

		for (uint16_t k = 0; k < n; k++, got++) {
			tp_test_assert_mbuf_bytes(rx[k], frames[got % NFRAMES], lens[got % NFRAMES]);
			rte_pktmbuf_free(rx[k]);
		}
		if (n == 0)
			rte_delay_us_sleep(200);
	}
	assert_true(got >= 3000);
	aqc_model_get_counters(p.model, &c);
	assert_true(c.pcap_in >= got);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.imissed, 0);
	assert_int_equal(c.rx_ring_full, 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* faults=10: a random fault every 10 frames on average while the capture
 * plays FAULT_PLAYS times. The pcap wire waits out link flaps and full
 * rings, so every frame it put on the wire is received or counted in
 * ierrors (a write-back DMA error, a corrupted length, a damaged frame),
 * and every one received is a frame of the capture, byte for byte, in the
 * capture's cyclic order (frames are lost, never reordered). */
static void
test_random_faults(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("wire_faults", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	const uint32_t total = FAULT_PLAYS * NFRAMES;
	struct rte_mbuf *rx[32];
	struct aqc_model_counters c = { 0 };
	struct rte_eth_stats st = { 0 };
	struct aqc_test_port p;
	uint32_t got = 0, idle = 0, pos = 0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim6");
	aqc_test_start(&p, 1, 64, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	/* rx_start=poll: the first burst below opens the wire, after the reset;
	 * until the capture is played out and nothing moves for 200 ms */
	for (int i = 0; i < 20000 && idle < 1000; i++) {
		uint16_t n = rte_eth_rx_burst(p.id, 0, rx, 32);

		for (uint16_t k = 0; k < n; k++, got++) {
			uint32_t j;

			/* the next frame of the capture at or after pos */
			for (j = 0; j < NFRAMES; j++)
				if (rte_pktmbuf_pkt_len(rx[k]) == lens[(pos + j) % NFRAMES] &&
				    memcmp(rte_pktmbuf_mtod(rx[k], void *), frames[(pos + j) % NFRAMES],
					   lens[(pos + j) % NFRAMES]) == 0)
					break;
			if (j == NFRAMES)
				fail_msg("frame %u: not the capture's next frames", got);
			pos += j + 1;
			rte_pktmbuf_free(rx[k]);
		}
		aqc_model_get_counters(p.model, &c);
		idle = n == 0 && c.pcap_in == total ? idle + 1 : 0;
		if (n == 0)
			rte_delay_us_sleep(200);
	}
	assert_int_equal(c.pcap_in, total);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, got);
	assert_int_equal(st.ipackets + st.ierrors, total);
	assert_int_equal(st.imissed, 0);
	assert_int_equal(c.rx_filtered + c.rx_disabled + c.rx_ring_full + c.dma_faults, 0);
	assert_true(c.random_faults > 0);
	/* damaged frames are ierrors; so are DMA errors and bad lengths, which
	 * faults_injected counts with the late write-backs (not errors) */
	assert_true(st.ierrors >= c.fault_mac_err);
	assert_true(st.ierrors <= c.fault_mac_err + c.faults_injected);
	assert_int_equal(xstat(p.id, "model_random_faults"), c.random_faults);
	assert_int_equal(xstat(p.id, "model_fault_rx_damaged"), c.fault_mac_err);
	assert_int_equal(xstat(p.id, "model_fault_tx_stalls"), c.fault_tx_stalls);
	assert_int_equal(xstat(p.id, "model_fault_link_flaps"), c.fault_link_flaps);
	assert_int_equal(c.fault_peer_stalls, 0);   /* a pcap wire has no peer */
	printf("random faults: %" PRIu64 " started (%" PRIu64 " damaged frames, %" PRIu64
	       " TX stalls, %" PRIu64 " link flaps), %" PRIu64 " frames hit by DMA faults; "
	       "%" PRIu64 " received, %" PRIu64 " ierrors\n", c.random_faults, c.fault_mac_err,
	       c.fault_tx_stalls, c.fault_link_flaps, c.faults_injected, st.ipackets, st.ierrors);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_on_poll),
		cmocka_unit_test(test_start_on_link),
		cmocka_unit_test(test_start_delay),
		cmocka_unit_test(test_filtered_frames_are_counted),
		cmocka_unit_test(test_rx_loops),
		cmocka_unit_test(test_rx_loops_endless),
		cmocka_unit_test(test_random_faults),
	};

	aqc_test_model_from_args(argc, argv);

	return cmocka_run_group_tests(tests, setup, teardown);
}
