/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Transparency property: for thousands of seeded random sequences (mixed
 * flows over IPv4/IPv6, VLAN tags in frame or stripped, switch ports, RSS,
 * TCP options, flags, sizes, ID modes, ACK/window/TTL changes, gaps and
 * retransmits, bad checksums, pure ACKs, SYN/RST; one frame in four as a
 * scattered mbuf chain) fed in random bursts with
 * random table sizes and flush modes, tp_gro_segment(tp_gro_merge_burst(seq))
 * gives back every input frame byte for byte, each flow in arrival order,
 * and the pool ends where it started.
 */
#include "tp_test.h"
#include "gro_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include("tp_dsa_tag.h")
#include "tp_dsa_tag.h"
#define HAVE_DSA 1
#endif
#endif

#define NSEQ 2500
#define MAXF 8
#define MAXPKT 400

static struct rte_mempool *mp, *copy_mp;

/* xorshift64*: deterministic per seed */
static uint64_t rs;
static uint32_t
rnd(uint32_t n)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return (uint32_t)((rs * 2685821657736338717ull) >> 33) % n;
}

struct fgen {
	struct tpkt t;
	struct mbmeta mm;
	uint16_t mss;
	int id_mode;          /* 0 inc, 1 fixed, 2 random */
};

struct rec {
	uint8_t *bytes;
	uint32_t len;
	int flow;
	struct mbmeta mm;
};

static struct rec recs[MAXPKT];
static int nrec;
static int next_out[MAXF];     /* per flow: index of the next expected record */
static int flow_recs[MAXF][MAXPKT];
static int flow_nrec[MAXF];

static void
flow_init(struct fgen *f, int i, int rss_ok)
{
	struct tpkt *t = &f->t;

	tpkt_init(t, (int)rnd(2));
	t->sport = (uint16_t)(2000 + i);   /* identifies the flow in outputs */
	t->dport = (uint16_t)(80 + rnd(3));
	t->seq = rnd(4) == 0 ? 0xFFFFF000u + rnd(4096) : (uint32_t)rnd(1u << 31) * 2;
	t->ack = rnd(1u << 30);
	t->window = (uint16_t)(1000 + rnd(60000));
	t->pay_char = 0;
	t->flags = 0x10 | (rnd(8) == 0 ? 0x40 : 0);   /* ECE sometimes */
	t->ttl = (uint8_t)(1 + rnd(255));
	t->tos = rnd(3) == 0 ? (uint8_t)rnd(256) : 0;
	t->df = (int)rnd(2);
	t->ip_id = (uint16_t)rnd(65536);
	t->flow_label = rnd(2) ? rnd(1u << 20) : 0;
	if (rnd(2)) {
		t->optlen = 12;
		t->opts[0] = 1;
		t->opts[1] = 1;
		t->opts[2] = 8;
		t->opts[3] = 10;
		for (int k = 4; k < 12; k++)
			t->opts[k] = (uint8_t)rnd(256);
	} else if (rnd(4) == 0) {
		t->optlen = (uint8_t)(4 * (1 + rnd(10)));
		memset(t->opts, 1, t->optlen);     /* NOPs */
	}
	if (t->v6 && rnd(4) == 0) {
		t->ext_type = 60;
		t->ext_hop = (int)rnd(2);
		t->ext_fill = (uint8_t)rnd(2);
	}
	t->ntags = (int)rnd(3);
	t->tpid[0] = rnd(2) ? 0x8100 : 0x88A8;
	t->tpid[1] = 0x8100;
	t->tci[0] = (uint16_t)rnd(65536);
	t->tci[1] = (uint16_t)rnd(65536);
	memset(&f->mm, 0, sizeof(f->mm));
	if (rnd(3) == 0) {
		f->mm.ol |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
		f->mm.vlan_tci = (uint16_t)rnd(65536);
		if (rnd(2)) {
			f->mm.ol |= RTE_MBUF_F_RX_QINQ | RTE_MBUF_F_RX_QINQ_STRIPPED;
			f->mm.vlan_tci_outer = (uint16_t)rnd(65536);
		}
	}
	if (rss_ok && rnd(2)) {
		f->mm.ol |= RTE_MBUF_F_RX_RSS_HASH;
		f->mm.rss = rnd(1u << 31) & (rnd(2) ? 0xFFFFFFFFu : 0x3u);
	}
	if (rnd(2)) {
		f->mm.dsa_valid = 1;
		f->mm.dsa_port = (uint8_t)rnd(4);
		f->mm.dsa_dev = (uint8_t)rnd(2);
	}
	switch (rnd(6)) {
	case 0:
		f->mss = (uint16_t)(8 + rnd(64));
		break;
	case 1:
		f->mss = (uint16_t)(3000 + rnd(5000));   /* reaches the 64 KiB cap */
		break;
	default:
		f->mss = (uint16_t)(500 + rnd(960));
		break;
	}
	f->id_mode = rnd(8) == 0 ? 2 : (int)rnd(2);
}

