/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Chip generation at probe and the A1 operations table (the A2 table is in
 * aqc2_hw.c). The A1 entries wrap the functions of aqc_hw.c / aqc_fw.c /
 * the RSS hash types below, which stay the A1 implementation.
 */
#include <errno.h>

#include <rte_common.h>

#include "aqc_hw.h"
#include "aqc_base_log.h"
#include "aqc2_regs.h"

int
aqc_gen_detect(struct aqc_hw *hw)
{
	uint32_t id = aqc_rd(hw, AQC_R_MIF_ID);

	hw->mif_id = id;
	/* docs/ref/aqc.md §2.1: a vanished device reads all ones */
	if (id == 0xffffffffu) {
		AQC_BASE_LOG(ERR, HW, "MIF ID reads 0xffffffff: device not responding");
		return -ENODEV;
	}
	/* Bits 9:8 = 2 only on Antigua (A2). A1 drivers look at the low
	 * nibble alone (LNX hw_atl_utils_hw_chip_features_init), so any
	 * other value is taken as A1. */
	hw->gen = AQC_MIF_FAMILY(id) == AQC_MIF_FAMILY_A2 ? AQC_GEN_A2 : AQC_GEN_A1;
	if (hw->pci_device != 0 && aqc2_is_a2_device(hw->pci_device) !=
	    (hw->gen == AQC_GEN_A2))
		AQC_BASE_LOG(WARNING, HW, "PCI device 0x%04x but MIF ID 0x%x says %s; following the MIF ID",
			     hw->pci_device, id, aqc_ops(hw)->name);
	AQC_BASE_LOG(INFO, HW, "MIF ID 0x%03x: %s generation", id, aqc_ops(hw)->name);
	return 0;
}

/* ---- A1 ---- */

static int
a1_reset(struct aqc_hw *hw)
{
	int rc = aqc_hw_soft_reset(hw);

	return rc != 0 ? rc : aqc_fw_init(hw);
}

static int
a1_init_paths(struct aqc_hw *hw, bool rx_csum, bool tx_csum)
{
	aqc_hw_init_paths(hw, rx_csum, tx_csum);
	return 0;
}

/* §3.3: rate mask into MPI_CTL, then state INIT (LINK_DROP clear) or
 * DEINIT (set). */
static int
a1_set_link(struct aqc_hw *hw, uint32_t rates, bool up)
{
	aqc_fw_set_link(hw, rates);
	aqc_fw_set_state(hw, up);
	return 0;
}

static int
a1_set_station_mac(struct aqc_hw *hw, const uint8_t mac[6])
{
	aqc_hw_set_uc_filter(hw, 0, mac, true);
	return 0;
}

static int
a1_set_promisc(struct aqc_hw *hw, bool on)
{
	aqc_hw_set_promisc(hw, on);
	return 0;
}

static int
a1_set_allmulti(struct aqc_hw *hw, bool on)
{
	aqc_hw_set_allmulti(hw, on);
	return 0;
}

static int
a1_set_uc_filter(struct aqc_hw *hw, unsigned int i, const uint8_t mac[6], bool on)
{
	aqc_hw_set_uc_filter(hw, i, mac, on);
	return 0;
}

static int
a1_set_vlan_filter(struct aqc_hw *hw, unsigned int i, uint16_t vid, bool on)
{
	aqc_hw_set_vlan_filter(hw, i, vid, on);
	return 0;
}

static int
a1_set_vlan_promisc(struct aqc_hw *hw, bool on)
{
	aqc_hw_set_vlan_promisc(hw, on);
	return 0;
}

static int
a1_stats_read(struct aqc_hw *hw, uint64_t *now)
{
	struct aqc_fw_stats s;
	const uint32_t *w = (const uint32_t *)&s;
	int rc = aqc_fw_read_stats(hw, &s);

	if (rc != 0)
		return rc;
	for (unsigned int i = 0; i < sizeof(s) / 4; i++)
		now[i] = w[i];
	return 0;
}

/* docs/ref/aqc.md §6.1: 0x5040 bits: 4 IPv4, 3 IPv4+TCP, 2 IPv6, 1 IPv6+TCP, 0 no UDP.
 * The chip tells UDP from TCP by that one bit only: UDP flows use their IP
 * version's TCP setting, so UDP ports are hashed iff UDP is asked for and
 * TCP is asked for the same IP version. */
static uint32_t
a1_rss_types(uint32_t types)
{
	uint32_t t = 0;

	if (types & AQC_RSS_T_IPV4)
		t |= 1u << 4;
	if (types & AQC_RSS_T_IPV4_TCP)
		t |= 1u << 3;
	if (types & AQC_RSS_T_IPV6)
		t |= 1u << 2;
	if (types & AQC_RSS_T_IPV6_TCP)
		t |= 1u << 1;
	if (!(types & (AQC_RSS_T_IPV4_UDP | AQC_RSS_T_IPV6_UDP)))
		t |= 1u;
	return t;
}

/* Hash types into 0x5040, then key, RETA, enable. */
static int
a1_rss_apply(struct aqc_hw *hw, uint32_t types, const uint8_t key[AQC_RSS_KEY_LEN],
	     const uint8_t reta[AQC_RSS_RETA_SIZE])
{
	aqc_hw_rss_types(hw, a1_rss_types(types));
	return aqc_hw_rss_set(hw, key, reta);
}

static const char *const a1_xstat_names[] = {
#define AQC_XSTAT_NAME(n) "mac_" #n,
	AQC_FW_STATS(AQC_XSTAT_NAME)
#undef AQC_XSTAT_NAME
};
static_assert(RTE_DIM(a1_xstat_names) <= AQC_XSTATS_MAX, "xstats room");

const struct aqc_gen_ops aqc_a1_ops = {
	.name = "A1",
	.reset = a1_reset,
	.get_mac = aqc_fw_get_mac,
	.init_paths = a1_init_paths,
	.set_link = a1_set_link,
	.link_speed = aqc_fw_link_speed,
	.set_station_mac = a1_set_station_mac,
	.set_promisc = a1_set_promisc,
	.set_allmulti = a1_set_allmulti,
	.set_uc_filter = a1_set_uc_filter,
	.set_vlan_filter = a1_set_vlan_filter,
	.set_vlan_promisc = a1_set_vlan_promisc,
	.rss_apply = a1_rss_apply,
	.rss_disable = aqc_hw_rss_disable,
	.stats_read = a1_stats_read,
	.xstat_names = a1_xstat_names,
	.nb_xstats = RTE_DIM(a1_xstat_names),
	.stats_bits = 32,
	.nb_regs = AQC_REG_DUMP_COUNT,
	.dump_regs = aqc_hw_dump_regs,
	.sfp_read = aqc_fw_sfp_read,
};
