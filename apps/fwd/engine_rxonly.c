/* SPDX-License-Identifier: BSD-3-Clause */
/* rxonly: receive and free; nothing is transmitted. */
#include "fwd.h"

static void
rxonly_fwd(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	const uint64_t begin = fwd_busy_begin();
	uint16_t n = rte_eth_rx_burst(fs->rx_port, fs->rx_queue, pkts, fwd.opt.burst);

	fwd_rx_burst_seen(fs, n);
	if (n == 0)
		return;
	fs->rx_pkts += n;
	fs->dropped += n;
	rte_pktmbuf_free_bulk(pkts, n);
	fwd_busy_end(fs, begin);
}

const struct fwd_engine fwd_engine_rxonly = {
	.name = "rxonly",
	.help = "receive and free",
	.packet_fwd = rxonly_fwd,
};
