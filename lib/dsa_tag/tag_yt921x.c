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

static __rte_always_inline int
yt921x_rx(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	uint16_t w2 = tag_rd16(t + 4);
	unsigned int code = (w2 >> 1) & 0x3F;

	(void)avail;
	(void)c;
	if (tag_rd16(t) != YT_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	if (!(w2 & 0x8000))
		return TAG_ERR(TP_DSA_DROP_NO_PORT);
	md->port = (w2 >> 11) & 0x0F;
	md->prio = (w2 >> 8) & 7;
	md->frame_type = (code == 0 || code == 0x1B || code == 0x1C) ?
			 TP_DSA_FT_FORWARD : TP_DSA_FT_TO_CPU;
	return YT_LEN;
}

static __rte_always_inline int
yt921x_sw(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	uint16_t w3 = tag_rd16(t + 6);
	int port;

	(void)avail;
	(void)c;
	if (tag_rd16(t) != YT_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	if (!(w3 & 0x8000))
		return TAG_ERR(TP_DSA_DROP_NO_PORT);
	port = tag_map_port(w3 & 0x07FF);
	if (port < 0)
		return port;
	md->port = (uint8_t)port;
	md->prio = t[4] & 7;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return YT_LEN;
}

static __rte_always_inline int
yt921x_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	  const struct tp_dsa_conf *c)
{
	uint8_t *t = tag_tx_after_sa(m, YT_LEN);

	(void)dev;
	(void)c;
	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_HEADROOM);
	tag_wr16(t, YT_ETYPE);
	tag_wr16(t + 2, 0);
	tag_wr16(t + 4, (uint16_t)(0x0080 | (prio & 7) << 8));
	tag_wr16(t + 6, (uint16_t)(0x8000 | 1u << port));
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_yt921x, "yt921x", TP_DSA_PROTO_YT921X, TP_DSA_POS_AFTER_SA,
		     YT_LEN, YT_LEN, 16, 11, 1, 0, yt921x_rx, yt921x_sw, yt921x_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_yt921x)
