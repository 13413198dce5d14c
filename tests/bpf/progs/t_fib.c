// SPDX-License-Identifier: GPL-2.0
/*
 * Test program: an IPv4/IPv6 router on bpf_fib_lookup (helper 69), in the
 * manner of the kernel's samples/bpf/xdp_fwd_kern.c (written here anew;
 * GPL because the helper is gpl_only for the kernel's verifier).
 *   xdp_fib: IPv4 or IPv6 with TTL / hop limit above 1 is looked up
 *     (ingress ifindex, addresses, tot_len: the IPv4 total length, the
 *     IPv6 payload length, as the sample does);
 *     SUCCESS -> TTL / hop limit - 1 (IPv4 checksum updated as RFC 1624
 *                does for one 16-bit word), dmac and smac from the
 *                lookup, bpf_redirect(ifindex)
 *     BLACKHOLE, UNREACHABLE, PROHIBIT -> XDP_DROP
 *     anything else, and any other frame -> XDP_PASS
 *   Each lookup's return code is counted in `rcs` (slot rc, 0..9), and
 *   FRAG_NEEDED's mtu_result is stored in `rcs` slot 15.
 *   xdp_fib_args: the argument checks, one call each into `args`:
 *     [0] flags 0x80 (unknown), [1] plen 32, [2] family 0, [3] ifindex 0;
 *     then XDP_PASS.
 *   xdp_router: the same router as xdp_fib, written as a larger one is:
 *     the rewrite in BPF-to-BPF calls (set_macs returns a value no caller
 *     uses, so clang leaves its r0 unset: the kernel's verifier accepts
 *     that), and before the redirect bpf_check_mtu (163) on the egress
 *     device with the frame as it is: FRAG_NEEDED -> XDP_DROP, counted in
 *     `rcs` slot 14 (the MTU it reported in slot 13).
 *   `hosts` (HASH, __be32 key): unused by the programs; a key for the
 *     typed text of tp_prog_bpf_map_update_text (a dotted address).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define AF_INET 2
#define AF_INET6 10

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} rcs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __s64);
} args SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __be32);
	__type(value, __u32);
} hosts SEC(".maps");

static __always_inline void
count(__u32 slot, __u64 add, int set)
{
	__u64 *v = bpf_map_lookup_elem(&rcs, &slot);

	if (v != NULL)
		*v = set ? add : *v + add;
}

/* TTL - 1 with the checksum adjusted for that one word (RFC 1624 eqn. 3,
 * as the kernel's ip_decrease_ttl). */
static __always_inline void
ttl_down(struct iphdr *ip)
{
	__u32 sum = ip->check;

	sum += bpf_htons(0x0100);
	ip->check = (__u16)(sum + (sum >= 0xFFFF));
	ip->ttl--;
}

SEC("xdp")
int xdp_fib(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct bpf_fib_lookup fib = {};
	struct ipv6hdr *ip6;
	struct iphdr *ip;
	long rc;

	if ((void *)(eth + 1) > end)
		return XDP_PASS;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		ip = (void *)(eth + 1);
		if ((void *)(ip + 1) > end || ip->ttl <= 1)
			return XDP_PASS;
		fib.family = AF_INET;
		fib.tos = ip->tos;
		fib.l4_protocol = ip->protocol;
		fib.tot_len = bpf_ntohs(ip->tot_len);
		fib.ipv4_src = ip->saddr;
		fib.ipv4_dst = ip->daddr;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		ip6 = (void *)(eth + 1);
		if ((void *)(ip6 + 1) > end || ip6->hop_limit <= 1)
			return XDP_PASS;
		fib.family = AF_INET6;
		fib.l4_protocol = ip6->nexthdr;
		fib.tot_len = bpf_ntohs(ip6->payload_len);
		__builtin_memcpy(fib.ipv6_src, &ip6->saddr, 16);
		__builtin_memcpy(fib.ipv6_dst, &ip6->daddr, 16);
	} else {
		return XDP_PASS;
	}
	fib.ifindex = ctx->ingress_ifindex;
	rc = bpf_fib_lookup(ctx, &fib, sizeof(fib), 0);
	if (rc >= 0 && rc < 10)
		count((__u32)rc, 1, 0);
	if (rc == BPF_FIB_LKUP_RET_FRAG_NEEDED)
		count(15, fib.mtu_result, 1);
	if (rc == BPF_FIB_LKUP_RET_BLACKHOLE || rc == BPF_FIB_LKUP_RET_UNREACHABLE ||
	    rc == BPF_FIB_LKUP_RET_PROHIBIT)
		return XDP_DROP;
	if (rc != BPF_FIB_LKUP_RET_SUCCESS)
		return XDP_PASS;
	/* the headers again: the verifier forgets pointers over the call */
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	eth = data;
	if ((void *)(eth + 1) > end)
		return XDP_PASS;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		ip = (void *)(eth + 1);
		if ((void *)(ip + 1) > end)
			return XDP_PASS;
		ttl_down(ip);
	} else {
		ip6 = (void *)(eth + 1);
		if ((void *)(ip6 + 1) > end)
			return XDP_PASS;
		ip6->hop_limit--;
	}
	__builtin_memcpy(eth->h_dest, fib.dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, fib.smac, ETH_ALEN);
	return bpf_redirect(fib.ifindex, 0);
}

