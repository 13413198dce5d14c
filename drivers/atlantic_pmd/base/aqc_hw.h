/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC hardware layer: BAR0 access, reset, datapath block setup, rings,
 * filters, RSS and the A1 firmware 2.x/3.x interface, and the per-generation
 * operations table (A2 side in aqc2_fw.h). Knows nothing of ethdev; every
 * function returns 0 or a negative errno.
 *
 * Sequences follow docs/ref/aqc.md; each function names its section (§). The
 * same code runs against a real BAR0 (PCI) and against the chip model's
 * register file (vdev net_aqc_sim): it cannot tell them apart.
 */
#ifndef AQC_HW_H
#define AQC_HW_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_io.h>

#include "aqc_regs.h"

struct aqc_gen_ops;

enum aqc_gen {
	AQC_GEN_A1,
	AQC_GEN_A2,
};

/* Register state and what the firmware told the driver. It lives in the
 * port's private data, which every process of a multi-process application
 * sees at the same address: it holds no pointer into the driver's code or
 * data, which each process maps where it likes (aqc_ops()). */
struct aqc_hw {
	uint8_t *bar0;
	uint8_t gen;           /* AQC_GEN_*, chosen once at probe (MIF ID) */
	uint16_t pci_device;   /* 0 on the model vdev */
	uint32_t mif_id;       /* 0x001C at probe */
	/* A2 only: what the firmware's filter_caps grant (§3.4, §6.5) */
	uint16_t a2_art_base;  /* first ART record the driver may use */
	uint16_t a2_art_count;
	uint8_t a2_l2_base;    /* unicast filter of the station MAC */
	uint8_t a2_l2_count;
	uint8_t a2_stats_iface; /* OUT version.iface bits 3:0 */
	uint32_t fw_version;   /* 0x0018 after reset */
	uint32_t chip_rev;     /* MIF ID low nibble (§2.1) */
	uint32_t mbox_addr;    /* MCP address of the mailbox (§3.1) */
	uint32_t efuse_addr;   /* MCP address of the eFuse block (§3.1) */
	uint32_t rpc_addr;     /* MCP address of the RPC buffer (§3.1) */
	uint32_t caps_lo;      /* mailbox caps_lo */
	uint32_t link_rates;   /* rates requested in MPI_CTL (§3.3) */
	uint32_t fc_request;   /* MPI_CTL2 PAUSE / ASYM_PAUSE bits set at state INIT */
	struct aqc_fw_stats fw_last; /* last mailbox snapshot (cumulative) */
};

static inline uint32_t
aqc_rd(const struct aqc_hw *hw, uint32_t off)
{
	return rte_read32(hw->bar0 + off);
}

static inline void
aqc_wr(struct aqc_hw *hw, uint32_t off, uint32_t v)
{
	rte_write32(v, hw->bar0 + off);
}

/* Datapath doorbell: the descriptor writes before it must be visible first
 * (rte_write32 = I/O write barrier + store). */
static inline void
aqc_wr_doorbell(volatile void *reg, uint32_t v)
{
	rte_write32(v, reg);
}

static inline void
aqc_wr_field(struct aqc_hw *hw, uint32_t off, uint32_t mask, uint32_t shift,
	     uint32_t v)
{
	aqc_wr(hw, off, (aqc_rd(hw, off) & ~mask) | ((v << shift) & mask));
}

#define AQC_SET_FIELD(hw, name, v) \
	aqc_wr_field((hw), AQC_F_##name##_REG, AQC_FMASK(name), \
		     AQC_FSHIFT(name), (v))
#define AQC_GET_FIELD(hw, name) AQC_FGET(name, aqc_rd((hw), AQC_F_##name##_REG))

/* Poll until (reg & mask) == want, every us microseconds, at most tries
 * times. 0 or -ETIMEDOUT. */
int aqc_hw_poll(struct aqc_hw *hw, uint32_t off, uint32_t mask, uint32_t want,
		unsigned int us, unsigned int tries);

/* §2.3: boot-mode detection, RBL restart and firmware kickstart. */
int aqc_hw_soft_reset(struct aqc_hw *hw);
/* §10.1 steps 7, 8, 11, 13, 16: TX and RX path, QoS, offloads. */
void aqc_hw_init_paths(struct aqc_hw *hw, bool rx_csum, bool tx_csum);
/* The pieces of it A2 shares (aqc2_hw.c). */
void aqc_hw_init_tx_common(struct aqc_hw *hw);
void aqc_hw_init_rx_common(struct aqc_hw *hw, unsigned int n_uc);
void aqc_hw_init_offloads(struct aqc_hw *hw, bool rx_csum, bool tx_csum);
void aqc_hw_lro_init(struct aqc_hw *hw);
void aqc_hw_rx_ring_lro(struct aqc_hw *hw, unsigned int n, bool on, unsigned int max_desc);
/* §3.1: a multicast or zero-OUI permanent MAC is replaced by 30:0E:E3:xx:xx:xx
 * (A1 and A2 drivers alike). */
