/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tunnel and UDP GRO (tp_gro.h "TUNNELS AND UDP"): for seeded random
 * sequences of every kind (VXLAN over IPv4/IPv6 with and without the outer
 * UDP checksum, inner IPv4/IPv6; IPIP, SIT, IPv4-in-IPv6, IPv6-in-IPv6; UDP
 * over IPv4/IPv6), with outer ID policies (incrementing, fixed), outer
 * TTL/traffic class changes, short segments, PSH, several flows that differ
 * only in VNI or outer address, one frame in five a scattered chain, half
 * the sequences with the packet_type and checksum flags of a NIC that parsed
 * the tunnel (the fast path's case, gro_fast.h):
 *  - merged packets carry the metadata of the contract (RX_LRO, tunnel and
 *    outer flags, outer_l2/outer_l3/l2/l3/l4_len, packet_type, tso_segsz,
 *    valid outer and inner IPv4 header checksums, lengths of every level);
 *  - tp_gro_segment() gives back every input frame byte for byte, each flow
 *    in arrival order (the GRO + GSO round trip);
 *  - frames are built here, independently of lib/gro;
 *  - the pool ends where it started.
 */
#include "tp_test.h"
#include "gro_tpkt.h"
#include "tp_gro.h"

#include <stdio.h>
#include <string.h>

enum kind { K_VXLAN4, K_VXLAN6, K_IPIP, K_SIT, K_4IN6, K_6IN6, K_UDP4, K_UDP6,
	    K_GENEVE4, K_GENEVE6, K_MAX };
static const char *const kind_name[K_MAX] = { "vxlan4", "vxlan6", "ipip", "sit", "ip4ip6",
					      "ip6ip6", "udp4", "udp6", "geneve4", "geneve6" };

#define IS_UDPTUN(k) ((k) == K_VXLAN4 || (k) == K_VXLAN6 || (k) == K_GENEVE4 || (k) == K_GENEVE6)
#define IS_GENEVE(k) ((k) == K_GENEVE4 || (k) == K_GENEVE6)
#define OUTER_V6(k) ((k) == K_VXLAN6 || (k) == K_4IN6 || (k) == K_6IN6 || (k) == K_UDP6 || \
		     (k) == K_GENEVE6)

#define NSEQ 400
#define MAXF 3
#define MAXPKT 160

static struct rte_mempool *mp;

static uint64_t rs;
static uint32_t
rnd(uint32_t n)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return (uint32_t)((rs * 2685821657736338717ull) >> 33) % n;
}

static uint32_t
sum16(const uint8_t *p, uint32_t n, uint32_t s)
{
	uint32_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return s;
}

static void
put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* The UDP checksum of the datagram at l4 (len bytes) under the IP header at
 * ip (RFC 768; 0 is sent as 0xFFFF). */
static uint16_t
udp_csum(const uint8_t *ip, int v6, const uint8_t *l4, uint32_t len)
{
	uint8_t ph[40];
	uint32_t s;
	uint16_t c;

	if (v6) {
		memcpy(ph, ip + 8, 32);
		memset(ph + 32, 0, 8);
		put16(ph + 34, len);
		ph[39] = 17;
		s = sum16(ph, 40, 0);
	} else {
		memcpy(ph, ip + 12, 8);
		ph[8] = 0;
		ph[9] = 17;
		put16(ph + 10, len);
		s = sum16(ph, 12, 0);
	}
	c = (uint16_t)~sum16(l4, len, s);
	return c == 0 ? 0xFFFF : c;
}

struct outer {
	int v6;
	uint8_t ttl, tos;
	uint16_t id;
	int df;
	uint32_t fl;
	uint8_t addr;         /* last byte of the addresses */
};

