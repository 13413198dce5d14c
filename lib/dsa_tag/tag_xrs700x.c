/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "xrs700x": 1-byte tail tag, a one-hot port map (net/dsa/tag_xrs700x.c,
 * docs/ref/dsa-tags.md §3.9).
 *   RX  port = lowest set bit; a zero byte is dropped.  TX  append BIT(port).
 */
#include "tag_impl.h"

static __rte_always_inline int
xrs700x_dec(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	int port = tag_map_port(end[-1]);

	(void)avail;
	(void)c;
	if (port < 0)
		return port;
	md->port = (uint8_t)port;
	md->frame_type = TP_DSA_FT_FORWARD; /* fwd mark always set (§3.9) */
	return 1;
}

static __rte_always_inline int
xrs700x_sw(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	int r = xrs700x_dec(end, avail, md, c);

	md->frame_type = TP_DSA_FT_FROM_CPU;
	return r;
}

static __rte_always_inline int
xrs700x_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	   const struct tp_dsa_conf *c)
{
	uint8_t *t = tag_tx_tail(m, 1);

	(void)dev;
	(void)prio;
	(void)c;
	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_TAILROOM);
	t[0] = (uint8_t)(1u << port);
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_xrs700x, "xrs700x", TP_DSA_PROTO_XRS700X, TP_DSA_POS_TAIL,
		     1, 1, 8, 8, 1, 0, xrs700x_dec, xrs700x_sw, xrs700x_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_xrs700x)
