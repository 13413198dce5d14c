/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cross-check: DPDK's own AQC driver (Debian's unmodified net_atlantic
 * plugin, written against and proven on real silicon) drives our chip model.
 *
 * The model is handed to the driver as a PCI device: a struct
 * rte_pci_device built here whose BAR0 (mem_resource[0]) is the model's
 * register file, passed to the probe of the net_atlantic driver found in the
 * PCI bus's driver list. The driver then runs its own life cycle and every
 * step is checked exactly (frames byte for byte, counters, RSS queue =
 * RETA[hash & 63] with the hash recomputed here). A step upstream gets
 * wrong because of the model is a model bug; a step upstream gets wrong by
 * its own bug is written as such below, asserting what upstream does.
 *
 * Each step is one cmocka test, run in order on the same port. The same
 * life cycle runs on our net_aqc (argument "net_aqc"), which must pass every
 * step with no exception. Exits 77 (skip) when the Debian plugin is not
 * installed.
 *
 * With "fw1x" the model's firmware is 1.5.58 (the FW 1.x interface):
 * net_atlantic runs the life cycle steps that FW 1.x offers (no flow
 * control, RSS and the rest are as with 3.x), net_aqc must refuse it.
 *
 * usage: test_upstream_atlantic net_atlantic|net_aqc [fw1x]
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_devargs.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "aqc_test_pci.h"

#define NB_DESC 1024

static struct aqc_model *model;
static uint8_t sfp_image[512];     /* the plugged module's A0h + A2h pages */
static struct aqc_test_pci pci;
static const char *drv_name;
static bool upstream;      /* net_atlantic: its documented bugs apply */
static bool fw1x;          /* the model's firmware speaks the 1.x interface */
static struct rte_mempool *mp;
static unsigned int pool_start;
static uint16_t port;

static int
probe_setup(void **state)
{
	struct aqc_model_config cfg;
	int err;

	(void)state;
	aqc_model_config_default(&cfg, "upstream_x");
	memcpy(cfg.mac, aqc_test_dst_mac, 6);
	/* SFF-8472 Rev 12.3 table 4-1 / 8-3: identifier 3 (SFP), connector 7
	 * (LC); byte 92 = 0x68 (DDM implemented, internally calibrated,
	 * average power; bit 2 "address change" clear); byte 94 = 8
	 * (compliance Rev 12.3): a module with both pages; the rest patterns */
	for (unsigned int i = 0; i < sizeof(sfp_image); i++)
		sfp_image[i] = (uint8_t)(i < 256 ? i * 7u + 3u : i * 11u + 1u);
	sfp_image[0] = 0x03;
	sfp_image[2] = 0x07;
	sfp_image[92] = 0x68;
	sfp_image[94] = 0x08;
	cfg.sfp_present = true;
	memcpy(cfg.sfp, sfp_image, sizeof(sfp_image));
	if (fw1x)
		/* 1.5.58 (docs/ref/aqc.md §2.1: FW 1.x from 1.5.6) */
		cfg.fw_version = 0x0105003a;
	model = aqc_model_create(&cfg, &err);
	assert_non_null(model);
	assert_true(aqc_test_pci_prepare(&pci, model, drv_name));
	mp = tp_test_pool_create("upstream", 8192, 0);
	pool_start = tp_test_pool_in_use(mp);
	return 0;
}

static uint32_t
reg(uint32_t off)
{
	return __atomic_load_n((uint32_t *)(void *)(aqc_model_bar(model) + off),
			       __ATOMIC_ACQUIRE);
}

/* ---- the steps ---- */

static void
step_probe(void **state)
{
	struct rte_eth_dev_info di;

	(void)state;
	if (!upstream) {
		/* which driver binds: "-a BDF,driver=net_atlantic" makes
		 * net_aqc hand the device on (a positive probe result, the PCI
		 * bus then offers it to the next driver); bad devargs are an
		 * error; "driver=net_aqc" is taken */
		struct rte_devargs da;

		memset(&da, 0, sizeof(da));
		pci.dev.device.devargs = &da;
		da.args = "driver=net_atlantic";
		assert_int_equal(pci.drv->probe(pci.drv, &pci.dev), 1);
		assert_int_not_equal(rte_eth_dev_get_port_by_name(pci.dev.name, &port), 0);
		da.args = "drivr=net_aqc";
		assert_int_equal(pci.drv->probe(pci.drv, &pci.dev), -EINVAL);
		da.args = "driver=net_aqc";
		assert_int_equal(pci.drv->probe(pci.drv, &pci.dev), 0);
		pci.dev.device.devargs = NULL;
		assert_int_equal(rte_eth_dev_get_port_by_name(pci.dev.name, &port), 0);
		assert_int_equal(rte_eth_dev_close(port), 0);
	}
	/* RBL reset, FW 3.x detection, mailbox, MAC: all in the probe */
	assert_int_equal(pci.drv->probe(pci.drv, &pci.dev), 0);
	assert_int_equal(rte_eth_dev_get_port_by_name(pci.dev.name, &port), 0);
	assert_int_equal(rte_eth_dev_info_get(port, &di), 0);
	assert_string_equal(di.driver_name, drv_name);
	assert_int_equal(di.max_rx_queues, 8);
	assert_int_equal(di.max_rx_pktlen, 16352);
}

