// SPDX-License-Identifier: BSD-3-Clause
/*
 * A RINGBUF whose size the kernel refuses (ringbuf_map_alloc: max_entries
 * must be a power of 2 multiple of the page size), defined the legacy way
 * so that libbpf does not round it up as it does for BTF maps.
 *  prog_rb_legacy ("xdp"): XDP_PASS (never runs: the open fails).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "legacy_map.h"

struct legacy_map_def odd_rb SEC("maps") = {
	.type = BPF_MAP_TYPE_RINGBUF,
	.max_entries = 5000,
};

SEC("xdp")
int prog_rb_legacy(struct xdp_md *ctx)
{
	__u32 v = 1;

	bpf_ringbuf_output(&odd_rb, &v, sizeof(v), 0);
	(void)ctx;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
