/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc ethdev operations beyond bring-up, on the chip model: VLAN strip
 * at run time (port and queue), VLAN filter table, TPIDs (docs/ref/aqc.md §6.6), extra
 * unicast MAC filters (§6.4), link up/down and flow control through the
 * firmware (§3.3), RX/TX descriptor status (§5.1, §5.4). Register values are
 * the document's bit positions written out here.
 */
#include <string.h>

#include <rte_ether.h>

#include "aqc_test.h"

static const char *const vdevs[] = {
	"net_aqc_sim0,mode=step,wire=none",
	NULL,
};

#define NB_DESC 64

static int
setup(void **state)
{
	(void)state;
	return aqc_test_eal_init(vdevs);
}

/* dst/src MACs of aqc_test frames, 802.1Q tag vid, then an IPv4/UDP body */
static uint32_t
tagged(uint8_t *f, uint16_t vid, uint32_t seed)
{
	uint8_t plain[128];
	uint32_t len = aqc_test_udp4(plain, 20, 5, 6, seed);

	memcpy(f, plain, 12);
	f[12] = 0x81;
	f[13] = 0x00;
	f[14] = (uint8_t)(vid >> 8);
	f[15] = (uint8_t)vid;
	memcpy(f + 16, plain + 12, len - 12);
	return len + 4;
}

static struct rte_mempool *
start(struct aqc_test_port *p, unsigned int *in_use)
{
	struct rte_mempool *mp = tp_test_pool_create("ops", 512, 0);

	*in_use = tp_test_pool_in_use(mp);
	aqc_test_port(p, "net_aqc_sim0");
	aqc_test_start_promisc(p, 1, NB_DESC, mp, 0, 0, false, NULL, true);
	return mp;
}

static void
finish(struct aqc_test_port *p, struct rte_mempool *mp, unsigned int in_use)
{
	aqc_test_stop(p);
	TP_TEST_ASSERT_POOL_BACK(mp, in_use);
	rte_mempool_free(mp);
}

static struct rte_mbuf *
rx_one(uint16_t port)
{
	struct rte_mbuf *m[2];

	assert_int_equal(rte_eth_rx_burst(port, 0, m, 2), 1);
	return m[0];
}

static void
test_vlan_strip_runtime(void **state)
{
	struct aqc_test_port p;
	unsigned int in_use;
	struct rte_mempool *mp = start(&p, &in_use);
	uint8_t f[160];
	uint32_t len = tagged(f, 100, 1);
	struct rte_mbuf *m;

	(void)state;
	assert_int_equal(aqc_test_reg(&p, DOC_RXD_CTL(0)) & (1u << 29), 0);
	assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	m = rx_one(p.id);
	tp_test_assert_mbuf_bytes(m, f, len);        /* tag still in the data */
	rte_pktmbuf_free(m);
	/* testpmd "vlan set strip on 0" */
	assert_int_equal(rte_eth_dev_set_vlan_offload(p.id, RTE_ETH_VLAN_STRIP_OFFLOAD), 0);
	assert_int_equal(aqc_test_reg(&p, DOC_RXD_CTL(0)) & (1u << 29), 1u << 29);
	assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	m = rx_one(p.id);
	{
		uint8_t untagged[160];

		memcpy(untagged, f, 12);
		memcpy(untagged + 12, f + 16, len - 16);
		tp_test_assert_mbuf_bytes(m, untagged, len - 4);
	}
	assert_int_equal(m->vlan_tci, 100);
	assert_true(m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED);
	assert_true(m->ol_flags & RTE_MBUF_F_RX_VLAN);
	rte_pktmbuf_free(m);
	/* per queue off again */
	assert_int_equal(rte_eth_dev_set_vlan_strip_on_queue(p.id, 0, 0), 0);
	assert_int_equal(aqc_test_reg(&p, DOC_RXD_CTL(0)) & (1u << 29), 0);
	assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	m = rx_one(p.id);
	tp_test_assert_mbuf_bytes(m, f, len);
	assert_false(m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED);
	rte_pktmbuf_free(m);
	/* QinQ extend is not offered (ethdev refuses what is not in the caps) */
	assert_int_equal(rte_eth_dev_set_vlan_offload(p.id, RTE_ETH_VLAN_EXTEND_OFFLOAD),
			 -EINVAL);
	assert_int_equal(rte_eth_dev_set_vlan_offload(p.id, 0), 0);
	finish(&p, mp, in_use);
}

