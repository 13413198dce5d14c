/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What only the A2 (AQC113) generation has, on model=aqc113 ports: the MCP
 * boot and shared-buffer firmware interface (docs/ref/aqc.md §2.4, §3.4)
 * including a firmware that answers late or never, the action resolver
 * table (§6.5) read back from the model and shown to decide, the A2 RSS
 * layout (§6.1) and the 64-bit firmware counters.
 * The expected register values are written out from the document here, not
 * taken from the driver's headers.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_ethdev.h>

#include "aqc_test.h"

static const char *const vdevs[] = {
	"net_aqc_sim0,mac=02:11:22:33:44:55",
	"net_aqc_sim1,wire=none",
	NULL,
};

/* docs/ref/aqc.md §3.4 / §6.5 addresses and values */
#define IN(off)        (0x12000u + (off))
#define OUT(off)       (0x13000u + (off))
#define ART_TAG(i)     (0x14000u + 0x10u * (i))
#define ART_MASK(i)    (0x14004u + 0x10u * (i))
#define ART_ACT(i)     (0x14008u + 0x10u * (i))
#define ACT_DROP       0x001u
#define ACT_DISABLE    0x000u
#define ACT_TC0        0x181u                  /* host | index-is-TC | valid */
/* the model's filter_caps: ART base byte 2 -> records from 16 */
#define ART_BASE       16u

static int
setup(void **state)
{
	(void)state;
	if (!aqc_test_a2()) {
		fprintf(stderr, "test_aqc_a2 runs on model aqc113 only\n");
		return -1;
	}
	return aqc_test_eal_init(vdevs);
}

static uint64_t
xstat(uint16_t port, const char *name)
{
	struct rte_eth_xstat_name names[64];
	struct rte_eth_xstat xs[64];
	int n = rte_eth_xstats_get_names(port, names, 64);

	assert_true(n > 0 && n <= 64);
	assert_int_equal(rte_eth_xstats_get(port, xs, 64), n);
	for (int i = 0; i < n; i++)
		if (strcmp(names[i].name, name) == 0)
			return xs[i].value;
	fail_msg("no xstat %s", name);
	return 0;
}

