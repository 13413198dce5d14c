/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC hardware layer: VLAN filters, TPIDs, per-ring VLAN stripping
 * (docs/ref/aqc.md §6.6) and the negotiated pause state (docs/ref/aqc.md
 * §3.3). Knows nothing of ethdev.
 */
#include "aqc_hw.h"

/* §6.6: 0x5290 + 4i -- bit 31 enable, 18:16 action (1 = to host), 11:0 VID.
 * Written disabled first, then enabled, as the unicast filters are (§6.4). */
void
aqc_hw_set_vlan_filter(struct aqc_hw *hw, unsigned int i, uint16_t vid, bool on)
{
	uint32_t v = AQC_FPUT(VLANF_ID, vid) | AQC_FPUT(VLANF_ACTION, 1);

	aqc_wr(hw, AQC_RI(RPF_VLAN_FLT, i), 0);
	if (on) {
		aqc_wr(hw, AQC_RI(RPF_VLAN_FLT, i), v);
		aqc_wr(hw, AQC_RI(RPF_VLAN_FLT, i), v | AQC_FMASK(VLANF_EN));
	}
}

void
aqc_hw_set_vlan_promisc(struct aqc_hw *hw, bool on)
{
	AQC_SET_FIELD(hw, VLAN_PROMISC, on ? 1 : 0);
}

void
aqc_hw_set_tpid(struct aqc_hw *hw, bool outer, uint16_t tpid)
{
	if (outer)
		AQC_SET_FIELD(hw, VLAN_TPID_OUTER, tpid);
	else
		AQC_SET_FIELD(hw, VLAN_TPID_INNER, tpid);
}

/* §4.1: 0x5B08 + 0x20n bit 29, changed on a running ring. */
void
aqc_hw_rx_ring_vlan_strip(struct aqc_hw *hw, unsigned int n, bool on)
{
	aqc_wr_field(hw, AQC_RI(RXD_CTL, n), AQC_FMASK(RXD_VLAN_STRIP),
		     AQC_FSHIFT(RXD_VLAN_STRIP), on ? 1 : 0);
}

void
aqc_fw_get_pause(struct aqc_hw *hw, bool *rx, bool *tx)
{
	uint32_t st2 = aqc_rd(hw, AQC_R_MPI_STATE2);

	*rx = AQC_FGET(STATE2_PAUSE_RX, st2) != 0;
	*tx = AQC_FGET(STATE2_PAUSE_TX, st2) != 0;
}
