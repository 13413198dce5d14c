/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "nxp_netc": NXP NETC switch tag after the SA (net/dsa/tag_netc.c,
 * docs/ref/dsa-tags.md §3.25; proto id 33 provisional).
 *   T0..T1 0xFD3A; T2 7:4 type (0 Forward, 1 To_Port, 2 To_Host), 3:0
 *   subtype; T3 bit 0 QV, 4:2 IPV; T4 7:3 port, 2:0 switch id; T5.
 *   RX  Forward (6 bytes, FORWARD) or To_Host subtype 0 (6 bytes, TO_CPU).
 *       Dropped: switch id 0 (VEPA) and To_Host subtypes 1/2 (14-byte
 *       timestamp forms) as "unsupported", To_Port/unknown types "bad_type".
 *   TX  FD 3A, 0x10 (To_Port), 0x01 | IPV << 2, port << 3 | switch id, 00.
 */
#include "tag_impl.h"

#define NETC_LEN 6
#define NETC_ETYPE 0xFD3A
#define NETC_FORWARD 0
#define NETC_TO_PORT 1
#define NETC_TO_HOST 2

static __rte_always_inline void
netc_fields(const uint8_t *t, struct tp_dsa_meta *md)
{
	md->port = t[4] >> 3;
	md->device = t[4] & 7;
	md->prio = (t[3] & 1) ? (t[3] >> 2) & 7 : 0;
}

TAG_DECODER(netc_rx)
{
	unsigned int type = t[2] >> 4;

	if (tag_rd16(t) != NETC_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	if (type == NETC_FORWARD)
		md->frame_type = TP_DSA_FT_FORWARD;
	else if (type == NETC_TO_HOST)
		md->frame_type = TP_DSA_FT_TO_CPU;
	else
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
	if ((type == NETC_TO_HOST && (t[2] & 0x0F) != 0) || (t[4] & 7) == 0)
		return TAG_ERR(TP_DSA_DROP_UNSUPPORTED);
	netc_fields(t, md);
	return NETC_LEN;
}

TAG_DECODER(netc_sw)
{
	if (tag_rd16(t) != NETC_ETYPE)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	if (t[2] != NETC_TO_PORT << 4)
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
	netc_fields(t, md);
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return NETC_LEN;
}

TAG_ENCODER(netc_tx)
{
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_AFTER_SA, NETC_LEN, 0, &t);

	if (r < 0)
		return r;
	tag_wr16(t, NETC_ETYPE);
	t[2] = NETC_TO_PORT << 4;
	t[3] = (uint8_t)(0x01 | (prio & 7) << 2);
	t[4] = (uint8_t)(port << 3 | dev);
	t[5] = 0;
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_nxp_netc, "nxp_netc", TP_DSA_PROTO_NETC, TP_DSA_POS_AFTER_SA,
		     NETC_LEN, NETC_LEN, 32, 32, 8, 0, netc_rx, netc_sw, netc_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_nxp_netc)
