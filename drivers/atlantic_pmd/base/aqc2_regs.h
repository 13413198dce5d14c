/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC A2 generation (AQC113 family, "Antigua") registers and firmware
 * shared-buffer layout, as data. The A1 list (aqc_regs.h) still holds every
 * register both generations share (rings, descriptors, DMA counters, RSS key,
 * unicast/VLAN filter words); this file adds only what A2 has on top.
 *
 * Sources (primary): Linux drivers/net/ethernet/aquantia/atlantic/hw_atl2/
 * (hw_atl2_utils.h/.c, hw_atl2_utils_fw.c, hw_atl2_llh_internal.h,
 * hw_atl2_internal.h, hw_atl2.c), Marvell's AQtion tree (aq_common.h
 * AQ_MIF_ID_*), and the FreeBSD/OpenBSD aq2 code (aq_fw_aq2.c, aq_hw_aq2.h).
 *
 * AQC2_REGS(X): X(name, offset, stride, count, reset value) like AQC_REGS;
 * the chip model resets them, the register dump of an A2 port lists them.
 */
#ifndef AQC2_REGS_H
#define AQC2_REGS_H

#include <assert.h>
#include <stdint.h>

#include "aqc_regs.h"

/*
 * MIF ID (0x001C) bits 9:8 name the silicon family: 1 on Atlantic (A1:
 * AQ_MIF_ID_ATL_A0 0x101, B0 0x102, B1 0x10A), 2 on Antigua (A2: ANT_A0
 * 0x200, ATL2 B0 0x203) -- AQtion aq_common.h. The model's A2 reads 0x203.
 */
#define AQC_MIF_FAMILY(v)   (((v) >> 8) & 0x3u)
#define AQC_MIF_FAMILY_A1   1u
#define AQC_MIF_FAMILY_A2   2u
#define AQC_MIF_ID_A1_B1    0x10au
#define AQC_MIF_ID_A2_B0    0x203u

/* 10M is CAPS_LO bit 1 ("10BASE-T FD", docs/ref/aqc.md §3.3); only A2 links at 10M. */
#define AQC_RATE_10M        (1u << 1)

#define AQC2_REGS(X) \
	/* §3.4: host-finished-write / MCP-finished-read handshake */ \
	X(A2_HOST_WRITE_DONE,  0x0e00, 0, 1, 0) \
	X(A2_MCP_READ_DONE,    0x0e04, 0, 1, 0) \
	/* §2.4: MCP host-request interrupt and its clear */ \
	X(A2_HOST_REQ,         0x0f00, 0, 1, 0) \
	X(A2_HOST_REQ_CLR,     0x0f08, 0, 1, 0) \
	/* §2.4: MIF boot register (request bits 11:0, status 31:16) */ \
	X(A2_MIF_BOOT,         0x3040, 0, 1, 0) \
	/* §6.4: broadcast filter tag (hw_atl2_llh_internal.h 0x50F0) */ \
	X(A2_RPF_BC_TAG,       0x50f0, 0, 1, 0) \
	/* §10.2: "new" RX filter engine enable, bit 11 */ \
	X(A2_RPF_NEW_EN,       0x5104, 0, 1, 0) \
	/* §6.1: A2 hash types, bits 8:0 */ \
	X(A2_RSS_TYPES,        0x54c8, 0, 1, 0) \
	/* §6.2: RX queue -> TC map (3 bits per queue at 4*(q%8)) */ \
	X(A2_RX_Q_TC_MAP,      0x5900, 4, 4, 0) \
	/* §6.1: RSS redirection, 64 entries, 5-bit queue per TC at 5*tc */ \
	X(A2_RSS_REDIR,        0x6200, 4, 64, 0) \
	/* §6.7: L3 filter command; bit 23 = v6/v4 select (LNX writes 1) */ \
	X(A2_RPF_L3_CMD0,      0x6500, 0, 1, 0) \
	/* §6.5: ART section enables, one bit per 8 records */ \
	X(A2_ART_SECT_EN,      0x6ff0, 0, 1, 0) \
	/* §6.2: TX queue -> TC map (3 bits per queue at 8*(q%4)) */ \
	X(A2_TX_Q_TC_MAP,      0x799c, 4, 8, 0) \
	/* §4.2: A2 TX interrupt moderation, stride 0x40 */ \
	X(A2_TX_ITR_MOD,       0x7c28, 0x40, 32, 0) \
	/* §6.5: action resolver records: requested tag, tag mask, action */ \
	X(A2_ART_TAG,          0x14000, 0x10, 128, 0) \
	X(A2_ART_MASK,         0x14004, 0x10, 128, 0) \
	X(A2_ART_ACTION,       0x14008, 0x10, 128, 0)