static void
step_mac_and_fw(void **state)
{
	struct rte_ether_addr mac;
	char fw[32];

	(void)state;
	/* docs/ref/aqc.md §3.1: MAC from eFuse + 160, big-endian dwords */
	assert_int_equal(rte_eth_macaddr_get(port, &mac), 0);
	assert_memory_equal(mac.addr_bytes, aqc_test_dst_mac, 6);
	assert_int_equal(rte_eth_dev_fw_version_get(port, fw, sizeof(fw)), 0);
	assert_non_null(strstr(fw, fw1x ? "1.5.58" : "3.1.58"));
}

static void
configure(uint16_t nq, bool rss)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_CHECKSUM;
	conf.txmode.offloads = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
		RTE_ETH_TX_OFFLOAD_TCP_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_TSO |
		RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	if (rss) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		/* docs/ref/aqc.md §6.1: UDP is hashed with ports under the TCP bit */
		conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IPV4 |
			RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	}
	assert_int_equal(rte_eth_dev_configure(port, nq, nq, &conf), 0);
	for (uint16_t q = 0; q < nq; q++) {
		assert_int_equal(rte_eth_rx_queue_setup(port, q, NB_DESC, 0, NULL, mp), 0);
		assert_int_equal(rte_eth_tx_queue_setup(port, q, NB_DESC, 0, NULL), 0);
	}
}

static void
wait_link(void)
{
	struct rte_eth_link link;

	aqc_test_wait_link(port, RTE_ETH_LINK_UP);
	assert_int_equal(rte_eth_link_get_nowait(port, &link), 0);
	assert_int_equal(link.link_speed, RTE_ETH_SPEED_NUM_10G);
}

static void
step_configure_start_link(void **state)
{
	(void)state;
	configure(1, false);
	assert_int_equal(rte_eth_dev_start(port), 0);
	wait_link();
}

/* Frames out of TX queue 0 come back on the loop wire into RX queue 0. */
static void
loop_frames(unsigned int n, uint64_t *bytes)
{
	uint8_t f[1600];
	struct rte_mbuf *m, *rx[4];

	for (uint32_t i = 0; i < n; i++) {
		uint32_t len = aqc_test_udp4(f, (i * 97u) % 1455u + 18u, (uint16_t)i, 9, i);

		m = tp_test_mbuf_from_bytes(mp, f, len);
		assert_int_equal(rte_eth_tx_burst(port, 0, &m, 1), 1);
		aqc_test_rx_all(port, 0, rx, 1);
		tp_test_assert_mbuf_bytes(rx[0], f, len);
		rte_pktmbuf_free(rx[0]);
		*bytes += len;
	}
}

static void
step_loop_traffic_and_stats(void **state)
{
	struct rte_eth_stats st;
	uint64_t bytes = 0;

	(void)state;
	assert_int_equal(rte_eth_stats_reset(port), 0);
	loop_frames(64, &bytes);
	/* upstream: DMA counters 0x6800/0x8800 (docs/ref/aqc.md §8) */
	assert_int_equal(rte_eth_stats_get(port, &st), 0);
	assert_int_equal(st.ipackets, 64);
	assert_int_equal(st.opackets, 64);
	assert_int_equal(st.ibytes, bytes);
	assert_int_equal(st.obytes, bytes);
	assert_int_equal(st.imissed, 0);
}

/* IPv6/UDP frames looped byte for byte, packet type IPv6 + UDP from the
 * write-back (docs/ref/aqc.md §5.4 packet type bits). */
static void
step_ipv6(void **state)
{
	uint8_t f[1600];
	struct rte_mbuf *m, *rx[4];

	(void)state;
	for (uint32_t i = 0; i < 8; i++) {
		uint32_t len = aqc_test_udp6(f, 10 + i * 150, (uint16_t)(100 + i), 53, i);

		m = tp_test_mbuf_from_bytes(mp, f, len);
		assert_int_equal(rte_eth_tx_burst(port, 0, &m, 1), 1);
		aqc_test_rx_all(port, 0, rx, 1);
		tp_test_assert_mbuf_bytes(rx[0], f, len);
		assert_int_equal(rx[0]->packet_type & RTE_PTYPE_L3_MASK, RTE_PTYPE_L3_IPV6);
		assert_int_equal(rx[0]->packet_type & RTE_PTYPE_L4_MASK, RTE_PTYPE_L4_UDP);
		rte_pktmbuf_free(rx[0]);
	}
}

/* Received but not yet polled: descriptor status and queue count (§5.4
 * DD) with 5 frames waiting on queue 0. */
