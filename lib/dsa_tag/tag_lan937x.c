/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "lan937x": tail tag (net/dsa/tag_ksz.c, docs/ref/dsa-tags.md §3.7).
 *   RX  as ksz9477: last byte 2:0 source port, bit 7 timestamp present.
 *   TX  append 2 bytes big-endian: bit 13 valid (1), bit 11 override
 *       (link-local DA), 10:8 priority, 7:0 BIT(port).
 */
#include "tag_ksz.h"

#define LAN937X_VALID 0x2000

static __rte_always_inline int
lan937x_rx(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)c;
	return ksz_rx_ts(end, avail, md, 0x07);
}

static __rte_always_inline int
lan937x_sw(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	uint16_t w = tag_rd16(end - 2);
	int port;

	(void)avail;
	(void)c;
	if (!(w & LAN937X_VALID))
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	port = tag_map_port(w & 0xFF);
	if (port < 0)
		return port;
	md->port = (uint8_t)port;
	md->prio = (w >> 8) & 7;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return 2;
}

static __rte_always_inline int
lan937x_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	   const struct tp_dsa_conf *c)
{
	(void)dev;
	(void)c;
	return ksz_tx_append16(m, (uint16_t)(LAN937X_VALID |
					    (ksz_link_local(m) ? 1u << 11 : 0) |
					    (prio & 7) << 8 | 1u << port));
}

TP_DSA_TAGGER_DEFINE(tp_tagger_lan937x, "lan937x", TP_DSA_PROTO_LAN937X, TP_DSA_POS_TAIL,
		     1, 2, 8, 8, 1, 0, lan937x_rx, lan937x_sw, lan937x_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_lan937x)