enum aqc2_reg {
#define AQC2_REG_ENUM(name, off, stride, n, rst) \
	AQC_R_##name = (off), AQC_R_##name##_STRIDE = (stride),
	AQC2_REGS(AQC2_REG_ENUM)
#undef AQC2_REG_ENUM
};

#define AQC2_REG_COUNT_ONE(name, off, stride, n, rst) + (n)
#define AQC2_REG_DUMP_COUNT (0 AQC2_REGS(AQC2_REG_COUNT_ONE))

/* §2.4: MIF boot register bits (LNX hw_atl2_utils.c AQ_A2_*). */
#define AQC2_BOOT_REQ_REBOOT     (1u << 0)
#define AQC2_BOOT_REQ_HOST_BOOT  (1u << 8)
#define AQC2_BOOT_STARTED        (1u << 24)
#define AQC2_BOOT_CRASH_INIT     (1u << 27)
#define AQC2_BOOT_CODE_FAILED    (1u << 28)
#define AQC2_BOOT_FW_INIT_FAILED (1u << 29)
#define AQC2_BOOT_FW_INIT_OK     (1u << 31)
#define AQC2_BOOT_FAILED_MASK \
	(AQC2_BOOT_CRASH_INIT | AQC2_BOOT_CODE_FAILED | AQC2_BOOT_FW_INIT_FAILED)
#define AQC2_BOOT_DONE_MASK      (AQC2_BOOT_FAILED_MASK | AQC2_BOOT_FW_INIT_OK)
#define AQC2_HOST_REQ_READY      (1u << 0)    /* FW wants a host boot */

/* §2.4 polls (LNX hw_atl2_utils_soft_reset): 10 us steps, 200 ms for
 * BOOT_STARTED, 2 s for completion. §3.4 handshake: 100 us steps, 100 ms
 * normally, 5 s at FW init (hw_atl2_utils_fw.c). Consistent reads of OUT:
 * at most 1000 tries with 1 ms waits (AQ_A2_FW_READ_TRY_MAX). */
#define AQC2_BOOT_START_US       200000u
#define AQC2_BOOT_DONE_US        2000000u
#define AQC2_ACK_US              100000u
#define AQC2_ACK_INIT_US         5000000u
#define AQC2_READ_TRIES          1000u

/* ---- §3.4 firmware shared buffers in BAR0 ---- */
#define AQC2_FW_IN               0x12000u
#define AQC2_FW_IN_SIZE          0xa5cu
#define AQC2_FW_OUT              0x13000u
#define AQC2_FW_OUT_SIZE         0x1000u

/* IN (driver -> FW) byte offsets */
#define AQC2_IN_MTU              0x000u
#define AQC2_IN_MAC              0x008u   /* 6 bytes, MAC[0] lowest byte */
#define AQC2_IN_LINK_CTL         0x010u
#define AQC2_IN_LINK_OPTS        0x018u
#define AQC2_IN_REQ_POLICY       0xa58u

/* IN.link_control bits 3:0 mode; bit 13 promiscuous */
#define AQC2_MODE_MASK           0xfu
#define AQC2_MODE_ACTIVE         1u
#define AQC2_MODE_SHUTDOWN       4u

/* IN.link_options */
#define AQC2_LO_LINK_UP          (1u << 0)
#define AQC2_LO_10M_HD           (1u << 5)
#define AQC2_LO_100M_HD          (1u << 6)
#define AQC2_LO_1G_HD            (1u << 7)
#define AQC2_LO_10M              (1u << 8)
#define AQC2_LO_100M             (1u << 9)
#define AQC2_LO_1G               (1u << 10)
#define AQC2_LO_2G5              (1u << 11)
#define AQC2_LO_N2G5             (1u << 12)
#define AQC2_LO_5G               (1u << 13)
#define AQC2_LO_N5G              (1u << 14)
#define AQC2_LO_10G              (1u << 15)
#define AQC2_LO_RATES            (0xffu << 8 | 0x7u << 5)
#define AQC2_LO_PAUSE_RX         (1u << 24)
#define AQC2_LO_PAUSE_TX         (1u << 25)

