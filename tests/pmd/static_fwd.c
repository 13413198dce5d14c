/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A statically linked DPDK application with net_aqc: DPDK's archives,
 * librte_net_aqc.a and librte_net_aqc_sim.a linked whole, nothing loaded
 * at run time (a static binary cannot take plugins: their shared DPDK
 * libraries would be a second copy of the EAL). The vRouter case of a
 * deployment that links everything in.
 *
 *   static_fwd EAL-ARGS -- EXPECTED
 *
 * Forwards every frame of port 0 to port 1 (io forwarding: no change to
 * a byte), until EXPECTED frames went out or 10 s passed, then stops and
 * closes both ports. Prints "static_fwd: rx N tx N dropped N in_use N";
 * exit 0 only when rx = tx = EXPECTED, nothing was dropped and every mbuf
 * is back in the pool. tests/pmd/static_fwd.py runs it on net_aqc_sim
 * ports and compares the bytes of what came out.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#define BURST 32
#define NB_MBUFS 4095
#define RING 512

static int
port_start(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_link link;
	int rc;

	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, RING, rte_eth_dev_socket_id(port), NULL, mp);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, RING, rte_eth_dev_socket_id(port), NULL);
	if (rc == 0)
		rc = rte_eth_promiscuous_enable(port);
	if (rc == 0)
		rc = rte_eth_dev_start(port);
	if (rc == 0)
		rc = rte_eth_link_get(port, &link);   /* waits for the link */
	if (rc != 0)
		fprintf(stderr, "static_fwd: port %u: %s\n", port, rte_strerror(-rc));
	return rc;
}

int
main(int argc, char **argv)
{
	struct rte_mbuf *pkts[BURST];
	uint64_t rx = 0, tx = 0, dropped = 0, expected, deadline;
	struct rte_mempool *mp;
	unsigned int in_use;
	char *end;
	int n = rte_eal_init(argc, argv);

	if (n < 0) {
		fprintf(stderr, "static_fwd: EAL init failed\n");
		return 1;
	}
	if (argc - n != 2 || (expected = strtoull(argv[n + 1], &end, 10), *end != '\0')) {
		fprintf(stderr, "usage: static_fwd EAL-ARGS -- EXPECTED\n");
		return 2;
	}
	if (rte_eth_dev_count_avail() != 2) {
		fprintf(stderr, "static_fwd: %u ports, expected 2 (are the drivers linked in?)\n",
			rte_eth_dev_count_avail());
		return 1;
	}
	mp = rte_pktmbuf_pool_create("static_fwd", NB_MBUFS, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (mp == NULL || port_start(0, mp) != 0 || port_start(1, mp) != 0)
		return 1;
	deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	while (tx + dropped < expected && rte_get_timer_cycles() < deadline) {
		uint16_t nb = rte_eth_rx_burst(0, 0, pkts, BURST), sent = 0;

		rx += nb;
		/* a full TX ring drains as the model sends: retry, bounded */
		for (int tries = 0; sent < nb && tries < 100000; tries++)
			sent += rte_eth_tx_burst(1, 0, pkts + sent, nb - sent);
		tx += sent;
		dropped += nb - sent;
		rte_pktmbuf_free_bulk(pkts + sent, nb - sent);
	}
	/* the chip sends what is in its ring: wait until its counter says so
	 * (a stop disables the ring and frees what is still queued) */
	for (struct rte_eth_stats st = { 0 };
	     rte_eth_stats_get(1, &st) == 0 && st.opackets < tx &&
	     rte_get_timer_cycles() < deadline; )
		rte_delay_us_sleep(1000);
	for (uint16_t p = 0; p < 2; p++) {
		rte_eth_dev_stop(p);
		rte_eth_dev_close(p);
	}
	in_use = rte_mempool_in_use_count(mp);
	printf("static_fwd: rx %" PRIu64 " tx %" PRIu64 " dropped %" PRIu64 " in_use %u\n",
	       rx, tx, dropped, in_use);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return rx == expected && tx == expected && dropped == 0 && in_use == 0 ? 0 : 1;
}
