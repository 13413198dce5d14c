/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "brcm-prepend": the Broadcom 4-byte tag in front of the DA
 * (net/dsa/tag_brcm.c, docs/ref/dsa-tags.md §3.2).
 *   [T0 T1 T2 T3] DA SA EtherType ...
 */
#include "tag_brcm.h"

static __rte_always_inline int
brcmp_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	 const struct tp_dsa_conf *c)
{
	(void)dev;
	(void)c;
	return brcm_tx_placed(m, port, prio, 1);
}

TP_DSA_TAGGER_DEFINE(tp_tagger_brcm_prepend, "brcm-prepend", TP_DSA_PROTO_BRCM_PREPEND,
		     TP_DSA_POS_BEFORE_DA, BRCM_LEN, BRCM_LEN, 32, BRCM_PORTS, 1,
		     BRCM_TX_PAD, brcm_rx, brcm_sw, brcmp_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_brcm_prepend)
