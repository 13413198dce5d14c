/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private: the inline strip/insert workers every tag_<name>.c instantiates.
 *
 * A tagger file provides small static inline functions and one
 * TP_DSA_TAGGER_DEFINE() line, which expands into its two burst functions:
 * each is one loop with the tagger's constant position and length, calling
 * the tagger's decode/encode through a constant function pointer that the
 * compiler inlines (no per-packet indirect call). Taggers of one shape
 * (the tail tags, tag_8021q, the Felix, Broadcom and Realtek 8-byte pairs)
 * are rows of one table or one macro, with constants the compiler folds
 * into each tagger's loop the same way.
 *
 *  rx(t, avail, md, c)   RX decode, the kernel's rules (docs/ref/dsa-tags.md,
 *                        the tagger's section of §3)
 *  sw(t, avail, md, c)   switch-side decode of the TX format (same section)
 *     before-DA / after-SA: t = first tag byte, avail = bytes from there
 *     to the end of the first segment (>= the tagger's length);
 *     tail: t = one past the last frame byte, avail = bytes before it in
 *     the last segment (>= the tagger's length).
 *     Returns the number of bytes to remove (after-SA: counted from the tag
 *     start; the rest of the tag stays, e.g. dsa's rewritten 802.1Q header)
 *     or TAG_ERR(TP_DSA_DROP_x), or TAG_PASS to keep the frame unchanged,
 *     no meta.
 *  tx(m, port, dev, prio, c)  build the tag into m; 0 or TAG_ERR(reason).
 * TAG_DECODER(name) and TAG_ENCODER(name) declare them with these names.
 */
#ifndef TP_DSA_TAG_IMPL_H
#define TP_DSA_TAG_IMPL_H

#include <string.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "tp_mac_move.h"

#include "tp_dsa_tag.h"

#define TAG_ETH_HLEN 14    /* DA + SA + EtherType */
#define TAG_MACS 12
#define TAG_PASS (-1000)   /* rx/sw: leave the frame as it is, no tag info */

/* Drop reason r (enum tp_dsa_drop, 0 included) as a negative return value. */
#define TAG_ERR(r) (-(int)(r) - 1)
#define TAG_REASON(ret) (-(ret) - 1)

typedef int (*tag_dec_fn)(uint8_t *tag, uint32_t avail, struct tp_dsa_meta *md,
			  const struct tp_dsa_conf *c);
typedef int (*tag_enc_fn)(struct rte_mbuf *m, unsigned int port, unsigned int dev,
			  unsigned int prio, const struct tp_dsa_conf *c);

/* A decoder (rx or sw) and an encoder (tx) with the parameter names above;
 * a tagger uses what it needs of them. */
#define TAG_DECODER(name)                                                       \
	static __rte_always_inline int                                          \
	name(uint8_t *t, uint32_t avail __rte_unused, struct tp_dsa_meta *md,   \
	     const struct tp_dsa_conf *c __rte_unused)
#define TAG_ENCODER(name)                                                       \
	static __rte_always_inline int                                          \
	name(struct rte_mbuf *m, unsigned int port, unsigned int dev __rte_unused, \
	     unsigned int prio __rte_unused, const struct tp_dsa_conf *c __rte_unused)

extern const struct tp_dsa_conf tp_dsa_default_conf;

/* ---- byte helpers ---- */

static inline uint16_t
tag_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void
tag_wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Lowest set bit of a port map, or -NO_PORT for an empty map. */
static inline int
tag_map_port(uint32_t map)
{
	return map != 0 ? (int)__builtin_ctz(map) : TAG_ERR(TP_DSA_DROP_NO_PORT);
}

/* DA 01:80:C2:00:00:0x (IEEE link-local, the kernel's is_link_local_ether_addr). */
static inline int
tag_da_link_local(const uint8_t *da)
{
	return da[0] == 0x01 && da[1] == 0x80 && da[2] == 0xC2 && da[3] == 0 &&
	       da[4] == 0 && (da[5] & 0xF0) == 0;
}

/* Move the 12 MAC bytes at p by delta bytes (registers only). */
static inline void
tag_move_macs(uint8_t *p, int delta)
{
	tp_mac_move(p, delta);
}

/* ---- TX building blocks ---- */

/* Pad the frame with zeros to `len` bytes (kernel __skb_put_padto). */
static inline int
tag_tx_pad(struct rte_mbuf *m, uint32_t len)
{
	char *p;
	uint32_t add;

	if (m->pkt_len >= len)
		return 0;
	add = len - m->pkt_len;
	p = rte_pktmbuf_append(m, (uint16_t)add);
	if (p == NULL)
		return TAG_ERR(TP_DSA_DROP_NO_TAILROOM);
	memset(p, 0, add);
	return 0;
}

/* Room for `len` bytes in front of the DA; returns the tag start or NULL. */
static inline uint8_t *
tag_tx_before_da(struct rte_mbuf *m, uint16_t len)
{
	uint8_t *t = (uint8_t *)rte_pktmbuf_prepend(m, len);

	if (t != NULL)
		tp_mbuf_tx_l2_grow(m, len);
	return t;
}

/* Room for `len` bytes after the SA (§1.1, dsa_alloc_etype_header):
 * only the 12 MAC bytes move. Caller checked data_len >= 12. */
static inline uint8_t *
tag_tx_after_sa(struct rte_mbuf *m, uint16_t len)
{
	uint8_t *old = rte_pktmbuf_mtod(m, uint8_t *);

	if (rte_pktmbuf_headroom(m) < len)
		return NULL;
	m->data_off -= len;
	m->data_len += len;
	m->pkt_len += len;
	tp_mbuf_tx_l2_grow(m, len);
	tag_move_macs(old, -(int)len);
	return old - len + TAG_MACS;
}

/* May a tagger rewrite the frame's VLAN header (TPID + TCI at byte 12) into
 * its tag in place, instead of inserting one? Only with the whole header
 * and the inner EtherType (18 bytes) in the first segment: strip needs the
 * tag plus the 14-byte header after it there (tp_dsa_tag.h), so a frame
 * converted with less could not be read back by the switch-side decode.
 * Otherwise the tagger inserts its untagged-frame tag, which strips back
 * to the same bytes. */
static inline int
tag_tx_vlan_in_place_ok(const struct rte_mbuf *m)
{
	return m->data_len >= TAG_ETH_HLEN + 4;
}

/* Room for `len` bytes at the tail; NULL without tailroom. */
static inline uint8_t *
tag_tx_tail(struct rte_mbuf *m, uint16_t len)
{
	return (uint8_t *)rte_pktmbuf_append(m, len);
}

/* The TX steps every tagger takes: pad the untagged frame to `pad` bytes
 * first when the kernel's xmit does (0: no padding), then open `len` bytes
 * at pos; *t = the tag's first byte. 0, or the drop reason: no tailroom
 * for the padding or a tail tag, no headroom for a tag in front. */
static __rte_always_inline int
tag_tx_open(struct rte_mbuf *m, enum tp_dsa_position pos, uint16_t len, uint32_t pad,
	    uint8_t **t)
{
	int r = pad != 0 ? tag_tx_pad(m, pad) : 0;

	if (r < 0)
		return r;
	if (pos == TP_DSA_POS_TAIL) {
		*t = tag_tx_tail(m, len);
		return *t != NULL ? 0 : TAG_ERR(TP_DSA_DROP_NO_TAILROOM);
	}
	*t = pos == TP_DSA_POS_BEFORE_DA ? tag_tx_before_da(m, len) : tag_tx_after_sa(m, len);
	return *t != NULL ? 0 : TAG_ERR(TP_DSA_DROP_NO_HEADROOM);
}

/* Switch-side decode of a destination port map: its lowest set bit is the
 * port the CPU sent the frame to. Returns len, or NO_PORT for an empty map
 * (md untouched then). */
static __rte_always_inline int
tag_sw_map(struct tp_dsa_meta *md, uint32_t map, int len)
{
	int port = tag_map_port(map);

	if (port < 0)
		return port;
	md->port = (uint8_t)port;
	md->frame_type = TP_DSA_FT_FROM_CPU;
	return len;
}

/* Per-burst hook of the VLAN-shaped tags (tag_8021q, lan9303): a tag the
 * NIC stripped into vlan_tci (one tag, not QinQ) goes back in front of the
 * EtherType with TPID tpid, so the tagger's one decode path sees it. */
static __rte_always_inline void
tag_vlan_unhw(struct rte_mbuf **pkts, uint16_t n, uint16_t tpid)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint8_t *t;

		if (!(m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED) ||
		    (m->ol_flags & RTE_MBUF_F_RX_QINQ_STRIPPED) ||
		    m->data_len < TAG_MACS || rte_pktmbuf_headroom(m) < 4)
			continue;
		t = tag_tx_after_sa(m, 4);
		tag_wr16(t, tpid);
		tag_wr16(t + 2, m->vlan_tci);
		m->vlan_tci = 0;
		m->ol_flags &= ~(RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED);
	}
}

/* ---- the burst workers ---- */

/* Keep pkts[i] as the k-th survivor; no store while nothing was dropped. */
#define TP_KEEP(pkts, i, k, m) do { if ((k) != (i)) (pkts)[k] = (m); (k)++; } while (0)

static __rte_always_inline void
tag_drop(struct rte_mbuf *m, struct rte_mbuf **drops, uint8_t *reasons,
	 uint16_t *nd, struct tp_dsa_stats *st, int reason)
{
	st->drop[reason]++;
	if (drops != NULL) {
		if (reasons != NULL)
			reasons[*nd] = (uint8_t)reason;
		drops[(*nd)++] = m;
	} else {
		rte_pktmbuf_free(m);
	}
}

static __rte_always_inline int
tag_need(const struct rte_mbuf *m, uint32_t need)
{
	return m->pkt_len >= need ? TAG_ERR(TP_DSA_DROP_SEGMENTED) : TAG_ERR(TP_DSA_DROP_TOO_SHORT);
}

/* Decode + remove one frame's tag; returns 1 (kept, meta filled), 0 (no tag
 * at all: "none"), TAG_PASS (kept unchanged) or TAG_ERR(drop reason). */
static __rte_always_inline int
tag_strip_one(struct rte_mbuf *m, struct tp_dsa_meta *md,
	      const struct tp_dsa_conf *c, enum tp_dsa_position pos,
	      uint32_t len, tag_dec_fn dec)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	int r;

	if (pos == TP_DSA_POS_NONE)
		return 0;
	if (pos == TP_DSA_POS_BEFORE_DA) {
		if (unlikely(m->data_len < len + TAG_ETH_HLEN))
			return tag_need(m, len + TAG_ETH_HLEN);
		r = dec(p, m->data_len, md, c);
		if (r < 0)
			return r;
		m->data_off += r;
		m->data_len -= r;
		m->pkt_len -= r;
	} else if (pos == TP_DSA_POS_AFTER_SA) {
		if (unlikely(m->data_len < len + TAG_ETH_HLEN))
			return tag_need(m, len + TAG_ETH_HLEN);
		r = dec(p + TAG_MACS, m->data_len - TAG_MACS, md, c);
		if (r < 0)
			return r;
		if (r > 0)
			tag_move_macs(p, r);
		m->data_off += r;
		m->data_len -= r;
		m->pkt_len -= r;
	} else {
		struct rte_mbuf *last = rte_pktmbuf_lastseg(m);

		if (unlikely(m->pkt_len < len + TAG_ETH_HLEN))
			return TAG_ERR(TP_DSA_DROP_TOO_SHORT);
		if (unlikely(last->data_len < len))
			return TAG_ERR(TP_DSA_DROP_SEGMENTED);
		r = dec(rte_pktmbuf_mtod(last, uint8_t *) + last->data_len,
			last->data_len, md, c);
		if (r < 0)
			return r;
		if (unlikely(m->pkt_len < (uint32_t)r + TAG_ETH_HLEN))
			return TAG_ERR(TP_DSA_DROP_TOO_SHORT);
		last->data_len -= r;
		m->pkt_len -= r;
	}
	return 1;
}

