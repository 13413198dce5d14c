/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "gsw1xx": MaxLinear GSW1xx 8-byte tag after the SA
 * (net/dsa/tag_mxl-gsw1xx.c, docs/ref/dsa-tags.md §3.23).
 *   RX  W0 0x88C3; W1 15:8 source port.
 *   TX  88 C3, W1 = 0x8000 (port map enable) | 0x1000 (learning off) |
 *       BIT(port) (7:0), W2 = W3 = 0.
 */
#include "tag_impl.h"

#define GSW1XX_LEN 8
#define GSW1XX_ETYPE 0x88C3
#define GSW1XX_MAP_EN 0x8000

TAG_DECODER(gsw1xx_rx)
{
	if (tag_rd16(t) != GSW1XX_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	md->port = t[2];
	return GSW1XX_LEN;
}

TAG_DECODER(gsw1xx_sw)
{
	uint16_t w1 = tag_rd16(t + 2);

	if (tag_rd16(t) != GSW1XX_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	if (!(w1 & GSW1XX_MAP_EN))
		return TAG_ERR(TP_DSA_DROP_NO_PORT);
	return tag_sw_map(md, w1 & 0xFF, GSW1XX_LEN);
}

TAG_ENCODER(gsw1xx_tx)
{
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_AFTER_SA, GSW1XX_LEN, 0, &t);

	if (r < 0)
		return r;
	tag_wr16(t, GSW1XX_ETYPE);
	tag_wr16(t + 2, (uint16_t)(GSW1XX_MAP_EN | 0x1000 | 1u << port));
	tag_wr16(t + 4, 0);
	tag_wr16(t + 6, 0);
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_gsw1xx, "gsw1xx", TP_DSA_PROTO_MXL_GSW1XX, TP_DSA_POS_AFTER_SA,
		     GSW1XX_LEN, GSW1XX_LEN, 256, 8, 1, 0, gsw1xx_rx, gsw1xx_sw, gsw1xx_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_gsw1xx)
