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

static __rte_always_inline int
a5psw_rx(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	if (tag_rd16(t) != A5PSW_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	md->port = t[3] & 0x0F;
	return A5PSW_LEN;
}

static __rte_always_inline int
a5psw_sw(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	int port;

	(void)avail;
	(void)c;
	if (tag_rd16(t) != A5PSW_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	port = tag_map_port(t[7] & 0x0F);
	if (port < 0)
		return port;
	md->port = (uint8_t)port;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return A5PSW_LEN;
}

static __rte_always_inline int
a5psw_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	 const struct tp_dsa_conf *c)
{
	uint8_t *t;
	int r;

	(void)dev;
	(void)prio;
	(void)c;
	r = tag_tx_pad(m, A5PSW_TX_PAD);
	if (r < 0)
		return r;
	t = tag_tx_after_sa(m, A5PSW_LEN);
	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_HEADROOM);
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
