/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc: device operations and PCI probe of the AQC chips, A1 (AQC107
 * class) and A2 (AQC113 class); the generation's control-path operations
 * come from aqc_ops(hw) (aqc_gen.c, aqc2_hw.c).
 *
 * Probe (docs/ref/aqc.md §10.1 steps 1-5): map BAR0, mask interrupts, soft
 * reset, pick the firmware interface, read the permanent MAC. Start (steps
 * 6-23): reset again, program the TX/RX paths, filters, link request, RSS,
 * rings, then turn the packet buffers on. The PMD polls; interrupts stay
 * masked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bus_pci_driver.h>
#include <ethdev_pci.h>
#include <rte_cycles.h>
#include <rte_devargs.h>
#include <rte_kvargs.h>
#include <rte_malloc.h>

#include "aqc_ethdev.h"
#include "aqc_log.h"
#include "aqc2_regs.h"

/* ---- statistics: free-running registers accumulated as deltas ---- */

static void
stats_update(struct aqc_adapter *ad)
{
	struct aqc_dma_counters now;

	aqc_hw_read_dma_counters(&ad->hw, &now);
	ad->dma_acc.rx_pkts += now.rx_pkts - ad->dma_last.rx_pkts;
	ad->dma_acc.rx_octets += now.rx_octets - ad->dma_last.rx_octets;
	ad->dma_acc.tx_pkts += now.tx_pkts - ad->dma_last.tx_pkts;
	ad->dma_acc.tx_octets += now.tx_octets - ad->dma_last.tx_octets;
	ad->dma_acc.rx_drops += now.rx_drops - ad->dma_last.rx_drops;
	ad->dma_last = now;
}

/* What stats_update would bank, without banking it: a secondary process
 * (dpdk-proc-info) reads, the primary owns dma_last and dma_acc. A read
 * racing with the primary's own banking can be off by that one delta. */
static void
stats_peek(struct aqc_adapter *ad, struct aqc_dma_counters *acc)
{
	struct aqc_dma_counters now;

	aqc_hw_read_dma_counters(&ad->hw, &now);
	acc->rx_pkts = ad->dma_acc.rx_pkts + (now.rx_pkts - ad->dma_last.rx_pkts);
	acc->rx_octets = ad->dma_acc.rx_octets + (now.rx_octets - ad->dma_last.rx_octets);
	acc->tx_pkts = ad->dma_acc.tx_pkts + (now.tx_pkts - ad->dma_last.tx_pkts);
	acc->tx_octets = ad->dma_acc.tx_octets + (now.tx_octets - ad->dma_last.tx_octets);
	acc->rx_drops = ad->dma_acc.rx_drops + (now.rx_drops - ad->dma_last.rx_drops);
}

/* FW MAC counters: A1 32-bit, A2 64-bit cumulative values (ops). */
static void
fw_stats_update(struct aqc_adapter *ad)
{
	const struct aqc_gen_ops *ops = aqc_ops(&ad->hw);
	uint64_t now[AQC_XSTATS_MAX];
	uint64_t mask = ops->stats_bits >= 64 ? ~0ull : (1ull << ops->stats_bits) - 1;

	if (ops->stats_read(&ad->hw, now) != 0)
		return;
	for (unsigned int i = 0; i < ops->nb_xstats; i++)
		ad->fw_acc[i] += (now[i] - ad->fw_last[i]) & mask;
	memcpy(ad->fw_last, now, sizeof(now[0]) * ops->nb_xstats);
}

/* After a reset the counters restart from zero: take new baselines. */
static void
stats_rebase(struct aqc_adapter *ad)
{
	aqc_hw_read_dma_counters(&ad->hw, &ad->dma_last);
	if (aqc_ops(&ad->hw)->stats_read(&ad->hw, ad->fw_last) != 0)
		memset(ad->fw_last, 0, sizeof(ad->fw_last));
}

bool
aqc_reset_check(struct rte_eth_dev *dev)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);

	/* the primary process acts on a reset; others only learn of it */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return ad->reset_seen;
	if (!ad->started || ad->reset_seen || ad->hw.bar0 == NULL ||
	    AQC_GET_FIELD(&ad->hw, TPB_EN))
		return ad->reset_seen;
	ad->reset_seen = true;
	ad->chip_resets++;
	/* the counters restarted at 0: what they held since the last read is
	 * lost, the next reads must not take the restart for a wrap */
	stats_rebase(ad);
	AQC_LOG(ERR, DRIVER, "port %u: the chip was reset under traffic; "
		"rte_eth_dev_reset and a new configuration bring it back",
		dev->data->port_id);
	rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_RESET, NULL);
	return true;
}

