/* SPDX-License-Identifier: BSD-3-Clause */
/* "rtl8_4": Realtek 8-byte tag after the SA (layout in tag_rtl8_4.h). */
#include "tag_rtl8_4.h"

static __rte_always_inline int
rtl8_4_rx(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	return rtl8_4_rx_tag(t, md);
}

static __rte_always_inline int
rtl8_4_sw(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	return rtl8_4_sw_tag(t, md);
}

static __rte_always_inline int
rtl8_4_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	  const struct tp_dsa_conf *c)
{
	uint8_t *t = tag_tx_after_sa(m, RTL8_4_LEN);

	(void)dev;
	(void)prio;
	(void)c;
	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_HEADROOM);
	rtl8_4_tx_tag(t, port);
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_rtl8_4, "rtl8_4", TP_DSA_PROTO_RTL8_4, TP_DSA_POS_AFTER_SA,
		     RTL8_4_LEN, RTL8_4_LEN, 16, 11, 1, 0, rtl8_4_rx, rtl8_4_sw, rtl8_4_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_rtl8_4)
