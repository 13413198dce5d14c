/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The strip fast paths give exactly what the reference paths give.
 *
 * DSA: for every tagger, every burst of random frames (random lengths,
 * chained or not, tag bytes biased towards what the tagger accepts, NIC
 * VLAN flags) is stripped twice from identical copies: by the tagger's
 * strip_burst (the Marvell fast path for dsa/edsa) and by its reference
 * loop (tp_dsa_strip_ref, the generic per-frame code). Kept count, every
 * byte of every kept frame, its lengths, data_off, flags and meta, the
 * drops in order with their reasons, and every counter must be equal.
 *
 * VLAN: tp_vlan_strip_burst (fast path inside) against a model of
 * tp_vlan.h's rules written here from the contract, frame by frame, over
 * random single/QinQ/untagged frames, TPID sets and NIC flags.
 *
 * Fused: tp_dsa_vlan_strip_prefix, then the two bursts on what it leaves,
 * against tp_dsa_strip_burst then tp_vlan_strip_burst on a copy, for
 * every tagger (the ones without a fused pass must take no frame), over
 * Marvell tags followed by 0-2 TPIDs, random TPID sets, configurations and
 * NIC flags: the same frames kept, byte for byte with every field and the
 * meta, the same drops and reasons, the same counters of both libraries,
 * and the frames it leaves untouched.
 */
#include <stdio.h>
#include <string.h>

#include "tp_test.h"
#include "tp_dsa_tag.h"
#include "tp_vlan.h"
#include "tag_impl.h"

#define BURST 32
#define MAXF 96

static struct rte_mempool *mp;
static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	/* room for two bursts of frames chained down to 1-byte segments */
	mp = tp_test_pool_create("fast", 2 * BURST * (MAXF + 1) + 64, 512);
	assert_int_equal(tp_dsa_meta_register(), 0);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	rte_mempool_free(mp);
	return 0;
}

/* A random frame; tag bytes at 12.. often a Marvell word of any command. */
static uint32_t
rand_frame(uint8_t *f)
{
	uint32_t len = rnd() % (MAXF + 1), b;

	for (b = 0; b < len; b++)
		f[b] = (uint8_t)rnd();
	if (len > 20 && rnd() % 4 != 0) {
		unsigned int at = 12;

		if (rnd() & 1) { /* edsa header */
			f[12] = 0xDA;
			f[13] = 0xDA;
			f[14] = 0;
			f[15] = 0;
			at = 16;
		}
		/* mostly FORWARD / TO_CPU, ports and devices small */
		f[at] = (uint8_t)((rnd() % 3 ? (rnd() & 1 ? 0xC0 : 0x00) : rnd() & 0xC0) |
				  (rnd() & 0x20) | (rnd() % 3 ? rnd() % 4 : rnd() & 0x1F));
		f[at + 1] = (uint8_t)((rnd() % 3 ? rnd() % 8 : rnd() & 0x1F) << 3 | (rnd() & 7));
	} else if (len > 16 && (rnd() & 1)) {
		f[12] = (uint8_t)(rnd() & 1 ? 0x81 : 0xda);
		f[13] = (uint8_t)(rnd() & 1 ? 0x00 : 0xdb);
	}
	return len;
}

static struct rte_mbuf *
make(const uint8_t *f, uint32_t len, uint16_t seg, uint64_t ol, uint16_t tci)
{
	struct rte_mbuf *m = seg ? tp_test_mbuf_chain_from_bytes(mp, f, len, seg)
				 : tp_test_mbuf_from_bytes(mp, f, len);

	assert_non_null(m);
	m->ol_flags = ol;
	m->vlan_tci = tci;
	return m;
}

/* Same bytes, segments, lengths, data_off, flags and meta. */
static void
assert_same_mbuf(const struct rte_mbuf *a, const struct rte_mbuf *b)
{
	static uint8_t ba[MAXF + 64], bb[MAXF + 64];
	uint32_t la = tp_test_mbuf_to_bytes(a, ba, sizeof(ba));
	uint32_t lb = tp_test_mbuf_to_bytes(b, bb, sizeof(bb));

	assert_int_equal(la, lb);
	assert_memory_equal(ba, bb, la);
	assert_int_equal(a->pkt_len, b->pkt_len);
	assert_int_equal(a->nb_segs, b->nb_segs);
	for (; a != NULL; a = a->next, b = b->next) {
		assert_int_equal(a->data_off, b->data_off);
		assert_int_equal(a->data_len, b->data_len);
	}
}

