// SPDX-License-Identifier: BSD-3-Clause
/*
 * Tail calls through a PROG_ARRAY that the object fills itself (libbpf's
 * static initialisation: ".values" of the map, relocations in .rel.maps).
 *  xdp_tail_entry ("xdp"): IPv4 -> tail call jmp[0]; anything else ->
 *    tail call jmp[3] (empty unless the control plane sets it), and when
 *    that falls through: XDP_PASS.
 *  tail_ipv4 ("xdp/ipv4"): counts the run in .bss ipv4_runs; UDP -> tail
 *    call jmp[1]; otherwise (or when jmp[1] is empty) XDP_DROP.
 *  tail_udp ("xdp/udp"): swaps the MACs, XDP_TX.
 *  xdp_chain_entry ("xdp_chain"): tail call jmp[2] = chain, which counts
 *    its run in .bss chain_runs and tail-calls jmp[2] again; the kernel
 *    stops a chain after 33 tail calls (MAX_TAIL_CALL_CNT), so chain runs
 *    33 times per packet and its last run returns XDP_TX.
 *  xdp_tail_sub ("xdp_sub"): a tail call from a BPF-to-BPF callee: the
 *    target (jmp[1] = tail_udp) replaces the callee, so its XDP_TX comes
 *    back to the caller, which counts it in .bss sub_tx and returns it;
 *    when jmp[1] is empty the callee returns 100 + rx_queue_index.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "mac_swap.h"

__u64 ipv4_runs;
__u64 chain_runs;
__u64 sub_tx;

SEC("xdp/udp")
int tail_udp(struct xdp_md *ctx)
{
	return mac_swap_tx(ctx);
}

int tail_ipv4(struct xdp_md *ctx);
int chain(struct xdp_md *ctx);

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__uint(key_size, sizeof(__u32));
	__array(values, int (void *));
} jmp SEC(".maps") = {
	.values = {
		[0] = (void *)&tail_ipv4,
		[1] = (void *)&tail_udp,
		[2] = (void *)&chain,
	},
};

SEC("xdp/ipv4")
int tail_ipv4(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct iphdr *ip = data + sizeof(struct ethhdr);

	__sync_fetch_and_add(&ipv4_runs, 1);
	if ((void *)(ip + 1) > end)
		return XDP_ABORTED;
	if (ip->protocol == IPPROTO_UDP)
		bpf_tail_call(ctx, &jmp, 1);
	return XDP_DROP;
}

SEC("xdp")
int xdp_tail_entry(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) <= end && eth->h_proto == bpf_htons(ETH_P_IP))
		bpf_tail_call(ctx, &jmp, 0);
	else
		bpf_tail_call(ctx, &jmp, 3);
	return XDP_PASS;
}

SEC("xdp/chain")
int chain(struct xdp_md *ctx)
{
	__sync_fetch_and_add(&chain_runs, 1);
	bpf_tail_call(ctx, &jmp, 2);
	return XDP_TX;
}

SEC("xdp_chain")
int xdp_chain_entry(struct xdp_md *ctx)
{
	bpf_tail_call(ctx, &jmp, 2);
	return XDP_ABORTED;
}

static __attribute__((noinline)) int
sub(struct xdp_md *ctx)
{
	bpf_tail_call(ctx, &jmp, 1);
	return 100 + (int)ctx->rx_queue_index;
}

SEC("xdp_sub")
int xdp_tail_sub(struct xdp_md *ctx)
{
	int r = sub(ctx);

	if (r == XDP_TX)
		__sync_fetch_and_add(&sub_tx, 1);
	return r;
}

char _license[] SEC("license") = "GPL";
