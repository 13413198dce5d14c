/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc on a vdev's register file (aqc_vdev.h): the PCI probe's bring-up
 * (aqc_dev_init) on a BAR0 someone else provides, and the same port seen
 * from a secondary process.
 */
#include <errno.h>
#include <stdlib.h>

#include <bus_vdev_driver.h>
#include <ethdev_vdev.h>
#include <rte_eal.h>

#include "aqc_ethdev.h"
#include "aqc_log.h"

/* A secondary process: the port, its adapter and the register file are
 * the primary's (shared memory at the same addresses); this process gets
 * its own device operations, burst functions and view of the backend. */
static int
attach_secondary(struct rte_vdev_device *vdev, uint8_t *bar0, struct aqc_backend *mine)
{
	struct rte_eth_dev *dev = rte_eth_dev_attach_secondary(rte_vdev_device_name(vdev));

	if (dev == NULL) {
		AQC_LOG(ERR, INIT, "%s: no such port in the primary process",
			rte_vdev_device_name(vdev));
		return -ENODEV;
	}
	if (AQC_ADAPTER(dev)->hw.bar0 != bar0) {
		AQC_LOG(ERR, INIT, "%s: the primary's port has another register file",
			rte_vdev_device_name(vdev));
		rte_eth_dev_release_port(dev);
		return -EINVAL;
	}
	dev->device = &vdev->device;
	dev->process_private = mine;
	aqc_dev_init(dev);       /* ops and bursts only, in a secondary */
	aqc_rx_burst_select(dev);
	rte_eth_dev_probing_finish(dev);
	return 0;
}

int
aqc_vdev_attach(struct rte_vdev_device *vdev, uint8_t *bar0, const struct aqc_backend *be)
{
	struct aqc_backend *mine;
	struct rte_eth_dev *dev;
	struct aqc_adapter *ad;
	int rc;

	if (bar0 == NULL || be == NULL)
		return -EINVAL;
	mine = malloc(sizeof(*mine));
	if (mine == NULL)
		return -ENOMEM;
	*mine = *be;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		/* what backs the port is the primary's to close */
		mine->close = NULL;
		rc = attach_secondary(vdev, bar0, mine);
		if (rc != 0)
			free(mine);
		return rc;
	}
	dev = rte_eth_vdev_allocate(vdev, sizeof(struct aqc_adapter));
	if (dev == NULL) {
		free(mine);
		return -ENOMEM;
	}
	ad = AQC_ADAPTER(dev);
	ad->hw.bar0 = bar0;
	/* no close callback until the port exists: the backend stays the
	 * caller's when the bring-up fails */
	mine->close = NULL;
	dev->process_private = mine;
	rc = aqc_dev_init(dev);
	if (rc != 0) {
		dev->process_private = NULL;
		free(mine);
		rte_eth_dev_release_port(dev);
		return rc;
	}
	mine->close = be->close;
	rte_eth_dev_probing_finish(dev);
	return 0;
}
