/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "brcm": Broadcom 4-byte tag after the SA (net/dsa/tag_brcm.c,
 * docs/ref/dsa-tags.md §3.2).
 *   DA SA [T0 T1 T2 T3] EtherType ...  (layout in tag_brcm.h)
 */
#include "tag_brcm.h"

static __rte_always_inline int
brcm_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	const struct tp_dsa_conf *c)
{
	(void)dev;
	(void)c;
	return brcm_tx_placed(m, port, prio, 0);
}

TP_DSA_TAGGER_DEFINE(tp_tagger_brcm, "brcm", TP_DSA_PROTO_BRCM, TP_DSA_POS_AFTER_SA,
		     BRCM_LEN, BRCM_LEN, 32, BRCM_PORTS, 1, BRCM_TX_PAD,
		     brcm_rx, brcm_sw, brcm_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_brcm)
