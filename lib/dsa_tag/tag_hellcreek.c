/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "hellcreek": 1-byte tail tag (net/dsa/tag_hellcreek.c,
 * docs/ref/dsa-tags.md §3.8).
 *   RX  last byte bits 1:0 = source port.   TX  append BIT(port).
 */
#include "tag_impl.h"

static __rte_always_inline int
hellcreek_rx(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	md->port = end[-1] & 0x03;
	return 1;
}

static __rte_always_inline int
hellcreek_sw(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	int port = tag_map_port(end[-1]);

	(void)avail;
	(void)c;
	if (port < 0)
		return port;
	md->port = (uint8_t)port;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return 1;
}

static __rte_always_inline int
hellcreek_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	     const struct tp_dsa_conf *c)
{
	uint8_t *t = tag_tx_tail(m, 1);

	(void)dev;
	(void)prio;
	(void)c;
	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_TAILROOM);
	t[0] = (uint8_t)(1u << port);
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_hellcreek, "hellcreek", TP_DSA_PROTO_HELLCREEK,
		     TP_DSA_POS_TAIL, 1, 1, 4, 8, 1, 0,
		     hellcreek_rx, hellcreek_sw, hellcreek_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_hellcreek)
