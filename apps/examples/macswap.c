/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A reflector on libtagpipe: a C verdict program that rewrites the packet
 * and sends it back out of the port it came in on (XDP_TX), built only from
 * the installed library:
 *
 *   cc -O2 macswap.c $(pkg-config --cflags --libs libtagpipe) -o macswap
 *   ./macswap -l 0 --no-huge --no-shconf -m 256 --no-pci \
 *       --vdev net_pcap0,rx_pcap=in.pcap,tx_pcap=out.pcap -- [VID [IDLE_MS]]
 *
 * The program swaps the Ethernet addresses of every frame; with VID
 * (1..4094) it also pushes an 802.1Q tag with that VLAN ID
 * (tp_xdp_vlan_push). Frames shorter than an Ethernet header, or without
 * the headroom for a tag, are dropped. GRO is off and tags are left in the
 * frame, so every frame goes out once, in order. It stops once no frame
 * came for IDLE_MS milliseconds (default 500) after the first one and
 * prints the counters; the exit status is 1 when an mbuf is still in use.
 */
#define ALLOW_EXPERIMENTAL_API /* tp_xdp_vlan_push (tp_prog.h) */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
#define PROG "macswap"
#define NB_MBUFS 8191

/* The verdict: swap the MACs, push the tag if asked, send back. */
static inline enum tp_verdict
macswap(void *priv, struct tp_xdp_md *ctx)
{
	const uint16_t *vid = priv;
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)ctx->data;
	struct rte_ether_addr a;

	if (ctx->data + sizeof(*eh) > ctx->data_end)
		return TP_DROP;
	rte_ether_addr_copy(&eh->dst_addr, &a);
	rte_ether_addr_copy(&eh->src_addr, &eh->dst_addr);
	rte_ether_addr_copy(&a, &eh->src_addr);
	if (*vid != 0 && tp_xdp_vlan_push(ctx, RTE_ETHER_TYPE_VLAN, *vid) != 0)
		return TP_DROP;
	return TP_TX;
}

TP_PROG_DEFINE(macswap_burst, macswap)

/* "macswap" or "macswap:VID"; priv: the VID, 0 for none. */
static int
macswap_init(const char *arg, void **priv, char *err, size_t errlen)
{
	unsigned long v = 0;
	uint16_t *vid;
	char *end;

	if (arg != NULL) {
		v = strtoul(arg, &end, 10);
		/* 0 and 4095 are reserved VIDs (IEEE 802.1Q-2018 Table 9-2) */
		if (*arg < '0' || *arg > '9' || *end != '\0' || v < 1 || v > 4094) {
			snprintf(err, errlen, "macswap: bad VLAN ID '%s' (1..4094)", arg);
			return -EINVAL;
		}
	}
	vid = malloc(sizeof(*vid));
	if (vid == NULL)
		return -ENOMEM;
	*vid = (uint16_t)v;
	*priv = vid;
	return 0;
}

static const struct tp_prog_ops macswap_prog = {
	.name = "macswap",
	.usage = "macswap[:VID]  swap MACs (and push VLAN VID), send back",
	.init = macswap_init,
	.fini = free,
	.burst = macswap_burst,
};

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
	struct rte_mempool *mp;
	uint64_t idle_ms = 500, last = 0, start;
	char err[256], spec[32] = "macswap";
	uint16_t port;
	int first, rc;

	/* EAL options first, then ours after "--" (argv[first]...). */
	first = rte_eal_init(argc, argv);
	if (first < 0) {
		fprintf(stderr, "%s: EAL: %s\n", argv[0], rte_strerror(rte_errno));
		return 1;
	}
	first++;
	if (first < argc && strcmp(argv[first], "0") != 0)
		snprintf(spec, sizeof(spec), "macswap:%.20s", argv[first]);
	if (first + 1 < argc)
		idle_ms = strtoull(argv[first + 1], NULL, 10);
	mp = rte_pktmbuf_pool_create("macswap", NB_MBUFS, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (mp == NULL || tp_prog_register(&macswap_prog) != 0)
		return 1;

	tp_pipeline_conf_init(&conf);
	conf.name = "macswap";
	conf.prog_spec = spec;
	conf.gro.mode = TP_GRO_OFF;
	RTE_ETH_FOREACH_DEV(port) {
		if (port >= TP_PIPELINE_MAX_PORTS || port_init(port, mp) != 0) {
			fprintf(stderr, "macswap: port %u: set-up failed\n", port);
			return 1;
		}
		conf.port[port].enabled = true;
		conf.port[port].vlan = TP_VLAN_POLICY_KEEP;
	}
	if (tp_pipeline_create(&conf, &pl, err, sizeof(err)) != 0) {
		fprintf(stderr, "macswap: %s\n", err);
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
		now = rte_get_timer_cycles();
		if (got != 0)
			last = now;
		/* Idle for idle_ms after traffic, or 10 s without any. */
		if ((last != 0 && now - last > idle_ms * rte_get_timer_hz() / 1000) ||
		    (last == 0 && now - start > 10 * rte_get_timer_hz()))
			break;
	}
	tp_pipeline_stats_get(pl, &st);
	printf("macswap: rx %" PRIu64 " tx %" PRIu64 " drop %" PRIu64 " frames\n",
	       st.rx, st.tx, st.drop);
	tp_pipeline_destroy(pl);
	RTE_ETH_FOREACH_DEV(port) {
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
	printf("macswap: mbufs in use %u\n", rte_mempool_in_use_count(mp));
	rc = rte_mempool_in_use_count(mp) == 0 ? 0 : 1;
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return rc;
}
