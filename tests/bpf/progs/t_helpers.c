// SPDX-License-Identifier: GPL-2.0
/*
 * Test programs for helpers whose answers depend on the device and the
 * sockets (written here anew; GPL because the socket lookups are gpl_only
 * for the kernel's verifier).
 *
 * xdp_mtu ("xdp"): bpf_check_mtu (helper 163) as the kernel's selftests
 * call it (tools/testing/selftests/bpf/progs/test_check_mtu.c), each
 * call's return code and mtu_len out stored in `mtu` slot 0..7:
 *   [0] ifindex 0 (the ingress device), mtu_len 0, len_diff 0
 *   [1] len_diff = MTU + 14 - frame length: just fits
 *   [2] the same + 1: one byte too long
 *   [3] mtu_len in = MTU (an L3 length, as tot_len): fits
 *   [4] mtu_len in = MTU + 1: too long
 *   [5] flags BPF_MTU_CHK_SEGS: -EINVAL for XDP (mtu_len in 9)
 *   [6] ifindex 1000: no such device (mtu_len in 7)
 *   [7] ifindex = ingress_ifindex, len_diff = -(frame length) - 100
 *   (MTU: what [0] said). XDP_PASS.
 * xdp_sk ("xdp"): the socket lookups an XDP program may make, on the
 * frame's IPv4 TCP/UDP 4-tuple (other frames: 10.0.0.1:1 -> 10.0.0.2:2).
 * bpf_skc_lookup_tcp (99), bpf_sk_lookup_tcp (84), bpf_sk_lookup_udp (85);
 * a socket found is released (bpf_sk_release, 86), as the kernel's
 * verifier demands. `socks` slot 0 counts lookups that found nothing,
 * slot 1 the ones that found a socket. XDP_PASS.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct mtu_result {
	__s64 rc;
	__u32 mtu_len;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, struct mtu_result);
} mtu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} socks SEC(".maps");

static __always_inline void
put(__u32 slot, long rc, __u32 mtu_len)
{
	struct mtu_result *r = bpf_map_lookup_elem(&mtu, &slot);

	if (r != NULL) {
		r->rc = rc;
		r->mtu_len = mtu_len;
	}
}

SEC("xdp")
int xdp_mtu(struct xdp_md *ctx)
{
	__s32 len = (__s32)(ctx->data_end - ctx->data);
	__u32 m = 0, dev_mtu;
	long rc;

	rc = bpf_check_mtu(ctx, 0, &m, 0, 0);
	put(0, rc, m);
	dev_mtu = m;
	m = 0;
	rc = bpf_check_mtu(ctx, 0, &m, (__s32)dev_mtu + ETH_HLEN - len, 0);
	put(1, rc, m);
	m = 0;
	rc = bpf_check_mtu(ctx, 0, &m, (__s32)dev_mtu + ETH_HLEN - len + 1, 0);
	put(2, rc, m);
	m = dev_mtu;
	rc = bpf_check_mtu(ctx, 0, &m, 0, 0);
	put(3, rc, m);
	m = dev_mtu + 1;
	rc = bpf_check_mtu(ctx, 0, &m, 0, 0);
	put(4, rc, m);
	m = 9;
	rc = bpf_check_mtu(ctx, 0, &m, 0, BPF_MTU_CHK_SEGS);
	put(5, rc, m);
	m = 7;
	rc = bpf_check_mtu(ctx, 1000, &m, 0, 0);
	put(6, rc, m);
	m = 0;
	rc = bpf_check_mtu(ctx, ctx->ingress_ifindex, &m, -len - 100, 0);
	put(7, rc, m);
	return XDP_PASS;
}

static __always_inline void
found(struct bpf_sock *sk)
{
	__u32 slot = sk != NULL;
	__u64 *n = bpf_map_lookup_elem(&socks, &slot);

	if (n != NULL)
		__sync_fetch_and_add(n, 1);
}

SEC("xdp")
int xdp_sk(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (struct iphdr *)(eth + 1);
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;

	t.ipv4.saddr = bpf_htonl(0x0a000001);
	t.ipv4.daddr = bpf_htonl(0x0a000002);
	t.ipv4.sport = bpf_htons(1);
	t.ipv4.dport = bpf_htons(2);
	if ((void *)(ip + 1) <= end && eth->h_proto == bpf_htons(ETH_P_IP) &&
	    ip->ihl == 5 && (ip->protocol == IPPROTO_TCP || ip->protocol == IPPROTO_UDP)) {
		struct udphdr *l4 = (struct udphdr *)(ip + 1);

		if ((void *)(l4 + 1) <= end) {
			t.ipv4.saddr = ip->saddr;
			t.ipv4.daddr = ip->daddr;
			t.ipv4.sport = l4->source;
			t.ipv4.dport = l4->dest;
		}
	}
	sk = bpf_skc_lookup_tcp(ctx, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	found(sk);
	if (sk != NULL)
		bpf_sk_release(sk);
	sk = bpf_sk_lookup_tcp(ctx, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	found(sk);
	if (sk != NULL)
		bpf_sk_release(sk);
	sk = bpf_sk_lookup_udp(ctx, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
	found(sk);
	if (sk != NULL)
		bpf_sk_release(sk);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