static int
aqc_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	struct aqc_dma_counters acc;

	if (rte_eal_process_type() == RTE_PROC_PRIMARY) {
		aqc_reset_check(dev);
		stats_update(ad);
		acc = ad->dma_acc;
	} else {
		stats_peek(ad, &acc);
	}
	st->ipackets = acc.rx_pkts;
	st->ibytes = acc.rx_octets;
	st->opackets = acc.tx_pkts;
	st->obytes = acc.tx_octets;
	st->imissed = acc.rx_drops;
	st->ierrors = 0;
	for (uint16_t i = 0; i < dev->data->nb_rx_queues; i++) {
		struct aqc_rx_queue *rxq = dev->data->rx_queues[i];

		if (rxq == NULL)
			continue;
		st->ierrors += rxq->errors;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			st->q_ipackets[i] = rxq->pkts;
			st->q_ibytes[i] = rxq->bytes;
			st->q_errors[i] = rxq->errors;
		}
	}
	st->oerrors = 0;
	for (uint16_t i = 0; i < dev->data->nb_tx_queues; i++) {
		struct aqc_tx_queue *txq = dev->data->tx_queues[i];

		if (txq == NULL)
			continue;
		st->oerrors += txq->errors;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			st->q_opackets[i] = txq->pkts;
			st->q_obytes[i] = txq->bytes;
		}
	}
	return 0;
}

static int
aqc_stats_reset(struct rte_eth_dev *dev)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	const struct aqc_backend *be = aqc_backend(dev);

	stats_update(ad);
	/* a firmware statistics request is the primary's (it may be making
	 * one): a secondary's reset counts the MAC counters from the
	 * primary's last read */
	if (ad->started && rte_eal_process_type() == RTE_PROC_PRIMARY)
		fw_stats_update(ad);
	memset(&ad->dma_acc, 0, sizeof(ad->dma_acc));
	memset(ad->fw_acc, 0, sizeof(ad->fw_acc));
	ad->chip_resets = ad->tx_lost_reset = 0;
	for (uint16_t i = 0; i < dev->data->nb_rx_queues; i++) {
		struct aqc_rx_queue *rxq = dev->data->rx_queues[i];

		if (rxq != NULL)
			rxq->pkts = rxq->bytes = rxq->errors = rxq->nombuf = 0;
	}
	for (uint16_t i = 0; i < dev->data->nb_tx_queues; i++) {
		struct aqc_tx_queue *txq = dev->data->tx_queues[i];

		if (txq != NULL)
			txq->pkts = txq->bytes = txq->errors = 0;
	}
	dev->data->rx_mbuf_alloc_failed = 0;
	if (be != NULL && be->xstats != NULL)
		be->xstats(be->arg, NULL, ad->xstats_extra_base);
	return 0;
}

static unsigned int
xstats_extra_count(const struct aqc_backend *be)
{
	return be != NULL && be->xstats != NULL ? be->xstats(be->arg, NULL, NULL) : 0;
}

/* xstats: the firmware MAC counters (docs/ref/aqc.md §3.1 on A1, §3.4 on A2), names
 * from the generation's list, then the backend's extra ones, then the
 * driver's own: chip resets it did not ask for, frames lost in them. */
#define AQC_XSTATS_DRIVER 2
static int
aqc_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names,
		     unsigned int size)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	const struct aqc_gen_ops *ops = aqc_ops(&ad->hw);
	const struct aqc_backend *be = aqc_backend(dev);
	unsigned int n = ops->nb_xstats, extra = xstats_extra_count(be);

	if (names == NULL || size < n + extra + AQC_XSTATS_DRIVER)
		return n + extra + AQC_XSTATS_DRIVER;
	for (unsigned int i = 0; i < n; i++)
		snprintf(names[i].name, sizeof(names[i].name), "%s", ops->xstat_names[i]);
	if (extra > 0)
		be->xstats(be->arg, names + n, NULL);
	snprintf(names[n + extra].name, sizeof(names[0].name), "chip_resets");
	snprintf(names[n + extra + 1].name, sizeof(names[0].name), "tx_lost_in_reset");
	return n + extra + AQC_XSTATS_DRIVER;
}

