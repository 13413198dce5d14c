/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC A2 (AQC113 family) hardware layer and its operations table: MCP boot
 * (docs/ref/aqc.md §2.4), datapath blocks (§10.2), RX filters through the
 * action resolver table (§6.5), RSS with the A2 redirection table (§6.1),
 * register dump. Rings, descriptors, DMA counters and the RSS key are the A1
 * ones (docs/ref/aqc.md §10.2; LNX hw_atl2.c reuses the hw_atl_b0 ring
 * functions).
 */
#include <errno.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "aqc_hw.h"
#include "aqc_base_log.h"
#include "aqc2_fw.h"

/* ---- §1: device IDs and their link rates (LNX hw_atl2.c caps) ---- */

#define A2_RATES_10G (AQC_RATE_10G | AQC_RATE_5G | AQC_RATE_2G5 | AQC_RATE_1G | \
		      AQC_RATE_100M | AQC_RATE_10M)
#define A2_RATES_2G5 (AQC_RATE_2G5 | AQC_RATE_1G | AQC_RATE_100M | AQC_RATE_10M)
#define A2_RATES_1G  (AQC_RATE_1G | AQC_RATE_100M | AQC_RATE_10M)

static const struct { uint16_t id; uint32_t rates; } a2_devices[] = {
	{ 0x00c0, A2_RATES_10G },   /* AQC113DEV */
	{ 0x04c0, A2_RATES_10G },   /* AQC113 */
	{ 0x14c0, A2_RATES_10G },   /* AQC113C */
	{ 0x34c0, A2_RATES_10G },   /* AQC113CA */
	{ 0x94c0, A2_RATES_10G },   /* AQC113CS */
	{ 0x93c0, A2_RATES_10G },   /* AQC114CS: LNX gives it the AQC113 caps */
	{ 0x12c0, A2_RATES_2G5 },   /* AQC115C */
	{ 0x11c0, A2_RATES_1G },    /* AQC116C */
};

bool
aqc2_is_a2_device(uint16_t id)
{
	return aqc2_device_rates(id) != 0;
}

uint32_t
aqc2_device_rates(uint16_t id)
{
	for (unsigned int i = 0; i < RTE_DIM(a2_devices); i++)
		if (a2_devices[i].id == id)
			return a2_devices[i].rates;
	return 0;
}

/* ---- §2.4: MCP reboot ---- */