static void
step_rx_descriptor_status(void **state)
{
	uint8_t f[5][128];
	uint32_t len[5];
	struct rte_mbuf *rx[8];
	int before;

	(void)state;
	before = rte_eth_rx_queue_count(port, 0);
	for (uint32_t i = 0; i < 5; i++) {
		len[i] = aqc_test_udp4(f[i], 20 + i, 1, 2, 40 + i);
		assert_int_equal(aqc_model_inject(model, f[i], len[i]), 0);
	}
	for (uint16_t k = 0; k < 5; k++)
		assert_int_equal(rte_eth_rx_descriptor_status(port, 0, k), RTE_ETH_RX_DESC_DONE);
	assert_int_equal(rte_eth_rx_descriptor_status(port, 0, 5), RTE_ETH_RX_DESC_AVAIL);
	if (upstream) {
		/* UPSTREAM BUG (atl_rxtx.c atl_rx_queue_count): it returns the
		 * descriptors posted to the chip (nb_rx_desc - nb_rx_hold), not
		 * those holding received packets, so 5 waiting frames change
		 * nothing */
		assert_int_equal(rte_eth_rx_queue_count(port, 0), before);
		assert_true(before > 5);
	} else {
		assert_int_equal(before, 0);
		assert_int_equal(rte_eth_rx_queue_count(port, 0), 5);
	}
	aqc_test_rx_all(port, 0, rx, 5);
	for (uint32_t i = 0; i < 5; i++) {
		tp_test_assert_mbuf_bytes(rx[i], f[i], len[i]);
		rte_pktmbuf_free(rx[i]);
	}
	assert_int_equal(rte_eth_rx_descriptor_status(port, 0, 0), RTE_ETH_RX_DESC_AVAIL);
	if (!upstream)
		assert_int_equal(rte_eth_rx_queue_count(port, 0), 0);
}

static void
step_unicast_filter(void **state)
{
	struct aqc_model_counters c0, c1;
	struct rte_mbuf *rx[4];
	uint8_t f[128];
	uint32_t len = aqc_test_udp4(f, 20, 1, 2, 3);

	(void)state;
	assert_int_equal(rte_eth_promiscuous_disable(port), 0);
	aqc_model_get_counters(model, &c0);
	assert_int_equal(aqc_model_inject(model, f, len), 0);   /* station MAC */
	aqc_test_rx_all(port, 0, rx, 1);
	rte_pktmbuf_free(rx[0]);
	f[5] ^= 0x40;                                          /* another MAC */
	assert_int_equal(aqc_model_inject(model, f, len), -EPERM);
	assert_int_equal(rte_eth_promiscuous_enable(port), 0);
	assert_int_equal(aqc_model_inject(model, f, len), 0);
	aqc_test_rx_all(port, 0, rx, 1);
	tp_test_assert_mbuf_bytes(rx[0], f, len);
	rte_pktmbuf_free(rx[0]);
	aqc_model_get_counters(model, &c1);
	assert_int_equal(c1.rx_filtered - c0.rx_filtered, 1);
}

static void
step_allmulticast(void **state)
{
	struct rte_mbuf *rx[4];
	uint8_t f[128];
	uint32_t len = aqc_test_udp4(f, 20, 1, 2, 4);

	(void)state;
	memcpy(f, "\x01\x00\x5e\x00\x00\x07", 6);
	assert_int_equal(rte_eth_promiscuous_disable(port), 0);
	assert_int_equal(rte_eth_allmulticast_disable(port), 0);
	assert_int_equal(aqc_model_inject(model, f, len), -EPERM);
	assert_int_equal(rte_eth_allmulticast_enable(port), 0);
	assert_int_equal(aqc_model_inject(model, f, len), 0);
	aqc_test_rx_all(port, 0, rx, 1);
	tp_test_assert_mbuf_bytes(rx[0], f, len);
	rte_pktmbuf_free(rx[0]);
	assert_int_equal(rte_eth_promiscuous_enable(port), 0);
}

static void
step_rx_checksum(void **state)
{
	struct rte_mbuf *rx[4];
	uint8_t f[128];
	uint32_t len = aqc_test_udp4(f, 20, 1, 2, 5);

	(void)state;
	assert_int_equal(aqc_model_inject(model, f, len), 0);
	aqc_test_rx_all(port, 0, rx, 1);
	assert_int_equal(rx[0]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK,
			 RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	assert_int_equal(rx[0]->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK,
			 RTE_MBUF_F_RX_L4_CKSUM_GOOD);
	rte_pktmbuf_free(rx[0]);
	f[41] ^= 0x01;                       /* UDP checksum broken */
	assert_int_equal(aqc_model_inject(model, f, len), 0);
	aqc_test_rx_all(port, 0, rx, 1);
	assert_int_equal(rx[0]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK,
			 RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	assert_int_equal(rx[0]->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK,
			 RTE_MBUF_F_RX_L4_CKSUM_BAD);
	rte_pktmbuf_free(rx[0]);
	f[41] ^= 0x01;
	f[24] ^= 0x01;                       /* IPv4 header checksum broken */
	assert_int_equal(aqc_model_inject(model, f, len), 0);
	aqc_test_rx_all(port, 0, rx, 1);
	assert_int_equal(rx[0]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK,
			 RTE_MBUF_F_RX_IP_CKSUM_BAD);
	rte_pktmbuf_free(rx[0]);
}

static void
step_tx_checksum(void **state)
{
	struct rte_mbuf *m, *rx[4];
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *u;
	uint8_t f[128];
	uint32_t len = aqc_test_udp4(f, 40, 7, 8, 6);   /* reference checksums */

	(void)state;
	m = tp_test_mbuf_from_bytes(mp, f, len);
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, 14);
	u = rte_pktmbuf_mtod_offset(m, struct rte_udp_hdr *, 34);
	ip->hdr_checksum = 0;
	u->dgram_cksum = rte_ipv4_phdr_cksum(ip, 0);     /* what tx_prepare expects */
	m->l2_len = 14;
	m->l3_len = 20;
	m->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM;
	assert_int_equal(rte_eth_tx_burst(port, 0, &m, 1), 1);
	aqc_test_rx_all(port, 0, rx, 1);
	tp_test_assert_mbuf_bytes(rx[0], f, len);
	rte_pktmbuf_free(rx[0]);
}

static void
step_stop_start(void **state)
{
	uint64_t bytes = 0;

	(void)state;
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_start(port), 0);
	wait_link();
	loop_frames(16, &bytes);
}

