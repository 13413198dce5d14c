/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A minimal vRouter on libtagpipe, built only from the installed library:
 *
 *   cc -O2 vrouter.c $(pkg-config --cflags --libs libtagpipe) -o vrouter
 *   ./vrouter -l 0 --no-huge --no-shconf -m 256 --no-pci \
 *       --vdev net_pcap0,rx_pcap=in.pcap,tx_pcap=out.pcap -- [IDLE_MS]
 *
 * Every port the EAL found is polled in bursts; each burst goes through one
 * pipeline (untag -> GRO -> verdict) whose verdict program, registered here,
 * lets IPv4 and IPv6 through (PASS) and drops the rest. The pass callback
 * is where a router would look up routes; this one counts what it got and
 * frees it. It stops once no frame came for IDLE_MS milliseconds (default
 * 500) after the first one, and prints the counters: frames in, packets and
 * frames passed, frames dropped, and the mbufs still in use (must be 0).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include <tagpipe.h>
#include <tp_pipeline.h>
#include <tp_prog.h>

#define BURST 32
#define PROG "vrouter"
#define NB_MBUFS 8191

struct counters {
	uint64_t pass_pkts;
	uint64_t pass_frames;
};

/* The verdict: IP goes to the router, everything else is dropped. */
static inline enum tp_verdict
ip_only(void *priv, struct tp_xdp_md *ctx)
{
	uint16_t type;

	(void)priv;
	if (ctx->data + sizeof(struct rte_ether_hdr) > ctx->data_end)
		return TP_DROP;
	type = rte_be_to_cpu_16(((const struct rte_ether_hdr *)ctx->data)->ether_type);
	return type == RTE_ETHER_TYPE_IPV4 || type == RTE_ETHER_TYPE_IPV6 ?
	       TP_PASS : TP_DROP;
}

TP_PROG_DEFINE(ip_only_burst, ip_only)

static const struct tp_prog_ops ip_only_prog = {
	.name = "vrouter-ip-only",
	.usage = "vrouter-ip-only  IPv4/IPv6 pass, the rest drop",
	.burst = ip_only_burst,
};

/* The router's input: owns pkts[0..n). */
static void
route(void *arg, uint16_t port, uint16_t queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct counters *c = arg;

	(void)port;
	(void)queue;
	for (uint16_t i = 0; i < n; i++)
		c->pass_frames += tp_gro_segs(pkts[i]);
	c->pass_pkts += n;
	rte_pktmbuf_free_bulk(pkts, n);
}

static int
port_init(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	int rc;

	memset(&conf, 0, sizeof(conf));
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 512, rte_eth_dev_socket_id(port), NULL, mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 512, rte_eth_dev_socket_id(port), NULL) != 0)
		return -1;
	/* A router takes frames for any destination MAC (a NIC filters on
	 * its own address otherwise: net_aqc_sim without mac= receives
	 * nothing sent to another one). Said when the port cannot. */
	rc = rte_eth_promiscuous_enable(port);
	if (rc != 0)
		fprintf(stderr, "%s: port %u: promiscuous mode: %s; only frames to "
			"its own MAC address arrive\n", PROG, port, rte_strerror(-rc));
	return rte_eth_dev_start(port);
}

int
main(int argc, char **argv)
{
	struct tp_pipeline_conf conf;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct counters c = { 0 };
	struct rte_mempool *mp;
	uint64_t idle_ms = 500, last = 0, rx = 0, start;
	char err[256];
	uint16_t port;
	int first;

	/* EAL options first, then ours after "--" (argv[first]...). */
	first = rte_eal_init(argc, argv);
	if (first < 0) {
		fprintf(stderr, "%s: EAL: %s\n", argv[0], rte_strerror(rte_errno));
		return 1;
	}
	first++;
	if (first < argc)
		idle_ms = strtoull(argv[first], NULL, 10);
	mp = rte_pktmbuf_pool_create("vrouter", NB_MBUFS, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (mp == NULL || tp_prog_register(&ip_only_prog) != 0)
		return 1;

	tp_pipeline_conf_init(&conf);
	conf.name = "vrouter";
	conf.prog_spec = "vrouter-ip-only";
	conf.pass_cb = route;
	conf.pass_arg = &c;
	RTE_ETH_FOREACH_DEV(port) {
		if (port >= TP_PIPELINE_MAX_PORTS || port_init(port, mp) != 0) {
			fprintf(stderr, "vrouter: port %u: set-up failed\n", port);
			return 1;
		}
		conf.port[port].enabled = true;
	}
	if (tp_pipeline_create(&conf, &pl, err, sizeof(err)) != 0) {
		fprintf(stderr, "vrouter: %s\n", err);
		return 1;
	}

	start = rte_get_timer_cycles();
	for (;;) {
		uint64_t now, got = 0;

		RTE_ETH_FOREACH_DEV(port) {
			struct rte_mbuf *pkts[BURST];
			uint16_t n = rte_eth_rx_burst(port, 0, pkts, BURST);

			got += n;
			tp_pipeline_rx_burst(pl, port, 0, pkts, n);
		}
		rx += got;
		now = rte_get_timer_cycles();
		if (got != 0)
			last = now;
		/* Idle for idle_ms after traffic, or 10 s without any. */
		if ((last != 0 && now - last > idle_ms * rte_get_timer_hz() / 1000) ||
		    (last == 0 && now - start > 10 * rte_get_timer_hz()))
			break;
	}
	tp_pipeline_flush(pl, true, NULL, 0);
	tp_pipeline_stats_get(pl, &st);
	printf("vrouter: rx %" PRIu64 " frames, pass %" PRIu64 " packets (%" PRIu64
	       " frames), drop %" PRIu64 " frames, pipeline rx %" PRIu64 " pass %" PRIu64
	       " drop %" PRIu64 "\n", rx, c.pass_pkts, c.pass_frames, st.drop, st.rx,
	       st.pass, st.drop);
	tp_pipeline_destroy(pl);
	RTE_ETH_FOREACH_DEV(port) {
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
	printf("vrouter: mbufs in use %u\n", rte_mempool_in_use_count(mp));
	first = rte_mempool_in_use_count(mp) == 0 ? 0 : 1;
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return first;
}
