/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc burst cost: RX (rx_pkt_burst including the bulk refill) and TX
 * (tx_pkt_burst including completion reclaim) in cycles per packet, bursts
 * of 32, 64- and 1500-byte frames. The chip model runs in step mode and only
 * between the timed calls, so its cost is not in the figures; it is timed
 * separately and printed for reference. Prints; never fails on time.
 *
 * usage: bench_aqc [iterations]   (bursts per measurement, default 20000)
 * Under callgrind the same binary with a small iteration count gives the
 * instruction counts of aqc_recv_pkts / aqc_xmit_pkts (see bench_aqc.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "aqc_test.h"

#define BURST 32

static const char *const vdevs[] = {
	"net_aqc_sim0,mode=step,wire=none",
	"net_aqc_sim1,mode=step,wire=none",
	NULL,
};

static unsigned int iters = 20000;

struct result {
	uint64_t cycles, pkts, model_cycles;
};

static struct rte_mempool *
bench_pool(void)
{
	/* a per-lcore cache, as an application would have */
	struct rte_mempool *mp = rte_pktmbuf_pool_create("bench_aqc", 8191, 256, 0,
							 RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);

	assert_non_null(mp);
	return mp;
}

static void
bench_rx(const struct aqc_test_port *p, uint32_t size, struct result *r)
{
	static uint8_t f[2048];
	struct rte_mbuf *pkts[BURST];
	uint32_t len = aqc_test_udp4(f, size - 42, 1, 2, 3);

	memset(r, 0, sizeof(*r));
	for (unsigned int it = 0; it < iters; it++) {
		uint64_t t0 = rte_rdtsc_precise(), t1, t2;
		uint16_t n;

		for (int k = 0; k < BURST; k++)
			if (aqc_model_inject(p->model, f, len) != 0)
				fail_msg("inject failed");
		t1 = rte_rdtsc_precise();
		n = rte_eth_rx_burst(p->id, 0, pkts, BURST);
		t2 = rte_rdtsc_precise();
		assert_int_equal(n, BURST);
		rte_pktmbuf_free_bulk(pkts, n);
		r->model_cycles += t1 - t0;
		r->cycles += t2 - t1;
		r->pkts += n;
	}
}

static void
bench_tx(const struct aqc_test_port *p, struct rte_mempool *mp, uint32_t size,
	 struct result *r)
{
	static uint8_t f[2048];
	struct rte_mbuf *pkts[BURST];
	uint32_t len = aqc_test_udp4(f, size - 42, 1, 2, 3);

	memset(r, 0, sizeof(*r));
	for (unsigned int it = 0; it < iters; it++) {
		uint64_t t0, t1, t2;
		uint16_t n;

		aqc_test_bench_frames(mp, pkts, BURST, f, len);
		t0 = rte_rdtsc_precise();
		n = rte_eth_tx_burst(p->id, 0, pkts, BURST);
		t1 = rte_rdtsc_precise();
		assert_int_equal(n, BURST);
		aqc_model_step(p->model, 4 * BURST);
		t2 = rte_rdtsc_precise();
		r->cycles += t1 - t0;
		r->model_cycles += t2 - t1;
		r->pkts += n;
	}
}

static void
bench(void **state)
{
	struct rte_mempool *mp = bench_pool();
	struct aqc_test_port p, off;
	struct result r;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_port(&off, "net_aqc_sim1");
	/* what a forwarding app asks for: one pool per queue, refcnt 1 */
	aqc_test_start(&p, 1, 1024, mp, 0, RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE, false, NULL);
	/* RX with checksum, VLAN strip and RSS flags: the full-metadata burst */
	aqc_test_start(&off, 1, 1024, mp, RTE_ETH_RX_OFFLOAD_CHECKSUM |
		       RTE_ETH_RX_OFFLOAD_VLAN_STRIP, 0, true, NULL);
	printf("net_aqc burst cost, burst %d, %u bursts each, model in step mode (excluded)\n",
	       BURST, iters);
	printf("%-34s %10s %18s\n", "", "cyc/pkt", "model cyc/pkt");
	for (int s = 0; s < 2; s++) {
		uint32_t size = s ? 1500 : 64;

		bench_rx(&p, size, &r);
		printf("RX+refill          %4u B frames %10.1f %18.1f\n", size,
		       (double)r.cycles / r.pkts, (double)r.model_cycles / r.pkts);
		bench_rx(&off, size, &r);
		printf("RX+refill offloads %4u B frames %10.1f %18.1f\n", size,
		       (double)r.cycles / r.pkts, (double)r.model_cycles / r.pkts);
		bench_tx(&p, mp, size, &r);
		printf("TX+reclaim         %4u B frames %10.1f %18.1f\n", size,
		       (double)r.cycles / r.pkts, (double)r.model_cycles / r.pkts);
	}
	printf("packets per measurement: %lu\n", (unsigned long)r.pkts);
	aqc_test_stop(&p);
	aqc_test_stop(&off);
	rte_mempool_free(mp);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bench),
	};

	/* usage: bench_aqc [ITERS [MODEL]]; ITERS 0 = the default */
	if (argc > 2)
		aqc_test_model_from_args(argc - 1, argv + 1);
	if (argc > 1 && strtoul(argv[1], NULL, 0) > 0)
		iters = (unsigned int)strtoul(argv[1], NULL, 0);
	aqc_test_eal_init(vdevs);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
