/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet edits a verdict program may ask for, at the mbuf level: the one
 * implementation behind both the C programs' tp_xdp_* functions (tp_prog.h)
 * and the eBPF helpers bpf_xdp_adjust_head/adjust_tail/load_bytes/
 * store_bytes (bpf_exec.c). Private to src/. Rules, shared by both:
 *   - a refused request returns a negative errno and changes nothing;
 *   - head edits work on the first segment; at least XDP_EDIT_MIN_FRAME
 *     bytes stay in it; a merged packet (RX_LRO) keeps l2_len in step, so
 *     its re-segmentation on egress copies the edited L2 header;
 *   - tail edits: a one-buffer packet may end anywhere in its buffer; a
 *     chained one grows in its last segment's buffer and is cut across
 *     segments (emptied ones freed), as the kernel's multi-buffer XDP
 *     does; a merged (RX_LRO) packet refuses them (-EOPNOTSUPP).
 */
#ifndef TP_XDP_EDIT_H
#define TP_XDP_EDIT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

/* Smallest frame an edit may leave: an Ethernet header, ETH_HLEN
 * (the kernel's bpf_xdp_adjust_head/adjust_tail, net/core/filter.c). */
#define XDP_EDIT_MIN_FRAME 14

/* Move the start of the frame by delta bytes (negative: grow into the
 * headroom); the metalen bytes in front of the data move along.
 * 0 or -EINVAL (headroom, ETH_HLEN left, or a merged packet's L2 header). */
int xdp_edit_head(struct rte_mbuf *m, int32_t delta, uint32_t metalen);

/* Move the end of the packet by delta bytes; grown bytes are zeroed.
 * 0, -EOPNOTSUPP (merged), -EINVAL (more than the last segment's tailroom,
 * fewer than ETH_HLEN bytes left). */
int xdp_edit_tail(struct rte_mbuf *m, int32_t delta);

/* Is [off, off + len) inside the packet (all segments), len 1..65535? */
static inline bool
xdp_edit_range_ok(const struct rte_mbuf *m, uint64_t off, uint64_t len)
{
	return len > 0 && len <= 0xffff && off <= m->pkt_len &&
	       len <= m->pkt_len - off;
}

/* Copy len bytes at packet offset off to buf (store: from buf into the
 * packet), across segments. 0 or -EINVAL (range, as xdp_edit_range_ok). */
int xdp_edit_xfer(struct rte_mbuf *m, uint64_t off, void *buf, uint64_t len,
		  bool store);

#endif /* TP_XDP_EDIT_H */
