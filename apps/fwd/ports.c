/* SPDX-License-Identifier: BSD-3-Clause */
/* Port set-up and the "show port ..." reports. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "fwd.h"
#include "host_if.h"

#define FWD_POOL_CACHE 256

static int
pool_create(void)
{
	uint32_t n = fwd.opt.nb_mbufs;

	if (n == 0) {
		/* Every RX and TX descriptor full, plus one burst in flight per
		 * stream, plus what GRO may hold, with room to spare. */
		n = (uint32_t)fwd.nb_ports * (fwd.opt.nb_rxq * fwd.opt.nb_rxd +
					      fwd.opt.nb_txq * fwd.opt.nb_txd) +
		    FWD_MAX_STREAMS * FWD_MAX_BURST / 4 + 8192;
	}
	fwd.pool = rte_pktmbuf_pool_create("tagpipe_fwd", n, FWD_POOL_CACHE, 0,
					   fwd.opt.mbuf_size ? fwd.opt.mbuf_size :
					   RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (fwd.pool == NULL) {
		fwd_err("mbuf pool of %u mbufs: %s", n, rte_strerror(rte_errno));
		return -rte_errno;
	}
	return 0;
}

/* The index of port in fwd.port_ids (the options' port numbers). */
static uint16_t
port_index_of(uint16_t port)
{
	for (uint16_t i = 0; i < fwd.nb_ports; i++)
		if (fwd.port_ids[i] == port)
			return i;
	return UINT16_MAX;
}

static int
port_setup(uint16_t port)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint16_t nb_rxd = fwd.opt.nb_rxd, nb_txd = fwd.opt.nb_txd;
	int rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_info_get(port, &info);
	if (rc != 0)
		return rc;
	if (fwd.opt.nb_rxq > info.max_rx_queues || fwd.opt.nb_txq > info.max_tx_queues) {
		fwd_err("port %u (%s): --rxq %u/--txq %u: the device has at most %u/%u",
			port, info.driver_name, fwd.opt.nb_rxq, fwd.opt.nb_txq,
			info.max_rx_queues, info.max_tx_queues);
		return -EINVAL;
	}
	if (fwd.opt.nb_rxq > 1) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP |
						    RTE_ETH_RSS_UDP) & info.flow_type_rss_offloads;
		if (conf.rx_adv_conf.rss_conf.rss_hf == 0)
			FWD_LOG(WARNING, "port %u (%s): no RSS; queue 0 gets every frame",
				port, info.driver_name);
	}
	/* GRO'd packets leave as chains; let the PMD take them if it can. */
	conf.txmode.offloads = info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	/* The NIC checks checksums on the way in (GRO then trusts its GOOD
	 * instead of summing every payload byte, as librte_gro never checks)
	 * and completes TCP checksums of re-segmented packets on the way out
	 * (engine_pipeline.c). */
	conf.rxmode.offloads |= info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_CHECKSUM;
	conf.txmode.offloads |= info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
	fwd.tx_tcp_csum[port] = (conf.txmode.offloads & RTE_ETH_TX_OFFLOAD_TCP_CKSUM) != 0;
	/* What the host sends its interfaces in 64 KiB: the NIC's TSO. */
	conf.txmode.offloads |= fwd_host_if_tx_offloads(port_index_of(port), info.tx_offload_capa);
	if (fwd.opt.max_pkt_len != 0) {
		/* testpmd's --max-pkt-len: the MTU without Ethernet header and
		 * CRC; frames beyond one mbuf are received in several, where the
		 * port can (a program that is not xdp.frags is then refused at
		 * start, pipeline_ctl.c) */
		uint32_t room = rte_pktmbuf_data_room_size(fwd.pool) - RTE_PKTMBUF_HEADROOM;

		conf.rxmode.mtu = fwd.opt.max_pkt_len - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN;
		if (fwd.opt.max_pkt_len > room)
			conf.rxmode.offloads |= info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER;
	}
	rc = rte_eth_dev_configure(port, fwd.opt.nb_rxq, fwd.opt.nb_txq, &conf);
	if (rc != 0)
		return rc;
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (rc != 0)
		return rc;
	for (uint16_t q = 0; q < fwd.opt.nb_rxq; q++) {
		rc = rte_eth_rx_queue_setup(port, q, nb_rxd, rte_eth_dev_socket_id(port),
					    NULL, fwd.pool);
		if (rc != 0)
			return rc;
	}
	for (uint16_t q = 0; q < fwd.opt.nb_txq; q++) {
		rc = rte_eth_tx_queue_setup(port, q, nb_txd, rte_eth_dev_socket_id(port),
					    NULL);
		if (rc != 0)
			return rc;
	}
	rc = rte_eth_macaddr_get(port, &fwd.port_mac[port]);
	if (rc != 0)
		return rc;
	/* Forwarders see every frame; PMDs without promiscuous mode are fine. */
	rc = rte_eth_promiscuous_enable(port);
	if (rc != 0 && rc != -ENOTSUP)
		FWD_LOG(WARNING, "port %u: promiscuous mode: %s", port, rte_strerror(-rc));
	return rte_eth_dev_start(port);
}

