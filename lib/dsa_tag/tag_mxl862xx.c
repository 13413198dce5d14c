/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "mxl862xx": MaxLinear MxL862xx 8-byte tag after the SA
 * (net/dsa/tag_mxl862xx.c, docs/ref/dsa-tags.md §3.24; proto id 32
 * provisional).
 *   RX  W0 0x88C3; W3 3:0 source port.
 *   TX  88 C3, W1 = 0, W2 4:0 = port + 16 - cpu_port (sub-interface),
 *       W3 3:0 = cpu_port. Needs TP_DSA_CONF_F_CPU_PORT.
 */
#include "tag_impl.h"

#define MXL_LEN 8
#define MXL_ETYPE 0x88C3

TAG_DECODER(mxl862xx_rx)
{
	if (tag_rd16(t) != MXL_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	md->port = t[7] & 0x0F;
	return MXL_LEN;
}

TAG_DECODER(mxl862xx_sw)
{
	int port;

	if (tag_rd16(t) != MXL_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	port = (t[5] & 0x1F) + (t[7] & 0x0F) - 16;
	if (port < 0)
		return TAG_ERR(TP_DSA_DROP_NO_PORT);
	md->port = (uint8_t)port;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return MXL_LEN;
}

TAG_ENCODER(mxl862xx_tx)
{
	unsigned int sub;
	uint8_t *t;
	int r;

	if (!(c->flags & TP_DSA_CONF_F_CPU_PORT) || c->cpu_port > 15)
		return TAG_ERR(TP_DSA_DROP_NO_CONFIG);
	sub = port + 16 - c->cpu_port;
	if (sub > 0x1F)
		return TAG_ERR(TP_DSA_DROP_PORT_RANGE);
	r = tag_tx_open(m, TP_DSA_POS_AFTER_SA, MXL_LEN, 0, &t);
	if (r < 0)
		return r;
	tag_wr16(t, MXL_ETYPE);
	tag_wr16(t + 2, 0);
	tag_wr16(t + 4, (uint16_t)sub);
	tag_wr16(t + 6, c->cpu_port);
	return 0;
}

TP_DSA_TAGGER_DEFINE_FLAGS(tp_tagger_mxl862xx, "mxl862xx", TP_DSA_PROTO_MXL862,
			   TP_DSA_POS_AFTER_SA, MXL_LEN, MXL_LEN, 16, 16, 1, 0,
			   TP_DSA_TAGGER_F_TX_CPU_PORT, mxl862xx_rx, mxl862xx_sw,
			   mxl862xx_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_mxl862xx)
