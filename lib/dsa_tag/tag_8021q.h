/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private: tag_8021q, the VLAN-shaped tag of sja1105, sja1110, ocelot-8021q
 * and vsc73xx-8021q (net/dsa/tag_8021q.c; docs/ref/dsa-tags.md §1.3, §3.17,
 * §3.18).
 *
 *   TPID + TCI; TCI 15:13 PCP (traffic class), 11:0 VID:
 *   VID 11:10 = 0b11 (a tag_8021q VID), 9 VBID[2], 8:6 switch id,
 *   5:4 VBID[1:0], 3:0 port. Standalone VID = 0xC00 | switch << 6 | port.
 *
 * RX: a VID that is not a tag_8021q VID is left in the frame (passed, no
 * tag info: the kernel resolves it by bridge VLAN membership); a non-zero
 * VBID (bridge VID) needs bridge state and is dropped "bridge_vid".
 * A NIC may have stripped the tag into vlan_tci (RX_VLAN_STRIPPED); the
 * per-burst hook tag_8021q_unhw() puts such a tag (any VID) back in front
 * of the EtherType (12 MAC bytes move) so the one decode path sees it; a
 * user VLAN put back this way is then passed in the frame, for lib/vlan.
 */
#ifndef TP_DSA_TAG_8021Q_H
#define TP_DSA_TAG_8021Q_H

#include "tag_impl.h"

#define Q8021_LEN 4
#define Q8021_TPID 0x8100
#define Q8021_TPID_SJA 0xDADB  /* ETH_P_SJA1105 / ETH_P_DSA_8021Q */

static inline int
q8021_is_dsa_vid(uint16_t vid)
{
	return (vid & 0x0C00) == 0x0C00;
}

/* Decode the tag at t once its TPID was accepted. */
static __rte_always_inline int
q8021_dec(const uint8_t *t, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	uint16_t tci = tag_rd16(t + 2);
	uint16_t vid = tci & 0x0FFF;
	unsigned int vbid;

	if (!q8021_is_dsa_vid(vid))
		return TAG_PASS;
	vbid = (vid >> 7 & 4) | (vid >> 4 & 3); /* VBID[2] bit 9, VBID[1:0] bits 5:4 */
	if (vbid != 0) {
		/* A bridge VID: port and switch come from the bridge (§1.3). */
		if (!(c->flags & TP_DSA_CONF_F_VBID_MAP) || c->vbid_port[vbid] == 0xFF)
			return TAG_ERR(TP_DSA_DROP_BRIDGE_VID);
		md->port = c->vbid_port[vbid];
	} else {
		md->port = vid & 0x0F;
	}
	md->device = (vid >> 6) & 7;
	md->prio = tci >> 13;
	return Q8021_LEN;
}

static inline int
q8021_tx(struct rte_mbuf *m, uint16_t tpid, unsigned int port, unsigned int dev,
	 unsigned int prio)
{
	uint8_t *t = tag_tx_after_sa(m, Q8021_LEN);

	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_HEADROOM);
	tag_wr16(t, tpid);
	tag_wr16(t + 2, (uint16_t)((prio & 7) << 13 | 0x0C00 | (dev & 7) << 6 | (port & 0x0F)));
	return 0;
}

/* Put a NIC-stripped tag (vlan_tci) back into the frame. */
static __rte_always_inline void
tag_8021q_unhw(struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint8_t *t;

		if (!(m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED) ||
		    (m->ol_flags & RTE_MBUF_F_RX_QINQ_STRIPPED) ||
		    m->data_len < TAG_MACS || rte_pktmbuf_headroom(m) < Q8021_LEN)
			continue;
		t = tag_tx_after_sa(m, Q8021_LEN);
		tag_wr16(t, Q8021_TPID);
		tag_wr16(t + 2, m->vlan_tci);
		m->vlan_tci = 0;
		m->ol_flags &= ~(RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED);
	}
}

#endif /* TP_DSA_TAG_8021Q_H */
