/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "xrs700x": 1-byte tail tag, a one-hot port map (net/dsa/tag_xrs700x.c,
 * docs/ref/dsa-tags.md §3.9), a row of the tail-tag table (tag_tail.h).
 *   RX  port = lowest set bit, fwd mark always set; a zero byte is dropped.
 *   TX  append BIT(port).
 */
#include "tag_tail.h"

static const struct tag_tail_fmt xrs700x_fmt = {
	.tx_len = 1, .rx_map = true, .sw_map_mask = 0xFF,
};

TAG_TAIL_TAGGER(xrs700x, "xrs700x", TP_DSA_PROTO_XRS700X, 8, 8, 1, xrs700x_fmt);