/* docs/ref/aqc.md §2.4 boot, §3.4 init and §6.5 records as the driver left them. */
static void
test_boot_and_init_registers(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("a2_regs", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 128, mp, 0, 0, false, NULL);
	/* §2.4: REBOOT done, status BOOT_STARTED | FW_INIT_COMP_SUCCESS */
	assert_int_equal(aqc_test_reg(&p, 0x3040), (1u << 24) | (1u << 31));
	/* §3.4 init: mtu 16352, link_control.mode ACTIVE, request policy
	 * bcast accept+q_or_tc, mcast accept+q_or_tc, promisc q_or_tc */
	assert_int_equal(aqc_test_reg(&p, IN(0x000)), 16352);
	assert_int_equal(BITS(aqc_test_reg(&p, IN(0x010)), 3, 0), 1);
	assert_int_equal(aqc_test_reg(&p, IN(0xa58)),
			 0x100u | 0x8000u | 0x10000u | 0x800000u | 0x80u);
	/* §3.4 request link: link_up + every rate bit (10M..10G, N2.5G, N5G) */
	assert_int_equal(aqc_test_reg(&p, IN(0x018)), 1u | (0xffu << 8));
	/* the handshake is over: 0x0E00 taken, 0x0E04 bit 0 clear */
	assert_int_equal(aqc_test_reg(&p, 0x0e00), 0);
	assert_int_equal(aqc_test_reg(&p, 0x0e04) & 1, 0);
	/* OUT link status: 10G (6) full duplex */
	assert_int_equal(aqc_test_reg(&p, OUT(0x014)), (6u << 4) | (1u << 11));
	/* §6.5: all sections on; records at the FW-given base. Promiscuous (the
	 * helper turns it on): "L2 promisc off" disabled */
	assert_int_equal(aqc_test_reg(&p, 0x6ff0), 0xffff);
	assert_int_equal(aqc_test_reg(&p, ART_TAG(ART_BASE)), 0);
	assert_int_equal(aqc_test_reg(&p, ART_MASK(ART_BASE)), 0x3fu | (1u << 6));
	assert_int_equal(aqc_test_reg(&p, ART_ACT(ART_BASE)), ACT_DISABLE);
	/* "VLAN promisc off": mask VLAN tag 13:10 | untagged bit 14, disabled */
	assert_int_equal(aqc_test_reg(&p, ART_MASK(ART_BASE + 1)), (0xfu << 10) | (1u << 14));
	assert_int_equal(aqc_test_reg(&p, ART_ACT(ART_BASE + 1)), ACT_DISABLE);
	/* every PCP value to TC 0 (LNX index PCP_TO_TC = 56) */
	for (unsigned int pcp = 0; pcp < 8; pcp++) {
		assert_int_equal(aqc_test_reg(&p, ART_TAG(ART_BASE + 56 + pcp)), pcp << 29);
		assert_int_equal(aqc_test_reg(&p, ART_MASK(ART_BASE + 56 + pcp)), 7u << 29);
		assert_int_equal(aqc_test_reg(&p, ART_ACT(ART_BASE + 56 + pcp)), ACT_TC0);
	}
	/* the firmware's own records (below the base) untouched */
	for (unsigned int i = 0; i < ART_BASE; i++)
		assert_int_equal(aqc_test_reg(&p, ART_ACT(i)), 0);
	/* §10.2: broadcast tag 1 (0x50F0), new filter engine (0x5104 bit 11),
	 * queue->TC maps for 4 TCs x 8 queues */
	assert_int_equal(aqc_test_reg(&p, 0x50f0) & 0x3f, 1);
	assert_true(aqc_test_reg(&p, 0x5104) & (1u << 11));
	assert_int_equal(aqc_test_reg(&p, 0x5904), 0x11111111u);
	assert_int_equal(aqc_test_reg(&p, 0x79a8), 0x01010101u);
	/* promiscuous off: the record drops untagged-by-filter traffic again */
	assert_int_equal(rte_eth_promiscuous_disable(p.id), 0);
	assert_int_equal(aqc_test_reg(&p, ART_ACT(ART_BASE)), ACT_DROP);
	assert_false(aqc_test_reg(&p, 0x5100) & (1u << 3));
	assert_int_equal(rte_eth_promiscuous_enable(p.id), 0);
	assert_int_equal(aqc_test_reg(&p, ART_ACT(ART_BASE)), ACT_DISABLE);
	aqc_test_stop(&p);
	/* §3.4 DEINIT: link_up and the rates cleared */
	assert_int_equal(aqc_test_reg(&p, IN(0x018)), 0);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

static void
send_one(const struct aqc_test_port *p, struct rte_mempool *mp, const uint8_t *f,
	 uint32_t len)
{
	struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, f, len);

	assert_int_equal(rte_eth_tx_burst(p->id, 0, &m, 1), 1);
}

/* §6.5: the resolver, not the A1 filters, decides: with promiscuous off a
 * frame for another MAC is dropped by record base+0; the same frame passes
 * once that record is disabled in the chip (written here, in the model). */
