/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_gro_merge_burst: walk the burst in arrival order (prefetching ahead).
 * A segment that continues a held flow is appended by the fast path
 * (gro_fast.h) without a parse; any other is parsed, its flow's held
 * aggregate found in its bucket, Linux's flush rules applied (docs/ref/gro.md §1.3), and
 * it is appended, starts a new aggregate or passes through.
 */
#include <errno.h>

#include <rte_branch_prediction.h>
#include <rte_prefetch.h>

#include "gro_priv.h"
#include "gro_parse.h"
#include "gro_fast.h"

#define GRO_PREFETCH 4

static inline int
key_eq(const struct gro_key *a, const struct gro_key *b)
{
	uint64_t d = 0;
	int i;

	for (i = 0; i < 10; i++)
		d |= a->w[i] ^ b->w[i];
	return d == 0;
}

static inline int
ext_eq(const struct gro_flow *f, const struct gro_pkt *p)
{
	const uint8_t *a = rte_pktmbuf_mtod_offset(f->head, const uint8_t *, f->l2_len + 40);
	const uint8_t *b = rte_pktmbuf_mtod_offset(p->m, const uint8_t *, p->l2_len + 40);
	uint32_t k = p->ext_patch;

	if (k == GRO_NIL)
		return memcmp(a, b, p->key.ext_len) == 0;
	/* the held flow's byte at the fragment's next-header position is TCP */
	return memcmp(a, b, k) == 0 && a[k] == 6 &&
	       memcmp(a + k + 1, b + k + 1, p->key.ext_len - k - 1) == 0;
}

/* Held entry of p's flow, or GRO_NIL. Extension headers are compared byte
 * for byte against the held head (its headers are intact while held). */
static inline uint16_t
lookup(const struct tp_gro *g, const struct gro_pkt *p)
{
	const struct gro_bucket *b = &g->buckets[p->hash & g->bucket_mask];
	unsigned int used = b->used;

	while (used) {
		unsigned int i = (unsigned int)__builtin_ctz(used);
		const struct gro_flow *f;

		used &= used - 1;
		if (b->hash[i] != p->hash)
			continue;
		f = &g->flows[b->flow[i]];
		if (!key_eq(&f->key, &p->key))
			continue;
		if (p->key.ext_len != 0 && !ext_eq(f, p))
			continue;
		if ((p->key.flags & GRO_KF_TUN) &&
		    (f->tkey_len != p->tkey_len || memcmp(f->tkey, p->tkey, p->tkey_len) != 0))
			continue;
		return b->flow[i];
	}
	return GRO_NIL;
}

/* TP_GRO_FLUSH_MAX: p may be appended to f; else the reason to flush f. */
/* inet_gro_flush for the outer IPv4 header of a tunnel: its own fixed-ID
 * bit, decided by the second segment as for the inner one. */
static inline int
oipid_ok(const struct gro_flow *f, uint16_t id)
{
	uint16_t off = (uint16_t)(id - f->o_first_id);

	if (f->segs == 1)
		return off <= 1;
	return off == (f->o_id_mode == GRO_ID_FIXED ? 0 : f->segs);
}

/* The rules beyond plain TCP: the outer header of a tunnel
 * (gro_receive_network_flush on the outer level), UDP GRO's
 * (udp_gro_receive_segment: a datagram longer than the first completes the
 * aggregate; IP rules as TCP's). TP_GRO_FLUSH_MAX: no objection. */
static inline enum tp_gro_flush_reason
check_ext(const struct gro_flow *f, const struct gro_pkt *p)
{
	if (f->tun != GRO_TUN_NONE &&
	    (p->ol3w != f->ol3w || (!p->ov6 && !oipid_ok(f, p->o_id))))
		return TP_GRO_FLUSH_OUTER;
	if (f->l4p == NH_UDP) {
		if (p->paylen > f->mss)
			return TP_GRO_FLUSH_MSS;
		if (p->l3w != f->l3w)
			return TP_GRO_FLUSH_L3;
		if (!p->v6 && !ipid_ok(f, p->ip_id))
			return TP_GRO_FLUSH_IPID;
	}
	return TP_GRO_FLUSH_MAX;
}

static inline enum tp_gro_flush_reason
check(const struct tp_gro *g, const struct gro_flow *f, const struct gro_pkt *p)
{
	if (unlikely(p->key.flags & (GRO_KF_TUN | GRO_KF_UDP))) {
		enum tp_gro_flush_reason why = check_ext(f, p);

		if (why != TP_GRO_FLUSH_MAX)
			return why;
		if (f->l4p == NH_UDP)
			goto size;
	}
	if ((p->tcpw ^ f->tcpw) & ~(GRO_TCPW_PSH | GRO_TCPW_FIN))
		return TP_GRO_FLUSH_FLAGS;
	if (p->ack != f->ack)
		return TP_GRO_FLUSH_ACK;
	if (p->optlen != 0 && memcmp(p->opts, f->opts, p->optlen) != 0)
		return TP_GRO_FLUSH_OPTS;
	if (p->seq != f->next_seq)
		return TP_GRO_FLUSH_SEQ;
	if (p->paylen > f->mss)
		return TP_GRO_FLUSH_MSS;
	if (p->l3w != f->l3w)
		return TP_GRO_FLUSH_L3;
	if (!p->v6 && !ipid_ok(f, p->ip_id))
		return TP_GRO_FLUSH_IPID;
size:
	/* the outermost IP datagram is what gro_max_size caps */
	if (f->ip_len + p->paylen > g->max_ip_len ||
	    (uint32_t)f->mbufs + p->m->nb_segs > RTE_MBUF_MAX_NB_SEGS)
		return TP_GRO_FLUSH_SIZE;
	return TP_GRO_FLUSH_MAX;
}

