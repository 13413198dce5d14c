/* SPDX-License-Identifier: BSD-3-Clause */
/* Test frame builder and independent output checks; see gro_tpkt.h. */
#include "tp_test.h"
#include "gro_tpkt.h"

#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

static void
w16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
w32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint16_t
r16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* RFC 1071 sum over bytes, big-endian words, unfolded. */
static uint32_t
sum16(const uint8_t *p, uint32_t n, uint32_t s)
{
	uint32_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

static uint16_t
fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)s;
}

static uint32_t
tcp_sum(const uint8_t *ip, int v6, const uint8_t *th, uint32_t tcp_len)
{
	uint32_t s = 0;

	if (v6)
		s = sum16(ip + 8, 32, s);
	else
		s = sum16(ip + 12, 8, s);
	s += 6 + tcp_len;
	return sum16(th, tcp_len, s);
}

void
tpkt_init(struct tpkt *t, int v6)
{
	static const uint8_t d6[16] = { 0xfd, 0xaa, [15] = 1 };
	static const uint8_t s6[16] = { 0xfd, 0xaa, [15] = 2 };

	memset(t, 0, sizeof(*t));
	t->v6 = v6;
	memcpy(t->dst, "\xaa\x00\x00\x00\x00\x01", 6);
	memcpy(t->src, "\xaa\x00\x00\x00\x00\x02", 6);
	t->seq = 100;
	t->ack = 100;
	t->paylen = 100;
	t->pay_char = 'a';
	t->flags = 0x10;
	t->window = 65535;
	t->sport = 1500;
	t->dport = 8000;
	t->ttl = 8;
	t->df = 1;
	t->saddr4 = 0xC0A801C8;
	t->daddr4 = 0xC0A80164;
	memcpy(t->saddr6, s6, 16);
	memcpy(t->daddr6, d6, 16);
}

uint32_t
tpkt_build(const struct tpkt *t, uint8_t *b)
{
	uint32_t off = 12, l3, l4, tcp_len, i, ip_len, ext = 0;
	uint8_t *ip, *th;
	int k;

	memcpy(b, t->dst, 6);
	memcpy(b + 6, t->src, 6);
	for (k = 0; k < t->ntags; k++) {
		w16(b + off, t->tpid[k]);
		w16(b + off + 2, t->tci[k]);
		off += 4;
	}
	w16(b + off, t->v6 ? 0x86DD : 0x0800);
	off += 2;
	ip = b + off;
	l4 = 20u + t->optlen;
	if (t->v6) {
		uint8_t nh = 6;

		if (t->ext_type || t->ext_hop)
			ext += 8;
		if (t->frag6)
			ext += 8;
		l3 = 40 + ext;
		ip_len = l3 + l4 + t->paylen;
		w32(ip, 6u << 28 | (uint32_t)t->tos << 20 | (t->flow_label & 0xFFFFF));
		w16(ip + 4, (uint16_t)(ip_len - 40));
		ip[7] = t->ttl;
		memcpy(ip + 8, t->saddr6, 16);
		memcpy(ip + 24, t->daddr6, 16);
		i = 40;
		if (t->ext_type || t->ext_hop) {
			ip[6] = t->ext_hop ? 0 : t->ext_type;
			ip[i] = t->frag6 ? 44 : 6;
			ip[i + 1] = 0;
			memset(ip + i + 2, t->ext_fill, 6);
			i += 8;
			nh = 0xFF;
		}
		if (t->frag6) {
			if (nh != 0xFF)
				ip[6] = 44;
			memset(ip + i, 0, 8);
			ip[i] = 6;
			i += 8;
			nh = 0xFF;
		}
		if (nh == 6)
			ip[6] = 6;
	} else {
		l3 = 20u + t->ipopt_len;
		ip_len = l3 + l4 + t->paylen;
		ip[0] = (uint8_t)(0x40 | (l3 / 4));
		ip[1] = t->tos;
		w16(ip + 2, (uint16_t)ip_len);
		w16(ip + 4, t->ip_id);
		w16(ip + 6, (uint16_t)((t->rsv ? 0x8000 : 0) | (t->df ? 0x4000 : 0) |
				       (t->mf ? 0x2000 : 0)));
		ip[8] = t->ttl;
		ip[9] = 6;
		ip[10] = ip[11] = 0;
		w32(ip + 12, t->saddr4);
		w32(ip + 16, t->daddr4);
		if (t->ipopt_len) {
			memset(ip + 20, 0, t->ipopt_len);
			ip[20] = 0x44;               /* timestamp option */
			ip[21] = t->ipopt_len;
			ip[22] = 5;
		}
		w16(ip + 10, (uint16_t)~fold(sum16(ip, l3, 0)));
		if (t->bad_ip_csum)
			w16(ip + 10, (uint16_t)(r16(ip + 10) - 1));
	}
	th = ip + l3;
	w16(th, t->sport);
	w16(th + 2, t->dport);
	w32(th + 4, t->seq);
	w32(th + 8, t->ack);
	th[12] = (uint8_t)((l4 / 4) << 4);
	th[13] = t->flags;
	w16(th + 14, t->window);
	th[16] = th[17] = 0;
	th[18] = th[19] = 0;
	memcpy(th + 20, t->opts, t->optlen);
	for (i = 0; i < t->paylen; i++)
		th[l4 + i] = t->pay_char ? t->pay_char :
			     (uint8_t)((t->seq + i) * 7 + (t->seq + i) / 251);
	tcp_len = l4 + t->paylen;
	w16(th + 16, (uint16_t)~fold(tcp_sum(ip, t->v6, th, tcp_len)));
	if (t->bad_tcp_csum)
		w16(th + 16, (uint16_t)(r16(th + 16) - 1));
	off += ip_len;
	if (!t->no_pad && off < 60) {
		memset(b + off, 0, 60 - off);
		off = 60;
	}
	return off;
}

