/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gro_parse.h: parse one received frame into a struct gro_pkt: L2
 * (in-frame 802.1Q / 802.1ad tags, stripped TCIs, switch port), IPv4 or
 * IPv6 (+ Hop-by-Hop, Routing and Destination Options headers, which Linux
 * pulls in ipv6_gso_pull_exthdrs), TCP; and decide whether it may be held
 * at all (docs/ref/gro.md §1.2). Every read is bounds-checked against the first segment.
 * Inline: gro_merge.c's burst loop is its only user.
 */
#ifndef TP_GRO_PARSE_H
#define TP_GRO_PARSE_H

#include <rte_byteorder.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_mbuf_dyn.h>
#include <rte_vect.h>

#include "gro_priv.h"
#include "gro_dsa.h"

#define ETH_HLEN 14
#define ET_IPV4 0x0800
#define ET_IPV6 0x86DD
#define ET_8021Q 0x8100
#define ET_8021AD 0x88A8
#define NH_HOP 0
#define NH_IPIP 4
#define NH_TCP 6
#define NH_UDP 17
#define NH_IPV6 41
#define NH_ROUTING 43
#define NH_FRAG 44
#define NH_DSTOPTS 60

/* Big-endian loads at any alignment. */
static inline uint16_t
rd16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return rte_be_to_cpu_16(v);
}

static inline uint32_t
rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return rte_be_to_cpu_32(v);
}

/* Bucket hash when the NIC gave none: CRC32 over the IP addresses, read
 * from the frame (not from the key just written byte by byte, which would
 * stall store forwarding), and the ports. */
/* CRC32-C steps of sw_hash: the instruction itself where the build targets
 * SSE4.2 (rte_hash_crc_*byte asks a run-time variable which to use on every
 * call), else DPDK's. Either gives the same CRC, so the full parse and the
 * fast path always agree on the bucket. */
#if defined(RTE_ARCH_X86) && defined(__SSE4_2__)
#define gro_crc64(w, h) ((uint32_t)_mm_crc32_u64((h), (w)))
#define gro_crc32(w, h) _mm_crc32_u32((h), (w))
#else
#define gro_crc64(w, h) rte_hash_crc_8byte((w), (h))
#define gro_crc32(w, h) rte_hash_crc_4byte((w), (h))
#endif

static __rte_always_inline uint32_t
sw_hash(const uint8_t *ip, int v6, uint32_t ports)
{
	uint64_t w[4];
	uint32_t h;

	if (v6) {
		memcpy(w, ip + 8, 32);
		h = gro_crc64(w[0], 0x7467726fu);
		h = gro_crc64(w[1], h);
		h = gro_crc64(w[2], h);
		h = gro_crc64(w[3], h);
	} else {
		memcpy(w, ip + 12, 8);
		h = gro_crc64(w[0], 0x7467726fu);
	}
	return gro_crc32(ports, h);
}

/* Checksum status from the NIC: 1 good, 0 bad, -1 unknown. NONE means the
 * field is not a checksum but the data was verified: good. */
static inline int
ip_csum_state(uint64_t ol)
{
	uint64_t v = ol & RTE_MBUF_F_RX_IP_CKSUM_MASK;

	if (v == RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN)
		return -1;
	return v != RTE_MBUF_F_RX_IP_CKSUM_BAD;
}

static inline int
l4_csum_state(uint64_t ol)
{
	uint64_t v = ol & RTE_MBUF_F_RX_L4_CKSUM_MASK;

	if (v == RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN)
		return -1;
	return v != RTE_MBUF_F_RX_L4_CKSUM_BAD;
}

/* 1 when the NIC's status says every checksum GRO needs is good (the common
 * case: nothing to verify or count). */
static inline int
csum_state_trusted(uint64_t ol, int v6)
{
	return l4_csum_state(ol) > 0 && (v6 || ip_csum_state(ol) > 0);
}