/* A new station MAC: §6.4 filter 0 rewritten; the old one filtered. */
static void
step_mac_change(void **state)
{
	static const uint8_t new_mac[6] = { 0x02, 0x12, 0x34, 0x56, 0x78, 0x9a };
	struct rte_ether_addr a;
	struct rte_mbuf *rx[4];
	uint8_t f[128];
	uint32_t len = aqc_test_udp4(f, 20, 1, 2, 8);

	(void)state;
	memcpy(a.addr_bytes, new_mac, 6);
	assert_int_equal(rte_eth_promiscuous_disable(port), 0);
	assert_int_equal(rte_eth_dev_default_mac_addr_set(port, &a), 0);
	assert_int_equal(reg(0x5110), 0x3456789a);
	assert_int_equal(reg(0x5114) & 0x8000ffff, 0x80000212);
	assert_int_equal(aqc_model_inject(model, f, len), -EPERM);   /* old MAC */
	memcpy(f, new_mac, 6);
	assert_int_equal(aqc_model_inject(model, f, len), 0);
	aqc_test_rx_all(port, 0, rx, 1);
	tp_test_assert_mbuf_bytes(rx[0], f, len);
	rte_pktmbuf_free(rx[0]);
	memcpy(a.addr_bytes, aqc_test_dst_mac, 6);
	assert_int_equal(rte_eth_dev_default_mac_addr_set(port, &a), 0);
	assert_int_equal(rte_eth_promiscuous_enable(port), 0);
}

/* TSO: 3500 bytes of TCP payload at MSS 1000 from a 3-segment chain come
 * back as 4 frames built here independently (docs/ref/aqc.md §6.3). */
static void
step_tso(void **state)
{
	uint8_t f[4000], want[1100];
	struct rte_mbuf *m, *rx[8];
	uint32_t len = aqc_test_tcp4(f, 3500, 3333, 443, 21);
	struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)(f + 34);

	(void)state;
	t->tcp_flags = RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG | RTE_TCP_FIN_FLAG;
	m = tp_test_mbuf_chain_from_bytes(mp, f, len, 1500);
	m->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_TCP_SEG;
	m->l2_len = 14;
	m->l3_len = 20;
	m->l4_len = 20;
	m->tso_segsz = 1000;
	assert_int_equal(rte_eth_tx_prepare(port, 0, &m, 1), 1);
	assert_int_equal(rte_eth_tx_burst(port, 0, &m, 1), 1);
	aqc_test_rx_all(port, 0, rx, 4);
	for (uint32_t k = 0; k < 4; k++) {
		uint32_t n = aqc_test_tso_segment(want, f, 3500, 1000, k);

		tp_test_assert_mbuf_bytes(rx[k], want, n);
		rte_pktmbuf_free(rx[k]);
	}
}

/* A 9000-byte frame: a 5-segment TX chain, received over five 2 KiB
 * buffers as one chained mbuf (docs/ref/aqc.md §5.4 multi-descriptor packets). */
static void
step_jumbo_scatter(void **state)
{
	static uint8_t f[9100];
	struct rte_mbuf *m, *rx[2];
	uint32_t len = aqc_test_udp4(f, 9000 - 42, 5, 6, 30);

	(void)state;
	m = tp_test_mbuf_chain_from_bytes(mp, f, len, 2000);
	assert_int_equal(m->nb_segs, 5);
	assert_int_equal(rte_eth_tx_burst(port, 0, &m, 1), 1);
	aqc_test_rx_all(port, 0, rx, 1);
	assert_int_equal(rx[0]->nb_segs, 5);
	tp_test_assert_mbuf_bytes(rx[0], f, len);
	rte_pktmbuf_free(rx[0]);
}