static void
test_art_decides(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("a2_art", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_model_counters c0, c1;
	struct rte_mbuf *pkts[4];
	struct aqc_test_port p;
	uint8_t f[128];
	uint32_t len = aqc_test_udp4(f, 30, 1, 2, 7);
	uint32_t *act;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 128, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_promiscuous_disable(p.id), 0);
	aqc_model_get_counters(p.model, &c0);
	send_one(&p, mp, f, len);                 /* dst 02:00:00:00:00:0b */
	rte_delay_us_sleep(20000);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, pkts, 4), 0);
	aqc_model_get_counters(p.model, &c1);
	assert_int_equal(c1.rx_filtered - c0.rx_filtered, 1);
	/* the 0x5100 promiscuous bit stays clear; only the record changes */
	act = (uint32_t *)(void *)(aqc_model_bar(p.model) + ART_ACT(ART_BASE));
	__atomic_store_n(act, ACT_DISABLE, __ATOMIC_RELEASE);
	send_one(&p, mp, f, len);
	aqc_test_rx_all(p.id, 0, pkts, 1);
	tp_test_assert_mbuf_bytes(pkts[0], f, len);
	rte_pktmbuf_free(pkts[0]);
	assert_false(aqc_test_reg(&p, 0x5100) & (1u << 3));
	/* a record "assign queue 0 ... drop" for PCP-less traffic: drop all by
	 * pointing the first PCP record at DROP -- it is after base+0/1, and
	 * untagged frames have PCP 0 */
	act = (uint32_t *)(void *)(aqc_model_bar(p.model) + ART_ACT(ART_BASE + 56));
	__atomic_store_n(act, ACT_DROP, __ATOMIC_RELEASE);
	memcpy(f, "\x02\x11\x22\x33\x44\x55", 6);  /* our own MAC now */
	send_one(&p, mp, f, len);
	rte_delay_us_sleep(20000);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, pkts, 4), 0);
	/* restarting reprograms every record */
	aqc_test_stop(&p);
	assert_int_equal(rte_eth_dev_start(p.id), 0);
	assert_int_equal(aqc_test_reg(&p, ART_ACT(ART_BASE)), ACT_DROP);
	assert_int_equal(aqc_test_reg(&p, ART_ACT(ART_BASE + 56)), ACT_TC0);
	assert_int_equal(rte_eth_promiscuous_enable(p.id), 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* §6.1 A2: hash types one bit each in 0x54C8, RETA entry e at 0x6200 + 4e
 * (TC 0 in bits 4:0), RSS control 0x54C0. */
static void
test_rss_layout(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("a2_rss", 2048, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_eth_rss_reta_entry64 reta = { .mask = ~0ull };
	struct aqc_test_port p;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 4, 128, mp, RTE_ETH_RX_OFFLOAD_RSS_HASH, 0, true, NULL);
	/* IPv4, IPv4/TCP, IPv4/UDP, IPv6, IPv6/TCP, IPv6/UDP */
	assert_int_equal(aqc_test_reg(&p, 0x54c8), 0x3f);
	assert_int_equal(aqc_test_reg(&p, 0x54c0), 0x80003333u);
	for (unsigned int e = 0; e < 64; e++)
		assert_int_equal(aqc_test_reg(&p, 0x6200 + 4 * e) & 0x1f, e % 4);
	for (unsigned int e = 0; e < 64; e++)
		reta.reta[e] = 3 - e % 4;
	assert_int_equal(rte_eth_dev_rss_reta_update(p.id, &reta, 64), 0);
	for (unsigned int e = 0; e < 64; e++)
		assert_int_equal(aqc_test_reg(&p, 0x6200 + 4 * e) & 0x1f, 3 - e % 4);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* §3.4: the statistics are 64-bit: a step of 2^32 + 5 shows in full, and
 * frames count exactly. */
static void
test_counters_64bit(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("a2_cnt", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *pkts[4];
	struct aqc_test_port p;
	uint64_t oct0, fr0, tx0, oct1;
	uint8_t f[256];
	uint32_t len = aqc_test_udp4(f, 100, 5, 6, 9);

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 128, mp, 0, 0, false, NULL);
	oct0 = xstat(p.id, "mac_rx_good_octets");
	fr0 = xstat(p.id, "mac_rx_good_frames");
	tx0 = xstat(p.id, "mac_tx_unicast_frames");
	/* index 0 of the B0 layout is rx_good_octets (docs/ref/aqc.md §3.4) */
	assert_int_equal(aqc_model_a2_add_stat(p.model, 0, (1ull << 32) + 5), 0);
	for (int i = 0; i < 100; i++) {
		oct1 = xstat(p.id, "mac_rx_good_octets");
		if (oct1 != oct0)
			break;
		rte_delay_us_sleep(1000);
	}
	assert_int_equal(oct1 - oct0, (1ull << 32) + 5);
	/* the OUT words the driver combined: LSW at 0x13700, MSW at 0x13704 */
	assert_int_equal(aqc_test_reg(&p, OUT(0x704)), 1);
	for (int k = 0; k < 3; k++)
		send_one(&p, mp, f, len);
	aqc_test_rx_all(p.id, 0, pkts, 3);
	for (int k = 0; k < 3; k++)
		rte_pktmbuf_free(pkts[k]);
	for (int i = 0; i < 100 && xstat(p.id, "mac_rx_good_frames") != fr0 + 3; i++)
		rte_delay_us_sleep(1000);
	assert_int_equal(xstat(p.id, "mac_rx_good_frames") - fr0, 3);
	assert_int_equal(xstat(p.id, "mac_rx_good_octets") - oct0, (1ull << 32) + 5 + 3ull * len);
	assert_int_equal(xstat(p.id, "mac_tx_unicast_frames") - tx0, 3);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

struct clear_later {
	struct aqc_model *m;
	unsigned int ms;
};

static void *
clear_fault_later(void *arg)
{
	struct clear_later *c = arg;

	usleep(c->ms * 1000u);
	aqc_model_set_fw_fault(c->m, AQC_FW_OK);
	return NULL;
}

/* §3.4: a firmware that never takes a request: start fails with a named
 * timeout after the documented 5 s (first request after boot) -- not
 * sooner, and without hanging; one that takes it late (0.5 s) is waited
 * for; a request at run time times out after 100 ms. */
static void
test_fw_no_and_late_ack(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("a2_ack", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	struct clear_later cl;
	pthread_t th;
	double t0, dt;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim1");
	aqc_test_start(&p, 1, 128, mp, 0, 0, false, NULL);
	aqc_test_stop(&p);
	assert_int_equal(aqc_model_set_fw_fault(p.model, AQC_FW_NO_ACK), 0);
	aqc_test_log_capture();
	t0 = aqc_test_now_s();
	assert_int_not_equal(rte_eth_dev_start(p.id), 0);
	dt = aqc_test_now_s() - t0;
	aqc_test_log_expect("did not acknowledge the interface init within 5000 ms");
	assert_true(dt >= 5.0);
	/* late: the firmware takes the request after 0.5 s */
	cl.m = p.model;
	cl.ms = 500;
	assert_int_equal(pthread_create(&th, NULL, clear_fault_later, &cl), 0);
	t0 = aqc_test_now_s();
	assert_int_equal(rte_eth_dev_start(p.id), 0);
	dt = aqc_test_now_s() - t0;
	pthread_join(th, NULL);
	assert_true(dt >= 0.5);
	/* at run time: the link-down request of stop, 100 ms */
	assert_int_equal(aqc_model_set_fw_fault(p.model, AQC_FW_NO_ACK), 0);
	aqc_test_log_capture();
	t0 = aqc_test_now_s();
	assert_int_not_equal(rte_eth_dev_stop(p.id), 0);
	dt = aqc_test_now_s() - t0;
	aqc_test_log_expect("did not acknowledge the link-down request within 100 ms");
	assert_true(dt >= 0.1);
	assert_int_equal(aqc_model_set_fw_fault(p.model, AQC_FW_OK), 0);
	/* and the port recovers */
	assert_int_equal(rte_eth_dev_start(p.id), 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* §3.4: OUT never consistent (counters A != B): the statistics read gives
 * up after its 1000 tries with a named error; answered late it succeeds. */
static void
test_fw_torn_out(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("a2_torn", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_eth_xstat xs[64];
	struct aqc_test_port p;
	struct clear_later cl;
	pthread_t th;
	double t0, dt;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim1");
	aqc_test_start(&p, 1, 128, mp, 0, 0, false, NULL);
	assert_int_equal(aqc_model_set_fw_fault(p.model, AQC_FW_TORN), 0);
	aqc_test_log_capture();
	t0 = aqc_test_now_s();
	assert_true(rte_eth_xstats_get(p.id, xs, 64) > 14);
	dt = aqc_test_now_s() - t0;
	aqc_test_log_expect("OUT buffer never consistent");
	assert_true(dt >= 0.9);   /* ~1000 waits of 1 ms */
	cl.m = p.model;
	cl.ms = 100;
	assert_int_equal(pthread_create(&th, NULL, clear_fault_later, &cl), 0);
	aqc_test_log_capture();
	assert_true(rte_eth_xstats_get(p.id, xs, 64) > 14);
	pthread_join(th, NULL);
	if (aqc_test_log_end("never consistent"))
		fail_msg("late answer was not waited for");
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* §6.5: the resolver is written only under semaphore 3; not granted, the
 * filter change fails with a named error and leaves the record alone. */
static void
test_art_semaphore(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("a2_sem", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim1");
	aqc_test_start(&p, 1, 128, mp, 0, 0, false, NULL);
	assert_int_equal(aqc_test_reg(&p, 0x03ac), 1);
	assert_int_equal(aqc_model_set_fw_fault(p.model, AQC_FW_ART_SEM_BUSY), 0);
	aqc_test_log_capture();
	assert_int_not_equal(rte_eth_promiscuous_disable(p.id), 0);
	aqc_test_log_expect("semaphore (0x03AC) not granted");
	assert_int_equal(aqc_test_reg(&p, ART_ACT(ART_BASE)), ACT_DISABLE);
	assert_int_equal(aqc_model_set_fw_fault(p.model, AQC_FW_OK), 0);
	assert_int_equal(rte_eth_promiscuous_disable(p.id), 0);
	assert_int_equal(aqc_test_reg(&p, ART_ACT(ART_BASE)), ACT_DROP);
	assert_int_equal(rte_eth_promiscuous_enable(p.id), 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot_and_init_registers),
		cmocka_unit_test(test_art_decides),
		cmocka_unit_test(test_rss_layout),
		cmocka_unit_test(test_counters_64bit),
		cmocka_unit_test(test_fw_no_and_late_ack),
		cmocka_unit_test(test_fw_torn_out),
		cmocka_unit_test(test_art_semaphore),
	};

	aqc_test_model_from_args(argc, argv);
	return cmocka_run_group_tests(tests, setup, NULL);
}
