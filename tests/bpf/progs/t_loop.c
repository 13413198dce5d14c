// SPDX-License-Identifier: BSD-3-Clause
/*
 * Loops (back-edges), which the kernel verifies since Linux 5.3.
 *  xdp_xor ("xdp"): XOR of the first 16 bytes of the frame (fewer when it
 *    is shorter), in a loop clang must not unroll; the result goes to
 *    .bss last_xor; verdict XDP_PASS when it is even, XDP_DROP when odd.
 *  xdp_spin ("xdp/spin"): doubles-and-adds-2 from rx_queue_index until
 *    the value is .data spin_until (0xffffffff, re-read every time), which
 *    never happens from 0 (the value stays even): the loop has an exit
 *    edge, so it is not refused as infinite, but only a run-time budget
 *    stops it; each iteration counts one in .bss spins before its
 *    backward jump.
 *  xdp_forever ("xdp/forever"): a loop without any exit: refused.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 last_xor;
__u64 spins;
__u32 spin_until = 0xffffffffu;

SEC("xdp")
int xdp_xor(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;
	unsigned char x = 0;

#pragma nounroll
	for (int i = 0; i < 16; i++) {
		if (data + i + 1 > end)
			break;
		x ^= data[i];
	}
	last_xor = x;
	return (x & 1) ? XDP_DROP : XDP_PASS;
}

SEC("xdp/spin")
int xdp_spin(struct xdp_md *ctx)
{
	__u32 v = ctx->rx_queue_index;

#pragma nounroll
	while (v != *(volatile __u32 *)&spin_until) {
		__sync_fetch_and_add(&spins, 1);
		v = v * 2 + 2;
	}
	return XDP_PASS;
}

SEC("xdp/forever")
int xdp_forever(struct xdp_md *ctx)
{
	(void)ctx;
	for (;;)
		__sync_fetch_and_add(&spins, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
