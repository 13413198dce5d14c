/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mac: like io, but the Ethernet source becomes the TX port's address and the
 * destination its peer's (--eth-peer; default 02:00:00:00:00:<port>), as
 * testpmd's mac mode does.
 */
#include "fwd.h"

static void
mac_fwd(struct fwd_stream *fs)
{
	const uint64_t begin = fwd_busy_begin();
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	const struct rte_ether_addr *src = &fwd.port_mac[fs->tx_port];
	const struct rte_ether_addr *dst = &fwd.peer_mac[fs->tx_port];
	uint16_t n = rte_eth_rx_burst(fs->rx_port, fs->rx_queue, pkts, fwd.opt.burst);

	fwd_rx_burst_seen(fs, n);
	if (n == 0)
		return;
	fs->rx_pkts += n;
	for (uint16_t i = 0; i < n; i++) {
		struct rte_ether_hdr *eth;

		/* Runts shorter than an Ethernet header cannot be rewritten. */
		if (unlikely(rte_pktmbuf_data_len(pkts[i]) < sizeof(*eth)))
			continue;
		eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
		rte_ether_addr_copy(dst, &eth->dst_addr);
		rte_ether_addr_copy(src, &eth->src_addr);
	}
	fwd_tx_or_free(fs, pkts, n);
	fwd_busy_end(fs, begin);
}

const struct fwd_engine fwd_engine_mac = {
	.name = "mac",
	.help = "set source MAC to the TX port's, destination to its peer",
	.packet_fwd = mac_fwd,
};
