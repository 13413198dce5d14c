/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc on a register file that is no PCI function: the one internal
 * interface the driver offers another plugin (net_aqc_sim, which points it
 * at the chip model). Exported from librte_net_aqc.so in its INTERNAL
 * version node (version.map), as DPDK drivers export __rte_internal
 * symbols to each other; callers build with ALLOW_INTERNAL_API.
 *
 * The driver knows nothing of what lies behind bar0: it reads and writes
 * it as it does a PCI BAR0, and calls back what the backend gave it.
 */
#ifndef AQC_VDEV_H
#define AQC_VDEV_H

#include <stdint.h>

#include <rte_compat.h>
#include <rte_ethdev.h>

struct rte_vdev_device;

/* The first RX burst after a queue start (net_aqc_sim: the model's pcap
 * wire waits for an application that receives). */
typedef void (*aqc_poll_hook_t)(void *arg);

/* dev_close, once the port is torn down: free what backs bar0. */
typedef void (*aqc_close_hook_t)(void *arg);

/* Extra xstats of the backend (net_aqc_sim: the chip model's wire-side
 * drop counters). Returns how many, at most AQC_XSTATS_EXTRA_MAX; fills
 * names and/or values (cumulative) when not NULL. */
#define AQC_XSTATS_EXTRA_MAX 16
typedef unsigned int (*aqc_xstats_hook_t)(void *arg, struct rte_eth_xstat_name *names,
					  uint64_t *values);

/* What backs a vdev's BAR: arg is given to every callback; any callback
 * may be NULL. */
struct aqc_backend {
	void *arg;
	aqc_close_hook_t close;
	aqc_poll_hook_t rx_polled;
	aqc_xstats_hook_t xstats;
};

/* Primary process: allocate the ethdev port of vdev, point it at bar0
 * (AQC_BAR0_SIZE bytes of registers) and run the PCI probe's bring-up on
 * it. 0: the port exists, and its dev_close calls be->close. Negative
 * errno: nothing was allocated and be->close is never called (the caller
 * still owns its backend).
 * Secondary process: attach to the primary's port of that name, whose
 * register file must be bar0 (shared memory, the same address in every
 * process); be->close is not used (what backs the port is the primary's),
 * the other callbacks are this process's. The backend is kept per process
 * (dev->process_private): a function's address means nothing in another
 * process. */
__rte_internal __attribute__((visibility("default")))
int aqc_vdev_attach(struct rte_vdev_device *vdev, uint8_t *bar0,
		    const struct aqc_backend *be);

#endif /* AQC_VDEV_H */
