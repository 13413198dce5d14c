/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internet checksums for tp_gro: IPv4 header check, TCP checksum
 * verification and the pseudo-header sums used on output (RFC 1071 sums;
 * RFC 793/8200 pseudo-headers).
 */
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cpuflags.h>
#include <rte_ip.h>
#include <rte_vect.h>

#include "gro_priv.h"

/*
 * The ones'-complement sum of a buffer, at memory speed. RFC 1071 §2: the
 * sum may be computed in any word size and byte order and folded at the
 * end; here 32-bit little-endian words are added into 64-bit lanes (no
 * carry can be lost below 2^32 words), which folds to the same 16-bit sum
 * as DPDK's __rte_raw_cksum (native-order 16-bit words). The buffer may
 * start at any address. Returns the unfolded sum plus init.
 */
static inline uint64_t
sum_tail(const uint8_t *p, uint32_t len, uint64_t s)
{
	uint64_t w;
	uint32_t v;
	uint16_t h;

	while (len >= 8) {
		memcpy(&w, p, 8);
		s += (w & 0xFFFFFFFFu) + (w >> 32);
		p += 8;
		len -= 8;
	}
	if (len >= 4) {
		memcpy(&v, p, 4);
		s += v;
		p += 4;
		len -= 4;
	}
	if (len >= 2) {
		memcpy(&h, p, 2);
		s += h;
		p += 2;
		len -= 2;
	}
	if (len)
		s += *p;      /* the odd last byte is the low byte of its word here */
	return s;
}

#if defined(RTE_ARCH_X86)
static uint64_t __attribute__((target("avx2")))
sum_avx2(const uint8_t *p, uint32_t len, uint64_t init)
{
	const __m256i zero = _mm256_setzero_si256();
	__m256i a0 = zero, a1 = zero, a2 = zero, a3 = zero;
	uint64_t l[4];

	for (; len >= 64; p += 64, len -= 64) {
		__m256i x = _mm256_loadu_si256((const __m256i *)p);
		__m256i y = _mm256_loadu_si256((const __m256i *)(p + 32));

		a0 = _mm256_add_epi64(a0, _mm256_unpacklo_epi32(x, zero));
		a1 = _mm256_add_epi64(a1, _mm256_unpackhi_epi32(x, zero));
		a2 = _mm256_add_epi64(a2, _mm256_unpacklo_epi32(y, zero));
		a3 = _mm256_add_epi64(a3, _mm256_unpackhi_epi32(y, zero));
	}
	a0 = _mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3));
	_mm256_storeu_si256((__m256i *)l, a0);
	return sum_tail(p, len, init + l[0] + l[1] + l[2] + l[3]);
}
#endif

static uint64_t
sum_sse(const uint8_t *p, uint32_t len, uint64_t init)
{
#if defined(RTE_ARCH_X86)
	const __m128i zero = _mm_setzero_si128();
	__m128i a0 = zero, a1 = zero, a2 = zero, a3 = zero;
	uint64_t l[2];

	for (; len >= 32; p += 32, len -= 32) {
		__m128i x = _mm_loadu_si128((const __m128i *)p);
		__m128i y = _mm_loadu_si128((const __m128i *)(p + 16));

		a0 = _mm_add_epi64(a0, _mm_unpacklo_epi32(x, zero));
		a1 = _mm_add_epi64(a1, _mm_unpackhi_epi32(x, zero));
		a2 = _mm_add_epi64(a2, _mm_unpacklo_epi32(y, zero));
		a3 = _mm_add_epi64(a3, _mm_unpackhi_epi32(y, zero));
	}
	a0 = _mm_add_epi64(_mm_add_epi64(a0, a1), _mm_add_epi64(a2, a3));
	_mm_storeu_si128((__m128i *)l, a0);
	init += l[0] + l[1];
#endif
	return sum_tail(p, len, init);
}

static int use_avx2;

RTE_INIT(gro_csum_select)
{
#if defined(RTE_ARCH_X86)
	use_avx2 = rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX2) > 0;
#endif
}

void
gro_csum_select_avx2(int on)
{
#if defined(RTE_ARCH_X86)
	use_avx2 = on && rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX2) > 0;
#else
	(void)on;
#endif
}

static inline uint32_t
fold64(uint64_t s)
{
	s = (s & 0xFFFFFFFFu) + (s >> 32);
	s = (s & 0xFFFFFFFFu) + (s >> 32);
	s = (s & 0xFFFF) + (s >> 16);
	s = (s & 0xFFFF) + (s >> 16);
	s = (s & 0xFFFF) + (s >> 16);
	return (uint32_t)s;
}

/* Folded 16-bit ones'-complement sum of len bytes at p, plus init. */
static uint32_t
gro_sum(const void *p, uint32_t len, uint32_t init)
{
#if defined(RTE_ARCH_X86)
	if (use_avx2)
		return fold64(sum_avx2(p, len, init));
#endif
	return fold64(sum_sse(p, len, init));
}

static inline uint32_t
fold32(uint32_t s)
{
	s = (s & 0xFFFF) + (s >> 16);
	s = (s & 0xFFFF) + (s >> 16);
	return s;
}

/* The folded sum of len bytes from offset off of m, across chained mbufs.
 * A segment that starts at an odd offset of the whole contributes its sum
 * byte-swapped (RFC 1071 §2(B)); it is folded to 16 bits first (DPDK 22.11's
 * rte_raw_cksum_mbuf swaps the unfolded 32-bit sum, wrong when it exceeds
 * 16 bits). */
