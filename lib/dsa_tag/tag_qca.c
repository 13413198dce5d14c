/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "qca": Qualcomm 2-byte tag after the SA (net/dsa/tag_qca.c,
 * include/linux/dsa/tag_qca.h; docs/ref/dsa-tags.md §3.14).
 *   W0 15:14 version (2), 13:11 priority, 10:6 type (0 normal, 1 MIB,
 *   2 register ack), 7 from-CPU (TX), 3 "was tagged", 2:0 source port (RX)
 *   / 6:0 port map (TX).
 *   RX  version != 2 dropped; types 1 and 2 are management frames the
 *       kernel consumes (dropped "mgmt_frame").
 *   TX  0x8000 | 0x0080 | BIT(port).
 */
#include "tag_impl.h"

#define QCA_LEN 2
#define QCA_VERSION 2
#define QCA_FROM_CPU 0x0080

TAG_DECODER(qca_rx)
{
	uint16_t w = tag_rd16(t);
	unsigned int type = (w >> 6) & 0x1F;

	if ((w >> 14) != QCA_VERSION)
		return TAG_ERR(TP_DSA_DROP_BAD_VERSION);
	if (type == 1 || type == 2)
		return TAG_ERR(TP_DSA_DROP_MGMT);
	md->port = w & 7;
	md->prio = (w >> 11) & 7;
	if (w & 0x0008)
		md->flags |= TP_DSA_META_F_TAG_VLAN;
	return QCA_LEN;
}

TAG_DECODER(qca_sw)
{
	uint16_t w = tag_rd16(t);
	int r;

	if ((w >> 14) != QCA_VERSION)
		return TAG_ERR(TP_DSA_DROP_BAD_VERSION);
	if (!(w & QCA_FROM_CPU))
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
	r = tag_sw_map(md, w & 0x7F, QCA_LEN);
	if (r >= 0)
		md->prio = (w >> 11) & 7;
	return r;
}

TAG_ENCODER(qca_tx)
{
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_AFTER_SA, QCA_LEN, 0, &t);

	if (r < 0)
		return r;
	tag_wr16(t, (uint16_t)(QCA_VERSION << 14 | QCA_FROM_CPU | 1u << port));
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_qca, "qca", TP_DSA_PROTO_QCA, TP_DSA_POS_AFTER_SA,
		     QCA_LEN, QCA_LEN, 8, 7, 1, 0, qca_rx, qca_sw, qca_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_qca)
