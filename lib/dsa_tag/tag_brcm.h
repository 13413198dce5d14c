/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private: the 4-byte Broadcom tag shared by "brcm" (after SA) and
 * "brcm-prepend" (before DA) (net/dsa/tag_brcm.c; docs/ref/dsa-tags.md §3.2).
 *
 * RX (switch egress, opcode 0):
 *   T0 7:5 opcode = 0; T1 classification id; T2 reason (7:6 reserved = 0);
 *   T3 7:5 traffic class, 4:0 source port.
 * TX (switch ingress, opcode 1):
 *   T0 = 0x20 | (queue & 7) << 2; T1 = 0; T2 = 0x01 for port 8 only;
 *   T3 = (1 << port) & 0xFF. The untagged frame is padded to 64 first.
 */
#ifndef TP_DSA_TAG_BRCM_H
#define TP_DSA_TAG_BRCM_H

#include "tag_impl.h"

#define BRCM_LEN 4
#define BRCM_TX_PAD 64 /* ETH_ZLEN + 4 (§3.2) */
#define BRCM_PORTS 9   /* TX dst map bits 8:0 */

static __rte_always_inline int
brcm_rx_tag(const uint8_t *t, struct tp_dsa_meta *md)
{
	if ((t[0] >> 5) != 0 || (t[2] & 0xC0) != 0)
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
	md->port = t[3] & 0x1F;
	md->prio = t[3] >> 5;
	md->frame_type = TP_DSA_FT_TO_CPU;
	return BRCM_LEN;
}

static __rte_always_inline int
brcm_sw_tag(const uint8_t *t, struct tp_dsa_meta *md)
{
	int port;

	if ((t[0] >> 5) != 1)
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
	port = tag_map_port((uint32_t)(t[2] & 1) << 8 | t[3]);
	if (port < 0)
		return port;
	md->port = (uint8_t)port;
	md->prio = (t[0] >> 2) & 7;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return BRCM_LEN;
}

static inline void
brcm_tx_tag(uint8_t *t, unsigned int port, unsigned int prio)
{
	t[0] = (uint8_t)(0x20 | (prio & 7) << 2);
	t[1] = 0;
	t[2] = port == 8 ? 0x01 : 0x00;
	t[3] = (uint8_t)((1u << port) & 0xFF);
}

/* Workers shared by both placements: the tag bytes are the same, only
 * where they sit differs (the tagger definition gives the position). */
static __rte_always_inline int
brcm_rx(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	return brcm_rx_tag(t, md);
}

static __rte_always_inline int
brcm_sw(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)avail;
	(void)c;
	return brcm_sw_tag(t, md);
}

/* Pad to 64 bytes (§3.2), open BRCM_LEN bytes before the DA or after the
 * SA (before_da is a constant at every call site), write the tag. */
static __rte_always_inline int
brcm_tx_placed(struct rte_mbuf *m, unsigned int port, unsigned int prio, int before_da)
{
	uint8_t *t;
	int r = tag_tx_pad(m, BRCM_TX_PAD);

	if (r < 0)
		return r;
	t = before_da ? tag_tx_before_da(m, BRCM_LEN) : tag_tx_after_sa(m, BRCM_LEN);
	if (t == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_HEADROOM);
	brcm_tx_tag(t, port, prio);
	return 0;
}

#endif /* TP_DSA_TAG_BRCM_H */
