/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "hellcreek": 1-byte tail tag (net/dsa/tag_hellcreek.c,
 * docs/ref/dsa-tags.md §3.8), a row of the tail-tag table (tag_tail.h).
 *   RX  last byte bits 1:0 = source port.   TX  append BIT(port).
 */
#include "tag_tail.h"

static const struct tag_tail_fmt hellcreek_fmt = {
	.tx_len = 1, .rx_port_mask = 0x03, .sw_map_mask = 0xFF,
};

TAG_TAIL_TAGGER(hellcreek, "hellcreek", TP_DSA_PROTO_HELLCREEK, 4, 8, 1, hellcreek_fmt);