void aqc_fw_mac_fallback(uint8_t mac[6]);
/* §10.1 stop: after ring enables are cleared, wait until the chip has
 * finished with the rings (descriptor-cache handshake 0x5A00/0x5A10). */
int aqc_hw_dma_fence(struct aqc_hw *hw);
/* §10.1 step 19 / stop. */
void aqc_hw_packet_buffers(struct aqc_hw *hw, bool on);
/* §10.1 step 9, §6.4: unicast filter i. */
void aqc_hw_set_uc_filter(struct aqc_hw *hw, unsigned int i,
			  const uint8_t mac[6], bool enable);
void aqc_hw_set_promisc(struct aqc_hw *hw, bool on);
void aqc_hw_set_allmulti(struct aqc_hw *hw, bool on);
/* §6.1: RSS key (40 bytes), RETA (64 queue numbers < 8), enable. */
int aqc_hw_rss_set(struct aqc_hw *hw, const uint8_t key[AQC_RSS_KEY_LEN],
		   const uint8_t reta[AQC_RSS_RETA_SIZE]);
/* §6.1: the 40-byte key alone (same registers on A1 and A2). */
int aqc_hw_rss_key_set(struct aqc_hw *hw, const uint8_t key[AQC_RSS_KEY_LEN]);
/* §6.1: the flow types RSS hashes, one bit each, whatever the generation
 * (A1 cannot hash UDP ports on their own: aqc_gen.c). */
#define AQC_RSS_T_IPV4     (1u << 0)
#define AQC_RSS_T_IPV4_TCP (1u << 1)
#define AQC_RSS_T_IPV4_UDP (1u << 2)
#define AQC_RSS_T_IPV6     (1u << 3)
#define AQC_RSS_T_IPV6_TCP (1u << 4)
#define AQC_RSS_T_IPV6_UDP (1u << 5)
/* §6.1: hash types, 0x5040 bits 4:0. */
void aqc_hw_rss_types(struct aqc_hw *hw, uint32_t types);
void aqc_hw_rss_disable(struct aqc_hw *hw);

/* aqc_hw_filters.c -- §6.6: VLAN filter i (< 16) to vid, on/off; VLAN
 * promiscuous (accept every tag); inner/outer TPID; per-ring strip. */
void aqc_hw_set_vlan_filter(struct aqc_hw *hw, unsigned int i, uint16_t vid, bool on);
void aqc_hw_set_vlan_promisc(struct aqc_hw *hw, bool on);
void aqc_hw_set_tpid(struct aqc_hw *hw, bool outer, uint16_t tpid);
void aqc_hw_rx_ring_vlan_strip(struct aqc_hw *hw, unsigned int n, bool on);
/* §3.3: negotiated pause (MPI_STATE2 bits 3/4). */
void aqc_fw_get_pause(struct aqc_hw *hw, bool *rx, bool *tx);

/* §4.1, §10.1 step 18: RX ring n (disabled). buf_kb: data buffer 1 KiB units. */
void aqc_hw_rx_ring_init(struct aqc_hw *hw, unsigned int n, uint64_t base,
			 unsigned int nb_desc, unsigned int buf_kb, bool vlan_strip);
/* §4.2, §10.1 step 17. */
void aqc_hw_tx_ring_init(struct aqc_hw *hw, unsigned int n, uint64_t base,
			 unsigned int nb_desc);
void aqc_hw_rx_ring_enable(struct aqc_hw *hw, unsigned int n, bool on);
void aqc_hw_tx_ring_enable(struct aqc_hw *hw, unsigned int n, bool on);

static inline volatile void *
aqc_hw_rx_tail(struct aqc_hw *hw, unsigned int n)
{
	return hw->bar0 + AQC_RI(RXD_TAIL, n);
}

static inline volatile void *
aqc_hw_tx_tail(struct aqc_hw *hw, unsigned int n)
{
	return hw->bar0 + AQC_RI(TXD_TAIL, n);
}

/* 8: free-running 64-bit DMA counters (LSW then MSW). */
struct aqc_dma_counters {
	uint64_t rx_pkts, rx_octets, tx_pkts, tx_octets;
	uint32_t rx_drops;
};
void aqc_hw_read_dma_counters(struct aqc_hw *hw, struct aqc_dma_counters *c);

/* Register dump in AQC_REGS order; n = AQC_REG_DUMP_COUNT. */
void aqc_hw_dump_regs(struct aqc_hw *hw, uint32_t *out);

/*
 * One table of control-path operations per chip generation, picked at probe
 * from the MIF ID (aqc_gen_detect), called through aqc_ops(hw) by the
 * ethdev layer. Never used per packet: rings, descriptors and doorbells are the
 * same on both generations (docs/ref/aqc.md §10.2) and stay direct.
 * Rates are AQC_RATE_* masks on both (A2 adds AQC_RATE_10M).
 */
