/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc on the chip model: probe, reset, firmware, link, MAC and filters,
 * statistics, register dump, devargs (docs/ref/aqc.md §2, §3, §6.4, §7, §8,
 * §10). Runs on either generation (argv[1]); where A1 and A2 differ
 * (firmware interface, identification, counters) each is checked against
 * its own section of the document.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_ethdev.h>

#include "aqc_test.h"
#include "aqc_regs.h"
#include "aqc2_regs.h"

static const char *const vdevs[] = {
	"net_aqc_sim0,mac=02:11:22:33:44:55",
	"net_aqc_sim1,link_speed=1G,fw=2.x,wire=none",
	NULL,
};

static int
setup(void **state)
{
	(void)state;
	return aqc_test_eal_init(vdevs);
}

static void
test_probe_info(void **state)
{
	struct aqc_test_port p;
	struct rte_eth_dev_info di;
	struct rte_ether_addr mac;
	char fw[32];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	assert_int_equal(rte_eth_dev_info_get(p.id, &di), 0);
	assert_string_equal(di.driver_name, "net_aqc_sim");
	/* docs/ref/aqc.md §7 limits */
	assert_int_equal(di.max_rx_queues, 8);
	assert_int_equal(di.max_tx_queues, 8);
	assert_int_equal(di.rx_desc_lim.nb_max, 8184);
	assert_int_equal(di.rx_desc_lim.nb_align, 8);
	assert_int_equal(di.tx_desc_lim.nb_max, 8184);
	assert_int_equal(di.tx_desc_lim.nb_align, 8);
	assert_int_equal(di.min_rx_bufsize, 1024);
	assert_int_equal(di.max_rx_pktlen, 16352);
	assert_int_equal(di.hash_key_size, 40);
	assert_int_equal(di.reta_size, 64);
	/* docs/ref/aqc.md §1: A2 links down to 10M */
	assert_int_equal(di.speed_capa, RTE_ETH_LINK_SPEED_100M | RTE_ETH_LINK_SPEED_1G |
			 RTE_ETH_LINK_SPEED_2_5G | RTE_ETH_LINK_SPEED_5G |
			 RTE_ETH_LINK_SPEED_10G | (aqc_test_a2() ? RTE_ETH_LINK_SPEED_10M : 0));
	assert_int_equal(rte_eth_dev_fw_version_get(p.id, fw, sizeof(fw)), 0);
	assert_string_equal(fw, aqc_test_a2() ? "1.3.34" : "3.1.58");
	/* too small a buffer: the size needed, NUL included */
	assert_int_equal(rte_eth_dev_fw_version_get(p.id, fw, 3), 7);
	/* §3.1: the permanent MAC comes from the eFuse block via the MIF;
	 * §3.4: on A2 from IN.mac_address */
	assert_int_equal(rte_eth_macaddr_get(p.id, &mac), 0);
	assert_memory_equal(mac.addr_bytes, "\x02\x11\x22\x33\x44\x55", 6);
	if (aqc_test_a2()) {
		/* AQtion aq_common.h: Antigua B0 MIF ID; §3.4: OUT bundle version
		 * byte 0 major, byte 1 minor, bits 31:16 build */
		assert_int_equal(aqc_test_reg(&p, 0x001c), 0x203);
		assert_int_equal(aqc_test_reg(&p, 0x13004), 0x01u | 0x03u << 8 | 34u << 16);
		assert_int_equal(aqc_test_reg(&p, 0x0018), 0);
	} else {
		/* docs/ref/aqc.md §2.1: B1 silicon, firmware version register */
		assert_int_equal(aqc_test_reg(&p, 0x001c) & 0xf, 0xa);
		assert_int_equal(aqc_test_reg(&p, 0x0018), 0x0301003a);
	}
}

