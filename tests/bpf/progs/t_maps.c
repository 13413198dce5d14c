// SPDX-License-Identifier: BSD-3-Clause
/*
 * Test programs for maps and redirects.
 *  xdp_count (section "xdp"): per IPv4 source address, a HASH entry
 *    {packets, bytes} (bytes = data_end - data); a PERCPU_ARRAY counts
 *    runs per rx queue; verdict XDP_PASS; non-IPv4: XDP_DROP.
 *  xdp_devmap (section "xdp_redirect"): bpf_redirect_map(&ports,
 *    last byte of the IPv4 destination, XDP_DROP).
 *  xdp_ingress (section "xdp_ifindex"): bpf_redirect(ctx->ingress_ifindex).
 *  xdp_recent (section "xdp_lru"): an LRU_HASH of 2 IPv4 sources; a hit
 *    counts the packet in the value and gives XDP_PASS, a miss inserts
 *    the source with count 1 (evicting the least recently used when
 *    full) and gives XDP_DROP; non-IPv4: XDP_PASS.
 *  xdp_route (section "xdp_lpm"): the verdict is the value of the longest
 *    prefix in LPM_TRIE routes matching the IPv4 destination; no match or
 *    non-IPv4: XDP_PASS.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct flow_val {
	__u64 packets;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct flow_val);
} flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} runs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u32);
} ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} recent SEC(".maps");

struct route_key {
	__u32 prefixlen;
	__u32 addr;
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 16);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct route_key);
	__type(value, __u32);
} routes SEC(".maps");

static __always_inline struct iphdr *
ipv4_of(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return 0;
	return ip;
}

SEC("xdp")
int xdp_count(struct xdp_md *ctx)
{
	__u32 q = ctx->rx_queue_index;
	struct iphdr *ip = ipv4_of(ctx);
	struct flow_val *v, init = { 0, 0 };
	__u64 *r;
	__u32 src;

	r = bpf_map_lookup_elem(&runs, &q);
	if (r)
		*r += 1;
	if (!ip)
		return XDP_DROP;
	src = ip->saddr;
	v = bpf_map_lookup_elem(&flows, &src);
	if (!v) {
		bpf_map_update_elem(&flows, &src, &init, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&flows, &src);
		if (!v)
			return XDP_ABORTED;
	}
	v->packets++;
	v->bytes += ctx->data_end - ctx->data;
	return XDP_PASS;
}

SEC("xdp_redirect")
int xdp_devmap(struct xdp_md *ctx)
{
	struct iphdr *ip = ipv4_of(ctx);

	if (!ip)
		return XDP_PASS;
	return bpf_redirect_map(&ports, bpf_ntohl(ip->daddr) & 0xff, XDP_DROP);
}

SEC("xdp_ifindex")
int xdp_ingress(struct xdp_md *ctx)
{
	return bpf_redirect(ctx->ingress_ifindex, 0);
}

SEC("xdp_lru")
int xdp_recent(struct xdp_md *ctx)
{
	struct iphdr *ip = ipv4_of(ctx);
	__u64 one = 1, *v;
	__u32 src;

	if (!ip)
		return XDP_PASS;
	src = ip->saddr;
	v = bpf_map_lookup_elem(&recent, &src);
	if (v) {
		__sync_fetch_and_add(v, 1);
		return XDP_PASS;
	}
	bpf_map_update_elem(&recent, &src, &one, BPF_ANY);
	return XDP_DROP;
}

SEC("xdp_lpm")
int xdp_route(struct xdp_md *ctx)
{
	struct iphdr *ip = ipv4_of(ctx);
	struct route_key k = { 32, 0 };
	__u32 *v;

	if (!ip)
		return XDP_PASS;
	k.addr = ip->daddr;
	v = bpf_map_lookup_elem(&routes, &k);
	return v ? (int)*v : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
