/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc device operations beyond bring-up and the datapath: VLAN strip on a
 * running port, the VLAN filter table and TPIDs (docs/ref/aqc.md §6.6), extra
 * unicast MAC filters (§6.4), link up/down and flow control through the
 * firmware (§3.3), and the RX/TX descriptor status queries (§5.1, §5.4).
 *
 * What a soft reset clears (every dev_start resets the chip, docs/ref/aqc.md
 * §10.1 step 6) is kept in the adapter and programmed again by
 * aqc_ext_apply().
 */
#include <errno.h>
#include <string.h>

#include "aqc_ethdev.h"
#include "aqc_log.h"

/* ---- VLAN ---- */

static bool
vlan_filter_offload(const struct rte_eth_dev *dev)
{
	return (dev->data->dev_conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_VLAN_FILTER) != 0;
}

/* The burst functions stay as dev_start chose them: ethdev copies them into
 * rte_eth_fp_ops at start (eth_dev_fp_ops_setup), where the datapath lcores
 * read them, so a control thread must not write them under a running port.
 * The length-and-type-only burst writes no VLAN TCI; it hands a queue that
 * strips to the full one itself (aqc_recv_pkts_simple), read once per
 * burst from vlan_strip. */
static void
rxq_set_strip(struct aqc_rx_queue *rxq, bool on)
{
	__atomic_store_n(&rxq->vlan_flags,
			 RTE_MBUF_F_RX_VLAN | (on ? RTE_MBUF_F_RX_VLAN_STRIPPED : 0),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&rxq->vlan_strip, on, __ATOMIC_RELEASE);
	if (rxq->started)
		aqc_hw_rx_ring_vlan_strip(rxq->hw, rxq->queue_id, on);
}

void
aqc_vlan_strip_queue_set(struct rte_eth_dev *dev, uint16_t qid, int on)
{
	struct aqc_rx_queue *rxq = qid < dev->data->nb_rx_queues ?
				   dev->data->rx_queues[qid] : NULL;

	if (rxq == NULL) {
		AQC_LOG(ERR, DRIVER, "VLAN strip: RX queue %u is not set up", qid);
		return;
	}
	rxq_set_strip(rxq, on != 0);
}

int
aqc_vlan_offload_set(struct rte_eth_dev *dev, int mask)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	uint64_t rxo = dev->data->dev_conf.rxmode.offloads;

	if ((mask & RTE_ETH_VLAN_EXTEND_MASK) && (rxo & RTE_ETH_RX_OFFLOAD_VLAN_EXTEND)) {
		AQC_LOG(ERR, DRIVER, "VLAN extend (QinQ) offload is not supported");
		return -ENOTSUP;
	}
	if (mask & RTE_ETH_VLAN_STRIP_MASK)
		for (uint16_t q = 0; q < dev->data->nb_rx_queues; q++)
			if (dev->data->rx_queues[q] != NULL)
				rxq_set_strip(dev->data->rx_queues[q],
					      (rxo & RTE_ETH_RX_OFFLOAD_VLAN_STRIP) != 0);
	/* §6.6: filtering = VLAN promiscuous off, so only the table matches */
	if (mask & RTE_ETH_VLAN_FILTER_MASK)
		return aqc_ops(&ad->hw)->set_vlan_promisc(&ad->hw, !vlan_filter_offload(dev));
	return 0;
}

