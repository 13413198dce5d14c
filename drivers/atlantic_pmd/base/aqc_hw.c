/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC hardware layer: reset, datapath blocks, rings, filters, RSS.
 * Section numbers (§) refer to docs/ref/aqc.md.
 */
#include <errno.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>

#include "aqc_hw.h"
#include "aqc_base_log.h"

/* §2.3 step 4.1: registers the RBL restart writes that have no name in the
 * sources (0x32A8 is cleared, 0x0520 only on the FLB path). */
#define AQC_R_RBL_32A8 0x32a8u

/* aqc_hw_poll: short looks before the caller's interval. */
#define AQC_POLL_SHORT_TRIES 20u

int
aqc_hw_poll(struct aqc_hw *hw, uint32_t off, uint32_t mask, uint32_t want,
	    unsigned int us, unsigned int tries)
{
	/* A strobe the chip clears itself is done within nanoseconds, so
	 * first look again after the shortest sleeps (a microsecond asked,
	 * some tens granted) and only then at the caller's interval, which a
	 * firmware answer may need. Sleeping, not spinning: the chip model
	 * may share this core. */
	for (unsigned int i = 0; i < AQC_POLL_SHORT_TRIES; i++) {
		if ((aqc_rd(hw, off) & mask) == want)
			return 0;
		rte_delay_us_sleep(1);
	}
	for (unsigned int i = 0; i < tries; i++) {
		if ((aqc_rd(hw, off) & mask) == want)
			return 0;
		rte_delay_us_sleep(us);
	}
	return (aqc_rd(hw, off) & mask) == want ? 0 : -ETIMEDOUT;
}

/* §2.2 "global soft reset": drop the register-reset-disable bits of the RX,
 * TX and MPI blocks, then set bit 15 and clear bit 14 of 0x0000. */
static void
global_soft_reset(struct aqc_hw *hw)
{
	AQC_SET_FIELD(hw, RX_REG_RES_DIS, 0);
	AQC_SET_FIELD(hw, TX_REG_RES_DIS, 0);
	AQC_SET_FIELD(hw, MPI_RESET, 0);
	aqc_wr(hw, AQC_R_GLB_CTL, (aqc_rd(hw, AQC_R_GLB_CTL) &
		~AQC_FMASK(GLB_REG_RES_DIS)) | AQC_FMASK(GLB_SOFT_RESET));
}

/* §2.3 step 1: wait for either boot loader to report. */
static int
detect_boot(struct aqc_hw *hw, bool *rbl)
{
	for (unsigned int i = 0; i < 1000; i++) {
		uint32_t daisy = aqc_rd(hw, AQC_R_DAISY_STATUS);
		uint32_t boot = aqc_rd(hw, AQC_R_BOOT_EXIT);

		if (daisy != AQC_DAISY_FLB_WAIT || boot != 0) {
			*rbl = boot != 0;
			return 0;
		}
	}
	AQC_BASE_LOG(ERR, HW, "neither RBL nor FLB firmware started");
	return -EIO;
}

/* §2.3 step 4 (RBL path). */
static int
rbl_restart(struct aqc_hw *hw)
{
	uint32_t code = 0;
	unsigned int i;

	aqc_wr(hw, AQC_R_MCP_CTL, 0x40e1);
	aqc_wr(hw, AQC_RI(SEM, 0), 1);
	aqc_wr(hw, AQC_R_RBL_32A8, 0);
	aqc_wr(hw, AQC_R_BOOT_EXIT, AQC_BOOT_DEAD);
	aqc_wr(hw, AQC_R_SPI_CTL, aqc_rd(hw, AQC_R_SPI_CTL) | 0x10);
	global_soft_reset(hw);
	aqc_wr(hw, AQC_R_MCP_CTL, 0x40e0);

	/* step 4.4: 10 ms x 1000 for the boot exit code */
	for (i = 0; i < 1000; i++) {
		code = aqc_rd(hw, AQC_R_BOOT_EXIT) & 0xffff;
		if (code != 0 && code != AQC_BOOT_DEAD)
			break;
		rte_delay_us_sleep(10000);
	}
	if (i == 1000) {
		AQC_BASE_LOG(ERR, HW, "RBL restart failed (boot exit code 0x%x)", code);
		return -EIO;
	}
	if (code == AQC_BOOT_HOSTBOOT) {
		AQC_BASE_LOG(ERR, HW, "no firmware in flash (host boot) is not supported");
		return -EOPNOTSUPP;
	}
	/* step 4.6: firmware kickstart, then the fixed 15 ms for old FW */
	for (i = 0; i < 1000; i++) {
		if (aqc_rd(hw, AQC_R_FW_VERSION) != 0)
			break;
		rte_delay_us_sleep(10000);
	}
	if (i == 1000) {
		AQC_BASE_LOG(ERR, HW, "FW kickstart failed");
		return -EIO;
	}
	rte_delay_us_sleep(15000);
	return 0;
}