static void
step_rss_4q(void **state)
{
	struct rte_eth_rss_reta_entry64 reta[1] = { { .mask = ~0ull } };
	struct rte_eth_rss_conf rc = { 0 };
	uint8_t key[40], f[128], tuple[12];
	unsigned int seen = 0, spread = 0, per_q[4] = { 0 };

	(void)state;
	assert_int_equal(rte_eth_dev_stop(port), 0);
	configure(4, true);
	assert_int_equal(rte_eth_dev_start(port), 0);
	wait_link();
	if (upstream) {
		/* UPSTREAM BUG (atl_ethdev.c): RSS asked for in
		 * rte_eth_dev_configure is not enabled -- only rss_hash_update
		 * sets its is_rss, and the enable (0x54C0, §6.1) is written
		 * at start. So RSS stays off: */
		assert_int_equal(reg(0x54c0), 0);
		/* what testpmd's "port config all rss ip" does, then a restart */
		rc.rss_hf = RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_UDP;
		assert_int_equal(rte_eth_dev_rss_hash_update(port, &rc), 0);
		assert_int_equal(rte_eth_dev_stop(port), 0);
		assert_int_equal(rte_eth_dev_start(port), 0);
		wait_link();
		assert_int_equal(reg(0x54c0), 0xb3333333);  /* §6.1: DPDK's value */
		/* §6.1: DPDK writes hash types 0x10, IPv4 addresses only */
		assert_int_equal(reg(0x5040) & 0x1f, 0x10);
	} else {
		/* net_aqc: enabled at start, 4 TCs x 3 index bits (§6.1) */
		assert_int_equal(reg(0x54c0), 0x80003333);
		/* IPv4 (bit 4) and IPv4+TCP (bit 3), UDP hashed with ports */
		assert_int_equal(reg(0x5040) & 0x19, 0x18);
	}
	rc.rss_key = key;
	rc.rss_key_len = sizeof(key);
	assert_int_equal(rte_eth_dev_rss_hash_conf_get(port, &rc), 0);
	assert_int_equal(rte_eth_dev_rss_reta_query(port, reta, 64), 0);
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t len = aqc_test_udp4(f, 20, (uint16_t)(4000 + i), 53, i);

		assert_int_equal(aqc_model_inject(model, f, len), 0);
	}
	for (uint16_t q = 0; q < 4; q++) {
		struct rte_mbuf *rx[64];
		uint16_t n;

		for (int t = 0; t < 50; t++) {
			while ((n = rte_eth_rx_burst(port, q, rx, 64)) > 0) {
				for (uint16_t k = 0; k < n; k++) {
					uint32_t h;

					/* IPv4 addresses, and for net_aqc the UDP
					 * ports (upstream hashes addresses only) */
					memcpy(tuple, rte_pktmbuf_mtod_offset(rx[k], uint8_t *, 26), 12);
					h = aqc_test_toeplitz(key, tuple, upstream ? 8 : 12);
					assert_int_equal(rx[k]->hash.rss, h);
					assert_int_equal(q, reta[0].reta[h & 63]);
					per_q[q]++;
					seen++;
					rte_pktmbuf_free(rx[k]);
				}
			}
			rte_delay_us_sleep(1000);
		}
	}
	assert_int_equal(seen, 256);
	for (int q = 0; q < 4; q++)
		spread += per_q[q] > 0;
	assert_int_equal(spread, 4);
}

/* The one frame expected, from whichever of the 4 RSS queues has it. */
static struct rte_mbuf *
rx_any(uint16_t *queue)
{
	struct rte_mbuf *got = NULL;

	for (int t = 0; t < 2000 && got == NULL; t++) {
		for (uint16_t q = 0; q < 4 && got == NULL; q++) {
			if (rte_eth_rx_burst(port, q, &got, 1) == 0)
				got = NULL;
			else if (queue != NULL)
				*queue = q;
		}
		if (got == NULL)
			rte_delay_us_sleep(1000);
	}
	assert_non_null(got);
	return got;
}

/* A UDP frame with an 802.1Q tag of vid in front of its IPv4 header. */
static uint32_t
tagged_udp(uint8_t *f, uint8_t *plain, uint16_t vid, uint32_t seed)
{
	uint32_t len = aqc_test_udp4(plain, 20, 1, 2, seed);

	memcpy(f, plain, 12);
	f[12] = 0x81;
	f[13] = 0x00;
	f[14] = (uint8_t)(vid >> 8);
	f[15] = (uint8_t)vid;
	memcpy(f + 16, plain + 12, len - 12);
	return len + 4;
}

static void
step_vlan_strip(void **state)
{
	uint8_t plain[128], f[132];
	uint32_t len = tagged_udp(f, plain, 42, 7) - 4;
	struct rte_mbuf *got;

	(void)state;
	assert_int_equal(rte_eth_dev_set_vlan_offload(port, RTE_ETH_VLAN_STRIP_OFFLOAD), 0);
	assert_int_equal(aqc_model_inject(model, f, len + 4), 0);
	got = rx_any(NULL);
	tp_test_assert_mbuf_bytes(got, plain, len);
	assert_int_equal(got->vlan_tci, 42);
	assert_true(got->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED);
	rte_pktmbuf_free(got);
}

