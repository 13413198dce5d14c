// SPDX-License-Identifier: BSD-3-Clause
/*
 * Test programs for bpf_xdp_adjust_tail's limits, in the manner of the
 * kernel's selftests (tools/testing/selftests/bpf/progs/
 * test_xdp_adjust_tail_grow.c; written here anew). `cfg` slot 0 is the
 * length the program asks for; `out` slot 0 gets adjust_tail's return
 * code, slot 1 the length after it.
 *  xdp_grow ("xdp"): adjust_tail(cfg[0] - length) (the length from
 *    bpf_xdp_get_buff_len, as the selftests take it); on success the last
 *    byte becomes 0xab (through data_end, so only within one buffer) and
 *    the verdict is XDP_TX, else XDP_DROP.
 *  xdp_grow_frags ("xdp.frags"): the same on packets of several buffers:
 *    the length is bpf_xdp_get_buff_len's, the last byte is written with
 *    bpf_xdp_store_bytes.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __s64);
} out SEC(".maps");

static __always_inline void
put(__u32 slot, __s64 v)
{
	__s64 *o = bpf_map_lookup_elem(&out, &slot);

	if (o != NULL)
		*o = v;
}

static __always_inline __s32
wanted(void)
{
	__u32 zero = 0, *len = bpf_map_lookup_elem(&cfg, &zero);

	return len != NULL ? (__s32)*len : 0;
}

SEC("xdp")
int xdp_grow(struct xdp_md *ctx)
{
	__s32 want = wanted();
	long rc = bpf_xdp_adjust_tail(ctx, want - (__s32)bpf_xdp_get_buff_len(ctx));
	unsigned char *data = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;
	unsigned char *last;

	put(0, rc);
	put(1, (__s64)bpf_xdp_get_buff_len(ctx));
	if (rc != 0)
		return XDP_DROP;
	if (want < 1 || want > 0x4000)
		return XDP_ABORTED;
	/* the byte the program asked for, through a checked pointer (the mask
	 * bounds the offset for the kernel's verifier) */
	last = data + (((__u32)want - 1) & 0x3fff);
	if (last + 1 > end)
		return XDP_ABORTED;
	*last = 0xab;
	return XDP_TX;
}

SEC("xdp.frags")
int xdp_grow_frags(struct xdp_md *ctx)
{
	__u8 mark = 0xab;
	long rc = bpf_xdp_adjust_tail(ctx, wanted() - (__s32)bpf_xdp_get_buff_len(ctx));
	__u64 len = bpf_xdp_get_buff_len(ctx);

	put(0, rc);
	put(1, (__s64)len);
	if (rc != 0)
		return XDP_DROP;
	if (len == 0 || bpf_xdp_store_bytes(ctx, (__u32)len - 1, &mark, 1) != 0)
		return XDP_ABORTED;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
