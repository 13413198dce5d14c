/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gro_fast.h: the fast path. Most segments continue a flow that is held, and
 * most bursts are trains of few flows, so before parsing a segment tp_gro
 * asks one question of a candidate flow: may this segment be appended to it,
 * exactly as the full parse + lookup + check() would decide? The candidate is
 * the flow of the previous segment, then the flows of the segment's bucket.
 *
 * The answer comes from a masked compare of the segment's first 16 x nvec
 * bytes with the held head's headers (struct gro_flow tmpl, masked by the
 * mask of its header geometry, tp_gro.shape_mask): every byte that is part
 * of the flow key (MAC header and in-frame tags, IP version/addresses,
 * ports, IPv6 flow label and extension headers) or of a flush rule compared
 * for equality (IPv4 IHL/TOS/DF/TTL/protocol and the whole fragment word,
 * IPv6 traffic class/hop limit/next header, TCP ACK, data offset, flags,
 * window, options) must be equal, and so must the IP length: the fast path
 * takes full-size segments only (payload = the first segment's), the rule
 * Linux applies to all but the last. The bytes that legitimately change
 * between such segments are masked (fast_shape). The mbuf metadata of the
 * key (stripped VLAN TCIs, RSS hash), the offload flags and the switch port
 * are compared as words. Then the rules on changing fields: sequence, IPv4
 * ID (inet_gro_flush), merged length.
 *
 * The compare is strict where a segment may still join: PSH/FIN set, or
 * checksum flags other than the head's GOOD. Such a segment fails it and
 * takes fast_relaxed_eq(), which allows exactly those differences, so the
 * common segment pays for neither.
 *
 * Equal key bytes and metadata mean the full lookup would have found this
 * very flow (one held entry per key), so a "yes" here is the slow path's
 * answer. Anything else (different flow, a flush rule fires, L2 padding or a
 * trailer, chained or short first segment) goes to the full parse, which
 * decides and counts as before. The checksum is the last question: when
 * every flush rule says "append", the full parse would verify the checksum
 * and then append (good) or pass the segment through after completing the
 * flow (bad), which the fast path does itself, so no checksum is verified
 * or counted twice.
 *
 * The fast path runs as a train (gro_merge.c): once a segment joined a
 * flow, the following segments of the burst are tried against the same
 * flow, the common case of a burst that carries one flow's window. A
 * segment whose flow is not the previous segment's is tried alone on the
 * candidate its bucket holds (fast_one: flows interleaved segment by
 * segment), and after a flush a flow's next aggregate starts from the
 * entry it just left (fast_start).
 */
#ifndef TP_GRO_FAST_H
#define TP_GRO_FAST_H

#include <rte_branch_prediction.h>
#include <rte_vect.h>

#include "gro_priv.h"
#include "gro_parse.h"

/* Offsets in the IPv4 (RFC 791) and TCP (RFC 9293) headers. */
#define IP4_ID 4
#define IP4_CSUM 10
#define TCP_SEQ 4
#define TCP_FLAGS 13
#define TCP_CSUM 16
#define TCP_PSH_FIN 0x09       /* PSH | FIN in the flag byte */

/* Byte i of f's template: the first GRO_TMPL_MAX in tmpl, the rest of a
 * tunnel's in tmpl_hi. */
static inline uint8_t *
fast_tmpl_at(struct gro_flow *f, uint32_t i)
{
	return i < GRO_TMPL_MAX ? &f->tmpl[i] : &f->tmpl_hi[i - GRO_TMPL_MAX];
}

/* 1 when the 20-byte IPv4 header at ip sums to 0xFFFF: the outer header of
 * a tunnel, which Linux always verifies (inet_gro_receive, ip_fast_csum). */
static __rte_always_inline int
fast_ipv4_hdr_ok(const uint8_t *ip)
{
	uint32_t w[5];
	uint64_t s;

	memcpy(w, ip, 20);
	s = (uint64_t)w[0] + w[1] + w[2] + w[3] + w[4];
	s = (s & 0xFFFFFFFFu) + (s >> 32);
	s = (s & 0xFFFF) + (s >> 16);
	s = (s & 0xFFFF) + (s >> 16);
	s = (s & 0xFFFF) + (s >> 16);
	return s == 0xFFFF;
}

static inline uint64_t
fast_dsa_word(const struct rte_mbuf *m, int off)
{
	uint64_t w;

	memcpy(&w, RTE_MBUF_DYNFIELD(m, off, const void *), sizeof(w));
	return w;
}

/* The shape_mask entry for headers of hdr bytes with IP at l3 and TCP at
 * l4 (IPv6 if v6), added on first use; -1 when the table is full. The
 * bytes that legitimately change between full-size segments are masked:
 * IPv4 ID and header checksum, TCP sequence, checksum and urgent pointer
 * (tcp_gro_receive in net/ipv4/tcp_offload.c does not compare it; URG
 * itself is in the compared flag byte). */
static inline int
fast_shape(struct tp_gro *g, uint32_t hdr, uint32_t l3, uint32_t l4, int v6, uint32_t o_id_off)
{
	const struct gro_shape want = { (uint16_t)l3, (uint16_t)l4, (uint16_t)hdr,
					(uint8_t)v6, (uint8_t)o_id_off };

	RTE_BUILD_BUG_ON(sizeof(want) != 8);
	uint8_t *k;
	uint32_t i;

	for (i = 0; i < g->nb_shapes; i++)
		if (memcmp(&g->shape[i], &want, sizeof(want)) == 0)
			return (int)i;
	if (g->nb_shapes == GRO_SHAPES)
		return -1;
	g->shape[i] = want;
	k = g->shape_mask[i];
	memset(k, 0, GRO_TMPL_FULL);
	memset(k, 0xFF, hdr);
	if (o_id_off != 0) {   /* the outer IPv4 ID and header checksum */
		memset(k + o_id_off, 0, 2);
		memset(k + o_id_off - IP4_ID + IP4_CSUM, 0, 2);
	}
	if (!v6) {
		memset(k + l3 + IP4_ID, 0, 2);
		memset(k + l3 + IP4_CSUM, 0, 2);
	}
	memset(k + l4 + TCP_SEQ, 0, 4);
	memset(k + l4 + TCP_CSUM, 0, 4);   /* checksum, urgent pointer */
	g->nb_shapes++;
	return (int)i;
}

/* Fill the fast path's view of a flow just started with segment p; tun (a
 * constant): p is a tunnel packet. */
static __rte_always_inline void
fast_setup_n(struct tp_gro *g, struct gro_flow *f, const struct gro_pkt *p, const int tun)
{
	const struct rte_mbuf *m = p->m;
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t hdr = f->hdr_len, l3 = p->l2_len, l4 = l3 + p->l3_len;
	uint32_t ip_len = tun ? p->ip_len + f->o_extra : p->ip_len, o_id_off = 0;
	unsigned int nvec = (hdr + 15) / 16, i;
	const uint8_t *k;
	int shape;

	/* no fast path for long IPv6 extension chains, or when a full-size
	 * segment (or this first mbuf) is shorter than the compared words or
	 * longer than one mbuf's data_len can say, or the shapes are taken;
	 * for UDP GRO; for a tunnel unless the NIC parsed it (its checksum
	 * flags then describe the inner headers: packet_type) and the outer
	 * UDP checksum is zero (else verified in software: the full parse) */
	f->nvec = 0;
	if (hdr > (tun ? GRO_TMPL_FULL : GRO_TMPL_MAX) || hdr + p->paylen < 16 * nvec ||
	    m->data_len < 16 * nvec || hdr + p->paylen > UINT16_MAX ||
	    (tun && (p->ucsum || !(m->packet_type & RTE_PTYPE_TUNNEL_MASK))))
		return;
	if (tun && !p->ov6)
		o_id_off = p->o_l3 + IP4_ID;
	shape = fast_shape(g, hdr, l3, l4, p->v6, o_id_off);
	if (shape < 0)
		return;
	f->shape = (uint8_t)shape;
	k = g->shape_mask[shape];
#if defined(RTE_ARCH_X86) && defined(__SSE4_1__)
	for (i = 0; i < GRO_TMPL_MAX / 16; i++) {
		__m128i t = _mm_setzero_si128();

		if (i < nvec)
			t = _mm_and_si128(_mm_loadu_si128((const __m128i *)(d + 16 * i)),
					  _mm_load_si128((const __m128i *)(k + 16 * i)));
		_mm_store_si128((__m128i *)f->tmpl + i, t);
	}
	if (tun) {                     /* tmpl_hi: read by tunnel flows only */
		for (i = GRO_TMPL_MAX / 16; i < GRO_TMPL_FULL / 16; i++) {
			__m128i t = _mm_setzero_si128();

			if (i < nvec)
				t = _mm_and_si128(_mm_loadu_si128((const __m128i *)(d + 16 * i)),
						  _mm_load_si128((const __m128i *)(k + 16 * i)));
			_mm_store_si128((__m128i *)f->tmpl_hi + (i - GRO_TMPL_MAX / 16), t);
		}
	}
#else
	memset(f->tmpl, 0, sizeof(f->tmpl));
	if (tun)
		memset(f->tmpl_hi, 0, sizeof(f->tmpl_hi));
	for (i = 0; i < 16 * nvec; i++)
		*fast_tmpl_at(f, i) = d[i] & k[i];
#endif
	/* strict: a held head has neither PSH nor FIN (process()) */
	if (tun)
		*fast_tmpl_at(f, l4 + TCP_FLAGS) &= (uint8_t)~TCP_PSH_FIN;
	else
		f->tmpl[l4 + TCP_FLAGS] &= (uint8_t)~TCP_PSH_FIN;

	/* no LRO, the head's VLAN/QinQ/RSS flags, and (the common case, else
	 * the checksum is looked at) checksums GOOD */
	f->cs_mask = RTE_MBUF_F_RX_L4_CKSUM_MASK | (p->v6 ? 0 : RTE_MBUF_F_RX_IP_CKSUM_MASK);
	f->ol_mask = RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_VLAN_STRIPPED |
		     RTE_MBUF_F_RX_QINQ_STRIPPED | RTE_MBUF_F_RX_RSS_HASH |
		     (tun ? RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD : 0);
	f->ol_want = (m->ol_flags & f->ol_mask & ~RTE_MBUF_F_RX_LRO) |
		     RTE_MBUF_F_RX_L4_CKSUM_GOOD | (p->v6 ? 0 : RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	f->ol_mask |= f->cs_mask;
	/* Every segment a held flow took has the head's payload (a shorter
	 * one completes it: after_append), so with s segments the IP length
	 * is ip_len + (s - 1) x mss: the s-th joins while that is at most
	 * max_ip_len. The division is skipped in the common case. */
	if (ip_len > g->max_ip_len)
		f->seg_cap = 1;
	else if ((uint64_t)p->paylen * (g->max_segs - 1) <= g->max_ip_len - ip_len)
		f->seg_cap = g->max_segs;
	else
		f->seg_cap = RTE_MIN(g->max_segs, 1 + (g->max_ip_len - ip_len) / p->paylen);
	f->tci_mask = ((p->key.flags & GRO_KF_VLAN) ? 0xFFFFu : 0) |
		      ((p->key.flags & GRO_KF_QINQ) ? 0xFFFF0000u : 0);
	f->tci_want = ((uint32_t)m->vlan_tci | (uint32_t)m->vlan_tci_outer << 16) &
		      f->tci_mask;
	f->hash_mask = (m->ol_flags & RTE_MBUF_F_RX_RSS_HASH) ? UINT32_MAX : 0;
	if (g->dsa_off >= 0) {
		f->dsa_mask = gro_dsa_key_mask(m, g->dsa_off);
		f->dsa_want = fast_dsa_word(m, g->dsa_off) & f->dsa_mask;
	} else {
		f->dsa_mask = f->dsa_want = 0;
	}
	f->nvec = (uint8_t)nvec;
	f->cs_in_vec = ((m->ol_flags ^ f->ol_want) & f->cs_mask) == 0;
	f->ol_strict = f->cs_in_vec ? f->ol_mask : f->ol_mask & ~f->cs_mask;
	f->meta |= (f->tci_mask | f->hash_mask) != 0 ? GRO_META_TCI : 0;
	if (tun) {
		f->meta |= GRO_META_TUN;
		f->ptype_want = m->packet_type & RTE_PTYPE_TUNNEL_MASK;
		f->o_id_off = (uint16_t)o_id_off;
	}
}

/* fast_setup_n for plain TCP (its own instance) or a tunnel; a UDP flow
 * has no fast path. */
static inline void
fast_setup(struct tp_gro *g, struct gro_flow *f, const struct gro_pkt *p)
{
	if (likely(!(p->key.flags & (GRO_KF_TUN | GRO_KF_UDP))))
		fast_setup_n(g, f, p, 0);
	else if (p->l4p == NH_TCP)
		fast_setup_n(g, f, p, 1);
	else
		f->nvec = 0;
}

/* 1 when m's metadata is the head's: one mbuf, the same offload flags
 * (checksum flags GOOD when the head's were: cs_in_vec), stripped TCIs and
 * RSS hash. Scalar on purpose: a 16-byte load over these mbuf fields, just
 * written by the RX or untag stages with narrower stores, stalls on store
 * forwarding and cost more than these compares. */
static __rte_always_inline int
fast_meta_strict(const struct gro_flow *f, const struct rte_mbuf *m)
{
	return m->nb_segs == 1 && ((m->ol_flags ^ f->ol_want) & f->ol_strict) == 0 &&
	       (!f->meta ||
		((!(f->meta & GRO_META_TCI) ||
		  (((((uint32_t)m->vlan_tci | (uint32_t)m->vlan_tci_outer << 16) &
		     f->tci_mask) == f->tci_want) &&
		   ((m->hash.rss ^ f->hash) & f->hash_mask) == 0)) &&
		 (!(f->meta & GRO_META_TUN) ||
		  (m->packet_type & RTE_PTYPE_TUNNEL_MASK) == f->ptype_want)));
}

/* The 16 x nvec compared bytes of d, template t, mask k in 32-byte AVX2
 * vectors (two, and a 16-byte one for nvec 5): about half the
 * instructions of the 16-byte compare, for CPUs that have AVX2 and an EAL
 * that allows 256-bit vectors (tp_gro.wide, set at create). Not
 * always_inline: compiled for AVX2 on its own, it is inlined only into the
 * instances built for AVX2 (fast_train_wide), and only reached from them. */
#ifdef GRO_HAVE_WIDE
static inline GRO_WIDE_TARGET int
fast_masked_eq_avx2(const uint8_t *d, const uint8_t *t, const uint8_t *k,
		    const uint8_t *t_hi, const unsigned int nvec)
{
	/* d by vlddqu: DPDK's -march=corei7 tuning splits a 32-byte vmovdqu
	 * in two (GCC's -mavx256-split-unaligned-load), never this one;
	 * template and mask rows are 32-byte aligned */
#define FAST_DIFF256(o) _mm256_and_si256(_mm256_xor_si256(_mm256_lddqu_si256( \
	(const __m256i *)(d + (o))), _mm256_load_si256((const __m256i *)(t + (o)))), \
	_mm256_load_si256((const __m256i *)(k + (o))))
	__m256i acc = _mm256_or_si256(FAST_DIFF256(0), FAST_DIFF256(32));

	if (nvec >= 6)
		acc = _mm256_or_si256(acc, FAST_DIFF256(64));