/* The lookup's MACs into the frame. The result is for callers that want
 * it; none does. */
static __noinline int
set_macs(struct ethhdr *eth, const struct bpf_fib_lookup *fib)
{
	__builtin_memcpy(eth->h_dest, fib->dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, fib->smac, ETH_ALEN);
	return 0;
}

/* The IPv4 or IPv6 header of the frame into fib: 0, or -1 to pass it. */
static __noinline int
fib_params(void *data, void *end, struct bpf_fib_lookup *fib)
{
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6;
	struct iphdr *ip;

	if ((void *)(eth + 1) > end)
		return -1;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		ip = (void *)(eth + 1);
		if ((void *)(ip + 1) > end || ip->ttl <= 1)
			return -1;
		fib->family = AF_INET;
		fib->tos = ip->tos;
		fib->l4_protocol = ip->protocol;
		fib->tot_len = bpf_ntohs(ip->tot_len);
		fib->ipv4_src = ip->saddr;
		fib->ipv4_dst = ip->daddr;
		return 0;
	}
	if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		ip6 = (void *)(eth + 1);
		if ((void *)(ip6 + 1) > end || ip6->hop_limit <= 1)
			return -1;
		fib->family = AF_INET6;
		fib->l4_protocol = ip6->nexthdr;
		fib->tot_len = bpf_ntohs(ip6->payload_len);
		__builtin_memcpy(fib->ipv6_src, &ip6->saddr, 16);
		__builtin_memcpy(fib->ipv6_dst, &ip6->daddr, 16);
		return 0;
	}
	return -1;
}

SEC("xdp")
int xdp_router(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct bpf_fib_lookup fib = {};
	struct ethhdr *eth;
	struct ipv6hdr *ip6;
	struct iphdr *ip;
	__u32 mtu = 0;
	long rc;

	if (fib_params(data, end, &fib) < 0)
		return XDP_PASS;
	fib.ifindex = ctx->ingress_ifindex;
	rc = bpf_fib_lookup(ctx, &fib, sizeof(fib), 0);
	if (rc >= 0 && rc < 10)
		count((__u32)rc, 1, 0);
	if (rc == BPF_FIB_LKUP_RET_BLACKHOLE || rc == BPF_FIB_LKUP_RET_UNREACHABLE ||
	    rc == BPF_FIB_LKUP_RET_PROHIBIT)
		return XDP_DROP;
	if (rc != BPF_FIB_LKUP_RET_SUCCESS)
		return XDP_PASS;
	rc = bpf_check_mtu(ctx, fib.ifindex, &mtu, 0, 0);
	count(13, mtu, 1);
	if (rc != BPF_MTU_CHK_RET_SUCCESS) {
		count(14, 1, 0);
		return XDP_DROP;
	}
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	eth = data;
	if ((void *)(eth + 1) > end)
		return XDP_PASS;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		ip = (void *)(eth + 1);
		if ((void *)(ip + 1) > end)
			return XDP_PASS;
		ttl_down(ip);
	} else {
		ip6 = (void *)(eth + 1);
		if ((void *)(ip6 + 1) > end)
			return XDP_PASS;
		ip6->hop_limit--;
	}
	set_macs(eth, &fib);
	return bpf_redirect(fib.ifindex, 0);
}

static __always_inline void
put(__u32 slot, long rc)
{
	__s64 *v = bpf_map_lookup_elem(&args, &slot);

	if (v != NULL)
		*v = rc;
}

SEC("xdp")
int xdp_fib_args(struct xdp_md *ctx)
{
	struct bpf_fib_lookup fib = {};

	fib.family = AF_INET;
	fib.ifindex = 1;
	fib.ipv4_dst = bpf_htonl(0xC0A80101);
	put(0, bpf_fib_lookup(ctx, &fib, sizeof(fib), 0x80));
	put(1, bpf_fib_lookup(ctx, &fib, 32, 0));
	fib.family = 0;
	put(2, bpf_fib_lookup(ctx, &fib, sizeof(fib), 0));
	fib.family = AF_INET;
	fib.ifindex = 0;
	put(3, bpf_fib_lookup(ctx, &fib, sizeof(fib), 0));
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