static void
test_vlan_filters_and_tpid(void **state)
{
	struct aqc_test_port p;
	unsigned int in_use;
	struct rte_mempool *mp = start(&p, &in_use);
	uint8_t f[160];
	uint32_t len, vtag = aqc_test_a2() ? 1u << 12 : 0;

	(void)state;
	/* §6.6: 0x5280 bit 1 VLAN promiscuous until filtering is on */
	assert_int_equal(aqc_test_reg(&p, 0x5280) & 2, 2);
	assert_int_equal(rte_eth_dev_set_vlan_offload(p.id, RTE_ETH_VLAN_FILTER_OFFLOAD), 0);
	assert_int_equal(aqc_test_reg(&p, 0x5280) & 2, 0);
	assert_int_equal(rte_eth_dev_vlan_filter(p.id, 100, 1), 0);
	/* bit 31 enable, 18:16 action 1, 11:0 VID; A2 also the resolver tag 1
	 * in 15:12, and the "VLAN promisc off" record (FW ART base 16 + 1)
	 * drops what no filter tags (docs/ref/aqc.md §6.5, §6.6) */
	assert_int_equal(aqc_test_reg(&p, 0x5290), 0x80010064 | vtag);
	if (aqc_test_a2())
		assert_int_equal(aqc_test_reg(&p, 0x14008 + 0x10 * 17), 1);
	len = tagged(f, 100, 2);
	assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	rte_pktmbuf_free(rx_one(p.id));
	len = tagged(f, 200, 3);
	assert_int_equal(aqc_model_inject(p.model, f, len), -EPERM);
	len = aqc_test_udp4(f, 20, 5, 6, 4);           /* untagged: accepted */
	assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	rte_pktmbuf_free(rx_one(p.id));
	/* 15 more fill the table; the 17th has no room */
	for (uint16_t v = 1; v <= 15; v++)
		assert_int_equal(rte_eth_dev_vlan_filter(p.id, (uint16_t)(1000 + v), 1), 0);
	assert_int_equal(aqc_test_reg(&p, 0x5290 + 4 * 15), 0x80010000u | vtag | (1000 + 15));
	assert_int_equal(rte_eth_dev_vlan_filter(p.id, 2000, 1), -ENOSPC);
	for (uint16_t v = 1; v <= 15; v++)
		assert_int_equal(rte_eth_dev_vlan_filter(p.id, (uint16_t)(1000 + v), 0), 0);
	/* the table survives the reset of a restart */
	aqc_test_stop(&p);
	assert_int_equal(rte_eth_dev_start(p.id), 0);
	assert_int_equal(aqc_test_reg(&p, 0x5290), 0x80010064 | vtag);
	assert_int_equal(aqc_test_reg(&p, 0x5290 + 4), 0);
	assert_int_equal(aqc_test_reg(&p, 0x5280) & 2, 0);
	assert_int_equal(rte_eth_dev_vlan_filter(p.id, 100, 0), 0);
	assert_int_equal(aqc_test_reg(&p, 0x5290), 0);
	/* docs/ref/aqc.md §6.6 0x5284: inner TPID 15:0, outer 31:16 */
	assert_int_equal(rte_eth_dev_set_vlan_ether_type(p.id, RTE_ETH_VLAN_TYPE_OUTER,
							 0x9100), 0);
	assert_int_equal(aqc_test_reg(&p, 0x5284), 0x91008100);
	assert_int_equal(rte_eth_dev_set_vlan_ether_type(p.id, RTE_ETH_VLAN_TYPE_OUTER,
							 0x88a8), 0);
	assert_int_equal(rte_eth_dev_set_vlan_offload(p.id, 0), 0);
	assert_int_equal(aqc_test_reg(&p, 0x5280) & 2, 2);
	if (aqc_test_a2())
		assert_int_equal(aqc_test_reg(&p, 0x14008 + 0x10 * 17), 0);
	finish(&p, mp, in_use);
}

