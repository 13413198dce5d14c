/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gro_encap.h: the outer headers of a tunnel packet (VXLAN over UDP/IPv4 or
 * UDP/IPv6, IPv4/IPv6 in IPv4/IPv6), in the order Linux GRO reads them:
 *
 *   inet_gro_receive / ipv6_gro_receive (outer IP; net/ipv4/af_inet.c,
 *   net/ipv6/ip6_offload.c) -> udp4/6_gro_receive + udp_gro_receive (outer
 *   UDP of a tunnel socket; net/ipv4/udp_offload.c, net/ipv6/udp_offload.c)
 *   -> vxlan_gro_receive (drivers/net/vxlan/vxlan_core.c) or
 *   geneve_gro_receive (drivers/net/geneve.c) -> eth_gro_receive
 *   (net/ethernet/eth.c) | ipip_gro_receive, sit / ip4ip6 / ip6ip6
 *   gro_receive -> the inner IP and TCP as a plain packet (gro_parse.h).
 *
 * What the outer levels add to the flow key (tkey, compared byte for byte):
 * outer IP protocol and addresses (IPv6: version + flow label, next header,
 * addresses), outer UDP ports and whether the UDP checksum is zero, the
 * whole VXLAN header (flags word and VNI word, vxlan_gro_prepare_receive)
 * or GENEVE header with its options (geneve_gro_receive: opt_len and every
 * header byte; a version other than 0 or the O bit set: not merged),
 * the inner Ethernet header and its in-frame tags. What they add to the
 * flush rules is checked at merge time (gro_merge.c check): outer TTL, TOS,
 * DF and ID, or traffic class and hop limit (gro_receive_network_flush in
 * include/net/gro.h applies inet_gro_flush / ipv6_gro_flush to the outer
 * and the inner header of an encapsulated packet, each with its own
 * fixed-ID bit).
 *
 * One level of encapsulation only (the kernel's encap_mark): a tunnel inside
 * the tunnel is passed through as "not TCP".
 *
 * Refusals and the kernel's order: a packet refused in an outer level is
 * delivered before its flow is looked up (early: it overtakes a held
 * aggregate of its flow in kernel order): outer IPv4 options or fragment,
 * bad outer IPv4 header checksum (always verified, as inet_gro_receive
 * does with ip_fast_csum), bad non-zero outer UDP checksum, truncated
 * tunnel headers, inner EtherType without GRO. An outer IP length that is
 * not the bytes received (or the reserved fragment bit) only marks the
 * packet "flush" (late): the inner TCP lookup still completes its flow,
 * unless a non-zero UDP checksum was left unverified for it, which
 * udp_gro_receive refuses early.
 */
#ifndef TP_GRO_ENCAP_H
#define TP_GRO_ENCAP_H

#include "gro_priv.h"

#define VXLAN_HLEN 8
#define ET_TEB 0x6558          /* Transparent Ethernet Bridging (GENEVE) */
#define UDP_HLEN 8

/* 1 when the 20-byte IPv4 header at ip sums to 0xFFFF (RFC 1071): five
 * 32-bit words folded, inline (the outer header of every tunnel packet). */
static inline int
encap_ipv4_hdr_ok(const uint8_t *ip)
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

/* The outer UDP checksum of a VXLAN packet, when non-zero: the NIC's outer
 * L4 status if it parsed the tunnel (packet_type), else verified in
 * software over the bytes received, as skb_gro_checksum_validate_zero_check
 * does (1 good, 0 bad). */
static inline int
encap_udp_csum_ok(struct tp_gro *g, const struct rte_mbuf *m, const uint8_t *oip, int ov6,
		  uint32_t udp_off)
{
	uint64_t st = m->ol_flags & RTE_MBUF_F_RX_OUTER_L4_CKSUM_MASK;

	if ((m->packet_type & RTE_PTYPE_TUNNEL_MASK) != 0) {
		if (st == RTE_MBUF_F_RX_OUTER_L4_CKSUM_GOOD)
			return 1;
		if (st == RTE_MBUF_F_RX_OUTER_L4_CKSUM_BAD)
			return 0;
	}
	if (g->conf.no_sw_csum) {
		g->st.csum_unverified++;
		return 1;
	}
	g->st.csum_sw_l4++;
	return gro_l4_csum_ok_mbuf(m, oip, ov6, NH_UDP, udp_off, m->pkt_len - udp_off);
}

/* The outer part of the flow key: see the top of this file. Compared byte
 * for byte (lookup) only with held flows whose inner key is equal. */
static inline void
tkey_build(struct gro_pkt *p, const uint8_t *d)
{
	const uint8_t *ip = d + p->o_l3;
	uint8_t *k = p->tkey;
	uint32_t n = 0, w0;

	memcpy(k, &p->o_l3, 2);
	memcpy(k + 2, &p->l2_len, 2);
	k[4] = p->tun;
	k[5] = p->ucsum;
	n = 6;
	if (!p->ov6) {
		k[n++] = ip[9];
		memcpy(k + n, ip + 12, 8);
		n += 8;
	} else {
		w0 = rd32(ip) & 0xF00FFFFFu;
		memcpy(k + n, &w0, 4);
		k[n + 4] = ip[6];
		memcpy(k + n + 5, ip + 8, 32);
		n += 37;
	}
	if (p->tun == GRO_TUN_VXLAN || p->tun == GRO_TUN_GENEVE) {
		/* ports, then the tunnel header (VXLAN flags and VNI; GENEVE
		 * with its options) and the inner MAC header with its tags, all
		 * up to the inner IP header */
		uint32_t udp = p->o_l3 + p->o_hl;

		memcpy(k + n, d + udp, 4);
		memcpy(k + n + 4, d + udp + UDP_HLEN, p->l2_len - udp - UDP_HLEN);
		n += 4 + p->l2_len - udp - UDP_HLEN;
	}
	p->tkey_len = (uint8_t)n;
}

/*
 * A frame whose outer IP header (at l2) carries a tunnel tp_gro merges:
 * parse outer and inner, set p (pass reason, early, key, offsets; p->l2_len
 * is the inner IP header's offset) and return 1. 0: not such a tunnel, the
 * plain parse decides (a UDP datagram to a VXLAN port when VXLAN is off, IP
 * in IP when that is off: "not TCP").
 */
static inline int
parse_encap(struct tp_gro *g, struct gro_pkt *p, const uint8_t *d, uint32_t l2,
	    uint32_t dlen, uint32_t plen, uint16_t et)
{
	const struct rte_mbuf *m = p->m;
	const uint8_t *ip = d + l2;
	uint32_t avail = dlen - l2, frame = plen - l2, ohl, in_off;
	uint8_t proto, opass = GRO_HOLDABLE, late = GRO_HOLDABLE, kind;
	uint16_t inner_et;

	if (et == ET_IPV4) {
		if (avail < 20 || ip[0] != 0x45)
			return 0;
		proto = ip[9];
		ohl = 20;
	} else {
		if (avail < 40 || (ip[0] >> 4) != 6)
			return 0;
		proto = ip[6];          /* no outer extension headers */
		ohl = 40;
	}
	if (proto == NH_UDP) {
		uint16_t dport;

		if (avail < ohl + UDP_HLEN)
			return 0;
		memcpy(&dport, ip + ohl + 2, 2);
		if (g->tun_vxlan && is_vxlan_port(g, dport))
			kind = GRO_TUN_VXLAN;
		else if (g->tun_geneve && dport == RTE_BE16(TP_GRO_GENEVE_PORT))
			kind = GRO_TUN_GENEVE;
		else
			return 0;
	} else if ((proto == NH_IPIP || proto == NH_IPV6) && g->tun_ipip) {
		kind = GRO_TUN_IPIP;
	} else {
		return 0;
	}
	p->tun = kind;
	p->ov6 = et == ET_IPV6;
	p->o_l3 = (uint16_t)l2;
	p->o_hl = (uint8_t)ohl;
	p->early = 1;               /* until the inner parse says otherwise */
	if (et == ET_IPV4) {
		uint16_t fragw = rd16(ip + 6), tot = rd16(ip + 2);

		if (fragw & 0x3FFF) {   /* ip_is_fragment: no GRO at all */
			p->pass = TP_GRO_PASS_IP_FRAG;
			return 1;
		}
		g->st.csum_sw_ip++;
		if ((m->ol_flags & RTE_MBUF_F_RX_OUTER_IP_CKSUM_BAD) || !encap_ipv4_hdr_ok(ip))
			opass = TP_GRO_PASS_BAD_IP_CSUM;
		if (tot != frame)
			late = tot > frame ? TP_GRO_PASS_BAD_LEN : TP_GRO_PASS_TRAILER;
		else if (fragw & 0x8000)
			late = TP_GRO_PASS_IP_HDR;
		p->ol3w = (uint32_t)ip[8] << 16 | (uint32_t)ip[1] << 8 | ((fragw >> 14) & 1);
		p->o_id = rd16(ip + 4);
	} else {
		uint32_t w0 = rd32(ip), pl = rd16(ip + 4);

		if (40 + pl != frame)
			late = 40 + pl > frame ? TP_GRO_PASS_BAD_LEN : TP_GRO_PASS_TRAILER;
		p->ol3w = ((w0 >> 20) & 0xFF) << 8 | ip[7];
	}
	in_off = l2 + ohl;
	if (kind == GRO_TUN_VXLAN || kind == GRO_TUN_GENEVE) {
		const uint8_t *uh = ip + ohl;
		uint32_t i, thl = VXLAN_HLEN;

		p->ucsum = (uh[6] | uh[7]) != 0;
		if (p->ucsum && opass == GRO_HOLDABLE) {
			if (late != GRO_HOLDABLE)
				opass = late;   /* udp_gro_receive: not validated */
			else if (!encap_udp_csum_ok(g, m, ip, p->ov6, in_off))
				opass = TP_GRO_PASS_BAD_UDP_CSUM;
		}
		in_off += UDP_HLEN;
		if (kind == GRO_TUN_GENEVE) {
			/* geneve_gro_receive: version 0, no O bit; its
			 * protocol type says what follows (Ethernet, or IP) */
			if (dlen < in_off + 8) {
				p->pass = plen >= in_off + 8 ? TP_GRO_PASS_HDR_SPLIT :
							       TP_GRO_PASS_TUN_HDR;
				return 1;
			}
			thl = 8u + (d[in_off] & 0x3Fu) * 4;
			inner_et = rd16(d + in_off + 2);
			if ((d[in_off] >> 6) != 0 || (d[in_off + 1] & 0x80) != 0 ||
			    thl > GRO_GENEVE_HMAX ||
			    (inner_et != ET_TEB && inner_et != ET_IPV4 && inner_et != ET_IPV6)) {
				p->pass = TP_GRO_PASS_TUN_HDR;
				return 1;
			}
		}
		in_off += thl;
		if (kind == GRO_TUN_VXLAN || inner_et == ET_TEB)
			in_off += ETH_HLEN;
		if (dlen < in_off) {
			p->pass = plen >= in_off ? TP_GRO_PASS_HDR_SPLIT : TP_GRO_PASS_TUN_HDR;
			return 1;
		}
		if (kind == GRO_TUN_VXLAN || inner_et == ET_TEB)
			inner_et = rd16(d + in_off - 2);
		/* vlan_gro_receive for in-frame tags of the inner frame */
		for (i = 0; i < 2 && (inner_et == ET_8021Q || inner_et == ET_8021AD); i++) {
			in_off += 4;
			if (dlen < in_off) {
				p->pass = plen >= in_off ? TP_GRO_PASS_HDR_SPLIT :
							   TP_GRO_PASS_TUN_HDR;
				return 1;
			}
			inner_et = rd16(d + in_off - 2);
		}
		if (inner_et != ET_IPV4 && inner_et != ET_IPV6) {
			p->pass = TP_GRO_PASS_TUN_HDR;
			return 1;
		}
	} else {
		inner_et = proto == NH_IPIP ? ET_IPV4 : ET_IPV6;
	}
	p->key.flags |= GRO_KF_TUN;
	p->l2_len = (uint16_t)in_off;
	p->want_udp = 0;
	if (inner_et == ET_IPV4)
		parse_ipv4(g, p, d + in_off, dlen - in_off, plen - in_off);
	else
		parse_ipv6(g, p, d + in_off, dlen - in_off, plen - in_off);
	if (p->has_key)
		tkey_build(p, d);
	/* the inner level's refusals: early as for a plain packet */
	p->early = p->pass != GRO_HOLDABLE && kernel_overtakes(p->pass) && !p->late;
	if (opass != GRO_HOLDABLE) {
		p->pass = opass;
		p->early = 1;
	} else if (late != GRO_HOLDABLE &&
		   (p->pass == GRO_HOLDABLE || p->pass == TP_GRO_PASS_BAD_L4_CSUM)) {
		/* flush-marked: tcp4/6_gro_receive skip the checksum and the
		 * lookup completes the held flow */
		p->pass = late;
		p->early = 0;
	}
	return 1;
}

#endif /* TP_GRO_ENCAP_H */