int
fwd_ports_setup(void)
{
	uint16_t port;
	int rc;

	fwd.nb_ports = 0;
	RTE_ETH_FOREACH_DEV(port) {
		if (fwd.nb_ports == FWD_MAX_PORTS)
			break;
		fwd.port_ids[fwd.nb_ports++] = port;
	}
	rc = pool_create();
	if (rc != 0)
		return rc;
	for (uint16_t i = 0; i < fwd.nb_ports; i++) {
		port = fwd.port_ids[i];
		if (fwd.opt.peer_set[i])
			fwd.peer_mac[port] = fwd.opt.peer[i];
		else
			fwd.peer_mac[port] = (struct rte_ether_addr){
				.addr_bytes = { 0x02, 0, 0, 0, 0, (uint8_t)i } };
		rc = port_setup(port);
		if (rc != 0) {
			fwd_err("port %u: set-up failed: %s", port, rte_strerror(-rc));
			return rc;
		}
		fwd_port_check_af_packet(port);
	}
	return 0;
}

uint64_t
fwd_ports_drain(void)
{
	/* In flight means at most a ring's worth; a source that never runs
	 * dry (net_null, a long pcap) is only sampled. */
	const uint32_t cap = 4u * fwd.opt.nb_rxd;
	uint64_t total = 0;

	for (uint16_t i = 0; i < fwd.nb_ports; i++) {
		for (uint16_t q = 0; q < fwd.opt.nb_rxq; q++) {
			struct rte_mbuf *pkts[FWD_MAX_BURST];
			uint32_t got = 0;
			uint16_t n;

			do {
				n = rte_eth_rx_burst(fwd.port_ids[i], q, pkts, FWD_MAX_BURST);
				rte_pktmbuf_free_bulk(pkts, n);
				got += n;
			} while (n > 0 && got < cap);
			total += got;
		}
	}
	return total;
}

void
fwd_ports_close(void)
{
	for (uint16_t i = 0; i < fwd.nb_ports; i++) {
		uint16_t port = fwd.port_ids[i];
		int rc = rte_eth_dev_stop(port);

		if (rc != 0)
			FWD_LOG(WARNING, "port %u: stop: %s", port, rte_strerror(-rc));
		rte_eth_dev_close(port);
	}
}

/* Per second since the previous call for the same port (testpmd's
 * "Throughput (since last show)"); 0 for the first call and for counters
 * that went down (cleared in between). Main lcore only. */
static void
show_rates(uint16_t port, const struct rte_eth_stats *s)
{
	static struct {
		uint64_t tsc, ipackets, opackets, ibytes, obytes;
	} last[RTE_MAX_ETHPORTS];
	uint64_t now = rte_get_timer_cycles(), hz = rte_get_timer_hz();
	uint64_t dt = last[port].tsc != 0 ? now - last[port].tsc : 0;
#define PER_SEC(f, mul) \
	(dt != 0 && s->f > last[port].f ? \
	 (uint64_t)((double)(s->f - last[port].f) * (mul) * (double)hz / (double)dt) : 0)

	printf("  Throughput (since last show)\n");
	printf("  Rx-pps: %12" PRIu64 "          Rx-bps: %12" PRIu64 "\n",
	       PER_SEC(ipackets, 1), PER_SEC(ibytes, 8));
	printf("  Tx-pps: %12" PRIu64 "          Tx-bps: %12" PRIu64 "\n",
	       PER_SEC(opackets, 1), PER_SEC(obytes, 8));
#undef PER_SEC
	last[port].tsc = now;
	last[port].ipackets = s->ipackets;
	last[port].opackets = s->opackets;
	last[port].ibytes = s->ibytes;
	last[port].obytes = s->obytes;
}

void
fwd_port_show_stats(uint16_t port)
{
	struct rte_eth_stats s;

	if (port >= RTE_MAX_ETHPORTS || rte_eth_stats_get(port, &s) != 0) {
		printf("port %u: no stats\n", port);
		return;
	}
	printf("\n  ######################## NIC statistics for port %-2u ########################\n",
	       port);
	printf("  RX-packets: %-10" PRIu64 " RX-missed: %-10" PRIu64 " RX-bytes:  %-" PRIu64 "\n",
	       s.ipackets, s.imissed, s.ibytes);
	printf("  RX-errors: %" PRIu64 "\n", s.ierrors);
	printf("  RX-nombuf:  %-10" PRIu64 "\n", s.rx_nombuf);
	printf("  TX-packets: %-10" PRIu64 " TX-errors: %-10" PRIu64 " TX-bytes:  %-" PRIu64 "\n",
	       s.opackets, s.oerrors, s.obytes);
	show_rates(port, &s);
	printf("  ############################################################################\n");
	fflush(stdout);
}

void
fwd_port_show_xstats(uint16_t port)
{
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *vals;
	int n = rte_eth_xstats_get_names(port, NULL, 0);

	if (n <= 0) {
		printf("port %u: no xstats\n", port);
		return;
	}
	names = calloc((size_t)n, sizeof(*names));
	vals = calloc((size_t)n, sizeof(*vals));
	if (names != NULL && vals != NULL &&
	    rte_eth_xstats_get_names(port, names, (unsigned int)n) == n &&
	    rte_eth_xstats_get(port, vals, (unsigned int)n) == n) {
		printf("###### NIC extended statistics for port %-2u\n", port);
		for (int i = 0; i < n; i++)
			printf("%s: %" PRIu64 "\n", names[vals[i].id].name, vals[i].value);
	}
	free(names);
	free(vals);
	fflush(stdout);
}

void
fwd_port_clear_stats(uint16_t port)
{
	rte_eth_stats_reset(port);
	rte_eth_xstats_reset(port);
}
