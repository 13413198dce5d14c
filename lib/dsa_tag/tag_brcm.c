/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "brcm" and "brcm-prepend": the 4-byte Broadcom tag after the SA ("brcm")
 * or in front of the DA ("brcm-prepend") (net/dsa/tag_brcm.c,
 * docs/ref/dsa-tags.md §3.2). The bytes are the same; only where they sit
 * differs, so one row each below gives the position.
 *   DA SA [T0 T1 T2 T3] EtherType ...   /   [T0 T1 T2 T3] DA SA EtherType ...
 * RX (switch egress, opcode 0):
 *   T0 7:5 opcode = 0; T1 classification id; T2 reason (7:6 reserved = 0);
 *   T3 7:5 traffic class, 4:0 source port.
 * TX (switch ingress, opcode 1):
 *   T0 = 0x20 | (queue & 7) << 2; T1 = 0; T2 = 0x01 for port 8 only;
 *   T3 = (1 << port) & 0xFF. The untagged frame is padded to 64 first.
 */
#include "tag_impl.h"

#define BRCM_LEN 4
#define BRCM_TX_PAD 64 /* ETH_ZLEN + 4 */
#define BRCM_PORTS 9   /* TX dst map bits 8:0 */

TAG_DECODER(brcm_rx)
{
	if ((t[0] >> 5) != 0 || (t[2] & 0xC0) != 0)
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
	md->port = t[3] & 0x1F;
	md->prio = t[3] >> 5;
	md->frame_type = TP_DSA_FT_TO_CPU;
	return BRCM_LEN;
}

TAG_DECODER(brcm_sw)
{
	int r;

	if ((t[0] >> 5) != 1)
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
	r = tag_sw_map(md, (uint32_t)(t[2] & 1) << 8 | t[3], BRCM_LEN);
	if (r >= 0)
		md->prio = (t[0] >> 2) & 7;
	return r;
}

/* Pad to 64 bytes, open BRCM_LEN bytes at pos (a constant at every call),
 * write the tag. */
static __rte_always_inline int
brcm_tx_at(struct rte_mbuf *m, unsigned int port, unsigned int prio, enum tp_dsa_position pos)
{
	uint8_t *t;
	int r = tag_tx_open(m, pos, BRCM_LEN, BRCM_TX_PAD, &t);

	if (r < 0)
		return r;
	t[0] = (uint8_t)(0x20 | (prio & 7) << 2);
	t[1] = 0;
	t[2] = port == 8 ? 0x01 : 0x00;
	t[3] = (uint8_t)((1u << port) & 0xFF);
	return 0;
}

#define BRCM_TAGGER(var, NAME, PROTO, POS)                                       \
	TAG_ENCODER(var##_tx) { return brcm_tx_at(m, port, prio, POS); }            \
	TP_DSA_TAGGER_DEFINE(tp_tagger_##var, NAME, PROTO, POS, BRCM_LEN, BRCM_LEN, \
			     32, BRCM_PORTS, 1, BRCM_TX_PAD, brcm_rx, brcm_sw,      \
			     var##_tx);                                             \
	TP_DSA_TAGGER_REGISTER(tp_tagger_##var)

/*          var           name            proto                      position */
BRCM_TAGGER(brcm,         "brcm",         TP_DSA_PROTO_BRCM,         TP_DSA_POS_AFTER_SA)
BRCM_TAGGER(brcm_prepend, "brcm-prepend", TP_DSA_PROTO_BRCM_PREPEND, TP_DSA_POS_BEFORE_DA)