/* Append segment m (payload paylen, IPv4 ID ip_id) to f. */
static inline void
append(struct tp_gro *g, struct gro_flow *f, struct rte_mbuf *m, uint32_t paylen,
       uint16_t ip_id, uint16_t o_id, int ext)
{
	const uint8_t *th;

	if (f->segs == 1)
		f->id_mode = (f->v6 || ip_id != f->first_id) ? GRO_ID_INC : GRO_ID_FIXED;
	f->id_next = (uint16_t)(ip_id + (f->id_mode == GRO_ID_INC));
	th = rte_pktmbuf_mtod_offset(m, const uint8_t *, f->l2_len + f->l3_len);
	f->psh_fin = th[13] & 0x09;        /* PSH | FIN of the last segment */
	if (unlikely(ext)) {
		/* a tunnel's outer ID mode, decided as the inner one */
		if (f->segs == 1)
			f->o_id_mode = (f->ov6 || o_id != f->o_first_id) ? GRO_ID_INC :
									   GRO_ID_FIXED;
		f->o_id_next = (uint16_t)(o_id + (f->o_id_mode == GRO_ID_INC));
		if (f->l4p != NH_TCP)
			f->psh_fin = 0;
	}
	/* keep only the payload: headers stay in the headroom, padding goes
	 * (a chained packet has no padding: see trailer()) */
	m->data_off = (uint16_t)(m->data_off + f->hdr_len);
	m->pkt_len = paylen;
	if (m->nb_segs == 1) {
		m->data_len = (uint16_t)paylen;
		f->tail->next = m;
		f->tail = m;
		f->mbufs++;
	} else if (m->data_len == f->hdr_len) {
		/* the first mbuf held only the headers: leave no zero-length
		 * segment in the chain (TX paths may refuse one); the rest of
		 * the chain joins, the emptied mbuf goes back to its pool */
		struct rte_mbuf *rest = m->next;

		f->tail->next = rest;
		f->mbufs = (uint16_t)(f->mbufs + m->nb_segs - 1);
		f->tail = rte_pktmbuf_lastseg(rest);
		m->next = NULL;
		m->nb_segs = 1;
		rte_pktmbuf_free_seg(m);
	} else {
		m->data_len = (uint16_t)(m->data_len - f->hdr_len);
		f->tail->next = m;
		f->mbufs = (uint16_t)(f->mbufs + m->nb_segs);
		f->tail = rte_pktmbuf_lastseg(m);
	}
	f->next_seq += paylen;
	f->ip_len += paylen;
	f->segs++;
	g->held_segs++;
}

/* After an append: complete f at once when the segment was short, carried
 * PSH/FIN or filled conf.max_segs (tcp_gro_receive's final checks). */
static __rte_always_inline void
after_append(struct tp_gro *g, uint16_t idx, uint32_t paylen, struct rte_mbuf **out,
	     uint32_t *no, const int udp)
{
	const struct gro_flow *f = &g->flows[idx];
	enum tp_gro_flush_reason why;

	if (paylen < f->mss)
		why = TP_GRO_FLUSH_SHORT;
	else if (f->psh_fin)
		why = TP_GRO_FLUSH_PSH_FIN;
	else if (f->segs >= g->max_segs || (udp && f->segs >= GRO_UDP_CNT_MAX))
		why = TP_GRO_FLUSH_MAX_SEGS;
	else {
		g->last = idx;
		return;
	}
	out[(*no)++] = gro_complete(g, idx, why);
}

/* A packet that is not held: the held aggregate of its flow (idx, or
 * GRO_NIL) leaves first, so the flow stays in order; in kernel order, not
 * when Linux lets the packet overtake it. */
static inline void
pass_through(struct tp_gro *g, uint16_t idx, struct rte_mbuf *m, uint8_t reason,
	     int early, struct rte_mbuf **out, uint32_t *no)
{
	if (idx != GRO_NIL && !(g->kernel && early))
		out[(*no)++] = gro_complete(g, idx, TP_GRO_FLUSH_BYPASS);
	g->st.pass[reason]++;
	g->st.passed++;
	out[(*no)++] = m;
}

