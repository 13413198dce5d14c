/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Side by side on the same chip model: the cost per packet of RX (burst
 * with its refill) and TX (burst with its completion reclaim) for net_aqc
 * and for Debian's unmodified net_atlantic, each handed an AQC107 model
 * (step mode, no wire) as a PCI device (aqc_test_pci.h) and configured
 * alike: one queue pair of 1024 descriptors, no offloads, bursts of 32.
 *
 * Cycles per packet come from the TSC around the burst calls only; the
 * model runs between them (step mode) and is not counted. Instructions per
 * packet come from running this binary under callgrind (bench_side.py):
 * bench_rx_burst / bench_tx_burst are non-inlined wrappers around
 * rte_eth_rx_burst / rte_eth_tx_burst, so their inclusive counts are the
 * driver's burst functions plus the same few ethdev dispatch instructions
 * for both drivers (net_atlantic's plugin has no symbols to name).
 * Prints; never fails on time.
 *
 * usage: bench_side net_aqc|net_atlantic ITERATIONS SIZE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "aqc_test_pci.h"

#define BURST 32
#define NB_DESC 1024

static const char *drv_name;
static unsigned int iters;
static uint32_t size;
static struct aqc_model *model;
static struct aqc_test_pci pci;
static struct rte_mempool *mp;
static uint16_t port;

static __attribute__((noinline)) uint16_t
bench_rx_burst(struct rte_mbuf **pkts)
{
	return rte_eth_rx_burst(port, 0, pkts, BURST);
}

static __attribute__((noinline)) uint16_t
bench_tx_burst(struct rte_mbuf **pkts)
{
	return rte_eth_tx_burst(port, 0, pkts, BURST);
}

static void
start_port(void)
{
	struct aqc_model_config cfg;
	struct rte_eth_conf conf;
	int err;

	aqc_model_config_default(&cfg, "bench_side");
	memcpy(cfg.mac, aqc_test_dst_mac, 6);
	cfg.wire = AQC_WIRE_NONE;
	cfg.step_mode = true;
	model = aqc_model_create(&cfg, &err);
	assert_non_null(model);
	assert_true(aqc_test_pci_prepare(&pci, model, drv_name));
	assert_int_equal(pci.drv->probe(pci.drv, &pci.dev), 0);
	assert_int_equal(rte_eth_dev_get_port_by_name(pci.dev.name, &port), 0);
	/* a per-lcore cache, as an application would have */
	mp = rte_pktmbuf_pool_create("bench_side", 8191, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	assert_non_null(mp);
	memset(&conf, 0, sizeof(conf));
	assert_int_equal(rte_eth_dev_configure(port, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(port, 0, NB_DESC, 0, NULL, mp), 0);
	assert_int_equal(rte_eth_tx_queue_setup(port, 0, NB_DESC, 0, NULL), 0);
	assert_int_equal(rte_eth_dev_start(port), 0);
	aqc_test_wait_link(port, RTE_ETH_LINK_UP);
}

static double
bench_rx(uint32_t len, const uint8_t *f)
{
	struct rte_mbuf *pkts[BURST];
	uint64_t cycles = 0, n_pkts = 0;

	for (unsigned int it = 0; it < iters; it++) {
		uint64_t t0;
		uint16_t n;

		for (int k = 0; k < BURST; k++)
			if (aqc_model_inject(model, f, len) != 0)
				fail_msg("inject failed");
		t0 = rte_rdtsc_precise();
		n = bench_rx_burst(pkts);
		cycles += rte_rdtsc_precise() - t0;
		assert_int_equal(n, BURST);
		rte_pktmbuf_free_bulk(pkts, n);
		n_pkts += n;
	}
	return (double)cycles / (double)n_pkts;
}

static double
bench_tx(uint32_t len, const uint8_t *f)
{
	struct rte_mbuf *pkts[BURST];
	uint64_t cycles = 0, n_pkts = 0;

	for (unsigned int it = 0; it < iters; it++) {
		uint64_t t0;
		uint16_t n;

		aqc_test_bench_frames(mp, pkts, BURST, f, len);
		t0 = rte_rdtsc_precise();
		n = bench_tx_burst(pkts);
		cycles += rte_rdtsc_precise() - t0;
		assert_int_equal(n, BURST);
		aqc_model_step(model, 4 * BURST);
		n_pkts += n;
	}
	return (double)cycles / (double)n_pkts;
}

static void
bench(void **state)
{
	static uint8_t f[2048];
	uint32_t len = aqc_test_udp4(f, size - 42, 1, 2, 3);
	double rx, tx;

	(void)state;
	start_port();
	rx = bench_rx(len, f);
	tx = bench_tx(len, f);
	printf("%-13s %4u B: RX+refill %7.1f cyc/pkt, TX+reclaim %7.1f cyc/pkt (%u bursts of %d)\n",
	       drv_name, size, rx, tx, iters, BURST);
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_close(port), 0);
	aqc_test_pci_release(&pci);
	aqc_model_destroy(model);
	rte_mempool_free(mp);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bench),
	};
	int rc;

	if (argc != 4 || strtoul(argv[2], NULL, 0) == 0 ||
	    (strcmp(argv[3], "64") != 0 && strcmp(argv[3], "1500") != 0)) {
		fprintf(stderr, "usage: %s net_aqc|net_atlantic ITERATIONS 64|1500\n", argv[0]);
		return 2;
	}
	drv_name = argv[1];
	iters = (unsigned int)strtoul(argv[2], NULL, 0);
	size = (uint32_t)strtoul(argv[3], NULL, 0);
	rc = aqc_test_pci_eal_init(argv[0], drv_name);
	if (rc != 0)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
