/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "mtk": MediaTek 4-byte tag after the SA (net/dsa/tag_mtk.c,
 * docs/ref/dsa-tags.md §3.12).
 *   RX  W0 2:0 source port; the rest ignored; 4 bytes always removed.
 *   TX  pad to 60. Frame tagged 0x8100 / 0x88A8 (header in the first
 *       segment, tag_tx_vlan_in_place_ok): nothing inserted, the TPID
 *       is overwritten with T0 = 1 / 2, T1 = BIT(port) (5:0), TCI kept.
 *       Untagged: insert 00 BIT(port) 00 00. T1 bit 7 (passthrough) when
 *       the device (switch index) is not 0.
 */
#include "tag_impl.h"

#define MTK_LEN 4
#define MTK_TX_PAD 60
#define MTK_UNTAGGED 0
#define MTK_8021Q 1
#define MTK_8021AD 2

TAG_DECODER(mtk_rx)
{
	md->port = t[1] & 0x07;
	return MTK_LEN;
}

/* The switch side: an untagged frame's tag goes, a VLAN frame's tag turns
 * back into its TPID. */
TAG_DECODER(mtk_sw)
{
	int r = tag_sw_map(md, t[1] & 0x3F, MTK_LEN);

	if (r < 0)
		return r;
	md->device = t[1] >> 7;
	if (t[0] == MTK_UNTAGGED)
		return MTK_LEN;
	if (t[0] == MTK_8021Q)
		tag_wr16(t, 0x8100);
	else if (t[0] == MTK_8021AD)
		tag_wr16(t, 0x88A8);
	else
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
	md->flags |= TP_DSA_META_F_TAG_VLAN;
	return 0;
}

TAG_ENCODER(mtk_tx)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	uint8_t map = (uint8_t)((1u << port) | (dev != 0 ? 0x80 : 0));
	uint16_t et = tag_rd16(p + TAG_MACS);
	uint8_t *t;
	int r;

	r = tag_tx_pad(m, MTK_TX_PAD);
	if (r < 0)
		return r;
	if ((et == 0x8100 || et == 0x88A8) && tag_tx_vlan_in_place_ok(m)) {
		p[TAG_MACS] = et == 0x8100 ? MTK_8021Q : MTK_8021AD;
		p[TAG_MACS + 1] = map;
		return 0;
	}
	r = tag_tx_open(m, TP_DSA_POS_AFTER_SA, MTK_LEN, 0, &t);
	if (r < 0)
		return r;
	t[0] = MTK_UNTAGGED;
	t[1] = map;
	t[2] = 0;
	t[3] = 0;
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_mtk, "mtk", TP_DSA_PROTO_MTK, TP_DSA_POS_AFTER_SA,
		     MTK_LEN, MTK_LEN, 8, 6, 2, MTK_TX_PAD, mtk_rx, mtk_sw, mtk_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_mtk)
