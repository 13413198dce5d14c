/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "mt7628": MediaTek MT7628 4-byte tag after the SA (net/dsa/tag_mt7628.c,
 * 2026; proto id 35 provisional; docs/ref/dsa-tags.md §3.13).
 *   RX  W0 2:0 source port; W1 ignored; 4 bytes removed.
 *   TX  W0 = 0x8100 | BIT(port) (5:0), W1 = standalone tag_8021q VID
 *       (0xC00 | port, switch 0).
 */
#include "tag_impl.h"

#define MT7628_LEN 4

TAG_DECODER(mt7628_rx)
{
	md->port = t[1] & 0x07;
	return MT7628_LEN;
}

TAG_DECODER(mt7628_sw)
{
	if (t[0] != 0x81 || (t[1] & 0xC0) != 0)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	return tag_sw_map(md, t[1] & 0x3F, MT7628_LEN);
}

TAG_ENCODER(mt7628_tx)
{
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_AFTER_SA, MT7628_LEN, 0, &t);

	if (r < 0)
		return r;
	tag_wr16(t, (uint16_t)(0x8100 | 1u << port));
	tag_wr16(t + 2, (uint16_t)(0x0C00 | port));
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_mt7628, "mt7628", TP_DSA_PROTO_MT7628, TP_DSA_POS_AFTER_SA,
		     MT7628_LEN, MT7628_LEN, 8, 6, 1, 0, mt7628_rx, mt7628_sw, mt7628_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_mt7628)