/* Range checks common to every tagger (§1.2, dsa_conduit_find_user). */
static __rte_always_inline int
tag_check_ranges(const struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	if (c->n_ports != 0 && md->port >= c->n_ports)
		return TAG_ERR(TP_DSA_DROP_PORT_RANGE);
	if (c->n_devices != 0 && md->device >= c->n_devices)
		return TAG_ERR(TP_DSA_DROP_DEVICE_RANGE);
	return 0;
}

/* Frames ahead of the one being stripped whose tag bytes and meta line are
 * prefetched: enough to cover a memory access (a few hundred cycles) at
 * the loop's tens of cycles per frame, few enough not to evict what the
 * next stages read. */
#define TAG_PREFETCH_AHEAD 4

/* Start loading what stripping m touches: its tag bytes (head or tail
 * of the first segment; a chained frame's tail is not worth chasing) and,
 * for writing, the line of its meta dynfield. */
static __rte_always_inline void
tag_prefetch(const struct rte_mbuf *m, enum tp_dsa_position pos, int off)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);

	if (pos == TP_DSA_POS_TAIL)
		d += m->data_len - 1;
	rte_prefetch0(d);
	if (off >= 0)
		rte_prefetch0_write(RTE_MBUF_DYNFIELD(m, off, const void *));
}

