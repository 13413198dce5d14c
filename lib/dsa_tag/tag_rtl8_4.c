/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "rtl8_4" and "rtl8_4t": the Realtek 8-byte tag (net/dsa/tag_rtl8_4.c,
 * docs/ref/dsa-tags.md §3.20), after the SA ("rtl8_4") or as the last 8
 * bytes of the frame ("rtl8_4t"); one row each below gives the position.
 *   W0 0x8899; W1 15:8 protocol (0x04), 7:0 reason (80 = trapped);
 *   W2 15 FID_EN, 13:12 FID, 11 PRI_EN, 10:8 PRI, 7 KEEP, 5 LEARN_DIS;
 *   W3 15 ALLOW, RX 3:0 source port / TX 10:0 destination port map.
 *   TX  88 99, 04 00, 00 20 (LEARN_DIS), BIT(port).
 */
#include "tag_impl.h"

#define RTL8_4_LEN 8
#define RTL8_4_ETYPE 0x8899
#define RTL8_4_PROTO 0x04
#define RTL8_4_REASON_TRAP 80

/* The tag's first byte: t itself, or for a tail tag RTL8_4_LEN before the
 * end t points to. */
static __rte_always_inline const uint8_t *
rtl8_4_at(const uint8_t *t, enum tp_dsa_position pos)
{
	return pos == TP_DSA_POS_TAIL ? t - RTL8_4_LEN : t;
}

static __rte_always_inline int
rtl8_4_check(const uint8_t *t)
{
	if (tag_rd16(t) != RTL8_4_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	if (t[2] != RTL8_4_PROTO)
		return TAG_ERR(TP_DSA_DROP_BAD_VERSION);
	return 0;
}

static __rte_always_inline int
rtl8_4_rx_tag(const uint8_t *t, struct tp_dsa_meta *md)
{
	uint16_t w2 = tag_rd16(t + 4);
	int r = rtl8_4_check(t);

	if (r < 0)
		return r;
	md->port = t[7] & 0x0F;
	md->prio = (w2 & 0x0800) ? (w2 >> 8) & 7 : 0;
	md->frame_type = t[3] == RTL8_4_REASON_TRAP ? TP_DSA_FT_TO_CPU : TP_DSA_FT_FORWARD;
	return RTL8_4_LEN;
}

static __rte_always_inline int
rtl8_4_sw_tag(const uint8_t *t, struct tp_dsa_meta *md)
{
	int r = rtl8_4_check(t);

	if (r < 0)
		return r;
	return tag_sw_map(md, tag_rd16(t + 6) & 0x07FF, RTL8_4_LEN);
}

static __rte_always_inline int
rtl8_4_tx_at(struct rte_mbuf *m, unsigned int port, enum tp_dsa_position pos)
{
	uint8_t *t;
	int r = tag_tx_open(m, pos, RTL8_4_LEN, 0, &t);

	if (r < 0)
		return r;
	tag_wr16(t, RTL8_4_ETYPE);
	tag_wr16(t + 2, RTL8_4_PROTO << 8);
	tag_wr16(t + 4, 0x0020); /* LEARN_DIS */
	tag_wr16(t + 6, (uint16_t)((1u << port) & 0x07FF));
	return 0;
}

#define RTL8_4_TAGGER(var, NAME, PROTO, POS)                                     \
	TAG_DECODER(var##_rx) { return rtl8_4_rx_tag(rtl8_4_at(t, POS), md); }     \
	TAG_DECODER(var##_sw) { return rtl8_4_sw_tag(rtl8_4_at(t, POS), md); }     \
	TAG_ENCODER(var##_tx) { return rtl8_4_tx_at(m, port, POS); }             \
	TP_DSA_TAGGER_DEFINE(tp_tagger_##var, NAME, PROTO, POS, RTL8_4_LEN,        \
			     RTL8_4_LEN, 16, 11, 1, 0, var##_rx, var##_sw, var##_tx); \
	TP_DSA_TAGGER_REGISTER(tp_tagger_##var)

/*            var      name       proto                 position */
RTL8_4_TAGGER(rtl8_4,  "rtl8_4",  TP_DSA_PROTO_RTL8_4,  TP_DSA_POS_AFTER_SA)
RTL8_4_TAGGER(rtl8_4t, "rtl8_4t", TP_DSA_PROTO_RTL8_4T, TP_DSA_POS_TAIL)
