/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "rtl4a": Realtek 4-byte tag after the SA (net/dsa/tag_rtl4_a.c,
 * docs/ref/dsa-tags.md §3.19).
 *   RX  W0 0x8899 (else the frame is not tagged: passed unchanged, as the
 *       kernel leaves it on the conduit); W1 15:12 protocol 0xA, 7:0 port.
 *   TX  pad to 60; 88 99, W1 = 0xA000 | BIT(port) (a port map on TX).
 */
#include "tag_impl.h"

#define RTL4A_LEN 4
#define RTL4A_ETYPE 0x8899
#define RTL4A_PROTO 0xA
#define RTL4A_TX_PAD 60

TAG_DECODER(rtl4a_rx)
{
	if (tag_rd16(t) != RTL4A_ETYPE)
		return TAG_PASS;
	if ((t[2] >> 4) != RTL4A_PROTO)
		return TAG_ERR(TP_DSA_DROP_BAD_VERSION);
	md->port = t[3];
	return RTL4A_LEN;
}

TAG_DECODER(rtl4a_sw)
{
	if (tag_rd16(t) != RTL4A_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	if ((t[2] >> 4) != RTL4A_PROTO)
		return TAG_ERR(TP_DSA_DROP_BAD_VERSION);
	return tag_sw_map(md, tag_rd16(t + 2) & 0x0FFF, RTL4A_LEN);
}

TAG_ENCODER(rtl4a_tx)
{
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_AFTER_SA, RTL4A_LEN, RTL4A_TX_PAD, &t);

	if (r < 0)
		return r;
	tag_wr16(t, RTL4A_ETYPE);
	tag_wr16(t + 2, (uint16_t)(RTL4A_PROTO << 12 | 1u << port));
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_rtl4a, "rtl4a", TP_DSA_PROTO_RTL4_A, TP_DSA_POS_AFTER_SA,
		     RTL4A_LEN, RTL4A_LEN, 256, 12, 1, RTL4A_TX_PAD,
		     rtl4a_rx, rtl4a_sw, rtl4a_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_rtl4a)