static int
a2_boot(struct aqc_hw *hw)
{
	uint32_t st = 0;
	unsigned int i;

	aqc_wr(hw, AQC_R_A2_HOST_REQ_CLR, 1);
	aqc_wr(hw, AQC_R_A2_MIF_BOOT, AQC2_BOOT_REQ_REBOOT);
	/* boot code starts within 200 ms (10 us polls) */
	for (i = 0; i < AQC2_BOOT_START_US / 10; i++) {
		st = aqc_rd(hw, AQC_R_A2_MIF_BOOT);
		if ((st & AQC2_BOOT_STARTED) && st != 0xffffffffu)
			break;
		rte_delay_us_block(10);
	}
	if (i == AQC2_BOOT_START_US / 10) {
		AQC_BASE_LOG(ERR, HW, "A2 boot code hanged: 0x3040 = 0x%08x, BOOT_STARTED not set within %u ms",
			     st, AQC2_BOOT_START_US / 1000);
		return -EIO;
	}
	/* then completion or a host-boot request within 2 s; sleeping polls */
	for (i = 0; i < AQC2_BOOT_DONE_US / 100; i++) {
		st = aqc_rd(hw, AQC_R_A2_MIF_BOOT);
		if ((st & AQC2_BOOT_DONE_MASK) ||
		    (aqc_rd(hw, AQC_R_A2_HOST_REQ) & AQC2_HOST_REQ_READY))
			break;
		rte_delay_us_sleep(100);
	}
	if (i == AQC2_BOOT_DONE_US / 100) {
		AQC_BASE_LOG(ERR, HW, "A2 FW restart timed out: 0x3040 = 0x%08x after %u ms",
			     st, AQC2_BOOT_DONE_US / 1000);
		return -ETIMEDOUT;
	}
	if (st & AQC2_BOOT_FAILED_MASK) {
		AQC_BASE_LOG(ERR, HW, "A2 FW restart failed: 0x3040 = 0x%08x (%s%s%s)", st,
			     st & AQC2_BOOT_CRASH_INIT ? "CRASH_INIT " : "",
			     st & AQC2_BOOT_CODE_FAILED ? "BOOT_CODE_FAILED " : "",
			     st & AQC2_BOOT_FW_INIT_FAILED ? "FW_INIT_FAILED" : "");
		return -EIO;
	}
	if (aqc_rd(hw, AQC_R_A2_HOST_REQ) & AQC2_HOST_REQ_READY) {
		AQC_BASE_LOG(ERR, HW, "A2 has no firmware in flash (0x0F00 host-boot request): host boot is not supported");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int
a2_reset(struct aqc_hw *hw)
{
	int rc = a2_boot(hw);

	if (rc != 0)
		return rc;
	hw->chip_rev = hw->mif_id & 0xf;
	return aqc2_fw_init(hw);
}

/* ---- §6.5: action resolver table ---- */

int
aqc2_art_set(struct aqc_hw *hw, unsigned int idx, uint32_t tag, uint32_t mask,
	     uint32_t action)
{
	/* LNX hw_atl2_act_rslvr_table_set: semaphore 3 read == 1, 1 us x 10000 */
	if (aqc_hw_poll(hw, AQC_RI(SEM, AQC2_ART_SEM), 0xffffffffu, 1, 1, 10000) != 0) {
		AQC_BASE_LOG(ERR, HW, "A2 action resolver semaphore (0x03AC) not granted within 10 ms");
		return -EBUSY;
	}
	aqc_wr(hw, AQC_RI(A2_ART_TAG, idx), tag);
	aqc_wr(hw, AQC_RI(A2_ART_MASK, idx), mask);
	aqc_wr(hw, AQC_RI(A2_ART_ACTION, idx), action);
	aqc_wr(hw, AQC_RI(SEM, AQC2_ART_SEM), 1);
	return 0;
}

/* LNX hw_atl2_hw_init_new_rx_filters: every section on; drop what no
 * unicast filter / all-multicast tagged ("L2 promisc off"); VLAN
 * promiscuous at first (a2_set_vlan_promisc switches that record);
 * every PCP value to TC 0, whose RSS table then picks the queue. */
static int
a2_init_filters(struct aqc_hw *hw)
{
	unsigned int b = hw->a2_art_base;
	int rc;

	aqc_wr(hw, AQC_R_A2_ART_SECT_EN, 0xffff);
	aqc_wr(hw, AQC_R_A2_RPF_BC_TAG, AQC2_BC_TAG);
	rc = aqc2_art_set(hw, b + AQC2_ART_L2_PROMISC_OFF, 0,
			  AQC2_TAG_UC_MASK | AQC2_TAG_ALLMC, AQC2_ACT_DROP);
	if (rc == 0)
		rc = aqc2_art_set(hw, b + AQC2_ART_VLAN_PROMISC_OFF, 0,
				  AQC2_TAG_VLAN_MASK | AQC2_TAG_UNTAG, AQC2_ACT_DISABLE);
	for (unsigned int p = 0; p < 8 && rc == 0; p++)
		rc = aqc2_art_set(hw, b + AQC2_ART_PCP_TO_TC + p, p << AQC2_TAG_PCP_SHIFT,
				  AQC2_TAG_PCP_MASK, AQC2_ACT_TC(0));
	return rc;
}

/* ---- §10.2: datapath blocks ---- */

static void
a2_init_tx_path(struct aqc_hw *hw)
{
	aqc_hw_init_tx_common(hw);
	/* §10.2: TX buffer clock gate off (bit 5); no 0x7040 write on A2 */
	aqc_wr(hw, AQC_R_TPB_CTL, aqc_rd(hw, AQC_R_TPB_CTL) & ~(1u << 5));
}

/* LNX hw_atl2_hw_init_rx_path: the A1 steps with 38 unicast filters and
 * no 0x5040 hash types (0x54C8 instead, set with RSS). */
static void
a2_init_rx_path(struct aqc_hw *hw)
{
	aqc_hw_init_rx_common(hw, AQC2_UC_FILTERS);
	/* §10.2: L3 filter v6/v4 select */
	aqc_wr(hw, AQC_R_A2_RPF_L3_CMD0, aqc_rd(hw, AQC_R_A2_RPF_L3_CMD0) | (1u << 23));
}

/* §6.2 with the LNX hw_atl2_hw_qos_set values for one TC. */
static void
a2_init_qos(struct aqc_hw *hw)
{
	aqc_wr(hw, AQC_R_TPS_DESC_RATE, 0xa);
	aqc_wr(hw, AQC_R_TPS_VM_ARB, 0);
	aqc_wr(hw, AQC_R_TPS_DESC_ARB, 0);
	aqc_wr(hw, AQC_R_TPS_DATA_ARB, 0);
	/* A2 data credit bits 31:16 (0xFFF0), weight 14:0 (0x640); descriptor
	 * credit MTU/64 = 255, weight 0x1E (LNX hw_atl2_hw_init_tx_tc_rate_limit) */
	aqc_wr(hw, AQC_R_TPS_DATA_TC, (0xfff0u << 16) | 0x640u);
	aqc_wr(hw, AQC_R_TPS_DESC_TC, ((AQC_MAX_FRAME / 64u) << 16) | 0x1eu);
	aqc_wr(hw, AQC_RI(TPB_TC_SIZE, 0), AQC2_TXBUF_KB);
	aqc_wr(hw, AQC_RI(TPB_TC_THRESH, 0), ((AQC2_TXBUF_KB * 32u * 66u / 100u) << 16) |
	       (AQC2_TXBUF_KB * 32u * 50u / 100u));
	aqc_wr(hw, AQC_RI(RPB_TC_SIZE, 0), AQC2_RXBUF_KB);
	aqc_wr(hw, AQC_RI(RPB_TC_THRESH, 0), ((AQC2_RXBUF_KB * 32u * 66u / 100u) << 16) |
	       (AQC2_RXBUF_KB * 32u * 50u / 100u));
	aqc_wr(hw, AQC_R_RPB_PRIO_TC, 0);
	/* queue -> TC maps, 4 TCs x 8 queues: queue q is in TC q / 8; random
	 * TX TC->queue map enable (0x7900 bit 9), LNX hw_atl2_hw_queue_to_tc_map_set */
	aqc_wr(hw, AQC_R_TPB_CTL, aqc_rd(hw, AQC_R_TPB_CTL) | (1u << 9));
	for (unsigned int r = 0; r < 4; r++)
		aqc_wr(hw, AQC_RI(A2_RX_Q_TC_MAP, r), r * 0x11111111u);
	for (unsigned int r = 0; r < 8; r++)
		aqc_wr(hw, AQC_RI(A2_TX_Q_TC_MAP, r), (r / 2) * 0x01010101u);
}

static int
a2_init_paths(struct aqc_hw *hw, bool rx_csum, bool tx_csum)
{
	int rc;

	aqc_wr(hw, AQC_R_ITR_MASK_CLR, 0xffffffff);  /* polling: no interrupts */
	a2_init_tx_path(hw);
	a2_init_rx_path(hw);
	rc = a2_init_filters(hw);
	if (rc != 0)
		return rc;
	a2_init_qos(hw);
	/* offloads as on A1 (LNX reuses hw_atl_b0_hw_offload_set) */
	aqc_hw_init_offloads(hw, rx_csum, tx_csum);
	/* §10.2: the new filter engine, once the filters are set */
	aqc_wr(hw, AQC_R_A2_RPF_NEW_EN, aqc_rd(hw, AQC_R_A2_RPF_NEW_EN) | AQC2_RPF_NEW_EN_BIT);
	return 0;
}

/* §6.4 write order, at the FW-given L2 base, with the station tag. */
static int
a2_set_station_mac(struct aqc_hw *hw, const uint8_t mac[6])
{
	uint32_t i = hw->a2_l2_base;
	uint32_t lo = ((uint32_t)mac[2] << 24) | ((uint32_t)mac[3] << 16) |
		      ((uint32_t)mac[4] << 8) | mac[5];
	uint32_t hi = AQC_FPUT(UC_MAC_HI, ((uint32_t)mac[0] << 8) | mac[1]) |
		      AQC_FPUT(UC_ACTION, 1) | (AQC2_UC_TAG_STATION << AQC2_UC_TAG_SHIFT);

	aqc_wr(hw, AQC_R_RPF_UC_HI + 8 * i, 0);
	aqc_wr(hw, AQC_R_RPF_UC_LO + 8 * i, lo);
	aqc_wr(hw, AQC_R_RPF_UC_HI + 8 * i, hi);
	aqc_wr(hw, AQC_R_RPF_UC_HI + 8 * i, hi | AQC_FMASK(UC_EN));
	return 0;
}

/* Extra unicast MACs (LNX hw_atl2_hw_multicast_list_set): filter
 * l2_base + i with tag 1, which the "L2 promisc off" record lets pass. */
static int
a2_set_uc_filter(struct aqc_hw *hw, unsigned int i, const uint8_t mac[6], bool on)
{
	uint32_t f = hw->a2_l2_base + i;

	if (i >= hw->a2_l2_count || f >= AQC2_UC_FILTERS) {
		AQC_BASE_LOG(ERR, HW, "A2 unicast filter %u: the firmware grants %u from %u", i,
			     hw->a2_l2_count, hw->a2_l2_base);
		return -ENOSPC;
	}
	aqc_hw_set_uc_filter(hw, f, mac, false);
	aqc_wr(hw, AQC_R_RPF_UC_HI + 8 * f, aqc_rd(hw, AQC_R_RPF_UC_HI + 8 * f) |
	       (AQC2_UC_TAG_STATION << AQC2_UC_TAG_SHIFT));
	if (on)
		aqc_wr(hw, AQC_R_RPF_UC_HI + 8 * f, aqc_rd(hw, AQC_R_RPF_UC_HI + 8 * f) |
		       AQC_FMASK(UC_EN));
	return 0;
}

/* VLAN filter i as on A1 plus tag 1 in bits 15:12 (LNX hw_atl2_hw_vlan_set
 * for a filter without queue), so a matching frame has a non-zero VLAN tag
 * and escapes the "VLAN promisc off" record. */
static int
a2_set_vlan_filter(struct aqc_hw *hw, unsigned int i, uint16_t vid, bool on)
{
	aqc_hw_set_vlan_filter(hw, i, vid, false);
	if (on) {
		uint32_t off = AQC_RI(RPF_VLAN_FLT, i);
		uint32_t v = AQC_FPUT(VLANF_ID, vid) | AQC_FPUT(VLANF_ACTION, 1) |
			     (1u << AQC2_VLAN_TAG_SHIFT);

		aqc_wr(hw, off, v);
		aqc_wr(hw, off, v | AQC_FMASK(VLANF_EN));
	}
	return 0;
}

/* LNX hw_atl2_hw_vlan_ctrl: 0x5280 bit 1 and the "VLAN promisc off"
 * record. LNX also keeps that record disabled while the port is L2
 * promiscuous (netdev semantics); DPDK's VLAN filter offload is independent
 * of promiscuous mode, as it is on A1, so here only the VLAN setting counts. */
static int
a2_set_vlan_promisc(struct aqc_hw *hw, bool on)
{
	aqc_hw_set_vlan_promisc(hw, on);
	return aqc2_art_set(hw, hw->a2_art_base + AQC2_ART_VLAN_PROMISC_OFF, 0,
			    AQC2_TAG_VLAN_MASK | AQC2_TAG_UNTAG,
			    on ? AQC2_ACT_DISABLE : AQC2_ACT_DROP);
}

/* LNX hw_atl2_hw_new_rx_filter_promisc: the "L2 promisc off" record is
 * disabled in promiscuous mode; 0x5100 bit 3 as on A1. */
static int
a2_set_promisc(struct aqc_hw *hw, bool on)
{
	AQC_SET_FIELD(hw, L2_PROMISC, on ? 1 : 0);
	return aqc2_art_set(hw, hw->a2_art_base + AQC2_ART_L2_PROMISC_OFF, 0,
			    AQC2_TAG_UC_MASK | AQC2_TAG_ALLMC,
			    on ? AQC2_ACT_DISABLE : AQC2_ACT_DROP);
}

/* The A1 all-multicast bit (0x5270 bit 14) sets the ALLMC tag the "L2
 * promisc off" record looks at (LNX hw_atl_b0_hw_packet_filter_set). */
static int
a2_set_allmulti(struct aqc_hw *hw, bool on)
{
	aqc_hw_set_allmulti(hw, on);
	return 0;
}

static uint32_t
a2_rss_types(uint32_t types)
{
	uint32_t t = 0;

	if (types & AQC_RSS_T_IPV4)
		t |= AQC2_RSS_IPV4;
	if (types & AQC_RSS_T_IPV4_TCP)
		t |= AQC2_RSS_IPV4_TCP;
	if (types & AQC_RSS_T_IPV4_UDP)
		t |= AQC2_RSS_IPV4_UDP;
	if (types & AQC_RSS_T_IPV6)
		t |= AQC2_RSS_IPV6;
	if (types & AQC_RSS_T_IPV6_TCP)
		t |= AQC2_RSS_IPV6_TCP;
	if (types & AQC_RSS_T_IPV6_UDP)
		t |= AQC2_RSS_IPV6_UDP;
	return t;
}

/* §6.1 A2: one hash-type bit per flow type in 0x54C8 (A1's 0x5040 cannot
 * tell UDP from TCP); RETA entry e at 0x6200 + 4e, TC 0 in bits 4:0 as an
 * absolute queue (LNX hw_atl2_hw_rss_set writes tc * q_per_tc + entry). */
static int
a2_rss_apply(struct aqc_hw *hw, uint32_t types, const uint8_t key[AQC_RSS_KEY_LEN],
	     const uint8_t reta[AQC_RSS_RETA_SIZE])
{
	int rc;

	aqc_wr(hw, AQC_R_A2_RSS_TYPES, a2_rss_types(types));
	rc = aqc_hw_rss_key_set(hw, key);
	if (rc != 0)
		return rc;
	for (unsigned int e = 0; e < AQC_RSS_RETA_SIZE; e++) {
		uint32_t off = AQC_RI(A2_RSS_REDIR, e);

		aqc_wr(hw, off, (aqc_rd(hw, off) & ~0x1fu) | (reta[e] & 0x1fu));
	}
	aqc_wr(hw, AQC_R_RSS_CTL1, 0x80003333);
	return 0;
}

static void
a2_dump_regs(struct aqc_hw *hw, uint32_t *out)
{
	unsigned int k = AQC_REG_DUMP_COUNT;

	aqc_hw_dump_regs(hw, out);
#define A2_DUMP_ONE(name, off, stride, n, rst) \
	for (unsigned int i = 0; i < (n); i++) \
		out[k++] = aqc_rd(hw, (off) + (stride) * i);
	AQC2_REGS(A2_DUMP_ONE)
#undef A2_DUMP_ONE
}

static const char *const a2_xstat_names[] = {
#define A2_XSTAT_NAME(n) "mac_" #n,
	AQC2_FW_STATS(A2_XSTAT_NAME)
#undef A2_XSTAT_NAME
};
static_assert(RTE_DIM(a2_xstat_names) <= AQC_XSTATS_MAX, "xstats room");

const struct aqc_gen_ops aqc_a2_ops = {
	.name = "A2",
	.reset = a2_reset,
	.get_mac = aqc2_fw_get_mac,
	.init_paths = a2_init_paths,
	.set_link = aqc2_fw_set_link,
	.link_speed = aqc2_fw_link_speed,
	.set_station_mac = a2_set_station_mac,
	.set_promisc = a2_set_promisc,
	.set_allmulti = a2_set_allmulti,
	.set_uc_filter = a2_set_uc_filter,
	.set_vlan_filter = a2_set_vlan_filter,
	.set_vlan_promisc = a2_set_vlan_promisc,
	.rss_apply = a2_rss_apply,
	.rss_disable = aqc_hw_rss_disable,
	.stats_read = aqc2_fw_stats_read,
	.xstat_names = a2_xstat_names,
	.nb_xstats = RTE_DIM(a2_xstat_names),
	.stats_bits = 64,
	.nb_regs = AQC_REG_DUMP_COUNT + AQC2_REG_DUMP_COUNT,
	.dump_regs = a2_dump_regs,
};