static inline void
start(struct tp_gro *g, const struct gro_pkt *p, uint64_t now, struct rte_mbuf **out,
      uint32_t *no)
{
	struct gro_bucket *b = &g->buckets[p->hash & g->bucket_mask];
	struct gro_flow *f;
	uint16_t idx;
	unsigned int slot;

	if (b->used == 0xFF) {
		/* gro_flush_oldest: the bucket's oldest aggregate goes (docs/ref/gro.md §2) */
		uint16_t old = b->flow[0];
		unsigned int i;

		for (i = 1; i < GRO_BUCKET_SLOTS; i++)
			if ((int32_t)(g->flows[b->flow[i]].birth - g->flows[old].birth) < 0)
				old = b->flow[i];
		out[(*no)++] = gro_complete(g, old, TP_GRO_FLUSH_BUCKET_FULL);
	}
	if (g->nb_free == 0)
		out[(*no)++] = gro_complete(g, g->age_head, TP_GRO_FLUSH_TABLE_FULL);
	slot = (unsigned int)__builtin_ctz(~(unsigned int)b->used);
	idx = gro_flow_alloc(g);
	f = &g->flows[idx];
	f->next_seq = p->seq + p->paylen;
	f->ack = p->ack;
	f->tcpw = p->tcpw;
	f->l3w = p->l3w;
	f->hash = p->hash;
	f->mss = p->paylen;
	f->segs = 1;
	f->first_id = p->ip_id;
	f->id_next = (uint16_t)(p->ip_id + 1);
	f->hdr_len = (uint16_t)(p->l2_len + p->l3_len + p->l4_len);
	f->l4_off = (uint16_t)(p->l2_len + p->l3_len);
	f->frame = (uint16_t)(f->hdr_len + p->paylen);
	/* incrementing until a second segment with the first's ID says fixed
	 * (nothing reads the mode of a one-segment aggregate) */
	f->id_mode = GRO_ID_INC;
	f->psh_fin = 0;
	f->optlen = p->optlen;
	f->v6 = p->v6;
	f->start_tsc = now;
	f->birth = g->births++;
	f->head = p->m;
	f->tail = rte_pktmbuf_lastseg(p->m);
	f->mbufs = p->m->nb_segs;
	f->head_single = p->m->nb_segs == 1;
	f->l2_len = p->l2_len;
	f->l3_len = p->l3_len;
	memcpy(f->opts, p->opts, p->optlen);
	f->key = p->key;
	/* a plain TCP flow never reads the fields below (GRO_META_EXT) */
	f->meta = 0;
	f->o_extra = 0;
	if (unlikely(p->key.flags & (GRO_KF_TUN | GRO_KF_UDP))) {
		f->meta = GRO_META_EXT;
		f->l4p = p->l4p;
		f->tun = p->tun;
		f->o_id_next = (uint16_t)(p->o_id + 1);
		f->ov6 = p->ov6;
		f->ucsum = p->ucsum;
		f->o_hl = p->o_hl;
		f->o_l3 = p->o_l3;
		f->o_first_id = p->o_id;
		f->o_id_mode = GRO_ID_INC;
		f->ol3w = p->ol3w;
		f->tkey_len = p->tkey_len;
		memcpy(f->tkey, p->tkey, p->tkey_len);
		if (p->tun != GRO_TUN_NONE)
			f->o_extra = (uint16_t)(p->l2_len - p->o_l3);
	}
	f->ip_len = p->ip_len + f->o_extra;
	fast_setup(g, f, p);
	gro_flow_link(g, idx, p->hash & g->bucket_mask, (uint8_t)slot);
	g->last = idx;
}

static inline void
process(struct tp_gro *g, const struct gro_pkt *p, uint64_t now,
	struct rte_mbuf **out, uint32_t *no)
{
	enum tp_gro_flush_reason why;
	uint16_t idx;

	if (p->pass != GRO_HOLDABLE) {
		pass_through(g, p->has_key ? lookup(g, p) : GRO_NIL, p->m, p->pass, p->early,
			     out, no);
		return;
	}
	idx = lookup(g, p);
	if (idx != GRO_NIL) {
		why = check(g, &g->flows[idx], p);
		if (why == TP_GRO_FLUSH_MAX) {
			append(g, &g->flows[idx], p->m, p->paylen, p->ip_id, p->o_id,
			       p->key.flags & (GRO_KF_TUN | GRO_KF_UDP));
			if (unlikely(p->key.flags & GRO_KF_UDP))
				after_append(g, idx, p->paylen, out, no, 1);
			else
				after_append(g, idx, p->paylen, out, no, 0);
			return;
		}
		out[(*no)++] = gro_complete(g, idx, why);
	}
	if (p->l4p == NH_TCP && (p->tcpw & (GRO_TCPW_PSH | GRO_TCPW_FIN))) {
		/* a flush-marked segment with nothing to join is not held */
		pass_through(g, GRO_NIL, p->m, TP_GRO_PASS_PSH_FIN, 0, out, no);
		return;
	}
	start(g, p, now, out, no);
}

/* The bucket hash of m without a full parse: the NIC's RSS hash, else
 * sw_hash() over the addresses and ports of plain TCP over IPv4 (IHL 5) or
 * IPv6 (no extension header) behind at most two in-frame tags. 0 when the
 * frame is not that simple (the full parse then decides). */
/* fast_hash of VXLAN over IPv4 (UDP header at u), no inner tags: the
 * full parse hashes a tunnel packet by its inner addresses and ports, the
 * outer key being compared in full (tkey). */
static __rte_noinline int
fast_hash_vxlan(const struct tp_gro *g, const struct rte_mbuf *m, const uint8_t *d,
		uint32_t u, uint32_t *h)
{
	uint32_t in = u + 8 + 8 + ETH_HLEN, ports;
	uint16_t dport, et;

	if (m->data_len < in + 40 + 4)
		return 0;
	memcpy(&dport, d + u + 2, 2);
	if (!is_vxlan_port(g, dport))
		return 0;
	et = rd16(d + in - 2);
	if (et == ET_IPV4 && d[in] == 0x45 && d[in + 9] == NH_TCP) {
		memcpy(&ports, d + in + 20, 4);
		*h = sw_hash(d + in, 0, ports);
		return 1;
	}
	if (et == ET_IPV6 && (d[in] >> 4) == 6 && d[in + 6] == NH_TCP) {
		memcpy(&ports, d + in + 40, 4);
		*h = sw_hash(d + in, 1, ports);
		return 1;
	}
	return 0;
}