/* Next frame of flow f, with random events: some change the flow for good
 * (ACK, window, TTL, TOS, CWR, timestamp), others only this frame. */
static void
flow_next(struct fgen *f, struct tpkt *o, struct mbmeta *mm, int nic_only_bad)
{
	struct tpkt *t = &f->t;
	uint32_t ev = rnd(100);

	if (ev >= 22 && ev < 24)
		t->ack += rnd(5000) + 1;
	else if (ev >= 24 && ev < 26)
		t->window = (uint16_t)(t->window + 1 + rnd(100));
	else if (ev == 26)
		t->ttl = (uint8_t)(t->ttl + 1);
	else if (ev == 27)
		t->tos ^= 0x02;
	else if (ev == 28)
		t->flags ^= 0x80;
	else if ((ev == 29 || ev == 30) && t->optlen == 12)
		t->opts[7] = (uint8_t)(t->opts[7] + 1);
	*o = *t;
	*mm = f->mm;
	o->paylen = f->mss;
	if (ev < 8)
		o->paylen = (uint16_t)(8 + rnd(f->mss));          /* short (or equal) */
	else if (ev < 11)
		o->paylen = (uint16_t)(f->mss + 1 + rnd(100));    /* larger */
	else if (ev < 14)
		o->flags |= 0x08;                                  /* PSH */
	else if (ev < 15)
		o->flags |= 0x01;                                  /* FIN */
	else if (ev < 17)
		o->paylen = 0;                                     /* pure ACK */
	else if (ev < 18)
		o->flags = (uint8_t)(o->flags | (rnd(2) ? 0x02 : 0x04));   /* SYN/RST */
	else if (ev < 20)
		o->seq -= rnd(3000) + 1;                           /* retransmit */
	else if (ev < 22)
		o->seq += rnd(3000) + 1;                           /* gap */
	else if (ev == 31 || ev == 32)
		o->bad_tcp_csum = 1;
	else if ((ev == 33 || ev == 34) && !t->v6)
		o->bad_ip_csum = 1;
	else if (ev == 35 && !t->v6)
		o->ipopt_len = 4;
	else if (ev == 36 && !t->v6)
		o->mf = 1;
	else if (ev == 37 && t->v6)
		o->frag6 = 1;
	else if (ev == 38)
		o->ip_id = (uint16_t)rnd(65536);
	if (f->id_mode == 2)
		o->ip_id = (uint16_t)rnd(65536);
	if (o->bad_tcp_csum || o->bad_ip_csum) {
		if (nic_only_bad || rnd(2)) {
			mm->ol |= o->bad_ip_csum ? RTE_MBUF_F_RX_IP_CKSUM_BAD : 0;
			mm->ol |= o->bad_tcp_csum ? RTE_MBUF_F_RX_L4_CKSUM_BAD : 0;
		}
	} else if (rnd(3) == 0) {
		mm->ol |= RTE_MBUF_F_RX_L4_CKSUM_GOOD |
			  (t->v6 ? 0 : RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	}
	/* the stream advances past its normal data segments */
	if (o->seq == t->seq && o->paylen > 0 && !(o->flags & 0x06))
		t->seq += o->paylen;
	if (f->id_mode == 0)
		t->ip_id++;
}

/* One mbuf, or (one time in four) a chain as scatter RX makes it, with all
 * headers in the first mbuf. */
static struct rte_mbuf *
to_mbuf(const struct rec *r)
{
	struct rte_mbuf *m;
	struct tview v;

	if (rnd(4) == 0 && tview_parse(r->bytes, r->len, &v) == 0) {
		uint32_t hdr = v.l2 + v.l3 + v.l4;

		m = tp_test_mbuf_chain_from_bytes(mp, r->bytes, r->len,
						  (uint16_t)(hdr + rnd(600)));
	} else {
		m = tp_test_mbuf_from_bytes(mp, r->bytes, r->len);
	}

	m->ol_flags = r->mm.ol;
	m->vlan_tci = r->mm.vlan_tci;
	m->vlan_tci_outer = r->mm.vlan_tci_outer;
	m->hash.rss = r->mm.rss;
	gro_test_dsa_set(m, r->mm.dsa_valid, r->mm.dsa_port, r->mm.dsa_dev);
	return m;
}

/* Re-lay a merged packet out as a plain chain of 1000-byte mbufs (another
 * layout than tp_gro's), so tp_gro_segment takes its copying path. */
static struct rte_mbuf *
relayout(struct rte_mbuf *m)
{
	static uint8_t buf[TPKT_MAX];
	uint32_t len = tp_test_mbuf_to_bytes(m, buf, sizeof(buf));
	struct rte_mbuf *c = tp_test_mbuf_chain_from_bytes(copy_mp, buf, len, 1000);

	c->ol_flags = m->ol_flags;
	c->tx_offload = m->tx_offload;
	c->vlan_tci = m->vlan_tci;
	c->vlan_tci_outer = m->vlan_tci_outer;
	c->hash = m->hash;
	rte_mbuf_dynfield_copy(c, m);
	rte_pktmbuf_free(m);
	return c;
}

static uint64_t cur_seed;

static void
check_out(struct rte_mbuf *m)
{
	static uint8_t buf[TPKT_MAX];
	struct rte_mbuf *segs[128];
	int n, i, lro = 0, relaid = 0;

	if (m->ol_flags & RTE_MBUF_F_RX_LRO) {
		lro = 1;
		tview_check_merged(m, m->tso_segsz);
		if (rnd(4) == 0) {
			m = relayout(m);
			relaid = 1;
		}
	}
	n = tp_gro_segment(m, segs, 128, mp);
	assert_true(n >= 1);
	for (i = 0; i < n; i++) {
		uint32_t len = tp_test_mbuf_to_bytes(segs[i], buf, sizeof(buf));
		struct tview v;
		const struct rec *r;
		int fl, idx;

		assert_int_equal(tview_parse(buf, len, &v) == 0 || len >= 14, 1);
		fl = (buf[v.l2 + v.l3] << 8 | buf[v.l2 + v.l3 + 1]) - 2000;
		assert_true(fl >= 0 && fl < MAXF);
		assert_true(next_out[fl] < flow_nrec[fl]);
		idx = flow_recs[fl][next_out[fl]++];
		r = &recs[idx];
		if (len != r->len || memcmp(buf, r->bytes, len) != 0) {
			fprintf(stderr, "seed %lu flow %d record %d (input #%d): %u vs %u "
				"bytes; segment %d of %d, merged %d, relaid %d\n",
				(unsigned long)cur_seed, fl, next_out[fl] - 1, idx, len,
				r->len, i, n, lro, relaid);
			tp_test_assert_mbuf_bytes(segs[i], r->bytes, r->len);
		}
		assert_int_equal(segs[i]->vlan_tci, r->mm.vlan_tci);
		assert_int_equal(segs[i]->vlan_tci_outer, r->mm.vlan_tci_outer);
		assert_int_equal(segs[i]->ol_flags & (RTE_MBUF_F_RX_VLAN_STRIPPED |
						      RTE_MBUF_F_RX_QINQ_STRIPPED),
				 r->mm.ol & (RTE_MBUF_F_RX_VLAN_STRIPPED |
					     RTE_MBUF_F_RX_QINQ_STRIPPED));
		assert_int_equal(segs[i]->ol_flags & RTE_MBUF_F_RX_LRO, 0);
		rte_pktmbuf_free(segs[i]);
	}
}

static uint64_t tot_in, tot_merged, tot_aggr, tot_evict;

static void
one_sequence(uint64_t seed)
{
	static uint8_t store[MAXPKT][9000];
	static struct rte_mbuf *in[64], *out[128];
	struct fgen fl[MAXF];
	struct tp_gro_conf conf = { .socket_id = SOCKET_ID_ANY };
	struct tp_gro_stats st;
	struct tp_gro *g;
	unsigned int start = tp_test_pool_in_use(mp), start_c = tp_test_pool_in_use(copy_mp);
	int nflows, npkt, i, k, no;
	uint64_t now = 0;

	cur_seed = seed;
	rs = seed * 0x9E3779B97F4A7C15ull + 1;
	conf.max_flows = rnd(3) == 0 ? 1 + rnd(4) : 1024;
	conf.max_segs = rnd(4) == 0 ? (uint16_t)(2 + rnd(6)) : 0;
	conf.mode = rnd(2) ? TP_GRO_MODE_AGE : TP_GRO_MODE_BURST;
	conf.age_tsc = 1 + rnd(5);
	conf.no_sw_csum = rnd(5) == 0;
	nflows = 1 + (int)rnd(MAXF);
	npkt = 20 + (int)rnd(MAXPKT - 20);
	for (i = 0; i < nflows; i++) {
		flow_init(&fl[i], i, 1);
		flow_nrec[i] = 0;
		next_out[i] = 0;
	}
	for (i = 0; i < npkt; i++) {
		struct tpkt t;
		int f = (int)rnd((uint32_t)nflows);

		if (rnd(3) == 0 && i > 0)
			f = recs[i - 1].flow;            /* runs of one flow */
		flow_next(&fl[f], &t, &recs[i].mm, conf.no_sw_csum);
		recs[i].bytes = store[i];
		recs[i].len = tpkt_build(&t, store[i]);
		recs[i].flow = f;
		flow_recs[f][flow_nrec[f]++] = i;
	}
	nrec = npkt;
	g = tp_gro_create(&conf);
	assert_non_null(g);
	for (i = 0; i < npkt; i += k) {
		k = RTE_MIN(npkt - i, 1 + (int)rnd(64));
		for (int j = 0; j < k; j++)
			in[j] = to_mbuf(&recs[i + j]);
		now += rnd(3);
		no = tp_gro_merge_burst(g, in, (uint16_t)k, out, 128, now);
		assert_true(no >= 0 && no <= 2 * k + (int)tp_gro_held_flows(g) + 128);
		for (int j = 0; j < no; j++)
			check_out(out[j]);
		if (rnd(8) == 0) {
			no = tp_gro_flush(g, now, out, 128);
			for (int j = 0; j < no; j++)
				check_out(out[j]);
		}
	}
	while ((no = tp_gro_flush_all(g, out, 128)) > 0)
		for (int j = 0; j < no; j++)
			check_out(out[j]);
	for (i = 0; i < nflows; i++)
		assert_int_equal(next_out[i], flow_nrec[i]);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.pkts_in, (uint64_t)npkt);
	assert_int_equal(st.pkts_out, st.passed + st.aggregates_out);
	assert_int_equal(st.pkts_in, st.passed + st.aggregates_out - st.merged_out +
			 st.segs_merged);
	assert_int_equal(st.sw_csum_off, conf.no_sw_csum != 0);
	tot_in += st.pkts_in;
	tot_merged += st.segs_merged;
	tot_aggr += st.merged_out;
	tot_evict += st.flush[TP_GRO_FLUSH_BUCKET_FULL] + st.flush[TP_GRO_FLUSH_TABLE_FULL];
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	TP_TEST_ASSERT_POOL_BACK(copy_mp, start_c);
}

