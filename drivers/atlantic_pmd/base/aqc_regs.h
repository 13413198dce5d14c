/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC (Aquantia/Marvell AQtion, A1 generation) registers and descriptors,
 * described as data. A2 shares all of them (docs/ref/aqc.md §10.2) and adds
 * those of aqc2_regs.h.
 *
 * Every fact here comes from docs/ref/aqc.md; the section (§) is named next
 * to each group. One list, AQC_REGS(X), names every register the
 * driver touches: X(name, offset, stride, count, reset_value). It generates
 *   - AQC_R_<name> offsets (and AQC_R_<name>_STRIDE for register arrays),
 *   - the register dump of the get_reg dev op (aqc_hw.c),
 *   - the power-on/reset values of the chip model's register file.
 * AQC_FIELDS(F) names the bit ranges: F(name, register, hi, lo).
 *
 * Shared by the driver and the chip model; contains no code with state.
 */
#ifndef AQC_REGS_H
#define AQC_REGS_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

/* BAR0 size the model provides; A1 registers end below 0x9000, the A2
 * shared buffers and action resolver table below 0x14800 (docs/ref/aqc.md §1). */
#define AQC_BAR0_SIZE 0x20000u

/* Vendor and the A1 device IDs (docs/ref/aqc.md §1). */
#define AQC_PCI_VENDOR 0x1d6a

#define AQC_A1_DEVICE_IDS(D) \
	D(0x0001) D(0xd100) D(0xd107) D(0xd108) D(0xd109) \
	D(0x00b1) D(0x07b1) D(0x08b1) D(0x09b1) D(0x11b1) D(0x12b1) \
	D(0x80b1) D(0x87b1) D(0x88b1) D(0x89b1) D(0x91b1) D(0x92b1) \
	D(0x51b1) D(0x52b1)

/* The A2 (AQC113 family) device IDs (§1; link caps in aqc2_hw.c). */
#define AQC_A2_DEVICE_IDS(D) \
	D(0x00c0) D(0x04c0) D(0x14c0) D(0x34c0) D(0x94c0) D(0x93c0) \
	D(0x12c0) D(0x11c0)

/*
 * X(name, offset, stride, count, reset value). Reset values are the
 * documented defaults ("default 1" register-reset-disable and DCA bits,
 * docs/ref/aqc.md §2.2, §4.1, §4.2); everything else resets to 0.
 */