static void
test_mac_filters(void **state)
{
	struct aqc_test_port p;
	unsigned int in_use;
	struct rte_mempool *mp = start(&p, &in_use);
	struct rte_ether_addr a;
	struct rte_eth_dev_info di;
	uint8_t f[160];
	uint32_t len = aqc_test_udp4(f, 20, 5, 6, 9);   /* to 02:00:00:00:00:0b */

	(void)state;
	assert_int_equal(rte_eth_dev_info_get(p.id, &di), 0);
	assert_int_equal(di.max_mac_addrs, 33);
	assert_int_equal(rte_eth_promiscuous_disable(p.id), 0);
	assert_int_equal(aqc_model_inject(p.model, f, len), -EPERM);
	memcpy(a.addr_bytes, aqc_test_dst_mac, 6);
	assert_int_equal(rte_eth_dev_mac_addr_add(p.id, &a, 0), 0);
	/* §6.4 filter 1: 0x5118 MAC[2..5], 0x511C enable | action 1 | MAC[0..1] */
	assert_int_equal(aqc_test_reg(&p, 0x5118), 0x0000000b);
	assert_int_equal(aqc_test_reg(&p, 0x511c), 0x80010200 |
			 (aqc_test_a2() ? 1u << 22 : 0));   /* A2: resolver tag 1 */
	assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	rte_pktmbuf_free(rx_one(p.id));
	assert_int_equal(rte_eth_dev_mac_addr_remove(p.id, &a), 0);
	assert_int_equal(aqc_test_reg(&p, 0x511c) & (1u << 31), 0);
	assert_int_equal(aqc_model_inject(p.model, f, len), -EPERM);
	assert_int_equal(rte_eth_promiscuous_enable(p.id), 0);
	finish(&p, mp, in_use);
}

/* set_mc_addr_list: exact filters from the top of the table (§6.4). */
static void
test_mc_list(void **state)
{
	struct aqc_test_port p;
	unsigned int in_use;
	struct rte_mempool *mp = start(&p, &in_use);
	struct rte_ether_addr list[2] = {
		{ .addr_bytes = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x07 } },
		{ .addr_bytes = { 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 } },
	};
	struct rte_ether_addr bad = { .addr_bytes = { 0x02, 0, 0, 0, 0, 1 } };
	uint8_t f[160];
	uint32_t len = aqc_test_udp4(f, 20, 5, 6, 9);
	uint32_t uctag = aqc_test_a2() ? 1u << 22 : 0;

	(void)state;
	assert_int_equal(rte_eth_promiscuous_disable(p.id), 0);
	assert_int_equal(rte_eth_allmulticast_disable(p.id), 0);
	memcpy(f, list[0].addr_bytes, 6);
	assert_int_equal(aqc_model_inject(p.model, f, len), -EPERM);
	assert_int_equal(rte_eth_dev_set_mc_addr_list(p.id, list, 2), 0);
	/* filters 31 and 32: 0x5110 + 8i MAC[2..5], 0x5114 + 8i enable | action 1
	 * (A2: and the resolver tag 1 in bits 27:22, docs/ref/aqc.md §6.4) */
	assert_int_equal(aqc_test_reg(&p, 0x5208), 0x5e000007);
	assert_int_equal(aqc_test_reg(&p, 0x520c), 0x80010100 | uctag);
	assert_int_equal(aqc_test_reg(&p, 0x5210), 0x00000001);
	assert_int_equal(aqc_test_reg(&p, 0x5214), 0x80013333 | uctag);
	assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	rte_pktmbuf_free(rx_one(p.id));
	f[5] = 0x08;                                   /* not on the list */
	assert_int_equal(aqc_model_inject(p.model, f, len), -EPERM);
	assert_int_equal(rte_eth_dev_set_mc_addr_list(p.id, &bad, 1), -EINVAL);
	/* kept over the reset of a restart */
	aqc_test_stop(&p);
	assert_int_equal(rte_eth_dev_start(p.id), 0);
	assert_int_equal(aqc_test_reg(&p, 0x520c), 0x80010100 | uctag);
	assert_int_equal(rte_eth_dev_set_mc_addr_list(p.id, NULL, 0), 0);
	assert_int_equal(aqc_test_reg(&p, 0x520c) & (1u << 31), 0);
	assert_int_equal(aqc_test_reg(&p, 0x5214) & (1u << 31), 0);
	assert_int_equal(rte_eth_promiscuous_enable(p.id), 0);
	finish(&p, mp, in_use);
}

