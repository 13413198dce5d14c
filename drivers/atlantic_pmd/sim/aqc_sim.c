/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc_sim: the net_aqc driver on the AQC chip model.
 *
 * The vdev creates a chip model (model/aqc_model.h) from its devargs and
 * hands the model's register file to net_aqc as the port's BAR0
 * (aqc_vdev_attach, the driver's one internal export): the very same
 * bring-up the PCI probe runs, by a driver that knows nothing of the
 * model. In a secondary process (dpdk-proc-info) the vdev finds the
 * primary's model by name (aqc_model_lookup_shared: its registers and
 * counters live in a memzone) and attaches to the primary's port: the
 * statistics read there are the primary's. Descriptor addresses are IOVAs; the model dereferences them in
 * IOVA-as-VA mode and translates them through the EAL memory segments in
 * IOVA-as-PA mode (dma=auto), so both work.
 *
 * Devargs: model=aqc107|aqc113 (chip generation A1 or A2, default aqc107),
 * wire=loop|pcap|peer|none, rx_pcap=FILE, tx_pcap=FILE (wire=pcap),
 * peer=NAME (required with wire=peer; both ends name each other),
 * mac=XX:XX:XX:XX:XX:XX,
 * link_speed=10M|100M|1G|2.5G|5G|10G (the highest rate; 10M only on aqc113),
 * fw=2.x|3.x|MAJOR.MINOR.BUILD, mode=thread|step, dma=auto|direct|translate,
 * rx_start=poll|link|now and rx_delay_ms=0..60000 (wire=pcap: when rx_pcap
 * starts; FEATURES.md says what each means), rx_loops=N (plays of
 * rx_pcap, 0 = without end), faults=N and fault_seed=S (random faults, on
 * average one per N frames the wire delivers),
 * fw_fault=none|boot_hang|init_fail|hostboot|no_ack|torn|art_sem (aqc113),
 * none|mute (aqc107), sfp=FILE (aqc107: an SFP module's EEPROM image).
 * RTE_PMD_REGISTER_PARAM_STRING below lists every key of AQC_SIM_KEYS
 * (aqc_sim_devargs.c); the build checks it (tools/gen_pmdinfo.py).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bus_vdev_driver.h>
#include <ethdev_driver.h>
#include <rte_eal.h>

#include "aqc_model.h"
#include "aqc_sim_devargs.h"
#include "aqc_sim_log.h"
#include "aqc_vdev.h"

static void
close_model(void *arg)
{
	aqc_model_destroy(arg);
}

/* The model's own counts of frames the wire offered that never reached a
 * ring, and of DMA faults: what a user needs to see why a capture did not
 * come out (the chip itself shows filtered frames only as MAC counters above
 * the DMA ones, docs/ref/aqc.md §3.1 / §8). */
static unsigned int
model_xstats(void *arg, struct rte_eth_xstat_name *names, uint64_t *values)
{
	static const char *const n[] = {
		"model_rx_l2_filtered", "model_rx_ring_disabled", "model_rx_ring_full",
		"model_dma_faults", "model_tx_errors", "model_pcap_frames_read",
		"model_faults_injected", "model_random_faults", "model_fault_rx_damaged",
		"model_fault_tx_stalls", "model_fault_link_flaps", "model_fault_peer_stalls",
	};
	struct aqc_model_counters c;

	RTE_BUILD_BUG_ON(RTE_DIM(n) > AQC_XSTATS_EXTRA_MAX);
	if (names != NULL)
		for (unsigned int i = 0; i < RTE_DIM(n); i++)
			snprintf(names[i].name, sizeof(names[i].name), "%s", n[i]);
	if (values != NULL) {
		aqc_model_get_counters(arg, &c);
		values[0] = c.rx_filtered;
		values[1] = c.rx_disabled;
		values[2] = c.rx_ring_full;
		values[3] = c.dma_faults;
		values[4] = c.tx_errors;
		values[5] = c.pcap_in;
		values[6] = c.faults_injected;
		values[7] = c.random_faults;
		values[8] = c.fault_mac_err;
		values[9] = c.fault_tx_stalls;
		values[10] = c.fault_link_flaps;
		values[11] = c.fault_peer_stalls;
	}
	return RTE_DIM(n);
}

static void
rx_polled(void *arg)
{
	aqc_model_rx_polled(arg);
}

/* A secondary process (dpdk-proc-info): the model the primary runs, its
 * register file and counters in shared memory; no close callback, the
 * model is the primary's. */
static int
probe_secondary(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct aqc_model *model = aqc_model_lookup_shared(name);
	struct aqc_backend be = { .rx_polled = rx_polled, .xstats = model_xstats };

	if (model == NULL) {
		AQC_SIM_LOG(ERR, "%s: the primary process has no chip model of that name", name);
		return -ENODEV;
	}
	be.arg = model;
	return aqc_vdev_attach(vdev, aqc_model_bar(model), &be);
}

static int
aqc_sim_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct aqc_model_config cfg;
	struct aqc_backend be;
	struct aqc_model *model;
	size_t nl = strlen(name);
	bool dma_auto;
	int rc;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return probe_secondary(vdev);
	aqc_model_config_default(&cfg, name);
	dma_auto = true;
	/* default MAC 02:00:ac:00:00:<trailing number of the name> */
	while (nl > 0 && name[nl - 1] >= '0' && name[nl - 1] <= '9')
		nl--;
	cfg.mac[5] = (uint8_t)atoi(name + nl);
	rc = aqc_sim_parse_devargs(&cfg, name, rte_vdev_device_args(vdev), &dma_auto);
	if (rc != 0)
		return rc;
	/* dma=auto: a device without an IOMMU sees what the EAL hands out as
	 * IOVAs, physical addresses in IOVA-as-PA mode (hugepages, no vfio) */
	if (dma_auto)
		cfg.dma = rte_eal_iova_mode() == RTE_IOVA_PA ? AQC_DMA_TRANSLATE :
							      AQC_DMA_DIRECT;
	model = aqc_model_create(&cfg, &rc);
	if (model == NULL)
		return rc;
	/* the driver sees a register file; the model stays behind these */
	be = (struct aqc_backend){
		.arg = model, .close = close_model, .rx_polled = rx_polled,
		.xstats = model_xstats,
	};
	rc = aqc_vdev_attach(vdev, aqc_model_bar(model), &be);
	if (rc != 0)
		aqc_model_destroy(model);
	return rc;
}