/* VLAN filter table: with VID 42 in it, 42 passes and 43 is filtered. */
static void
step_vlan_filter(void **state)
{
	uint8_t plain[128], f[132];
	uint32_t len;

	(void)state;
	assert_int_equal(rte_eth_dev_set_vlan_offload(port, RTE_ETH_VLAN_STRIP_OFFLOAD |
						      RTE_ETH_VLAN_FILTER_OFFLOAD), 0);
	assert_int_equal(rte_eth_dev_vlan_filter(port, 42, 1), 0);
	len = tagged_udp(f, plain, 42, 9);
	assert_int_equal(aqc_model_inject(model, f, len), 0);
	rte_pktmbuf_free(rx_any(NULL));
	len = tagged_udp(f, plain, 43, 9);
	assert_int_equal(aqc_model_inject(model, f, len), -EPERM);
	/* untagged: net_aqc sets accept-untagged (0x5280 bit 2, LNX value);
	 * UPSTREAM writes only VLAN promiscuous (§10.1 step 8), so once a
	 * filter turns that off, untagged frames are filtered (model reading
	 * of docs/ref/aqc.md §6.6; unverified on silicon) */
	len = aqc_test_udp4(f, 20, 1, 2, 10);
	assert_int_equal(aqc_model_inject(model, f, len), upstream ? -EPERM : 0);
	if (!upstream)
		rte_pktmbuf_free(rx_any(NULL));
	assert_int_equal(rte_eth_dev_vlan_filter(port, 42, 0), 0);
	assert_int_equal(rte_eth_dev_set_vlan_offload(port, RTE_ETH_VLAN_STRIP_OFFLOAD), 0);
	len = tagged_udp(f, plain, 43, 9);
	assert_int_equal(aqc_model_inject(model, f, len), 0);
	rte_pktmbuf_free(rx_any(NULL));
}

/* RETA update: every entry to queue 2, then every flow lands there. */
static void
step_reta_update(void **state)
{
	struct rte_eth_rss_reta_entry64 reta[1] = { { .mask = ~0ull } };
	uint8_t f[128];

	struct rte_eth_rss_conf rc = { 0 };
	uint8_t key[40];
	uint64_t t0, t1, t2;

	(void)state;
	for (int i = 0; i < 64; i++)
		reta[0].reta[i] = 2;
	/* the time the driver spends programming RSS through the key and
	 * RETA write strobes (§6.1; 10 and 12 of them), each polled until
	 * the chip clears it; net_atlantic's hash update writes the RETA too
	 * (printed, never checked) */
	rc.rss_key = key;
	rc.rss_key_len = sizeof(key);
	assert_int_equal(rte_eth_dev_rss_hash_conf_get(port, &rc), 0);
	t0 = rte_get_timer_cycles();
	assert_int_equal(rte_eth_dev_rss_hash_update(port, &rc), 0);
	t1 = rte_get_timer_cycles();
	assert_int_equal(rte_eth_dev_rss_reta_update(port, reta, 64), 0);
	t2 = rte_get_timer_cycles();
	printf("%s RSS programming: rss_hash_update %.3f ms, reta_update %.3f ms\n", drv_name,
	       (double)(t1 - t0) * 1e3 / (double)rte_get_timer_hz(),
	       (double)(t2 - t1) * 1e3 / (double)rte_get_timer_hz());
	for (uint32_t i = 0; i < 32; i++) {
		uint16_t q = 9;
		uint32_t len = aqc_test_udp4(f, 20, (uint16_t)(7000 + i), 53, i + 100);

		assert_int_equal(aqc_model_inject(model, f, len), 0);
		rte_pktmbuf_free(rx_any(&q));
		assert_int_equal(q, 2);
	}
}

/* set_mc_addr_list: the listed group passes with all-multicast off. */
static void
step_mc_list(void **state)
{
	struct rte_ether_addr grp = { .addr_bytes = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 } };
	struct rte_mbuf *m;
	uint8_t f[128];
	uint32_t len = aqc_test_udp4(f, 20, 1, 2, 11);

	(void)state;
	assert_int_equal(rte_eth_promiscuous_disable(port), 0);
	assert_int_equal(rte_eth_allmulticast_disable(port), 0);
	memcpy(f, grp.addr_bytes, 6);
	assert_int_equal(aqc_model_inject(model, f, len), -EPERM);
	assert_int_equal(rte_eth_dev_set_mc_addr_list(port, &grp, 1), 0);
	assert_int_equal(aqc_model_inject(model, f, len), 0);
	m = rx_any(NULL);
	tp_test_assert_mbuf_bytes(m, f, len);
	rte_pktmbuf_free(m);
	f[5] = 0x04;
	assert_int_equal(aqc_model_inject(model, f, len), -EPERM);
	assert_int_equal(rte_eth_dev_set_mc_addr_list(port, NULL, 0), 0);
	assert_int_equal(rte_eth_promiscuous_enable(port), 0);
}

/* The firmware's link rate bits: FW 2.x/3.x 0x0370 (docs/ref/aqc.md §3.3), FW 1.x
 * 0x036C bits 31:16 (docs/ref/aqc.md §3.2). */
static uint32_t
link_rate_bits(void)
{
	return fw1x ? reg(0x036c) >> 16 : reg(0x0370) & 0xf20;
}