static inline int
fast_hash(const struct tp_gro *g, const struct rte_mbuf *m, uint32_t *h)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t l2 = ETH_HLEN, ports;
	uint16_t et;

	if (m->ol_flags & RTE_MBUF_F_RX_RSS_HASH) {
		*h = m->hash.rss;
		return 1;
	}
	if (g->kernel) {
		*h = 0;                /* an skb without a hash */
		return 1;
	}
	if (m->data_len < ETH_HLEN + 4 + 4 + 40 + 4)
		return 0;
	et = rd16(d + 12);
	if (et == ET_8021Q || et == ET_8021AD) {
		et = rd16(d + 16);
		l2 += 4;
		if (et == ET_8021Q || et == ET_8021AD) {
			et = rd16(d + 20);
			l2 += 4;
		}
	}
	if (et == ET_IPV4 && d[l2] == 0x45 && d[l2 + 9] == NH_TCP) {
		memcpy(&ports, d + l2 + 20, 4);
		*h = sw_hash(d + l2, 0, ports);
		return 1;
	}
	if (et == ET_IPV6 && (d[l2] >> 4) == 6 && d[l2 + 6] == NH_TCP &&
	    m->data_len >= l2 + 40 + 4) {
		memcpy(&ports, d + l2 + 40, 4);
		*h = sw_hash(d + l2, 1, ports);
		return 1;
	}
	if (unlikely(g->tun_vxlan) && et == ET_IPV4 && d[l2] == 0x45 && d[l2 + 9] == NH_UDP)
		return fast_hash_vxlan(g, m, d, l2 + 20, h);
	return 0;
}

/* Start loading the header bytes the fast path compares (up to 96 from
 * the frame's start: two lines unless the frame starts in a line's first
 * half). */
static __rte_always_inline void
gro_prefetch_hdr(const struct rte_mbuf *m)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);

	rte_prefetch0(d);
	rte_prefetch0(d + 64);
}

/* How many segments f may hold at the end of a train of full-size
 * segments: seg_cap (conf.max_segs, then it is completed, or the IP length
 * cap) and the chain's RTE_MBUF_MAX_NB_SEGS. Past the last two the next
 * segment takes the full parse, which decides. */
static inline uint32_t
fast_train_cap(const struct gro_flow *f)
{
	return RTE_MIN(f->seg_cap, (uint32_t)f->segs + (RTE_MBUF_MAX_NB_SEGS - f->mbufs));
}

/* The state a train carries from segment to segment, in locals (the
 * stores into the mbufs could alias them in f): the chain's last mbuf, the
 * sequence number and IPv4 ID the next segment needs, and the flag bits of
 * the last segment. */
struct fast_run {
	struct rte_mbuf *tail;
	uint32_t seq;
	uint16_t id;
	uint16_t oid;         /* a tunnel's outer IPv4 ID */
	uint8_t psh_fin;
};

static __rte_always_inline struct fast_run
fast_run_of(const struct gro_flow *f, const int tun)
{
	return (struct fast_run){ f->tail, f->next_seq, f->id_next, tun ? f->o_id_next : 0, 0 };
}

/* Count a train's appended full-size segments into f and the table,
 * before anything reads f again. */
static __rte_always_inline void
fast_train_commit(struct tp_gro *g, struct gro_flow *f, uint32_t appended,
		  const struct fast_run *run, const int tun)
{
	f->tail = run->tail;
	f->next_seq = run->seq;
	f->id_next = run->id;
	f->ip_len += appended * f->mss;
	f->mbufs = (uint16_t)(f->mbufs + appended);
	f->segs = (uint16_t)(f->segs + appended);
	f->psh_fin = run->psh_fin;
	if (tun)
		f->o_id_next = run->oid;
	g->held_segs += appended;
}

/* What fast_seg() made of a segment. */
enum fast_result {
	FAST_REFUSED,   /* not this flow's next full-size segment: the full
			 * parse decides */
	FAST_JOINED,    /* appended */
	FAST_JOINED_LAST, /* appended with PSH/FIN: the aggregate is complete */
	FAST_BAD_CSUM,  /* every rule said append, the checksum is bad: to be
			 * passed through after f, for the reason fast_seg
			 * gives (csum_verdict counted it) */
};

/* The fields of f and g that a train keeps in registers: constant while
 * it runs (locals, as the stores into the mbufs could alias them). */
struct fast_view {
	const uint8_t *mask;    /* tp_gro.shape_mask[f->shape] */
	int32_t dsa_off;        /* tp_gro.dsa_off */
	uint16_t mss, hdr, frame, l4;
	uint16_t id_off;        /* the IPv4 ID's offset in the frame */
	uint16_t id_inc;        /* what the ID grows by: 0 (fixed) or 1 */
	uint16_t o_id_off;      /* a tunnel's outer IPv4 ID offset; 0: none */
	uint16_t o_id_inc;
};

/*
 * The fast path (gro_fast.h) for one segment m of held flow f, perhaps
 * after others of the same train (their counts not yet in f: see
 * fast_train_commit; *run is where the chain stands). The template
 * includes the IP length, so only full-size segments (payload = mss) join;
 * a shorter one takes the full parse. The rules in any order (one refusal
 * sends the segment to the full parse, which names it), but the checksum
 * last. A full-size frame holds the compared bytes (fast_setup). nvec and
 * v6 are constants of each instance; seq_checked: the caller found m's
 * length and sequence number right (fast_continues).
 */
