/* SPDX-License-Identifier: BSD-3-Clause */
/* Swap the Ethernet source and destination MACs (the built-in "tx"):
 * XDP_TX, or XDP_ABORTED when the frame has no Ethernet header. */
#ifndef MAC_SWAP_H
#define MAC_SWAP_H

#include <linux/bpf.h>
#include <linux/if_ether.h>

static __always_inline int
mac_swap_tx(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	unsigned char tmp[ETH_ALEN];

	if ((void *)(eth + 1) > end)
		return XDP_ABORTED;
	__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
	return XDP_TX;
}

#endif