/* Outer IP header for a payload of len bytes of protocol proto. */
static uint32_t
outer_ip(const struct outer *o, uint8_t proto, uint32_t len, uint8_t *b)
{
	if (o->v6) {
		uint32_t w = 0x60000000u | (uint32_t)o->tos << 20 | (o->fl & 0xFFFFF);

		b[0] = (uint8_t)(w >> 24);
		b[1] = (uint8_t)(w >> 16);
		b[2] = (uint8_t)(w >> 8);
		b[3] = (uint8_t)w;
		put16(b + 4, len);
		b[6] = proto;
		b[7] = o->ttl;
		memset(b + 8, 0, 32);
		b[8] = 0x20;
		b[9] = 0x01;
		b[23] = o->addr;
		b[24] = 0x20;
		b[25] = 0x01;
		b[26] = 0x0b;
		b[39] = o->addr;
		return 40;
	}
	b[0] = 0x45;
	b[1] = o->tos;
	put16(b + 2, 20 + len);
	put16(b + 4, o->id);
	put16(b + 6, o->df ? 0x4000 : 0);
	b[8] = o->ttl;
	b[9] = proto;
	b[10] = b[11] = 0;
	b[12] = 192;
	b[13] = 0;
	b[14] = 2;
	b[15] = o->addr;
	b[16] = 198;
	b[17] = 51;
	b[18] = 100;
	b[19] = o->addr;
	put16(b + 10, (uint16_t)~sum16(b, 20, 0));
	return 20;
}

struct flow {
	enum kind k;
	struct tpkt t;        /* inner TCP segment (or UDP: its fields used) */
	struct outer o;
	int ucsum;            /* VXLAN: outer UDP checksum */
	uint32_t vni;
	uint8_t gopt;         /* GENEVE option words */
	int gip;              /* GENEVE carries IP directly (no inner Ethernet) */
	uint16_t mss;
	int oid_fixed, iid_fixed;
};

/* Build the frame of flow f with payload len into buf. */
static uint32_t
build(struct flow *f, uint16_t len, uint8_t *buf)
{
	static uint8_t in[TPKT_MAX];
	uint32_t n, h, l;
	uint8_t *ip;

	memcpy(buf, "\x02\x00\x00\x00\x40\x02\x02\x00\x00\x00\x40\x01", 12);
	put16(buf + 12, f->o.v6 ? 0x86DD : 0x0800);
	ip = buf + 14;
	if (f->k == K_UDP4 || f->k == K_UDP6) {
		uint8_t *u;
		uint32_t i;

		h = outer_ip(&f->o, 17, 8u + len, ip);
		u = ip + h;
		put16(u, f->t.sport);
		put16(u + 2, f->t.dport);
		put16(u + 4, 8u + len);
		u[6] = u[7] = 0;
		for (i = 0; i < len; i++)
			u[8 + i] = (uint8_t)(f->t.seq + i);
		put16(u + 6, udp_csum(ip, f->o.v6, u, 8u + len));
		f->t.seq += len;
		return 14 + h + 8 + len;
	}
	f->t.paylen = len;
	f->t.no_pad = 1;
	n = tpkt_build(&f->t, in);
	if (IS_UDPTUN(f->k)) {
		uint8_t *u;
		/* VXLAN: 8-byte header + inner frame; GENEVE: 8 + options,
		 * then the inner frame or (gip) its IP packet */
		uint32_t th = IS_GENEVE(f->k) ? 8u + 4u * f->gopt : 8u;
		const uint8_t *body = in;
		uint32_t blen = n;

		if (IS_GENEVE(f->k) && f->gip) {
			body = in + 14;
			blen = n - 14;
		}
		h = outer_ip(&f->o, 17, 8 + th + blen, ip);
		u = ip + h;
		put16(u, 51000 + f->vni);
		put16(u + 2, IS_GENEVE(f->k) ? 6081 : 4789);
		put16(u + 4, 8 + th + blen);
		u[6] = u[7] = 0;
		memset(u + 8, 0, th);
		if (IS_GENEVE(f->k)) {
			uint32_t i;

			u[8] = f->gopt;
			put16(u + 10, f->gip ? (f->t.v6 ? 0x86DD : 0x0800) : 0x6558);
			for (i = 0; i < 4u * f->gopt; i++)
				u[16 + i] = (uint8_t)(0x40 + i + f->vni);
		} else {
			u[8] = 0x08;
		}
		u[12] = (uint8_t)(f->vni >> 16);
		u[13] = (uint8_t)(f->vni >> 8);
		u[14] = (uint8_t)f->vni;
		memcpy(u + 8 + th, body, blen);
		if (f->ucsum)
			put16(u + 6, udp_csum(ip, f->o.v6, u, 8 + th + blen));
		l = 14 + h + 8 + th + blen;
	} else {
		h = outer_ip(&f->o, f->t.v6 ? 41 : 4, n - 14, ip);
		memcpy(ip + h, in + 14, n - 14);
		l = 14 + h + n - 14;
	}
	f->t.seq += len;
	if (!f->iid_fixed)
		f->t.ip_id++;
	return l;
}