static void
test_link_up_down(void **state)
{
	struct aqc_test_port p;
	unsigned int in_use;
	struct rte_mempool *mp = start(&p, &in_use);
	uint8_t f[160];
	uint32_t len = aqc_test_udp4(f, 20, 5, 6, 9);

	(void)state;
	/* A1 §3.3: rates in 0x0368, LINK_DROP 0x036C bit 22, state 0x0370;
	 * A2 §3.4: IN.link_options 0x12018, OUT.link_status 0x13014 */
	uint32_t state_reg = aqc_test_a2() ? 0x13014 : 0x0370;

	assert_int_equal(rte_eth_dev_set_link_down(p.id), 0);
	if (aqc_test_a2()) {
		assert_int_equal(aqc_test_reg(&p, 0x12018), 0);
	} else {
		assert_int_equal(aqc_test_reg(&p, 0x0368) & 0xfff, 0);
		assert_int_equal(aqc_test_reg(&p, 0x036c) & (1u << 22), 1u << 22);
	}
	aqc_test_wait_link(p.id, RTE_ETH_LINK_DOWN);
	for (int i = 0; i < 300 && aqc_test_reg(&p, state_reg) != 0; i++)
		rte_delay_us_sleep(1000);
	assert_int_equal(aqc_test_reg(&p, state_reg), 0);
	assert_int_equal(aqc_model_inject(p.model, f, len), -ENETDOWN);
	assert_int_equal(rte_eth_dev_set_link_up(p.id), 0);
	if (aqc_test_a2()) {
		/* link_up | 10M..10G with N2.5G and N5G */
		assert_int_equal(aqc_test_reg(&p, 0x12018), 1u | (0xffu << 8));
	} else {
		assert_int_equal(aqc_test_reg(&p, 0x0368) & 0xfff, 0xf20);
		assert_int_equal(aqc_test_reg(&p, 0x036c) & (1u << 22), 0);
	}
	aqc_test_wait_link(p.id, RTE_ETH_LINK_UP);
	assert_int_equal(aqc_test_reg(&p, state_reg),
			 aqc_test_a2() ? (6u << 4) | (1u << 11) : 1u << 11);
	assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	rte_pktmbuf_free(rx_one(p.id));
	finish(&p, mp, in_use);
}

static void
wait_reg(const struct aqc_test_port *p, uint32_t off, uint32_t mask, uint32_t want)
{
	for (int i = 0; i < 1000 && (aqc_test_reg(p, off) & mask) != want; i++)
		rte_delay_us_sleep(1000);
	assert_int_equal(aqc_test_reg(p, off) & mask, want);
}

/* Flow-control request and the negotiated result: A1 docs/ref/aqc.md §3.3 bits 3 (RX)
 * / 4 (TX) of 0x036C and 0x0374; A2 §3.4 IN.link_options bits 24 (RX) /
 * 25 (TX), OUT.link_status bits 9 (RX) / 8 (TX). */
static void
check_pause(const struct aqc_test_port *p, bool rx, bool tx)
{
	if (aqc_test_a2()) {
		assert_int_equal(aqc_test_reg(p, 0x12018) & (3u << 24),
				 (rx ? 1u << 24 : 0) | (tx ? 1u << 25 : 0));
		wait_reg(p, 0x13014, 3u << 8, (rx ? 1u << 9 : 0) | (tx ? 1u << 8 : 0));
	} else {
		assert_int_equal(aqc_test_reg(p, 0x036c) & 0x18,
				 (rx ? 0x08u : 0) | (tx ? 0x10u : 0));
		wait_reg(p, 0x0374, 0x18, (rx ? 0x08u : 0) | (tx ? 0x10u : 0));
	}
}

