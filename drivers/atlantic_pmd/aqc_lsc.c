/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc link-state change events (RTE_ETH_EVENT_INTR_LSC).
 *
 * The link cause is routed like DPDK's own driver does it (docs/ref/aqc.md
 * §6.9: general map register 3 = 0x88, link cause on vector 8) and unmasked;
 * the chip then latches status bit 8 (0x2000) when the link changes. The PMD
 * does not take the interrupt through vfio: an EAL alarm reads the status
 * register every AQC_LSC_POLL_US, clears the bit (0x2050, write 1 to clear),
 * reads the link and raises the event when it changed. The same code runs on
 * the chip model, which latches the same cause bit.
 */
#include <rte_alarm.h>

#include "aqc_ethdev.h"
#include "aqc_log.h"

#define AQC_LSC_POLL_US 10000u
#define AQC_LSC_MAP     0x88u            /* §6.9: enable | vector 8 */
#define AQC_LSC_BIT     (1u << 8)

static void
lsc_poll(void *arg)
{
	struct rte_eth_dev *dev = arg;
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	struct rte_eth_link before, after;

	if (!ad->started)
		return;
	aqc_reset_check(dev);
	if (aqc_rd(&ad->hw, AQC_R_ITR_STATUS) & AQC_LSC_BIT) {
		aqc_wr(&ad->hw, AQC_R_ITR_CLEAR, AQC_LSC_BIT);
		rte_eth_linkstatus_get(dev, &before);
		dev->dev_ops->link_update(dev, 0);
		rte_eth_linkstatus_get(dev, &after);
		if (before.link_status != after.link_status ||
		    before.link_speed != after.link_speed)
			rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_LSC, NULL);
	}
	if (rte_eal_alarm_set(AQC_LSC_POLL_US, lsc_poll, dev) != 0)
		AQC_LOG(ERR, DRIVER, "port %u: link events stop (no EAL alarm)",
			dev->data->port_id);
}

int
aqc_lsc_start(struct rte_eth_dev *dev)
{
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;

	if (!dev->data->dev_conf.intr_conf.lsc)
		return 0;
	aqc_wr(hw, AQC_RI(ITR_GEN_MAP, 3), AQC_LSC_MAP);
	aqc_wr(hw, AQC_R_ITR_CLEAR, AQC_LSC_BIT);
	aqc_wr(hw, AQC_R_ITR_MASK_SET, AQC_LSC_BIT);
	return rte_eal_alarm_set(AQC_LSC_POLL_US, lsc_poll, dev);
}

void
aqc_lsc_stop(struct rte_eth_dev *dev)
{
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;

	rte_eal_alarm_cancel(lsc_poll, dev);
	if (hw->bar0 != NULL && dev->data->dev_conf.intr_conf.lsc) {
		aqc_wr(hw, AQC_R_ITR_MASK_CLR, AQC_LSC_BIT);
		aqc_wr(hw, AQC_RI(ITR_GEN_MAP, 3), 0);
	}
}