static int
aqc_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs, unsigned int n)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	unsigned int nb = aqc_ops(&ad->hw)->nb_xstats;
	const struct aqc_backend *be = aqc_backend(dev);

	unsigned int nfw = nb, extra = xstats_extra_count(be);
	uint64_t ev[AQC_XSTATS_EXTRA_MAX];

	if (xs == NULL || n < nfw + extra + AQC_XSTATS_DRIVER)
		return nfw + extra + AQC_XSTATS_DRIVER;
	/* a secondary process shows the MAC counters as the primary last
	 * read them (the firmware request is the primary's) */
	if (ad->started && rte_eal_process_type() == RTE_PROC_PRIMARY &&
	    !aqc_reset_check(dev))
		fw_stats_update(ad);
	for (unsigned int i = 0; i < nfw; i++) {
		xs[i].id = i;
		xs[i].value = ad->fw_acc[i];
	}
	if (extra > 0)
		be->xstats(be->arg, NULL, ev);
	for (unsigned int i = 0; i < extra; i++) {
		xs[nfw + i].id = nfw + i;
		xs[nfw + i].value = ev[i] - ad->xstats_extra_base[i];
	}
	xs[nfw + extra] = (struct rte_eth_xstat){ nfw + extra, ad->chip_resets };
	xs[nfw + extra + 1] = (struct rte_eth_xstat){ nfw + extra + 1, ad->tx_lost_reset };
	return nfw + extra + AQC_XSTATS_DRIVER;
}

/* ---- configuration ---- */

static int
aqc_dev_configure(struct rte_eth_dev *dev)
{
	struct rte_eth_conf *c = &dev->data->dev_conf;

	if (c->rxmode.mq_mode & RTE_ETH_MQ_RX_RSS_FLAG)
		c->rxmode.offloads |= RTE_ETH_RX_OFFLOAD_RSS_HASH;
	if (c->rxmode.mq_mode != RTE_ETH_MQ_RX_NONE &&
	    c->rxmode.mq_mode != RTE_ETH_MQ_RX_RSS) {
		AQC_LOG(ERR, DRIVER, "rx mq_mode %d not supported (only none or RSS)",
			c->rxmode.mq_mode);
		return -EINVAL;
	}
	if (c->link_speeds & RTE_ETH_LINK_SPEED_FIXED) {
		AQC_LOG(ERR, DRIVER, "fixed link speed not supported (autonegotiation only)");
		return -EINVAL;
	}
	return aqc_rss_configure(dev);
}

static uint32_t
speed_capa(uint32_t caps)
{
	uint32_t s = 0;

	if (caps & AQC_RATE_10M)
		s |= RTE_ETH_LINK_SPEED_10M;
	if (caps & AQC_RATE_100M)
		s |= RTE_ETH_LINK_SPEED_100M;
	if (caps & AQC_RATE_1G)
		s |= RTE_ETH_LINK_SPEED_1G;
	if (caps & AQC_RATE_2G5)
		s |= RTE_ETH_LINK_SPEED_2_5G;
	if (caps & AQC_RATE_5G)
		s |= RTE_ETH_LINK_SPEED_5G;
	if (caps & AQC_RATE_10G)
		s |= RTE_ETH_LINK_SPEED_10G;
	return s;
}