/* Checksum verdict of a segment whose headers are known: GRO_HOLDABLE, or
 * the reason it must pass through. NIC status GOOD/NONE is trusted, BAD is
 * not, UNKNOWN is verified in software (or trusted with conf.no_sw_csum),
 * and counted either way. Shared by the parse and the fast path. */
static inline uint8_t
csum_verdict_x(struct tp_gro *g, const struct rte_mbuf *m, uint64_t ol, const uint8_t *l3,
	       int v6, uint8_t proto, uint32_t l4_off, uint32_t l4_len)
{
	struct tp_gro_stats *st = &g->st;
	int s;

	if (!v6) {
		s = ip_csum_state(ol);
		if (s < 0) {
			if (g->conf.no_sw_csum) {
				st->csum_unverified++;
			} else {
				st->csum_sw_ip++;
				s = gro_ipv4_hdr_ok(l3);
			}
		}
		if (s == 0)
			return TP_GRO_PASS_BAD_IP_CSUM;
	}
	s = l4_csum_state(ol);
	if (s < 0) {
		if (g->conf.no_sw_csum) {
			st->csum_unverified++;
		} else {
			st->csum_sw_l4++;
			s = proto == NH_TCP && m->nb_segs == 1 ?
			    tp_gro_tcp_csum_ok(l3, v6, rte_pktmbuf_mtod_offset(m, const uint8_t *,
									 l4_off), l4_len) :
			    gro_l4_csum_ok_mbuf(m, l3, v6, proto, l4_off, l4_len);
		}
	}
	if (s == 0)
		return proto == NH_TCP ? TP_GRO_PASS_BAD_L4_CSUM : TP_GRO_PASS_BAD_UDP_CSUM;
	return GRO_HOLDABLE;
}

static inline uint8_t
csum_verdict(struct tp_gro *g, const struct rte_mbuf *m, const uint8_t *l3,
	     const uint8_t *th, int v6, uint32_t l4_off, uint32_t l4_len)
{
	(void)th;
	return csum_verdict_x(g, m, m->ol_flags, l3, v6, NH_TCP, l4_off, l4_len);
}

/* The checksum status bits that describe this level of p: a tunnel's inner
 * headers are described by the RX flags only when the NIC parsed the tunnel
 * (packet_type says so); else nothing is known (verified in software). */
static inline uint64_t
inner_ol(const struct gro_pkt *p)
{
	if (p->tun != GRO_TUN_NONE && !(p->m->packet_type & RTE_PTYPE_TUNNEL_MASK))
		return 0;
	return p->m->ol_flags;
}

/* UDP GRO's checks (udp4/6_gro_receive, udp_gro_receive_segment in
 * net/ipv4/udp_offload.c): checksum valid and non-zero, UDP length = the
 * bytes received, payload. Every refusal there comes before the flow
 * lookup: in kernel order such a packet overtakes its held flow. */
static inline void
finish_udp(struct tp_gro *g, struct gro_pkt *p, const uint8_t *l3, const uint8_t *uh)
{
	const struct rte_mbuf *m = p->m;
	uint32_t l4_off = p->l2_len + p->l3_len, ulen = rd16(uh + 4);

	p->early = 1;
	if (p->l2_len + p->ip_len != m->pkt_len) {
		p->pass = TP_GRO_PASS_TRAILER;
		return;
	}
	if (uh[6] == 0 && uh[7] == 0) {
		p->pass = TP_GRO_PASS_UDP_CSUM0;
		return;
	}
	if (ulen != p->ip_len - p->l3_len) {
		p->pass = TP_GRO_PASS_BAD_LEN;
		return;
	}
	if (p->paylen == 0) {
		p->pass = TP_GRO_PASS_ZERO_PAYLOAD;
		return;
	}
	if (unlikely(m->ol_flags & RTE_MBUF_F_RX_LRO))
		return;
	p->pass = csum_verdict_x(g, m, m->ol_flags, l3, p->v6, NH_UDP, l4_off, ulen);
	if (p->pass == GRO_HOLDABLE)
		p->early = 0;
}

