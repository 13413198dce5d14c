// SPDX-License-Identifier: BSD-3-Clause
/*
 * Test programs for redirect maps, as the kernel's samples use them
 * (samples/bpf/xdp_redirect_map_multi.bpf.c, xdp_redirect_cpu.bpf.c;
 * written here anew).
 *  xdp_bcast ("xdp"): every frame to every port of `ports` (DEVMAP of
 *    ifindexes) but the one it came in on: bpf_redirect_map with
 *    BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS (the key is not used).
 *  xdp_bcast_all ("xdp"): every frame to every entry of `ports_hash`
 *    (DEVMAP_HASH of struct bpf_devmap_val), the ingress port included.
 *  xdp_cpu ("xdp"): IPv4 frames to the CPU of `cpus` (CPUMAP) numbered by
 *    the last byte of their source address modulo 4, fallback XDP_PASS
 *    when that CPU has no entry; other frames to CPU 0, fallback XDP_DROP.
 *  xdp_cpu_bcast ("xdp"): BPF_F_BROADCAST on a CPUMAP: XDP_ABORTED (a
 *    flag of DEVMAPs only).
 *  xdp_stale ("xdp"): bpf_redirect(5), then a redirect_map miss (key 7 of
 *    `ports`, fallback XDP_PASS), then XDP_REDIRECT: the miss forgot the
 *    first target, so the packet has none.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u32);
} ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} ports_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} cpus SEC(".maps");

SEC("xdp")
int xdp_bcast(struct xdp_md *ctx)
{
	(void)ctx;
	return bpf_redirect_map(&ports, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
}

SEC("xdp")
int xdp_bcast_all(struct xdp_md *ctx)
{
	(void)ctx;
	return bpf_redirect_map(&ports_hash, 0, BPF_F_BROADCAST);
}

SEC("xdp")
int xdp_cpu(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (struct iphdr *)(eth + 1);

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return bpf_redirect_map(&cpus, 0, XDP_DROP);
	return bpf_redirect_map(&cpus, (bpf_ntohl(ip->saddr) & 0xff) % 4, XDP_PASS);
}

SEC("xdp")
int xdp_cpu_bcast(struct xdp_md *ctx)
{
	(void)ctx;
	return bpf_redirect_map(&cpus, 0, BPF_F_BROADCAST);
}

SEC("xdp")
int xdp_stale(struct xdp_md *ctx)
{
	(void)ctx;
	bpf_redirect(5, 0);
	if (bpf_redirect_map(&ports, 7, XDP_PASS) == XDP_PASS)
		return XDP_REDIRECT;
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