static int
aqc_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *di)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);

	di->max_rx_queues = AQC_MAX_QUEUES;
	di->max_tx_queues = AQC_MAX_QUEUES;
	di->min_rx_bufsize = AQC_RX_BUF_UNIT;
	di->max_rx_pktlen = AQC_MAX_FRAME;
	di->max_mtu = AQC_MAX_FRAME - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN;
	di->min_mtu = RTE_ETHER_MIN_MTU;
	di->max_mac_addrs = AQC_UC_FILTERS;   /* §6.4: 33 unicast filters */
	di->max_vfs = 0;
	di->rx_desc_lim = (struct rte_eth_desc_lim){
		.nb_max = AQC_RING_MAX_DESC, .nb_min = AQC_RING_MIN_DESC,
		.nb_align = AQC_RING_ALIGN_DESC,
	};
	di->tx_desc_lim = (struct rte_eth_desc_lim){
		.nb_max = AQC_RING_MAX_DESC, .nb_min = AQC_RING_MIN_DESC,
		.nb_align = AQC_RING_ALIGN_DESC, .nb_seg_max = AQC_TX_MAX_SEGS,
		.nb_mtu_seg_max = AQC_TX_MAX_SEGS,
	};
	di->rx_offload_capa = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
		RTE_ETH_RX_OFFLOAD_UDP_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
		RTE_ETH_RX_OFFLOAD_VLAN_STRIP | RTE_ETH_RX_OFFLOAD_SCATTER |
		RTE_ETH_RX_OFFLOAD_RSS_HASH | RTE_ETH_RX_OFFLOAD_VLAN_FILTER |
		RTE_ETH_RX_OFFLOAD_TCP_LRO;
	/* docs/ref/aqc.md §4.1: strip and LRO are per-ring bits */
	di->rx_queue_offload_capa = RTE_ETH_RX_OFFLOAD_VLAN_STRIP | RTE_ETH_RX_OFFLOAD_TCP_LRO;
	/* docs/ref/aqc.md §5.4: the write-back length field is 16 bits */
	di->max_lro_pkt_size = UINT16_MAX;
	di->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
		RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE |
		RTE_ETH_TX_OFFLOAD_VLAN_INSERT | RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
		RTE_ETH_TX_OFFLOAD_UDP_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
		RTE_ETH_TX_OFFLOAD_TCP_TSO;
	di->hash_key_size = AQC_RSS_KEY_LEN;
	di->reta_size = AQC_RSS_RETA_SIZE;
	di->flow_type_rss_offloads = AQC_RSS_HF;
	di->speed_capa = speed_capa(ad->hw.caps_lo);
	di->default_rxconf = (struct rte_eth_rxconf){
		.rx_free_thresh = AQC_RX_FREE_THRESH,
	};
	di->default_txconf = (struct rte_eth_txconf){
		.tx_free_thresh = AQC_TX_FREE_THRESH,
	};
	di->default_rxportconf.burst_size = 32;
	di->default_txportconf.burst_size = 32;
	di->default_rxportconf.ring_size = 1024;
	di->default_txportconf.ring_size = 1024;
	di->default_rxportconf.nb_queues = 1;
	di->default_txportconf.nb_queues = 1;
	return 0;
}

static uint32_t
rates_from_conf(uint32_t link_speeds, uint32_t caps)
{
	uint32_t r = 0;

	if (link_speeds == RTE_ETH_LINK_SPEED_AUTONEG)
		return caps & (AQC_RATE_ALL | AQC_RATE_10M);
	if (link_speeds & RTE_ETH_LINK_SPEED_10M)
		r |= AQC_RATE_10M;
	if (link_speeds & RTE_ETH_LINK_SPEED_100M)
		r |= AQC_RATE_100M;
	if (link_speeds & RTE_ETH_LINK_SPEED_1G)
		r |= AQC_RATE_1G;
	if (link_speeds & RTE_ETH_LINK_SPEED_2_5G)
		r |= AQC_RATE_2G5;
	if (link_speeds & RTE_ETH_LINK_SPEED_5G)
		r |= AQC_RATE_5G;
	if (link_speeds & RTE_ETH_LINK_SPEED_10G)
		r |= AQC_RATE_10G;
	return r & caps;
}

static int
aqc_dev_link_update(struct rte_eth_dev *dev, int wait)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	struct rte_eth_link link = {
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_AUTONEG,
	};
	uint32_t speed = 0;

	for (unsigned int i = 0; ad->started; i++) {
		speed = aqc_ops(&ad->hw)->link_speed(&ad->hw);
		if (speed != 0 || !wait || i >= 100)
			break;
		rte_delay_us_sleep(10000);
	}
	link.link_speed = speed ? speed : RTE_ETH_SPEED_NUM_NONE;
	link.link_status = speed ? RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN;
	return rte_eth_linkstatus_set(dev, &link);
}

static int aqc_dev_stop(struct rte_eth_dev *dev);

