/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tag_8021q taggers: a VLAN header after the SA whose VID names the
 * source switch and port (net/dsa/tag_8021q.c; docs/ref/dsa-tags.md §1.3),
 * sja1105 and sja1110 (net/dsa/tag_sja1105.c, §3.18), ocelot-8021q
 * (net/dsa/tag_ocelot_8021q.c) and vsc73xx-8021q (net/dsa/tag_vsc73xx_8021q.c,
 * §3.17). One row each below; they differ only in their TPIDs.
 *
 *   TPID + TCI; TCI 15:13 PCP (traffic class), 11:0 VID:
 *   VID 11:10 = 0b11 (a tag_8021q VID), 9 VBID[2], 8:6 switch id,
 *   5:4 VBID[1:0], 3:0 port. Standalone VID = 0xC00 | switch << 6 | port.
 *
 * RX: a VID that is not a tag_8021q VID is left in the frame (passed, no
 * tag info: the kernel resolves it by bridge VLAN membership); a non-zero
 * VBID (bridge VID) needs bridge state: conf->vbid_port, else dropped
 * "bridge_vid". A NIC may have stripped the tag into vlan_tci
 * (RX_VLAN_STRIPPED); the per-burst hook puts such a tag (any VID) back in
 * front of the EtherType so the one decode path sees it; a user VLAN put
 * back this way is then passed in the frame, for lib/vlan.
 *   ocelot-8021q, vsc73xx-8021q: TPID 0x8100 both ways.
 *   sja1105, sja1110: RX takes 0xDADB, 0x8100 or conf->tpid_8021q; TX and
 *   the switch side use conf->tpid_8021q (default 0xDADB, VLAN-unaware
 *   ports). Link-local meta-frame pairing (sja1105) is not covered;
 *   sja1110's 0xDADC control frames are dropped "unsupported".
 *   TX: PCP << 13 | standalone VID. (Bridge VIDs and register-injected
 *   PTP/link-local frames: not covered.)
 */
#include "tag_impl.h"

#define Q8021_LEN 4
#define Q8021_TPID 0x8100
#define Q8021_TPID_SJA 0xDADB  /* ETH_P_SJA1105 / ETH_P_DSA_8021Q */
#define Q8021_TPID_CTL 0xDADC  /* ETH_P_SJA1110: sja1110 control frames */

static inline int
q8021_is_dsa_vid(uint16_t vid)
{
	return (vid & 0x0C00) == 0x0C00;
}

/* The TPID the CPU sends: 0x8100, or sja's configurable one. */
static __rte_always_inline uint16_t
q8021_tx_tpid(const struct tp_dsa_conf *c, int sja)
{
	if (!sja)
		return Q8021_TPID;
	return c->tpid_8021q != 0 ? c->tpid_8021q : Q8021_TPID_SJA;
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

static __rte_always_inline int
q8021_rx(const uint8_t *t, struct tp_dsa_meta *md, const struct tp_dsa_conf *c, int sja,
	 int ctl)
{
	uint16_t tpid = tag_rd16(t);

	if (ctl && tpid == Q8021_TPID_CTL)
		return TAG_ERR(TP_DSA_DROP_UNSUPPORTED);
	if (tpid != Q8021_TPID &&
	    (!sja || (tpid != Q8021_TPID_SJA && (c->tpid_8021q == 0 || tpid != c->tpid_8021q))))
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	return q8021_dec(t, md, c);
}

static __rte_always_inline int
q8021_sw(const uint8_t *t, struct tp_dsa_meta *md, const struct tp_dsa_conf *c, int sja)
{
	int r;

	if (tag_rd16(t) != q8021_tx_tpid(c, sja))
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	r = q8021_dec(t, md, c);
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return r;
}

static __rte_always_inline int
q8021_tx(struct rte_mbuf *m, uint16_t tpid, unsigned int port, unsigned int dev,
	 unsigned int prio)
{
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_AFTER_SA, Q8021_LEN, 0, &t);

	if (r < 0)
		return r;
	tag_wr16(t, tpid);
	tag_wr16(t + 2, (uint16_t)((prio & 7) << 13 | 0x0C00 | (dev & 7) << 6 | (port & 0x0F)));
	return 0;
}

/* Put a NIC-stripped tag (vlan_tci) back into the frame. */
static __rte_always_inline void
q8021_unhw(struct rte_mbuf **pkts, uint16_t n)
{
	tag_vlan_unhw(pkts, n, Q8021_TPID);
}

/* One tag_8021q tagger: SJA = the sja TPIDs, CTL = drop 0xDADC frames. */
#define Q8021_TAGGER(var, NAME, PROTO, SJA, CTL)                                 \
	TAG_DECODER(var##_rx) { return q8021_rx(t, md, c, SJA, CTL); }           \
	TAG_DECODER(var##_sw) { return q8021_sw(t, md, c, SJA); }                \
	TAG_ENCODER(var##_tx)                                                    \
	{                                                                        \
		return q8021_tx(m, q8021_tx_tpid(c, SJA), port, dev, prio);      \
	}                                                                        \
	TP_DSA_TAGGER_DEFINE_PRE(tp_tagger_##var, NAME, PROTO, TP_DSA_POS_AFTER_SA, \
				 Q8021_LEN, Q8021_LEN, 16, 16, 8, 0, var##_rx,     \
				 var##_sw, var##_tx, q8021_unhw);                \
	TP_DSA_TAGGER_REGISTER(tp_tagger_##var)

/*           var            name             proto                       SJA CTL */
Q8021_TAGGER(sja1105,       "sja1105",       TP_DSA_PROTO_SJA1105,       1,  0)
Q8021_TAGGER(sja1110,       "sja1110",       TP_DSA_PROTO_SJA1110,       1,  1)
Q8021_TAGGER(ocelot_8021q,  "ocelot-8021q",  TP_DSA_PROTO_OCELOT_8021Q,  0,  0)
Q8021_TAGGER(vsc73xx_8021q, "vsc73xx-8021q", TP_DSA_PROTO_VSC73XX_8021Q, 0,  0)
