/* SPDX-License-Identifier: BSD-3-Clause */
/* macswap: the Ethernet source and destination addresses trade places. */
#include "fwd.h"

static void
macswap_fwd(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	const uint64_t begin = fwd_busy_begin();
	uint16_t n = rte_eth_rx_burst(fs->rx_port, fs->rx_queue, pkts, fwd.opt.burst);

	fwd_rx_burst_seen(fs, n);
	if (n == 0)
		return;
	fs->rx_pkts += n;
	for (uint16_t i = 0; i < n; i++) {
		struct rte_ether_hdr *eth;
		struct rte_ether_addr tmp;

		if (unlikely(rte_pktmbuf_data_len(pkts[i]) < sizeof(*eth)))
			continue;
		eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
		rte_ether_addr_copy(&eth->dst_addr, &tmp);
		rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
		rte_ether_addr_copy(&tmp, &eth->src_addr);
	}
	fwd_tx_or_free(fs, pkts, n);
	fwd_busy_end(fs, begin);
}

const struct fwd_engine fwd_engine_macswap = {
	.name = "macswap",
	.help = "swap source and destination MAC, forward",
	.packet_fwd = macswap_fwd,
};
