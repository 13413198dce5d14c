/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "trailer": 4-byte tail tag (net/dsa/tag_trailer.c, docs/ref/dsa-tags.md
 * §3.10). t points one past the frame's last byte.
 *   RX  B0 = 0x80, B1 = source port (2:0, rest 0), B2 & ~0x10 = 0, B3 = 0;
 *       anything else is dropped (bad_marker).
 *   TX  pad to 60, append 80, BIT(port), 10, 00.
 */
#include "tag_impl.h"

#define TRAILER_LEN 4
#define TRAILER_TX_PAD 60 /* ETH_ZLEN */

TAG_DECODER(trailer_rx)
{
	const uint8_t *b = t - TRAILER_LEN;

	if (b[0] != 0x80 || (b[1] & 0xF8) != 0 || (b[2] & 0xEF) != 0 || b[3] != 0)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	md->port = b[1] & 0x07;
	return TRAILER_LEN;
}

TAG_DECODER(trailer_sw)
{
	const uint8_t *b = t - TRAILER_LEN;

	if (b[0] != 0x80 || b[2] != 0x10 || b[3] != 0)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	return tag_sw_map(md, b[1], TRAILER_LEN);
}

TAG_ENCODER(trailer_tx)
{
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_TAIL, TRAILER_LEN, TRAILER_TX_PAD, &t);

	if (r < 0)
		return r;
	t[0] = 0x80;
	t[1] = (uint8_t)(1u << port);
	t[2] = 0x10;
	t[3] = 0x00;
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_trailer, "trailer", TP_DSA_PROTO_TRAILER, TP_DSA_POS_TAIL,
		     TRAILER_LEN, TRAILER_LEN, 8, 8, 1, TRAILER_TX_PAD,
		     trailer_rx, trailer_sw, trailer_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_trailer)