/* The reference path for one frame: decode and remove its tag with the
 * tagger's dec, check the ranges, write its meta (one 8-byte store of the
 * meta built in registers). Returns >= 0 (kept) or TAG_ERR(drop reason). */
static __rte_always_inline int
tag_strip_ref_one(struct rte_mbuf *m, int off, const struct tp_dsa_conf *lc,
		  struct tp_dsa_stats *st, uint8_t proto, enum tp_dsa_position pos,
		  uint32_t len, tag_dec_fn dec, uint8_t side_flag)
{
	struct tp_dsa_meta md = { .proto = proto,
				  .flags = TP_DSA_META_F_VALID | side_flag };
	int r;

	r = tag_strip_one(m, &md, lc, pos, len, dec);
	if (r > 0) {
		r = tag_check_ranges(&md, lc);
	} else if (r == TAG_PASS || r == 0) {
		md = (struct tp_dsa_meta){ .proto = proto };
		st->passed += (r == TAG_PASS);
		r = 0;
	}
	if (off >= 0)
		memcpy(RTE_MBUF_DYNFIELD(m, off, void *), &md, sizeof(md));
	return r;
}

/* pkts[i] through the reference path inside a burst loop: kept as the
 * *k-th survivor, or handed to drops[] (counted). */
static __rte_always_inline void
tag_strip_ref_keep(struct rte_mbuf **pkts, uint16_t i, uint16_t *k, int off,
		   const struct tp_dsa_conf *lc, struct rte_mbuf **drops,
		   uint8_t *reasons, uint16_t *nd, struct tp_dsa_stats *st,
		   uint8_t proto, enum tp_dsa_position pos, uint32_t len,
		   tag_dec_fn dec, uint8_t side_flag)
{
	struct rte_mbuf *m = pkts[i];
	int r = tag_strip_ref_one(m, off, lc, st, proto, pos, len, dec, side_flag);

	if (unlikely(r < 0))
		tag_drop(m, drops, reasons, nd, st, TAG_REASON(r));
	else
		TP_KEEP(pkts, i, *k, m);
}