#undef FAST_DIFF256
	if (nvec == 8)
		acc = _mm256_or_si256(acc, _mm256_and_si256(_mm256_xor_si256(
			_mm256_lddqu_si256((const __m256i *)(d + 96)),
			_mm256_load_si256((const __m256i *)t_hi)),
			_mm256_load_si256((const __m256i *)(k + 96))));
	if (nvec == 7) {
		__m128i r = _mm_and_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)(d + 96)),
							_mm_load_si128((const __m128i *)t_hi)),
					  _mm_load_si128((const __m128i *)(k + 96)));

		acc = _mm256_or_si256(acc, _mm256_castsi128_si256(r));
	}
	if (nvec == 5) {
		__m128i r = _mm_and_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)(d + 64)),
							_mm_load_si128((const __m128i *)(t + 64))),
					  _mm_load_si128((const __m128i *)(k + 64)));

		acc = _mm256_or_si256(acc, _mm256_castsi128_si256(r));
	}
	return _mm256_testz_si256(acc, acc);
}
#endif

/* 1 when d's first 16 x nvec bytes equal f's template where masked (the
 * key bytes and the equal-field flush rules, strict on PSH/FIN; 4 <= nvec
 * <= 6: the shortest header, Ethernet + IPv4 + TCP, is 54 bytes) and m's
 * metadata is the head's (fast_meta_strict). The caller checked that d
 * holds 16 x nvec bytes. wide (a constant of each instance): the AVX2
 * compare, only in instances compiled for AVX2. */
