// SPDX-License-Identifier: BSD-3-Clause
/*
 * Benchmark programs, the same logic as tagpipe's built-ins:
 *  bench_drop ("xdp"): XDP_DROP.
 *  bench_tx ("xdp_tx"): swap the MACs, XDP_TX (built-in "tx").
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

#include "mac_swap.h"

SEC("xdp")
int bench_drop(struct xdp_md *ctx)
{
	(void)ctx;
	return XDP_DROP;
}

SEC("xdp_tx")
int bench_tx(struct xdp_md *ctx)
{
	return mac_swap_tx(ctx);
}

char _license[] SEC("license") = "GPL";