int
aqc_hw_soft_reset(struct aqc_hw *hw)
{
	bool rbl = false;
	int rc;

	rc = detect_boot(hw, &rbl);
	if (rc != 0)
		return rc;
	if (AQC_FGET(FW_MAJOR, aqc_rd(hw, AQC_R_FW_VERSION)) == 1) {
		/* §2.3 step 3 exists for FW 1.x, whose interface we do not drive */
		AQC_BASE_LOG(ERR, HW, "firmware 1.x interface is not supported");
		return -EOPNOTSUPP;
	}
	if (!rbl) {
		AQC_BASE_LOG(ERR, HW, "flash boot loader (FLB) restart is not supported");
		return -EOPNOTSUPP;
	}
	rc = rbl_restart(hw);
	if (rc != 0)
		return rc;
	hw->fw_version = aqc_rd(hw, AQC_R_FW_VERSION);
	hw->chip_rev = AQC_GET_FIELD(hw, MIF_REVISION);
	return 0;
}

/* §10.1 step 7: TX path, the part A1 and A2 share (LNX hw_atl2.c does the
 * same minus the 0x7040 write). */
void
aqc_hw_init_tx_common(struct aqc_hw *hw)
{
	AQC_SET_FIELD(hw, TPB_TC_MODE, 1);          /* 4 TCs x 8 rings */
	aqc_wr(hw, AQC_R_TPO_LSO_FLAGS1, 0x0ff6u | (0x0ff6u << 16));
	aqc_wr(hw, AQC_R_TPO_LSO_FLAGS2, 0x0f7f);
	aqc_wr(hw, AQC_R_TDM_ITR_CTL, aqc_rd(hw, AQC_R_TDM_ITR_CTL) & ~0x2u);
	aqc_wr(hw, AQC_R_TX_DCA_CTL, 0);
	AQC_SET_FIELD(hw, TPB_SCP_INS, 1);
}

static void
init_tx_path(struct aqc_hw *hw)
{
	aqc_hw_init_tx_common(hw);
	aqc_wr(hw, AQC_R_TPO2, 0x00010000);         /* B0/B1 */
}

/* §10.1 step 8: RX path (single TC, no RSS until configured), the part A1
 * and A2 share; n_uc unicast filters get action 1, all disabled. */
void
aqc_hw_init_rx_common(struct aqc_hw *hw, unsigned int n_uc)
{
	AQC_SET_FIELD(hw, RPB_TC_MODE, 1);
	AQC_SET_FIELD(hw, RPB_FC_MODE, 1);
	aqc_wr(hw, AQC_R_RSS_CTL1, 0);
	for (unsigned int i = n_uc; i-- > 0;)
		aqc_wr(hw, AQC_R_RPF_UC_HI + 8 * i, AQC_FPUT(UC_ACTION, 1));
	aqc_wr(hw, AQC_R_RPF_MC_MASK, 0);
	aqc_wr(hw, AQC_RI(RPF_MC, 0), 0x00010fff);
	aqc_wr(hw, AQC_R_RPF_VLAN_TPID, (0x88a8u << 16) | 0x8100u);
	aqc_wr(hw, AQC_R_RPF_VLAN_CTL, AQC_FPUT(VLAN_PROMISC, 1) |
	       AQC_FPUT(VLAN_ACCEPT_UNTAG, 1) | AQC_FPUT(VLAN_UNTAG_ACTION, 1));
	aqc_wr(hw, AQC_R_RDM_CTL, aqc_rd(hw, AQC_R_RDM_CTL) & ~0x4u);
	aqc_wr(hw, AQC_R_RPF_L2_CTL, AQC_FPUT(L2_BC_EN, 1) |
	       AQC_FPUT(L2_BC_ACTION, 1) | AQC_FPUT(L2_BC_THRESH, 0xffff));
	aqc_wr(hw, AQC_R_RX_DCA_CTL, 0);
}