#define AQC_REGS(X) \
	/* §2.1, §2.2: global control and identification */ \
	X(GLB_CTL,        0x0000, 0,    1,  0x00004000) \
	X(GLB_ALIVE,      0x0010, 0,    1,  0) \
	X(FW_VERSION,     0x0018, 0,    1,  0) \
	X(MIF_ID,         0x001c, 0,    1,  0) \
	/* §3.1: MCP memory interface, RPC, mailbox, scratchpads */ \
	X(MIF_CMD,        0x0200, 0,    1,  0) \
	X(MIF_ADDR,       0x0208, 0,    1,  0) \
	X(MIF_DATA,       0x020c, 0,    1,  0) \
	/* B1 upload mailbox into the RPC area (DPDK 22.11 and LNX
	 * hw_atl/hw_atl_utils.c hw_atl_utils_fw_upload_dwords) */ \
	X(MCP_UP_DATA,    0x0328, 0,    1,  0) \
	X(MCP_UP_CTL,     0x032c, 0,    1,  0) \
	X(RPC_ADDR,       0x0334, 0,    1,  0) \
	X(RPC_CTL,        0x0338, 0,    1,  0) \
	X(RPC_STATE,      0x033c, 0,    1,  0) \
	X(MBOX_ADDR,      0x0360, 0,    1,  0) \
	X(EFUSE_ADDR,     0x0364, 0,    1,  0) \
	/* §3.3: FW 2.x/3.x link and feature control */ \
	X(MPI_CTL,        0x0368, 0,    1,  0) \
	X(MPI_CTL2,       0x036c, 0,    1,  0) \
	X(MPI_STATE,      0x0370, 0,    1,  0) \
	X(MPI_STATE2,     0x0374, 0,    1,  0) \
	X(BOOT_EXIT,      0x0388, 0,    1,  0) \
	X(SEM,            0x03a0, 4,    5,  0) \
	X(MCP_CTL,        0x0404, 0,    1,  0) \
	X(SPI_CTL,        0x053c, 0,    1,  0) \
	X(DAISY_STATUS,   0x0704, 0,    1,  0) \
	/* §2.2, §6.8: PCI block */ \
	X(PCI_CTL,        0x1000, 0,    1,  0x20000000) \
	X(PCI_CTL6,       0x1014, 0,    1,  0) \
	/* §6.9: interrupts */ \
	X(ITR_STATUS,     0x2000, 0,    1,  0) \
	X(ITR_CLEAR,      0x2050, 0,    1,  0) \
	X(ITR_MASK_SET,   0x2060, 0,    1,  0) \
	X(ITR_MASK_CLR,   0x2070, 0,    1,  0) \
	X(ITR_AUTOMASK,   0x2090, 0,    1,  0) \
	X(ITR_RING_MAP,   0x2100, 4,    16, 0) \
	X(ITR_GEN_MAP,    0x2180, 4,    4,  0) \
	X(ITR_CTL,        0x2300, 0,    1,  0x20000000) \
	X(MAC_PHY_CTL,    0x4000, 0,    1,  0x20000000) \
	/* §2.2, §6.1, §6.4, §6.6: RX filters */ \
	X(RX_CTL,         0x5000, 0,    1,  0x20000000) \
	X(RPF_RSS_TYPES,  0x5040, 0,    1,  0) \
	X(RPF_L2_CTL,     0x5100, 0,    1,  0) \
	X(RPF_UC_LO,      0x5110, 8,    33, 0) \
	X(RPF_UC_HI,      0x5114, 8,    33, 0) \
	X(RPF_MC,         0x5250, 4,    8,  0) \
	X(RPF_MC_MASK,    0x5270, 0,    1,  0) \
	X(RPF_VLAN_CTL,   0x5280, 0,    1,  0) \
	X(RPF_VLAN_TPID,  0x5284, 0,    1,  0x88a88100) \
	X(RPF_VLAN_FLT,   0x5290, 4,    16, 0) \
	X(RSS_CTL1,       0x54c0, 0,    1,  0) \
	X(RPB_PRIO_TC,    0x54c4, 0,    1,  0) \
	X(RSS_KEY_ADDR,   0x54d0, 0,    1,  0) \
	X(RSS_KEY_DATA,   0x54d4, 0,    1,  0) \
	X(RSS_RETA_ADDR,  0x54e0, 0,    1,  0) \
	X(RSS_RETA_DATA,  0x54e4, 0,    1,  0) \
	X(RPO_CSUM,       0x5580, 0,    1,  0) \
	X(RPO_LRO_EN,     0x5590, 0,    1,  0) \
	X(RPO_LRO_CTL,    0x5594, 0,    1,  0) \
	X(RPO_LRO_LIMIT,  0x5598, 0,    1,  0) \
	X(RPO_LRO_MAXDESC, 0x55a0, 4,   4,  0) \
	X(RPO_LRO_TIMERS, 0x5620, 0,    1,  0) \
	/* §6.2: RX packet buffer */ \
	X(RPB_CTL,        0x5700, 0,    1,  0) \
	X(RPB_TC_SIZE,    0x5710, 0x10, 8,  0) \
	X(RPB_TC_THRESH,  0x5714, 0x10, 8,  0) \
	/* §4.1: RX DMA */ \
	X(RDM_CACHE_INIT, 0x5a00, 0,    1,  0) \
	X(RDM_CACHE_DONE, 0x5a10, 0,    1,  0) \
	X(RDM_CTL,        0x5a30, 0,    1,  0) \
	X(RX_ITR_MOD,     0x5a40, 4,    32, 0) \
	X(RXD_BASE_LO,    0x5b00, 0x20, 32, 0) \
	X(RXD_BASE_HI,    0x5b04, 0x20, 32, 0) \
	X(RXD_CTL,        0x5b08, 0x20, 32, 0) \
	X(RXD_HEAD,       0x5b0c, 0x20, 32, 0) \
	X(RXD_TAIL,       0x5b10, 0x20, 32, 0) \
	X(RXD_STAT,       0x5b14, 0x20, 32, 0) \
	X(RXD_BUF_SIZE,   0x5b18, 0x20, 32, 0) \
	X(RX_DCA,         0x6100, 4,    32, 0) \
	X(RX_DCA_CTL,     0x6180, 0,    1,  0x80000000) \
	/* 8: RX DMA statistics */ \
	X(RX_DMA_PKTS_LO, 0x6800, 0,    1,  0) \
	X(RX_DMA_PKTS_HI, 0x6804, 0,    1,  0) \
	X(RX_DMA_OCTS_LO, 0x6808, 0,    1,  0) \
	X(RX_DMA_OCTS_HI, 0x680c, 0,    1,  0) \
	X(RX_DMA_DROPS,   0x6818, 0,    1,  0) \
	/* §2.2, §6.2, §6.3: TX path */ \
	X(TX_CTL,         0x7000, 0,    1,  0x20000000) \
	X(TPO2,           0x7040, 0,    1,  0) \
	X(TPS_DATA_ARB,   0x7100, 0,    1,  0) \
	X(TPS_DATA_TC,    0x7110, 0,    1,  0) \
	X(TPS_DESC_ARB,   0x7200, 0,    1,  0) \
	X(TPS_DESC_TC,    0x7210, 0,    1,  0) \
	X(TPS_VM_ARB,     0x7300, 0,    1,  0) \
	X(TPS_DESC_RATE,  0x7310, 0,    1,  0) \
	X(TPO_CSUM,       0x7800, 0,    1,  0) \
	X(TDM_LSO_EN,     0x7810, 0,    1,  0) \
	X(TPO_LSO_FLAGS1, 0x7820, 0,    1,  0) \
	X(TPO_LSO_FLAGS2, 0x7824, 0,    1,  0) \
	X(TPB_CTL,        0x7900, 0,    1,  0x00000010) \
	X(TPB_TC_SIZE,    0x7910, 0x10, 8,  0) \
	X(TPB_TC_THRESH,  0x7914, 0x10, 8,  0) \
	X(TDM_CTL,        0x7b00, 0,    1,  0x00000010) \
	X(TDM_REQ_LIMIT,  0x7b20, 0,    1,  0) \
	X(TDM_ITR_CTL,    0x7b40, 0,    1,  0) \
	/* §4.2: TX DMA */ \
	X(TXD_BASE_LO,    0x7c00, 0x40, 32, 0) \
	X(TXD_BASE_HI,    0x7c04, 0x40, 32, 0) \
	X(TXD_CTL,        0x7c08, 0x40, 32, 0) \
	X(TXD_HEAD,       0x7c0c, 0x40, 32, 0) \
	X(TXD_TAIL,       0x7c10, 0x40, 32, 0) \
	X(TXD_WRB_THRESH, 0x7c18, 0x40, 32, 0) \
	X(TX_DCA,         0x8400, 4,    32, 0) \
	X(TX_DCA_CTL,     0x8480, 0,    1,  0x80000000) \
	/* 8: TX DMA statistics */ \
	X(TX_DMA_PKTS_LO, 0x8800, 0,    1,  0) \
	X(TX_DMA_PKTS_HI, 0x8804, 0,    1,  0) \
	X(TX_DMA_OCTS_LO, 0x8808, 0,    1,  0) \
	X(TX_DMA_OCTS_HI, 0x880c, 0,    1,  0) \
	X(TX_ITR_MOD,     0x8980, 4,    32, 0)

