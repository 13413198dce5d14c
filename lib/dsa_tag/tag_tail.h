/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private: the 1- and 2-byte tail tags, taggers of one shape described by
 * one row each (struct tag_tail_fmt): Microchip's KSZ family (tag_ksz.c,
 * docs/ref/dsa-tags.md §3.7), hellcreek (§3.8) and xrs700x (§3.9). t points
 * one past the frame's last byte (the tag is just before the FCS).
 *   RX  the last byte names the source port in its low bits (rx_port_mask),
 *       or is a one-hot port map (rx_map, with the forward mark always
 *       set); with rx_ts, its bit 7 says a 4-byte receive timestamp sits
 *       just before it (removed with it, value not kept).
 *   TX  tx_len bytes appended, big-endian: valid | override (DA link-local
 *       01:80:C2:00:00:0x) | (priority & prio_mask) << prio_shift | BIT(port).
 *   The switch-side decode reads the TX bytes back: valid must be set
 *   (else bad_marker), the lowest set bit of (bytes & sw_map_mask) is the
 *   port, the priority field gives prio.
 * Each row is a static const the burst loop inlines with its fields as
 * constants (TAG_TAIL_TAGGER): no field is read per packet.
 */
#ifndef TP_DSA_TAG_TAIL_H
#define TP_DSA_TAG_TAIL_H

#include <stdbool.h>

#include "tag_impl.h"

#define TAIL_TS_LEN 4

struct tag_tail_fmt {
	uint8_t tx_len;         /* bytes appended on TX (1 or 2) */
	uint8_t rx_port_mask;   /* RX: port = last byte & mask */
	bool rx_map;            /* RX: the last byte is a port map instead */
	bool rx_ts;             /* RX: bit 7 of the last byte = timestamp before it */
	uint16_t sw_map_mask;   /* TX bits that are the destination port map */
	uint16_t valid;         /* TX: a bit always set (0: none) */
	uint16_t override;      /* TX: the bit for a link-local DA (0: none) */
	uint8_t prio_shift;     /* TX: where the priority goes */
	uint8_t prio_mask;      /* its width as a mask (0: no priority field) */
};

static __rte_always_inline int
tail_rx(const uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tag_tail_fmt *f)
{
	uint8_t b = t[-1];

	if (f->rx_map) {
		int port = tag_map_port(b);

		if (port < 0)
			return port;
		md->port = (uint8_t)port;
		md->frame_type = TP_DSA_FT_FORWARD;
		return 1;
	}
	md->port = b & f->rx_port_mask;
	if (f->rx_ts && (b & 0x80)) {
		if (avail < 1 + TAIL_TS_LEN)
			return TAG_ERR(TP_DSA_DROP_SEGMENTED);
		return 1 + TAIL_TS_LEN;
	}
	return 1;
}

static __rte_always_inline int
tail_sw(const uint8_t *t, struct tp_dsa_meta *md, const struct tag_tail_fmt *f)
{
	uint16_t w = f->tx_len == 2 ? tag_rd16(t - 2) : t[-1];
	int r;

	if (f->valid != 0 && !(w & f->valid))
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	r = tag_sw_map(md, w & f->sw_map_mask, f->tx_len);
	if (r >= 0 && f->prio_mask != 0)
		md->prio = (uint8_t)((w >> f->prio_shift) & f->prio_mask);
	return r;
}

static __rte_always_inline int
tail_tx(struct rte_mbuf *m, unsigned int port, unsigned int prio, const struct tag_tail_fmt *f)
{
	uint16_t w = (uint16_t)(f->valid | (prio & f->prio_mask) << f->prio_shift | 1u << port);
	uint8_t *t;
	int r;

	if (f->override != 0 && m->data_len >= 6 &&
	    tag_da_link_local(rte_pktmbuf_mtod(m, const uint8_t *)))
		w |= f->override;
	r = tag_tx_open(m, TP_DSA_POS_TAIL, f->tx_len, 0, &t);
	if (r < 0)
		return r;
	if (f->tx_len == 2)
		tag_wr16(t, w);
	else
		t[0] = (uint8_t)w;
	return 0;
}

/* One tail tagger from its row fmt: NAME, PROTO, the ports its RX and TX
 * tags can name, and TXLEN = fmt.tx_len (a constant for the ops table). */
#define TAG_TAIL_TAGGER(var, NAME, PROTO, RXP, TXP, TXLEN, fmt)                 \
	TAG_DECODER(var##_rx) { return tail_rx(t, avail, md, &(fmt)); }         \
	TAG_DECODER(var##_sw) { return tail_sw(t, md, &(fmt)); }                \
	TAG_ENCODER(var##_tx) { return tail_tx(m, port, prio, &(fmt)); }       \
	TP_DSA_TAGGER_DEFINE(tp_tagger_##var, NAME, PROTO, TP_DSA_POS_TAIL, 1,    \
			     TXLEN, RXP, TXP, 1, 0, var##_rx, var##_sw, var##_tx);  \
	TP_DSA_TAGGER_REGISTER(tp_tagger_##var)

#endif /* TP_DSA_TAG_TAIL_H */