static __rte_always_inline uint16_t
tag_strip_loop(struct rte_mbuf **pkts, uint16_t n, const struct tp_dsa_conf *conf,
	       struct rte_mbuf **drops, uint8_t *reasons, struct tp_dsa_stats *st,
	       uint8_t proto,
	       enum tp_dsa_position pos, uint32_t len, tag_dec_fn dec, uint8_t side_flag)
{
	const int off = tp_dsa_meta_offset;
	/* A local copy: byte stores into the frame (tag rewrite, MAC move)
	 * may alias *conf and would force conf reloads on every packet. */
	const struct tp_dsa_conf lc = *conf;
	uint16_t i, k = 0, nd = 0;

	st->in += n;
	if (pos == TP_DSA_POS_NONE) {
		/* Nothing to read: only the meta to clear. */
		for (i = 0; i < n; i++) {
			const struct tp_dsa_meta md = { .proto = proto };

			if (off >= 0)
				memcpy(RTE_MBUF_DYNFIELD(pkts[i], off, void *), &md,
				       sizeof(md));
		}
		st->out += n;
		return n;
	}
	for (i = 0; i < n && i < TAG_PREFETCH_AHEAD; i++)
		tag_prefetch(pkts[i], pos, off);
	for (i = 0; i < n; i++) {
		if (i + TAG_PREFETCH_AHEAD < n)
			tag_prefetch(pkts[i + TAG_PREFETCH_AHEAD], pos, off);
		tag_strip_ref_keep(pkts, i, &k, off, &lc, drops, reasons, &nd, st,
				   proto, pos, len, dec, side_flag);
	}
	st->out += k;
	return k;
}