/* The remaining holdability checks once headers are known. */
static inline void
finish(struct tp_gro *g, struct gro_pkt *p, const uint8_t *l3,
       const uint8_t *th)
{
	if (p->l4p == NH_UDP) {
		finish_udp(g, p, l3, th);
		return;
	}
	if (p->tcpw & (GRO_TCPW_URG | GRO_TCPW_RST | GRO_TCPW_SYN)) {
		p->pass = TP_GRO_PASS_TCP_FLAGS;
		return;
	}
	if (p->paylen == 0) {
		p->pass = TP_GRO_PASS_ZERO_PAYLOAD;
		return;
	}
	if (unlikely(p->m->ol_flags & RTE_MBUF_F_RX_LRO))
		return;    /* not held (gro_parse): no checksum to verify */
	p->pass = csum_verdict_x(g, p->m, inner_ol(p), l3, p->v6, NH_TCP, p->l2_len + p->l3_len,
				 p->ip_len - p->l3_len);
}

/* Bytes after the IP datagram: Ethernet padding of a frame shorter than
 * the 60-byte minimum is trimmed on merge (docs/ref/gro.md §3.2 case 3, data_lrg_1byte);
 * any other trailer makes the IP length differ from what was received, and
 * Linux does not merge such a packet (inet_gro_receive / ipv6_gro_receive
 * length check, §1.2). Padding is only trimmed in single-mbuf frames. */
static inline int
trailer(struct gro_pkt *p, uint32_t frame)
{
	if (p->ip_len == frame ||
	    (p->l2_len + p->ip_len < 60 && p->m->nb_segs == 1))
		return 0;
	p->pass = TP_GRO_PASS_TRAILER;
	p->early = p->l4p == NH_UDP;   /* udp_gro_receive_segment: length */
	return 1;
}

/* The first mbuf is shorter than a header that needs `need` bytes from
 * here: the frame is truncated, or its headers span mbufs (then it cannot
 * be parsed in place and is passed through). */
static inline void
short_hdr(struct gro_pkt *p, uint32_t need, uint32_t frame)
{
	p->pass = need <= frame ? TP_GRO_PASS_HDR_SPLIT : TP_GRO_PASS_BAD_LEN;
}

/* TCP header at l3 + l3_len; ip_len already known. Returns 0 when the key
 * could be completed. */
static inline int
is_vxlan_port(const struct tp_gro *g, uint16_t port_be)
{
	uint32_t i;

	for (i = 0; i < g->nb_vxlan_ports; i++)
		if (g->vxlan_ports[i] == port_be)
			return 1;
	return 0;
}

/* UDP header of a datagram UDP GRO may merge (p->want_udp). A datagram to a
 * tunnel port is never merged as UDP (udp_gro_receive takes the tunnel
 * path there). */
static inline int
parse_udp(struct tp_gro *g, struct gro_pkt *p, const uint8_t *l3, uint32_t avail,
	  uint32_t frame)
{
	const uint8_t *uh = l3 + p->l3_len;
	uint16_t dport;

	if (p->ip_len < (uint32_t)p->l3_len + 8) {
		p->pass = TP_GRO_PASS_BAD_LEN;
		return -1;
	}
	if (avail < (uint32_t)p->l3_len + 8) {
		short_hdr(p, p->l3_len + 8u, frame);
		return -1;
	}
	memcpy(&dport, uh + 2, 2);
	if (is_vxlan_port(g, dport) ||
	    (g->tun_geneve && dport == RTE_BE16(TP_GRO_GENEVE_PORT))) {
		p->pass = TP_GRO_PASS_NOT_TCP;
		return -1;
	}
	memcpy(&p->key.ports, uh, 4);
	p->key.flags |= GRO_KF_UDP;
	p->l4p = NH_UDP;
	p->l4_len = 8;
	p->paylen = (uint16_t)(p->ip_len - p->l3_len - 8);
	p->opts = uh;
	p->has_key = 1;
	return 0;
}

