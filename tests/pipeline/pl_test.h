/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers for the pipeline tests: TCP/IPv4 frames built byte by byte with
 * their checksums computed here (independently of lib/gro), DSA tags written
 * from the layouts in docs/ref/dsa-tags.md §3 and §4, and callbacks that
 * capture what the pipeline hands out.
 */
#ifndef PL_TEST_H
#define PL_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tp_test.h"
#include "tagpipe.h"

#define PL_MAX_FRAME 2048

struct pl_spec {
	uint8_t dst[6], src[6];
	uint8_t tag[8];            /* DSA tag after the source MAC */
	uint8_t tag_len;
	uint16_t outer_tpid, outer_tci;   /* 0: none */
	uint16_t inner_tpid, inner_tci;   /* 0: none */
	uint32_t sip, dip;
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t tcp_flags;         /* 0x10 ACK, 0x08 PSH, ... */
	uint16_t ip_id;
	uint8_t proto;             /* 6 TCP (default 0 means TCP), 17 UDP */
	uint16_t paylen;
	uint8_t payseed;
};

static inline void
pl_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
pl_put32(uint8_t *p, uint32_t v)
{
	pl_put16(p, (uint16_t)(v >> 16));
	pl_put16(p + 2, (uint16_t)v);
}

static inline uint32_t
pl_sum(const uint8_t *p, size_t n, uint32_t s)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

static inline uint16_t
pl_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)~s;
}

/* Build the frame; returns its length. */
static inline size_t
pl_build(uint8_t *b, const struct pl_spec *s)
{
	uint8_t proto = s->proto ? s->proto : 6;
	size_t o = 0, ip, l4, l4len, hl = proto == 6 ? 20 : 8;
	uint32_t sum;

	memcpy(b, s->dst, 6);
	memcpy(b + 6, s->src, 6);
	o = 12;
	memcpy(b + o, s->tag, s->tag_len);
	o += s->tag_len;
	if (s->outer_tpid) {
		pl_put16(b + o, s->outer_tpid);
		pl_put16(b + o + 2, s->outer_tci);
		o += 4;
	}
	if (s->inner_tpid) {
		pl_put16(b + o, s->inner_tpid);
		pl_put16(b + o + 2, s->inner_tci);
		o += 4;
	}
	pl_put16(b + o, 0x0800);
	o += 2;
	ip = o;
	l4 = ip + 20;
	l4len = hl + s->paylen;
	b[ip] = 0x45;
	b[ip + 1] = 0;
	pl_put16(b + ip + 2, (uint16_t)(20 + l4len));
	pl_put16(b + ip + 4, s->ip_id);
	pl_put16(b + ip + 6, 0x4000); /* DF */
	b[ip + 8] = 64;
	b[ip + 9] = proto;
	pl_put16(b + ip + 10, 0);
	pl_put32(b + ip + 12, s->sip);
	pl_put32(b + ip + 16, s->dip);
	pl_put16(b + ip + 10, pl_fold(pl_sum(b + ip, 20, 0)));
	pl_put16(b + l4, s->sport);
	pl_put16(b + l4 + 2, s->dport);
	if (proto == 6) {
		pl_put32(b + l4 + 4, s->seq);
		pl_put32(b + l4 + 8, s->ack);
		b[l4 + 12] = 0x50;
		b[l4 + 13] = s->tcp_flags ? s->tcp_flags : 0x10;
		pl_put16(b + l4 + 14, 0xFFFF);
		pl_put16(b + l4 + 16, 0);
		pl_put16(b + l4 + 18, 0);
	} else {
		pl_put16(b + l4 + 4, (uint16_t)l4len);
		pl_put16(b + l4 + 6, 0);
	}
	for (size_t i = 0; i < s->paylen; i++)
		b[l4 + hl + i] = (uint8_t)(s->payseed + i);
	/* L4 checksum over the pseudo-header (RFC 793 / 768). */
	sum = pl_sum(b + ip + 12, 8, 0);
	sum += proto;
	sum += (uint32_t)l4len;
	sum = pl_sum(b + l4, l4len, sum);
	pl_put16(b + l4 + (proto == 6 ? 16 : 6), pl_fold(sum));
	return l4 + l4len;
}

/* edsa tags (§4.4): RX FORWARD from port p; TX FROM_CPU to p. */
static inline void
pl_edsa_rx(struct pl_spec *s, uint8_t port)
{
	const uint8_t t[8] = { 0xda, 0xda, 0, 0, 0xc0, (uint8_t)(port << 3), 0, 0 };

	memcpy(s->tag, t, 8);
	s->tag_len = 8;
}

static inline void
pl_edsa_tx(struct pl_spec *s, uint8_t port)
{
	const uint8_t t[8] = { 0xda, 0xda, 0, 0, 0x40, (uint8_t)(port << 3), 0, 0 };

	memcpy(s->tag, t, 8);
	s->tag_len = 8;
}

