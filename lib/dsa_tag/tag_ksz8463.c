/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "ksz8463": 1-byte tail tag (net/dsa/tag_ksz.c from a 2026 patch; proto id
 * 34 provisional, docs/ref/dsa-tags.md §2, §3.7).
 *   RX  last byte 2:0 source port (no tail timestamp).
 *   TX  append (priority & 3) << 3 | BIT(port).
 */
#include "tag_ksz.h"

static __rte_always_inline int
ksz8463_rx(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	md->port = end[-1] & 0x07;
	return 1;
}

static __rte_always_inline int
ksz8463_sw(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
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
ksz8463_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	   const struct tp_dsa_conf *c)
{
	(void)dev;
	(void)c;
	return ksz_tx_append8(m, (uint8_t)((prio & 3) << 3 | 1u << port));
}

TP_DSA_TAGGER_DEFINE(tp_tagger_ksz8463, "ksz8463", TP_DSA_PROTO_KSZ8463, TP_DSA_POS_TAIL,
		     1, 1, 8, 3, 1, 0, ksz8463_rx, ksz8463_sw, ksz8463_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_ksz8463)
