/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Microchip KSZ tail tags (net/dsa/tag_ksz.c, docs/ref/dsa-tags.md §3.7),
 * one row each of the tail-tag table (tag_tail.h):
 *   ksz8795  RX last byte 1:0 port.  TX BIT(port) | 0x40 link-local override.
 *   ksz9477  RX 2:0 port, bit 7: 4-byte timestamp before it.
 *            TX 2 bytes: bit 9 override, 8:7 priority, 6:0 BIT(port).
 *   ksz9893  RX as ksz9477.  TX 1 byte: bit 5 override, 4:3 priority, BIT(port).
 *   lan937x  RX as ksz9477.  TX 2 bytes: bit 13 valid, bit 11 override,
 *            10:8 priority, 7:0 BIT(port).
 *   ksz8463  RX 2:0 port, no timestamp (2026 patch; proto id 34 provisional,
 *            §2).  TX 1 byte: 4:3 priority, BIT(port).
 * TX never carries the PTP timestamp word (hardware timestamping off).
 */
#include "tag_tail.h"

static const struct tag_tail_fmt ksz8795_fmt = {
	.tx_len = 1, .rx_port_mask = 0x03, .sw_map_mask = 0x1F, .override = 0x40,
};
static const struct tag_tail_fmt ksz9477_fmt = {
	.tx_len = 2, .rx_port_mask = 0x07, .rx_ts = true, .sw_map_mask = 0x7F,
	.override = 1u << 9, .prio_shift = 7, .prio_mask = 3,
};
static const struct tag_tail_fmt ksz9893_fmt = {
	.tx_len = 1, .rx_port_mask = 0x07, .rx_ts = true, .sw_map_mask = 0x07,
	.override = 1u << 5, .prio_shift = 3, .prio_mask = 3,
};
static const struct tag_tail_fmt lan937x_fmt = {
	.tx_len = 2, .rx_port_mask = 0x07, .rx_ts = true, .sw_map_mask = 0xFF,
	.valid = 0x2000, .override = 1u << 11, .prio_shift = 8, .prio_mask = 7,
};
static const struct tag_tail_fmt ksz8463_fmt = {
	.tx_len = 1, .rx_port_mask = 0x07, .sw_map_mask = 0x07,
	.prio_shift = 3, .prio_mask = 3,
};

/*              var      name       proto                  RX ports TX ports TX len */
TAG_TAIL_TAGGER(ksz8795, "ksz8795", TP_DSA_PROTO_KSZ8795, 4, 5, 1, ksz8795_fmt);
TAG_TAIL_TAGGER(ksz9477, "ksz9477", TP_DSA_PROTO_KSZ9477, 8, 7, 2, ksz9477_fmt);
TAG_TAIL_TAGGER(ksz9893, "ksz9893", TP_DSA_PROTO_KSZ9893, 8, 3, 1, ksz9893_fmt);
TAG_TAIL_TAGGER(lan937x, "lan937x", TP_DSA_PROTO_LAN937X, 8, 8, 2, lan937x_fmt);
TAG_TAIL_TAGGER(ksz8463, "ksz8463", TP_DSA_PROTO_KSZ8463, 8, 3, 1, ksz8463_fmt);
