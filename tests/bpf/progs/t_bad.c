// SPDX-License-Identifier: BSD-3-Clause
/*
 * Programs that must not run as written.
 *  xdp_oob ("xdp"): reads a byte 200 bytes into the packet without a
 *    data_end check: runs, and a short packet must end XDP_ABORTED (counted).
 *  xdp_stack_oob ("xdp_stack"): writes below its stack frame: ABORTED.
 *  xdp_write_then_oob ("xdp_partial"): writes 0xee to byte 0, then reads byte 100,
 *    neither checked against data_end: a frame of 100 bytes or less gets
 *    its write and ends XDP_ABORTED at the read; a longer one: byte 100
 *    zero -> XDP_PASS, else XDP_DROP.
 *  prog_uninit ("xdp_uninit"): returns r7 never set: refused at open.
 *  xdp_ctx_write ("xdp_ctxw"): stores into xdp_md: refused at open.
 *  prog_syncookie ("xdp_syncookie"): calls bpf_tcp_raw_gen_syncookie_ipv4
 *    (204), a helper XDP has in the kernel and tagpipe does not: refused
 *    at open.
 */
#include <linux/bpf.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_oob(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;

	return data[200] == 0x42 ? XDP_DROP : XDP_PASS;
}

SEC("xdp_stack")
int xdp_stack_oob(struct xdp_md *ctx)
{
	volatile char buf[8];
	volatile int idx = -5000 + (int)ctx->rx_queue_index;

	buf[idx] = 1;
	return XDP_PASS;
}

SEC("xdp_partial")
int xdp_write_then_oob(struct xdp_md *ctx)
{
	volatile unsigned char *data = (void *)(long)ctx->data;

	data[0] = 0xee;
	return data[100] ? XDP_DROP : XDP_PASS;
}

SEC("xdp_uninit")
int prog_uninit(struct xdp_md *ctx)
{
	int r;

	(void)ctx;
	asm volatile("%0 = r7" : "=r"(r));
	return r;
}

SEC("xdp_ctxw")
int xdp_ctx_write(struct xdp_md *ctx)
{
	ctx->rx_queue_index = 3;
	return XDP_PASS;
}

SEC("xdp_syncookie")
int prog_syncookie(struct xdp_md *ctx)
{
	struct iphdr ip = {};
	struct tcphdr th = {};

	(void)ctx;
	return bpf_tcp_raw_gen_syncookie_ipv4(&ip, &th, sizeof(th)) < 0 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