static __rte_always_inline enum fast_result
fast_seg(struct tp_gro *g, struct gro_flow *f, struct rte_mbuf *m, const struct fast_view sh,
	 struct fast_run *run, uint8_t *bad, const unsigned int nvec, const int v6,
	 const int wide, const int seq_checked, const int tun)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint16_t id = 0;
	int strict;

	/* the sequence first: it tells another flow's segment apart at the
	 * price of one load */
	if (!seq_checked && (m->data_len != sh.frame || rd32(d + sh.l4 + TCP_SEQ) != run->seq))
		return FAST_REFUSED;
	if (sh.dsa_off >= 0 && (fast_dsa_word(m, sh.dsa_off) & f->dsa_mask) != f->dsa_want)
		return FAST_REFUSED;
	if (!v6) {
		/* inet_gro_flush: the ID the flow expects (the full parse
		 * takes the second segment that says "fixed IDs" by repeating
		 * the first's; from then on the expected ID is that ID) */
		id = rd16(d + sh.id_off);
		if (id != run->id)
			return FAST_REFUSED;
	}
	if (tun && sh.o_id_off != 0) {
		/* the outer IPv4 header of a tunnel: its own ID sequence, and
		 * its checksum verified as inet_gro_receive does (a bad one:
		 * the full parse passes the segment through) */
		if (rd16(d + sh.o_id_off) != run->oid ||
		    !fast_ipv4_hdr_ok(d + sh.o_id_off - IP4_ID))
			return FAST_REFUSED;
		run->oid = (uint16_t)(run->oid + sh.o_id_inc);
	}
	strict = fast_strict_eq(sh.mask, f, m, d, nvec, wide);
	run->psh_fin = 0;
	if (unlikely(!strict || !f->cs_in_vec)) {
		const uint64_t ol = m->ol_flags;

		if (!strict && !fast_relaxed_eq(g, f, m, d))
			return FAST_REFUSED;
		/* every rule said "append": the checksum decides, as in the
		 * full parse (finish(), then check()) */
		if (((ol ^ f->ol_want) & f->cs_mask) != 0 && !csum_state_trusted(ol, v6)) {
			*bad = csum_verdict(g, m, d + f->l2_len, d + sh.l4, v6, sh.l4,
					    (uint32_t)sh.frame - sh.l4);
			if (*bad != GRO_HOLDABLE)
				return FAST_BAD_CSUM;
		}
		run->psh_fin = d[sh.l4 + TCP_FLAGS] & TCP_PSH_FIN;
	}
	/* append: the headers stay in the headroom */
	run->id = (uint16_t)(id + sh.id_inc);
	m->data_off = (uint16_t)(m->data_off + sh.hdr);
	m->pkt_len = sh.mss;
	m->data_len = sh.mss;
	run->tail->next = m;
	run->tail = m;
	run->seq += sh.mss;
	return run->psh_fin ? FAST_JOINED_LAST : FAST_JOINED;
}

static __rte_always_inline struct fast_view
fast_shape_of(const struct tp_gro *g, const struct gro_flow *f, const int tun)
{
	return (struct fast_view){ g->shape_mask[f->shape], g->dsa_off, f->mss, f->hdr_len,
				    f->frame, f->l4_off, (uint16_t)(f->l2_len + IP4_ID),
				    (uint16_t)(f->id_mode & GRO_ID_INC),
				    (uint16_t)(tun ? f->o_id_off : 0),
				    (uint16_t)(tun ? f->o_id_mode & GRO_ID_INC : 0) };
}

/*
 * A train: pkts[j], pkts[j + 1], ... appended to held flow f (the previous
 * segment's, which pkts[j] continues) while each may join it, the common
 * case of a burst that carries one flow's window. What changes from segment
 * to segment is kept in a struct fast_run, and what does not in a struct
 * fast_view, both locals; f is written once, at the end. No prefetch: the
 * main loop's, GRO_PREFETCH ahead, covers the train's first segments, and
 * one per segment in the loop cost about 3 cycles per packet on warm
 * headers and saved nothing on cold ones (bench_gro, 1 flow; the hardware
 * prefetcher follows the train's mbufs). Returns how many packets were
 * consumed (appended, then possibly one passed through for a bad checksum);
 * 0 when pkts[j] is not for this flow's fast path. *tried_next: the packet
 * after the train was tried on this flow, which is still held, and refused.
 */
static __rte_always_inline uint32_t
fast_train_n(struct tp_gro *g, struct gro_flow *f, uint16_t idx, struct rte_mbuf **pkts,
	     uint32_t j, uint32_t n, struct rte_mbuf **out, uint32_t *no, int *tried_next,
	     const unsigned int nvec, const int v6, const int wide, const int tun)
{
	const uint32_t stop = fast_train_cap(f);
	const struct fast_view sh = fast_shape_of(g, f, tun);
	struct fast_run run = fast_run_of(f, tun);
	enum fast_result r = FAST_REFUSED;
	uint32_t k, kend;
	uint8_t bad;

	if (f->segs >= stop)
		return 0;
	/* the packets this train may take: the burst's, up to the cap */
	kend = RTE_MIN(n, j + (stop - f->segs));
	for (k = j; k < kend; k++) {
		r = fast_seg(g, f, pkts[k], sh, &run, &bad, nvec, v6, wide, 0, tun);
		if (unlikely(r != FAST_JOINED)) {
			if (r == FAST_BAD_CSUM) {
				if (k != j)
					fast_train_commit(g, f, k - j, &run, tun);
				pass_through(g, idx, pkts[k], bad, kernel_overtakes(bad), out, no);
				return k - j + 1;
			}
			k += r == FAST_JOINED_LAST;
			break;
		}
	}
	if (k == j)
		return 0;
	fast_train_commit(g, f, k - j, &run, tun);
	after_append(g, idx, f->mss, out, no, 0);   /* UDP flows have no fast path */
	*tried_next = r == FAST_REFUSED && k < n && g->last == idx;
	return k - j;
}

