// SPDX-License-Identifier: BSD-3-Clause
/*
 * Test program: an L4 load balancer in the manner of Katran
 * (facebookincubator/katran, lib/bpf/balancer.bpf.c; written here anew,
 * much smaller). It is built the way Katran is: BPF-to-BPF calls that are
 * not inlined, a connection table in an LRU hash, a consistent-hashing
 * ring indexed by a jhash of the 5-tuple, and IP-in-IP encapsulation with
 * bpf_xdp_adjust_head.
 *
 * xdp_lb ("xdp"): for an IPv4 (no options, not a fragment) TCP or UDP
 * frame whose destination address, port and protocol are a key of `vips`:
 *   - the real server: the `conns` entry of the 5-tuple; on a miss the
 *     ring slot vip_num * RING + jhash_3words(saddr, daddr, ports << 16 |
 *     ... see flow_hash) % RING of `ring`, which is then stored in `conns`;
 *   - a real of address 0 in `reals` drops the frame (XDP_DROP);
 *   - otherwise an outer IPv4 header (IPPROTO_IPIP, TTL 64, ID 0, DF
 *     clear, source `lb_src` of .rodata, destination the real's address,
 *     TOS and payload length from the inner header, checksum computed) is
 *     put in front of the inner IPv4 header, the Ethernet destination
 *     becomes the real's MAC and the source the frame's old destination;
 *     XDP_TX.
 * `stats` slot 0 counts the frames sent to a real, slot 1 their bytes,
 * slot 2 the conns hits, slot 3 the drops; any other frame: XDP_PASS.
 *
 * What the kernel's verifier accepts and tagpipe's checker once refused:
 * put_macs() returns a value no caller uses, so clang drops it and the
 * function exits with r0 never written; flow_hash() byte-swaps the
 * addresses before it writes r0.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define RING 16

struct vip_key {
	__be32 addr;
	__be16 port;
	__u8 proto;
	__u8 pad;
};

struct vip_meta {
	__u32 flags;
	__u32 vip_num;
};

struct flow {
	__be32 src;
	__be32 dst;
	__be16 sport;
	__be16 dport;
	__u8 proto;
	__u8 pad[3];
};

struct real {
	__be32 addr;
	__u8 mac[6];
	__u16 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8);
	__type(key, struct vip_key);
	__type(value, struct vip_meta);
} vips SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 64);
	__type(key, struct flow);
	__type(value, __u32);
} conns SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4 * RING);
	__type(key, __u32);
	__type(value, __u32);
} ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, struct real);
} reals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

/* 10.255.0.1: the balancer's own address, the outer source */
const volatile __be32 lb_src = 0x0100ff0a;

/* Bob Jenkins' lookup3 final mix (public domain, lookup3.c "final"), as
 * jhash_3words applies it: a and b start at the golden value 0xdeadbeef,
 * c at the seed. */
static __always_inline __u32
rol32(__u32 w, unsigned int s)
{
	return (w << s) | (w >> (32 - s));
}

static __always_inline __u32
jhash_3words(__u32 a, __u32 b, __u32 c, __u32 seed)
{
	a += 0xdeadbeef + (3 << 2) + seed;
	b += 0xdeadbeef + (3 << 2) + seed;
	c += 0xdeadbeef + (3 << 2) + seed;
	c ^= b; c -= rol32(b, 14);
	a ^= c; a -= rol32(c, 11);
	b ^= a; b -= rol32(a, 25);
	c ^= b; c -= rol32(b, 16);
	a ^= c; a -= rol32(c, 4);
	b ^= a; b -= rol32(a, 14);
	c ^= b; c -= rol32(b, 24);
	return c;
}

/* The ring slot of a flow: ports in host order, source port high. */
static __noinline __u32
flow_hash(const struct flow *f)
{
	__u32 ports = (__u32)bpf_ntohs(f->sport) << 16 | bpf_ntohs(f->dport);

	return jhash_3words(bpf_ntohl(f->src), bpf_ntohl(f->dst), ports, f->proto);
}