struct rec {
	uint8_t *b;
	uint32_t len;
};

static struct rec recs[MAXF][MAXPKT];
static int nrec[MAXF], next_out[MAXF];
static uint64_t merged_kind[K_MAX], segs_kind[K_MAX];
static struct tp_gro *cur;
static uint64_t checked_kind[K_MAX];

static void
check_merged(const struct rte_mbuf *m, const uint8_t *hdr, enum kind k, const struct flow *f,
	     uint32_t first_len)
{
	const uint8_t *oip;
	uint64_t tun = m->ol_flags & RTE_MBUF_F_TX_TUNNEL_MASK;
	uint32_t ptype = m->packet_type;

	assert_true(m->ol_flags & RTE_MBUF_F_RX_LRO);
	/* tso_segsz: the first segment's payload; headers by the offsets */
	assert_int_equal(m->tso_segsz, first_len - (m->l2_len + m->l3_len + m->l4_len +
						      ((m->ol_flags & RTE_MBUF_F_TX_TUNNEL_MASK) ?
						       m->outer_l2_len + m->outer_l3_len : 0u)));
	assert_true(m->tso_segsz <= f->mss);
	if (k == K_UDP4 || k == K_UDP6) {
		assert_int_equal(tun, 0);
		assert_int_equal(ptype & RTE_PTYPE_L4_MASK, RTE_PTYPE_L4_UDP);
		assert_int_equal(m->l2_len, 14);
		assert_int_equal(m->l4_len, 8);
		assert_false(tp_gro_plain_tcp(m));
		return;
	}
	assert_false(tp_gro_plain_tcp(m));
	assert_int_equal(m->outer_l2_len, 14);
	assert_int_equal(m->outer_l3_len, f->o.v6 ? 40 : 20);
	assert_int_equal(m->l3_len, f->t.v6 ? 40 : 20);
	assert_int_equal(m->l4_len, 20);
	assert_true(m->ol_flags & (f->o.v6 ? RTE_MBUF_F_TX_OUTER_IPV6 : RTE_MBUF_F_TX_OUTER_IPV4));
	assert_int_equal(ptype & RTE_PTYPE_INNER_L4_MASK, RTE_PTYPE_INNER_L4_TCP);
	oip = hdr + 14;
	if (k == K_VXLAN4 || k == K_VXLAN6) {
		assert_int_equal(tun, RTE_MBUF_F_TX_TUNNEL_VXLAN);
		assert_int_equal(ptype & RTE_PTYPE_TUNNEL_MASK, RTE_PTYPE_TUNNEL_VXLAN);
		assert_int_equal(m->l2_len, 8 + 8 + 14);
		assert_int_equal(!!(m->ol_flags & RTE_MBUF_F_TX_OUTER_UDP_CKSUM), f->ucsum);
	} else if (IS_GENEVE(k)) {
		assert_int_equal(tun, RTE_MBUF_F_TX_TUNNEL_GENEVE);
		assert_int_equal(ptype & RTE_PTYPE_TUNNEL_MASK, RTE_PTYPE_TUNNEL_GENEVE);
		assert_int_equal(m->l2_len, 8 + 8 + 4 * f->gopt + (f->gip ? 0 : 14));
		assert_int_equal(!!(m->ol_flags & RTE_MBUF_F_TX_OUTER_UDP_CKSUM), f->ucsum);
	} else {
		assert_int_equal(tun, RTE_MBUF_F_TX_TUNNEL_IPIP);
		assert_int_equal(ptype & RTE_PTYPE_TUNNEL_MASK, RTE_PTYPE_TUNNEL_IP);
		assert_int_equal(m->l2_len, 0);
	}
	/* every level's length says the frame */
	if (f->o.v6) {
		assert_int_equal(40u + ((uint32_t)oip[4] << 8 | oip[5]), m->pkt_len - 14);
	} else {
		assert_int_equal((uint32_t)oip[2] << 8 | oip[3], m->pkt_len - 14);
		assert_int_equal(sum16(oip, 20, 0), 0xFFFF);
	}
	{
		uint32_t in = 14u + m->outer_l3_len + m->l2_len;
		const uint8_t *iip = hdr + in;

		if (!f->t.v6) {
			assert_int_equal((uint32_t)iip[2] << 8 | iip[3], m->pkt_len - in);
			assert_int_equal(sum16(iip, 20, 0), 0xFFFF);
		} else {
			assert_int_equal(40u + ((uint32_t)iip[4] << 8 | iip[5]), m->pkt_len - in);
		}
	}
}

