/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc private definitions: adapter, queues, and the functions the probe
 * glue (PCI in aqc_ethdev.c, a vdev's BAR in aqc_vdev.c) and the burst
 * files share.
 *
 * Ring invariants (docs/ref/aqc.md §4.3):
 *  RX: the chip owns descriptors [head, tail). Slots [next, tail) are
 *      posted (next = the next descriptor the driver reads); slots
 *      [tail, next) -- nb_unposted of them, never fewer than one, so tail
 *      never catches up with head -- were consumed and wait for the bulk
 *      refill. Those still hold their old write-back with DD set, so a burst
 *      reads at most the posted ones.
 *  TX: descriptors [clean, tail) are in flight; nb_free = nb_desc - 1 -
 *      in-flight. last_id[i] is the EOP slot of the packet holding slot i;
 *      only that EOP descriptor carries WB, and its DD bit tells the driver
 *      the packet (and, in ring order, every one before it) is done.
 */
#ifndef AQC_ETHDEV_H
#define AQC_ETHDEV_H

#include <stdbool.h>
#include <stdint.h>

#include <ethdev_driver.h>
#include <rte_mbuf.h>

#include "aqc_hw.h"
#include "aqc_vdev.h"

#define AQC_DRIVER_NAME "net_aqc"
#define AQC_RX_FREE_THRESH 32
#define AQC_TX_FREE_THRESH 32
#define AQC_TX_FREE_BULK 64

struct aqc_lro_wait {
	struct rte_mbuf *first, *last;
};

struct aqc_rx_queue {
	volatile union aqc_rx_desc *ring;
	struct rte_mbuf **sw_ring;
	volatile void *tail_reg;
	struct rte_mempool *mp;
	uint64_t mbuf_initializer;   /* rearm_data: data_off, refcnt, nb_segs, port */
	uint64_t vlan_flags;         /* ol_flags for a tagged packet */
	struct rte_mbuf *pkt_first;  /* packet being chained across bursts */
	struct rte_mbuf *pkt_last;
	/* LRO: lro_wait[i] = the aggregate whose next descriptor is i (docs/ref/aqc.md
	 * §5.4 next descriptor pointer); NULL array without LRO */
	struct aqc_lro_wait *lro_wait;
	bool lro;
	uint16_t nb_desc;
	uint16_t next;
	uint16_t tail;               /* first unposted slot */
	uint16_t nb_unposted;
	uint16_t free_thresh;
	uint16_t buf_len;            /* hardware buffer size (1 KiB multiple) */
	uint16_t queue_id;
	uint16_t port_id;
	bool vlan_strip;
	bool started;
	bool deferred;
	uint64_t pkts, bytes, errors, nombuf;
	uint64_t *dev_nombuf;        /* &dev->data->rx_mbuf_alloc_failed */
	const struct rte_memzone *mz;
	struct aqc_hw *hw;
	bool notify_poll;            /* the backend's rx_polled not called yet
				      * since start (aqc_backend) */
};

struct aqc_tx_queue {
	volatile struct aqc_tx_desc *ring;
	struct rte_mbuf **sw_ring;
	uint16_t *last_id;
	volatile void *tail_reg;
	uint16_t nb_desc;
	uint16_t tail;
	uint16_t clean;
	uint16_t nb_free;
	uint16_t free_thresh;
	uint16_t queue_id;
	uint16_t port_id;
	bool started;
	bool deferred;
	bool fast_free;              /* RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE */
	uint32_t nb_ctx;             /* context slots (NULL in sw_ring) in flight */
	uint64_t pkts, bytes, errors;
	const struct rte_memzone *mz;
	struct aqc_hw *hw;
};

struct aqc_adapter {
	struct aqc_hw hw;
	struct aqc_dma_counters dma_last;   /* raw registers at last poll */
	struct aqc_dma_counters dma_acc;    /* accumulated since stats reset */
	uint64_t fw_last[AQC_XSTATS_MAX];   /* FW MAC counters at last poll */
	uint64_t fw_acc[AQC_XSTATS_MAX];    /* accumulated since stats reset */
	uint64_t rss_hf;                    /* 0: RSS off */
	uint8_t rss_key[AQC_RSS_KEY_LEN];
	uint8_t reta[AQC_RSS_RETA_SIZE];
	bool started;
	/* aqc_ops_ext.c state, re-applied at every start (a reset clears it) */
	uint16_t vlan_vid[AQC_VLAN_FILTERS];
	uint16_t vlan_used;                 /* bit i: filter i holds vlan_vid[i] */
	uint16_t tpid_inner, tpid_outer;    /* 0: reset value */
	uint32_t link_rates_up;             /* rates to request on set_link_up */
	/* multicast list: exact filters AQC_UC_FILTERS - nb_mc .. 32 */
	struct rte_ether_addr mc_list[AQC_UC_FILTERS - 1];
	uint16_t nb_mc;
	uint64_t xstats_extra_base[AQC_XSTATS_EXTRA_MAX];  /* at last reset */
	/* a reset of the chip the driver did not ask for (aqc_reset_check) */
	bool reset_seen;                    /* until the next dev_start */
	uint64_t chip_resets;               /* xstat chip_resets */
	uint64_t tx_lost_reset;             /* xstat tx_lost_in_reset */
};

#define AQC_ADAPTER(dev) ((struct aqc_adapter *)(dev)->data->dev_private)

/* What backs a vdev's BAR (aqc_vdev.h), as this process knows it: the
 * callbacks are addresses in the process's own mapping of the backend's
 * code, so they live in dev->process_private (aqc_vdev.c), never in the
 * adapter every process shares. NULL on silicon. */
static inline const struct aqc_backend *
aqc_backend(const struct rte_eth_dev *dev)
{
	return dev->process_private;
}

/* Common init once hw.bar0 is mapped: reset, firmware, MAC, ops. */
int aqc_dev_init(struct rte_eth_dev *dev);

#define AQC_RSS_HF (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
		    RTE_ETH_RSS_NONFRAG_IPV4_UDP | RTE_ETH_RSS_IPV6 | \
		    RTE_ETH_RSS_NONFRAG_IPV6_TCP | RTE_ETH_RSS_NONFRAG_IPV6_UDP)

