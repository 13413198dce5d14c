/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "brcm-prepend": the Broadcom 4-byte tag in front of the DA
 * (net/dsa/tag_brcm.c, doc §3-§5.2).  [T0 T1 T2 T3] DA SA EtherType ...
 */
#include "tag_brcm.h"

static __rte_always_inline int
brcmp_rx(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	return brcm_rx_tag(t, md);
}

static __rte_always_inline int
brcmp_sw(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	return brcm_sw_tag(t, md);
}

static __rte_always_inline int
brcmp_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	 const struct tp_dsa_conf *c)
{
	uint8_t *t;
	int r;

	(void)dev;
	(void)c;
	r = tag_tx_pad(m, BRCM_TX_PAD);
	if (r < 0)
		return r;
	t = tag_tx_before_da(m, BRCM_LEN);
	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_HEADROOM);
	brcm_tx_tag(t, port, prio);
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_brcm_prepend, "brcm-prepend", TP_DSA_PROTO_BRCM_PREPEND,
		     TP_DSA_POS_BEFORE_DA, BRCM_LEN, BRCM_LEN, 32, BRCM_PORTS, 1,
		     BRCM_TX_PAD, brcmp_rx, brcmp_sw, brcmp_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_brcm_prepend)