/* On a failure: where the frame differs from each flow's next expected
 * one, and the counters (what tp_gro made of the sequence). */
static void
explain_miss(const uint8_t *buf, uint32_t l, int nf)
{
	struct tp_gro_stats st;
	int j, q;

	for (j = 0; j < nf; j++) {
		const struct rec *r = &recs[j][next_out[j]];
		uint32_t x = 0;

		if (next_out[j] >= nrec[j])
			continue;
		while (x < l && x < r->len && r->b[x] == buf[x])
			x++;
		printf("flow %d: next frame #%d (%u bytes) differs from byte %u\n", j,
		       next_out[j], r->len, x);
	}
	tp_gro_stats_get(cur, &st);
	for (q = 0; q < TP_GRO_PASS_MAX; q++)
		if (st.pass[q])
			printf("pass %s %lu\n", tp_gro_pass_reason_names[q],
			       (unsigned long)st.pass[q]);
	for (q = 0; q < TP_GRO_FLUSH_MAX; q++)
		if (st.flush[q])
			printf("flush %s %lu\n", tp_gro_flush_reason_names[q],
			       (unsigned long)st.flush[q]);
}

/* Match each segment to the next expected frame of its flow. */
static void
take_output(struct rte_mbuf *m, const struct flow *fl, int nf)
{
	struct rte_mbuf *segs[256];
	static uint8_t buf[TPKT_MAX];
	int n, i, j, lro = (m->ol_flags & RTE_MBUF_F_RX_LRO) != 0;
	uint16_t want = tp_gro_segs(m);
	enum kind k = fl[0].k;
	static struct rte_mbuf mc;
	uint8_t hdr[200];

	if (lro) {
		/* the metadata and headers, checked once segment 0 tells the flow */
		mc = *m;
		{
			uint32_t hl = m->pkt_len < sizeof(hdr) ? m->pkt_len : sizeof(hdr);
			const void *h = rte_pktmbuf_read(m, 0, hl, hdr);

			assert_non_null(h);
			if (h != hdr)
				memcpy(hdr, h, hl);
		}
		merged_kind[k]++;
		segs_kind[k] += want;
	}
	n = tp_gro_segment(m, segs, 256, mp);
	assert_true(n >= 1);
	if (lro)
		assert_int_equal(n, want);
	for (i = 0; i < n; i++) {
		uint32_t l = tp_test_mbuf_to_bytes(segs[i], buf, sizeof(buf));
		int hit = -1;

		for (j = 0; j < nf && hit < 0; j++)
			if (next_out[j] < nrec[j] && recs[j][next_out[j]].len == l &&
			    memcmp(recs[j][next_out[j]].b, buf, l) == 0)
				hit = j;
		if (hit < 0)
			explain_miss(buf, l, nf);
		if (hit < 0)
			fail_msg("kind %s: output segment %d of %d (%u bytes) is no flow's next frame",
				 kind_name[k], i, n, l);
		if (lro && i == 0) {
			check_merged(&mc, hdr, k, &fl[hit], l);
			checked_kind[k]++;
		}
		next_out[hit]++;
		rte_pktmbuf_free(segs[i]);
	}
}