static void
test_flow_control(void **state)
{
	struct aqc_test_port p;
	unsigned int in_use;
	struct rte_mempool *mp = start(&p, &in_use);
	struct rte_eth_fc_conf fc;

	(void)state;
	assert_int_equal(rte_eth_dev_flow_ctrl_get(p.id, &fc), 0);
	assert_int_equal(fc.mode, RTE_ETH_FC_NONE);
	memset(&fc, 0, sizeof(fc));
	fc.mode = RTE_ETH_FC_FULL;
	assert_int_equal(rte_eth_dev_flow_ctrl_set(p.id, &fc), 0);
	check_pause(&p, true, true);
	memset(&fc, 0, sizeof(fc));
	assert_int_equal(rte_eth_dev_flow_ctrl_get(p.id, &fc), 0);
	assert_int_equal(fc.mode, RTE_ETH_FC_FULL);
	/* kept across the reset of a restart */
	aqc_test_stop(&p);
	assert_int_equal(rte_eth_dev_start(p.id), 0);
	check_pause(&p, true, true);
	fc.mode = RTE_ETH_FC_RX_PAUSE;
	assert_int_equal(rte_eth_dev_flow_ctrl_set(p.id, &fc), 0);
	check_pause(&p, true, false);
	fc.high_water = 100;
	assert_int_equal(rte_eth_dev_flow_ctrl_set(p.id, &fc), -ENOTSUP);
	fc.high_water = 0;
	fc.mode = RTE_ETH_FC_NONE;
	assert_int_equal(rte_eth_dev_flow_ctrl_set(p.id, &fc), 0);
	check_pause(&p, false, false);
	finish(&p, mp, in_use);
}

static void
test_descriptor_status(void **state)
{
	struct aqc_test_port p;
	unsigned int in_use;
	struct rte_mempool *mp = start(&p, &in_use);
	struct rte_mbuf *rx[8], *m;
	uint8_t f[160];
	uint32_t len = aqc_test_udp4(f, 20, 5, 6, 9);

	(void)state;
	assert_int_equal(rte_eth_rx_queue_count(p.id, 0), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	assert_int_equal(rte_eth_rx_queue_count(p.id, 0), 3);
	assert_int_equal(rte_eth_rx_descriptor_status(p.id, 0, 0), RTE_ETH_RX_DESC_DONE);
	assert_int_equal(rte_eth_rx_descriptor_status(p.id, 0, 2), RTE_ETH_RX_DESC_DONE);
	assert_int_equal(rte_eth_rx_descriptor_status(p.id, 0, 3), RTE_ETH_RX_DESC_AVAIL);
	/* docs/ref/aqc.md §4.3: one slot is never handed to the chip */
	assert_int_equal(rte_eth_rx_descriptor_status(p.id, 0, NB_DESC - 1),
			 RTE_ETH_RX_DESC_UNAVAIL);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 8), 3);
	for (int i = 0; i < 3; i++)
		rte_pktmbuf_free(rx[i]);
	assert_int_equal(rte_eth_rx_queue_count(p.id, 0), 0);
	/* TX: the packet just posted is the descriptor before the tail */
	m = tp_test_mbuf_from_bytes(mp, f, len);
	assert_int_equal(rte_eth_tx_burst(p.id, 0, &m, 1), 1);
	assert_int_equal(rte_eth_tx_descriptor_status(p.id, 0, NB_DESC - 1),
			 RTE_ETH_TX_DESC_FULL);
	assert_int_equal(rte_eth_tx_descriptor_status(p.id, 0, 0), RTE_ETH_TX_DESC_DONE);
	assert_int_equal(aqc_model_step(p.model, 4), 1);
	assert_int_equal(rte_eth_tx_descriptor_status(p.id, 0, NB_DESC - 1),
			 RTE_ETH_TX_DESC_DONE);
	finish(&p, mp, in_use);
}

/* A write-back whose length exceeds its single buffer (§5.4 bytes 10-11)
 * is never trusted: dropped, counted in ierrors, the mbuf back in the pool. */
static void
test_rx_bad_length(void **state)
{
	struct aqc_test_port p;
	unsigned int in_use;
	struct rte_mempool *mp = start(&p, &in_use);
	struct rte_eth_stats st;
	struct rte_mbuf *rx[4];
	uint8_t f[160];
	uint32_t len = aqc_test_udp4(f, 20, 5, 6, 9);
	uint64_t base;
	volatile uint32_t *d;

	(void)state;
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	base = (uint64_t)aqc_test_reg(&p, DOC_RXD_BASE_HI(0)) << 32 |
	       aqc_test_reg(&p, DOC_RXD_BASE_LO(0));
	d = (volatile uint32_t *)(uintptr_t)base;     /* descriptor 0, IOVA as VA */
	d[0] = 0;
	d[1] = 0;
	d[3] = 0;
	d[2] = 1u | 2u | (5000u << 16);               /* DD, EOP, 5000 > 2048 */
	/* as the chip would after writing it: head past descriptor 0 */
	assert_int_equal(aqc_test_reg(&p, DOC_RXD_HEAD(0)), 0);
	__atomic_store_n((uint32_t *)(void *)(aqc_model_bar(p.model) + DOC_RXD_HEAD(0)), 1,
			 __ATOMIC_RELEASE);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 4), 0);
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ierrors, 1);
	/* the next frame (descriptor 1) is received as usual */
	assert_int_equal(aqc_model_inject(p.model, f, len), 0);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 4), 1);
	tp_test_assert_mbuf_bytes(rx[0], f, len);
	rte_pktmbuf_free(rx[0]);
	finish(&p, mp, in_use);
}