static inline int
parse_tcp(struct tp_gro *g, struct gro_pkt *p, const uint8_t *l3, uint32_t avail,
	  uint32_t frame, uint8_t proto)
{
	const uint8_t *th = l3 + p->l3_len;
	uint32_t doff;

	if (proto == NH_UDP)
		return parse_udp(g, p, l3, avail, frame);
	if (p->ip_len < (uint32_t)p->l3_len + 20) {
		p->pass = TP_GRO_PASS_BAD_LEN;
		return -1;
	}
	if (avail < (uint32_t)p->l3_len + 20) {
		short_hdr(p, p->l3_len + 20u, frame);
		return -1;
	}
	doff = (uint32_t)(th[12] >> 4) * 4;
	if (doff < 20 || p->ip_len < p->l3_len + doff) {
		p->pass = TP_GRO_PASS_BAD_LEN;
		return -1;
	}
	if (avail < p->l3_len + doff) {
		short_hdr(p, p->l3_len + doff, frame);
		return -1;
	}
	memcpy(&p->key.ports, th, 4);
	p->l4_len = (uint16_t)doff;
	p->optlen = (uint8_t)(doff - 20);
	p->opts = th + 20;
	p->paylen = (uint16_t)(p->ip_len - p->l3_len - doff);
	p->seq = rd32(th + 4);
	p->ack = rd32(th + 8);
	p->tcpw = rd32(th + 12);
	p->has_key = 1;
	return 0;
}

static inline void
parse_ipv4(struct tp_gro *g, struct gro_pkt *p, const uint8_t *ip,
	   uint32_t avail, uint32_t frame)
{
	uint32_t ihl, tot;
	uint16_t fragw;

	if (avail < 20) {
		short_hdr(p, 20, frame);
		return;
	}
	if ((ip[0] >> 4) != 4 || (ip[0] & 0xF) < 5) {
		p->pass = TP_GRO_PASS_IP_HDR;
		return;
	}
	ihl = (uint32_t)(ip[0] & 0xF) * 4;
	tot = rd16(ip + 2);
	if (tot < ihl || tot > frame) {
		p->pass = TP_GRO_PASS_BAD_LEN;
		return;
	}
	if (avail < ihl) {
		short_hdr(p, ihl, frame);
		return;
	}
	if (ip[9] != NH_TCP && !(ip[9] == NH_UDP && p->want_udp)) {
		p->pass = TP_GRO_PASS_NOT_TCP;
		return;
	}
	fragw = rd16(ip + 6);
	if (fragw & 0x1FFF) {                /* non-first fragment: no TCP header */
		p->pass = TP_GRO_PASS_IP_FRAG;
		return;
	}
	memcpy(p->key.src, ip + 12, 4);
	memcpy(p->key.dst, ip + 16, 4);
	p->l3_len = (uint16_t)ihl;
	p->ip_len = tot;
	p->ip_id = rd16(ip + 4);
	p->l3w = (uint32_t)ip[8] << 16 | (uint32_t)ip[1] << 8 | ((fragw >> 14) & 1);
	if (parse_tcp(g, p, ip, avail, frame, ip[9]) < 0)
		return;
	/* docs/ref/gro.md §1.2: IHL != 5, MF, reserved bit: never held. The
	 * first two are refused before the flow lookup; the reserved bit only
	 * sets inet_gro_receive's flush word (id & ~IP_DF), so Linux looks the
	 * flow up and completes its held aggregate first (late). */
	if (ihl != 20) {
		p->pass = TP_GRO_PASS_IP_OPTS;
		return;
	}
	if (fragw & 0x2000) {
		p->pass = TP_GRO_PASS_IP_FRAG;
		return;
	}
	if (fragw & 0x8000) {
		p->pass = TP_GRO_PASS_IP_HDR;
		p->late = 1;
		return;
	}
	if (trailer(p, frame))
		return;
	finish(g, p, ip, ip + ihl);
}