/* stats[slot] += add. The result is for callers that want it; none does. */
static __noinline int
count(__u32 slot, __u64 add)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &slot);

	if (v == NULL)
		return -1;
	__sync_fetch_and_add(v, add);
	return 0;
}

/* Ports of the TCP or UDP header at l4 into f: 0, or -1 when it is cut. */
static __noinline int
parse_ports(void *l4, void *end, struct flow *f)
{
	if (f->proto == IPPROTO_TCP) {
		struct tcphdr *t = l4;

		if ((void *)(t + 1) > end)
			return -1;
		f->sport = t->source;
		f->dport = t->dest;
		return 0;
	}
	if (f->proto == IPPROTO_UDP) {
		struct udphdr *u = l4;

		if ((void *)(u + 1) > end)
			return -1;
		f->sport = u->source;
		f->dport = u->dest;
		return 0;
	}
	return -1;
}

/* The new Ethernet addresses. The result is for callers that want it;
 * none does. */
static __noinline int
put_macs(struct ethhdr *eth, const __u8 *dst, const __u8 *src)
{
	__builtin_memcpy(eth->h_dest, dst, ETH_ALEN);
	__builtin_memcpy(eth->h_source, src, ETH_ALEN);
	return 0;
}

/* RFC 1071 checksum of a 20-byte IPv4 header. */
static __noinline __u16
ip_csum(struct iphdr *ip)
{
	__u16 *w = (__u16 *)ip;
	__u32 sum = 0;

	ip->check = 0;
#pragma clang loop unroll(full)
	for (int i = 0; i < (int)sizeof(*ip) / 2; i++)
		sum += w[i];
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

SEC("xdp")
int xdp_lb(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data, *neth;
	struct iphdr *ip = (struct iphdr *)(eth + 1), *outer;
	struct vip_key vk = {};
	struct vip_meta *vm;
	struct flow f = {};
	struct real *r;
	__u32 *pos, slot, key;
	__u8 old_dst[ETH_ALEN];
	__u16 inner_len;
	__u8 tos;

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if (ip->ihl != 5 || (ip->frag_off & bpf_htons(0x3fff)) != 0)
		return XDP_PASS;
	f.src = ip->saddr;
	f.dst = ip->daddr;
	f.proto = ip->protocol;
	if (parse_ports(ip + 1, end, &f) < 0)
		return XDP_PASS;
	vk.addr = f.dst;
	vk.port = f.dport;
	vk.proto = f.proto;
	vm = bpf_map_lookup_elem(&vips, &vk);
	if (vm == NULL)
		return XDP_PASS;
	pos = bpf_map_lookup_elem(&conns, &f);
	if (pos != NULL) {
		key = *pos;
		count(2, 1);
	} else {
		slot = vm->vip_num * RING + flow_hash(&f) % RING;
		pos = bpf_map_lookup_elem(&ring, &slot);
		if (pos == NULL)
			return XDP_ABORTED;
		key = *pos;
		bpf_map_update_elem(&conns, &f, &key, BPF_ANY);
	}
	r = bpf_map_lookup_elem(&reals, &key);
	if (r == NULL || r->addr == 0) {
		count(3, 1);
		return XDP_DROP;
	}
	count(0, 1);
	count(1, (__u64)(end - data));
	inner_len = bpf_ntohs(ip->tot_len);
	tos = ip->tos;
	__builtin_memcpy(old_dst, eth->h_dest, ETH_ALEN);

	if (bpf_xdp_adjust_head(ctx, -(int)sizeof(struct iphdr)))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	neth = data;
	outer = (struct iphdr *)(neth + 1);
	if ((void *)(outer + 1) > end)
		return XDP_DROP;
	put_macs(neth, r->mac, old_dst);
	neth->h_proto = bpf_htons(ETH_P_IP);
	outer->version = 4;
	outer->ihl = 5;
	outer->tos = tos;
	outer->tot_len = bpf_htons(inner_len + sizeof(struct iphdr));
	outer->id = 0;
	outer->frag_off = 0;
	outer->ttl = 64;
	outer->protocol = IPPROTO_IPIP;
	outer->saddr = lb_src;
	outer->daddr = r->addr;
	outer->check = ip_csum(outer);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
