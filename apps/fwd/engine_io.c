/* SPDX-License-Identifier: BSD-3-Clause */
/* io: frames go out unchanged on the stream's TX queue. */
#include "fwd.h"

static void
io_fwd(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	uint16_t n = rte_eth_rx_burst(fs->rx_port, fs->rx_queue, pkts, fwd.opt.burst);

	if (n == 0)
		return;
	fs->rx_pkts += n;
	fwd_tx_or_free(fs, pkts, n);
}

const struct fwd_engine fwd_engine_io = {
	.name = "io",
	.help = "forward frames unchanged",
	.packet_fwd = io_fwd,
};
