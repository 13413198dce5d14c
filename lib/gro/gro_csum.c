/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internet checksums for tp_gro: IPv4 header check, TCP checksum
 * verification and the pseudo-header sums used on output (RFC 1071 sums;
 * RFC 793/8200 pseudo-headers).
 */
#include <rte_byteorder.h>
#include <rte_ip.h>

#include "gro_priv.h"

static inline uint32_t
fold32(uint32_t s)
{
	s = (s & 0xFFFF) + (s >> 16);
	s = (s & 0xFFFF) + (s >> 16);
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
phdr_sum(const uint8_t *l3, int v6, uint32_t len)
{
	uint32_t s;

	if (v6)
		s = __rte_raw_cksum(l3 + 8, 32, 0);
	else
		s = __rte_raw_cksum(l3 + 12, 8, 0);
	/* protocol and length as 16-bit big-endian words */
	s += rte_cpu_to_be_16(IPPROTO_TCP);
	s += rte_cpu_to_be_16((uint16_t)len) + rte_cpu_to_be_16((uint16_t)(len >> 16));
	return fold32(s);
}

int
tp_gro_tcp_csum_ok(const void *l3, int v6, const void *l4, uint32_t l4_len)
{
	uint32_t s = phdr_sum(l3, v6, l4_len);

	s = fold32(__rte_raw_cksum(l4, l4_len, s));
	return s == 0xFFFF;
}

/* The same for a segment that continues into chained mbufs. */
int
gro_tcp_csum_ok_mbuf(const struct rte_mbuf *m, const uint8_t *l3, int v6,
		     uint32_t l4_off, uint32_t l4_len)
{
	uint16_t c = 0;

	rte_raw_cksum_mbuf(m, l4_off, l4_len, &c);
	return fold32(phdr_sum(l3, v6, l4_len) + c) == 0xFFFF;
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
	uint16_t c = 0;
	uint32_t s;

	rte_raw_cksum_mbuf(m, l4_off, l4_len, &c);
	s = fold32(phdr_sum(l3, v6, l4_len) + c);
	s = (~s) & 0xFFFF;
	return (uint16_t)s;
}
