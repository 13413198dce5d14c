/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_gro_segment: software GSO for packets from tp_gro, the inverse of the
 * merge (Linux tcp_gso_segment + inet/ipv6 gso_segment facts, docs/ref/gro.md §1.5):
 * every segment gets the merged headers with its own sequence number,
 * lengths, IPv4 ID (incrementing, or fixed with TP_GRO_DYNFLAG_FIXEDID),
 * PSH/FIN only on the last, and complete IPv4 header and TCP checksums --
 * or, when the caller asked for TCP checksum offload on the aggregate
 * (RTE_MBUF_F_TX_TCP_CKSUM, plain TCP), the pseudo-header checksum the NIC
 * completes (DPDK's TX checksum contract, rte_mbuf_core.h: the L4 checksum
 * field holds the pseudo-header sum, rte_ipv4_phdr_cksum/rte_ipv6_phdr_cksum),
 * which spares the forwarding core a pass over every payload byte.
 */
#include <errno.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "gro_priv.h"

struct seg_ctx {
	const struct rte_mbuf *src;   /* metadata source (the merged head) */
	uint16_t l2, l3, l4, hdr, mss; /* l2: the (inner) IP header's offset */
	uint8_t udp;                  /* UDP GSO: l4 is a UDP header */
	uint8_t tun;                  /* RTE_MBUF_F_TX_TUNNEL_VXLAN or _IPIP seen */
	uint8_t vxlan;
	uint8_t ov6;
	uint8_t ucsum;                /* outer UDP checksum wanted */
	uint8_t ofixed;
	uint8_t csum_off;             /* TCP checksum left to the NIC */
	uint16_t ol3, ohl;            /* outer IP offset and header length */
	uint16_t oid0;
	uint32_t seq0;
	uint16_t id0;
	int v6;
	int fixed;
	uint32_t nseg;
	uint32_t pay;
};

static void
copy_meta(struct rte_mbuf *d, const struct seg_ctx *c, uint64_t fixedid)
{
	const struct rte_mbuf *s = c->src;
	uint64_t ol = s->ol_flags & ~(RTE_MBUF_F_RX_LRO | fixedid |
				       RTE_MBUF_F_RX_L4_CKSUM_MASK |
				       RTE_MBUF_F_TX_OUTER_UDP_CKSUM);

	/* a checksum asked of the NIC where we could not leave it to it
	 * (UDP, tunnels, IPv6 extension headers) was computed here */
	if (!c->csum_off)
		ol &= ~RTE_MBUF_F_TX_L4_MASK;

	d->ol_flags = ol | RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	d->vlan_tci = s->vlan_tci;
	d->vlan_tci_outer = s->vlan_tci_outer;
	d->port = s->port;
	d->hash = s->hash;
	d->packet_type = s->packet_type;
	d->tx_offload = 0;
	d->l2_len = c->l2;
	d->l3_len = c->l3;
	d->l4_len = c->l4;
	if (c->tun) {             /* the tunnel described as on the aggregate */
		d->outer_l2_len = c->ol3;
		d->outer_l3_len = c->ohl;
		d->l2_len = (uint16_t)(c->l2 - c->ol3 - c->ohl);
	}
	rte_mbuf_dynfield_copy(d, s);
}

static void
ipv4_fix(uint8_t *ip, uint16_t len, uint16_t id)
{
	struct rte_ipv4_hdr *iph = (struct rte_ipv4_hdr *)ip;

	iph->total_length = rte_cpu_to_be_16(len);
	iph->packet_id = rte_cpu_to_be_16(id);
	iph->hdr_checksum = 0;
	iph->hdr_checksum = rte_ipv4_cksum(iph);
}

/* Headers of segment i (already holding a copy of the merged headers and
 * its len payload bytes, single mbuf) made right: inner IP and L4 first,
 * then the outer headers, whose UDP checksum covers the inner ones. */
