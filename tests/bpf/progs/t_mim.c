// SPDX-License-Identifier: BSD-3-Clause
/*
 * Test program for map-in-map (ARRAY_OF_MAPS, HASH_OF_MAPS).
 * inner_a, inner_b: ARRAY, u32 -> u64, 4 entries (the inner shape);
 * other: ARRAY, u32 -> u32, 4 entries (not of that shape).
 * outer: ARRAY_OF_MAPS, 2 slots, slot 0 = inner_a initially.
 * outer_h: HASH_OF_MAPS, u32 keys, empty initially.
 *  prog_mim ("xdp"): p = ingress_ifindex - 1 (the port). If outer[p] is
 *    set, its element 0 += 1 and the verdict is XDP_TX; if outer_h[p] is
 *    set, its element 1 += frame length (verdict unchanged). Otherwise
 *    XDP_PASS.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct inner {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
};

struct inner inner_a SEC(".maps"), inner_b SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 4);
} other SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__type(key, __u32);
	__uint(max_entries, 2);
	__array(values, struct inner);
} outer SEC(".maps") = {
	.values = { [0] = &inner_a },
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__type(key, __u32);
	__uint(max_entries, 4);
	__array(values, struct inner);
} outer_h SEC(".maps");

SEC("xdp")
int prog_mim(struct xdp_md *ctx)
{
	__u32 port = ctx->ingress_ifindex - 1, zero = 0, one = 1;
	__u32 len = (__u32)(ctx->data_end - ctx->data);
	int verdict = XDP_PASS;
	void *in;
	__u64 *c;

	in = bpf_map_lookup_elem(&outer, &port);
	if (in != NULL) {
		c = bpf_map_lookup_elem(in, &zero);
		if (c != NULL)
			__sync_fetch_and_add(c, 1);
		verdict = XDP_TX;
	}
	in = bpf_map_lookup_elem(&outer_h, &port);
	if (in != NULL) {
		c = bpf_map_lookup_elem(in, &one);
		if (c != NULL)
			__sync_fetch_and_add(c, len);
	}
	return verdict;
}

char LICENSE[] SEC("license") = "GPL";