static uint32_t
sum_mbuf(const struct rte_mbuf *m, uint32_t off, uint32_t len)
{
	uint32_t s = 0, done = 0;

	while (m != NULL && off >= m->data_len) {
		off -= m->data_len;
		m = m->next;
	}
	for (; m != NULL && done < len; m = m->next, off = 0) {
		uint32_t n = RTE_MIN((uint32_t)m->data_len - off, len - done), t;

		t = fold64(sum_sse(rte_pktmbuf_mtod_offset(m, const uint8_t *, off), n, 0));
		if (done & 1)
			t = (uint32_t)rte_bswap16((uint16_t)t);
		s = fold32(s + t);
		done += n;
	}
	return s;
}

/* 1 when the 20-byte IPv4 header sums to 0xFFFF (checksum valid). */
int
gro_ipv4_hdr_ok(const void *iph)
{
	return fold32(__rte_raw_cksum(iph, 20, 0)) == 0xFFFF;
}

/* Pseudo-header sum: addresses and protocol, plus len (0 for TSO). The IPv6
 * header's own destination is used, as Linux GRO does (ip6_gro_compute_pseudo). */
static uint32_t
phdr_sum_proto(const uint8_t *l3, int v6, uint32_t len, uint8_t proto)
{
	uint32_t s;

	if (v6)
		s = __rte_raw_cksum(l3 + 8, 32, 0);
	else
		s = __rte_raw_cksum(l3 + 12, 8, 0);
	/* protocol and length as 16-bit big-endian words */
	s += rte_cpu_to_be_16(proto);
	s += rte_cpu_to_be_16((uint16_t)len) + rte_cpu_to_be_16((uint16_t)(len >> 16));
	return fold32(s);
}

static inline uint32_t
phdr_sum(const uint8_t *l3, int v6, uint32_t len)
{
	return phdr_sum_proto(l3, v6, len, IPPROTO_TCP);
}

int
tp_gro_tcp_csum_ok(const void *l3, int v6, const void *l4, uint32_t l4_len)
{
	return gro_sum(l4, l4_len, phdr_sum(l3, v6, l4_len)) == 0xFFFF;
}

/* The same for a segment that continues into chained mbufs. */
int
gro_tcp_csum_ok_mbuf(const struct rte_mbuf *m, const uint8_t *l3, int v6,
		     uint32_t l4_off, uint32_t l4_len)
{
	return fold32(phdr_sum(l3, v6, l4_len) + sum_mbuf(m, l4_off, l4_len)) == 0xFFFF;
}

/* The value DPDK TSO expects in the TCP checksum field: the pseudo-header
 * sum without the length, folded, not complemented. */
uint16_t
gro_tcp_phdr_nolen(const uint8_t *l3, int v6)
{
	return (uint16_t)phdr_sum(l3, v6, 0);
}

/* Full TCP checksum (value to store) over the segment at l4_off..+l4_len of
 * m (may be chained), with the checksum field taken as 0 by the caller. */
uint16_t
gro_tcp_csum_full(const uint8_t *l3, int v6, const struct rte_mbuf *m,
		  uint32_t l4_off, uint32_t l4_len)
{
	uint32_t s;

	s = fold32(phdr_sum(l3, v6, l4_len) + sum_mbuf(m, l4_off, l4_len));
	s = (~s) & 0xFFFF;
	return (uint16_t)s;
}

/* The pseudo-header sum without the length for protocol proto (TCP or
 * UDP): what a merged packet carries (tp_gro.h OUTPUT FORMAT). */
uint16_t
gro_phdr_nolen(const uint8_t *l3, int v6, uint8_t proto)
{
	return (uint16_t)phdr_sum_proto(l3, v6, 0, proto);
}

/* 1 when the TCP or UDP checksum over l4_off..+l4_len of m (may be chained)
 * is valid, the pseudo-header length being l4_len (what Linux GRO takes:
 * the bytes received, inet_gro_compute_pseudo / ip6_gro_compute_pseudo). */
int
gro_l4_csum_ok_mbuf(const struct rte_mbuf *m, const uint8_t *l3, int v6, uint8_t proto,
		    uint32_t l4_off, uint32_t l4_len)
{
	uint32_t s = phdr_sum_proto(l3, v6, l4_len, proto);

	if (m->nb_segs == 1)
		return gro_sum(rte_pktmbuf_mtod_offset(m, const uint8_t *, l4_off), l4_len, s) ==
		       0xFFFF;
	return fold32(s + sum_mbuf(m, l4_off, l4_len)) == 0xFFFF;
}

/* The full checksum to store (field taken as 0 by the caller); UDP sends a
 * computed 0 as 0xFFFF (RFC 768: 0 means "no checksum"). */
uint16_t
gro_l4_csum_full(const uint8_t *l3, int v6, uint8_t proto, const struct rte_mbuf *m,
		 uint32_t l4_off, uint32_t l4_len)
{
	uint16_t v;

	v = (uint16_t)~fold32(phdr_sum_proto(l3, v6, l4_len, proto) + sum_mbuf(m, l4_off, l4_len));
	if (proto == IPPROTO_UDP && v == 0)
		v = 0xFFFF;
	return v;
}