static __rte_always_inline uint16_t
tag_insert_loop(struct rte_mbuf **pkts, uint16_t n, const struct tp_dsa_conf *c,
		struct rte_mbuf **drops, uint8_t *reasons, struct tp_dsa_stats *st,
		enum tp_dsa_position pos, uint16_t tx_ports, uint8_t devices,
		tag_enc_fn enc)
{
	const int off = tp_dsa_meta_offset;
	uint16_t i, k = 0, nd = 0;

	st->in += n;
	if (pos == TP_DSA_POS_NONE) {
		st->out += n;
		return n;
	}
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		unsigned int port, dev, prio;
		int r;

		if (c->flags & TP_DSA_CONF_F_TX_PORT) {
			port = c->tx_port;
			dev = c->tx_device;
			prio = c->tx_prio;
		} else if (off >= 0 &&
			   (RTE_MBUF_DYNFIELD(m, off, struct tp_dsa_meta *)->flags &
			    TP_DSA_META_F_VALID)) {
			const struct tp_dsa_meta *md =
				RTE_MBUF_DYNFIELD(m, off, struct tp_dsa_meta *);

			port = md->port;
			dev = md->device;
			prio = md->prio;
		} else {
			tag_drop(m, drops, reasons, &nd, st, TP_DSA_DROP_NO_DEST);
			continue;
		}
		if (port >= tx_ports || (c->n_ports != 0 && port >= c->n_ports))
			r = TAG_ERR(TP_DSA_DROP_PORT_RANGE);
		else if (dev >= devices || (c->n_devices != 0 && dev >= c->n_devices))
			r = TAG_ERR(TP_DSA_DROP_DEVICE_RANGE);
		else if (pos == TP_DSA_POS_AFTER_SA && m->data_len < TAG_ETH_HLEN)
			r = tag_need(m, TAG_ETH_HLEN);
		else if (m->pkt_len < TAG_ETH_HLEN)
			r = TAG_ERR(TP_DSA_DROP_TOO_SHORT);
		else
			r = enc(m, port, dev, prio, c);
		if (unlikely(r < 0)) {
			tag_drop(m, drops, reasons, &nd, st, TAG_REASON(r));
			continue;
		}
		TP_KEEP(pkts, i, k, m);
	}
	st->out += k;
	return k;
}