static void
init_rx_path(struct aqc_hw *hw)
{
	aqc_hw_init_rx_common(hw, AQC_UC_FILTERS);
	/* §6.1: hash IPv4, IPv4+TCP, IPv6, IPv6+TCP, and UDP (LNX value) */
	aqc_wr(hw, AQC_R_RPF_RSS_TYPES, 0x000f001e);
}

/* §10.1 step 16: offloads; LSO per ring enabled, LRO set up but off (A1 and A2). */
void
aqc_hw_init_offloads(struct aqc_hw *hw, bool rx_csum, bool tx_csum)
{
	aqc_wr(hw, AQC_R_TPO_CSUM, tx_csum ? 0x3 : 0);
	aqc_wr(hw, AQC_R_RPO_CSUM, (aqc_rd(hw, AQC_R_RPO_CSUM) & ~0x3u) |
	       (rx_csum ? 0x3u : 0));
	aqc_wr(hw, AQC_R_TDM_LSO_EN, 0xffffffff);
	aqc_hw_lro_init(hw);
}

/* docs/ref/aqc.md §6.3: LRO session parameters, the values LNX programs in
 * hw_atl/hw_atl_b0.c hw_atl_b0_hw_offload_set (field layout from
 * hw_atl/hw_atl_llh_internal.h HW_ATL_RPO_LRO_*): up to 16 descriptors per
 * session on every ring (code 3), time base 0x61A (5 us) and a 50-unit
 * (250 us) coalescing interval, no inactive interval, session limit 1,
 * total descriptor limit 2, patch optimisation on, first payload >= 10
 * bytes, packet limit 1. Every ring off until aqc_hw_rx_ring_lro. */
void
aqc_hw_lro_init(struct aqc_hw *hw)
{
	for (unsigned int i = 0; i < 4; i++)
		aqc_wr(hw, AQC_RI(RPO_LRO_MAXDESC, i), 0x33333333);
	aqc_wr(hw, AQC_R_RPO_LRO_TIMERS, 0x61Au << 20 | 0u << 10 | 50u);
	aqc_wr(hw, AQC_R_RPO_LRO_CTL, AQC_FMASK(LRO_PATCH_OPT) | 1u << 12 | 2u << 5 | 10u);
	aqc_wr(hw, AQC_R_RPO_LRO_LIMIT, 1);
	aqc_wr(hw, AQC_R_RPO_LRO_EN, 0);
}

/* docs/ref/aqc.md §4.1 / §6.3: 0x5590 bit n = LRO on ring n; 0x55A0 + 4*(n/8) bits
 * 4*(n%8)+1:4*(n%8) = most descriptors per session, code c meaning 2 << c
 * (the LNX mapping, see aqc_hw_lro_init). max_desc is rounded down to one
 * of 2, 4, 8, 16. */
void
aqc_hw_rx_ring_lro(struct aqc_hw *hw, unsigned int n, bool on, unsigned int max_desc)
{
	uint32_t v = aqc_rd(hw, AQC_R_RPO_LRO_EN), reg = AQC_RI(RPO_LRO_MAXDESC, n / 8);
	uint32_t code = max_desc >= 16 ? 3 : max_desc >= 8 ? 2 : max_desc >= 4 ? 1 : 0;
	uint32_t shift = 4 * (n % 8);

	aqc_wr(hw, reg, (aqc_rd(hw, reg) & ~(3u << shift)) | code << shift);
	aqc_wr(hw, AQC_R_RPO_LRO_EN, on ? v | 1u << n : v & ~(1u << n));
}