static void
fix_headers(struct rte_mbuf *s, const struct seg_ctx *c, uint32_t i, uint32_t len)
{
	uint8_t *ip = rte_pktmbuf_mtod_offset(s, uint8_t *, c->l2);
	uint8_t *th = ip + c->l3;
	uint32_t ip_len = (uint32_t)c->l3 + c->l4 + len;
	uint16_t v;

	if (c->v6) {
		v = rte_cpu_to_be_16((uint16_t)(ip_len - 40));
		memcpy(ip + 4, &v, 2);
	} else {
		ipv4_fix(ip, (uint16_t)ip_len, (uint16_t)(c->id0 + (c->fixed ? 0 : i)));
	}
	if (c->udp) {
		v = rte_cpu_to_be_16((uint16_t)(c->l4 + len));
		memcpy(th + 4, &v, 2);
		th[6] = 0;
		th[7] = 0;
		v = gro_l4_csum_full(ip, c->v6, IPPROTO_UDP, s, (uint32_t)c->l2 + c->l3,
				     c->l4 + len);
		memcpy(th + 6, &v, 2);
	} else {
		uint32_t seq = rte_cpu_to_be_32(c->seq0 + i * c->mss);

		memcpy(th + 4, &seq, 4);
		if (i + 1 < c->nseg)
			th[13] &= (uint8_t)~0x09;        /* PSH, FIN: last segment only */
		th[16] = 0;
		th[17] = 0;
		if (c->csum_off)   /* with the length: no TCP_SEG flag */
			v = c->v6 ? rte_ipv6_phdr_cksum((const struct rte_ipv6_hdr *)ip, 0) :
				    rte_ipv4_phdr_cksum((const struct rte_ipv4_hdr *)ip, 0);
		else
			v = gro_tcp_csum_full(ip, c->v6, s, (uint32_t)c->l2 + c->l3,
					      c->l4 + len);
		memcpy(th + 16, &v, 2);
	}
	if (c->tun) {
		uint8_t *oip = rte_pktmbuf_mtod_offset(s, uint8_t *, c->ol3);
		uint32_t olen = (uint32_t)c->l2 - c->ol3 + ip_len;

		if (c->ov6) {
			v = rte_cpu_to_be_16((uint16_t)(olen - 40));
			memcpy(oip + 4, &v, 2);
		} else {
			ipv4_fix(oip, (uint16_t)olen, (uint16_t)(c->oid0 + (c->ofixed ? 0 : i)));
		}
		if (c->vxlan) {
			uint8_t *uh = oip + c->ohl;

			v = rte_cpu_to_be_16((uint16_t)(olen - c->ohl));
			memcpy(uh + 4, &v, 2);
			uh[6] = 0;
			uh[7] = 0;
			if (c->ucsum) {
				v = gro_l4_csum_full(oip, c->ov6, IPPROTO_UDP, s,
						     (uint32_t)c->ol3 + c->ohl, olen - c->ohl);
				memcpy(uh + 6, &v, 2);
			}
		}
	}
}

/* Does m have exactly the layout tp_gro builds (one segment per mbuf)? */
static int
in_place_ok(const struct rte_mbuf *m, const struct seg_ctx *c)
{
	const struct rte_mbuf *s;
	uint32_t i = 1;

	if (m->nb_segs != c->nseg || m->data_len != c->hdr + c->mss ||
	    rte_mbuf_refcnt_read(m) != 1 || !RTE_MBUF_DIRECT(m))
		return 0;
	for (s = m->next; s != NULL; s = s->next, i++) {
		uint32_t want = i + 1 < c->nseg ? c->mss : c->pay - i * c->mss;

		if (s->data_len != want || rte_pktmbuf_headroom(s) < c->hdr ||
		    rte_mbuf_refcnt_read(s) != 1 || !RTE_MBUF_DIRECT(s))
			return 0;
	}
	return i == c->nseg;
}

