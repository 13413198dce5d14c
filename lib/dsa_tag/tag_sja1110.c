/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "sja1110": NXP tag_8021q data frames after the SA (net/dsa/tag_sja1105.c +
 * tag_8021q.c; docs/ref/dsa-tags.md §1.3, §3.18). Layout in tag_8021q.h.
 *   RX  TPID 0xDADB or 0x8100 (or conf->tpid_8021q); 0xDADC control frames
 *       (metadata, trailers, PTP) are dropped "unsupported".
 *   TX  conf->tpid_8021q (default 0xDADB, VLAN-unaware ports), TCI =
 *       PCP << 13 | standalone VID.
 */
#include "tag_8021q.h"

static __rte_always_inline uint16_t
sja1110_tpid(const struct tp_dsa_conf *c)
{
	return c->tpid_8021q != 0 ? c->tpid_8021q : Q8021_TPID_SJA;
}

static __rte_always_inline int
sja1110_rx(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	uint16_t tpid = tag_rd16(t);

	(void)avail;
	/* Control extension frames (0xDADC, §3.18): not covered. */
	if (tpid == 0xDADC)
		return TAG_ERR(TP_DSA_DROP_UNSUPPORTED);
	if (tpid != Q8021_TPID_SJA && tpid != Q8021_TPID &&
	    (c->tpid_8021q == 0 || tpid != c->tpid_8021q))
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	return q8021_dec(t, md, c);
}

static __rte_always_inline int
sja1110_sw(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	int r;

	(void)avail;
	if (tag_rd16(t) != sja1110_tpid(c))
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	r = q8021_dec(t, md, c);
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return r;
}

static __rte_always_inline int
sja1110_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	  const struct tp_dsa_conf *c)
{
	return q8021_tx(m, sja1110_tpid(c), port, dev, prio);
}

TP_DSA_TAGGER_DEFINE_PRE(tp_tagger_sja1110, "sja1110", TP_DSA_PROTO_SJA1110,
			 TP_DSA_POS_AFTER_SA, Q8021_LEN, Q8021_LEN, 16, 16, 8, 0,
			 sja1110_rx, sja1110_sw, sja1110_tx, tag_8021q_unhw);
TP_DSA_TAGGER_REGISTER(tp_tagger_sja1110)
