/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * VLAN / QinQ strip (contract in tp_vlan.h).
 *
 * Frame offsets (docs/ref/vlan.md §2): 0 DA, 6 SA, 12 TPID1, 14 TCI1, 16 TPID2 or
 * EtherType, 18 TCI2, 20 EtherType. A tag is only taken when the bytes up to
 * and including the EtherType that follows it are in the first segment.
 */
#include "vlan_private.h"

#if defined(RTE_ARCH_X86)
/* The set in the low 64 bits of a vector: one compare for all four. */
typedef __m128i tpid_vec;

static inline tpid_vec
tpid_vec_load(const struct tpid_set *s)
{
	return _mm_loadl_epi64((const __m128i *)s->t);
}

static inline int
is_tpid(tpid_vec v, uint16_t be)
{
	/* the low 8 mask bits are the four slots (the upper lanes are 0
	 * and must not match an EtherType of 0) */
	return (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_set1_epi16((short)be), v)) & 0xFF) != 0;
}
#else
typedef struct tpid_set tpid_vec;

static inline tpid_vec
tpid_vec_load(const struct tpid_set *s)
{
	return *s;
}

static inline int
is_tpid(tpid_vec s, uint16_t be)
{
	return tpid_set_has(&s, be);
}
#endif

static inline uint16_t
ld16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

/* Not enough bytes in the first segment for `need`: cut frame or chain. */
static inline unsigned int
short_reason(const struct rte_mbuf *m, uint32_t need)
{
	return m->pkt_len >= need ? TP_VLAN_DROP_SEGMENTED : TP_VLAN_DROP_TOO_SHORT;
}

/* Remove `by` tag bytes after the SA; vlan_tci gets tci. */
static inline void
pull(struct rte_mbuf *m, uint8_t *p, uint16_t by, uint16_t tci)
{
	tp_vlan_move_macs(p, by);
	m->data_off += by;
	tp_mbuf_shorten_front(m, by);
	m->vlan_tci = tci;
}

uint16_t
tp_vlan_strip_burst_reasons(const struct tp_vlan_conf *conf,
			    struct rte_mbuf **pkts, uint16_t n,
			    struct rte_mbuf **drops, uint8_t *reasons,
			    struct tp_vlan_stats *st)
{
	struct tpid_set s;
	tpid_vec tv;
	tpid_pair_vec tp;
	uint16_t i, k = 0, nd = 0;
	uint64_t n_nic = 0, n_untagged = 0, n_single = 0, n_qinq = 0;
	int none;
	unsigned int fast_min;

	if (conf == NULL)
		conf = &tp_vlan_default_conf;
	none = tpid_set_init(&s, conf) == 0;
	tv = tpid_vec_load(&s);
	tp = tpid_pair_load(&s);
	/* no fast path for an empty set (no data_len reaches 0x10000) */
	fast_min = none ? 0x10000u : 24u;
	st->in += n;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
		uint64_t ol = m->ol_flags;
		uint16_t dl = m->data_len;

		/* Fast path: no tag taken by the NIC, a TPID set, 24 bytes in
		 * the first segment (what a QinQ strip reads, and the 16-byte
		 * MAC move needs): the same outcomes as the general code below, with
		 * both TPID slots compared at once and one 16-byte MAC store. */
		if (likely(!(ol & (RTE_MBUF_F_RX_QINQ_STRIPPED | RTE_MBUF_F_RX_VLAN_STRIPPED)) &&
			   dl >= fast_min)) {
			unsigned int tags = tpid_pair(tp, p + 12);

			if (likely(tags == 3)) {
				uint16_t tci = tp_vlan_rd16(p + 18);

				m->vlan_tci_outer = tp_vlan_rd16(p + 14);
				m->ol_flags = ol | TP_VLAN_RX_F_TWO;
				tp_mbuf_strip_after_macs(m, p, 2 * TP_VLAN_HLEN);
				m->vlan_tci = tci;
				n_qinq++;
			} else if (tags & 1) {
				uint16_t tci = tp_vlan_rd16(p + 14);

				m->ol_flags = ol | TP_VLAN_RX_F_ONE;
				tp_mbuf_strip_after_macs(m, p, TP_VLAN_HLEN);
				m->vlan_tci = tci;
				n_single++;
			} else {
				n_untagged++;
			}
			TP_KEEP(pkts, i, k, m);
			continue;
		}
		if (ol & RTE_MBUF_F_RX_QINQ_STRIPPED) {
			/* Both tags already taken by the NIC. */
			n_nic++;
			TP_KEEP(pkts, i, k, m);
			continue;
		}
		if (dl < 14 || none || !is_tpid(tv, ld16(p + 12))) {
			if (dl < 14 && m->pkt_len >= 14) {
				tp_vlan_drop(m, drops, reasons, &nd, st, TP_VLAN_DROP_SEGMENTED);
				continue;
			}
			if (ol & RTE_MBUF_F_RX_VLAN_STRIPPED)
				n_nic++;
			else
				n_untagged++;
			TP_KEEP(pkts, i, k, m);
			continue;
		}
		if (dl < 18) {
			tp_vlan_drop(m, drops, reasons, &nd, st, short_reason(m, 18));
			continue;
		}
		if (ol & RTE_MBUF_F_RX_VLAN_STRIPPED) {
			/* NIC took the outer tag; the frame's tag is the inner one. */
			m->vlan_tci_outer = m->vlan_tci;
			m->ol_flags = ol | TP_VLAN_RX_F_TWO;
			pull(m, p, TP_VLAN_HLEN, tp_vlan_rd16(p + 14));
			n_nic++;
			TP_KEEP(pkts, i, k, m);
			continue;
		}
		if (!is_tpid(tv, ld16(p + 16))) {
			m->ol_flags = ol | TP_VLAN_RX_F_ONE;
			pull(m, p, TP_VLAN_HLEN, tp_vlan_rd16(p + 14));
			n_single++;
			TP_KEEP(pkts, i, k, m);
			continue;
		}
		if (dl < 22) {
			tp_vlan_drop(m, drops, reasons, &nd, st, short_reason(m, 22));
			continue;
		}
		m->vlan_tci_outer = tp_vlan_rd16(p + 14);
		m->ol_flags = ol | TP_VLAN_RX_F_TWO;
		pull(m, p, 2 * TP_VLAN_HLEN, tp_vlan_rd16(p + 18));
		n_qinq++;
		TP_KEEP(pkts, i, k, m);
	}
	st->nic += n_nic;
	st->untagged += n_untagged;
	st->single += n_single;
	st->qinq += n_qinq;
	st->out += k;
	return k;
}

uint16_t
tp_vlan_strip_burst(const struct tp_vlan_conf *conf, struct rte_mbuf **pkts,
		 uint16_t n, struct rte_mbuf **drops, struct tp_vlan_stats *st)
{
	return tp_vlan_strip_burst_reasons(conf, pkts, n, drops, NULL, st);
}