int
aqc_vlan_filter_set(struct rte_eth_dev *dev, uint16_t vid, int on)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	int slot = -1, free_slot = -1;

	if (vid > RTE_ETHER_MAX_VLAN_ID) {
		AQC_LOG(ERR, DRIVER, "VLAN ID %u out of range 0..4095", vid);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < AQC_VLAN_FILTERS; i++) {
		if (ad->vlan_used & (1u << i)) {
			if (ad->vlan_vid[i] == vid)
				slot = (int)i;
		} else if (free_slot < 0) {
			free_slot = (int)i;
		}
	}
	if (on) {
		if (slot >= 0)
			return 0;
		if (free_slot < 0) {
			AQC_LOG(ERR, DRIVER, "VLAN %u: all %u VLAN filters are in use", vid,
				AQC_VLAN_FILTERS);
			return -ENOSPC;
		}
		ad->vlan_vid[free_slot] = vid;
		ad->vlan_used |= (uint16_t)(1u << free_slot);
		return aqc_ops(&ad->hw)->set_vlan_filter(&ad->hw, (unsigned int)free_slot, vid, true);
	}
	if (slot < 0)
		return 0;
	ad->vlan_used &= (uint16_t)~(1u << slot);
	return aqc_ops(&ad->hw)->set_vlan_filter(&ad->hw, (unsigned int)slot, 0, false);
}

int
aqc_vlan_tpid_set(struct rte_eth_dev *dev, enum rte_vlan_type type, uint16_t tpid)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);

	switch (type) {
	case RTE_ETH_VLAN_TYPE_INNER:
		ad->tpid_inner = tpid;
		aqc_hw_set_tpid(&ad->hw, false, tpid);
		return 0;
	case RTE_ETH_VLAN_TYPE_OUTER:
		ad->tpid_outer = tpid;
		aqc_hw_set_tpid(&ad->hw, true, tpid);
		return 0;
	default:
		AQC_LOG(ERR, DRIVER, "VLAN type %d: only inner and outer TPIDs exist", type);
		return -EINVAL;
	}
}

/* ---- exact MAC filters 1..32 (filter 0 is the station MAC): extra
 * unicast addresses at their ethdev index from the bottom, the multicast
 * list from the top (§6.4: drivers share the table this way) ---- */

static unsigned int
mc_first_slot(const struct aqc_adapter *ad)
{
	return AQC_UC_FILTERS - ad->nb_mc;
}

int
aqc_mac_addr_add(struct rte_eth_dev *dev, struct rte_ether_addr *addr, uint32_t index,
		 uint32_t pool)
{
	(void)pool;
	if (index == 0 || index >= AQC_UC_FILTERS) {
		AQC_LOG(ERR, DRIVER, "MAC filter index %u: extra addresses use 1..%u", index,
			AQC_UC_FILTERS - 1);
		return -EINVAL;
	}
	if (index >= mc_first_slot(AQC_ADAPTER(dev))) {
		AQC_LOG(ERR, DRIVER, "MAC filter %u holds the multicast list (%u addresses)",
			index, AQC_ADAPTER(dev)->nb_mc);
		return -ENOSPC;
	}
	return aqc_ops(&AQC_ADAPTER(dev)->hw)->set_uc_filter(&AQC_ADAPTER(dev)->hw, index,
							     addr->addr_bytes, true);
}

void
aqc_mac_addr_remove(struct rte_eth_dev *dev, uint32_t index)
{
	static const uint8_t zero[RTE_ETHER_ADDR_LEN];

	if (index == 0 || index >= mc_first_slot(AQC_ADAPTER(dev)))
		return;
	aqc_ops(&AQC_ADAPTER(dev)->hw)->set_uc_filter(&AQC_ADAPTER(dev)->hw, index, zero, false);
}