/* aqc_ops_ext.c: VLAN filters/strip/TPID, extra unicast MACs, link
 * up/down, flow control, descriptor status. */
int aqc_vlan_offload_set(struct rte_eth_dev *dev, int mask);
void aqc_vlan_strip_queue_set(struct rte_eth_dev *dev, uint16_t qid, int on);
int aqc_vlan_filter_set(struct rte_eth_dev *dev, uint16_t vid, int on);
int aqc_vlan_tpid_set(struct rte_eth_dev *dev, enum rte_vlan_type type, uint16_t tpid);
int aqc_mac_addr_add(struct rte_eth_dev *dev, struct rte_ether_addr *addr,
		     uint32_t index, uint32_t pool);
void aqc_mac_addr_remove(struct rte_eth_dev *dev, uint32_t index);
int aqc_set_mc_addr_list(struct rte_eth_dev *dev, struct rte_ether_addr *list,
			 uint32_t n);
int aqc_dev_set_link_up(struct rte_eth_dev *dev);
int aqc_dev_set_link_down(struct rte_eth_dev *dev);
int aqc_flow_ctrl_get(struct rte_eth_dev *dev, struct rte_eth_fc_conf *fc);
int aqc_flow_ctrl_set(struct rte_eth_dev *dev, struct rte_eth_fc_conf *fc);
uint32_t aqc_rx_queue_count(void *rxq);
int aqc_rx_descriptor_status(void *rxq, uint16_t offset);
int aqc_tx_descriptor_status(void *txq, uint16_t offset);
/* aqc_module.c: the plugged SFP module (SFF-8079 / SFF-8472). */
int aqc_get_module_info(struct rte_eth_dev *dev, struct rte_eth_dev_module_info *mi);
int aqc_get_module_eeprom(struct rte_eth_dev *dev, struct rte_dev_eeprom_info *info);
/* dev_start: program what the reset cleared (filters, TPIDs). */
int aqc_ext_apply(struct rte_eth_dev *dev);

/* aqc_lsc.c: link-state change events while started (intr_conf.lsc). */
int aqc_lsc_start(struct rte_eth_dev *dev);
void aqc_lsc_stop(struct rte_eth_dev *dev);

/* aqc_rss.c */
void aqc_rss_init(struct aqc_adapter *ad);
int aqc_rss_configure(struct rte_eth_dev *dev);
int aqc_rss_apply(struct rte_eth_dev *dev);
int aqc_rss_hash_update(struct rte_eth_dev *dev, struct rte_eth_rss_conf *c);
int aqc_rss_hash_conf_get(struct rte_eth_dev *dev, struct rte_eth_rss_conf *c);
int aqc_rss_reta_update(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *conf,
			uint16_t size);
int aqc_rss_reta_query(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *conf,
		       uint16_t size);

/* aqc_rx.c */
int aqc_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		       unsigned int socket, const struct rte_eth_rxconf *conf,
		       struct rte_mempool *mp);
void aqc_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid);
int aqc_rx_queue_start(struct rte_eth_dev *dev, uint16_t qid);
int aqc_rx_queue_stop(struct rte_eth_dev *dev, uint16_t qid);
void aqc_rx_queue_free_mbufs(struct aqc_rx_queue *rxq);
uint16_t aqc_recv_pkts(void *rxq, struct rte_mbuf **pkts, uint16_t n);
uint16_t aqc_recv_pkts_simple(void *rxq, struct rte_mbuf **pkts, uint16_t n);
uint16_t aqc_recv_pkts_lro(void *rxq, struct rte_mbuf **pkts, uint16_t n);
/* dev->rx_pkt_burst for the configuration (offloads, LRO queues). */
void aqc_rx_burst_select(struct rte_eth_dev *dev);
const uint32_t *aqc_supported_ptypes(struct rte_eth_dev *dev);

/* aqc_tx.c */
int aqc_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		       unsigned int socket, const struct rte_eth_txconf *conf);
void aqc_tx_queue_release(struct rte_eth_dev *dev, uint16_t qid);
int aqc_tx_queue_start(struct rte_eth_dev *dev, uint16_t qid);
int aqc_tx_queue_stop(struct rte_eth_dev *dev, uint16_t qid);
void aqc_tx_queue_free_mbufs(struct aqc_tx_queue *txq);
/* Frames queued and not yet sent (no DD in their EOP descriptor). */
uint32_t aqc_tx_queue_pending(const struct aqc_tx_queue *txq);
/* A started port whose chip was reset under it (packet buffers off, which
 * only dev_stop and a reset do): count it, take new statistics baselines,
 * log it and raise RTE_ETH_EVENT_INTR_RESET once; the application then
 * calls rte_eth_dev_reset and configures the port again. Called from the
 * statistics reads and the link poll. true when the reset is pending. */
bool aqc_reset_check(struct rte_eth_dev *dev);
uint16_t aqc_xmit_pkts(void *txq, struct rte_mbuf **pkts, uint16_t n);
uint16_t aqc_prep_pkts(void *txq, struct rte_mbuf **pkts, uint16_t n);

/* Validate a ring size against docs/ref/aqc.md §7; logs the bad value. */
int aqc_check_ring_size(const char *what, uint16_t nb_desc);

#endif /* AQC_ETHDEV_H */