enum aqc_reg {
#define AQC_REG_ENUM(name, off, stride, n, rst) \
	AQC_R_##name = (off), AQC_R_##name##_STRIDE = (stride),
	AQC_REGS(AQC_REG_ENUM)
#undef AQC_REG_ENUM
};

/* Offset of element i of a register array. */
#define AQC_RI(name, i) (AQC_R_##name + AQC_R_##name##_STRIDE * (uint32_t)(i))

/*
 * F(name, register, hi, lo): named bit ranges (doc sections in the comments).
 */
#define AQC_FIELDS(F) \
	/* §2.2 */ \
	F(GLB_SOFT_RESET,     GLB_CTL,     15, 15) \
	F(GLB_REG_RES_DIS,    GLB_CTL,     14, 14) \
	F(RX_REG_RES_DIS,     RX_CTL,      29, 29) \
	F(TX_REG_RES_DIS,     TX_CTL,      29, 29) \
	F(MPI_RESET,          MAC_PHY_CTL, 29, 29) \
	/* §2.1 */ \
	F(FW_MAJOR,           FW_VERSION,  31, 24) \
	F(FW_MINOR,           FW_VERSION,  23, 16) \
	F(FW_BUILD,           FW_VERSION,  15, 0) \
	F(MIF_REVISION,       MIF_ID,      3, 0) \
	/* §3.3 */ \
	F(CTL2_PAUSE,         MPI_CTL2,    3, 3) \
	F(CTL2_ASYM_PAUSE,    MPI_CTL2,    4, 4) \
	F(CTL2_LINK_DROP,     MPI_CTL2,    22, 22) \
	F(CTL2_STATISTICS,    MPI_CTL2,    30, 30) \
	F(CTL2_TEMPERATURE,   MPI_CTL2,    18, 18) \
	F(CTL2_SLEEP_PROXY,   MPI_CTL2,    23, 23) \
	F(CTL2_WOL,           MPI_CTL2,    24, 24) \
	/* §3.3 CAPS_LO request toggles, echoed in MPI_STATE (DPDK 22.11
	 * hw_atl/hw_atl_utils_fw2x.c aq_fw2x_get_eeprom/_set_eeprom) */ \
	F(CTL_SMBUS_READ,     MPI_CTL,     13, 13) \
	F(CTL_SMBUS_WRITE,    MPI_CTL,     14, 14) \
	/* MCP "uP force interrupt" (DPDK hw_atl_llh_internal.h) */ \
	F(MCP_UP_FORCE_INTR,  MCP_CTL,     1, 1) \
	/* upload mailbox: bits 31:28 area (8 = RPC/config), 15:0 offset */ \
	F(MCP_UP_AREA,        MCP_UP_CTL,  31, 28) \
	F(MCP_UP_OFFSET,      MCP_UP_CTL,  15, 0) \
	F(RPC_TID,            RPC_CTL,     15, 0) \
	F(RPC_LEN,            RPC_CTL,     31, 16) \
	/* §4.1 */ \
	F(RXD_EN,             RXD_CTL,     31, 31) \
	F(RXD_VLAN_STRIP,     RXD_CTL,     29, 29) \
	/* §6.3 LRO control and timers (LNX hw_atl_llh_internal.h rpo_lro_*) */ \
	F(LRO_PATCH_OPT,      RPO_LRO_CTL, 15, 15) \
	F(LRO_MAX_SESS,       RPO_LRO_CTL, 13, 12) \
	F(LRO_TOTAL_DESC,     RPO_LRO_CTL, 6,  5) \
	F(LRO_MIN_PAYLOAD,    RPO_LRO_CTL, 4,  0) \
	F(LRO_TIME_BASE,      RPO_LRO_TIMERS, 31, 20) \
	F(LRO_INACTIVE,       RPO_LRO_TIMERS, 19, 10) \
	F(LRO_MAX_COAL,       RPO_LRO_TIMERS, 9,  0) \
	F(RXD_HDR_SPLIT,      RXD_CTL,     28, 28) \
	F(RXD_LEN,            RXD_CTL,     12, 3) \
	F(RXD_HEAD_PTR,       RXD_HEAD,    12, 0) \
	F(RXD_DATA_SIZE,      RXD_BUF_SIZE, 4, 0) \
	F(RXD_HDR_SIZE,       RXD_BUF_SIZE, 12, 8) \
	/* §4.2 */ \
	F(TXD_EN,             TXD_CTL,     31, 31) \
	F(TXD_LEN,            TXD_CTL,     12, 3) \
	F(TXD_HEAD_PTR,       TXD_HEAD,    12, 0) \
	F(TXD_WRB,            TXD_WRB_THRESH, 14, 8) \
	/* §6.1 */ \
	F(RSS_EN,             RSS_CTL1,    31, 31) \
	F(RSS_KEY_WADDR,      RSS_KEY_ADDR, 4, 0) \
	F(RSS_KEY_WEN,        RSS_KEY_ADDR, 5, 5) \
	F(RSS_RETA_WADDR,     RSS_RETA_ADDR, 3, 0) \
	F(RSS_RETA_WEN,       RSS_RETA_ADDR, 4, 4) \
	/* §6.2 */ \
	F(RPB_EN,             RPB_CTL,     0, 0) \
	F(RPB_FC_MODE,        RPB_CTL,     5, 4) \
	F(RPB_TC_MODE,        RPB_CTL,     8, 8) \
	F(TPB_EN,             TPB_CTL,     0, 0) \
	F(TPB_SCP_INS,        TPB_CTL,     2, 2) \
	F(TPB_TC_MODE,        TPB_CTL,     8, 8) \
	/* §6.3 */ \
	F(RPO_L4_CSUM_EN,     RPO_CSUM,    0, 0) \
	F(RPO_IP4_CSUM_EN,    RPO_CSUM,    1, 1) \
	F(TPO_L4_CSUM_EN,     TPO_CSUM,    0, 0) \
	F(TPO_IP4_CSUM_EN,    TPO_CSUM,    1, 1) \
	/* §6.4 */ \
	F(L2_BC_EN,           RPF_L2_CTL,  0, 0) \
	F(L2_PROMISC,         RPF_L2_CTL,  3, 3) \
	F(L2_BC_ACTION,       RPF_L2_CTL,  14, 12) \
	F(L2_BC_THRESH,       RPF_L2_CTL,  31, 16) \
	F(UC_MAC_HI,          RPF_UC_HI,   15, 0) \
	F(UC_ACTION,          RPF_UC_HI,   18, 16) \
	F(UC_EN,              RPF_UC_HI,   31, 31) \
	F(MC_ACCEPT_ALL,      RPF_MC_MASK, 14, 14) \
	/* §6.6 */ \
	F(VLAN_PROMISC,       RPF_VLAN_CTL, 1, 1) \
	F(VLAN_ACCEPT_UNTAG,  RPF_VLAN_CTL, 2, 2) \
	F(VLAN_UNTAG_ACTION,  RPF_VLAN_CTL, 5, 3) \
	F(VLAN_TPID_INNER,    RPF_VLAN_TPID, 15, 0) \
	F(VLAN_TPID_OUTER,    RPF_VLAN_TPID, 31, 16) \
	F(VLANF_ID,           RPF_VLAN_FLT, 11, 0) \
	F(VLANF_ACTION,       RPF_VLAN_FLT, 18, 16) \
	F(VLANF_EN,           RPF_VLAN_FLT, 31, 31) \
	/* §3.3: negotiated pause, echoed by the firmware */ \
	F(STATE2_PAUSE_RX,    MPI_STATE2,  3, 3) \
	F(STATE2_PAUSE_TX,    MPI_STATE2,  4, 4)

