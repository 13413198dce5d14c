/* SPDX-License-Identifier: BSD-3-Clause */
/* A chip model as a PCI device; see aqc_test_pci.h. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
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

int
aqc_test_pci_eal_init(const char *prog, const char *drv_name)
{
	char prefix[64];
	char *eal[] = {
		(char *)prog, (char *)"--no-huge", (char *)"--no-shconf",
		(char *)"--no-pci", (char *)"--no-telemetry", (char *)"-l", (char *)"0",
		(char *)"-m", (char *)"512", (char *)"--log-level=lib.eal:error",
		prefix, (char *)"-d", (char *)AQC_TEST_ATLANTIC_PLUGIN, NULL,
	};
	int neal = (int)RTE_DIM(eal) - 1;

	if (strcmp(drv_name, "net_aqc") == 0) {
		neal -= 2;                      /* net_aqc is linked in: no -d */
	} else if (strcmp(drv_name, "net_atlantic") != 0) {
		fprintf(stderr, "%s: driver '%s': expected net_aqc or net_atlantic\n",
			prog, drv_name);
		return 2;
	} else if (access(AQC_TEST_ATLANTIC_PLUGIN, R_OK) != 0) {
		printf("SKIP: Debian's net_atlantic plugin (%s) is not installed\n",
		       AQC_TEST_ATLANTIC_PLUGIN);
		return 77;
	}
	snprintf(prefix, sizeof(prefix), "--file-prefix=tp_%s_%d", drv_name, (int)getpid());
	if (rte_eal_init(neal, eal) < 0) {
		fprintf(stderr, "%s: rte_eal_init failed\n", prog);
		return 1;
	}
	/* A chip works beside the CPU; the model needs CPU time, and with
	 * -l 0 it shares the lcore's. net_atlantic waits with rte_delay_us,
	 * which busy-waits by default: its 1 us x 1000 MIF polls then starve
	 * the model on a loaded machine and time out. Sleeping delays (never
	 * shorter than asked; DPDK's own alternative) let it run. */
	rte_delay_us_callback_register(rte_delay_us_sleep);
	return 0;
}
