/* SPDX-License-Identifier: BSD-3-Clause */
/* "rtl8_4t": the rtl8_4 tag as the last 8 bytes of the frame (tag_rtl8_4.h). */
#include "tag_rtl8_4.h"

static __rte_always_inline int
rtl8_4t_rx(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	return rtl8_4_rx_tag(end - RTL8_4_LEN, md);
}

static __rte_always_inline int
rtl8_4t_sw(uint8_t *end, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	return rtl8_4_sw_tag(end - RTL8_4_LEN, md);
}

static __rte_always_inline int
rtl8_4t_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	   const struct tp_dsa_conf *c)
{
	uint8_t *t = tag_tx_tail(m, RTL8_4_LEN);

	(void)dev;
	(void)prio;
	(void)c;
	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_TAILROOM);
	rtl8_4_tx_tag(t, port);
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_rtl8_4t, "rtl8_4t", TP_DSA_PROTO_RTL8_4T, TP_DSA_POS_TAIL,
		     RTL8_4_LEN, RTL8_4_LEN, 16, 11, 1, 0, rtl8_4t_rx, rtl8_4t_sw, rtl8_4t_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_rtl8_4t)