/* dev_set_link_down/up through the firmware (docs/ref/aqc.md §3.3, §3.2). */
static void
step_link_down_up(void **state)
{
	uint8_t f[128];
	uint32_t len = aqc_test_udp4(f, 20, 1, 2, 12);

	(void)state;
	assert_int_equal(rte_eth_dev_set_link_down(port), 0);
	for (int i = 0; i < 300 && link_rate_bits() != 0; i++)
		rte_delay_us_sleep(1000);
	assert_int_equal(link_rate_bits(), 0);
	assert_int_equal(aqc_model_inject(model, f, len), -ENETDOWN);
	assert_int_equal(rte_eth_dev_set_link_up(port), 0);
	wait_link();
	assert_int_equal(aqc_model_inject(model, f, len), 0);
	rte_pktmbuf_free(rx_any(NULL));
}

/* Flow control: the pause mode set is the one read back. */
static void
step_flow_ctrl(void **state)
{
	struct rte_eth_fc_conf fc;

	(void)state;
	memset(&fc, 0, sizeof(fc));
	fc.mode = RTE_ETH_FC_FULL;
	assert_int_equal(rte_eth_dev_flow_ctrl_set(port, &fc), 0);
	memset(&fc, 0, sizeof(fc));
	assert_int_equal(rte_eth_dev_flow_ctrl_get(port, &fc), 0);
	assert_int_equal(fc.mode, RTE_ETH_FC_FULL);
	fc.mode = RTE_ETH_FC_NONE;
	assert_int_equal(rte_eth_dev_flow_ctrl_set(port, &fc), 0);
}

static void
step_xstats(void **state)
{
	int n = rte_eth_xstats_get(port, NULL, 0);
	struct rte_eth_xstat xs[128];

	(void)state;
	assert_true(n > 0 && n <= 128);
	assert_int_equal(rte_eth_xstats_get(port, xs, 128), n);
}

/* The value of the xstat called name. */
static uint64_t
xstat(const char *name)
{
	uint64_t id, v;

	assert_int_equal(rte_eth_xstats_get_id_by_name(port, name, &id), 0);
	assert_int_equal(rte_eth_xstats_get_by_id(port, &id, &v, 1), 1);
	return v;
}

/* FW 1.x keeps the mailbox MAC counters current without a request (docs/ref/aqc.md
 * §3.1, §3.2): after a reset, 16 frames looped are 16 unicast frames each
 * way, with their bytes. net_atlantic refreshes them in stats_get. */
static void
step_fw1x_mac_counters(void **state)
{
	struct rte_eth_stats st;
	uint64_t bytes = 0;

	(void)state;
	assert_int_equal(rte_eth_stats_reset(port), 0);
	loop_frames(16, &bytes);
	assert_int_equal(rte_eth_stats_get(port, &st), 0);
	assert_int_equal(xstat("uprc"), 16);
	assert_int_equal(xstat("uptc"), 16);
	assert_int_equal(xstat("ubrc"), bytes);
	assert_int_equal(xstat("ubtc"), bytes);
	assert_int_equal(xstat("mprc"), 0);
}

/* net_aqc speaks FW 2.x/3.x only and says so (FEATURES.md). */
static void
step_fw1x_refused(void **state)
{
	(void)state;
	assert_int_equal(pci.drv->probe(pci.drv, &pci.dev), -EOPNOTSUPP);
	assert_int_not_equal(rte_eth_dev_get_port_by_name(pci.dev.name, &port), 0);
}

/* The SFP module's EEPROM through the firmware's SMBus service: the B1
 * upload mailbox carries the request into the RPC buffer, MPI_CTL bit 13
 * starts it (model/aqc_model_mcp.c). Bytes compared with the image the
 * model was given. */
