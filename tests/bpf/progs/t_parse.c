// SPDX-License-Identifier: BSD-3-Clause
/*
 * Test program: parse Ethernet/IPv4/TCP/UDP through ctx->data with the
 * data_end checks the kernel verifier demands, a BPF-to-BPF call, and
 * global data in .rodata, .data and .bss.
 *   TCP to port `blocked_port` (.rodata, 80)  -> XDP_DROP
 *   UDP to port 9                             -> MAC swap, XDP_TX
 *   shorter than an Ethernet header           -> XDP_ABORTED
 *   anything else                             -> XDP_PASS
 * `seen` (.data, starts at 1000) counts IPv4 packets, `tx_count` (.bss)
 * counts XDP_TX.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

const volatile __u16 blocked_port = 80;
__u64 seen = 1000;
__u64 tx_count;

/* Destination port of the L4 header at l4, 0 when it does not fit. Not
 * inlined: a BPF-to-BPF call into .text. */
static __attribute__((noinline)) int
l4_dport(void *l4, void *end, int proto)
{
	if (proto == IPPROTO_TCP) {
		struct tcphdr *t = l4;

		if ((void *)(t + 1) > end)
			return 0;
		return bpf_ntohs(t->dest);
	}
	if (proto == IPPROTO_UDP) {
		struct udphdr *u = l4;

		if ((void *)(u + 1) > end)
			return 0;
		return bpf_ntohs(u->dest);
	}
	return 0;
}

SEC("xdp")
int xdp_parse(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	int port;

	if ((void *)(eth + 1) > end)
		return XDP_ABORTED;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->ihl < 5)
		return XDP_PASS;
	__sync_fetch_and_add(&seen, 1);
	port = l4_dport((char *)ip + ip->ihl * 4, end, ip->protocol);
	if (ip->protocol == IPPROTO_TCP && port == blocked_port)
		return XDP_DROP;
	if (ip->protocol == IPPROTO_UDP && port == 9) {
		unsigned char tmp[ETH_ALEN];

		__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
		__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
		__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
		tx_count++;
		return XDP_TX;
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
