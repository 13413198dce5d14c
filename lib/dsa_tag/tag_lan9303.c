/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "lan9303": SMSC/Microchip LAN9303 4-byte VLAN-shaped tag after the SA
 * (net/dsa/tag_lan9303.c, docs/ref/dsa-tags.md §3.11, §5).
 *   RX  W0 must be 0x8100; W1 1:0 source port, bit 3 IGMP trap, bit 4 STP
 *       trap (either: TO_CPU, no fwd mark; else FORWARD).
 *   TX  81 00, W1 = port | 0x10 (STP-state override), or 0x0008 (ALR lookup)
 *       for a unicast DA when TP_DSA_CONF_F_LAN9303_ALR (ports bridged).
 * Every frame carries the tag, so one a NIC stripped into vlan_tci is put
 * back first (tag_vlan_unhw, any VID).
 */
#include "tag_impl.h"

#define LAN9303_LEN 4
#define LAN9303_TPID 0x8100
#define LAN9303_ALR 0x0008
#define LAN9303_STP_OVR 0x0010

TAG_DECODER(lan9303_rx)
{
	if (tag_rd16(t) != LAN9303_TPID)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	md->port = t[3] & 0x03;
	md->frame_type = (t[3] & 0x18) ? TP_DSA_FT_TO_CPU : TP_DSA_FT_FORWARD;
	return LAN9303_LEN;
}

TAG_DECODER(lan9303_sw)
{
	if (tag_rd16(t) != LAN9303_TPID)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	if (t[3] & LAN9303_ALR)
		return TAG_ERR(TP_DSA_DROP_NO_PORT); /* switch looks the DA up itself */
	md->port = t[3] & 0x03;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return LAN9303_LEN;
}

TAG_ENCODER(lan9303_tx)
{
	int alr = (c->flags & TP_DSA_CONF_F_LAN9303_ALR) &&
		  !(rte_pktmbuf_mtod(m, const uint8_t *)[0] & 0x01);
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_AFTER_SA, LAN9303_LEN, 0, &t);

	if (r < 0)
		return r;
	tag_wr16(t, LAN9303_TPID);
	tag_wr16(t + 2, (uint16_t)(alr ? LAN9303_ALR : (port | LAN9303_STP_OVR)));
	return 0;
}

static __rte_always_inline void
lan9303_unhw(struct rte_mbuf **pkts, uint16_t n)
{
	tag_vlan_unhw(pkts, n, LAN9303_TPID);
}

TP_DSA_TAGGER_DEFINE_PRE(tp_tagger_lan9303, "lan9303", TP_DSA_PROTO_LAN9303,
			 TP_DSA_POS_AFTER_SA, LAN9303_LEN, LAN9303_LEN, 4, 4, 1, 0,
			 lan9303_rx, lan9303_sw, lan9303_tx, lan9303_unhw);
TP_DSA_TAGGER_REGISTER(tp_tagger_lan9303)
