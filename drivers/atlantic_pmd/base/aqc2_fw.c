/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC A2 firmware interface: the shared IN/OUT buffers in BAR0 (docs/ref/aqc.md §3.4).
 *
 * The driver writes IN (0x12000...) and then raises "host finished write"
 * (0x0E00 = 1); the firmware has taken the request when "MCP finished read"
 * (0x0E04 bit 0) reads 0 again. OUT (0x13000...) is written by the firmware
 * under a transaction counter: a block read is consistent when counters A
 * and B were equal before it, and unchanged after it.
 * Timeouts are the Linux driver's (hw_atl2_utils_fw.c): 100 us polls, 100 ms
 * per request, 5 s for the first request after a boot; 1000 tries with 1 ms
 * waits for a consistent OUT read.
 */
#include <errno.h>
#include <string.h>

#include <rte_cycles.h>

#include "aqc_hw.h"
#include "aqc_base_log.h"
#include "aqc2_fw.h"

static inline uint32_t
in_rd(struct aqc_hw *hw, uint32_t off)
{
	return aqc_rd(hw, AQC2_FW_IN + off);
}

static inline void
in_wr(struct aqc_hw *hw, uint32_t off, uint32_t v)
{
	aqc_wr(hw, AQC2_FW_IN + off, v);
}

int
aqc2_fw_read_out(struct aqc_hw *hw, uint32_t off, uint32_t *dst, unsigned int n)
{
	unsigned int tries = 0;
	uint32_t t1, t2;

	for (;;) {
		do {
			t1 = aqc_rd(hw, AQC2_FW_OUT + AQC2_OUT_TID);
			if (++tries > AQC2_READ_TRIES)
				goto torn;
			if ((t1 & 0xffff) != (t1 >> 16))
				rte_delay_us_sleep(1000);   /* firmware is writing */
		} while ((t1 & 0xffff) != (t1 >> 16));
		for (unsigned int i = 0; i < n; i++)
			dst[i] = aqc_rd(hw, AQC2_FW_OUT + off + 4 * i);
		t2 = aqc_rd(hw, AQC2_FW_OUT + AQC2_OUT_TID);
		if (t2 == t1)
			return 0;
		if (++tries > AQC2_READ_TRIES)
			goto torn;
	}
torn:
	AQC_BASE_LOG(ERR, FW, "A2 firmware OUT buffer never consistent (transaction id 0x%08x) after %u tries",
		     aqc_rd(hw, AQC2_FW_OUT + AQC2_OUT_TID), AQC2_READ_TRIES);
	return -ETIMEDOUT;
}

int
aqc2_fw_request(struct aqc_hw *hw, unsigned int timeout_us, const char *what)
{
	aqc_wr(hw, AQC_R_A2_HOST_WRITE_DONE, 1);
	if (aqc_hw_poll(hw, AQC_R_A2_MCP_READ_DONE, 1, 0, 100, timeout_us / 100) == 0)
		return 0;
	AQC_BASE_LOG(ERR, FW, "A2 firmware did not acknowledge %s within %u ms (0x0E04 bit 0 still 1)",
		     what, timeout_us / 1000);
	return -ETIMEDOUT;
}

int
aqc2_fw_init(struct aqc_hw *hw)
{
	uint32_t ver[4], caps[3], dev_caps;
	int rc;

	rc = aqc2_fw_read_out(hw, AQC2_OUT_VER_BUNDLE, ver, 4);
	if (rc != 0)
		return rc;
	/* LNX hw_atl2_utils_get_fw_version: major<<24 | minor<<16 | build */
	hw->fw_version = (ver[0] & 0xff) << 24 | ((ver[0] >> 8) & 0xff) << 16 | ver[0] >> 16;
	hw->a2_stats_iface = ver[3] & 0xf;
	if ((hw->fw_version >> 24) != AQC2_FW_MAJOR)
		/* LNX logs "Bad FW version detected" and continues */
		AQC_BASE_LOG(WARNING, FW, "A2 FW %u.%u.%u: expected major %u, continuing",
			     hw->fw_version >> 24, (hw->fw_version >> 16) & 0xff,
			     hw->fw_version & 0xffff, AQC2_FW_MAJOR);
	if (hw->a2_stats_iface != 1)
		AQC_BASE_LOG(WARNING, FW, "A2 FW statistics interface %u (\"A0\" layout) is not supported: xstats stay 0",
			     hw->a2_stats_iface);
	rc = aqc2_fw_read_out(hw, AQC2_OUT_FILTER_CAPS, caps, 3);
	if (rc == 0)
		rc = aqc2_fw_read_out(hw, AQC2_OUT_DEV_LINK_CAPS, &dev_caps, 1);
	if (rc != 0)
		return rc;
	hw->a2_l2_base = AQC2_FC_L2_BASE(caps[0]);
	hw->a2_l2_count = AQC2_FC_L2_COUNT(caps[0]);
	hw->a2_art_base = 8u * AQC2_FC_ART_BASE(caps[2]);
	hw->a2_art_count = AQC2_FC_ART_COUNT(caps[2]) ? 8u * AQC2_FC_ART_COUNT(caps[2]) :
			   AQC2_ART_RECORDS;
	/* the driver's records run from base + 0 to base + PCP_TO_TC + 7 */
	if (hw->a2_art_base + AQC2_ART_PCP_TO_TC + 8 > AQC2_ART_RECORDS ||
	    hw->a2_art_count < AQC2_ART_PCP_TO_TC + 8 ||
	    hw->a2_l2_base >= AQC2_UC_FILTERS || hw->a2_l2_count == 0) {
		AQC_BASE_LOG(ERR, FW, "A2 FW filter caps unusable: ART base %u count %u, L2 base %u count %u",
			     hw->a2_art_base, hw->a2_art_count, hw->a2_l2_base, hw->a2_l2_count);
		return -EIO;
	}
	hw->caps_lo = aqc2_rates_from_lo(dev_caps);
	if (hw->pci_device != 0)
		hw->caps_lo &= aqc2_device_rates(hw->pci_device);
	/* §3.4 init: link_control.mode ACTIVE, mtu 16352, request policy
	 * (broadcast and multicast to queue/TC 0), then the first request. */
	in_wr(hw, AQC2_IN_LINK_CTL, (in_rd(hw, AQC2_IN_LINK_CTL) & ~AQC2_MODE_MASK) |
	      AQC2_MODE_ACTIVE);
	in_wr(hw, AQC2_IN_MTU, AQC_MAX_FRAME);
	in_wr(hw, AQC2_IN_REQ_POLICY, AQC2_RP_BC_ACCEPT | AQC2_RP_BC_Q_OR_TC |
	      AQC2_RP_MC_ACCEPT | AQC2_RP_MC_Q_OR_TC | AQC2_RP_PROMISC_Q_OR_TC);
	rc = aqc2_fw_request(hw, AQC2_ACK_INIT_US, "the interface init");
	if (rc != 0)
		return rc;
	AQC_BASE_LOG(INFO, FW, "A2 FW %u.%u.%u, rates 0x%x, ART %u+%u, L2 base %u",
		     hw->fw_version >> 24, (hw->fw_version >> 16) & 0xff,
		     hw->fw_version & 0xffff, hw->caps_lo, hw->a2_art_base,
		     hw->a2_art_count, hw->a2_l2_base);
	return 0;
}