/* No per-burst preparation (the usual case). */
static __rte_always_inline void
tag_no_pre(struct rte_mbuf **pkts, uint16_t n)
{
	(void)pkts;
	(void)n;
}

/* The reference strip burst of each tagger (the generic loop above), by
 * protocol id, whatever its strip_burst is: tests compare a tagger's fast
 * path with it frame by frame. Internal (not exported). */
void tp_dsa_strip_ref_set(unsigned int proto, tp_dsa_burst_fn ref);
tp_dsa_burst_fn tp_dsa_strip_ref(unsigned int proto);

/* A tagger's fused switch tag + VLAN strip (tp_dsa_vlan_strip_prefix), c
 * possibly NULL; set by the tagger's constructor (TP_DSA_TAGGER_DEFINE_FAST). */
typedef uint16_t (*tp_dsa_vlan_prefix_fn)(struct rte_mbuf **pkts, uint16_t n,
					  const struct tp_dsa_conf *c,
					  const struct tp_vlan_conf *vc,
					  struct tp_dsa_stats *st, struct tp_vlan_stats *vst);
void tp_dsa_vlan_prefix_set(unsigned int proto, tp_dsa_vlan_prefix_fn f);

/*
 * One line per tagger file: burst functions and the const ops table.
 *   var: C name; NAME: kernel name; PROTO; POS; RXLEN/TXLEN: minimum tag
 *   lengths on RX/TX (the switch-side decode uses TXLEN); RXP/TXP: ports the
 *   tags name; DEVS: devices; PAD: TX padding; rx/sw/tx: the functions;
 *   pre: run once over the burst before an RX strip (see tag_8021q.c);
 *   strip: the function that becomes .strip_burst - var##_strip_ref (the
 *   generic loop) or a tagger's fast path (TP_DSA_TAGGER_DEFINE_FAST).
 */