static void
assert_same_head(const struct rte_mbuf *a, const struct rte_mbuf *b)
{
	assert_same_mbuf(a, b);
	assert_int_equal(a->ol_flags, b->ol_flags);
	assert_int_equal(a->vlan_tci, b->vlan_tci);
	assert_int_equal(a->vlan_tci_outer, b->vlan_tci_outer);
	assert_memory_equal(RTE_MBUF_DYNFIELD(a, tp_dsa_meta_offset, const void *),
			    RTE_MBUF_DYNFIELD(b, tp_dsa_meta_offset, const void *),
			    sizeof(struct tp_dsa_meta));
}

static int
index_of(struct rte_mbuf *const *v, const struct rte_mbuf *m)
{
	for (int i = 0; i < BURST; i++)
		if (v[i] == m)
			return i;
	return -1;
}

static void
random_conf(struct tp_dsa_conf *c, const struct tp_dsa_tagger *t)
{
	memset(c, 0, sizeof(*c));
	switch (rnd() % 4) {
	case 0:
		c->n_ports = (uint16_t)(1 + rnd() % (t->rx_ports ? t->rx_ports : 1u));
		c->n_devices = (uint8_t)(rnd() % (t->devices + 1u));
		break;
	case 1:
		c->flags = TP_DSA_CONF_F_NO_TRUNK;
		break;
	default:
		break;
	}
	if (rnd() % 8 == 0)
		c->flags |= TP_DSA_CONF_F_SWITCH_SIDE;
}