static int
aqc_dev_start(struct rte_eth_dev *dev)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	struct aqc_hw *hw = &ad->hw;
	uint64_t rxo = dev->data->dev_conf.rxmode.offloads;
	uint64_t txo = dev->data->dev_conf.txmode.offloads;
	uint16_t i;
	int rc;

	/* step 6: reset again; counters restart, so bank them first */
	stats_update(ad);
	fw_stats_update(ad);
	rc = aqc_ops(hw)->reset(hw);
	if (rc != 0)
		return rc;
	stats_rebase(ad);
	ad->reset_seen = false;
	rc = aqc_ops(hw)->init_paths(hw, (rxo & (RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
						 RTE_ETH_RX_OFFLOAD_UDP_CKSUM |
						 RTE_ETH_RX_OFFLOAD_TCP_CKSUM)) != 0,
				     (txo & (RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
					     RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
					     RTE_ETH_TX_OFFLOAD_TCP_CKSUM)) != 0);
	if (rc == 0)
		rc = aqc_ops(hw)->set_station_mac(hw, dev->data->mac_addrs[0].addr_bytes);
	if (rc == 0)
		rc = aqc_ops(hw)->set_promisc(hw, dev->data->promiscuous);
	if (rc == 0)
		rc = aqc_ops(hw)->set_allmulti(hw, dev->data->all_multicast);
	if (rc == 0)
		rc = aqc_ext_apply(dev);
	if (rc == 0)
		rc = aqc_rss_apply(dev);
	/* step 10: link request and state INIT */
	ad->link_rates_up = rates_from_conf(dev->data->dev_conf.link_speeds, hw->caps_lo);
	if (rc == 0)
		rc = aqc_ops(hw)->set_link(hw, ad->link_rates_up, true);
	if (rc != 0)
		return rc;
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct aqc_tx_queue *txq = dev->data->tx_queues[i];

		if (txq != NULL && !txq->deferred && (rc = aqc_tx_queue_start(dev, i)) != 0)
			goto fail;
	}
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct aqc_rx_queue *rxq = dev->data->rx_queues[i];

		if (rxq != NULL && !rxq->deferred && (rc = aqc_rx_queue_start(dev, i)) != 0)
			goto fail;
	}
	aqc_rx_burst_select(dev);
	/* step 19, LNX order: packet buffers on once the rings are ready */
	aqc_hw_packet_buffers(hw, true);
	ad->started = true;
	aqc_dev_link_update(dev, 0);
	rc = aqc_lsc_start(dev);
	if (rc != 0) {
		AQC_LOG(ERR, DRIVER, "port %u: cannot start link events: %s",
			dev->data->port_id, strerror(-rc));
		aqc_dev_stop(dev);
	}
	return rc;
fail:
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		aqc_rx_queue_stop(dev, i);
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		aqc_tx_queue_stop(dev, i);
	return rc;
}

static int
aqc_dev_stop(struct rte_eth_dev *dev)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	struct rte_eth_link link = { .link_status = RTE_ETH_LINK_DOWN };
	int rc = 0;

	if (!ad->started)
		return 0;
	aqc_reset_check(dev);
	ad->started = false;   /* the link-event alarm stops re-arming */
	aqc_lsc_stop(dev);
	stats_update(ad);
	/* frames the chip lost with its rings in the reset: freed below */
	for (uint16_t i = 0; ad->reset_seen && i < dev->data->nb_tx_queues; i++) {
		struct aqc_tx_queue *txq = dev->data->tx_queues[i];

		if (txq != NULL && txq->started)
			ad->tx_lost_reset += aqc_tx_queue_pending(txq);
	}
	for (uint16_t i = 0; i < dev->data->nb_rx_queues; i++)
		rc |= aqc_rx_queue_stop(dev, i);
	for (uint16_t i = 0; i < dev->data->nb_tx_queues; i++)
		rc |= aqc_tx_queue_stop(dev, i);
	aqc_hw_packet_buffers(&ad->hw, false);
	/* §10.1 stop: FW 2.x deinit = no rates and LINK_DROP; A2: link_up 0 */
	if (aqc_ops(&ad->hw)->set_link(&ad->hw, 0, false) != 0)
		rc = -1;
	ad->started = false;
	dev->data->dev_started = 0;
	rte_eth_linkstatus_set(dev, &link);
	return rc != 0 ? -EIO : 0;
}

static int
aqc_dev_close(struct rte_eth_dev *dev)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	struct aqc_backend *be = dev->process_private;
	int rc = 0;

	/* this process's view of the backend goes in every process; the
	 * port and what backs it only in the primary */
	dev->process_private = NULL;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		free(be);
		return 0;
	}
	rc = aqc_dev_stop(dev);
	for (uint16_t i = 0; i < dev->data->nb_rx_queues; i++)
		aqc_rx_queue_release(dev, i);
	for (uint16_t i = 0; i < dev->data->nb_tx_queues; i++)
		aqc_tx_queue_release(dev, i);
	if (be != NULL && be->close != NULL) {
		be->close(be->arg);
		ad->hw.bar0 = NULL;
	}
	free(be);
	return rc;
}