int
aqc2_fw_get_mac(struct aqc_hw *hw, uint8_t mac[6])
{
	/* §3.4: the firmware pre-fills IN.mac_address, MAC[0] lowest byte */
	uint32_t lo = in_rd(hw, AQC2_IN_MAC), hi = in_rd(hw, AQC2_IN_MAC + 4);

	for (unsigned int i = 0; i < 4; i++)
		mac[i] = lo >> (8 * i);
	mac[4] = hi;
	mac[5] = hi >> 8;
	aqc_fw_mac_fallback(mac);
	return 0;
}

int
aqc2_fw_set_link(struct aqc_hw *hw, uint32_t rates, bool up)
{
	uint32_t lo = in_rd(hw, AQC2_IN_LINK_OPTS);

	/* set_link_speed + set_state INIT/DEINIT (§3.4); pause RX/TX from the
	 * flow-control request, kept as A1's MPI_CTL2 bits 3/4 */
	lo &= ~(AQC2_LO_RATES | AQC2_LO_LINK_UP | AQC2_LO_PAUSE_RX | AQC2_LO_PAUSE_TX);
	lo |= aqc2_lo_from_rates(rates) | (up ? AQC2_LO_LINK_UP : 0);
	if (up && (hw->fc_request & AQC_FMASK(CTL2_PAUSE)))
		lo |= AQC2_LO_PAUSE_RX;
	if (up && (hw->fc_request & AQC_FMASK(CTL2_ASYM_PAUSE)))
		lo |= AQC2_LO_PAUSE_TX;
	hw->link_rates = rates;
	in_wr(hw, AQC2_IN_LINK_OPTS, lo);
	return aqc2_fw_request(hw, AQC2_ACK_US, up ? "the link-up request" :
						     "the link-down request");
}

uint32_t
aqc2_fw_link_speed(struct aqc_hw *hw)
{
	static const uint32_t mbps[] = {
		[AQC2_RATE_10M] = 10, [AQC2_RATE_100M] = 100, [AQC2_RATE_1G] = 1000,
		[AQC2_RATE_2G5] = 2500, [AQC2_RATE_5G] = 5000, [AQC2_RATE_10G] = 10000,
	};
	/* one dword: atomic, no transaction protocol (LNX reads it plainly) */
	uint32_t code = (aqc_rd(hw, AQC2_FW_OUT + AQC2_OUT_LINK_STATUS) &
			 AQC2_LINK_RATE_MASK) >> AQC2_LINK_RATE_SHIFT;

	return code < RTE_DIM(mbps) ? mbps[code] : 0;
}

int
aqc2_fw_stats_read(struct aqc_hw *hw, uint64_t *now)
{
	uint32_t raw[AQC2_ST_COUNT * 2];
	int rc;

	if (hw->a2_stats_iface != 1) {
		memset(now, 0, sizeof(*now) * AQC2_ST_COUNT);
		return 0;
	}
	rc = aqc2_fw_read_out(hw, AQC2_OUT_STATS, raw, RTE_DIM(raw));
	if (rc != 0)
		return rc;
	for (unsigned int i = 0; i < AQC2_ST_COUNT; i++)
		now[i] = (uint64_t)raw[2 * i + 1] << 32 | raw[2 * i];
	return 0;
}
