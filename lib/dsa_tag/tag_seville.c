/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "seville": Felix 20-byte tag before the DA, prefix 88 80 00 05, DEST
 * field 11 bits at 57 (net/dsa/tag_ocelot.c; layout in tag_ocelot.h).
 * TX needs TP_DSA_CONF_F_CPU_PORT (SRC_PORT = CPU port number).
 */
#include "tag_ocelot.h"

#define SEVILLE_PREFIX2 0x0005
#define SEVILLE_DEST_LO 57
#define SEVILLE_DEST_BITS 11

static __rte_always_inline int
seville_rx(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	return oc_rx(t, md, c);
}

static __rte_always_inline int
seville_sw(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	return oc_sw(t, md, SEVILLE_PREFIX2, SEVILLE_DEST_LO, SEVILLE_DEST_BITS);
}

static __rte_always_inline int
seville_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	  const struct tp_dsa_conf *c)
{
	(void)dev;
	return oc_tx(m, port, prio, c, SEVILLE_PREFIX2, SEVILLE_DEST_LO);
}

TP_DSA_TAGGER_DEFINE_FLAGS(tp_tagger_seville, "seville", TP_DSA_PROTO_SEVILLE,
			   TP_DSA_POS_BEFORE_DA, OCELOT_LEN, OCELOT_LEN, 16,
			   SEVILLE_DEST_BITS, 1, 0, TP_DSA_TAGGER_F_TX_CPU_PORT,
			   seville_rx, seville_sw, seville_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_seville)