/* fast_train_n for f's header size and IP version (the common shapes:
 * Ethernet + IPv4 + TCP with or without timestamps, IPv6, in-frame tags).
 * Not inlined: called once per train, and on its own the loop keeps its
 * state in registers, which inside tp_gro_merge_burst it did not. wide:
 * the header compare in AVX2 (only in fast_train_wide). */
static __rte_always_inline uint32_t
fast_train_shape(struct tp_gro *g, uint16_t idx, struct rte_mbuf **pkts, uint32_t j,
		 uint32_t n, struct rte_mbuf **out, uint32_t *no, int *tried_next,
		 const int wide)
{
	struct gro_flow *f = &g->flows[idx];

	*tried_next = 0;
	/* plain TCP: nvec 4-6; tunnels (packet_type's tunnel bits compared,
	 * outer IPv4 ID checked): IP in IP 5-6, VXLAN / GENEVE 7-8 */
#define FAST_CASE(nv, v6, tun) \
	case (nv) << 2 | (v6) << 1 | (tun): \
		return fast_train_n(g, f, idx, pkts, j, n, out, no, tried_next, nv, v6, wide, tun)
	switch (f->nvec << 2 | f->v6 << 1 | ((f->meta & GRO_META_TUN) != 0)) {
	FAST_CASE(4, 0, 0);
	FAST_CASE(5, 0, 0);
	FAST_CASE(6, 0, 0);
	FAST_CASE(5, 1, 0);
	FAST_CASE(6, 1, 0);
	FAST_CASE(5, 0, 1);
	FAST_CASE(6, 0, 1);
	FAST_CASE(5, 1, 1);
	FAST_CASE(6, 1, 1);
	FAST_CASE(7, 0, 1);
	FAST_CASE(8, 0, 1);
	FAST_CASE(7, 1, 1);
	FAST_CASE(8, 1, 1);
#undef FAST_CASE
	default:               /* nvec 0: no fast path for this flow */
		return 0;
	}
}

static __rte_noinline uint32_t
fast_train(struct tp_gro *g, uint16_t idx, struct rte_mbuf **pkts, uint32_t j,
	   uint32_t n, struct rte_mbuf **out, uint32_t *no, int *tried_next)
{
	return fast_train_shape(g, idx, pkts, j, n, out, no, tried_next, 0);
}

#ifdef GRO_HAVE_WIDE
/* The same loop compiled for AVX2 (the whole function, so the compare is
 * inlined into it); called only when tp_gro.wide says the CPU has it. */
static __rte_noinline GRO_WIDE_TARGET uint32_t
fast_train_wide(struct tp_gro *g, uint16_t idx, struct rte_mbuf **pkts, uint32_t j,
		uint32_t n, struct rte_mbuf **out, uint32_t *no, int *tried_next)
{
	return fast_train_shape(g, idx, pkts, j, n, out, no, tried_next, 1);
}
#endif

/*
 * One segment m for held flow f of its bucket (not the previous segment's
 * flow): flows interleaved segment by segment, where a train would be one
 * segment long and setting it up is what costs. If the next segment
 * continues f too, the main loop finds f as the previous segment's flow and
 * runs a train. 1 when m was consumed (appended, or passed through for a
 * bad checksum).
 */
static __rte_always_inline int
fast_one_n(struct tp_gro *g, uint16_t idx, struct rte_mbuf *m, struct rte_mbuf **out,
	   uint32_t *no, const int wide, const int tun)
{
	struct gro_flow *f = &g->flows[idx];
	struct fast_run run = fast_run_of(f, tun);
	uint8_t bad;

	/* nvec and v6 as variables: one segment does not pay for a
	 * specialised instance's dispatch; fast_candidate() checked m's
	 * length and sequence number */
	if (f->nvec == 0 || f->segs >= fast_train_cap(f))
		return 0;
	switch (fast_seg(g, f, m, fast_shape_of(g, f, tun), &run, &bad, f->nvec, f->v6, wide, 1,
			 tun)) {
	case FAST_REFUSED:
		return 0;
	case FAST_BAD_CSUM:
		pass_through(g, idx, m, bad, kernel_overtakes(bad), out, no);
		return 1;
	default:
		fast_train_commit(g, f, 1, &run, tun);
		after_append(g, idx, f->mss, out, no, 0);
		return 1;
	}
}

/* fast_one_n with tun a constant in each branch: a tunnel flow's outer ID
 * and packet_type checks exist only in the branch plain flows never take. */
static __rte_always_inline int
fast_one(struct tp_gro *g, uint16_t idx, struct rte_mbuf *m, struct rte_mbuf **out,
	 uint32_t *no, const int wide)
{
	if (unlikely(g->flows[idx].meta & GRO_META_TUN))
		return fast_one_n(g, idx, m, out, no, wide, 1);
	return fast_one_n(g, idx, m, out, no, wide, 0);
}

/*
 * The bucket hashes of segments a few places ahead, while the flows come
 * interleaved (the previous segment took fast_one): each segment's search
 * then starts on a bucket line the prefetch has brought in, instead of
 * waiting for it after hashing (headers, then bucket, then flow entry are
 * three dependent loads). A train needs no search, so it computes none.
 */
