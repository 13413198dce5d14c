/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A chip model handed to a PCI driver -- net_aqc's own or Debian's
 * unmodified net_atlantic plugin -- as a PCI device: a struct
 * rte_pci_device built here whose BAR0 (mem_resource[0]) is the model's
 * register file, given to the probe of the driver of that name in the PCI
 * bus's driver list. Used by the upstream cross-check and the side-by-side
 * benchmark.
 */
#ifndef AQC_TEST_PCI_H
#define AQC_TEST_PCI_H

#include <bus_driver.h>
#include <bus_pci_driver.h>

#include "aqc_test.h"

/* Debian's net_atlantic (DPDK 22.11). */
#define AQC_TEST_ATLANTIC_PLUGIN \
	"/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0/librte_net_atlantic.so.23"

struct aqc_test_pci {
	struct rte_pci_device dev;
	struct rte_pci_driver *drv;
};

/* Fill p for model m as an AQC107 (docs/ref/aqc.md §1: 0x1d6a:0x07b1) at 0000:7a:00.0
 * and find driver drv_name; false when no such PCI driver is registered.
 * Probe with p->drv->probe(p->drv, &p->dev). */
bool aqc_test_pci_prepare(struct aqc_test_pci *p, struct aqc_model *m,
			  const char *drv_name);
void aqc_test_pci_release(struct aqc_test_pci *p);

/* EAL for a test of PCI driver drv_name ("net_aqc" or "net_atlantic"): no
 * hugepages, no PCI scan, lcore 0, a unique file prefix; Debian's plugin
 * loaded (-d) for net_atlantic (net_aqc is linked in); rte_delay_us made
 * a sleeping delay so the model thread can run. 0; 77 (skip, with
 * the reason printed) when the plugin is not installed; 2 for another
 * driver name; 1 when the EAL fails. */
int aqc_test_pci_eal_init(const char *prog, const char *drv_name);

#endif /* AQC_TEST_PCI_H */