int
aqc_set_mc_addr_list(struct rte_eth_dev *dev, struct rte_ether_addr *list, uint32_t n)
{
	static const uint8_t zero[RTE_ETHER_ADDR_LEN];
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	unsigned int first;

	if (n > AQC_UC_FILTERS - 1) {
		AQC_LOG(ERR, DRIVER, "multicast list of %u: at most %u addresses", n,
			AQC_UC_FILTERS - 1);
		return -ENOSPC;
	}
	first = AQC_UC_FILTERS - n;
	for (unsigned int i = 0; i < n; i++) {
		if (!rte_is_multicast_ether_addr(&list[i])) {
			AQC_LOG(ERR, DRIVER, "multicast list entry %u (" RTE_ETHER_ADDR_PRT_FMT
				") is not a multicast address", i,
				RTE_ETHER_ADDR_BYTES(&list[i]));
			return -EINVAL;
		}
		if (!rte_is_zero_ether_addr(&dev->data->mac_addrs[first + i])) {
			AQC_LOG(ERR, DRIVER, "multicast list of %u needs MAC filter %u, which holds a unicast address",
				n, first + i);
			return -ENOSPC;
		}
	}
	for (unsigned int s = mc_first_slot(ad); s < AQC_UC_FILTERS; s++)
		aqc_ops(&ad->hw)->set_uc_filter(&ad->hw, s, zero, false);
	for (unsigned int i = 0; i < n; i++) {
		int rc;

		ad->mc_list[i] = list[i];
		rc = aqc_ops(&ad->hw)->set_uc_filter(&ad->hw, first + i, list[i].addr_bytes, true);
		if (rc != 0)
			return rc;
	}
	ad->nb_mc = (uint16_t)n;
	return 0;
}

int
aqc_ext_apply(struct rte_eth_dev *dev)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	const struct aqc_gen_ops *ops = aqc_ops(&ad->hw);
	int rc = 0;

	for (unsigned int i = 0; i < ad->nb_mc && rc == 0; i++)
		rc = ops->set_uc_filter(&ad->hw, mc_first_slot(ad) + i, ad->mc_list[i].addr_bytes,
					true);
	for (unsigned int i = 1; i < mc_first_slot(ad) && rc == 0; i++)
		if (!rte_is_zero_ether_addr(&dev->data->mac_addrs[i]))
			rc = ops->set_uc_filter(&ad->hw, i, dev->data->mac_addrs[i].addr_bytes,
						true);
	for (unsigned int i = 0; i < AQC_VLAN_FILTERS && rc == 0; i++)
		if (ad->vlan_used & (1u << i))
			rc = ops->set_vlan_filter(&ad->hw, i, ad->vlan_vid[i], true);
	if (rc == 0)
		rc = ops->set_vlan_promisc(&ad->hw, !vlan_filter_offload(dev));
	if (rc != 0)
		return rc;
	if (ad->tpid_inner != 0)
		aqc_hw_set_tpid(&ad->hw, false, ad->tpid_inner);
	if (ad->tpid_outer != 0)
		aqc_hw_set_tpid(&ad->hw, true, ad->tpid_outer);
	return 0;
}

/* ---- link and flow control through the firmware (§3.3) ---- */

int
aqc_dev_set_link_up(struct rte_eth_dev *dev)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);

	if (!ad->started)
		return -EIO;
	return aqc_ops(&ad->hw)->set_link(&ad->hw, ad->link_rates_up, true);
}

int
aqc_dev_set_link_down(struct rte_eth_dev *dev)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	struct rte_eth_link link = {
		.link_status = RTE_ETH_LINK_DOWN, .link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_AUTONEG,
	};
	int rc;

	if (!ad->started)
		return -EIO;
	/* §3.3 DEINIT: no rates and LINK_DROP; §3.4 A2: link_up 0 */
	rc = aqc_ops(&ad->hw)->set_link(&ad->hw, 0, false);
	rte_eth_linkstatus_set(dev, &link);
	return rc;
}

#define FC_RX AQC_FMASK(CTL2_PAUSE)        /* §3.3: bit 3 = RX pause */
#define FC_TX AQC_FMASK(CTL2_ASYM_PAUSE)   /* §3.3: bit 4 = TX pause */

int
aqc_flow_ctrl_get(struct rte_eth_dev *dev, struct rte_eth_fc_conf *fc)
{
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;
	bool rx = (hw->fc_request & FC_RX) != 0, tx = (hw->fc_request & FC_TX) != 0;

	memset(fc, 0, sizeof(*fc));
	fc->mode = rx && tx ? RTE_ETH_FC_FULL : rx ? RTE_ETH_FC_RX_PAUSE :
		   tx ? RTE_ETH_FC_TX_PAUSE : RTE_ETH_FC_NONE;
	fc->autoneg = 1;
	return 0;
}