static void
test_transparency(void **state)
{
	uint64_t s;

	(void)state;
#ifdef HAVE_DSA
	assert_int_equal(tp_dsa_meta_register(), 0);
#else
	{
		struct rte_mbuf *m = rte_pktmbuf_alloc(mp);

		gro_test_dsa_set(m, 0, 0, 0);   /* registers the field */
		rte_pktmbuf_free(m);
	}
#endif
	for (s = 1; s <= NSEQ; s++)
		one_sequence(s);
	printf("transparency: %d sequences, %lu frames, %lu merged into %lu packets, "
	       "%lu evictions\n", NSEQ, (unsigned long)tot_in, (unsigned long)tot_merged,
	       (unsigned long)tot_aggr, (unsigned long)tot_evict);
	/* the property must not hold vacuously */
	assert_true(tot_merged > tot_in / 4);
	assert_true(tot_evict > 0);
}

/* tp_gro_segment on a packet that was never merged gives it back as is. */
static void
test_segment_unmerged(void **state)
{
	static uint8_t buf[TPKT_MAX];
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_mbuf *m, *out[4];
	struct tpkt t;
	uint32_t len;

	(void)state;
	tpkt_init(&t, 0);
	len = tpkt_build(&t, buf);
	m = tp_test_mbuf_from_bytes(mp, buf, len);
	assert_int_equal(tp_gro_segment(m, out, 4, NULL), 1);
	assert_ptr_equal(out[0], m);
	tp_test_assert_mbuf_bytes(m, buf, len);
	assert_int_equal(tp_gro_segment(m, out, 0, NULL), -ENOSPC);
	rte_pktmbuf_free(m);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Errors leave the packet with the caller, untouched. */
static void
test_segment_errors(void **state)
{
	static uint8_t buf[TPKT_MAX], out_b[TPKT_MAX];
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro_conf conf = { .mode = TP_GRO_MODE_BURST, .socket_id = SOCKET_ID_ANY };
	struct tp_gro *g = tp_gro_create(&conf);
	struct rte_mbuf *in[4], *out[8], *m;
	struct tpkt t;
	uint32_t len, mlen;
	int i, no;

	(void)state;
	for (i = 0; i < 4; i++) {
		tpkt_init(&t, 1);
		t.seq = 100 + (uint32_t)i * 100;
		len = tpkt_build(&t, buf);
		in[i] = tp_test_mbuf_from_bytes(mp, buf, len);
	}
	no = tp_gro_merge_burst(g, in, 4, out, 8, 0);
	assert_int_equal(no, 1);
	m = out[0];
	assert_int_equal(tp_gro_segs(m), 4);
	mlen = tp_test_mbuf_to_bytes(m, out_b, sizeof(out_b));
	assert_int_equal(tp_gro_segment(m, out, 3, mp), -ENOSPC);
	m->l4_len = 24;
	assert_int_equal(tp_gro_segment(m, out, 8, mp), -EINVAL);
	m->l4_len = 20;
	/* not our layout and no pool to copy into */
	m->next->data_len--;
	assert_int_equal(tp_gro_segment(m, out, 8, NULL), -EINVAL);
	m->next->data_len++;
	tp_test_assert_mbuf_bytes(m, out_b, mlen);
	assert_int_equal(tp_gro_segment(m, out, 8, NULL), 4);
	for (i = 0; i < 4; i++)
		rte_pktmbuf_free(out[i]);
	assert_int_equal(tp_gro_merge_burst(g, in, 4, out, 7, 0), -EINVAL);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_segment_unmerged),
		cmocka_unit_test(test_segment_errors),
		cmocka_unit_test(test_transparency),
	};

	tp_test_eal_init(NULL);
	mp = tp_test_pool_create("gro_prop", 8192, 10240);
	copy_mp = tp_test_pool_create("gro_prop_c", 8192, 2048);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