static void
step_module_eeprom(void **state)
{
	struct rte_eth_dev_module_info mi;
	struct rte_dev_eeprom_info e;
	uint8_t got[512];

	(void)state;
	memset(&e, 0, sizeof(e));
	memset(got, 0, sizeof(got));
	if (upstream) {
		/* net_atlantic has no module ops: it reads the module through
		 * the device-EEPROM ops, magic = SMBus address (default 0x50) */
		assert_int_equal(rte_eth_dev_get_module_info(port, &mi), -ENOTSUP);
		assert_int_equal(rte_eth_dev_get_eeprom_length(port), 256);
		e.data = got;
		e.length = 256;
		assert_int_equal(rte_eth_dev_get_eeprom(port, &e), 0);
		assert_memory_equal(got, sfp_image, 256);
		/* A2h, a length that is no multiple of 4 */
		e.magic = 0x51;
		e.offset = 20;
		e.length = 18;
		assert_int_equal(rte_eth_dev_get_eeprom(port, &e), 0);
		assert_memory_equal(got, sfp_image + 256 + 20, 18);
		/* set_eeprom: data uploaded at buffer + 16, MPI_CTL bit 14 */
		{
			uint8_t w[6] = { 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6 };

			e.data = w;
			e.offset = 128;
			e.length = sizeof(w);
			assert_int_equal(rte_eth_dev_set_eeprom(port, &e), 0);
			e.data = got;
			e.offset = 126;
			e.length = 10;
			assert_int_equal(rte_eth_dev_get_eeprom(port, &e), 0);
			assert_memory_equal(got, sfp_image + 256 + 126, 2);
			assert_memory_equal(got + 2, w, sizeof(w));
			assert_memory_equal(got + 8, sfp_image + 256 + 134, 2);
			memcpy(sfp_image + 256 + 128, w, sizeof(w));
		}
		/* no module at device 0x52: the firmware's nonzero status */
		e.magic = 0x52;
		e.offset = 0;
		e.length = 4;
		assert_int_equal(rte_eth_dev_get_eeprom(port, &e), -EIO);
	} else {
		/* SFF-8472 with both pages (bytes 92 and 94 above) */
		assert_int_equal(rte_eth_dev_get_module_info(port, &mi), 0);
		assert_int_equal(mi.type, RTE_ETH_MODULE_SFF_8472);
		assert_int_equal(mi.eeprom_len, 512);
		e.data = got;
		e.length = 512;
		assert_int_equal(rte_eth_dev_get_module_eeprom(port, &e), 0);
		assert_memory_equal(got, sfp_image, 512);
		e.offset = 250;                  /* across the page boundary */
		e.length = 18;
		assert_int_equal(rte_eth_dev_get_module_eeprom(port, &e), 0);
		assert_memory_equal(got, sfp_image + 250, 18);
		e.offset = 500;
		e.length = 20;
		assert_int_equal(rte_eth_dev_get_module_eeprom(port, &e), -EINVAL);
		assert_int_equal(rte_eth_dev_get_eeprom_length(port), -ENOTSUP);
	}
}

/* dev_reset: the port comes back after reconfiguration. */
static void
step_reset(void **state)
{
	uint64_t bytes = 0;

	(void)state;
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_reset(port), 0);
	configure(1, false);
	assert_int_equal(rte_eth_dev_start(port), 0);
	wait_link();
	loop_frames(8, &bytes);
}

static void
step_stop_close(void **state)
{
	(void)state;
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_close(port), 0);
	TP_TEST_ASSERT_POOL_BACK(mp, pool_start);
}

static int
teardown(void **state)
{
	(void)state;
	aqc_model_destroy(model);
	rte_mempool_free(mp);
	aqc_test_pci_release(&pci);
	return 0;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest steps[] = {
		cmocka_unit_test(step_probe),
		cmocka_unit_test(step_mac_and_fw),
		cmocka_unit_test(step_configure_start_link),
		cmocka_unit_test(step_loop_traffic_and_stats),
		cmocka_unit_test(step_rx_descriptor_status),
		cmocka_unit_test(step_ipv6),
		cmocka_unit_test(step_unicast_filter),
		cmocka_unit_test(step_allmulticast),
		cmocka_unit_test(step_rx_checksum),
		cmocka_unit_test(step_tx_checksum),
		cmocka_unit_test(step_stop_start),
		cmocka_unit_test(step_mac_change),
		cmocka_unit_test(step_tso),
		cmocka_unit_test(step_jumbo_scatter),
		cmocka_unit_test(step_rss_4q),
		cmocka_unit_test(step_vlan_strip),
		cmocka_unit_test(step_vlan_filter),
		cmocka_unit_test(step_reta_update),
		cmocka_unit_test(step_mc_list),
		cmocka_unit_test(step_link_down_up),
		cmocka_unit_test(step_flow_ctrl),
		cmocka_unit_test(step_xstats),
		cmocka_unit_test(step_module_eeprom),
		cmocka_unit_test(step_reset),
		cmocka_unit_test(step_stop_close),
	};
	/* the same model with FW 1.x: what net_atlantic runs on it */
	const struct CMUnitTest steps_fw1x[] = {
		cmocka_unit_test(step_probe),
		cmocka_unit_test(step_mac_and_fw),
		cmocka_unit_test(step_configure_start_link),
		cmocka_unit_test(step_loop_traffic_and_stats),
		cmocka_unit_test(step_unicast_filter),
		cmocka_unit_test(step_fw1x_mac_counters),
		cmocka_unit_test(step_link_down_up),
		cmocka_unit_test(step_stop_start),
		cmocka_unit_test(step_reset),
		cmocka_unit_test(step_stop_close),
	};
	const struct CMUnitTest steps_fw1x_aqc[] = {
		cmocka_unit_test(step_fw1x_refused),
	};
	int rc;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "fw1x") != 0)) {
		fprintf(stderr, "usage: %s net_atlantic|net_aqc [fw1x]\n", argv[0]);
		return 2;
	}
	drv_name = argv[1];
	upstream = strcmp(drv_name, "net_atlantic") == 0;
	fw1x = argc == 3;
	rc = aqc_test_pci_eal_init(argv[0], drv_name);
	if (rc != 0)
		return rc;
	if (fw1x && upstream)
		return cmocka_run_group_tests(steps_fw1x, probe_setup, teardown);
	if (fw1x)
		return cmocka_run_group_tests(steps_fw1x_aqc, probe_setup, teardown);
	return cmocka_run_group_tests(steps, probe_setup, teardown);
}