#define GRO_HASH_AHEAD 2
#define GRO_AHEAD_RING 4        /* a power of 2 above GRO_HASH_AHEAD */

struct fast_ahead {
	uint32_t hash[GRO_AHEAD_RING];
	uint32_t at[GRO_AHEAD_RING];    /* the segment each is for */
	uint8_t ok[GRO_AHEAD_RING];     /* fast_hash() could hash it */
};

static __rte_always_inline void
fast_ahead_hash(const struct tp_gro *g, struct fast_ahead *ah, struct rte_mbuf **pkts,
		uint32_t j)
{
	const unsigned int r = j % GRO_AHEAD_RING;

	ah->at[r] = j;
	ah->ok[r] = (uint8_t)fast_hash(g, pkts[j], &ah->hash[r]);
	if (ah->ok[r])
		rte_prefetch0(&g->buckets[ah->hash[r] & g->bucket_mask]);
}

/* The held flow of pkts[j]'s bucket that it may continue (other than the
 * previous segment's, tried already), to try fast_one on; GRO_NIL when
 * none or the segment is not plain enough to hash here. */
static inline uint16_t
fast_candidate(const struct tp_gro *g, const struct fast_ahead *ah, struct rte_mbuf **pkts,
	       uint32_t j)
{
	const unsigned int r = j % GRO_AHEAD_RING;
	const struct rte_mbuf *m = pkts[j];
	const struct gro_bucket *b;
	unsigned int used;
	uint32_t h;

	if (ah->at[r] == j) {
		if (!ah->ok[r])
			return GRO_NIL;
		h = ah->hash[r];
	} else if (!fast_hash(g, m, &h)) {
		return GRO_NIL;
	}
	b = &g->buckets[h & g->bucket_mask];
	for (used = b->used; used != 0; used &= used - 1) {
		unsigned int i = (unsigned int)__builtin_ctz(used);

		if (b->hash[i] == h && b->flow[i] != g->last &&
		    fast_continues(&g->flows[b->flow[i]], m))
			return b->flow[i];
	}
	return GRO_NIL;
}

/*
 * Start the next aggregate of the flow completed last, from its entry's
 * template, without a parse: flows go on after a flush (AGE timeouts, a
 * full flush every few bursts), and then the first segment of each new
 * aggregate would pay for the whole parse. The entry is the free stack's
 * top (nothing was started since it completed), so no held entry has its
 * key; a segment equal to its template (strict: no PSH/FIN, checksums GOOD
 * as the head's were) has that key and passes every rule start() needs
 * (holdable flags, payload, no trailer, no IP options or fragment), and
 * its parse would give the entry's lengths, ACK, flag and option words
 * again. Returns the flow started with m, or GRO_NIL (then the full parse
 * decides).
 */
static inline uint16_t
fast_start(struct tp_gro *g, struct rte_mbuf *m, uint64_t now)
{
	const uint16_t idx = g->ghost;
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	struct gro_flow *f;
	uint16_t id = 0;

	if (idx == GRO_NIL || g->nb_free == 0 || g->free_stack[g->nb_free - 1] != idx)
		return GRO_NIL;
	f = &g->flows[idx];
	if (f->nvec == 0 || !f->cs_in_vec || m->data_len != f->frame ||
	    g->buckets[f->bucket].used == 0xFF || !fast_strict_eq_any(g, f, m, d) ||
	    (g->dsa_off >= 0 &&
	     (fast_dsa_word(m, g->dsa_off) & f->dsa_mask) != f->dsa_want))
		return GRO_NIL;
	if (!f->v6)
		id = rd16(d + f->l2_len + IP4_ID);
	if (f->meta & GRO_META_TUN) {
		/* a tunnel's outer IPv4 header: ID and the checksum the
		 * compare left out, verified as inet_gro_receive does */
		if (f->o_id_off != 0) {
			if (!fast_ipv4_hdr_ok(d + f->o_id_off - IP4_ID))
				return GRO_NIL;
			f->o_first_id = rd16(d + f->o_id_off);
		}
		f->o_id_next = (uint16_t)(f->o_first_id + 1);
		f->o_id_mode = GRO_ID_INC;
	}
	(void)gro_flow_alloc(g);           /* idx, the top */
	f->next_seq = rd32(d + f->l4_off + TCP_SEQ) + f->mss;
	f->ip_len = (uint32_t)f->frame - ((f->meta & GRO_META_TUN) ? f->o_l3 : f->l2_len);
	f->segs = 1;
	f->first_id = id;
	f->id_next = (uint16_t)(id + 1);
	f->id_mode = GRO_ID_INC;
	f->psh_fin = 0;
	f->start_tsc = now;
	f->birth = g->births++;
	f->head = m;
	f->tail = m;
	f->mbufs = 1;
	f->head_single = 1;
	gro_flow_link(g, idx, f->bucket,
		      (uint8_t)__builtin_ctz(~(unsigned int)g->buckets[f->bucket].used));
	g->last = idx;
	return idx;
}

/* Kernel order, end of burst: __napi_gro_flush completes bucket 0..7 in
 * turn, each from its oldest aggregate. At most 64 are held (8 x 8). */
