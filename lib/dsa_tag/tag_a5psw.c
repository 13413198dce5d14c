/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "a5psw": Renesas RZ/N1 8-byte tag after the SA (net/dsa/tag_rzn1_a5psw.c,
 * docs/ref/dsa-tags.md §3.21).
 *   RX  W0 0xE001; W1 3:0 source port; W2, W3 unused.
 *   TX  pad to 60; E0 01, 00 01 (force forward), 00 00, W3 = BIT(port) (3:0).
 */
#include "tag_impl.h"

#define A5PSW_LEN 8
#define A5PSW_ETYPE 0xE001
#define A5PSW_TX_PAD 60

TAG_DECODER(a5psw_rx)
{
	if (tag_rd16(t) != A5PSW_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	md->port = t[3] & 0x0F;
	return A5PSW_LEN;
}

TAG_DECODER(a5psw_sw)
{
	if (tag_rd16(t) != A5PSW_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	return tag_sw_map(md, t[7] & 0x0F, A5PSW_LEN);
}

TAG_ENCODER(a5psw_tx)
{
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_AFTER_SA, A5PSW_LEN, A5PSW_TX_PAD, &t);

	if (r < 0)
		return r;
	tag_wr16(t, A5PSW_ETYPE);
	tag_wr16(t + 2, 0x0001);
	tag_wr16(t + 4, 0x0000);
	tag_wr16(t + 6, (uint16_t)(1u << port));
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_a5psw, "a5psw", TP_DSA_PROTO_RZN1_A5PSW, TP_DSA_POS_AFTER_SA,
		     A5PSW_LEN, A5PSW_LEN, 16, 4, 1, A5PSW_TX_PAD,
		     a5psw_rx, a5psw_sw, a5psw_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_a5psw)
