/* SPDX-License-Identifier: BSD-3-Clause */
/* A chip model as a PCI device; see aqc_test_pci.h. */
#include <stdio.h>
#include <string.h>

#include <rte_interrupts.h>

#include "aqc_test_pci.h"

/* DPDK 22.11 drivers/bus/pci/private.h, struct rte_pci_bus: the bus object
 * is followed by its device and driver lists (not an exported header). */
struct pci_bus_view {
	struct rte_bus bus;
	RTE_TAILQ_HEAD(, rte_pci_device) device_list;
	RTE_TAILQ_HEAD(, rte_pci_driver) driver_list;
};

bool
aqc_test_pci_prepare(struct aqc_test_pci *p, struct aqc_model *m, const char *drv_name)
{
	struct pci_bus_view *pb;
	struct rte_pci_driver *d;

	memset(p, 0, sizeof(*p));
	pb = container_of(rte_bus_find_by_name("pci"), struct pci_bus_view, bus);
	RTE_TAILQ_FOREACH(d, &pb->driver_list, next)
		if (strcmp(d->driver.name, drv_name) == 0)
			p->drv = d;
	if (p->drv == NULL)
		return false;
	p->dev.id.vendor_id = 0x1d6a;
	p->dev.id.device_id = 0x07b1;
	p->dev.id.subsystem_vendor_id = 0x1d6a;
	p->dev.id.subsystem_device_id = 0x0001;
	p->dev.addr.bus = 0x7a;
	snprintf(p->dev.name, sizeof(p->dev.name), "0000:7a:00.0");
	p->dev.device.name = p->dev.name;
	p->dev.device.bus = &pb->bus;
	p->dev.device.driver = &p->drv->driver;
	p->dev.device.numa_node = 0;
	p->dev.driver = p->drv;
	p->dev.mem_resource[0].addr = aqc_model_bar(m);
	p->dev.mem_resource[0].len = AQC_BAR0_SIZE;
	p->dev.mem_resource[0].phys_addr = (uint64_t)(uintptr_t)aqc_model_bar(m);
	p->dev.intr_handle = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (p->dev.intr_handle == NULL)
		return false;
	rte_intr_type_set(p->dev.intr_handle, RTE_INTR_HANDLE_UNKNOWN);
	rte_intr_fd_set(p->dev.intr_handle, -1);
	return true;
}

void
aqc_test_pci_release(struct aqc_test_pci *p)
{
	rte_intr_instance_free(p->dev.intr_handle);
	p->dev.intr_handle = NULL;
}