static void
one_sequence(enum kind k, int order_kernel)
{
	struct flow fl[MAXF];
	int nf = 1 + (int)rnd(MAXF), total = 0, i, j;
	struct rte_mbuf *pkts[64], *out[128];
	struct tp_gro_conf c = { 0 };
	struct tp_gro *g;
	static uint8_t buf[TPKT_MAX];
	int order[MAXF * MAXPKT];
	const int nic = (int)rnd(2);

	c.max_flows = 64;
	c.tunnels = TP_GRO_TUN_ALL;
	c.udp = 1;
	c.order = order_kernel ? TP_GRO_ORDER_KERNEL : TP_GRO_ORDER_FLOW;
	c.mode = rnd(2) ? TP_GRO_MODE_BURST : TP_GRO_MODE_AGE;
	c.age_tsc = UINT64_MAX / 4;
	c.socket_id = SOCKET_ID_ANY;
	g = tp_gro_create(&c);
	assert_non_null(g);
	cur = g;
	for (j = 0; j < nf; j++) {
		struct flow *f = &fl[j];
		int iv6 = k == K_SIT || k == K_6IN6 ? 1 : k == K_IPIP || k == K_4IN6 ? 0 : (int)rnd(2);
		uint8_t gopt = (uint8_t)rnd(5);
		int gip = (int)rnd(2);

		memset(f, 0, sizeof(*f));
		f->k = k;
		tpkt_init(&f->t, iv6);
		f->t.sport = (uint16_t)(2000 + rnd(50));   /* flows may share ports */
		f->t.seq = rnd(UINT32_MAX);
		f->t.ip_id = (uint16_t)rnd(65536);
		f->iid_fixed = rnd(3) == 0;
		f->o.v6 = OUTER_V6(k);
		f->gopt = gopt;
		f->gip = gip;
		f->o.ttl = 64;
		f->o.id = (uint16_t)rnd(65536);
		f->o.df = (int)rnd(2);
		f->o.fl = rnd(1u << 20);
		f->o.addr = (uint8_t)(1 + j);        /* distinct outer addresses ... */
		if (rnd(2))
			f->o.addr = 1;               /* ... or the same, other VNI */
		f->oid_fixed = rnd(3) == 0;
		f->ucsum = (int)rnd(2);
		f->vni = 100 + (uint32_t)j;
		f->mss = (uint16_t)(50 + rnd(1400));
		nrec[j] = 0;
		next_out[j] = 0;
	}
	/* frames in flow order, then interleaved */
	for (j = 0; j < nf; j++) {
		struct flow *f = &fl[j];
		int n = 2 + (int)rnd(MAXPKT / 2);

		for (i = 0; i < n; i++) {
			uint16_t len = f->mss;
			uint32_t l;
			unsigned int r = rnd(40);

			if (r == 0)
				len = (uint16_t)(1 + rnd(f->mss));       /* short */
			else if (r == 1)
				f->o.ttl = f->o.ttl == 64 ? 63 : 64;    /* outer flush */
			else if (r == 2)
				f->o.tos ^= 0x20;
			else if (r == 3 && k != K_UDP4 && k != K_UDP6)
				f->t.flags = 0x18;                      /* PSH */
			else if (r == 4)
				f->o.id = (uint16_t)(f->o.id + 7);      /* ID jump */
			l = build(f, len, buf);
			f->t.flags = 0x10;
			if (!f->oid_fixed)
				f->o.id++;
			recs[j][nrec[j]].b = malloc(l);
			assert_non_null(recs[j][nrec[j]].b);
			memcpy(recs[j][nrec[j]].b, buf, l);
			recs[j][nrec[j]].len = l;
			nrec[j]++;
		}
		total += n;
	}
	{
		int pos[MAXF] = { 0 }, t = 0;

		while (t < total) {
			j = (int)rnd((uint32_t)nf);
			if (pos[j] >= nrec[j])
				continue;
			order[t++] = j << 16 | pos[j]++;
		}
	}
	for (i = 0; i < total;) {
		int n = 1 + (int)rnd(64), m = 0, r;

		while (m < n && i < total) {
			const struct rec *rc = &recs[order[i] >> 16][order[i] & 0xFFFF];

			pkts[m] = rnd(5) == 0 ?
				  tp_test_mbuf_chain_from_bytes(mp, rc->b, rc->len,
								160 + rnd(200)) :
				  tp_test_mbuf_from_bytes(mp, rc->b, rc->len);
			assert_non_null(pkts[m]);
			if (nic) {
				/* a NIC that parsed the tunnel and checked the
				 * inner checksums (the fast path's case) */
				pkts[m]->packet_type = k == K_VXLAN4 || k == K_VXLAN6 ?
						       RTE_PTYPE_TUNNEL_VXLAN :
						       IS_GENEVE(k) ? RTE_PTYPE_TUNNEL_GENEVE :
						       k == K_UDP4 || k == K_UDP6 ? 0 :
						       RTE_PTYPE_TUNNEL_IP;
				pkts[m]->ol_flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD |
						    RTE_MBUF_F_RX_L4_CKSUM_GOOD;
			}
			m++;
			i++;
		}
		r = tp_gro_merge_burst(g, pkts, (uint16_t)m, out, 128, 0);
		assert_true(r >= 0);
		for (j = 0; j < r; j++)
			take_output(out[j], fl, nf);
	}
	{
		int r = tp_gro_flush_all(g, out, 128);

		for (j = 0; j < r; j++)
			take_output(out[j], fl, nf);
	}
	assert_int_equal(tp_gro_held(g), 0);
	for (j = 0; j < nf; j++) {
		assert_int_equal(next_out[j], nrec[j]);
		for (i = 0; i < nrec[j]; i++)
			free(recs[j][i].b);
	}
	tp_gro_destroy(g);
}