static inline void
parse_ipv6(struct tp_gro *g, struct gro_pkt *p, const uint8_t *ip,
	   uint32_t avail, uint32_t frame)
{
	uint32_t w0, pl, off = 40, last = 0;
	uint8_t nh;

	if (avail < 40) {
		short_hdr(p, 40, frame);
		return;
	}
	w0 = rd32(ip);
	if ((w0 >> 28) != 6) {
		p->pass = TP_GRO_PASS_IP_HDR;
		return;
	}
	pl = rd16(ip + 4);
	if (pl == 0 || 40 + pl > frame) {    /* 0: jumbogram, not handled */
		p->pass = TP_GRO_PASS_BAD_LEN;
		return;
	}
	nh = ip[6];
	p->key.ext_first = nh;
	while (nh == NH_HOP || nh == NH_ROUTING || nh == NH_DSTOPTS) {
		uint32_t hl;

		if (40 + pl < off + 8) {
			p->pass = TP_GRO_PASS_BAD_LEN;
			return;
		}
		if (avail < off + 8) {
			short_hdr(p, off + 8, frame);
			return;
		}
		hl = ((uint32_t)ip[off + 1] + 1) * 8;
		if (40 + pl < off + hl) {
			p->pass = TP_GRO_PASS_BAD_LEN;
			return;
		}
		if (avail < off + hl) {
			short_hdr(p, off + hl, frame);
			return;
		}
		nh = ip[off];
		last = off;
		off += hl;
		if (off - 40 > GRO_EXT_MAX) {
			p->pass = TP_GRO_PASS_IP_HDR;
			return;
		}
	}
	if (nh != NH_TCP && nh != NH_FRAG && !(nh == NH_UDP && p->want_udp)) {
		p->pass = TP_GRO_PASS_NOT_TCP;
		return;
	}
	p->v6 = 1;
	p->key.flags |= GRO_KF_V6;
	p->key.v6w0 = rte_cpu_to_be_32(w0 & 0xF00FFFFFu);
	memcpy(p->key.src, ip + 8, 16);
	memcpy(p->key.dst, ip + 24, 16);
	p->key.ext_len = (uint8_t)(off - 40);
	if (off > 40)
		p->key.ext_sum = (uint16_t)rte_raw_cksum(ip + 40, off - 40);
	if (nh == NH_FRAG) {
		/* never merged (docs/ref/gro.md §1.2); a first fragment carrying TCP still
		 * gets its flow's key, as if the fragment header were not there
		 * (the next-header byte before it reads as TCP), so the held
		 * aggregate of that flow leaves before it */
		p->pass = TP_GRO_PASS_IP_FRAG;
		if (avail >= off + 8 + 4 && 40 + pl >= off + 8 + 4 &&
		    ip[off] == NH_TCP && (rd16(ip + off + 2) & 0xFFF8) == 0) {
			if (off == 40) {
				p->key.ext_first = NH_TCP;
			} else {
				uint8_t tmp[GRO_EXT_MAX];

				memcpy(tmp, ip + 40, off - 40);
				tmp[last - 40] = NH_TCP;
				p->key.ext_sum = (uint16_t)rte_raw_cksum(tmp, off - 40);
				p->ext_patch = (uint16_t)(last - 40);
			}
			memcpy(&p->key.ports, ip + off + 8, 4);
			p->has_key = 1;
		}
		return;
	}
	p->l3_len = (uint16_t)off;
	p->ip_len = 40 + pl;
	p->ip_id = 0;
	p->l3w = ((w0 >> 20) & 0xFF) << 8 | ip[7];
	if (parse_tcp(g, p, ip, avail, frame, nh) < 0)
		return;
	if (trailer(p, frame))
		return;
	finish(g, p, ip, ip + off);
}

/* Refused by Linux before its TCP flow lookup (inet_gro_receive,
 * ipv6_gro_receive, the checksum check of tcp4/6_gro_receive): in kernel
 * order such a packet overtakes its flow's held aggregate. An ip_header
 * pass marked late (the IPv4 reserved bit) does not. */