static unsigned int lsc_events;

static int
on_lsc(uint16_t port_id, enum rte_eth_event_type type, void *arg, void *ret)
{
	(void)port_id;
	(void)arg;
	(void)ret;
	if (type == RTE_ETH_EVENT_INTR_LSC)
		__atomic_add_fetch(&lsc_events, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static void
wait_events(unsigned int n)
{
	for (int i = 0; i < 300 && __atomic_load_n(&lsc_events, __ATOMIC_SEQ_CST) < n; i++)
		rte_delay_us_sleep(10000);
	assert_int_equal(__atomic_load_n(&lsc_events, __ATOMIC_SEQ_CST), n);
}

/* RTE_ETH_EVENT_INTR_LSC: the link cause routed as docs/ref/aqc.md §6.9 says (general
 * map 3 = 0x88), its status bit 8 latched by the chip and cleared by the
 * PMD, one event per change. */
static void
test_lsc_events(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("ops_lsc", 512, 0);
	unsigned int in_use = tp_test_pool_in_use(mp);
	struct rte_eth_conf conf;
	struct rte_eth_link link;
	struct aqc_test_port p;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	memset(&conf, 0, sizeof(conf));
	conf.intr_conf.lsc = 1;
	assert_int_equal(rte_eth_dev_configure(p.id, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(p.id, 0, NB_DESC, 0, NULL, mp), 0);
	assert_int_equal(rte_eth_tx_queue_setup(p.id, 0, NB_DESC, 0, NULL), 0);
	assert_int_equal(rte_eth_dev_callback_register(p.id, RTE_ETH_EVENT_INTR_LSC,
						       on_lsc, NULL), 0);
	assert_int_equal(rte_eth_dev_start(p.id), 0);
	assert_int_equal(aqc_test_reg(&p, 0x218c), 0x88);
	wait_events(1);                             /* autonegotiation done */
	assert_int_equal(rte_eth_link_get_nowait(p.id, &link), 0);
	assert_int_equal(link.link_status, RTE_ETH_LINK_UP);
	aqc_model_set_cable(p.model, false);
	wait_events(2);
	assert_int_equal(rte_eth_link_get_nowait(p.id, &link), 0);
	assert_int_equal(link.link_status, RTE_ETH_LINK_DOWN);
	wait_reg(&p, 0x2000, 1u << 8, 0);           /* cleared by the PMD */
	aqc_model_set_cable(p.model, true);
	wait_events(3);
	assert_int_equal(rte_eth_link_get_nowait(p.id, &link), 0);
	assert_int_equal(link.link_status, RTE_ETH_LINK_UP);
	aqc_test_stop(&p);
	assert_int_equal(aqc_test_reg(&p, 0x218c), 0);
	rte_delay_us_sleep(50000);
	assert_int_equal(__atomic_load_n(&lsc_events, __ATOMIC_SEQ_CST), 3);
	assert_int_equal(rte_eth_dev_callback_unregister(p.id, RTE_ETH_EVENT_INTR_LSC,
							 on_lsc, NULL), 0);
	TP_TEST_ASSERT_POOL_BACK(mp, in_use);
	rte_mempool_free(mp);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vlan_strip_runtime),
		cmocka_unit_test(test_vlan_filters_and_tpid),
		cmocka_unit_test(test_mac_filters),
		cmocka_unit_test(test_mc_list),
		cmocka_unit_test(test_link_up_down),
		cmocka_unit_test(test_flow_control),
		cmocka_unit_test(test_descriptor_status),
		cmocka_unit_test(test_rx_bad_length),
		cmocka_unit_test(test_lsc_events),
	};

	aqc_test_model_from_args(argc, argv);

	return cmocka_run_group_tests(tests, setup, NULL);
}