static void
test_round_trip(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	int s, k;

	(void)state;
	rs = 0x9e3779b97f4a7c15ull;
	for (s = 0; s < NSEQ; s++)
		one_sequence((enum kind)(s % K_MAX), s & 1);
	for (k = 0; k < K_MAX; k++) {
		printf("%-7s merged packets %6lu holding %7lu segments\n", kind_name[k],
		       (unsigned long)merged_kind[k], (unsigned long)segs_kind[k]);
		assert_true(merged_kind[k] > 0);
		assert_int_equal(checked_kind[k], merged_kind[k]);
	}
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* With tunnels and UDP off, nothing of these kinds merges (the default). */
static void
test_off_by_default(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro *g = tp_gro_create(NULL);
	struct rte_mbuf *pkts[8], *out[16];
	static uint8_t buf[TPKT_MAX];
	struct tp_gro_stats st;
	int k, i, r;

	(void)state;
	assert_non_null(g);
	for (k = 0; k < K_MAX; k++) {
		struct flow f;

		memset(&f, 0, sizeof(f));
		f.k = (enum kind)k;
		tpkt_init(&f.t, k == K_SIT || k == K_6IN6);
		f.o.v6 = OUTER_V6(k);
		f.o.ttl = 64;
		f.ucsum = 1;
		f.mss = 100;
		for (i = 0; i < 8; i++) {
			uint32_t l = build(&f, 100, buf);

			f.o.id++;
			pkts[i] = tp_test_mbuf_from_bytes(mp, buf, l);
		}
		r = tp_gro_merge_burst(g, pkts, 8, out, 16, 0);
		assert_int_equal(r, 8);
		for (i = 0; i < r; i++) {
			assert_false(out[i]->ol_flags & RTE_MBUF_F_RX_LRO);
			rte_pktmbuf_free(out[i]);
		}
	}
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.merged_out, 0);
	assert_int_equal(st.pass[TP_GRO_PASS_NOT_TCP], 8 * K_MAX);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

static void
test_conf(void **state)
{
	struct tp_gro_conf c = { 0 };

	(void)state;
	c.tunnels = 0x100;
	assert_null(tp_gro_create(&c));
	c.tunnels = 0;
	c.udp = 2;
	assert_null(tp_gro_create(&c));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf),
		cmocka_unit_test(test_off_by_default),
		cmocka_unit_test(test_round_trip),
	};

	tp_test_eal_init(NULL);
	mp = tp_test_pool_create("gro_encap", 4096, 2048 + 128);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