int
tview_parse(const uint8_t *f, uint32_t len, struct tview *v)
{
	uint32_t off = 12;
	uint16_t et = r16(f + 12);
	const uint8_t *ip;
	uint8_t nh;

	memset(v, 0, sizeof(*v));
	while (et == 0x8100 || et == 0x88A8) {
		off += 4;
		et = r16(f + off);
	}
	off += 2;
	v->l2 = off;
	ip = f + off;
	if (et == 0x0800) {
		v->l3 = (ip[0] & 0xF) * 4u;
		v->ip_len = r16(ip + 2);
		if (ip[9] != 6)
			return -1;
	} else if (et == 0x86DD) {
		v->v6 = 1;
		v->ip_len = 40u + r16(ip + 4);
		nh = ip[6];
		v->l3 = 40;
		while (nh == 0 || nh == 43 || nh == 60 || nh == 44) {
			uint32_t hl = nh == 44 ? 8 : (ip[v->l3 + 1] + 1u) * 8;

			nh = ip[v->l3];
			v->l3 += hl;
		}
		if (nh != 6)
			return -1;
	} else {
		return -1;
	}
	if (v->l2 + v->ip_len > len)
		return -1;
	v->l4 = (ip[v->l3 + 12] >> 4) * 4u;
	v->paylen = v->ip_len - v->l3 - v->l4;
	v->seq = (uint32_t)r16(ip + v->l3 + 4) << 16 | r16(ip + v->l3 + 6);
	v->flags = ip[v->l3 + 13];
	return 0;
}

int
tview_csums_ok(const uint8_t *f, const struct tview *v)
{
	const uint8_t *ip = f + v->l2;

	if (!v->v6 && fold(sum16(ip, v->l3, 0)) != 0xFFFF)
		return 0;
	return fold(tcp_sum(ip, v->v6, ip + v->l3, v->ip_len - v->l3)) == 0xFFFF;
}

void
tview_check_merged(const struct rte_mbuf *m, uint32_t first_pay)
{
	static uint8_t buf[TPKT_MAX];
	uint32_t len = tp_test_mbuf_to_bytes(m, buf, sizeof(buf));
	const uint8_t *ip, *th;
	struct tview v;
	uint16_t want;

	assert_int_equal(tview_parse(buf, len, &v), 0);
	assert_int_equal(v.l2 + v.ip_len, len);
	assert_true(m->ol_flags & RTE_MBUF_F_RX_LRO);
	assert_int_equal(m->l2_len, v.l2);
	assert_int_equal(m->l3_len, v.l3);
	assert_int_equal(m->l4_len, v.l4);
	assert_int_equal(m->tso_segsz, first_pay);
	ip = buf + v.l2;
	th = ip + v.l3;
	if (v.v6) {
		struct rte_ipv6_hdr h6;

		/* the pseudo-header carries the upper-layer protocol (RFC 8200
		 * 8.1), not the first extension header's number */
		memcpy(&h6, ip, sizeof(h6));
		h6.proto = 6;
		want = rte_ipv6_phdr_cksum(&h6, RTE_MBUF_F_TX_TCP_SEG);
	} else {
		assert_int_equal(fold(sum16(ip, v.l3, 0)), 0xFFFF);
		want = rte_ipv4_phdr_cksum((const struct rte_ipv4_hdr *)ip,
					   RTE_MBUF_F_TX_TCP_SEG);
	}
	assert_memory_equal(th + 16, &want, 2);
}
