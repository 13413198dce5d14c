// SPDX-License-Identifier: BSD-3-Clause
/*
 * Test programs for bpf_xdp_adjust_head / adjust_tail / adjust_meta.
 *  xdp_vlan_push ("xdp"): insert an 802.1Q tag with VID = 100 + the
 *    stripped-tag count read from tagpipe's metadata (data_meta), XDP_TX.
 *  xdp_vlan_pop ("xdp_pop"): remove an outer 802.1Q tag if present, PASS.
 *  prog_trim ("xdp_trim"): cut the frame to 60 bytes when longer, or grow
 *    it by 4 zero bytes when shorter; XDP_TX.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "tp_meta.h"

struct vlan_hdr {
	__be16 tci;
	__be16 proto;
};

SEC("xdp")
int xdp_vlan_push(struct xdp_md *ctx)
{
	void *data, *end, *meta;
	struct ethhdr *eth, old;
	struct vlan_hdr *vh;
	__u16 vid = 100;

	meta = (void *)(long)ctx->data_meta;
	data = (void *)(long)ctx->data;
	if (meta + sizeof(struct tp_meta) <= data)
		vid += ((struct tp_meta *)meta)->nb_vlan;
	eth = data;
	end = (void *)(long)ctx->data_end;
	if ((void *)(eth + 1) > end)
		return XDP_ABORTED;
	old = *eth;
	if (bpf_xdp_adjust_head(ctx, -(int)sizeof(struct vlan_hdr)))
		return XDP_ABORTED;
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	eth = data;
	vh = (void *)(eth + 1);
	if ((void *)(vh + 1) > end)
		return XDP_ABORTED;
	__builtin_memcpy(eth->h_dest, old.h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_source, old.h_source, ETH_ALEN);
	eth->h_proto = bpf_htons(ETH_P_8021Q);
	vh->tci = bpf_htons(vid);
	vh->proto = old.h_proto;
	return XDP_TX;
}

SEC("xdp_pop")
int xdp_vlan_pop(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data, copy;
	struct vlan_hdr *vh = (void *)(eth + 1);

	if ((void *)(vh + 1) > end || eth->h_proto != bpf_htons(ETH_P_8021Q))
		return XDP_PASS;
	copy = *eth;
	copy.h_proto = vh->proto;
	if (bpf_xdp_adjust_head(ctx, (int)sizeof(struct vlan_hdr)))
		return XDP_ABORTED;
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	eth = data;
	if ((void *)(eth + 1) > end)
		return XDP_ABORTED;
	*eth = copy;
	return XDP_PASS;
}

SEC("xdp_trim")
int prog_trim(struct xdp_md *ctx)
{
	int len = ctx->data_end - ctx->data;

	if (bpf_xdp_adjust_tail(ctx, len > 60 ? 60 - len : 4))
		return XDP_ABORTED;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