/* dsa (4 bytes, §4.3) TX FROM_CPU to port p. */
static inline void
pl_dsa_tx(struct pl_spec *s, uint8_t port)
{
	const uint8_t t[4] = { 0x40, (uint8_t)(port << 3), 0, 0 };

	memcpy(s->tag, t, 4);
	s->tag_len = 4;
}

static inline void
pl_swap_mac(struct pl_spec *s)
{
	uint8_t t[6];

	memcpy(t, s->dst, 6);
	memcpy(s->dst, s->src, 6);
	memcpy(s->src, t, 6);
}

static inline void
pl_default_spec(struct pl_spec *s)
{
	static const uint8_t d[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	static const uint8_t sm[6] = { 0x02, 0, 0, 0, 0, 0x02 };

	memset(s, 0, sizeof(*s));
	memcpy(s->dst, d, 6);
	memcpy(s->src, sm, 6);
	s->sip = 0xC0000202; /* 192.0.2.2 */
	s->dip = 0xC0000201;
	s->sport = 40000;
	s->dport = 80;
	s->seq = 1000;
	s->ack = 1;
	s->ip_id = 100;
	s->paylen = 100;
}

static inline struct rte_mbuf *
pl_mbuf(struct rte_mempool *mp, const struct pl_spec *s)
{
	uint8_t b[PL_MAX_FRAME];
	size_t n = pl_build(b, s);

	return tp_test_mbuf_from_bytes(mp, b, (uint32_t)n);
}

static inline void
pl_assert_frame(const struct rte_mbuf *m, const struct pl_spec *s)
{
	uint8_t b[PL_MAX_FRAME];
	size_t n = pl_build(b, s);

	tp_test_assert_mbuf_bytes(m, b, (uint32_t)n);
}

/* ---- capture callbacks -------------------------------------------------- */

#define PL_CAP_MAX 1024

struct pl_cap {
	struct rte_mbuf *m[PL_CAP_MAX];
	uint16_t port[PL_CAP_MAX];
	uint16_t queue[PL_CAP_MAX];
	uint8_t verdict[PL_CAP_MAX];
	unsigned int n;
	unsigned int calls;
	unsigned int dropped_seen;    /* frames shown to drop_cb */
	unsigned int aborted_seen;
};

static inline void
pl_cap_egress(void *arg, enum tp_verdict v, uint16_t port, uint16_t queue,
	      struct rte_mbuf **pkts, uint16_t n)
{
	struct pl_cap *c = arg;

	c->calls++;
	for (uint16_t i = 0; i < n; i++) {
		assert_true(c->n < PL_CAP_MAX);
		c->m[c->n] = pkts[i];
		c->port[c->n] = port;
		c->queue[c->n] = queue;
		c->verdict[c->n] = (uint8_t)v;
		c->n++;
	}
}

static inline void
pl_cap_pass(void *arg, uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
	    uint16_t n)
{
	pl_cap_egress(arg, TP_PASS, port, queue, pkts, n);
}

static inline void
pl_cap_drop(void *arg, enum tp_verdict v, struct rte_mbuf *const *pkts,
	    uint16_t n)
{
	struct pl_cap *c = arg;

	(void)pkts;
	if (v == TP_ABORTED)
		c->aborted_seen += n;
	else
		c->dropped_seen += n;
}

static inline void
pl_cap_free(struct pl_cap *c)
{
	for (unsigned int i = 0; i < c->n; i++)
		rte_pktmbuf_free(c->m[i]);
	c->n = 0;
}

/* rx + copies = pass + tx + redirect + drop + aborted + held_in_gro, and
 * drop is the sum of the reasons. */
static inline void
pl_assert_conservation(const struct tp_pipeline *pl)
{
	struct tp_pipeline_stats st;
	uint64_t sum = 0;

	assert_int_equal(tp_pipeline_stats_get(pl, &st), 0);
	for (unsigned int r = 0; r < TP_DROP_MAX; r++)
		sum += st.drop_reason[r];
	assert_int_equal(st.drop, sum);
	assert_int_equal(st.rx + st.copies, st.pass + st.tx + st.redirect + st.drop +
			 st.aborted + st.held_in_gro);
}


/* Create a pipeline or fail the test, printing the API's error message. */
static inline struct tp_pipeline *
pl_make(const struct tp_pipeline_conf *c)
{
	struct tp_pipeline *pl = NULL;
	char err[256] = "";
	int rc = tp_pipeline_create(c, &pl, err, sizeof(err));

	if (rc != 0)
		fprintf(stderr, "create: %s\n", err);
	assert_int_equal(rc, 0);
	return pl;
}

#endif /* PL_TEST_H */
