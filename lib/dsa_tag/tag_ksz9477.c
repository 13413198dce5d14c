/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "ksz9477": tail tag (net/dsa/tag_ksz.c, docs/ref/dsa-tags.md §3.7).
 *   RX  last byte: 2:0 source port; bit 7: 4-byte timestamp before it.
 *   TX  append 2 bytes big-endian: bit 9 override (link-local DA),
 *       8:7 priority, 6:0 BIT(port).
 */
#include "tag_ksz.h"

static __rte_always_inline int
ksz9477_rx(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)c;
	return ksz_rx_ts(end, avail, md, 0x07);
}

static __rte_always_inline int
ksz9477_sw(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	uint16_t w = tag_rd16(end - 2);
	int port = tag_map_port(w & 0x7F);

	(void)avail;
	(void)c;
	if (port < 0)
		return port;
	md->port = (uint8_t)port;
	md->prio = (w >> 7) & 3;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return 2;
}

static __rte_always_inline int
ksz9477_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	   const struct tp_dsa_conf *c)
{
	(void)dev;
	(void)c;
	return ksz_tx_append16(m, (uint16_t)((ksz_link_local(m) ? 1u << 9 : 0) |
					    (prio & 3) << 7 | 1u << port));
}

TP_DSA_TAGGER_DEFINE(tp_tagger_ksz9477, "ksz9477", TP_DSA_PROTO_KSZ9477, TP_DSA_POS_TAIL,
		     1, 2, 8, 7, 1, 0, ksz9477_rx, ksz9477_sw, ksz9477_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_ksz9477)