enum aqc_field {
#define AQC_FIELD_ENUM(name, reg, hi, lo) \
	AQC_F_##name##_REG = AQC_R_##reg, AQC_F_##name##_HI = (hi), \
	AQC_F_##name##_LO = (lo),
	AQC_FIELDS(AQC_FIELD_ENUM)
#undef AQC_FIELD_ENUM
};

/* Mask (in place) and shift of a named field. */
#define AQC_FMASK(name) \
	((uint32_t)((0xffffffffu >> (31 - AQC_F_##name##_HI)) & \
		    (0xffffffffu << AQC_F_##name##_LO)))
#define AQC_FSHIFT(name) (AQC_F_##name##_LO)
#define AQC_FGET(name, v) (((uint32_t)(v) & AQC_FMASK(name)) >> AQC_FSHIFT(name))
#define AQC_FPUT(name, v) (((uint32_t)(v) << AQC_FSHIFT(name)) & AQC_FMASK(name))

/* Number of 32-bit registers in the list (length of the get_reg dump). */
#define AQC_REG_COUNT_ONE(name, off, stride, n, rst) + (n)
#define AQC_REG_DUMP_COUNT (0 AQC_REGS(AQC_REG_COUNT_ONE))

/* ---- §2.1 firmware versions, §3.1 boot and mailbox constants ---- */
#define AQC_FW_VER_1X 0x01050006u
#define AQC_FW_VER_2X 0x02000000u
#define AQC_FW_VER_3X 0x03000000u
#define AQC_BOOT_DEAD 0xdeadu          /* §2.3 step 4.1 marker */
#define AQC_BOOT_HOSTBOOT 0xf1a7u      /* §2.3 step 4.5: no FW in flash */
#define AQC_DAISY_FLB_WAIT 0x06000000u /* §2.3 step 1 */
#define AQC_MIF_CMD_READ 0x8000u       /* §3.1 */
#define AQC_MIF_REV_B1 0xau            /* §2.1: MIF ID low nibble */
#define AQC_EFUSE_MAC_OFF 160u         /* §3.1: MAC at efuse + 160 bytes */
#define AQC_MCP_AREA_RPC 0x8u          /* upload area code of the RPC buffer */
/* SMBus (SFP EEPROM) requests, offered when mailbox caps_lo bits 13/14
 * are set (§3.3; DPDK 22.11 hw_atl_utils_fw2x.c aq_fw2x_get_eeprom):
 * the request is 4 dwords (msg_id, device address, offset, length) at the
 * RPC buffer; the firmware answers a status dword at +4 (0 = done) and the
 * data at +8; write data goes at +16. */
#define AQC_CAPS_LO_SMBUS_READ (1u << 13)
#define AQC_CAPS_LO_SMBUS_WRITE (1u << 14)
#define AQC_SMBUS_REQ_LEN 16u
#define AQC_SMBUS_RESULT_OFF 4u
#define AQC_SMBUS_DATA_OFF 8u
#define AQC_SFP_ADDR_A0 0x50u           /* SFF-8472 ID page (A0h >> 1) */
#define AQC_SFP_ADDR_A2 0x51u           /* SFF-8472 diagnostics (A2h >> 1) */

/* §3.1 mailbox layout (byte offsets in MCP memory). */
#define AQC_MBOX_VERSION 0x00u
#define AQC_MBOX_TID 0x04u
#define AQC_MBOX_ERROR 0x08u
#define AQC_MBOX_STATS 0x0cu
#define AQC_MBOX_CAPS_LO (0x48u + 60u)

/* §3.1: the 15 FW MAC statistics in mailbox order. */
#define AQC_FW_STATS(S) \
	S(uprc) S(mprc) S(bprc) S(erpt) S(uptc) S(mptc) S(bptc) S(erpr) \
	S(mbtc) S(bbtc) S(mbrc) S(bbrc) S(ubrc) S(ubtc) S(dpc)

struct aqc_fw_stats {
#define AQC_FW_STAT_FIELD(n) uint32_t n;
	AQC_FW_STATS(AQC_FW_STAT_FIELD)
#undef AQC_FW_STAT_FIELD
};
static_assert(sizeof(struct aqc_fw_stats) == 0x3c, "§3.1: 15 dwords");

/* §3.3: rate bits of MPI_CTL / MPI_STATE. */
#define AQC_RATE_100M (1u << 5)
#define AQC_RATE_1G   (1u << 8)
#define AQC_RATE_2G5  (1u << 9)
#define AQC_RATE_5G   (1u << 10)
#define AQC_RATE_10G  (1u << 11)
#define AQC_RATE_ALL (AQC_RATE_100M | AQC_RATE_1G | AQC_RATE_2G5 | \
		      AQC_RATE_5G | AQC_RATE_10G)

/* ---- 5: descriptors (16 bytes, little-endian) ---- */

/* §5.1 TX data descriptor and §5.2 TX context descriptor share this shape. */
struct aqc_tx_desc {
	uint64_t addr;   /* data: buffer address; context: reserved / lengths */
	uint32_t ctl;    /* dword 2 */
	uint32_t ctl2;   /* dword 3 */
};
static_assert(sizeof(struct aqc_tx_desc) == 16, "§5: 16-byte descriptors");
static_assert(offsetof(struct aqc_tx_desc, ctl) == 8, "§5.1: dword 2");
static_assert(offsetof(struct aqc_tx_desc, ctl2) == 12, "§5.1: dword 3");

/* §5.1 dword 2 */
#define AQC_TXD_TYPE_MASK   0x7u
#define AQC_TXD_TYPE_DATA   0x1u
#define AQC_TXD_TYPE_CTX    0x2u
#define AQC_TXD_BLEN_SHIFT  4
#define AQC_TXD_BLEN_MASK   (0xffffu << AQC_TXD_BLEN_SHIFT)
#define AQC_TXD_DD          (1u << 20)
#define AQC_TXD_EOP         (1u << 21)
#define AQC_TXD_CMD_VLAN    (1u << 22)
#define AQC_TXD_CMD_FCS     (1u << 23)
#define AQC_TXD_CMD_IPCSO   (1u << 24)
#define AQC_TXD_CMD_TUCSO   (1u << 25)
#define AQC_TXD_CMD_LSO     (1u << 26)
#define AQC_TXD_CMD_WB      (1u << 27)
/* §5.1 dword 3 */
#define AQC_TXD_CT_IDX      (1u << 12)
#define AQC_TXD_CT_EN       (1u << 13)
#define AQC_TXD_PAYLEN_SHIFT 14
#define AQC_TXD_PAYLEN_MAX  0x3ffffu
/* §5.2 context descriptor, dword 2 */
#define AQC_TXC_CTX_ID      (1u << 3)
#define AQC_TXC_VLAN_SHIFT  4
#define AQC_TXC_VLAN_MASK   (0xffffu << AQC_TXC_VLAN_SHIFT)
#define AQC_TXC_CMD_IPV6    (1u << 21)
#define AQC_TXC_CMD_TCP     (1u << 22)
#define AQC_TXC_L2LEN_SHIFT 24
/* §5.2 context descriptor, dword 3 */
#define AQC_TXC_L3LEN_HI_SHIFT 0
#define AQC_TXC_L4LEN_SHIFT 8
#define AQC_TXC_MSS_SHIFT   16

/* §5.3 RX descriptor as posted by the driver. */
struct aqc_rx_desc_read {
	uint64_t buf_addr;
	uint64_t hdr_addr;  /* always 0: its bit 0 overlaps DD */
};
static_assert(sizeof(struct aqc_rx_desc_read) == 16, "docs/ref/aqc.md §5.3");

/* §5.4 RX write-back descriptor. */
struct aqc_rx_desc_wb {
	uint32_t type;       /* dword 0: RSS type, packet type, RX_CNTL, ... */
	uint32_t rss_hash;   /* bytes 4-7 */
	uint16_t status;     /* bytes 8-9: DD, EOP, RX_STAT, RX_ESTAT, RSC */
	uint16_t pkt_len;    /* bytes 10-11: total packet length */
	uint16_t next_desc;  /* bytes 12-13 (RSC only) */
	uint16_t vlan;       /* bytes 14-15 */
};
static_assert(sizeof(struct aqc_rx_desc_wb) == 16, "docs/ref/aqc.md §5.4");
static_assert(offsetof(struct aqc_rx_desc_wb, rss_hash) == 4, "§5.4");
static_assert(offsetof(struct aqc_rx_desc_wb, status) == 8, "docs/ref/aqc.md §5.4");
static_assert(offsetof(struct aqc_rx_desc_wb, pkt_len) == 10, "§5.4");
static_assert(offsetof(struct aqc_rx_desc_wb, next_desc) == 12, "§5.4");
static_assert(offsetof(struct aqc_rx_desc_wb, vlan) == 14, "docs/ref/aqc.md §5.4");

union aqc_rx_desc {
	struct aqc_rx_desc_read read;
	struct aqc_rx_desc_wb wb;
	uint32_t dw[4];      /* dword view: the model writes dword 2 last */
	uint64_t qw[2];      /* qword view: the driver reads qword 1 (DD) first */
};
static_assert(sizeof(union aqc_rx_desc) == 16, "docs/ref/aqc.md §5.4");

/* §5.4 dword 0 */
#define AQC_RXD_RSS_TYPE_MASK 0xfu
#define AQC_RXD_PKT_SHIFT     4
#define AQC_RXD_PKT_L3_MASK   (0x3u << 4)   /* packet type bits 1:0 */
#define AQC_RXD_PKT_L3_IPV4   (0x0u << 4)
#define AQC_RXD_PKT_L3_IPV6   (0x1u << 4)
#define AQC_RXD_PKT_L3_OTHER  (0x2u << 4)
#define AQC_RXD_PKT_L3_ARP    (0x3u << 4)
#define AQC_RXD_PKT_L4_MASK   (0x7u << 6)   /* packet type bits 4:2 */
#define AQC_RXD_PKT_L4_TCP    (0x0u << 6)
#define AQC_RXD_PKT_L4_UDP    (0x1u << 6)
#define AQC_RXD_PKT_L4_SCTP   (0x2u << 6)
#define AQC_RXD_PKT_L4_ICMP   (0x3u << 6)
/* Model choice (§5.4 defines values 0-3 only): 7 = none of those. */
#define AQC_RXD_PKT_L4_OTHER  (0x7u << 6)
#define AQC_RXD_PKT_VLAN      (1u << 9)     /* packet type bit 5 */
#define AQC_RXD_PKT_QINQ      (1u << 10)    /* packet type bit 6 */
#define AQC_RXD_DMA_ERR       (1u << 12)
#define AQC_RXD_CNTL_IP4_CHK  (1u << 19)
#define AQC_RXD_CNTL_L4_CHK   (1u << 20)
/* §5.4 bytes 8-9 */
#define AQC_RXD_DD            (1u << 0)
#define AQC_RXD_EOP           (1u << 1)
#define AQC_RXD_STAT_MAC_ERR  (1u << 2)
#define AQC_RXD_STAT_IP4_ERR  (1u << 3)
#define AQC_RXD_STAT_L4_ERR   (1u << 4)
#define AQC_RXD_STAT_L4_VALID (1u << 5)
#define AQC_RXD_RSC_MASK      (0xfu << 12)
#define AQC_RXD_RSC_SHIFT     12

/* §5.4 RSS types */
#define AQC_RSS_TYPE_NONE     0u
#define AQC_RSS_TYPE_IPV4     2u
#define AQC_RSS_TYPE_IPV6     3u
#define AQC_RSS_TYPE_IPV4_TCP 4u
#define AQC_RSS_TYPE_IPV6_TCP 5u
#define AQC_RSS_TYPE_IPV4_UDP 6u
#define AQC_RSS_TYPE_IPV6_UDP 7u

/* ---- 7: limits ---- */
#define AQC_MAX_QUEUES      8u
#define AQC_RING_ALIGN_DESC 8u
#define AQC_RING_MAX_DESC   8184u
#define AQC_RING_MIN_DESC   32u
#define AQC_RX_BUF_UNIT     1024u
#define AQC_RX_BUF_MAX      (16u * 1024u)
#define AQC_MAX_FRAME       16352u
#define AQC_TX_MAX_SEGS     16u
#define AQC_RSS_KEY_LEN     40u
#define AQC_RSS_RETA_SIZE   64u
#define AQC_UC_FILTERS      33u
#define AQC_VLAN_FILTERS    16u

#endif /* AQC_REGS_H */