static __rte_always_inline int
fast_strict_eq(const uint8_t *mask, const struct gro_flow *f, const struct rte_mbuf *m,
	       const uint8_t *d, const unsigned int nvec, const int wide)
{
#ifdef GRO_HAVE_WIDE
	if (wide)
		return fast_masked_eq_avx2(d, f->tmpl, mask, f->tmpl_hi, nvec) &&
		       fast_meta_strict(f, m);
#else
	(void)wide;
#endif
#if defined(RTE_ARCH_X86) && defined(__SSE4_1__)
	const __m128i *t = (const __m128i *)f->tmpl, *k = (const __m128i *)mask;
	__m128i acc;

#define FAST_DIFF(p, tv, kv) _mm_and_si128(_mm_xor_si128(_mm_loadu_si128( \
	(const __m128i *)(p)), _mm_load_si128(tv)), _mm_load_si128(kv))
	acc = _mm_or_si128(_mm_or_si128(FAST_DIFF(d, t, k), FAST_DIFF(d + 16, t + 1, k + 1)),
			   _mm_or_si128(FAST_DIFF(d + 32, t + 2, k + 2),
					FAST_DIFF(d + 48, t + 3, k + 3)));
	if (nvec > 4)
		acc = _mm_or_si128(acc, FAST_DIFF(d + 64, t + 4, k + 4));
	if (nvec > 5)
		acc = _mm_or_si128(acc, FAST_DIFF(d + 80, t + 5, k + 5));
	if (nvec > 6)
		acc = _mm_or_si128(acc, FAST_DIFF(d + 96, (const __m128i *)f->tmpl_hi, k + 6));
	if (nvec > 7)
		acc = _mm_or_si128(acc, FAST_DIFF(d + 112, (const __m128i *)f->tmpl_hi + 1, k + 7));
