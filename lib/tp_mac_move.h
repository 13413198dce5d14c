/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Moving a frame's 12 MAC address bytes forward over a removed tag, shared
 * by the strip loops of lib/dsa_tag and lib/vlan (private to lib/, not
 * installed). Strip moves only these bytes, never the payload. Insert
 * keeps the TX offloads' header lengths true (tp_mbuf_tx_l2_grow).
 */
#ifndef TP_MAC_MOVE_H
#define TP_MAC_MOVE_H

#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_config.h>
#include <rte_common.h>
#include <rte_mbuf_core.h>
#if defined(RTE_ARCH_X86) && defined(__SSE4_1__)
#include <smmintrin.h>
#endif

/* Move the 12 MAC bytes at p to p + delta (delta may be negative), in
 * registers. */
static inline void
tp_mac_move(uint8_t *p, int delta)
{
	uint64_t a;
	uint32_t b;

	memcpy(&a, p, 8);
	memcpy(&b, p + 8, 4);
	memcpy(p + delta, &a, 8);
	memcpy(p + delta + 8, &b, 4);
}

/* Move the 12 MAC bytes at p forward by delta (4 or more: 4..8 for one
 * strip, up to 16 for the fused switch tag + QinQ strip) with one load and
 * one 16-byte store at p + delta - 4: the store's first 4 bytes land in
 * what the strip turns into headroom (they become zero), so nothing after
 * the moved MACs is rewritten and no second load is needed to preserve it.
 * Needs 16 bytes at p and delta + 12 bytes in the segment; delta below 4
 * would write before p. */
static inline void
tp_mac_move_fwd16(uint8_t *p, unsigned int delta)
{
#if defined(RTE_ARCH_X86) && defined(__SSE4_1__)
	__m128i a = _mm_loadu_si128((const __m128i *)p);

	_mm_storeu_si128((__m128i *)(p + delta - 4), _mm_slli_si128(a, 4));
#else
	tp_mac_move(p, (int)delta);
#endif
}

/* Shorten pkt_len and data_len of a frame whose first segment has at
 * least `by` bytes, with one 8-byte read-modify-write of the words
 * rte_mbuf_core.h lays out back to back (pkt_len at 36, data_len at 40,
 * vlan_tci at 42 on 64-bit): pkt_len >= data_len >= by, so neither
 * subtraction borrows from the field above it. */
static inline void
tp_mbuf_shorten_front(struct rte_mbuf *m, unsigned int by)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	uint64_t v;

	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, data_len) !=
			 offsetof(struct rte_mbuf, pkt_len) + 4);
	memcpy(&v, (char *)m + offsetof(struct rte_mbuf, pkt_len), sizeof(v));
	v -= (uint64_t)by << 32 | by;
	memcpy((char *)m + offsetof(struct rte_mbuf, pkt_len), &v, sizeof(v));
#else
	m->pkt_len -= by;
	m->data_len -= by;
#endif
}

/* Take `by` bytes (4 or more) out after the MACs at p, the first segment's
 * data, which holds them and the 16 bytes tp_mac_move_fwd16 reads: the
 * MACs moved up, data_off, pkt_len and data_len. */
static inline void
tp_mbuf_strip_after_macs(struct rte_mbuf *m, uint8_t *p, unsigned int by)
{
	tp_mac_move_fwd16(p, by);
	m->data_off = (uint16_t)(m->data_off + by);
	tp_mbuf_shorten_front(m, by);
}

/* The TX offloads that read a frame's L2 header length: checksums and
 * segmentation, inner or outer (rte_mbuf_core.h). */
#define TP_MBUF_TX_L2_READERS (RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_L4_MASK | \
			       RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_UDP_SEG | \
			       RTE_MBUF_F_TX_OUTER_IP_CKSUM | RTE_MBUF_F_TX_OUTER_UDP_CKSUM | \
			       RTE_MBUF_F_TX_TUNNEL_MASK)

/* A tag of `by` bytes was put into the L2 header (after the SA, or in front
 * of the DA) of a frame that may ask the NIC for TX offloads. Their header
 * lengths count from the frame's first byte, so the first of them grows:
 * outer_l2_len when the outer header lengths are in use (TX_OUTER_IPV4/6,
 * as rte_net_intel_cksum_flags_prepare() in rte_net.h reads them), l2_len
 * otherwise (DPDK's mbuf_lib.rst, "TX offloads"). A NIC-inserted VLAN tag
 * (TX_VLAN/TX_QINQ) is not counted, and a tail tag is not in the header.
 * Both fields hold 7 bits: the deepest header DPDK describes (Ethernet,
 * IPv6, UDP, VXLAN, inner Ethernet with a tag) plus a QinQ pair and the
 * largest head tag (8 bytes) stays below 128. */
static inline void
tp_mbuf_tx_l2_grow(struct rte_mbuf *m, unsigned int by)
{
	uint64_t f = m->ol_flags;

	if (likely(!(f & TP_MBUF_TX_L2_READERS)))
		return;
	if (f & (RTE_MBUF_F_TX_OUTER_IPV4 | RTE_MBUF_F_TX_OUTER_IPV6))
		m->outer_l2_len += by;
	else
		m->l2_len += by;
}

#endif /* TP_MAC_MOVE_H */