/* link_options / device_link_caps rate bits <-> AQC_RATE_* masks; 5G
 * also sets N5G and 2.5G also N2.5G (LNX a2_link_speed_mask2fw). */
static inline uint32_t
aqc2_lo_from_rates(uint32_t r)
{
	return (r & AQC_RATE_10M ? AQC2_LO_10M : 0) | (r & AQC_RATE_100M ? AQC2_LO_100M : 0) |
	       (r & AQC_RATE_1G ? AQC2_LO_1G : 0) |
	       (r & AQC_RATE_2G5 ? AQC2_LO_2G5 | AQC2_LO_N2G5 : 0) |
	       (r & AQC_RATE_5G ? AQC2_LO_5G | AQC2_LO_N5G : 0) |
	       (r & AQC_RATE_10G ? AQC2_LO_10G : 0);
}

static inline uint32_t
aqc2_rates_from_lo(uint32_t b)
{
	return (b & AQC2_LO_10M ? AQC_RATE_10M : 0) | (b & AQC2_LO_100M ? AQC_RATE_100M : 0) |
	       (b & AQC2_LO_1G ? AQC_RATE_1G : 0) | (b & AQC2_LO_2G5 ? AQC_RATE_2G5 : 0) |
	       (b & AQC2_LO_5G ? AQC_RATE_5G : 0) | (b & AQC2_LO_10G ? AQC_RATE_10G : 0);
}

/* IN.request_policy: broadcast/multicast accept to queue/TC 0 (§3.4 init) */
#define AQC2_RP_PROMISC_ALL      (1u << 0)
#define AQC2_RP_PROMISC_MC       (1u << 1)
#define AQC2_RP_PROMISC_Q_OR_TC  (1u << 7)
#define AQC2_RP_BC_ACCEPT        (1u << 8)
#define AQC2_RP_BC_Q_OR_TC       (1u << 15)
#define AQC2_RP_MC_ACCEPT        (1u << 16)
#define AQC2_RP_MC_Q_OR_TC       (1u << 23)

/* OUT (FW -> driver) byte offsets */
#define AQC2_OUT_TID             0x000u   /* 15:0 counter A, 31:16 B */
#define AQC2_OUT_VER_BUNDLE      0x004u   /* byte0 major, byte1 minor, 31:16 build */
#define AQC2_OUT_VER_MAC         0x008u
#define AQC2_OUT_VER_PHY         0x00cu
#define AQC2_OUT_VER_IFACE       0x010u   /* 3:0: 0 = A0 stats, 1 = B0 stats */
#define AQC2_OUT_LINK_STATUS     0x014u   /* 7:4 rate, 11 duplex */
#define AQC2_OUT_DEV_LINK_CAPS   0x648u   /* same rate bits as link_options */
#define AQC2_OUT_LKP_LINK_CAPS   0x660u
#define AQC2_OUT_STATS           0x700u
#define AQC2_OUT_FILTER_CAPS     0x774u   /* 12 bytes */

/* OUT.link_status rate codes (bits 7:4) */
#define AQC2_LINK_RATE_SHIFT     4
#define AQC2_LINK_RATE_MASK      (0xfu << 4)
#define AQC2_LINK_DUPLEX_FULL    (1u << 11)
enum { AQC2_RATE_INVALID, AQC2_RATE_10M, AQC2_RATE_100M, AQC2_RATE_1G,
       AQC2_RATE_2G5, AQC2_RATE_5G, AQC2_RATE_10G };

/* Expected FW major (HW_ATL2_FW_VER_1X); LNX continues on a mismatch. */
#define AQC2_FW_MAJOR            1u

/*
 * OUT.stats in the "B0" layout (iface version 1): fourteen packed u64 then
 * main_loop_cycles (§3.4). One list gives the model's layout and the
 * driver's xstats names.
 */
#define AQC2_FW_STATS(S) \
	S(rx_good_octets) S(rx_pause_frames) S(rx_good_frames) S(rx_errors) \
	S(rx_unicast_frames) S(rx_multicast_frames) S(rx_broadcast_frames) \
	S(tx_good_octets) S(tx_pause_frames) S(tx_good_frames) S(tx_errors) \
	S(tx_unicast_frames) S(tx_multicast_frames) S(tx_broadcast_frames)

