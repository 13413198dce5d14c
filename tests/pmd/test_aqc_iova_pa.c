/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc_sim in the deployment the README recommends: 2 MiB hugepages and
 * the EAL running IOVA as PA. The vdev (dma=auto) must translate physical
 * addresses (model/aqc_model_iova.c), and frames must loop back byte for
 * byte from mbufs whose IOVA is not their virtual address.
 *
 * Needs root (physical addresses) and free 2 MiB hugepages; exits 77 (skip)
 * with the reason when either is missing. Reserve pages with
 *   echo 64 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>

#include "aqc_test.h"

#define NEED_PAGES 48

static long
free_hugepages(void)
{
	FILE *f = fopen("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", "r");
	long n = -1;

	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

static void
test_loop_iova_pa(void **state)
{
	struct rte_mempool *mp;
	struct aqc_model_counters c;
	struct aqc_test_port p;
	struct rte_mbuf *m, *rx[8];
	uint8_t f[1600];
	unsigned int start, pa_differs = 0;

	(void)state;
	assert_int_equal(rte_eal_iova_mode(), RTE_IOVA_PA);
	/* probed here, not at EAL init, so a refusal fails the test */
	assert_int_equal(rte_vdev_init("net_aqc_sim0", "mode=step"), 0);
	mp = rte_pktmbuf_pool_create("pa_pool", 1023, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     SOCKET_ID_ANY);
	assert_non_null(mp);
	start = tp_test_pool_in_use(mp);
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 256, mp, 0, 0, false, NULL);
	for (uint32_t i = 0; i < 300; i++) {
		uint32_t len = aqc_test_udp4(f, (i * 61u) % 1455u + 18u, (uint16_t)i, 9, i);

		m = tp_test_mbuf_from_bytes(mp, f, len);
		pa_differs += rte_mbuf_data_iova(m) != (uintptr_t)rte_pktmbuf_mtod(m, void *);
		assert_int_equal(rte_eth_tx_burst(p.id, 0, &m, 1), 1);
		assert_int_equal(aqc_model_step(p.model, 16), 1);
		assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 8), 1);
		tp_test_assert_mbuf_bytes(rx[0], f, len);
		rte_pktmbuf_free(rx[0]);
	}
	/* physical addresses are not the virtual ones (else nothing is shown) */
	assert_int_equal(pa_differs, 300);
	aqc_model_get_counters(p.model, &c);
	assert_int_equal(c.dma_faults, 0);
	assert_int_equal(c.rx_frames, 300);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
	assert_int_equal(rte_vdev_uninit("net_aqc_sim0"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_iova_pa),
	};
	char prefix[64];
	char *argv[] = {
		(char *)"test_aqc_iova_pa", (char *)"--iova-mode=pa", (char *)"--in-memory",
		(char *)"--no-pci", (char *)"--no-telemetry", (char *)"-l", (char *)"0",
		(char *)"-m", (char *)"64", (char *)"--log-level=lib.eal:error", prefix,
		NULL,
	};
	long pages = free_hugepages();

	if (geteuid() != 0) {
		printf("SKIP: IOVA as PA needs root (physical addresses)\n");
		return 77;
	}
	if (pages < NEED_PAGES) {
		printf("SKIP: %ld free 2 MiB hugepages, %d needed\n", pages, NEED_PAGES);
		return 77;
	}
	snprintf(prefix, sizeof(prefix), "--file-prefix=tp_iova_pa_%d", (int)getpid());
	if (rte_eal_init((int)RTE_DIM(argv) - 1, argv) < 0) {
		printf("SKIP: the EAL cannot run IOVA as PA here\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
