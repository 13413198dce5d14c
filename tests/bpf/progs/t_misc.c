// SPDX-License-Identifier: BSD-3-Clause
/*
 * Test programs for the remaining helpers.
 *  prog_meta ("xdp"): grows the metadata by 4 bytes in front of tagpipe's
 *    8 (struct tp_xdp_meta), writes 0xabcd1234 there; XDP_PASS when the
 *    metadata is then 12 bytes, the word reads back, nb_vlan reads 0 and a
 *    further 24-byte growth (36 > 32 bytes) is refused; else XDP_DROP.
 *  prog_csum ("xdp_csum"): bpf_csum_diff over the IPv4 header, folded:
 *    0xffff (valid checksum) -> XDP_PASS, otherwise XDP_DROP; non-IPv4 ->
 *    XDP_TX.
 *  prog_frags ("xdp.frags"): bpf_xdp_get_buff_len must be 100 and the last
 *    4 bytes (bpf_xdp_load_bytes) "xxxx"; then stores "ABCD" at offset 38
 *    (bpf_xdp_store_bytes) and returns XDP_PASS; else XDP_DROP.
 *  prog_printk ("xdp_printk"): IPv4 frames only (else XDP_ABORTED):
 *    bpf_trace_printk "src %pI4 len %u %s" of the source address, the frame
 *    length and "tp" must return a length > 0 and "%q" (no such conversion)
 *    a negative error: XDP_PASS; else XDP_DROP.
 * ifcfg: a map with nested key and value types for the BTF text tests.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "tp_meta.h"

/* ifcfg: no program uses it; its key and value types are what the BTF
 * text tests read and print (test_btf_text): a char array, a nested
 * struct, bitfields (one signed), __be16 elements and an array of structs. */
struct if_key {
	char name[16];
	__u16 vid;
	__u16 pad;
};

struct if_limits {
	__u32 rate;
	__u32 burst;
};

struct if_cfg {
	struct if_limits lim;
	__u32 enabled : 1;
	__u32 prio : 3;
	__s32 offset : 12;
	__be16 ports[2];
	struct if_limits queue[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8);
	__type(key, struct if_key);
	__type(value, struct if_cfg);
} ifcfg SEC(".maps");

SEC("xdp")
int prog_meta(struct xdp_md *ctx)
{
	__u32 *word;
	struct tp_meta *tm;
	void *data;

	if (bpf_xdp_adjust_meta(ctx, -4))
		return XDP_DROP;
	word = (void *)(long)ctx->data_meta;
	data = (void *)(long)ctx->data;
	tm = (void *)(word + 1);
	if ((void *)(tm + 1) > data || data - (void *)word != 12)
		return XDP_DROP;
	*word = 0xabcd1234;
	if (*(volatile __u32 *)word != 0xabcd1234 || tm->nb_vlan != 0)
		return XDP_DROP;
	if (bpf_xdp_adjust_meta(ctx, -24) == 0)
		return XDP_DROP;
	return XDP_PASS;
}

SEC("xdp_csum")
int prog_csum(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	__s64 sum;
	__u32 s;

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_TX;
	sum = bpf_csum_diff(0, 0, (__be32 *)ip, sizeof(*ip), 0);
	if (sum < 0)
		return XDP_ABORTED;
	s = (__u32)sum;
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return s == 0xffff ? XDP_PASS : XDP_DROP;
}

SEC("xdp.frags")
int prog_frags(struct xdp_md *ctx)
{
	char tail[4], abcd[4] = { 'A', 'B', 'C', 'D' };
	__u64 len = bpf_xdp_get_buff_len(ctx);

	if (len != 100)
		return XDP_DROP;
	if (bpf_xdp_load_bytes(ctx, 96, tail, 4))
		return XDP_DROP;
	if (tail[0] != 'x' || tail[1] != 'x' || tail[2] != 'x' || tail[3] != 'x')
		return XDP_DROP;
	if (bpf_xdp_store_bytes(ctx, 38, abcd, 4))
		return XDP_DROP;
	return XDP_PASS;
}

SEC("xdp_printk")
int prog_printk(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	char fmt[] = "src %pI4 len %u %s", bad[] = "%q", tag[] = "tp";
	__u32 saddr;

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_ABORTED;
	saddr = ip->saddr;
	if (bpf_trace_printk(fmt, sizeof(fmt), &saddr, (__u32)(end - data), tag) <= 0)
		return XDP_DROP;
	if (bpf_trace_printk(bad, sizeof(bad)) >= 0)
		return XDP_DROP;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