static int
aqc_dev_reset(struct rte_eth_dev *dev)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	int rc;

	rc = aqc_dev_stop(dev);
	if (rc != 0)
		return rc;
	rc = aqc_ops(&ad->hw)->reset(&ad->hw);
	if (rc == 0)
		stats_rebase(ad);
	return rc;
}

static int
aqc_promisc_enable(struct rte_eth_dev *dev)
{
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;

	return aqc_ops(hw)->set_promisc(hw, true);
}

static int
aqc_promisc_disable(struct rte_eth_dev *dev)
{
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;

	return aqc_ops(hw)->set_promisc(hw, false);
}

static int
aqc_allmulti_enable(struct rte_eth_dev *dev)
{
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;

	return aqc_ops(hw)->set_allmulti(hw, true);
}

static int
aqc_allmulti_disable(struct rte_eth_dev *dev)
{
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;

	return aqc_ops(hw)->set_allmulti(hw, false);
}

static int
aqc_mac_addr_set(struct rte_eth_dev *dev, struct rte_ether_addr *addr)
{
	if (!rte_is_valid_assigned_ether_addr(addr)) {
		AQC_LOG(ERR, DRIVER, "MAC " RTE_ETHER_ADDR_PRT_FMT " is not a unicast address",
			RTE_ETHER_ADDR_BYTES(addr));
		return -EINVAL;
	}
	return aqc_ops(&AQC_ADAPTER(dev)->hw)->set_station_mac(&AQC_ADAPTER(dev)->hw,
							       addr->addr_bytes);
}

static int
aqc_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	(void)dev;
	/* §6.8: A1 has no MTU register; only the frame limit applies */
	if ((uint32_t)mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN > AQC_MAX_FRAME) {
		AQC_LOG(ERR, DRIVER, "MTU %u exceeds the %u-byte frame limit", mtu,
			AQC_MAX_FRAME);
		return -EINVAL;
	}
	return 0;
}

static int
aqc_fw_version_get(struct rte_eth_dev *dev, char *buf, size_t size)
{
	uint32_t v = AQC_ADAPTER(dev)->hw.fw_version;
	int n = snprintf(buf, size, "%u.%u.%u", v >> 24, (v >> 16) & 0xff, v & 0xffff);

	if (n < 0)
		return -EINVAL;
	return (size_t)n + 1 > size ? n + 1 : 0;
}

static int
aqc_get_reg(struct rte_eth_dev *dev, struct rte_dev_reg_info *info)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	unsigned int nb = aqc_ops(&ad->hw)->nb_regs;

	if (info->data == NULL) {
		info->length = nb;
		info->width = sizeof(uint32_t);
		return 0;
	}
	if (info->length != 0 && info->length != nb)
		return -ENOTSUP;
	info->length = nb;
	info->width = sizeof(uint32_t);
	info->version = aqc_rd(&ad->hw, AQC_R_MIF_ID);
	aqc_ops(&ad->hw)->dump_regs(&ad->hw, info->data);
	return 0;
}

static void
aqc_rxq_info_get(struct rte_eth_dev *dev, uint16_t qid, struct rte_eth_rxq_info *qi)
{
	struct aqc_rx_queue *rxq = dev->data->rx_queues[qid];

	qi->mp = rxq->mp;
	qi->nb_desc = rxq->nb_desc;
	qi->rx_buf_size = rxq->buf_len;
	qi->scattered_rx = 1;
	qi->conf.rx_free_thresh = rxq->free_thresh;
	qi->conf.rx_deferred_start = rxq->deferred;
}

static void
aqc_txq_info_get(struct rte_eth_dev *dev, uint16_t qid, struct rte_eth_txq_info *qi)
{
	struct aqc_tx_queue *txq = dev->data->tx_queues[qid];

	qi->nb_desc = txq->nb_desc;
	qi->conf.tx_free_thresh = txq->free_thresh;
	qi->conf.tx_deferred_start = txq->deferred;
}

