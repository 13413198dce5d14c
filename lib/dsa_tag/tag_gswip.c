/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "gswip": Lantiq/Intel GSWIP tag before the DA (net/dsa/tag_gswip.c,
 * docs/ref/dsa-tags.md §3.6). RX and TX differ in length.
 *   RX  8 bytes; only byte 7 bits 6:4 are used (source port).
 *   TX  4 bytes: 02 (source CPU), 00, C0 (port map enable + select),
 *       (BIT(port) << 1) & 0x7E | 0x01 (ports 0-5; bit 0 DPID enable).
 */
#include "tag_impl.h"

#define GSWIP_RX_LEN 8
#define GSWIP_TX_LEN 4

TAG_DECODER(gswip_rx)
{
	md->port = (t[7] >> 4) & 7;
	return GSWIP_RX_LEN;
}

TAG_DECODER(gswip_sw)
{
	if (t[0] != 0x02 || (t[2] & 0xC0) != 0xC0)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	return tag_sw_map(md, (t[3] >> 1) & 0x3F, GSWIP_TX_LEN);
}

TAG_ENCODER(gswip_tx)
{
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_BEFORE_DA, GSWIP_TX_LEN, 0, &t);

	if (r < 0)
		return r;
	t[0] = 0x02;
	t[1] = 0x00;
	t[2] = 0xC0;
	t[3] = (uint8_t)(((1u << port) << 1 & 0x7E) | 0x01);
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_gswip, "gswip", TP_DSA_PROTO_GSWIP, TP_DSA_POS_BEFORE_DA,
		     GSWIP_RX_LEN, GSWIP_TX_LEN, 8, 6, 1, 0, gswip_rx, gswip_sw, gswip_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_gswip)