int
aqc_flow_ctrl_set(struct rte_eth_dev *dev, struct rte_eth_fc_conf *fc)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	uint32_t req;

	switch (fc->mode) {
	case RTE_ETH_FC_NONE:
		req = 0;
		break;
	case RTE_ETH_FC_RX_PAUSE:
		req = FC_RX;
		break;
	case RTE_ETH_FC_TX_PAUSE:
		req = FC_TX;
		break;
	case RTE_ETH_FC_FULL:
		req = FC_RX | FC_TX;
		break;
	default:
		AQC_LOG(ERR, DRIVER, "flow control mode %d unknown", fc->mode);
		return -EINVAL;
	}
	if (fc->high_water || fc->low_water || fc->pause_time || fc->send_xon ||
	    fc->mac_ctrl_frame_fwd) {
		/* the firmware takes only the pause mode (§3.3) */
		AQC_LOG(ERR, DRIVER, "flow control: only the mode can be set (water marks, pause time, XON and control-frame forwarding are the firmware's)");
		return -ENOTSUP;
	}
	ad->hw.fc_request = req;
	if (ad->started && ad->hw.link_rates != 0)
		return aqc_ops(&ad->hw)->set_link(&ad->hw, ad->hw.link_rates, true);
	return 0;
}

/* ---- descriptor status (§5.4 RX DD, §5.1 TX DD on the EOP descriptor) ---- */

uint32_t
aqc_rx_queue_count(void *q)
{
	struct aqc_rx_queue *rxq = q;
	uint32_t posted = rxq->nb_desc - rxq->nb_unposted, n = 0;
	uint16_t idx = rxq->next;

	while (n < posted && (rxq->ring[idx].qw[1] & AQC_RXD_DD)) {
		n++;
		idx = idx + 1 == rxq->nb_desc ? 0 : idx + 1;
	}
	return n;
}

int
aqc_rx_descriptor_status(void *q, uint16_t offset)
{
	struct aqc_rx_queue *rxq = q;
	uint32_t idx;

	if (offset >= rxq->nb_desc)
		return -EINVAL;
	/* slots past the posted ones belong to the driver (refill pending) */
	if (offset >= rxq->nb_desc - rxq->nb_unposted)
		return RTE_ETH_RX_DESC_UNAVAIL;
	idx = (uint32_t)rxq->next + offset;
	if (idx >= rxq->nb_desc)
		idx -= rxq->nb_desc;
	return (rxq->ring[idx].qw[1] & AQC_RXD_DD) ? RTE_ETH_RX_DESC_DONE :
						     RTE_ETH_RX_DESC_AVAIL;
}

int
aqc_tx_descriptor_status(void *q, uint16_t offset)
{
	struct aqc_tx_queue *txq = q;
	uint32_t idx, in_flight, pos;

	if (offset >= txq->nb_desc)
		return -EINVAL;
	idx = (uint32_t)txq->tail + offset;
	if (idx >= txq->nb_desc)
		idx -= txq->nb_desc;
	/* in flight: [clean, tail); anything else is free, i.e. done */
	in_flight = (txq->tail + txq->nb_desc - txq->clean) % txq->nb_desc;
	pos = (idx + txq->nb_desc - txq->clean) % txq->nb_desc;
	if (pos >= in_flight)
		return RTE_ETH_TX_DESC_DONE;
	/* the chip reports a packet done through DD in its EOP descriptor */
	return (txq->ring[txq->last_id[idx]].ctl & AQC_TXD_DD) ? RTE_ETH_TX_DESC_DONE :
								 RTE_ETH_TX_DESC_FULL;
}
