/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "brcm-legacy": BCM63xx/BCM5325 6-byte tag after the SA
 * (net/dsa/tag_brcm.c, docs/ref/dsa-tags.md §3.3).
 *   RX  88 74 | T2 7:5 op | T3 T4 unused | T5 3:0 source port.
 *       The kernel checks neither 0x8874 nor op. The optional extra 802.1Q
 *       header of cascaded switches is not stripped (configuration).
 *   TX  pad to 66, then 88 74 40 00 00 port.
 */
#include "tag_impl.h"

#define BRCML_LEN 6
#define BRCML_TX_PAD 66 /* ETH_ZLEN + 6 */

TAG_DECODER(brcml_rx)
{
	md->port = t[5] & 0x0F;
	return BRCML_LEN;
}

TAG_DECODER(brcml_sw)
{
	if (t[0] != 0x88 || t[1] != 0x74)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	if ((t[2] >> 5) != 2)
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
	md->port = t[5] & 0x0F;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return BRCML_LEN;
}

TAG_ENCODER(brcml_tx)
{
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_AFTER_SA, BRCML_LEN, BRCML_TX_PAD, &t);

	if (r < 0)
		return r;
	t[0] = 0x88;
	t[1] = 0x74;
	t[2] = 0x40; /* op 2: egress */
	t[3] = 0;
	t[4] = 0;
	t[5] = (uint8_t)(port & 0x0F);
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_brcm_legacy, "brcm-legacy", TP_DSA_PROTO_BRCM_LEGACY,
		     TP_DSA_POS_AFTER_SA, BRCML_LEN, BRCML_LEN, 16, 16, 1, BRCML_TX_PAD,
		     brcml_rx, brcml_sw, brcml_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_brcm_legacy)