static const struct eth_dev_ops aqc_eth_dev_ops = {
	.dev_configure = aqc_dev_configure,
	.dev_infos_get = aqc_dev_infos_get,
	.dev_start = aqc_dev_start,
	.dev_stop = aqc_dev_stop,
	.dev_close = aqc_dev_close,
	.dev_reset = aqc_dev_reset,
	.link_update = aqc_dev_link_update,
	.promiscuous_enable = aqc_promisc_enable,
	.promiscuous_disable = aqc_promisc_disable,
	.allmulticast_enable = aqc_allmulti_enable,
	.allmulticast_disable = aqc_allmulti_disable,
	.mac_addr_set = aqc_mac_addr_set,
	.mtu_set = aqc_mtu_set,
	.stats_get = aqc_stats_get,
	.stats_reset = aqc_stats_reset,
	.xstats_get = aqc_xstats_get,
	.xstats_get_names = aqc_xstats_get_names,
	.xstats_reset = aqc_stats_reset,
	.fw_version_get = aqc_fw_version_get,
	.get_reg = aqc_get_reg,
	.rss_hash_update = aqc_rss_hash_update,
	.rss_hash_conf_get = aqc_rss_hash_conf_get,
	.reta_update = aqc_rss_reta_update,
	.reta_query = aqc_rss_reta_query,
	.dev_supported_ptypes_get = aqc_supported_ptypes,
	.rx_queue_setup = aqc_rx_queue_setup,
	.rx_queue_release = aqc_rx_queue_release,
	.rx_queue_start = aqc_rx_queue_start,
	.rx_queue_stop = aqc_rx_queue_stop,
	.tx_queue_setup = aqc_tx_queue_setup,
	.tx_queue_release = aqc_tx_queue_release,
	.tx_queue_start = aqc_tx_queue_start,
	.tx_queue_stop = aqc_tx_queue_stop,
	.rxq_info_get = aqc_rxq_info_get,
	.txq_info_get = aqc_txq_info_get,
	.vlan_offload_set = aqc_vlan_offload_set,
	.vlan_strip_queue_set = aqc_vlan_strip_queue_set,
	.vlan_filter_set = aqc_vlan_filter_set,
	.vlan_tpid_set = aqc_vlan_tpid_set,
	.mac_addr_add = aqc_mac_addr_add,
	.mac_addr_remove = aqc_mac_addr_remove,
	.set_mc_addr_list = aqc_set_mc_addr_list,
	.dev_set_link_up = aqc_dev_set_link_up,
	.dev_set_link_down = aqc_dev_set_link_down,
	.flow_ctrl_get = aqc_flow_ctrl_get,
	.flow_ctrl_set = aqc_flow_ctrl_set,
	.get_module_info = aqc_get_module_info,
	.get_module_eeprom = aqc_get_module_eeprom,
};

int
aqc_dev_init(struct rte_eth_dev *dev)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	struct aqc_hw *hw = &ad->hw;
	uint8_t mac[RTE_ETHER_ADDR_LEN];
	int rc;

	dev->dev_ops = &aqc_eth_dev_ops;
	dev->rx_pkt_burst = aqc_recv_pkts;
	dev->tx_pkt_burst = aqc_xmit_pkts;
	dev->tx_pkt_prepare = aqc_prep_pkts;
	dev->rx_queue_count = aqc_rx_queue_count;
	dev->rx_descriptor_status = aqc_rx_descriptor_status;
	dev->tx_descriptor_status = aqc_tx_descriptor_status;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	dev->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS | RTE_ETH_DEV_INTR_LSC;
	/* the generation first: one operations table from here on */
	rc = aqc_gen_detect(hw);
	if (rc != 0)
		return rc;
	/* step 2: interrupts off (same register on A1 and A2); step 3-5 */
	aqc_wr(hw, AQC_R_ITR_MASK_CLR, 0xffffffff);
	rc = aqc_ops(hw)->reset(hw);
	if (rc == 0)
		rc = aqc_ops(hw)->get_mac(hw, mac);
	if (rc != 0) {
		AQC_LOG(ERR, INIT, "port %u: bring-up failed: %s", dev->data->port_id,
			strerror(-rc));
		return rc;
	}
	stats_rebase(ad);
	aqc_rss_init(ad);
	dev->data->mac_addrs = rte_zmalloc("aqc_mac", RTE_ETHER_ADDR_LEN * AQC_UC_FILTERS, 0);
	if (dev->data->mac_addrs == NULL)
		return -ENOMEM;
	memcpy(dev->data->mac_addrs[0].addr_bytes, mac, RTE_ETHER_ADDR_LEN);
	AQC_LOG(INFO, INIT, "port %u: %s, MIF ID 0x%x, FW %u.%u.%u, MAC " RTE_ETHER_ADDR_PRT_FMT,
		dev->data->port_id, aqc_ops(hw)->name, hw->mif_id, hw->fw_version >> 24,
		(hw->fw_version >> 16) & 0xff, hw->fw_version & 0xffff,
		RTE_ETHER_ADDR_BYTES(&dev->data->mac_addrs[0]));
	return 0;
}