static void
test_fw2x_and_speed(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("bring_fw2", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	struct rte_eth_link link;
	char fw[32];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim1");
	assert_int_equal(rte_eth_dev_fw_version_get(p.id, fw, sizeof(fw)), 0);
	assert_string_equal(fw, "2.15.23");
	aqc_test_start(&p, 1, 128, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_link_get(p.id, &link), 0);
	assert_int_equal(link.link_status, RTE_ETH_LINK_UP);
	assert_int_equal(link.link_speed, 1000);
	assert_int_equal(link.link_duplex, RTE_ETH_LINK_FULL_DUPLEX);
	if (aqc_test_a2()) {
		/* §3.4: IN.link_options = link_up | 10M | 100M | 1G; OUT
		 * link_status rate 3 (1G) in bits 7:4, full duplex bit 11 */
		assert_int_equal(aqc_test_reg(&p, 0x12018),
				 1u | (1u << 8) | (1u << 9) | (1u << 10));
		assert_int_equal(aqc_test_reg(&p, 0x13014), (3u << 4) | (1u << 11));
	} else {
		/* §3.3: requested rates in 0x0368, current rate in 0x0370 */
		assert_int_equal(aqc_test_reg(&p, 0x0368) & 0xfff, (1u << 5) | (1u << 8));
		assert_int_equal(aqc_test_reg(&p, 0x0370), 1u << 8);
	}
	aqc_test_stop(&p);
	if (aqc_test_a2()) {
		/* §3.4 set state DEINIT: link_up 0, no rates */
		assert_int_equal(aqc_test_reg(&p, 0x12018), 0);
	} else {
		/* §10.1 stop: no rates, LINK_DROP (0x036C bit 22) set */
		assert_int_equal(aqc_test_reg(&p, 0x0368) & 0xfff, 0);
		assert_true(aqc_test_reg(&p, 0x036c) & (1u << 22));
	}
	assert_int_equal(rte_eth_link_get_nowait(p.id, &link), 0);
	assert_int_equal(link.link_status, RTE_ETH_LINK_DOWN);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

static void
test_link_cable_and_reset(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("bring_link", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	struct rte_eth_link link;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 128, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_link_get(p.id, &link), 0);
	assert_int_equal(link.link_speed, 10000);
	if (aqc_test_a2()) {
		/* §2.4: after the driver's REBOOT request the boot register
		 * reads BOOT_STARTED | FW_INIT_COMP_SUCCESS, no request bit */
		assert_int_equal(aqc_test_reg(&p, 0x3040), (1u << 24) | (1u << 31));
		assert_int_equal(aqc_test_reg(&p, 0x0f00) & 1, 0);
	} else {
		/* §2.3: the driver's RBL restart wrote 0xDEAD to 0x0388; the
		 * rebooted firmware replaced it; the soft-reset bit self-cleared */
		assert_int_not_equal(aqc_test_reg(&p, 0x0388) & 0xffff, 0xdead);
		assert_int_not_equal(aqc_test_reg(&p, 0x0388), 0);
		assert_int_equal(aqc_test_reg(&p, 0x0000) & (1u << 15), 0);
	}
	/* §10.1 step 19: packet buffers on; §4.1/§4.2: ring 0 enabled */
	assert_true(aqc_test_reg(&p, 0x5700) & 1);
	assert_true(aqc_test_reg(&p, 0x7900) & 1);
	assert_true(aqc_test_reg(&p, DOC_RXD_CTL(0)) & (1u << 31));
	assert_true(aqc_test_reg(&p, DOC_TXD_CTL(0)) & (1u << 31));
	assert_int_equal(BITS(aqc_test_reg(&p, DOC_RXD_CTL(0)), 12, 3), 128 / 8);
	assert_int_equal(aqc_test_reg(&p, DOC_RXD_TAIL(0)), 127);
	aqc_model_set_cable(p.model, false);
	aqc_test_wait_link(p.id, RTE_ETH_LINK_DOWN);
	aqc_model_set_cable(p.model, true);
	aqc_test_wait_link(p.id, RTE_ETH_LINK_UP);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	/* dev_reset: soft reset and firmware re-init; the port restarts */
	assert_int_equal(rte_eth_dev_reset(p.id), 0);
	if (aqc_test_a2())
		assert_int_equal(aqc_test_reg(&p, 0x3040), (1u << 24) | (1u << 31));
	else
		assert_int_equal(aqc_test_reg(&p, 0x0018), 0x0301003a);
	assert_int_equal(rte_eth_dev_start(p.id), 0);
	aqc_test_wait_link(p.id, RTE_ETH_LINK_UP);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* §6.4: station MAC in unicast filter 0, promiscuous and all-multicast. */
static void
test_mac_filters(void **state)
{
	static const struct rte_ether_addr mac = {{ 0x02, 0xa1, 0xb2, 0xc3, 0xd4, 0xe5 }};
	static const struct rte_ether_addr orig = {{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 }};
	struct rte_ether_addr bad = {{ 0x01, 0, 0, 0, 0, 1 }};
	struct rte_mempool *mp = tp_test_pool_create("bring_mac", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	uint32_t hi;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 128, mp, 0, 0, false, NULL);
	assert_int_equal(aqc_test_reg(&p, 0x5110), 0x22334455u);
	hi = aqc_test_reg(&p, 0x5114);
	assert_int_equal(BITS(hi, 15, 0), 0x0211);
	assert_int_equal(BITS(hi, 18, 16), 1);
	assert_int_equal(BITS(hi, 31, 31), 1);
	/* §6.4 A2: the station MAC filter carries tag 1 for the resolver */
	if (aqc_test_a2())
		assert_int_equal(BITS(hi, 27, 22), 1);
	assert_int_equal(rte_eth_dev_default_mac_addr_set(p.id, (struct rte_ether_addr *)&mac), 0);
	assert_int_equal(aqc_test_reg(&p, 0x5110), 0xb2c3d4e5u);
	assert_int_equal(BITS(aqc_test_reg(&p, 0x5114), 15, 0), 0x02a1);
	assert_int_equal(BITS(aqc_test_reg(&p, 0x5114), 31, 31), 1);
	assert_int_not_equal(rte_eth_dev_default_mac_addr_set(p.id, &bad), 0);
	assert_true(aqc_test_reg(&p, 0x5100) & (1u << 3));
	assert_int_equal(rte_eth_promiscuous_disable(p.id), 0);
	assert_false(aqc_test_reg(&p, 0x5100) & (1u << 3));
	assert_true(aqc_test_reg(&p, 0x5100) & 1);     /* broadcast accept */
	assert_int_equal(rte_eth_allmulticast_enable(p.id), 0);
	assert_true(aqc_test_reg(&p, 0x5270) & (1u << 14));
	assert_int_equal(rte_eth_allmulticast_disable(p.id), 0);
	assert_false(aqc_test_reg(&p, 0x5270) & (1u << 14));
	assert_int_equal(rte_eth_dev_default_mac_addr_set(p.id, (struct rte_ether_addr *)&orig), 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* Loop wire, model thread: what the L2 filters let through, and the exact
 * hardware and software counters for it (docs/ref/aqc.md §6.4, §8). */
static void
test_filters_and_stats(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("bring_stats", 1024, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_model_counters c0, c1;
	struct rte_mbuf *pkts[64];
	struct rte_eth_stats st;
	struct aqc_test_port p;
	uint8_t f[256];
	uint32_t len, bytes = 0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 256, mp, 0, 0, false, NULL);
	assert_int_equal(rte_eth_promiscuous_disable(p.id), 0);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	aqc_model_get_counters(p.model, &c0);
	/* 1: to another MAC (filtered), 2: to our MAC, 3: broadcast,
	 * 4: multicast (filtered), 5: multicast with allmulti */
	for (int k = 1; k <= 5; k++) {
		struct rte_mbuf *m;

		len = aqc_test_udp4(f, 20 + k, 1000, 2000, k);
		if (k == 2)
			memcpy(f, "\x02\x11\x22\x33\x44\x55", 6);
		if (k == 3)
			memset(f, 0xff, 6);
		if (k >= 4)
			memcpy(f, "\x01\x00\x5e\x00\x00\x01", 6);
		if (k == 5)
			assert_int_equal(rte_eth_allmulticast_enable(p.id), 0);
		m = tp_test_mbuf_from_bytes(mp, f, len);
		assert_int_equal(rte_eth_tx_burst(p.id, 0, &m, 1), 1);
		if (k == 2 || k == 3 || k == 5) {
			aqc_test_rx_all(p.id, 0, pkts, 1);
			tp_test_assert_mbuf_bytes(pkts[0], f, len);
			rte_pktmbuf_free(pkts[0]);
			bytes += len;
		} else {
			rte_delay_us_sleep(20000);
			assert_int_equal(rte_eth_rx_burst(p.id, 0, pkts, 64), 0);
		}
	}
	assert_int_equal(rte_eth_allmulticast_disable(p.id), 0);
	aqc_model_get_counters(p.model, &c1);
	assert_int_equal(c1.rx_filtered - c0.rx_filtered, 2);
	assert_int_equal(c1.tx_frames - c0.tx_frames, 5);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets, 3);
	assert_int_equal(st.ibytes, bytes);
	assert_int_equal(st.opackets, 5);
	assert_int_equal(st.q_ipackets[0], 3);
	assert_int_equal(st.q_ibytes[0], bytes);
	assert_int_equal(st.q_opackets[0], 5);
	assert_int_equal(st.imissed, 0);
	assert_int_equal(st.ierrors, 0);
	{
		/* §3.1/§3.3: firmware MAC counters through the mailbox */
		struct rte_eth_xstat_name names[64];
		struct rte_eth_xstat xs[64];
		int nx = rte_eth_xstats_get_names(p.id, names, 64);
		uint64_t uprc = ~0ull, bprc = ~0ull, mprc = ~0ull, uptc = ~0ull, mptc = ~0ull;
		/* §3.1 A1 mailbox names; §3.4 A2 "B0" statistics names */
		const char *const *want = aqc_test_a2() ?
			(const char *const[]){ "mac_rx_unicast_frames", "mac_rx_broadcast_frames",
					       "mac_rx_multicast_frames", "mac_tx_unicast_frames",
					       "mac_tx_multicast_frames" } :
			(const char *const[]){ "mac_uprc", "mac_bprc", "mac_mprc", "mac_uptc",
					       "mac_mptc" };
		uint64_t filtered = ~0ull, disabled = ~0ull, full = ~0ull;

		assert_true(nx > 0 && nx <= 64);
		assert_int_equal(rte_eth_xstats_get(p.id, xs, 64), nx);
		for (int i = 0; i < nx; i++) {
			if (strcmp(names[i].name, want[0]) == 0)
				uprc = xs[i].value;
			if (strcmp(names[i].name, want[1]) == 0)
				bprc = xs[i].value;
			if (strcmp(names[i].name, want[2]) == 0)
				mprc = xs[i].value;
			if (strcmp(names[i].name, want[3]) == 0)
				uptc = xs[i].value;
			if (strcmp(names[i].name, want[4]) == 0)
				mptc = xs[i].value;
			if (strcmp(names[i].name, "model_rx_l2_filtered") == 0)
				filtered = xs[i].value;
			if (strcmp(names[i].name, "model_rx_ring_disabled") == 0)
				disabled = xs[i].value;
			if (strcmp(names[i].name, "model_rx_ring_full") == 0)
				full = xs[i].value;
		}
		/* the MAC counts what the cable brought, before the L2 filters:
		 * unicast 1 (filtered) + 2, multicast 4 (filtered) + 5 */
		assert_int_equal(uprc, 2);
		assert_int_equal(bprc, 1);
		assert_int_equal(mprc, 2);
		/* the model names the two frames the filters dropped */
		assert_int_equal(filtered, 2);
		assert_int_equal(disabled, 0);
		assert_int_equal(full, 0);
		assert_int_equal(uptc, 2);
		assert_int_equal(mptc, 2);
	}
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ipackets + st.opackets + st.ibytes + st.q_ipackets[0], 0);
	assert_int_equal(rte_eth_promiscuous_enable(p.id), 0);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* get_reg: the dump follows the AQC_REGS list and matches BAR0. */
static void
test_register_dump(void **state)
{
	struct rte_dev_reg_info info = { 0 };
	struct aqc_test_port p;
	uint32_t *data;
	unsigned int k = 0, checked = 0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	assert_int_equal(rte_eth_dev_get_reg_info(p.id, &info), 0);
	assert_int_equal(info.width, 4);
	/* A2 dumps its own registers after the shared list */
	assert_int_equal(info.length, AQC_REG_DUMP_COUNT +
			 (aqc_test_a2() ? AQC2_REG_DUMP_COUNT : 0));
	data = calloc(info.length, 4);
	info.data = data;
	assert_int_equal(rte_eth_dev_get_reg_info(p.id, &info), 0);
#define CHECK_ONE(name, off, stride, n, rst) \
	for (unsigned int i = 0; i < (n); i++, k++) { \
		uint32_t o = (off) + (stride) * i; \
		if (o == 0x0018 || o == 0x5110 || o == 0x5114 || o == 0x5284) { \
			assert_int_equal(data[k], aqc_test_reg(&p, o)); \
			checked++; \
		} \
	}
	AQC_REGS(CHECK_ONE)
#undef CHECK_ONE
	assert_int_equal(checked, 4);
	assert_int_equal(k, AQC_REG_DUMP_COUNT);
	if (aqc_test_a2()) {
		/* 0x3040 and the first ART record follow the shared list */
		unsigned int k2 = k;

#define CHECK_A2(name, off, stride, n, rst) \
		for (unsigned int i = 0; i < (n); i++, k2++) { \
			uint32_t o = (off) + (stride) * i; \
			if (o == 0x3040 || o == 0x14008) { \
				assert_int_equal(data[k2], aqc_test_reg(&p, o)); \
				checked++; \
			} \
		}
		AQC2_REGS(CHECK_A2)
#undef CHECK_A2
		assert_int_equal(checked, 6);
		assert_int_equal(k2, info.length);
	}
	free(data);
}

static char *log_buf;
static size_t log_len;

/* Bad devargs: rejected with an error that names the key and value and,
 * where there is a list, the valid values. */
static void
test_bad_devargs(void **state)
{
	static const struct { const char *args, *key; } bad[] = {
		{ "foo=1", "unknown devarg 'foo' (known: model, wire, rx_pcap, tx_pcap, peer, "
		  "mac, link_speed, fw, mode, dma, rx_start, rx_delay_ms, rx_loops, faults, fault_seed, "
		  "fw_fault, sfp)" },
		{ "wire=bogus", "wire=bogus: expected loop, pcap, peer or none" },
		/* a cable with one end: both ends name each other */
		{ "wire=peer", "bad devarg wire=peer: needs peer=NAME, the other net_aqc_sim "
		  "port (wire is one of loop, pcap, peer, none)" },
		{ "wire=peer,peer=", "peer=: expected the name of another net_aqc_sim port" },
		{ "wire=peer,peer=net_aqc_sim7", "peer=net_aqc_sim7: expected the name of another" },
		{ "wire", "'wire'" },
		{ "mac=01:00:00:00:00:01", "mac=01:00:00:00:00:01: expected a unicast XX:XX:XX:XX:XX:XX" },
		{ "mac=02:00:00:00:00", "mac=02:00:00:00:00" },
		{ "link_speed=3G", "link_speed=3G: expected 10M, 100M, 1G, 2.5G, 5G or 10G" },
		{ "fw=abc", "fw=abc: expected 2.x, 3.x or MAJOR.MINOR.BUILD" },
		{ "mode=fast", "mode=fast: expected thread or step" },
		{ "rx_pcap=/tmp/x.pcap", "rx_pcap=/tmp/x.pcap: needs wire=pcap" },
		{ "wire=loop,peer=net_aqc_sim0", "peer=net_aqc_sim0: needs wire=peer" },
		{ "wire=pcap,rx_pcap=/nonexistent/in.pcap", "/nonexistent/in.pcap" },
		{ "sfp=/nonexistent/sfp.bin", "sfp=/nonexistent/sfp.bin" },
		{ "fw=1.5.6", "firmware 1.x" },       /* §2.1: FW 1.x */
		{ "fw=4.0.0", "bad FW version 4.0.0" },
		{ "dma=iommu", "dma=iommu: expected auto, direct or translate" },
		{ "rx_start=later", "rx_start=later: expected poll, link or now" },
		{ "rx_delay_ms=60001", "rx_delay_ms=60001: expected milliseconds, 0..60000" },
		{ "rx_delay_ms=-1", "rx_delay_ms=-1" },
		{ "rx_delay_ms=5s", "rx_delay_ms=5s" },
		{ "wire=pcap,rx_pcap=/dev/null,rx_loops=x", "rx_loops=x: expected the plays of rx_pcap" },
		{ "wire=pcap,rx_pcap=/dev/null,rx_loops=4294967296", "rx_loops=4294967296" },
		{ "rx_loops=2", "rx_loops=2: needs wire=pcap and rx_pcap=FILE" },
		{ "faults=1000000001", "faults=1000000001: expected the mean frames between" },
		{ "faults=-5", "faults=-5" },
		{ "fault_seed=18446744073709551616", "fault_seed=18446744073709551616: expected an "
		  "unsigned 64-bit seed" },
		{ "model=aqc999", "model=aqc999: expected aqc107 (A1) or aqc113 (A2)" },
		{ "model=aqc107,link_speed=10M", "no 10M" },
		{ "fw_fault=no_ack", "fw_fault=no_ack" },   /* A1 has no such firmware */
		{ "model=aqc113,fw_fault=sometimes", "fw_fault=sometimes: expected none, boot_hang, "
		  "init_fail, hostboot, no_ack, torn, art_sem (aqc113) or mute (aqc107)" },
		{ "model=aqc113,fw_fault=mute", "aqc107 only" },
		/* an A1 firmware that answers nothing: the first MIF read */
		{ "fw_fault=mute", "MIF read at" },
		/* docs/ref/aqc.md §2.4: the A2 boot faults the driver must name */
		{ "model=aqc113,fw_fault=boot_hang", "boot code hanged" },
		{ "model=aqc113,fw_fault=init_fail", "FW_INIT_FAILED" },
		{ "model=aqc113,fw_fault=hostboot", "host boot is not supported" },
		/* docs/ref/aqc.md §3.4: OUT never consistent */
		{ "model=aqc113,fw_fault=torn", "never consistent" },
	};
	FILE *orig = rte_log_get_stream();
	uint16_t port;

	(void)state;
	for (unsigned int i = 0; i < RTE_DIM(bad); i++) {
		FILE *mem = open_memstream(&log_buf, &log_len);

		assert_non_null(mem);
		rte_openlog_stream(mem);
		assert_true(rte_vdev_init("net_aqc_sim7", bad[i].args) < 0);
		rte_openlog_stream(orig);
		fclose(mem);
		if (strstr(log_buf, bad[i].key) == NULL)
			fail_msg("devargs '%s': log does not name '%s':\n%s", bad[i].args,
				 bad[i].key, log_buf);
		free(log_buf);
		log_buf = NULL;
		assert_int_not_equal(rte_eth_dev_get_port_by_name("net_aqc_sim7", &port), 0);
		assert_null(aqc_model_lookup("net_aqc_sim7"));
	}
	/* and a good set creates and removes cleanly */
	assert_int_equal(rte_vdev_init("net_aqc_sim7", "wire=none,fw=3.1.100,mode=step,"
				       "dma=translate,rx_start=link,rx_delay_ms=0,faults=1000,"
				       "fault_seed=18446744073709551615"), 0);
	assert_int_equal(rte_eth_dev_get_port_by_name("net_aqc_sim7", &port), 0);
	assert_int_equal(rte_vdev_uninit("net_aqc_sim7"), 0);
	assert_null(aqc_model_lookup("net_aqc_sim7"));
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_info),
		cmocka_unit_test(test_fw2x_and_speed),
		cmocka_unit_test(test_link_cable_and_reset),
		cmocka_unit_test(test_mac_filters),
		cmocka_unit_test(test_filters_and_stats),
		cmocka_unit_test(test_register_dump),
		cmocka_unit_test(test_bad_devargs),
	};

	aqc_test_model_from_args(argc, argv);

	return cmocka_run_group_tests(tests, setup, NULL);
}
