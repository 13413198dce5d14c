/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC chip model, A2 (AQC113) variant: MCP boot, the firmware behind the
 * shared IN/OUT buffers, the action resolver table and the A2 counters.
 * Sources: docs/ref/aqc.md §2.4, §3.4, §6.1, §6.5, §10.2; where that page is
 * silent, Linux hw_atl2/ and FreeBSD aq_fw_aq2.c (named inline).
 *
 * Registers and their behaviour
 *  0x001C MIF ID     0x203 (Antigua B0; AQtion aq_common.h AQ_MIF_ID_ATL2B0).
 *  0x3040 MIF boot   power-on 0x81000000 (BOOT_STARTED | FW_INIT_COMP_SUCCESS).
 *                    A write with REBOOT (bit 0) reboots the MCP: ~1 ms later
 *                    the register file resets (INFERRED: the reboot restarts
 *                    MAC and firmware as the A1 global reset does) and the
 *                    register reads BOOT_STARTED; ~2 ms after that the
 *                    firmware is up: 0x81000000, IN.mac and OUT filled.
 *  0x0F00            0; bit 0 only with fault HOSTBOOT. 0x0F08: ignored.
 *  0x0E00 / 0x0E04   the request handshake. The firmware takes IN when
 *                    0x0E00 bit 0 is 1, then clears 0x0E00 and 0x0E04.
 *                    On silicon 0x0E04 bit 0 follows the host's write at
 *                    once (FBSD calls the pair HOST_FINISHED_STATUS_WRITE /
 *                    _READ; both drivers poll for 0 straight after the
 *                    write). This register file cannot react to a store
 *                    synchronously, so a request may look taken slightly
 *                    before the model thread has applied it; fault NO_ACK
 *                    holds 0x0E04 bit 0 at 1, which is what a driver sees
 *                    when the firmware never takes a request.
 *  0x03AC (sem 3)    reads 1 (granted: no other agent competes in the
 *                    model); 0 with fault ART_SEM_BUSY.
 *  IN  0x12000..     mtu, link_control (mode), link_options (link_up,
 *                    rates), request_policy: taken at each handshake.
 *  OUT 0x13000..     transaction_id (A == B except while the firmware
 *                    writes; A != B forever with fault TORN), version
 *                    (bundle/mac/phy = cfg fw_version, iface 1 = "B0"
 *                    stats), link_status (rate code 7:4, duplex 11),
 *                    device_link_caps (cfg rates), stats (14 u64), and
 *                    filter_caps: L2 base 0 / 38 filters, ethertype 0/16,
 *                    VLAN 0/16, ART base 2 (records 0-15 reserved for the
 *                    firmware, a model choice) / 14 x 8 records.
 *  Link              up when the cable is in, mode ACTIVE, link_up set and
 *                    a requested rate is supported: the highest such rate,
 *                    20 ms after the request (autonegotiation), full duplex,
 *                    with the pause RX/TX asked for in link_options.
 *  ART 0x14000..     record i (tag, mask, action) applies when section
 *                    i / 8 is enabled (0x6FF0) and action bit 0 is set; the
 *                    lowest record with (input & mask) == (tag & mask) wins
 *                    (LNX hw_atl2.c comment on the ART). Drop, queue, or
 *                    TC (RSS queue from the 0x6200 table when RSS is on and
 *                    the frame was hashed, else the TC's first queue); no
 *                    match: queue 0.
 *  Input tag         unicast filter tag (0x5114 bits 27:22 of the enabled
 *                    filter matching the destination, multicast ones
 *                    included, or 0x50F0 for
 *                    broadcast when 0x5100 bit 0 is set), ALLMC (multicast
 *                    and 0x5270 bit 14), UNTAG (untagged and 0x5280 bit 2),
 *                    PCP and VLAN filter tag (0x5290 bits 15:12 of the
 *                    enabled filter holding the VID) of the outer tag.
 */
#include <string.h>

#include "aqc_model_priv.h"

#define A2_RESET_NS    1000000ull
#define A2_BOOT_NS     2000000ull
#define A2_AUTONEG_NS  20000000ull

static inline uint32_t
out_off(uint32_t off)
{
	return AQC2_FW_OUT + off;
}

/* OUT writes happen between counter A moving on and B following it. */
static void
out_begin(struct aqc_model *m)
{
	uint32_t t = aqm_rd(m, out_off(AQC2_OUT_TID));

	aqm_wr(m, out_off(AQC2_OUT_TID), (t & 0xffff0000u) | ((t + 1) & 0xffffu));
}

static void
out_end(struct aqc_model *m)
{
	uint32_t a = aqm_rd(m, out_off(AQC2_OUT_TID)) & 0xffffu;

	if (m->fault != AQC_FW_TORN)
		aqm_wr(m, out_off(AQC2_OUT_TID), a << 16 | a);
}

static void
publish_stats(struct aqc_model *m)
{
	out_begin(m);
	for (unsigned int i = 0; i < AQC2_ST_COUNT; i++) {
		aqm_wr(m, out_off(AQC2_OUT_STATS) + 8 * i, (uint32_t)m->st64[i]);
		aqm_wr(m, out_off(AQC2_OUT_STATS) + 8 * i + 4, (uint32_t)(m->st64[i] >> 32));
	}
	out_end(m);
	m->st_dirty = false;
}

/* Firmware up: what a driver reads once 0x3040 shows FW_INIT_COMP_SUCCESS. */
static void
fw_up(struct aqc_model *m)
{
	const uint8_t *mac = m->cfg.mac;
	uint32_t v = m->cfg.fw_version;
	uint32_t ver = (v >> 24) | ((v >> 16) & 0xffu) << 8 | (v & 0xffffu) << 16;

	aqm_wr(m, AQC_R_MIF_ID, AQC_MIF_ID_A2_B0);
	aqm_wr(m, AQC_RI(SEM, 2), 1);
	aqm_wr(m, AQC_RI(SEM, AQC2_ART_SEM), m->fault == AQC_FW_ART_SEM_BUSY ? 0 : 1);
	aqm_wr(m, AQC_R_A2_MCP_READ_DONE, m->fault == AQC_FW_NO_ACK ? 1 : 0);
	/* §3.4: IN.mac_address pre-filled, MAC[0] in the lowest byte */
	aqm_wr(m, AQC2_FW_IN + AQC2_IN_MAC, (uint32_t)mac[0] | (uint32_t)mac[1] << 8 |
	       (uint32_t)mac[2] << 16 | (uint32_t)mac[3] << 24);
	aqm_wr(m, AQC2_FW_IN + AQC2_IN_MAC + 4, (uint32_t)mac[4] | (uint32_t)mac[5] << 8);
	out_begin(m);
	aqm_wr(m, out_off(AQC2_OUT_VER_BUNDLE), ver);
	aqm_wr(m, out_off(AQC2_OUT_VER_MAC), ver);
	aqm_wr(m, out_off(AQC2_OUT_VER_PHY), ver);
	aqm_wr(m, out_off(AQC2_OUT_VER_IFACE), 1);
	aqm_wr(m, out_off(AQC2_OUT_LINK_STATUS), 0);
	aqm_wr(m, out_off(AQC2_OUT_DEV_LINK_CAPS), aqc2_lo_from_rates(m->cfg.rates));
	/* filter_caps bytes 0-11 (§3.4) */
	aqm_wr(m, out_off(AQC2_OUT_FILTER_CAPS), 0u | 38u << 8 | 0u << 16 | 16u << 24);
	aqm_wr(m, out_off(AQC2_OUT_FILTER_CAPS) + 4, 0u | 16u << 8);
	aqm_wr(m, out_off(AQC2_OUT_FILTER_CAPS) + 8, 2u << 16 | 14u << 24);
	out_end(m);
	memset(m->st64, 0, sizeof(m->st64));
	publish_stats(m);
	m->a2_link_ctl = 0;
	m->a2_link_opts = 0;
	m->autoneg_until = 0;
	if (m->fault == AQC_FW_TORN)
		aqm_wr(m, out_off(AQC2_OUT_TID), 0x00020001u);
	aqm_wr(m, AQC_R_A2_MIF_BOOT, AQC2_BOOT_STARTED | AQC2_BOOT_FW_INIT_OK);
	m->phase = AQM_READY;
}

void
aqm_a2_power_on(struct aqc_model *m)
{
	fw_up(m);
}

bool
aqm_a2_ctl_boot(struct aqc_model *m)
{
	uint32_t boot = aqm_rd(m, AQC_R_A2_MIF_BOOT);
	uint64_t now;

	if ((boot & AQC2_BOOT_REQ_REBOOT) && m->phase != AQM_IN_RESET) {
		m->phase = AQM_IN_RESET;
		m->phase_until = aqm_now_ns() + A2_RESET_NS;
		return true;
	}
	if (m->phase == AQM_READY)
		return false;
	now = aqm_now_ns();
	if (now < m->phase_until)
		return false;
	if (m->phase == AQM_IN_RESET) {
		aqm_wire_flush(m);
		aqm_regs_reset(m);
		aqm_wr(m, AQC_R_MIF_ID, AQC_MIF_ID_A2_B0);
		m->phase = AQM_BOOTING;
		if (m->fault == AQC_FW_BOOT_HANG) {
			m->phase_until = UINT64_MAX;
			return true;
		}
		aqm_wr(m, AQC_R_A2_MIF_BOOT, AQC2_BOOT_STARTED);
		m->phase_until = now + A2_BOOT_NS;
		return true;
	}
	/* boot over */
	if (m->fault == AQC_FW_INIT_FAIL || m->fault == AQC_FW_HOSTBOOT) {
		if (m->fault == AQC_FW_INIT_FAIL)
			aqm_wr(m, AQC_R_A2_MIF_BOOT, AQC2_BOOT_STARTED | AQC2_BOOT_FW_INIT_FAILED);
		else
			aqm_wr(m, AQC_R_A2_HOST_REQ, AQC2_HOST_REQ_READY);
		m->phase_until = UINT64_MAX;   /* no firmware runs */
		return true;
	}
	fw_up(m);
	return true;
}

static uint32_t
highest(uint32_t rates)
{
	static const struct { uint32_t rate, code; } order[] = {
		{ AQC_RATE_10G, AQC2_RATE_10G }, { AQC_RATE_5G, AQC2_RATE_5G },
		{ AQC_RATE_2G5, AQC2_RATE_2G5 }, { AQC_RATE_1G, AQC2_RATE_1G },
		{ AQC_RATE_100M, AQC2_RATE_100M }, { AQC_RATE_10M, AQC2_RATE_10M },
	};

	for (unsigned int i = 0; i < 6; i++)
		if (rates & order[i].rate)
			return order[i].code;
	return AQC2_RATE_INVALID;
}

bool
aqm_a2_ctl_fw(struct aqc_model *m)
{
	uint32_t code = AQC2_RATE_INVALID, st, want;
	bool work = false;

	/* request handshake: take IN, then clear both flags */
	if ((aqm_rd(m, AQC_R_A2_HOST_WRITE_DONE) & 1) && m->fault != AQC_FW_NO_ACK) {
		m->a2_link_ctl = aqm_rd(m, AQC2_FW_IN + AQC2_IN_LINK_CTL);
		m->a2_link_opts = aqm_rd(m, AQC2_FW_IN + AQC2_IN_LINK_OPTS);
		aqm_wr(m, AQC_R_A2_HOST_WRITE_DONE, 0);
		aqm_wr(m, AQC_R_A2_MCP_READ_DONE, 0);
		work = true;
	}
	if (m->cable_up && (m->a2_link_ctl & AQC2_MODE_MASK) == AQC2_MODE_ACTIVE &&
	    (m->a2_link_opts & AQC2_LO_LINK_UP))
		code = highest(aqc2_rates_from_lo(m->a2_link_opts) & m->cfg.rates);
	st = aqm_rd(m, out_off(AQC2_OUT_LINK_STATUS));
	if (code == AQC2_RATE_INVALID || (st & AQC2_LINK_RATE_MASK) != 0) {
		m->autoneg_until = 0;
	} else if (m->autoneg_until == 0) {
		m->autoneg_until = aqm_now_ns() + A2_AUTONEG_NS;
		code = AQC2_RATE_INVALID;
	} else if (aqm_now_ns() < m->autoneg_until) {
		code = AQC2_RATE_INVALID;
	}
	/* the model's link partner grants the pause asked for (OUT bits 9
	 * RX / 8 TX, FBSD struct aq2_link_status) */
	want = code == AQC2_RATE_INVALID ? 0 :
	       code << AQC2_LINK_RATE_SHIFT | AQC2_LINK_DUPLEX_FULL |
	       (m->a2_link_opts & AQC2_LO_PAUSE_RX ? 1u << 9 : 0) |
	       (m->a2_link_opts & AQC2_LO_PAUSE_TX ? 1u << 8 : 0);
	if (st != want) {
		out_begin(m);
		aqm_wr(m, out_off(AQC2_OUT_LINK_STATUS), want);
		out_end(m);
		if ((st & AQC2_LINK_RATE_MASK) != (want & AQC2_LINK_RATE_MASK))
			aqm_link_cause(m);
		work = true;
	}
	if (m->st_dirty) {
		publish_stats(m);
		work = true;
	}
	return work;
}

int
aqm_a2_steer(const struct aqc_model *m, const uint8_t *f, unsigned int ntags,
	     uint16_t tci, bool hashed, uint32_t hash)
{
	uint32_t l2 = aqm_rd(m, AQC_R_RPF_L2_CTL), tag = 0, sect, act;
	bool bc = (f[0] & f[1] & f[2] & f[3] & f[4] & f[5]) == 0xff;

	if (bc) {
		if (l2 & AQC_FMASK(L2_BC_EN))
			tag |= aqm_rd(m, AQC_R_A2_RPF_BC_TAG) & AQC2_TAG_UC_MASK;
	} else {
		/* multicast too: LNX hw_atl2_hw_multicast_list_set puts the
		 * list in these filters with tag 1 */
		if ((f[0] & 1) && (aqm_rd(m, AQC_R_RPF_MC_MASK) & AQC_FMASK(MC_ACCEPT_ALL)))
			tag |= AQC2_TAG_ALLMC;
		uint32_t lo = ((uint32_t)f[2] << 24) | ((uint32_t)f[3] << 16) |
			      ((uint32_t)f[4] << 8) | f[5];
		uint32_t hi = ((uint32_t)f[0] << 8) | f[1];

		for (unsigned int i = 0; i < AQC2_UC_FILTERS; i++) {
			uint32_t h = aqm_rd(m, AQC_R_RPF_UC_HI + 8 * i);

			if ((h & AQC_FMASK(UC_EN)) && AQC_FGET(UC_MAC_HI, h) == hi &&
			    aqm_rd(m, AQC_R_RPF_UC_LO + 8 * i) == lo) {
				tag |= (h & AQC2_UC_TAG_MASK) >> AQC2_UC_TAG_SHIFT;
				break;
			}
		}
	}
	if (ntags == 0 && (aqm_rd(m, AQC_R_RPF_VLAN_CTL) & AQC_FMASK(VLAN_ACCEPT_UNTAG)))
		tag |= AQC2_TAG_UNTAG;
	if (ntags > 0) {
		tag |= (uint32_t)(tci >> 13) << AQC2_TAG_PCP_SHIFT;
		/* the tag of the VLAN filter holding the outer VID (0x5290
		 * bits 15:12, LNX hw_atl2_rpf_vlan_flr_tag_set) */
		for (unsigned int i = 0; i < AQC_VLAN_FILTERS; i++) {
			uint32_t vf = aqm_rd(m, AQC_RI(RPF_VLAN_FLT, i));

			if ((vf & AQC_FMASK(VLANF_EN)) && AQC_FGET(VLANF_ID, vf) == (tci & 0xfffu)) {
				tag |= ((vf & AQC2_VLAN_TAG_MASK) >> AQC2_VLAN_TAG_SHIFT)
				       << AQC2_TAG_VLAN_SHIFT;
				break;
			}
		}
	}
	sect = aqm_rd(m, AQC_R_A2_ART_SECT_EN);
	for (unsigned int i = 0; i < AQC2_ART_RECORDS; i++) {
		uint32_t mask;

		if (!(sect & (1u << (i / 8))))
			continue;
		act = aqm_rd(m, AQC_RI(A2_ART_ACTION, i));
		if (!(act & AQC2_ACT_VALID))
			continue;
		mask = aqm_rd(m, AQC_RI(A2_ART_MASK, i));
		if ((tag & mask) != (aqm_rd(m, AQC_RI(A2_ART_TAG, i)) & mask))
			continue;
		if (!(act & AQC2_ACT_HOST))
			return -1;
		if (act & AQC2_ACT_IS_TC) {
			unsigned int tc = ((act & AQC2_ACT_INDEX_MASK) >> AQC2_ACT_INDEX_SHIFT) & 7;

			if (hashed && (aqm_rd(m, AQC_R_RSS_CTL1) & AQC_FMASK(RSS_EN)))
				return (int)((aqm_rd(m, AQC_R_A2_RSS_REDIR + 0x100u * (tc > 3) +
						     4 * (hash & 63)) >> (5 * (tc % 4))) & 0x1f);
			return (int)(tc * 8 % AQM_RINGS);
		}
		return (int)((act & AQC2_ACT_INDEX_MASK) >> AQC2_ACT_INDEX_SHIFT);
	}
	return 0;
}

void
aqm_a2_count(struct aqc_model *m, bool rx, const uint8_t *f, uint32_t len, bool error)
{
	bool bc = (f[0] & f[1] & f[2] & f[3] & f[4] & f[5]) == 0xff;
	unsigned int base = rx ? AQC2_ST_rx_good_octets : AQC2_ST_tx_good_octets;

	m->st_dirty = true;
	if (error) {
		m->st64[rx ? AQC2_ST_rx_errors : AQC2_ST_tx_errors]++;
		return;
	}
	/* B0 layout: rx and tx blocks have the same shape, 7 counters each */
	m->st64[base + 0] += len;                  /* good octets */
	m->st64[base + 2]++;                       /* good frames */
	m->st64[base + (bc ? 6 : (f[0] & 1) ? 5 : 4)]++;
}
