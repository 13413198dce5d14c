/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "vsc73xx-8021q": tag_8021q VLAN header with TPID 0x8100 after the SA
 * (net/dsa/tag_vsc73xx_8021q.c + tag_8021q.c; docs/ref/dsa-tags.md §1.3,
 * §3.17). Layout and RX rules in tag_8021q.h.
 *   TX  81 00, PCP << 13 | standalone VID (0xC00 | switch << 6 | port).
 *       (Bridge VIDs and register-injected PTP/link-local frames: not covered.)
 */
#include "tag_8021q.h"

static __rte_always_inline int
vsc73xx_8021q_rx(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	if (tag_rd16(t) != Q8021_TPID)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	return q8021_dec(t, md, c);
}

static __rte_always_inline int
vsc73xx_8021q_sw(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	int r = vsc73xx_8021q_rx(t, avail, md, c);

	md->frame_type = TP_DSA_FT_FROM_CPU;
	return r;
}

static __rte_always_inline int
vsc73xx_8021q_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	  const struct tp_dsa_conf *c)
{
	(void)c;
	return q8021_tx(m, Q8021_TPID, port, dev, prio);
}

TP_DSA_TAGGER_DEFINE_PRE(tp_tagger_vsc73xx_8021q, "vsc73xx-8021q", TP_DSA_PROTO_VSC73XX_8021Q,
			 TP_DSA_POS_AFTER_SA, Q8021_LEN, Q8021_LEN, 16, 16, 8, 0,
			 vsc73xx_8021q_rx, vsc73xx_8021q_sw, vsc73xx_8021q_tx, tag_8021q_unhw);
TP_DSA_TAGGER_REGISTER(tp_tagger_vsc73xx_8021q)