static uint32_t
kernel_flush_buckets(struct tp_gro *g, struct rte_mbuf **out)
{
	uint32_t b, no = 0;

	for (b = 0; b < GRO_KERNEL_BUCKETS; b++) {
		struct gro_bucket *bk = &g->buckets[b];

		while (bk->used != 0) {
			unsigned int used = bk->used, i, old = (unsigned int)__builtin_ctz(used);

			for (used &= used - 1; used != 0; used &= used - 1) {
				i = (unsigned int)__builtin_ctz(used);
				if ((int32_t)(g->flows[bk->flow[i]].birth -
					      g->flows[bk->flow[old]].birth) < 0)
					old = i;
			}
			out[no++] = gro_complete(g, bk->flow[old], TP_GRO_FLUSH_BURST);
		}
	}
	g->st.pkts_out += no;
	return no;
}

/* The burst's segments, each to a train, fast_one, fast_start or the full
 * parse; returns the packets written to out. wide: the instance compiled
 * for AVX2 (merge_loop_wide), whose trains and single segments compare in
 * 32-byte vectors. */
static __rte_always_inline uint32_t
merge_loop(struct tp_gro *g, struct rte_mbuf **pkts, uint16_t n, struct rte_mbuf **out,
	   uint64_t now_tsc, const int wide)
{
	struct gro_pkt pk;
	uint32_t no = 0, j, k;
	uint16_t idx;
	int tried_last = 0, interleaved = 0;
	struct fast_ahead ah;

	memset(ah.at, 0xFF, sizeof(ah.at));
	for (j = 0; j < n && j < GRO_PREFETCH; j++)
		gro_prefetch_hdr(pkts[j]);
	for (j = 0; j < n;) {
		if (j + GRO_PREFETCH < n)
			gro_prefetch_hdr(pkts[j + GRO_PREFETCH]);
		if (interleaved && j + GRO_HASH_AHEAD < n)
			fast_ahead_hash(g, &ah, pkts, j + GRO_HASH_AHEAD);
		/* the previous segment's flow, as a train (unless the train that
		 * just ended tried it on this very segment); else the one m's
		 * bucket holds, for this segment */
		idx = g->last;
		if (idx != GRO_NIL && !tried_last && fast_continues(&g->flows[idx], pkts[j])) {
#ifdef GRO_HAVE_WIDE
			k = wide ? fast_train_wide(g, idx, pkts, j, n, out, &no, &tried_last) :
				   fast_train(g, idx, pkts, j, n, out, &no, &tried_last);
#else
			k = fast_train(g, idx, pkts, j, n, out, &no, &tried_last);
#endif
			interleaved = 0;
			if (k != 0) {
				j += k;
				continue;
			}
		} else {
			tried_last = 0;
			idx = fast_candidate(g, &ah, pkts, j);
			interleaved = idx != GRO_NIL && fast_one(g, idx, pkts[j], out, &no, wide);
			if (interleaved) {
				j++;
				continue;
			}
			if (idx == GRO_NIL && fast_start(g, pkts[j], now_tsc) != GRO_NIL) {
				j++;
				continue;
			}
		}
		gro_parse(g, &pk, pkts[j]);
		process(g, &pk, now_tsc, out, &no);
		j++;
	}
	return no;
}

static __rte_noinline uint32_t
merge_loop_narrow(struct tp_gro *g, struct rte_mbuf **pkts, uint16_t n,
		  struct rte_mbuf **out, uint64_t now_tsc)
{
	return merge_loop(g, pkts, n, out, now_tsc, 0);
}

#ifdef GRO_HAVE_WIDE
static __rte_noinline GRO_WIDE_TARGET uint32_t
merge_loop_wide(struct tp_gro *g, struct rte_mbuf **pkts, uint16_t n,
		struct rte_mbuf **out, uint64_t now_tsc)
{
	return merge_loop(g, pkts, n, out, now_tsc, 1);
}
#endif

int
tp_gro_merge_burst(struct tp_gro *g, struct rte_mbuf **pkts, uint16_t n,
		   struct rte_mbuf **out, uint16_t out_max, uint64_t now_tsc)
{
	uint32_t no;

	if ((uint32_t)out_max < 2u * n)
		return -EINVAL;
	/* Burst mode holds nothing between calls, so a burst of one frame
	 * has nothing to merge with: it leaves as it came, unparsed. A poll
	 * loop faster than its NIC sees mostly these (librte_gro 22.11's
	 * rte_gro_reassemble_burst still zeroes its tables for them). */
	if (n == 1 && g->conf.mode == TP_GRO_MODE_BURST) {
		out[0] = pkts[0];
		g->st.pkts_in++;
		g->st.pkts_out++;
		g->st.passed++;
		g->st.pass[TP_GRO_PASS_ALONE]++;
		return 1;
	}
#ifdef GRO_HAVE_WIDE
	no = g->wide ? merge_loop_wide(g, pkts, n, out, now_tsc) :
		       merge_loop_narrow(g, pkts, n, out, now_tsc);
#else
	no = merge_loop_narrow(g, pkts, n, out, now_tsc);
#endif
	g->st.pkts_in += n;
	g->st.pkts_out += no;
	if (g->conf.mode == TP_GRO_MODE_BURST && g->kernel) {
		no += kernel_flush_buckets(g, out + no);
	} else if (g->conf.mode == TP_GRO_MODE_BURST) {
		while (g->age_head != GRO_NIL && no < out_max) {
			out[no++] = gro_complete(g, g->age_head, TP_GRO_FLUSH_BURST);
			g->st.pkts_out++;
		}
	} else {
		no += tp_gro_flush(g, now_tsc, out + no, (uint16_t)(out_max - no));
	}
	return (int)no;
}