static inline int
kernel_overtakes(uint8_t reason)
{
	return reason == TP_GRO_PASS_BAD_L4_CSUM || reason == TP_GRO_PASS_BAD_IP_CSUM ||
	       reason == TP_GRO_PASS_IP_OPTS || reason == TP_GRO_PASS_IP_FRAG ||
	       reason == TP_GRO_PASS_IP_HDR;
}

#include "gro_encap.h"

static inline void
gro_parse(struct tp_gro *g, struct gro_pkt *p, struct rte_mbuf *m)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t dlen = m->data_len, l2 = ETH_HLEN;
	uint16_t et;
	int i;

	memset(&p->key, 0, sizeof(p->key));
	p->m = m;
	p->has_key = 0;
	p->v6 = 0;
	p->optlen = 0;
	p->paylen = 0;
	p->ext_patch = GRO_NIL;
	p->l4p = NH_TCP;
	p->want_udp = g->udp;
	p->early = 0;
	p->late = 0;
	p->tun = GRO_TUN_NONE;
	p->ov6 = 0;
	p->ucsum = 0;
	p->tkey_len = 0;
	p->o_l3 = 0;
	p->o_hl = 0;
	p->o_id = 0;
	p->ol3w = 0;
	if (dlen < ETH_HLEN) {
		p->pass = m->pkt_len >= ETH_HLEN ? TP_GRO_PASS_HDR_SPLIT : TP_GRO_PASS_NOT_IP;
		return;
	}
	et = rd16(d + 12);
	/* in-frame tags are part of the compared MAC header (vlan_gro_receive) */
	for (i = 0; i < 2 && (et == ET_8021Q || et == ET_8021AD); i++) {
		if (dlen < l2 + 4) {
			p->pass = m->pkt_len >= l2 + 4 ? TP_GRO_PASS_HDR_SPLIT :
							 TP_GRO_PASS_NOT_IP;
			return;
		}
		et = rd16(d + l2 + 2);
		l2 += 4;
	}
	if (et != ET_IPV4 && et != ET_IPV6) {
		p->pass = TP_GRO_PASS_NOT_IP;
		return;
	}
	memcpy(p->key.l2, d, l2);
	p->key.l2_len = (uint8_t)l2;
	p->l2_len = (uint16_t)l2;
	if (m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED) {
		p->key.flags |= GRO_KF_VLAN;
		p->key.vlan_tci = m->vlan_tci;
	}
	if (m->ol_flags & RTE_MBUF_F_RX_QINQ_STRIPPED) {
		p->key.flags |= GRO_KF_QINQ;
		p->key.vlan_tci_outer = m->vlan_tci_outer;
	}
	if (g->dsa_off >= 0)
		gro_dsa_key(m, g->dsa_off, &p->key);
	if (unlikely(g->encap) && parse_encap(g, p, d, l2, dlen, m->pkt_len, et)) {
		/* p->early set by parse_encap */
	} else {
		if (et == ET_IPV4)
			parse_ipv4(g, p, d + l2, dlen - l2, m->pkt_len - l2);
		else
			parse_ipv6(g, p, d + l2, dlen - l2, m->pkt_len - l2);
		/* UDP GRO refuses every packet before its flow lookup */
		p->early = p->pass != GRO_HOLDABLE &&
			   (p->l4p == NH_UDP || (kernel_overtakes(p->pass) && !p->late));
	}
	if (p->has_key)
		p->hash = (m->ol_flags & RTE_MBUF_F_RX_RSS_HASH) ? m->hash.rss :
			  g->kernel ? 0 :    /* an skb without a hash */
			  sw_hash(d + p->l2_len, p->key.flags & GRO_KF_V6, p->key.ports);
	/* A packet the NIC merged (LRO) is not merged again, but it is parsed:
	 * Linux gives such an skb (skb_is_gso) GRO's flush flag, so the held
	 * aggregate of its flow completes before it (dev_gro_receive,
	 * net/core/gro.c) and the flow stays in order. */
	if (unlikely(m->ol_flags & RTE_MBUF_F_RX_LRO))
		p->pass = TP_GRO_PASS_LRO;
}

#endif /* TP_GRO_PARSE_H */
