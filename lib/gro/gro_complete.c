/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Completing an aggregate: the header rewrite Linux does in
 * inet_gro_complete / ipv6_gro_complete / tcp4_gro_complete (docs/ref/gro.md §1.5), with
 * the TCP checksum left as DPDK TSO wants it, and the mbuf metadata for
 * egress (tp_gro.h "OUTPUT FORMAT").
 */
#include <rte_byteorder.h>
#include <rte_ip.h>

#include "gro_priv.h"

#define NH_UDP_PROTO 17

/* RFC 1624 eqn. 3: the IPv4 header checksum after tot_len changed from old
 * to new, as inet_gro_complete's csum_replace2 (the head's header checksum
 * was valid: verified or trusted). */
static void
ipv4_set_len(uint8_t *ip, uint16_t len)
{
	struct rte_ipv4_hdr *iph = (struct rte_ipv4_hdr *)ip;
	uint16_t old = iph->total_length, new = rte_cpu_to_be_16(len);
	uint32_t c;

	iph->total_length = new;
	c = (uint16_t)~iph->hdr_checksum + (uint32_t)(uint16_t)~old + new;
	c = (c & 0xFFFF) + (c >> 16);
	c = (c & 0xFFFF) + (c >> 16);
	iph->hdr_checksum = (uint16_t)~c;
}

static void
ip_set_len(uint8_t *ip, int v6, uint32_t ip_len)
{
	if (v6) {
		uint16_t pl = rte_cpu_to_be_16((uint16_t)(ip_len - 40));

		memcpy(ip + 4, &pl, 2);
	} else {
		ipv4_set_len(ip, (uint16_t)ip_len);
	}
}

/* The outer headers of a merged tunnel packet: outer IP length (and header
 * checksum), outer UDP length and, when non-zero, its checksum as the
 * pseudo-header sum without the length (udp4/6_gro_complete and
 * udp_gro_complete write the length; the checksum as the inner TCP one);
 * the metadata of DPDK's tunnel TSO (outer_l2_len, outer_l3_len, l2_len =
 * outer UDP + VXLAN + inner MAC header, tunnel and outer flags). */
static uint64_t
complete_outer(const struct gro_flow *f, struct rte_mbuf *h)
{
	uint8_t *oip = rte_pktmbuf_mtod_offset(h, uint8_t *, f->o_l3);
	uint32_t olen = f->ip_len;
	uint64_t ol = f->ov6 ? RTE_MBUF_F_TX_OUTER_IPV6 : RTE_MBUF_F_TX_OUTER_IPV4;
	uint32_t ptype = RTE_PTYPE_L2_ETHER |
			 (f->ov6 ? RTE_PTYPE_L3_IPV6 : RTE_PTYPE_L3_IPV4);

	ip_set_len(oip, f->ov6, olen);
	if (f->tun == GRO_TUN_VXLAN || f->tun == GRO_TUN_GENEVE) {
		uint8_t *uh = oip + f->o_hl;
		uint16_t v = rte_cpu_to_be_16((uint16_t)(olen - f->o_hl));

		memcpy(uh + 4, &v, 2);
		if (f->ucsum) {
			v = gro_phdr_nolen(oip, f->ov6, IPPROTO_UDP);
			memcpy(uh + 6, &v, 2);
			ol |= RTE_MBUF_F_TX_OUTER_UDP_CKSUM;
		}
		if (f->tun == GRO_TUN_VXLAN) {
			ol |= RTE_MBUF_F_TX_TUNNEL_VXLAN;
			ptype |= RTE_PTYPE_L4_UDP | RTE_PTYPE_TUNNEL_VXLAN |
				 RTE_PTYPE_INNER_L2_ETHER;
		} else {
			ol |= RTE_MBUF_F_TX_TUNNEL_GENEVE;
			ptype |= RTE_PTYPE_L4_UDP | RTE_PTYPE_TUNNEL_GENEVE;
			if (uh[8 + 2] == 0x65 && uh[8 + 3] == 0x58)    /* Ethernet */
				ptype |= RTE_PTYPE_INNER_L2_ETHER;
		}
	} else {
		ol |= RTE_MBUF_F_TX_TUNNEL_IPIP;
		ptype |= RTE_PTYPE_TUNNEL_IP;
	}
	ptype |= (f->v6 ? RTE_PTYPE_INNER_L3_IPV6 : RTE_PTYPE_INNER_L3_IPV4) |
		 RTE_PTYPE_INNER_L4_TCP;
	h->packet_type = ptype;
	h->outer_l2_len = f->o_l3;
	h->outer_l3_len = f->o_hl;
	h->l2_len = (uint16_t)(f->l2_len - f->o_l3 - f->o_hl);
	return ol;
}