static int
seg_in_place(struct rte_mbuf *m, const struct seg_ctx *c, struct rte_mbuf **out,
	     uint64_t fixedid)
{
	const uint8_t *hdr = rte_pktmbuf_mtod(m, const uint8_t *);
	struct rte_mbuf *s = m->next, *nx;
	uint32_t i;

	for (i = 1; s != NULL; i++, s = nx) {
		uint32_t len = s->data_len;

		nx = s->next;
		s->next = NULL;
		s->nb_segs = 1;
		s->data_off = (uint16_t)(s->data_off - c->hdr);
		s->data_len = (uint16_t)(len + c->hdr);
		s->pkt_len = s->data_len;
		memcpy(rte_pktmbuf_mtod(s, uint8_t *), hdr, c->hdr);
		copy_meta(s, c, fixedid);
		fix_headers(s, c, i, len);
		out[i] = s;
	}
	m->next = NULL;
	m->nb_segs = 1;
	m->pkt_len = m->data_len;
	copy_meta(m, c, fixedid);     /* self copy: clears LRO, sets lengths */
	fix_headers(m, c, 0, c->mss);
	out[0] = m;
	return (int)c->nseg;
}

static int
seg_copy(struct rte_mbuf *m, const struct seg_ctx *c, struct rte_mbuf **out,
	 struct rte_mempool *pool, uint64_t fixedid)
{
	uint32_t i;

	if (pool == NULL)
		return -EINVAL;
	if (rte_pktmbuf_alloc_bulk(pool, out, c->nseg) != 0)
		return -ENOMEM;
	if (rte_pktmbuf_tailroom(out[0]) < (uint32_t)c->hdr + c->mss) {
		for (i = 0; i < c->nseg; i++)
			rte_pktmbuf_free(out[i]);
		return -EINVAL;
	}
	for (i = 0; i < c->nseg; i++) {
		struct rte_mbuf *s = out[i];
		uint32_t len = i + 1 < c->nseg ? c->mss : c->pay - i * c->mss;
		uint8_t *d = (uint8_t *)rte_pktmbuf_append(s, (uint16_t)(c->hdr + len));
		const void *p;

		memcpy(d, rte_pktmbuf_mtod(m, const uint8_t *), c->hdr);
		p = rte_pktmbuf_read(m, c->hdr + i * c->mss, len, d + c->hdr);
		if (p != d + c->hdr)
			memcpy(d + c->hdr, p, len);
		copy_meta(s, c, fixedid);
		fix_headers(s, c, i, len);
	}
	rte_pktmbuf_free(m);
	return (int)c->nseg;
}

int
tp_gro_segment(struct rte_mbuf *m, struct rte_mbuf **out, uint16_t max,
	       struct rte_mempool *pool)
{
	/* the dynflag's bit, looked up once; any lcore may be first, so the
	 * cache is read and written atomically (every writer stores the
	 * same value) */
	static uint64_t fixedid_cache, ofixedid_cache;
	uint64_t fixedid, ofixedid, tun;
	struct seg_ctx c;
	const uint8_t *ip, *th;

