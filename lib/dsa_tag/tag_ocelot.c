/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "ocelot": Felix 20-byte tag before the DA, prefix 88 80 00 0A, DEST
 * field 12 bits at 56 (net/dsa/tag_ocelot.c; layout in tag_ocelot.h).
 * TX needs TP_DSA_CONF_F_CPU_PORT (SRC_PORT = CPU port number).
 */
#include "tag_ocelot.h"

#define OCELOT_PREFIX2 0x000A
#define OCELOT_DEST_LO 56
#define OCELOT_DEST_BITS 12

static __rte_always_inline int
ocelot_rx(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	return oc_rx(t, md, c);
}

static __rte_always_inline int
ocelot_sw(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	return oc_sw(t, md, OCELOT_PREFIX2, OCELOT_DEST_LO, OCELOT_DEST_BITS);
}

static __rte_always_inline int
ocelot_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	  const struct tp_dsa_conf *c)
{
	(void)dev;
	return oc_tx(m, port, prio, c, OCELOT_PREFIX2, OCELOT_DEST_LO);
}

TP_DSA_TAGGER_DEFINE_FLAGS(tp_tagger_ocelot, "ocelot", TP_DSA_PROTO_OCELOT,
			   TP_DSA_POS_BEFORE_DA, OCELOT_LEN, OCELOT_LEN, 16,
			   OCELOT_DEST_BITS, 1, 0, TP_DSA_TAGGER_F_TX_CPU_PORT,
			   ocelot_rx, ocelot_sw, ocelot_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_ocelot)
