/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private: the Realtek 8-byte "rtl8_4" tag (net/dsa/tag_rtl8_4.c;
 * docs/ref/dsa-tags.md §3.20),
 * after the SA ("rtl8_4") or as the last 8 bytes ("rtl8_4t").
 *   W0 0x8899; W1 15:8 protocol (0x04), 7:0 reason (80 = trapped);
 *   W2 15 FID_EN, 13:12 FID, 11 PRI_EN, 10:8 PRI, 7 KEEP, 5 LEARN_DIS;
 *   W3 15 ALLOW, RX 3:0 source port / TX 10:0 destination port map.
 */
#ifndef TP_DSA_TAG_RTL8_4_H
#define TP_DSA_TAG_RTL8_4_H

#include "tag_impl.h"

#define RTL8_4_LEN 8
#define RTL8_4_ETYPE 0x8899
#define RTL8_4_PROTO 0x04
#define RTL8_4_REASON_TRAP 80

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
	r = tag_map_port(tag_rd16(t + 6) & 0x07FF);
	if (r < 0)
		return r;
	md->port = (uint8_t)r;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return RTL8_4_LEN;
}

static inline void
rtl8_4_tx_tag(uint8_t *t, unsigned int port)
{
	tag_wr16(t, RTL8_4_ETYPE);
	tag_wr16(t + 2, RTL8_4_PROTO << 8);
	tag_wr16(t + 4, 0x0020); /* LEARN_DIS */
	tag_wr16(t + 6, (uint16_t)((1u << port) & 0x07FF));
}

#endif /* TP_DSA_TAG_RTL8_4_H */
