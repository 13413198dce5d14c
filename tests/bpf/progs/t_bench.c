// SPDX-License-Identifier: BSD-3-Clause
/*
 * Benchmark programs, the same logic as tagpipe's built-ins:
 *  bench_drop ("xdp"): XDP_DROP.
 *  bench_tx ("xdp_tx"): swap the MACs, XDP_TX (built-in "tx").
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int bench_drop(struct xdp_md *ctx)
{
	(void)ctx;
	return XDP_DROP;
}

SEC("xdp_tx")
int bench_tx(struct xdp_md *ctx)
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

char _license[] SEC("license") = "GPL";
