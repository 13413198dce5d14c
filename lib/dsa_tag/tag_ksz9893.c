/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "ksz9893": tail tag (net/dsa/tag_ksz.c, docs/ref/dsa-tags.md §3.7).
 *   RX  as ksz9477: last byte 2:0 source port, bit 7 timestamp present.
 *   TX  append 1 byte: bit 5 override (link-local DA), 4:3 priority,
 *       2:0 BIT(port).
 */
#include "tag_ksz.h"

static __rte_always_inline int
ksz9893_rx(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)c;
	return ksz_rx_ts(end, avail, md, 0x07);
}

static __rte_always_inline int
ksz9893_sw(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	uint8_t t = end[-1];
	int port = tag_map_port(t & 0x07);

	(void)avail;
	(void)c;
	if (port < 0)
		return port;
	md->port = (uint8_t)port;
	md->prio = (t >> 3) & 3;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return 1;
}

static __rte_always_inline int
ksz9893_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	   const struct tp_dsa_conf *c)
{
	(void)dev;
	(void)c;
	return ksz_tx_append8(m, (uint8_t)((ksz_link_local(m) ? 1u << 5 : 0) |
					  (prio & 3) << 3 | 1u << port));
}

TP_DSA_TAGGER_DEFINE(tp_tagger_ksz9893, "ksz9893", TP_DSA_PROTO_KSZ9893, TP_DSA_POS_TAIL,
		     1, 1, 8, 3, 1, 0, ksz9893_rx, ksz9893_sw, ksz9893_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_ksz9893)
