/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "yt921x": Motorcomm 8-byte tag after the SA (net/dsa/tag_yt921x.c,
 * docs/ref/dsa-tags.md §3.22).
 *   RX  W0 0x9988; W1 TCI (ignored); W2 15 port valid, 14:11 port,
 *       10:8 priority, 7 code valid, 6:1 code; W3 unused.
 *       Codes 0, 0x1B, 0x1C get the fwd mark (FORWARD), others TO_CPU.
 *   TX  99 88, 00 00, W2 = 0x0080 | prio << 8, W3 = 0x8000 | BIT(port) (10:0).
 */
#include "tag_impl.h"

#define YT_LEN 8
#define YT_ETYPE 0x9988
#define YT_VALID 0x8000   /* W2: RX port valid; W3: TX port map valid */

TAG_DECODER(yt921x_rx)
{
	uint16_t w2 = tag_rd16(t + 4);
	unsigned int code = (w2 >> 1) & 0x3F;

	if (tag_rd16(t) != YT_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	if (!(w2 & YT_VALID))
		return TAG_ERR(TP_DSA_DROP_NO_PORT);
	md->port = (w2 >> 11) & 0x0F;
	md->prio = (w2 >> 8) & 7;
	md->frame_type = (code == 0 || code == 0x1B || code == 0x1C) ?
			 TP_DSA_FT_FORWARD : TP_DSA_FT_TO_CPU;
	return YT_LEN;
}

TAG_DECODER(yt921x_sw)
{
	uint16_t w3 = tag_rd16(t + 6);
	int r;

	if (tag_rd16(t) != YT_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	if (!(w3 & YT_VALID))
		return TAG_ERR(TP_DSA_DROP_NO_PORT);
	r = tag_sw_map(md, w3 & 0x07FF, YT_LEN);
	if (r >= 0)
		md->prio = t[4] & 7;
	return r;
}

TAG_ENCODER(yt921x_tx)
{
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_AFTER_SA, YT_LEN, 0, &t);

	if (r < 0)
		return r;
	tag_wr16(t, YT_ETYPE);
	tag_wr16(t + 2, 0);
	tag_wr16(t + 4, (uint16_t)(0x0080 | (prio & 7) << 8));
	tag_wr16(t + 6, (uint16_t)(YT_VALID | 1u << port));
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_yt921x, "yt921x", TP_DSA_PROTO_YT921X, TP_DSA_POS_AFTER_SA,
		     YT_LEN, YT_LEN, 16, 11, 1, 0, yt921x_rx, yt921x_sw, yt921x_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_yt921x)
