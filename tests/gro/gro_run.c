/* SPDX-License-Identifier: BSD-3-Clause */
/* Selftest-style runner; see gro_run.h. */
#include "tp_test.h"
#include "gro_run.h"

#include <stdio.h>
#include <string.h>

#include <rte_mbuf_dyn.h>

#include "tp_dsa_tag.h"

void
gro_test_dsa_set(struct rte_mbuf *m, int valid, uint8_t port, uint8_t dev)
{
	struct tp_dsa_meta *dm;

	assert_int_equal(tp_dsa_meta_register(), 0);
	dm = tp_dsa_meta(m);
	memset(dm, 0, sizeof(*dm));
	if (valid) {
		dm->flags = TP_DSA_META_F_VALID;
		dm->port = port;
		dm->device = dev;
	}
}

struct tpkt *
seq_add(struct seq *s, int v6, uint32_t off, uint16_t len)
{
	struct tpkt *t;

	assert_true(s->n < SEQ_MAX);
	t = &s->p[s->n];
	tpkt_init(t, v6);
	t->seq = 100 + off;
	t->paylen = len;
	memset(&s->meta[s->n], 0, sizeof(s->meta[0]));
	s->flush_before[s->n] = 0;
	s->n++;
	return t;
}

void
seq_variant(struct seq *s, enum gro_variant v)
{
	int i;

	for (i = 0; i < s->n; i++) {
		struct tpkt *t = &s->p[i];
		struct mbmeta *mm = &s->meta[i];

		switch (v) {
		case VAR_VLAN:
			t->ntags = 1;
			t->tpid[0] = 0x8100;
			t->tci[0] = 100;
			break;
		case VAR_QINQ:
			t->ntags = 2;
			t->tpid[0] = 0x88A8;
			t->tci[0] = 200;
			t->tpid[1] = 0x8100;
			t->tci[1] = 100;
			break;
		case VAR_STRIP:
			mm->ol |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
			mm->vlan_tci = 100;
			break;
		case VAR_QINQ_STRIP:
			mm->ol |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED |
				  RTE_MBUF_F_RX_QINQ | RTE_MBUF_F_RX_QINQ_STRIPPED;
			mm->vlan_tci = 100;
			mm->vlan_tci_outer = 200;
			break;
		case VAR_DSA:
			mm->dsa_valid = 1;
			mm->dsa_port = 3;
			mm->dsa_dev = 1;
			break;
		case VAR_RSS:
			mm->ol |= RTE_MBUF_F_RX_RSS_HASH;
			mm->rss = 0x9E3779B9u * t->sport;
			break;
		case VAR_PORT_EACH:
			mm->dsa_valid = 1;
			mm->dsa_port = (uint8_t)i;
			mm->dsa_dev = (uint8_t)(i >> 8);
			break;
		case VAR_NIC:
			mm->ol |= t->bad_ip_csum ? RTE_MBUF_F_RX_IP_CKSUM_BAD :
						   RTE_MBUF_F_RX_IP_CKSUM_GOOD;
			mm->ol |= t->bad_tcp_csum ? RTE_MBUF_F_RX_L4_CKSUM_BAD :
						    RTE_MBUF_F_RX_L4_CKSUM_GOOD;
			break;
		default:
			break;
		}
	}
}

static struct rte_mbuf *
make(struct rte_mempool *mp, const struct seq *s, int i)
{
	static uint8_t buf[TPKT_MAX];
	uint32_t len = tpkt_build(&s->p[i], buf);
	struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, buf, len);
	const struct mbmeta *mm = &s->meta[i];

	m->ol_flags = mm->ol;
	m->vlan_tci = mm->vlan_tci;
	m->vlan_tci_outer = mm->vlan_tci_outer;
	m->hash.rss = mm->rss;
	gro_test_dsa_set(m, mm->dsa_valid, mm->dsa_port, mm->dsa_dev);
	return m;
}

static int
collect(struct rte_mbuf **o, int no, int *got, int max, int *n, int *fin)
{
	static uint8_t buf[TPKT_MAX];
	int i;

	for (i = 0; i < no; i++) {
		uint32_t len = tp_test_mbuf_to_bytes(o[i], buf, sizeof(buf));
		struct tview v;

		assert_int_equal(tview_parse(buf, len, &v), 0);
		if (o[i]->ol_flags & RTE_MBUF_F_RX_LRO) {
			tview_check_merged(o[i], o[i]->tso_segsz);
			assert_int_equal(tp_gro_segs(o[i]),
					 (v.paylen + o[i]->tso_segsz - 1) / o[i]->tso_segsz);
			assert_true(tp_gro_segs(o[i]) >= 2);
		}
		if (v.flags & 0x01)
			*fin = 1;
		if (!*fin) {
			assert_true(*n < max);
			got[(*n)++] = (int)v.paylen;
		}
		rte_pktmbuf_free(o[i]);
	}
	return 0;
}

int
seq_run(struct rte_mempool *mp, const struct seq *s, int *got, int max,
	struct tp_gro_stats *st)
{
	static struct rte_mbuf *in[SEQ_MAX], *out[2 * SEQ_MAX];
	struct tp_gro_conf conf = {
		.max_flows = 1024, .mode = TP_GRO_MODE_AGE, .age_tsc = 1,
		.socket_id = SOCKET_ID_ANY,
	};
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro *g;
	int i = 0, n = 0, fin = 0;

	assert_int_equal(tp_dsa_meta_register(), 0);   /* before create */
	g = tp_gro_create(&conf);

	assert_non_null(g);
	while (i < s->n) {
		int k = 0, no;

		do {
			in[k++] = make(mp, s, i++);
		} while (i < s->n && !s->flush_before[i]);
		no = tp_gro_merge_burst(g, in, (uint16_t)k, out, (uint16_t)(2 * k), 0);
		assert_true(no >= 0);
		collect(out, no, got, max, &n, &fin);
		/* a sleep point, or the end: the timer flush */
		no = tp_gro_flush_all(g, out, 2 * SEQ_MAX);
		collect(out, no, got, max, &n, &fin);
		assert_int_equal(tp_gro_held(g), 0);
	}
	tp_gro_stats_get(g, st);
	assert_int_equal(st->pkts_in, (uint64_t)s->n);
	assert_int_equal(st->pkts_out, st->passed + st->aggregates_out);
	assert_int_equal(st->pkts_in, st->passed + st->aggregates_out - st->merged_out +
			 st->segs_merged);
	tp_gro_destroy(g);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	return n;
}