struct rte_mbuf *
gro_complete(struct tp_gro *g, uint16_t idx, enum tp_gro_flush_reason why)
{
	struct gro_flow *f = &g->flows[idx];
	struct rte_mbuf *h = f->head;
	uint8_t *ip, *th;
	uint16_t csum, l4_len;
	uint32_t in_len;
	uint64_t ol;
	int ext;

	gro_flow_unlink(g, idx);
	g->st.flush[why]++;
	g->st.aggregates_out++;
	if (f->segs == 1)
		return h;                    /* untouched, docs/ref/gro.md §1.5 first row */
	g->st.merged_out++;
	g->st.segs_merged += f->segs;

	l4_len = (uint16_t)(f->hdr_len - f->l2_len - f->l3_len);
	h->nb_segs = f->mbufs;
	if (f->head_single)
		h->data_len = (uint16_t)(f->hdr_len + f->mss);  /* drops L2 padding */
	ext = (f->meta & GRO_META_EXT) != 0;
	in_len = ext ? f->ip_len - f->o_extra : f->ip_len;   /* the (inner) IP datagram */
	h->pkt_len = f->l2_len + in_len;
	ip = rte_pktmbuf_mtod_offset(h, uint8_t *, f->l2_len);
	th = ip + f->l3_len;
	ip_set_len(ip, f->v6, in_len);
	if (ext && f->l4p == NH_UDP_PROTO) {
		/* udp_gro_complete_segment: the UDP length of the whole */
		uint16_t ulen = rte_cpu_to_be_16((uint16_t)(in_len - f->l3_len));

		memcpy(th + 4, &ulen, 2);
		csum = gro_phdr_nolen(ip, f->v6, IPPROTO_UDP);
		memcpy(th + 6, &csum, 2);
	} else {
		th[13] |= f->psh_fin;
		csum = gro_tcp_phdr_nolen(ip, f->v6);
		memcpy(th + 16, &csum, 2);
	}

	ol = h->ol_flags & ~(RTE_MBUF_F_RX_L4_CKSUM_MASK | RTE_MBUF_F_RX_IP_CKSUM_MASK);
	ol |= RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_NONE;
	if (!f->v6) {
		ol |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
		if (f->id_mode == GRO_ID_FIXED)
			ol |= g->fixedid_flag;
	}
	h->l2_len = f->l2_len;
	if (!ext) {
		/* plain TCP */
	} else if (f->tun != GRO_TUN_NONE) {
		ol |= complete_outer(f, h);
		if (!f->ov6 && f->o_id_mode == GRO_ID_FIXED)
			ol |= g->ofixedid_flag;
	} else if (f->l4p == NH_UDP_PROTO) {
		h->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L4_UDP |
				 (f->v6 ? RTE_PTYPE_L3_IPV6_EXT_UNKNOWN : RTE_PTYPE_L3_IPV4);
	}
	h->ol_flags = ol;
	h->tso_segsz = f->mss;
	h->l3_len = f->l3_len;
	h->l4_len = l4_len;
	return h;
}
