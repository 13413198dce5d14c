/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private: Microchip KSZ tail tags (net/dsa/tag_ksz.c; docs/ref/dsa-tags.md §3.7).
 * RX: the last byte T names the source port; for ksz9477/ksz9893/lan937x,
 * T bit 7 says a 4-byte PTP receive timestamp sits just before T (removed,
 * value not kept). TX: 1 or 2 bytes appended (no PTP timestamp word).
 */
#ifndef TP_DSA_TAG_KSZ_H
#define TP_DSA_TAG_KSZ_H

#include "tag_impl.h"

#define KSZ_PTP_TS_LEN 4

/* RX with the optional timestamp (ksz9477 family): port = T & pmask. */
static __rte_always_inline int
ksz_rx_ts(const uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, uint8_t pmask)
{
	uint8_t t = end[-1];

	md->port = t & pmask;
	if (t & 0x80) {
		if (avail < 1 + KSZ_PTP_TS_LEN)
			return TAG_ERR(TP_DSA_DROP_SEGMENTED);
		return 1 + KSZ_PTP_TS_LEN;
	}
	return 1;
}

/* Is the frame's DA link-local (the "override" bit on TX)? */
static inline int
ksz_link_local(const struct rte_mbuf *m)
{
	return m->data_len >= 6 && tag_da_link_local(rte_pktmbuf_mtod(m, const uint8_t *));
}

static inline int
ksz_tx_append8(struct rte_mbuf *m, uint8_t v)
{
	uint8_t *t = tag_tx_tail(m, 1);

	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_TAILROOM);
	t[0] = v;
	return 0;
}

static inline int
ksz_tx_append16(struct rte_mbuf *m, uint16_t v)
{
	uint8_t *t = tag_tx_tail(m, 2);

	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_TAILROOM);
	tag_wr16(t, v);
	return 0;
}

#endif /* TP_DSA_TAG_KSZ_H */