/* §10.1 step 11: single-TC QoS with the documented DPDK values. */
static void
init_qos(struct aqc_hw *hw)
{
	aqc_wr(hw, AQC_R_TPS_DESC_RATE, 0xa);
	aqc_wr(hw, AQC_R_TPS_VM_ARB, 0);
	aqc_wr(hw, AQC_R_TPS_DESC_ARB, 0);
	aqc_wr(hw, AQC_R_TPS_DATA_ARB, 0);
	aqc_wr(hw, AQC_R_TPS_DATA_TC, (0xfffu << 16) | 0x64u);
	aqc_wr(hw, AQC_R_TPS_DESC_TC, (0x50u << 16) | 0x1eu);
	/* §6.2: TX 160 KB, RX 320 KB; thresholds 66 % / 50 % of size x 32 */
	aqc_wr(hw, AQC_RI(TPB_TC_SIZE, 0), 160);
	aqc_wr(hw, AQC_RI(TPB_TC_THRESH, 0), (3379u << 16) | 2560u);
	aqc_wr(hw, AQC_RI(RPB_TC_SIZE, 0), 320);
	aqc_wr(hw, AQC_RI(RPB_TC_THRESH, 0), (6758u << 16) | 5120u);
	aqc_wr(hw, AQC_R_RPB_PRIO_TC, 0);
}

void
aqc_hw_init_paths(struct aqc_hw *hw, bool rx_csum, bool tx_csum)
{
	aqc_wr(hw, AQC_R_ITR_MASK_CLR, 0xffffffff);  /* polling: no interrupts */
	init_tx_path(hw);
	init_rx_path(hw);
	init_qos(hw);
	/* step 13: 2 KB PCIe read requests; TX DMA request limit 24 */
	aqc_wr(hw, AQC_R_PCI_CTL6, (aqc_rd(hw, AQC_R_PCI_CTL6) & ~0x707u) | 0x404u);
	aqc_wr(hw, AQC_R_TDM_REQ_LIMIT, 24);
	aqc_hw_init_offloads(hw, rx_csum, tx_csum);
}

/* §10.1 stop (LNX): toggle the RX descriptor-cache init bit and wait for
 * "done" to follow, so no DMA to the rings is in flight afterwards. */
int
aqc_hw_dma_fence(struct aqc_hw *hw)
{
	int rc;

	aqc_wr(hw, AQC_R_RDM_CACHE_INIT, 1);
	rc = aqc_hw_poll(hw, AQC_R_RDM_CACHE_DONE, 1, 1, 1000, 10);
	aqc_wr(hw, AQC_R_RDM_CACHE_INIT, 0);
	if (rc == 0)
		rc = aqc_hw_poll(hw, AQC_R_RDM_CACHE_DONE, 1, 0, 1000, 10);
	if (rc != 0)
		AQC_BASE_LOG(ERR, HW, "RX descriptor cache init did not complete");
	return rc;
}

void
aqc_hw_packet_buffers(struct aqc_hw *hw, bool on)
{
	AQC_SET_FIELD(hw, TPB_EN, on ? 1 : 0);
	AQC_SET_FIELD(hw, RPB_EN, on ? 1 : 0);
}

/* §6.4 write order: clear enable, LSW, MSW + action, enable. */
void
aqc_hw_set_uc_filter(struct aqc_hw *hw, unsigned int i, const uint8_t mac[6],
		     bool enable)
{
	uint32_t lo = ((uint32_t)mac[2] << 24) | ((uint32_t)mac[3] << 16) |
		      ((uint32_t)mac[4] << 8) | mac[5];
	uint32_t hi = ((uint32_t)mac[0] << 8) | mac[1];

	aqc_wr(hw, AQC_RI(RPF_UC_HI, i), 0);
	aqc_wr(hw, AQC_RI(RPF_UC_LO, i), lo);
	aqc_wr(hw, AQC_RI(RPF_UC_HI, i), AQC_FPUT(UC_MAC_HI, hi) |
	       AQC_FPUT(UC_ACTION, 1));
	if (enable)
		aqc_wr(hw, AQC_RI(RPF_UC_HI, i), aqc_rd(hw, AQC_RI(RPF_UC_HI, i)) |
		       AQC_FMASK(UC_EN));
}