/* ---- PCI probe (docs/ref/aqc.md §1, §9) ---- */

static int
aqc_pci_dev_init(struct rte_eth_dev *dev)
{
	struct rte_pci_device *pci = RTE_ETH_DEV_TO_PCI(dev);
	struct aqc_adapter *ad = AQC_ADAPTER(dev);

	/* §1: registers in BAR0 (memory); vfio-pci enables bus mastering */
	ad->hw.bar0 = pci->mem_resource[0].addr;
	if (ad->hw.bar0 == NULL) {
		AQC_LOG(ERR, INIT, "%s: BAR0 not mapped", pci->device.name);
		return -ENODEV;
	}
	ad->hw.pci_device = pci->id.device_id;
	rte_eth_copy_pci_info(dev, pci);
	return aqc_dev_init(dev);
}

/* Which driver binds (FEATURES.md): the PCI bus offers a device to its
 * drivers in registration order and stops at the first that takes it; a
 * positive probe result hands it on to the next (DPDK 22.11
 * drivers/bus/pci/pci_common.c pci_probe_all_drivers). So a device given
 * as "-a BDF,driver=NAME" with NAME other than net_aqc is handed on.
 * 1: take it, 0: hand it on, -EINVAL: bad devargs. */
static int
pci_device_wanted(const struct rte_pci_device *pci)
{
	static const char *const keys[] = { "driver", NULL };
	const struct rte_devargs *da = pci->device.devargs;
	struct rte_kvargs *kv;
	const char *want;
	int rc;

	if (da == NULL || da->args == NULL || da->args[0] == '\0')
		return 1;
	kv = rte_kvargs_parse(da->args, keys);
	if (kv == NULL) {
		AQC_LOG(ERR, INIT, "%s: devargs '%s' not understood: the only key is driver=NAME",
			pci->device.name, da->args);
		return -EINVAL;
	}
	want = rte_kvargs_get(kv, "driver");
	rc = want == NULL || strcmp(want, "net_aqc") == 0;
	if (rc == 0)
		AQC_LOG(INFO, INIT, "%s: driver=%s asked, left to that driver",
			pci->device.name, want);
	rte_kvargs_free(kv);
	return rc;
}

static int
aqc_pci_probe(struct rte_pci_driver *drv, struct rte_pci_device *pci)
{
	int rc = pci_device_wanted(pci);

	(void)drv;
	if (rc <= 0)
		return rc < 0 ? rc : 1;
	return rte_eth_dev_pci_generic_probe(pci, sizeof(struct aqc_adapter),
					     aqc_pci_dev_init);
}

static int
aqc_pci_remove(struct rte_pci_device *pci)
{
	return rte_eth_dev_pci_generic_remove(pci, aqc_dev_close);
}

static const struct rte_pci_id aqc_pci_ids[] = {
#define AQC_PCI_ID(dev) { RTE_PCI_DEVICE(AQC_PCI_VENDOR, dev) },
	AQC_A1_DEVICE_IDS(AQC_PCI_ID)
	AQC_A2_DEVICE_IDS(AQC_PCI_ID)
#undef AQC_PCI_ID
	{ .vendor_id = 0 },
};

static struct rte_pci_driver aqc_pci_driver = {
	.id_table = aqc_pci_ids,
	.drv_flags = RTE_PCI_DRV_NEED_MAPPING,
	.probe = aqc_pci_probe,
	.remove = aqc_pci_remove,
};

RTE_PMD_REGISTER_PCI(net_aqc, aqc_pci_driver);
RTE_PMD_REGISTER_PCI_TABLE(net_aqc, aqc_pci_ids);
RTE_PMD_REGISTER_KMOD_DEP(net_aqc, "* vfio-pci");
