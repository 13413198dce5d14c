// SPDX-License-Identifier: BSD-3-Clause
/*
 * A legacy map definition (struct bpf_map_def in section "maps", as
 * iproute2 and older samples write it; libbpf >= 1.0 refuses to open it).
 *  prog_legacy ("xdp"): counts[0] += 1 per packet, counts[1] += frame
 *  length; XDP_PASS.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "legacy_map.h"

struct legacy_map_def counts SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 2,
};

SEC("xdp")
int prog_legacy(struct xdp_md *ctx)
{
	__u32 k0 = 0, k1 = 1;
	__u64 *c = bpf_map_lookup_elem(&counts, &k0);

	if (c)
		__sync_fetch_and_add(c, 1);
	c = bpf_map_lookup_elem(&counts, &k1);
	if (c)
		__sync_fetch_and_add(c, ctx->data_end - ctx->data);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
