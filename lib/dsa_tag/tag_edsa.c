/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "edsa": 0xDADA + 2 reserved zero bytes + the Marvell tag, after the SA
 * (net/dsa/tag_dsa.c, docs/ref/dsa-tags.md §3.5, §4.4). Layout of the last
 * 4 bytes in
 * tag_marvell.h.
 *   RX  the 0xDADA / zero bytes are NOT checked (kernel); 8 bytes removed,
 *       or 4 when "tagged" is set (the rest becomes 81 00 TCI).
 *   TX  DA DA 00 00 + FROM_CPU tag; an 802.1Q frame gets only DA DA 00 00
 *       inserted and its 0x8100 converted in place.
 */
#include "tag_marvell.h"

TAG_DECODER(edsa_rx)
{
	return mv_rx(t + MV_EDSA_HDR, MV_EDSA_HDR, md, c);
}

TAG_DECODER(edsa_sw)
{
	/* The switch matches its programmed EtherType (mv88e6xxx: 0xDADA). */
	if (t[0] != 0xDA || t[1] != 0xDA || t[2] != 0 || t[3] != 0)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	return mv_sw(t + MV_EDSA_HDR, MV_EDSA_HDR, md);
}

TAG_ENCODER(edsa_tx)
{
	int tagged = mv_is_8021q(m);
	uint8_t *t;

	t = tag_tx_after_sa(m, tagged ? MV_EDSA_HDR : MV_EDSA_HDR + 4);
	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_HEADROOM);
	t[0] = 0xDA;
	t[1] = 0xDA;
	t[2] = 0;
	t[3] = 0;
	if (tagged)
		mv_tx_convert(t + MV_EDSA_HDR, port, dev);
	else
		mv_tx_untagged(t + MV_EDSA_HDR, port, dev, c->tx_vid);
	return 0;
}

/* RX: the Marvell fast path (tag_marvell.h), edsa_rx for the other frames. */
static __rte_always_inline uint16_t
edsa_rx_fast(struct rte_mbuf **pkts, uint16_t n, const struct tp_dsa_conf *c,
	     struct rte_mbuf **drops, uint8_t *reasons, struct tp_dsa_stats *st)
{
	return mv_rx_burst(pkts, n, c, drops, reasons, st, MV_EDSA_HDR, TP_DSA_PROTO_EDSA, edsa_rx);
}

/* RX with the VLAN strip fused in (tag_marvell.h). */
static uint16_t
edsa_rx_vlan_prefix(struct rte_mbuf **pkts, uint16_t n, const struct tp_dsa_conf *c,
		    const struct tp_vlan_conf *vc, struct tp_dsa_stats *st,
		    struct tp_vlan_stats *vst)
{
	return mv_rx_vlan_prefix(pkts, n, c, vc, st, vst, MV_EDSA_HDR, TP_DSA_PROTO_EDSA);
}

TP_DSA_TAGGER_DEFINE_FAST(tp_tagger_edsa, "edsa", TP_DSA_PROTO_EDSA, TP_DSA_POS_AFTER_SA,
			  8, 8, 32, 32, 32, 0, edsa_rx, edsa_sw, edsa_tx, edsa_rx_fast,
			  edsa_rx_vlan_prefix);
TP_DSA_TAGGER_REGISTER(tp_tagger_edsa)
