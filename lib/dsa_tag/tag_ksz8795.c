/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "ksz8795": 1-byte tail tag (net/dsa/tag_ksz.c, docs/ref/dsa-tags.md §3.7).
 *   RX  last byte bits 1:0 = source port.
 *   TX  append BIT(port) | 0x40 (override) for a link-local DA.
 */
#include "tag_ksz.h"

static __rte_always_inline int
ksz8795_rx(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	md->port = end[-1] & 0x03;
	return 1;
}

static __rte_always_inline int
ksz8795_sw(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	int port = tag_map_port(end[-1] & 0x1F);

	(void)avail;
	(void)c;
	if (port < 0)
		return port;
	md->port = (uint8_t)port;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return 1;
}

static __rte_always_inline int
ksz8795_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	   const struct tp_dsa_conf *c)
{
	(void)dev;
	(void)prio;
	(void)c;
	return ksz_tx_append8(m, (uint8_t)(1u << port | (ksz_link_local(m) ? 0x40 : 0)));
}

TP_DSA_TAGGER_DEFINE(tp_tagger_ksz8795, "ksz8795", TP_DSA_PROTO_KSZ8795, TP_DSA_POS_TAIL,
		     1, 1, 4, 5, 1, 0, ksz8795_rx, ksz8795_sw, ksz8795_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_ksz8795)