#undef FAST_DIFF
	return _mm_testz_si128(acc, acc) && fast_meta_strict(f, m);
#else
	uint64_t acc = 0, a, b, k;
	unsigned int i;

	for (i = 0; i < 2 * nvec; i++) {
		memcpy(&a, d + 8 * i, 8);
		memcpy(&b, i < 12 ? f->tmpl + 8 * i : f->tmpl_hi + 8 * (i - 12), 8);
		memcpy(&k, mask + 8 * i, 8);
		acc |= (a ^ b) & k;
	}
	return acc == 0 && fast_meta_strict(f, m);
#endif
}

/* fast_strict_eq for f's nvec (not a constant here). */
static inline int
fast_strict_eq_any(const struct tp_gro *g, const struct gro_flow *f, const struct rte_mbuf *m,
		   const uint8_t *d)
{
	const uint8_t *mask = g->shape_mask[f->shape];

	switch (f->nvec) {
	case 4:
		return fast_strict_eq(mask, f, m, d, 4, 0);
	case 5:
		return fast_strict_eq(mask, f, m, d, 5, 0);
	case 6:
		return fast_strict_eq(mask, f, m, d, 6, 0);
	case 7:
		return fast_strict_eq(mask, f, m, d, 7, 0);
	default:
		return fast_strict_eq(mask, f, m, d, 8, 0);
	}
}

