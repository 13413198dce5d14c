// SPDX-License-Identifier: BSD-3-Clause
/*
 * Test programs for BPF_MAP_TYPE_RINGBUF (map "rb", 4096 bytes).
 *  prog_ringbuf ("xdp"): reserves a struct rb_event (16 bytes: frame
 *    length, ingress_ifindex, the frame's first 8 bytes); a frame whose
 *    length is a multiple of 4 has it discarded, others submitted; then bpf_ringbuf_output
 *    of the frame length (u32, BPF_RB_NO_WAKEUP). After that .bss
 *    last_avail = bpf_ringbuf_query(BPF_RB_AVAIL_DATA) and ring_size =
 *    query(BPF_RB_RING_SIZE). Verdict: XDP_DROP when the reservation
 *    failed (nothing else done), XDP_TX when the output failed, else
 *    XDP_PASS.
 *  prog_rb_flags ("xdp_rb_flags"): XDP_PASS when output with flags 4 is
 *    -EINVAL, reserve with flags 1 is NULL, reserve of 4096 bytes (more
 *    than the ring with its header) is NULL and query with flags 99 is 0;
 *    else XDP_DROP.
 *  prog_rb_quiet ("xdp_rb_quiet"), prog_rb_force ("xdp_rb_force"): output
 *    of the frame length (u32) with BPF_RB_NO_WAKEUP, with
 *    BPF_RB_FORCE_WAKEUP; XDP_PASS, or XDP_DROP when it failed.
 *  prog_rb_leak ("xdp_rb_leak"): reserves 8 bytes and returns XDP_PASS
 *    holding them (the kernel's verifier refuses it).
 *  prog_rb_oob ("xdp_rb_oob"): reserves 8 bytes, then reads data[200]
 *    without a data_end check (the kernel's verifier refuses it) into the
 *    record and submits it; XDP_DROP when the reservation fails.
 *  prog_rb_stale ("xdp_rb_stale"): reserves 8 bytes, writes
 *    0x1122334455667788, submits, then writes through the submitted
 *    pointer (the kernel's verifier refuses it); XDP_PASS if that write
 *    were allowed.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

struct rb_event {
	__u32 len;
	__u32 ifindex;
	__u8 head[8];
};

__u64 last_avail;
__u64 ring_size;

SEC("xdp")
int prog_ringbuf(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 len = (__u32)(end - data);
	struct rb_event *e;
	int rc;

	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (e == NULL)
		return XDP_DROP;
	e->len = len;
	e->ifindex = ctx->ingress_ifindex;
	if (data + 8 <= end)
		__builtin_memcpy(e->head, data, 8);
	else
		__builtin_memset(e->head, 0, 8);
	if ((len & 3) == 0)
		bpf_ringbuf_discard(e, 0);
	else
		bpf_ringbuf_submit(e, 0);
	rc = bpf_ringbuf_output(&rb, &len, sizeof(len), BPF_RB_NO_WAKEUP);
	last_avail = bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA);
	ring_size = bpf_ringbuf_query(&rb, BPF_RB_RING_SIZE);
	return rc == 0 ? XDP_PASS : XDP_TX;
}

SEC("xdp_rb_flags")
int prog_rb_flags(struct xdp_md *ctx)
{
	__u32 v = 7;
	void *r;

	(void)ctx;
	if (bpf_ringbuf_output(&rb, &v, sizeof(v), 4) != -22)
		return XDP_DROP;
	r = bpf_ringbuf_reserve(&rb, 8, 1);
	if (r != NULL) {
		bpf_ringbuf_discard(r, 0);
		return XDP_DROP;
	}
	r = bpf_ringbuf_reserve(&rb, 4096, 0);
	if (r != NULL) {
		bpf_ringbuf_discard(r, 0);
		return XDP_DROP;
	}
	return bpf_ringbuf_query(&rb, 99) == 0 ? XDP_PASS : XDP_DROP;
}

SEC("xdp_rb_quiet")
int prog_rb_quiet(struct xdp_md *ctx)
{
	__u32 len = ctx->data_end - ctx->data;

	return bpf_ringbuf_output(&rb, &len, sizeof(len), BPF_RB_NO_WAKEUP) ? XDP_DROP :
									       XDP_PASS;
}

SEC("xdp_rb_force")
int prog_rb_force(struct xdp_md *ctx)
{
	__u32 len = ctx->data_end - ctx->data;

	return bpf_ringbuf_output(&rb, &len, sizeof(len), BPF_RB_FORCE_WAKEUP) ? XDP_DROP :
										  XDP_PASS;
}

SEC("xdp_rb_leak")
int prog_rb_leak(struct xdp_md *ctx)
{
	(void)ctx;
	bpf_ringbuf_reserve(&rb, 8, 0);
	return XDP_PASS;
}

SEC("xdp_rb_stale")
int prog_rb_stale(struct xdp_md *ctx)
{
	volatile __u64 *r = bpf_ringbuf_reserve(&rb, 8, 0);

	(void)ctx;
	if (r == NULL)
		return XDP_DROP;
	*r = 0x1122334455667788ull;
	bpf_ringbuf_submit((void *)r, 0);
	*r = 0;
	return XDP_PASS;
}

SEC("xdp_rb_oob")
int prog_rb_oob(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	__u64 *r = bpf_ringbuf_reserve(&rb, 8, 0);

	if (r == NULL)
		return XDP_DROP;
	*r = data[200]; /* no data_end check: beyond every test frame */
	bpf_ringbuf_submit(r, 0);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