static int
aqc_sim_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev = rte_eth_dev_allocated(rte_vdev_device_name(vdev));

	if (dev == NULL)
		return 0;
	/* a secondary process lets go of its view; the port runs on */
	if (dev->data->dev_started && rte_eal_process_type() == RTE_PROC_PRIMARY)
		rte_eth_dev_stop(dev->data->port_id);
	return rte_eth_dev_close(dev->data->port_id);
}

static struct rte_vdev_driver aqc_sim_driver = {
	.probe = aqc_sim_probe,
	.remove = aqc_sim_remove,
};

RTE_PMD_REGISTER_VDEV(net_aqc_sim, aqc_sim_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_aqc_sim,
	"model=aqc107|aqc113 wire=loop|pcap|peer|none rx_pcap=<file> tx_pcap=<file> "
	"peer=<name> mac=<xx:xx:xx:xx:xx:xx> link_speed=10M|100M|1G|2.5G|5G|10G "
	"fw=2.x|3.x|<major.minor.build> mode=thread|step dma=auto|direct|translate "
	"rx_start=poll|link|now rx_delay_ms=<0..60000> rx_loops=<plays, 0: endless> "
	"faults=<0..1000000000> fault_seed=<u64> "
	"fw_fault=none|boot_hang|init_fail|hostboot|no_ack|torn|art_sem|mute sfp=<file>");