enum aqc2_fw_stat {
#define AQC2_FW_STAT_ENUM(n) AQC2_ST_##n,
	AQC2_FW_STATS(AQC2_FW_STAT_ENUM)
#undef AQC2_FW_STAT_ENUM
	AQC2_ST_COUNT
};
static_assert(AQC2_ST_COUNT * 8 == 0x70, "§3.4: 14 u64 before main_loop_cycles");

/* filter_caps bytes (§3.4) */
#define AQC2_FC_L2_BASE(dw0)     ((dw0) & 0x3fu)
#define AQC2_FC_L2_COUNT(dw0)    (((dw0) >> 8) & 0xffu)
#define AQC2_FC_ART_BASE(dw2)    (((dw2) >> 16) & 0xffu)   /* x 8 records */
#define AQC2_FC_ART_COUNT(dw2)   (((dw2) >> 24) & 0xffu)   /* x 8; 0 = 128 */

/* ---- §6.5 action resolver ---- */
#define AQC2_ART_RECORDS         128u
#define AQC2_ART_SEM             3u       /* hardware semaphore 3, 0x03AC */
/* tag layout */
#define AQC2_TAG_UC_MASK         (0x3fu << 0)
#define AQC2_TAG_ALLMC           (1u << 6)
#define AQC2_TAG_VLAN_SHIFT      10
#define AQC2_TAG_VLAN_MASK       (0xfu << 10)
#define AQC2_TAG_UNTAG           (1u << 14)
#define AQC2_TAG_PCP_SHIFT       29
#define AQC2_TAG_PCP_MASK        (0x7u << 29)
/* action word: 9:8 action (0 drop, 1 host), 7 index-is-TC, 6:2 index, 0 valid */
#define AQC2_ACT_VALID           (1u << 0)
#define AQC2_ACT_INDEX_SHIFT     2
#define AQC2_ACT_INDEX_MASK      (0x1fu << 2)
#define AQC2_ACT_IS_TC           (1u << 7)
#define AQC2_ACT_HOST            (1u << 8)
#define AQC2_ACT_DROP            AQC2_ACT_VALID
#define AQC2_ACT_DISABLE         0u
#define AQC2_ACT_QUEUE(q)        (AQC2_ACT_HOST | ((uint32_t)(q) << 2) | AQC2_ACT_VALID)
#define AQC2_ACT_TC(t)           (AQC2_ACT_HOST | AQC2_ACT_IS_TC | ((uint32_t)(t) << 2) | \
				  AQC2_ACT_VALID)
/* driver record offsets from the FW-given base (LNX HW_ATL2_RPF_*_INDEX) */
#define AQC2_ART_L2_PROMISC_OFF  0u
#define AQC2_ART_VLAN_PROMISC_OFF 1u
#define AQC2_ART_VLAN_USER       40u      /* 16 records, one per VLAN filter */
#define AQC2_ART_PCP_TO_TC       56u      /* 8 records, one per PCP value */
/* filter tags the driver assigns (LNX HW_ATL2_RPF_TAG_BASE_UC = 1) */
#define AQC2_UC_TAG_STATION      1u
#define AQC2_BC_TAG              1u
#define AQC2_UC_TAG_SHIFT        22       /* 0x5114 bits 27:22 */
#define AQC2_UC_TAG_MASK         (0x3fu << 22)
#define AQC2_VLAN_TAG_SHIFT      12       /* 0x5290 bits 15:12 */
#define AQC2_VLAN_TAG_MASK       (0xfu << 12)
#define AQC2_RPF_NEW_EN_BIT      (1u << 11)
#define AQC2_UC_FILTERS          38u      /* HW_ATL2_MAC_MAX */

/* §6.1: A2 hash-type bits in 0x54C8 */
#define AQC2_RSS_IPV4            (1u << 0)
#define AQC2_RSS_IPV4_TCP        (1u << 1)
#define AQC2_RSS_IPV4_UDP        (1u << 2)
#define AQC2_RSS_IPV6            (1u << 3)
#define AQC2_RSS_IPV6_TCP        (1u << 4)
#define AQC2_RSS_IPV6_UDP        (1u << 5)

/* §6.2: A2 packet buffers: TX 128 KB; RX 172 KB (LNX hw_atl2_internal.h)
 * or 192 KB (FBSD aq_hw.h) -- the sources disagree; 172 fits either. */
#define AQC2_TXBUF_KB            128u
#define AQC2_RXBUF_KB            172u

#endif /* AQC2_REGS_H */