void
aqc_hw_set_promisc(struct aqc_hw *hw, bool on)
{
	AQC_SET_FIELD(hw, L2_PROMISC, on ? 1 : 0);
}

/* §6.4 A1: accept-all-multicast bit plus multicast filter 0. */
void
aqc_hw_set_allmulti(struct aqc_hw *hw, bool on)
{
	AQC_SET_FIELD(hw, MC_ACCEPT_ALL, on ? 1 : 0);
	aqc_wr(hw, AQC_RI(RPF_MC, 0), (aqc_rd(hw, AQC_RI(RPF_MC, 0)) & ~(1u << 31)) |
	       (on ? 1u << 31 : 0));
}

/* §6.1: key dwords go in reverse order, each byte-swapped; the RETA is 64
 * 3-bit entries packed into twelve 16-bit words. */
void
aqc_hw_rss_types(struct aqc_hw *hw, uint32_t types)
{
	/* bits 19:16 stay 0xF on B0/B1 ("RPF2") */
	aqc_wr(hw, AQC_R_RPF_RSS_TYPES, 0x000f0000u | (types & 0x1fu));
}

/* §6.1 key: ten dwords, address a gets key dword 9 - a, byte-swapped. */
int
aqc_hw_rss_key_set(struct aqc_hw *hw, const uint8_t key[AQC_RSS_KEY_LEN])
{
	for (unsigned int a = 0; a < AQC_RSS_KEY_LEN / 4; a++) {
		const uint8_t *k = key + 4 * (AQC_RSS_KEY_LEN / 4 - 1 - a);

		aqc_wr(hw, AQC_R_RSS_KEY_DATA, ((uint32_t)k[0] << 24) |
		       ((uint32_t)k[1] << 16) | ((uint32_t)k[2] << 8) | k[3]);
		aqc_wr(hw, AQC_R_RSS_KEY_ADDR, AQC_FPUT(RSS_KEY_WADDR, a) |
		       AQC_FMASK(RSS_KEY_WEN));
		if (aqc_hw_poll(hw, AQC_R_RSS_KEY_ADDR, AQC_FMASK(RSS_KEY_WEN), 0,
				1000, 10) != 0) {
			AQC_BASE_LOG(ERR, HW, "RSS key write %u did not complete", a);
			return -ETIMEDOUT;
		}
	}
	return 0;
}

int
aqc_hw_rss_set(struct aqc_hw *hw, const uint8_t key[AQC_RSS_KEY_LEN],
	       const uint8_t reta[AQC_RSS_RETA_SIZE])
{
	uint16_t words[12] = { 0 };
	int rc = aqc_hw_rss_key_set(hw, key);

	if (rc != 0)
		return rc;
	for (unsigned int e = 0; e < AQC_RSS_RETA_SIZE; e++) {
		unsigned int bit = 3 * e, q = reta[e] & 7u;

		words[bit / 16] |= (uint16_t)(q << (bit % 16));
		if (bit % 16 > 13)
			words[bit / 16 + 1] |= (uint16_t)(q >> (16 - bit % 16));
	}
	for (unsigned int w = 0; w < 12; w++) {
		aqc_wr(hw, AQC_R_RSS_RETA_DATA, words[w]);
		aqc_wr(hw, AQC_R_RSS_RETA_ADDR, AQC_FPUT(RSS_RETA_WADDR, w) |
		       AQC_FMASK(RSS_RETA_WEN));
		rc = aqc_hw_poll(hw, AQC_R_RSS_RETA_ADDR, AQC_FMASK(RSS_RETA_WEN), 0,
				 1000, 10);
		if (rc != 0) {
			AQC_BASE_LOG(ERR, HW, "RSS RETA write %u did not complete", w);
			return rc;
		}
	}
	/* §6.1: enable, 3 index bits per TC (4 TCs x 8 queues) */
	aqc_wr(hw, AQC_R_RSS_CTL1, 0x80003333);
	return 0;
}

