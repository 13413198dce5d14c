/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc on a vdev's register file (aqc_vdev.h): the PCI probe's bring-up
 * (aqc_dev_init) on a BAR0 someone else provides.
 */
#include <errno.h>

#include <bus_vdev_driver.h>
#include <ethdev_vdev.h>
#include <rte_eal.h>

#include "aqc_ethdev.h"
#include "aqc_log.h"

int
aqc_vdev_attach(struct rte_vdev_device *vdev, uint8_t *bar0, const struct aqc_backend *be)
{
	struct rte_eth_dev *dev;
	struct aqc_adapter *ad;
	int rc;

	if (bar0 == NULL || be == NULL)
		return -EINVAL;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		AQC_LOG(ERR, INIT, "%s: a vdev port is attached in the primary process only",
			rte_vdev_device_name(vdev));
		return -ENOTSUP;
	}
	dev = rte_eth_vdev_allocate(vdev, sizeof(struct aqc_adapter));
	if (dev == NULL)
		return -ENOMEM;
	ad = AQC_ADAPTER(dev);
	ad->hw.bar0 = bar0;
	ad->close_arg = be->arg;
	ad->rx_poll_hook = be->rx_polled;
	ad->xstats_extra = be->xstats;
	rc = aqc_dev_init(dev);
	if (rc != 0) {
		/* no close hook yet: the backend stays the caller's */
		rte_eth_dev_release_port(dev);
		return rc;
	}
	ad->close_hook = be->close;
	rte_eth_dev_probing_finish(dev);
	return 0;
}