/* The compare fast_strict_eq() refused, allowing what still lets a segment
 * join: PSH/FIN in the flag byte, and any checksum flags (the caller then
 * asks csum_verdict()). It is the same compare on copies of the headers
 * and of the mbuf's first line with those bits taken from the template. */
static __rte_noinline int
fast_relaxed_eq(const struct tp_gro *g, const struct gro_flow *f, const struct rte_mbuf *m,
		const uint8_t *d)
{
	const uint32_t flags = f->l4_off + TCP_FLAGS;
	uint8_t h[GRO_TMPL_FULL] __rte_aligned(16);
	union {
		struct rte_mbuf m;
		uint8_t b[RTE_CACHE_LINE_MIN_SIZE];
	} mc;

	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, vlan_tci_outer) + 2 > sizeof(mc.b));
	memcpy(h, d, 16u * f->nvec);
	memcpy(mc.b, m, sizeof(mc.b));
	h[flags] = (uint8_t)((h[flags] & ~TCP_PSH_FIN) |
			     (*fast_tmpl_at((struct gro_flow *)(uintptr_t)f, flags) & TCP_PSH_FIN));
	mc.m.ol_flags = (mc.m.ol_flags & ~f->cs_mask) | (f->ol_want & f->cs_mask);
	return fast_strict_eq_any(g, f, &mc.m, h);
}

/* 1 when m may be f's next full-size segment by the two fields that tell
 * most others apart, frame length and sequence: worth trying the train on
 * f, which checks everything else. A full-size frame holds the compared
 * bytes (fast_setup), so the sequence is in the first mbuf. */
static inline int
fast_continues(const struct gro_flow *f, const struct rte_mbuf *m)
{
	return f->nvec != 0 && m->data_len == f->frame &&
	       rd32(rte_pktmbuf_mtod_offset(m, const uint8_t *,
					    f->l4_off + TCP_SEQ)) == f->next_seq;
}

/* inet_gro_flush (include/net/gro.h): with the second segment an equal ID
 * selects fixed mode; from then on every ID must equal the first, else be
 * the first + segments so far. 1 when id may join f. */
static inline int
ipid_ok(const struct gro_flow *f, uint16_t id)
{
	uint16_t off = (uint16_t)(id - f->first_id);

	if (f->segs == 1)
		return off <= 1;
	return off == (f->id_mode == GRO_ID_FIXED ? 0 : f->segs);
}

#endif /* TP_GRO_FAST_H */