#define TP_DSA_TAGGER_DEFINE_ALL(var, NAME, PROTO, POS, RXLEN, TXLEN, RXP, TXP, DEVS, \
				 PAD, FLAGS, rx, sw, tx, pre, strip)                  \
	static uint16_t var##_strip_ref(struct rte_mbuf **pkts, uint16_t n,             \
					const struct tp_dsa_conf *c,                   \
					struct rte_mbuf **drops, uint8_t *reasons,     \
					struct tp_dsa_stats *st)                       \
	{                                                                               \
		if (c == NULL)                                                          \
			c = &tp_dsa_default_conf;                                       \
		if (c->flags & TP_DSA_CONF_F_SWITCH_SIDE)                               \
			return tag_strip_loop(pkts, n, c, drops, reasons, st, PROTO,    \
					      POS, TXLEN, sw, TP_DSA_META_F_SWITCH_SIDE); \
		pre(pkts, n);                                                           \
		return tag_strip_loop(pkts, n, c, drops, reasons, st, PROTO, POS,       \
				      RXLEN, rx, 0);                                    \
	}                                                                               \
	static uint16_t var##_insert(struct rte_mbuf **pkts, uint16_t n,                \
				     const struct tp_dsa_conf *c,                      \
				     struct rte_mbuf **drops, uint8_t *reasons,        \
				     struct tp_dsa_stats *st)                          \
	{                                                                               \
		if (c == NULL)                                                          \
			c = &tp_dsa_default_conf;                                       \
		return tag_insert_loop(pkts, n, c, drops, reasons, st, POS, TXP,        \
				       DEVS, tx);                                       \
	}                                                                               \
	static const struct tp_dsa_tagger var = {                                       \
		.name = NAME,                                                           \
		.proto = PROTO,                                                         \
		.position = POS,                                                        \
		.rx_len = RXLEN,                                                        \
		.tx_len = TXLEN,                                                        \
		.rx_ports = RXP,                                                        \
		.tx_ports = TXP,                                                        \
		.devices = DEVS,                                                        \
		.tx_pad = PAD,                                                          \
		.flags = FLAGS,                                                         \
		.strip_burst = strip,                                                   \
		.insert_burst = var##_insert,                                           \
	};                                                                              \
	RTE_INIT(var##_ref_init)                                                        \
	{                                                                               \
		tp_dsa_strip_ref_set(PROTO, var##_strip_ref);                           \
	}

/* A tagger with a pre-pass over the burst before RX decoding. */
#define TP_DSA_TAGGER_DEFINE_PRE(var, NAME, PROTO, POS, RXLEN, TXLEN, RXP, TXP, DEVS, \
				 PAD, rx, sw, tx, pre)                                \
	TP_DSA_TAGGER_DEFINE_ALL(var, NAME, PROTO, POS, RXLEN, TXLEN, RXP, TXP, DEVS,   \
				 PAD, 0, rx, sw, tx, pre, var##_strip_ref)

/* A tagger with TP_DSA_TAGGER_F_* properties (FLAGS). */
#define TP_DSA_TAGGER_DEFINE_FLAGS(var, NAME, PROTO, POS, RXLEN, TXLEN, RXP, TXP,     \
				   DEVS, PAD, FLAGS, rx, sw, tx)                      \
	TP_DSA_TAGGER_DEFINE_ALL(var, NAME, PROTO, POS, RXLEN, TXLEN, RXP, TXP, DEVS,   \
				 PAD, FLAGS, rx, sw, tx, tag_no_pre, var##_strip_ref)

#define TP_DSA_TAGGER_DEFINE(var, NAME, PROTO, POS, RXLEN, TXLEN, RXP, TXP, DEVS, PAD, \
			     rx, sw, tx)                                               \
	TP_DSA_TAGGER_DEFINE_FLAGS(var, NAME, PROTO, POS, RXLEN, TXLEN, RXP, TXP, DEVS, \
				   PAD, 0, rx, sw, tx)

/* A tagger whose RX strip (not the switch-side decode) is a fast path:
 * fast(pkts, n, c, drops, reasons, st) with c never NULL, which must give
 * exactly what var##_strip_ref gives (tests/dsa_tag compares them), and
 * which has a fused switch tag + VLAN strip, vfast (a tp_dsa_vlan_prefix_fn,
 * or NULL). */
#define TP_DSA_TAGGER_DEFINE_FAST(var, NAME, PROTO, POS, RXLEN, TXLEN, RXP, TXP, DEVS, \
				  PAD, rx, sw, tx, fast, vfast)                       \
	static uint16_t var##_strip_ref(struct rte_mbuf **, uint16_t,                   \
					const struct tp_dsa_conf *, struct rte_mbuf **, \
					uint8_t *, struct tp_dsa_stats *);             \
	static uint16_t var##_strip(struct rte_mbuf **pkts, uint16_t n,                 \
				    const struct tp_dsa_conf *c,                       \
				    struct rte_mbuf **drops, uint8_t *reasons,         \
				    struct tp_dsa_stats *st)                           \
	{                                                                               \
		if (c == NULL)                                                          \
			c = &tp_dsa_default_conf;                                       \
		if (unlikely(c->flags & TP_DSA_CONF_F_SWITCH_SIDE))                     \
			return var##_strip_ref(pkts, n, c, drops, reasons, st);         \
		return fast(pkts, n, c, drops, reasons, st);                            \
	}                                                                               \
	RTE_INIT(var##_vlan_init)                                                       \
	{                                                                               \
		tp_dsa_vlan_prefix_set(PROTO, vfast);                                   \
	}                                                                               \
	TP_DSA_TAGGER_DEFINE_ALL(var, NAME, PROTO, POS, RXLEN, TXLEN, RXP, TXP, DEVS,   \
				 PAD, 0, rx, sw, tx, tag_no_pre, var##_strip)

#endif /* TP_DSA_TAG_IMPL_H */
