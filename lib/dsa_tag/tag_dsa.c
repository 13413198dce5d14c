/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "dsa": Marvell 4-byte tag in the EtherType slot (net/dsa/tag_dsa.c,
 * docs/ref/dsa-tags.md §3.4, §4.3). Layout in tag_marvell.h.
 *   RX  DA SA [T0 T1 T2 T3] EtherType ...  -> tag removed, or rewritten to
 *       81 00 TCI when "tagged" is set (no bytes removed then).
 *   TX  FROM_CPU, device, port, VID conf->tx_vid; an 802.1Q frame is
 *       converted in place (0x8100 overwritten, nothing inserted).
 */
#include "tag_marvell.h"

TAG_DECODER(dsa_rx)
{
	return mv_rx(t, 0, md, c);
}

TAG_DECODER(dsa_sw)
{
	return mv_sw(t, 0, md);
}

TAG_ENCODER(dsa_tx)
{
	uint8_t *t;

	if (mv_is_8021q(m)) {
		mv_tx_convert(rte_pktmbuf_mtod(m, uint8_t *) + TAG_MACS, port, dev);
		return 0;
	}
	t = tag_tx_after_sa(m, 4);
	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_HEADROOM);
	mv_tx_untagged(t, port, dev, c->tx_vid);
	return 0;
}

/* RX: the Marvell fast path (tag_marvell.h), dsa_rx for the other frames. */
static __rte_always_inline uint16_t
dsa_rx_fast(struct rte_mbuf **pkts, uint16_t n, const struct tp_dsa_conf *c,
	    struct rte_mbuf **drops, uint8_t *reasons, struct tp_dsa_stats *st)
{
	return mv_rx_burst(pkts, n, c, drops, reasons, st, 0, TP_DSA_PROTO_DSA, dsa_rx);
}

/* RX with the VLAN strip fused in (tag_marvell.h). */
static uint16_t
dsa_rx_vlan_prefix(struct rte_mbuf **pkts, uint16_t n, const struct tp_dsa_conf *c,
		   const struct tp_vlan_conf *vc, struct tp_dsa_stats *st,
		   struct tp_vlan_stats *vst)
{
	return mv_rx_vlan_prefix(pkts, n, c, vc, st, vst, 0, TP_DSA_PROTO_DSA);
}

TP_DSA_TAGGER_DEFINE_FAST(tp_tagger_dsa, "dsa", TP_DSA_PROTO_DSA, TP_DSA_POS_AFTER_SA,
			  4, 4, 32, 32, 32, 0, dsa_rx, dsa_sw, dsa_tx, dsa_rx_fast,
			  dsa_rx_vlan_prefix);
TP_DSA_TAGGER_REGISTER(tp_tagger_dsa)
