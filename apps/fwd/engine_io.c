/* SPDX-License-Identifier: BSD-3-Clause */
/* io: frames go out unchanged on the stream's TX queue. */
#include "fwd.h"

static void
io_fwd(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	const uint64_t begin = fwd_busy_begin();
	uint16_t n = rte_eth_rx_burst(fs->rx_port, fs->rx_queue, pkts, fwd.opt.burst);

	fwd_rx_burst_seen(fs, n);
	if (n == 0)
		return;
	fs->rx_pkts += n;
	fwd_tx_or_free(fs, pkts, n);
	fwd_busy_end(fs, begin);
}

const struct fwd_engine fwd_engine_io = {
	.name = "io",
	.help = "forward frames unchanged",
	.packet_fwd = io_fwd,
};