void
aqc_hw_rss_disable(struct aqc_hw *hw)
{
	aqc_wr(hw, AQC_R_RSS_CTL1, 0);
}

void
aqc_hw_rx_ring_init(struct aqc_hw *hw, unsigned int n, uint64_t base,
		    unsigned int nb_desc, unsigned int buf_kb, bool vlan_strip)
{
	aqc_wr(hw, AQC_RI(RXD_CTL, n), 0);
	aqc_wr(hw, AQC_RI(RXD_BASE_LO, n), (uint32_t)base);
	aqc_wr(hw, AQC_RI(RXD_BASE_HI, n), (uint32_t)(base >> 32));
	aqc_wr(hw, AQC_RI(RXD_CTL, n), AQC_FPUT(RXD_LEN, nb_desc / 8) |
	       AQC_FPUT(RXD_VLAN_STRIP, vlan_strip ? 1 : 0));
	aqc_wr(hw, AQC_RI(RXD_BUF_SIZE, n), AQC_FPUT(RXD_DATA_SIZE, buf_kb));
	aqc_wr(hw, AQC_RI(RXD_TAIL, n), 0);
	aqc_wr(hw, AQC_RI(RX_DCA, n), 0);
}

void
aqc_hw_tx_ring_init(struct aqc_hw *hw, unsigned int n, uint64_t base,
		    unsigned int nb_desc)
{
	aqc_wr(hw, AQC_RI(TXD_CTL, n), 0);
	aqc_wr(hw, AQC_RI(TXD_BASE_LO, n), (uint32_t)base);
	aqc_wr(hw, AQC_RI(TXD_BASE_HI, n), (uint32_t)(base >> 32));
	aqc_wr(hw, AQC_RI(TXD_CTL, n), AQC_FPUT(TXD_LEN, nb_desc / 8));
	aqc_wr(hw, AQC_RI(TXD_TAIL, n), 0);    /* §4.3: (re)init with tail 0 */
	aqc_wr(hw, AQC_RI(TXD_WRB_THRESH, n), 0);
	aqc_wr(hw, AQC_RI(TX_DCA, n), 0);
}

void
aqc_hw_rx_ring_enable(struct aqc_hw *hw, unsigned int n, bool on)
{
	uint32_t off = AQC_RI(RXD_CTL, n);

	aqc_wr(hw, off, (aqc_rd(hw, off) & ~AQC_FMASK(RXD_EN)) |
	       AQC_FPUT(RXD_EN, on ? 1 : 0));
}

void
aqc_hw_tx_ring_enable(struct aqc_hw *hw, unsigned int n, bool on)
{
	uint32_t off = AQC_RI(TXD_CTL, n);

	aqc_wr(hw, off, (aqc_rd(hw, off) & ~AQC_FMASK(TXD_EN)) |
	       AQC_FPUT(TXD_EN, on ? 1 : 0));
}

static uint64_t
rd64(struct aqc_hw *hw, uint32_t lo)
{
	uint32_t l = aqc_rd(hw, lo);

	return ((uint64_t)aqc_rd(hw, lo + 4) << 32) | l;
}

void
aqc_hw_read_dma_counters(struct aqc_hw *hw, struct aqc_dma_counters *c)
{
	c->rx_pkts = rd64(hw, AQC_R_RX_DMA_PKTS_LO);
	c->rx_octets = rd64(hw, AQC_R_RX_DMA_OCTS_LO);
	c->tx_pkts = rd64(hw, AQC_R_TX_DMA_PKTS_LO);
	c->tx_octets = rd64(hw, AQC_R_TX_DMA_OCTS_LO);
	c->rx_drops = aqc_rd(hw, AQC_R_RX_DMA_DROPS);
}

void
aqc_hw_dump_regs(struct aqc_hw *hw, uint32_t *out)
{
	unsigned int k = 0;

#define AQC_DUMP_ONE(name, off, stride, n, rst) \
	for (unsigned int i = 0; i < (n); i++) \
		out[k++] = aqc_rd(hw, (off) + (stride) * i);
	AQC_REGS(AQC_DUMP_ONE)
#undef AQC_DUMP_ONE
}
