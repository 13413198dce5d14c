// SPDX-License-Identifier: BSD-3-Clause
/*
 * Test programs for bpf_loop (helper 181).
 *  prog_loop ("xdp"): s = first frame byte & 15; bpf_loop(10, step, &lc, 0)
 *    where step(i) adds square(i) (a BPF-to-BPF call) to lc.sum and
 *    returns 1 (stop) when i == s. .bss: last_ret = bpf_loop's return
 *    (s + 1 when s < 10, else 10), last_sum = lc.sum (squares of 0..s, or
 *    of 0..9 = 285), e2big = bpf_loop((1 << 23) + 1, ...) (-E2BIG, no
 *    call), einval = bpf_loop(1, ..., flags 1) (-EINVAL, no call), calls
 *    = callback calls so far in all runs. XDP_PASS.
 *  prog_loop_bad ("xdp_loop_bad"): bpf_loop with the packet pointer as its
 *    callback (the kernel's verifier refuses it). XDP_PASS if it ran.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct loop_ctx {
	__u32 sum;
	__u32 stop_at;
};

__s64 last_ret, last_sum, e2big, einval;
__u64 calls;

static __attribute__((noinline)) __u32
square(__u32 x)
{
	return x * x;
}

static int
step(__u32 index, void *data)
{
	struct loop_ctx *lc = data;

	calls++;
	lc->sum += square(index);
	return index == lc->stop_at ? 1 : 0;
}

SEC("xdp")
int prog_loop(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct loop_ctx lc = { 0, 0 };

	if (data + 1 > end)
		return XDP_DROP;
	lc.stop_at = *(__u8 *)data & 15;
	last_ret = bpf_loop(10, step, &lc, 0);
	last_sum = lc.sum;
	e2big = bpf_loop((1u << 23) + 1, step, &lc, 0);
	einval = bpf_loop(1, step, &lc, 1);
	return XDP_PASS;
}

SEC("xdp_loop_bad")
int prog_loop_bad(struct xdp_md *ctx)
{
	bpf_loop(3, (void *)(long)ctx->data, 0, 0);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