	if (max == 0)
		return -ENOSPC;
	if (!(m->ol_flags & RTE_MBUF_F_RX_LRO) || m->tso_segsz == 0) {
		out[0] = m;
		return 1;
	}
	fixedid = __atomic_load_n(&fixedid_cache, __ATOMIC_RELAXED);
	ofixedid = __atomic_load_n(&ofixedid_cache, __ATOMIC_RELAXED);
	if (fixedid == 0 || ofixedid == 0) {
		fixedid = gro_fixedid_flag();
		ofixedid = gro_ofixedid_flag();
		__atomic_store_n(&fixedid_cache, fixedid, __ATOMIC_RELAXED);
		__atomic_store_n(&ofixedid_cache, ofixedid, __ATOMIC_RELAXED);
	}
	memset(&c, 0, sizeof(c));
	c.src = m;
	c.l2 = m->l2_len;
	c.l3 = m->l3_len;
	c.l4 = m->l4_len;
	c.mss = m->tso_segsz;
	c.udp = (m->packet_type & RTE_PTYPE_L4_MASK) == RTE_PTYPE_L4_UDP &&
		!(m->ol_flags & RTE_MBUF_F_TX_TUNNEL_MASK);
	tun = m->ol_flags & RTE_MBUF_F_TX_TUNNEL_MASK;
	if (tun != 0) {
		const uint8_t *oip;

		if (tun != RTE_MBUF_F_TX_TUNNEL_VXLAN && tun != RTE_MBUF_F_TX_TUNNEL_IPIP &&
		    tun != RTE_MBUF_F_TX_TUNNEL_GENEVE)
			return -EINVAL;
		c.tun = 1;
		/* an outer UDP header: VXLAN or GENEVE */
		c.vxlan = tun != RTE_MBUF_F_TX_TUNNEL_IPIP;
		c.ol3 = m->outer_l2_len;
		c.ohl = m->outer_l3_len;
		c.l2 = (uint16_t)(c.ol3 + c.ohl + m->l2_len);
		if (c.ol3 < 14 || m->data_len < (uint32_t)c.ol3 + c.ohl ||
		    (c.vxlan && m->l2_len < 8 + 8))
			return -EINVAL;
		oip = rte_pktmbuf_mtod_offset(m, const uint8_t *, c.ol3);
		c.ov6 = (oip[0] >> 4) == 6;
		if (c.ov6 ? c.ohl != 40 : ((oip[0] >> 4) != 4 || c.ohl != 20))
			return -EINVAL;
		c.ucsum = c.vxlan && (m->ol_flags & RTE_MBUF_F_TX_OUTER_UDP_CKSUM) != 0;
		c.oid0 = c.ov6 ? 0 : (uint16_t)(oip[4] << 8 | oip[5]);
		c.ofixed = (m->ol_flags & ofixedid) != 0;
	}
	c.hdr = (uint16_t)(c.l2 + c.l3 + c.l4);
	if (c.l2 < 14 || c.l3 < 20 || c.l4 < (c.udp ? 8 : 20) || (c.udp && c.l4 != 8) ||
	    m->data_len < c.hdr || m->pkt_len <= c.hdr)
		return -EINVAL;
	c.pay = m->pkt_len - c.hdr;
	c.nseg = (c.pay + c.mss - 1) / c.mss;
	if (c.nseg > max)
		return -ENOSPC;
	ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, c.l2);
	th = ip + c.l3;
	c.v6 = (ip[0] >> 4) == 6;
	if (c.v6 ? c.l3 < 40 : ((ip[0] >> 4) != 4 || (ip[0] & 0xF) * 4 != c.l3))
		return -EINVAL;
	if (!c.udp && (th[12] >> 4) * 4 != c.l4)
		return -EINVAL;
	c.seq0 = c.udp ? 0 : (uint32_t)th[4] << 24 | (uint32_t)th[5] << 16 | (uint32_t)th[6] << 8 | th[7];
	c.id0 = c.v6 ? 0 : (uint16_t)(ip[4] << 8 | ip[5]);
	c.fixed = (m->ol_flags & fixedid) != 0;
	/* the IPv6 pseudo-header from the fixed header is right only without
	 * extension headers (rte_ipv6_phdr_cksum takes proto and length from
	 * it); the segments inherit the caller's TX flags (copy_meta) */
	c.csum_off = !c.udp && !c.tun && (m->ol_flags & RTE_MBUF_F_TX_TCP_CKSUM) &&
		     (!c.v6 || c.l3 == 40);
	if (in_place_ok(m, &c))
		return seg_in_place(m, &c, out, fixedid | ofixedid);
	return seg_copy(m, &c, out, pool, fixedid | ofixedid);
}
