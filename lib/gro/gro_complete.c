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

struct rte_mbuf *
gro_complete(struct tp_gro *g, uint16_t idx, enum tp_gro_flush_reason why)
{
	struct gro_flow *f = &g->flows[idx];
	struct rte_mbuf *h = f->head;
	uint8_t *ip, *th;
	uint16_t csum, l4_len;
	uint64_t ol;

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
	h->pkt_len = f->l2_len + f->ip_len;
	ip = rte_pktmbuf_mtod_offset(h, uint8_t *, f->l2_len);
	th = ip + f->l3_len;
	if (f->v6) {
		uint16_t pl = rte_cpu_to_be_16((uint16_t)(f->ip_len - 40));

		memcpy(ip + 4, &pl, 2);
	} else {
		struct rte_ipv4_hdr *iph = (struct rte_ipv4_hdr *)ip;
		uint16_t old = iph->total_length, new = rte_cpu_to_be_16((uint16_t)f->ip_len);
		uint32_t c;

		/* the head's header checksum was valid (verified or trusted):
		 * update it for the new length, RFC 1624 eqn. 3, as Linux's
		 * inet_gro_complete does with csum_replace2 */
		iph->total_length = new;
		c = (uint16_t)~iph->hdr_checksum + (uint32_t)(uint16_t)~old + new;
		c = (c & 0xFFFF) + (c >> 16);
		c = (c & 0xFFFF) + (c >> 16);
		iph->hdr_checksum = (uint16_t)~c;
	}
	th[13] |= f->psh_fin;
	csum = gro_tcp_phdr_nolen(ip, f->v6);
	memcpy(th + 16, &csum, 2);

	ol = h->ol_flags & ~(RTE_MBUF_F_RX_L4_CKSUM_MASK | RTE_MBUF_F_RX_IP_CKSUM_MASK);
	ol |= RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_NONE;
	if (!f->v6) {
		ol |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
		if (f->id_mode == GRO_ID_FIXED)
			ol |= g->fixedid_flag;
	}
	h->ol_flags = ol;
	h->tso_segsz = f->mss;
	h->l2_len = f->l2_len;
	h->l3_len = f->l3_len;
	h->l4_len = l4_len;
	return h;
}