#define AQC_XSTATS_MAX 16u
struct aqc_gen_ops {
	const char *name;                          /* "A1" / "A2" */
	/* soft reset + firmware-interface init; fills fw_version, caps_lo */
	int (*reset)(struct aqc_hw *hw);
	int (*get_mac)(struct aqc_hw *hw, uint8_t mac[6]);
	/* TX/RX paths, QoS, offloads, default filters */
	int (*init_paths)(struct aqc_hw *hw, bool rx_csum, bool tx_csum);
	/* request rates (0: none) and the link up/down state */
	int (*set_link)(struct aqc_hw *hw, uint32_t rates, bool up);
	uint32_t (*link_speed)(struct aqc_hw *hw);  /* Mb/s, 0 = down */
	int (*set_station_mac)(struct aqc_hw *hw, const uint8_t mac[6]);
	int (*set_promisc)(struct aqc_hw *hw, bool on);
	int (*set_allmulti)(struct aqc_hw *hw, bool on);
	/* extra unicast filter i (1.. ; 0 is the station MAC) */
	int (*set_uc_filter)(struct aqc_hw *hw, unsigned int i, const uint8_t mac[6],
			     bool on);
	/* VLAN filter i (< AQC_VLAN_FILTERS); VLAN promiscuous */
	int (*set_vlan_filter)(struct aqc_hw *hw, unsigned int i, uint16_t vid, bool on);
	int (*set_vlan_promisc)(struct aqc_hw *hw, bool on);
	/* types: AQC_RSS_T_* (the ethdev layer translates its hash types) */
	int (*rss_apply)(struct aqc_hw *hw, uint32_t types,
			 const uint8_t key[AQC_RSS_KEY_LEN],
			 const uint8_t reta[AQC_RSS_RETA_SIZE]);
	void (*rss_disable)(struct aqc_hw *hw);
	/* cumulative FW MAC counters, nb_xstats of them, wrapping at
	 * 2^stats_bits */
	int (*stats_read)(struct aqc_hw *hw, uint64_t *now);
	const char *const *xstat_names;
	unsigned int nb_xstats;
	unsigned int stats_bits;
	/* register dump: count and filler */
	unsigned int nb_regs;
	void (*dump_regs)(struct aqc_hw *hw, uint32_t *out);
	/* SFP module EEPROM: len bytes at off of SMBus device dev (0x50
	 * ID page, 0x51 diagnostics); NULL where the firmware has none */
	int (*sfp_read)(struct aqc_hw *hw, uint8_t dev, uint32_t off, uint8_t *buf,
			uint32_t len);
};

extern const struct aqc_gen_ops aqc_a1_ops;
extern const struct aqc_gen_ops aqc_a2_ops;

/* The operations of hw's generation, as the calling process sees them. */
static inline const struct aqc_gen_ops *
aqc_ops(const struct aqc_hw *hw)
{
	return hw->gen == AQC_GEN_A2 ? &aqc_a2_ops : &aqc_a1_ops;
}

/* Read the MIF ID and set hw->gen; -ENODEV when the device reads as gone
 * or names no known family. */
int aqc_gen_detect(struct aqc_hw *hw);
/* aqc2_hw.c: whether a PCI device ID is an A2 part, and its link rates
 * (AQC_RATE_* mask; docs/ref/aqc.md §1 caps). */
bool aqc2_is_a2_device(uint16_t device_id);
uint32_t aqc2_device_rates(uint16_t device_id);

/* ---- aqc_fw.c: firmware 2.x/3.x interface (§3.1, §3.3) ---- */
/* §2.1 + §3.3 init: version check, mailbox and RPC addresses, caps. */
int aqc_fw_init(struct aqc_hw *hw);
/* §3.1: read n dwords of MCP memory at addr. */
int aqc_fw_mif_read(struct aqc_hw *hw, uint32_t addr, uint32_t *out,
		    unsigned int n);
/* §3.1: permanent MAC from the eFuse block. */
int aqc_fw_get_mac(struct aqc_hw *hw, uint8_t mac[6]);
/* §3.3: request the rates in mask (0 = link down); state INIT / DEINIT. */
void aqc_fw_set_link(struct aqc_hw *hw, uint32_t rate_mask);
void aqc_fw_set_state(struct aqc_hw *hw, bool up);
/* §3.3: current rate in Mb/s, 0 when down. */
uint32_t aqc_fw_link_speed(struct aqc_hw *hw);
/* §3.3: statistics snapshot into *s (cumulative FW counters). */
int aqc_fw_read_stats(struct aqc_hw *hw, struct aqc_fw_stats *s);
/* aqc_fw_smbus.c: SFP EEPROM bytes through the firmware (caps_lo SMBus
 * read, B1). -ENOTSUP (not offered / B0), -EIO (no module or device),
 * -EINVAL. */
int aqc_fw_sfp_read(struct aqc_hw *hw, uint8_t dev, uint32_t off, uint8_t *buf,
		    uint32_t len);

#endif /* AQC_HW_H */