static void
test_dsa_fast_vs_ref(void **state)
{
	const struct tp_dsa_tagger *all[64];
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int n = tp_dsa_tagger_list(all, 64);
	uint64_t kept = 0, dropped = 0;

	(void)state;
	for (unsigned int i = 0; i < n; i++) {
		const struct tp_dsa_tagger *t = all[i];
		tp_dsa_burst_fn ref = tp_dsa_strip_ref(t->proto);

		assert_non_null(ref);
		for (unsigned int round = 0; round < 60; round++) {
			struct rte_mbuf *a[BURST], *b[BURST], *oa[BURST], *ob[BURST];
			struct rte_mbuf *da[BURST], *db[BURST];
			uint8_t ra[BURST], rb[BURST];
			struct tp_dsa_stats sa = { 0 }, sb = { 0 };
			struct tp_dsa_conf c;
			uint16_t ka, kb;

			random_conf(&c, t);
			for (unsigned int j = 0; j < BURST; j++) {
				uint8_t f[MAXF];
				uint32_t len = rand_frame(f);
				uint16_t seg = len > 1 && rnd() % 4 == 0 ? (uint16_t)(1 + rnd() % len) : 0;
				uint64_t ol = rnd() % 4 == 0 ? RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED : 0;
				uint16_t tci = (uint16_t)rnd();

				oa[j] = a[j] = make(f, len, seg, ol, tci);
				ob[j] = b[j] = make(f, len, seg, ol, tci);
			}
			ka = tp_dsa_strip_burst_reasons(t, a, BURST, &c, da, ra, &sa);
			kb = ref(b, BURST, &c, db, rb, &sb);
			assert_int_equal(ka, kb);
			assert_memory_equal(&sa, &sb, sizeof(sa));
			for (unsigned int j = 0, x = 0, y = 0; j < BURST; j++) {
				/* the same frames kept (by input index), the same dropped */
				int kept_a = x < ka && a[x] == oa[j];
				int kept_b = y < kb && b[y] == ob[j];

				assert_int_equal(kept_a, kept_b);
				if (kept_a) {
					assert_same_head(a[x], b[y]);
					x++;
					y++;
				}
			}
			for (unsigned int j = 0; j < (unsigned int)(BURST - ka); j++) {
				assert_int_equal(ra[j], rb[j]);
				assert_int_equal(index_of(oa, da[j]), index_of(ob, db[j]));
			}
			kept += ka;
			dropped += BURST - ka;
			rte_pktmbuf_free_bulk(a, ka);
			rte_pktmbuf_free_bulk(b, kb);
			rte_pktmbuf_free_bulk(da, BURST - ka);
			rte_pktmbuf_free_bulk(db, BURST - kb);
		}
	}
	fprintf(stderr, "dsa fast vs ref: %lu kept, %lu dropped\n", (unsigned long)kept,
		(unsigned long)dropped);
	assert_true(kept > 10000 && dropped > 10000);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* ---- VLAN: the contract of tp_vlan.h as a model ---- */

struct vlan_expect {
	int drop;                 /* -1 kept, else the reason */
	int tags;                 /* tags removed from the frame (0..2) */
	uint64_t ol;
	uint16_t tci, tci_outer;
};

static int
in_set(const uint16_t *set, unsigned int n, const uint8_t *p)
{
	uint16_t v = (uint16_t)(p[0] << 8 | p[1]);

	for (unsigned int i = 0; i < n; i++)
		if (set[i] == v)
			return 1;
	return 0;
}

static struct vlan_expect
vlan_model(const uint16_t *set, unsigned int nset, const uint8_t *f, uint32_t len,
	   uint32_t first, uint64_t ol, uint16_t tci, uint16_t tci_outer)
{
	const uint64_t fv = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	const uint64_t fq = RTE_MBUF_F_RX_QINQ | RTE_MBUF_F_RX_QINQ_STRIPPED;
	struct vlan_expect e = { .drop = -1, .ol = ol, .tci = tci, .tci_outer = tci_outer };
	int nic1 = (ol & RTE_MBUF_F_RX_VLAN_STRIPPED) != 0;
	/* a tag is read only with its bytes up to the next EtherType in the
	 * first segment; a cut one is "too_short" when the whole frame is
	 * shorter, else "tag_not_contiguous" */
	if (ol & RTE_MBUF_F_RX_QINQ_STRIPPED)
		return e;
	if (first < 14) {
		if (len >= 14)
			e.drop = TP_VLAN_DROP_SEGMENTED;
		return e;
	}
	if (!in_set(set, nset, f + 12))
		return e;
	if (first < 18) {
		e.drop = len >= 18 ? TP_VLAN_DROP_SEGMENTED : TP_VLAN_DROP_TOO_SHORT;
		return e;
	}
	if (nic1) {
		e.tags = 1;
		e.tci_outer = tci;
		e.tci = (uint16_t)(f[14] << 8 | f[15]);
		e.ol |= fv | fq;
		return e;
	}
	if (!in_set(set, nset, f + 16)) {
		e.tags = 1;
		e.tci = (uint16_t)(f[14] << 8 | f[15]);
		e.ol |= fv;
		return e;
	}
	if (first < 22) {
		e.drop = len >= 22 ? TP_VLAN_DROP_SEGMENTED : TP_VLAN_DROP_TOO_SHORT;
		return e;
	}
	e.tags = 2;
	e.tci_outer = (uint16_t)(f[14] << 8 | f[15]);
	e.tci = (uint16_t)(f[18] << 8 | f[19]);
	e.ol |= fv | fq;
	return e;
}

static void
test_vlan_fast_vs_model(void **state)
{
	static const uint16_t tpids[] = { 0x8100, 0x88A8, 0x9100, 0x9200, 0xDADA };
	unsigned int start = tp_test_pool_in_use(mp);
	uint64_t by_tags[3] = { 0 }, drops = 0;

	(void)state;
	for (unsigned int round = 0; round < 400; round++) {
		struct tp_vlan_conf vc;
		struct tp_vlan_stats st = { 0 };
		struct rte_mbuf *m[BURST], *orig[BURST], *dr[BURST];
		struct vlan_expect e[BURST];
		uint8_t f[BURST][MAXF], why[BURST];
		uint32_t len[BURST];
		uint16_t set[TP_VLAN_MAX_TPIDS];
		unsigned int nset = round % 7 == 0 ? 0 : 1 + rnd() % TP_VLAN_MAX_TPIDS;
		uint16_t k, nd = 0;

		tp_vlan_conf_init(&vc);
		for (unsigned int s = 0; s < nset; s++)
			set[s] = tpids[rnd() % RTE_DIM(tpids)];
		if (nset > 0)
			assert_int_equal(tp_vlan_conf_set_tpids(&vc, set, nset), 0);
		else
			vc.n_tpid = 0;
		for (unsigned int j = 0; j < BURST; j++) {
			uint16_t seg;
			uint64_t ol = 0;
			uint16_t tci = (uint16_t)rnd(), tco = (uint16_t)rnd();

			len[j] = rnd() % (MAXF + 1);
			for (uint32_t b = 0; b < len[j]; b++)
				f[j][b] = (uint8_t)rnd();
			for (unsigned int at = 12; at + 2 <= len[j] && at <= 16; at += 4)
				if (rnd() % 4 != 0) {
					uint16_t tp = tpids[rnd() % RTE_DIM(tpids)];

					f[j][at] = (uint8_t)(tp >> 8);
					f[j][at + 1] = (uint8_t)tp;
				}
			seg = len[j] > 1 && rnd() % 4 == 0 ? (uint16_t)(1 + rnd() % len[j]) : 0;
			if (rnd() % 5 == 0)
				ol = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
			else if (rnd() % 9 == 0)
				ol = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED |
				     RTE_MBUF_F_RX_QINQ | RTE_MBUF_F_RX_QINQ_STRIPPED;
			ol |= rnd() % 2 ? RTE_MBUF_F_RX_IP_CKSUM_GOOD : 0;
			orig[j] = m[j] = make(f[j], len[j], seg, ol, tci);
			m[j]->vlan_tci_outer = tco;
			e[j] = vlan_model(vc.n_tpid ? set : NULL, nset, f[j], len[j],
					  seg && seg < len[j] ? seg : len[j], ol, tci, tco);
		}
		k = tp_vlan_strip_burst_reasons(&vc, m, BURST, dr, why, &st);
		for (unsigned int j = 0, x = 0; j < BURST; j++) {
			if (e[j].drop >= 0) {
				assert_ptr_equal(dr[nd], orig[j]);
				assert_int_equal(why[nd], e[j].drop);
				nd++;
				drops++;
				continue;
			}
			assert_ptr_equal(m[x], orig[j]);
			{
				/* the MACs, then what followed the removed tags */
				uint8_t want[MAXF];
				uint32_t by = 4u * (unsigned int)e[j].tags;

				memcpy(want, f[j], len[j]);
				if (by > 0)
					memmove(want + 12, want + 12 + by, len[j] - 12 - by);
				tp_test_assert_mbuf_bytes(m[x], want, len[j] - by);
			}
			assert_int_equal(m[x]->ol_flags, e[j].ol);
			assert_int_equal(m[x]->vlan_tci, e[j].tci);
			assert_int_equal(m[x]->vlan_tci_outer, e[j].tci_outer);
			by_tags[e[j].tags]++;
			x++;
		}
		assert_int_equal(k, BURST - nd);
		assert_int_equal(st.in, BURST);
		assert_int_equal(st.out, k);
		rte_pktmbuf_free_bulk(m, k);
		rte_pktmbuf_free_bulk(dr, nd);
	}
	fprintf(stderr, "vlan fast vs model: %lu untouched, %lu single, %lu qinq, %lu drops\n",
		(unsigned long)by_tags[0], (unsigned long)by_tags[1],
		(unsigned long)by_tags[2], (unsigned long)drops);
	assert_true(by_tags[0] > 1000 && by_tags[1] > 1000 && by_tags[2] > 300 && drops > 300);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* ---- fused switch tag + VLAN strip against the two bursts ---- */

/* A frame for tagger t: often a Marvell word after the SA (after DA DA 00
 * 00 for edsa), then 0-2 TPIDs from a small set, at the tagger's offset.
 * clean: one the fused pass takes, mostly (long enough, a FORWARD or
 * TO_CPU word without "tagged"), so that bursts reach their end in it. */
static uint32_t
rand_fused_frame(uint8_t *f, const struct tp_dsa_tagger *t, int clean)
{
	static const uint16_t tpids[] = { 0x8100, 0x88A8, 0x9100, 0xDADA };
	unsigned int hdr = t->proto == TP_DSA_PROTO_EDSA ? 4 : 0;
	uint32_t len = rand_frame(f);

	if (clean)
		len = 40 + rnd() % (MAXF - 39);
	else if (rnd() % 8 == 0)
		len = 20 + hdr + rnd() % 16; /* around the 24 bytes after the tag */
	if (!clean && (len < 12 + hdr + 4 || rnd() % 8 == 0))
		return len;
	if (hdr) {
		f[12] = 0xDA;
		f[13] = 0xDA;
		f[14] = 0;
		f[15] = 0;
	}
	/* FORWARD or TO_CPU code 0, "tagged" now and then, small port */
	f[12 + hdr] = (uint8_t)((rnd() % 4 ? 0xC0 : rnd() & 0xC0) |
				(clean || rnd() % 6 ? 0 : 0x20) | (rnd() % 4));
	f[13 + hdr] = (uint8_t)((rnd() % 8) << 3 | (rnd() % 4 ? 0 : rnd() & 7));
	if (clean && rnd() % 64 != 0) {
		/* FORWARD or TO_CPU with code 0: no trunk, no code bits */
		f[12 + hdr] = (uint8_t)((rnd() & 1 ? 0xC0 : 0) | (rnd() % 4));
		f[13 + hdr] &= 0xF8;
		f[14 + hdr] &= 0xEF;
	}
	for (unsigned int at = 16 + hdr; at + 2 <= len && at <= 20 + hdr; at += 4)
		if (rnd() % 5 != 0) {
			uint16_t tp = tpids[rnd() % RTE_DIM(tpids)];

			f[at] = (uint8_t)(tp >> 8);
			f[at + 1] = (uint8_t)tp;
		}
	return len;
}

static void
test_fused_vs_two_bursts(void **state)
{
	static const struct {
		unsigned int n;
		uint16_t t[3];
	} sets[] = {
		{ 2, { 0x8100, 0x88A8 } }, { 1, { 0x88A8 } }, { 3, { 0x8100, 0x9100, 0x88A8 } },
	};
	const struct tp_dsa_tagger *all[64];
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int nt = tp_dsa_tagger_list(all, 64);
	uint64_t fused = 0, fz[3] = { 0 }, by_tags[3] = { 0 }, dropped = 0;

	(void)state;
	for (unsigned int i = 0; i < nt; i++) {
		const struct tp_dsa_tagger *t = all[i];
		int marvell = t->proto == TP_DSA_PROTO_DSA || t->proto == TP_DSA_PROTO_EDSA;

		for (unsigned int round = 0; round < (marvell ? 600u : 20u); round++) {
			struct rte_mbuf *a[BURST], *b[BURST], *oa[BURST], *ob[BURST];
			struct rte_mbuf *da[2 * BURST], *db[2 * BURST];
			uint8_t ra[2 * BURST], rb[2 * BURST];
			uint8_t before[MAXF + 64];
			uint32_t before_len = 0;
			struct tp_dsa_stats sa = { 0 }, sb = { 0 };
			struct tp_vlan_stats va = { 0 }, vb = { 0 };
			struct tp_vlan_conf vc, *vcp = &vc;
			struct tp_dsa_conf c, *cp = rnd() % 2 ? &c : NULL; /* NULL: defaults */
			uint16_t j, ka, kb, nda, ndb, k1;
			unsigned int set = rnd() % (RTE_DIM(sets) + 2);
			int clean = rnd() % 2;

			random_conf(&c, t);
			tp_vlan_conf_init(&vc);
			if (set < RTE_DIM(sets))
				assert_int_equal(tp_vlan_conf_set_tpids(&vc, sets[set].t,
									 sets[set].n), 0);
			else if (set == RTE_DIM(sets))
				vc.n_tpid = 0;
			else
				vcp = NULL; /* tp_vlan's defaults */
			for (unsigned int x = 0; x < BURST; x++) {
				uint8_t f[MAXF];
				uint32_t len = rand_fused_frame(f, t, clean);
				uint16_t seg = len > 1 && rnd() % (clean ? 64 : 6) == 0 ?
					       (uint16_t)(1 + rnd() % len) : 0;
				uint64_t ol = rnd() % (clean ? 64 : 8) == 0 ?
					      RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED : 0;
				uint16_t tci = (uint16_t)rnd();

				oa[x] = a[x] = make(f, len, seg, ol, tci);
				ob[x] = b[x] = make(f, len, seg, ol, tci);
				a[x]->vlan_tci_outer = b[x]->vlan_tci_outer = (uint16_t)rnd();
			}
			/* fused pass; the frame it stops at must be as it was */
			j = tp_dsa_vlan_strip_prefix(t, a, BURST, cp, vcp, &sa, &va);
			if (!marvell)
				assert_int_equal(j, 0);
			if (j < BURST)
				before_len = tp_test_mbuf_to_bytes(b[j], before, sizeof(before));
			if (j < BURST) {
				uint8_t now[MAXF + 64];

				assert_int_equal(tp_test_mbuf_to_bytes(a[j], now, sizeof(now)),
						 before_len);
				assert_memory_equal(now, before, before_len);
				assert_int_equal(a[j]->ol_flags, b[j]->ol_flags);
			}
			fused += j;
			fz[0] += va.untagged; /* what the fused pass stripped */
			fz[1] += va.single;
			fz[2] += va.qinq;
			k1 = j + tp_dsa_strip_burst_reasons(t, a + j, BURST - j, cp, da, ra, &sa);
			nda = BURST - k1;
			ka = j + tp_vlan_strip_burst_reasons(vcp, a + j, k1 - j, da + nda,
							     ra + nda, &va);
			nda += k1 - ka;
			k1 = tp_dsa_strip_burst_reasons(t, b, BURST, cp, db, rb, &sb);
			ndb = BURST - k1;
			kb = tp_vlan_strip_burst_reasons(vcp, b, k1, db + ndb, rb + ndb, &vb);
			ndb += k1 - kb;

			assert_int_equal(ka, kb);
			assert_int_equal(nda, ndb);
			assert_memory_equal(&sa, &sb, sizeof(sa));
			assert_memory_equal(&va, &vb, sizeof(va));
			for (unsigned int x = 0; x < ka; x++) {
				assert_int_equal(index_of(oa, a[x]), index_of(ob, b[x]));
				assert_same_head(a[x], b[x]);
			}
			for (unsigned int x = 0; x < nda; x++) {
				assert_int_equal(ra[x], rb[x]);
				assert_int_equal(index_of(oa, da[x]), index_of(ob, db[x]));
			}
			by_tags[0] += va.untagged;
			by_tags[1] += va.single;
			by_tags[2] += va.qinq;
			dropped += nda;
			rte_pktmbuf_free_bulk(a, ka);
			rte_pktmbuf_free_bulk(b, kb);
			rte_pktmbuf_free_bulk(da, nda);
			rte_pktmbuf_free_bulk(db, ndb);
		}
	}
	fprintf(stderr, "fused vs two bursts: %lu frames fused (%lu untagged, %lu single, "
		"%lu qinq); in all %lu untagged, %lu single, %lu qinq, %lu dropped\n",
		(unsigned long)fused, (unsigned long)fz[0], (unsigned long)fz[1],
		(unsigned long)fz[2], (unsigned long)by_tags[0], (unsigned long)by_tags[1],
		(unsigned long)by_tags[2], (unsigned long)dropped);
	assert_true(fz[0] > 500 && fz[1] > 500 && fz[2] > 500);
	assert_true(by_tags[1] > 1000 && by_tags[2] > 1000 && dropped > 1000);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dsa_fast_vs_ref),
		cmocka_unit_test(test_vlan_fast_vs_model),
		cmocka_unit_test(test_fused_vs_two_bursts),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
