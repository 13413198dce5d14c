/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private: the Marvell 4-byte DSA tag shared by "dsa" and "edsa"
 * (net/dsa/tag_dsa.c; docs/ref/dsa-tags.md §3.4, §3.5, §4.3, §4.4).
 *
 *   T0: 7:6 cmd (0 TO_CPU, 1 FROM_CPU, 2 TO_SNIFFER, 3 FORWARD), 5 tagged,
 *       4:0 device
 *   T1: 7:3 port (or trunk id), 2 trunk (FORWARD) / code[2] (TO_CPU),
 *       1 code[1], 0 the frame's CFI/DEI
 *   T2: 7:5 PCP, 4 code[0] (TO_CPU), 3:0 VID[11:8];  T3: VID[7:0]
 *
 * A tag with "tagged" set turns back into 81 00 + TCI in place (4 bytes
 * kept); otherwise the whole tag goes.
 */
#ifndef TP_DSA_TAG_MARVELL_H
#define TP_DSA_TAG_MARVELL_H

#include <rte_byteorder.h>

#include "tag_impl.h"
#include "vlan_fast.h"

#define MV_CMD_TO_CPU 0
#define MV_CMD_FROM_CPU 1
#define MV_CMD_TO_SNIFFER 2
#define MV_CMD_FORWARD 3
#define MV_TAGGED 0x20
#define MV_EDSA_HDR 4 /* 0xDADA + 2 reserved zero bytes (§3.5) */

/* Rewrite the 4 tag bytes at t into 0x8100 + TCI (DEI from T1 bit 0). */
static inline void
mv_to_8021q(uint8_t *t)
{
	uint8_t hi = (uint8_t)((t[2] & 0xEF) | (t[1] & 1) << 4);

	t[0] = 0x81;
	t[1] = 0x00;
	t[2] = hi;
}

static inline void
mv_fields(const uint8_t *t, struct tp_dsa_meta *md)
{
	md->device = t[0] & 0x1F;
	md->port = t[1] >> 3;
	md->prio = t[2] >> 5;
	md->tag_vid = (uint16_t)((t[2] & 0x0F) << 8 | t[3]);
}

/* RX decode of the tag at t; hdr = bytes before it (0 dsa, 4 edsa). The
 * tag is read as one big-endian word (bits: 31-30 command, 29 tagged,
 * 28-24 device, 23-19 port, 18 trunk (FORWARD) or code bit 2, 17 code bit
 * 1, 15-13 priority, 12 code bit 0 (TO_CPU) / CFI, 11-0 VID), so the fields
 * are shifts of one register rather than byte loads. */
static __rte_always_inline int
mv_rx(uint8_t *t, unsigned int hdr, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	uint32_t w;
	unsigned int cmd;

	memcpy(&w, t, 4);
	w = rte_be_to_cpu_32(w);
	cmd = w >> 30;
	if (cmd == MV_CMD_FROM_CPU || cmd == MV_CMD_TO_SNIFFER)
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
	if (cmd == MV_CMD_TO_CPU) {
		unsigned int code = ((w >> 16) & 0x06) | ((w >> 12) & 1);

		/* 1 FRAME2REG, 6 and 7 reserved: dropped by the kernel. */
		if (code == 1 || code >= 6)
			return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
		md->frame_type = TP_DSA_FT_TO_CPU;
	} else {
		md->frame_type = TP_DSA_FT_FORWARD;
		if (w & (1u << 18)) {
			if (c->flags & TP_DSA_CONF_F_NO_TRUNK)
				return TAG_ERR(TP_DSA_DROP_TRUNK);
			md->flags |= TP_DSA_META_F_TRUNK;
		}
	}
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	{
		/* the four fields in place in the meta's first five bytes
		 * (tag_vid, port, device, prio: tp_dsa_meta.h), one insert */
		uint64_t u, f = (w & 0x0FFF) | ((w >> 19) & 0x1F) << 16 |
				(uint64_t)((w >> 24) & 0x1F) << 24 |
				(uint64_t)((w >> 13) & 0x07) << 32;

		RTE_BUILD_BUG_ON(offsetof(struct tp_dsa_meta, tag_vid) != 0 ||
				 offsetof(struct tp_dsa_meta, port) != 2 ||
				 offsetof(struct tp_dsa_meta, device) != 3 ||
				 offsetof(struct tp_dsa_meta, prio) != 4 ||
				 sizeof(*md) != sizeof(u));
		memcpy(&u, md, sizeof(u));
		u = (u & ~UINT64_C(0xFFFFFFFFFF)) | f;
		memcpy(md, &u, sizeof(u));
	}
#else
	md->device = (uint8_t)((w >> 24) & 0x1F);
	md->port = (uint8_t)((w >> 19) & 0x1F);
	md->prio = (uint8_t)((w >> 13) & 0x07);
	md->tag_vid = (uint16_t)(w & 0x0FFF);
#endif
	if (w & (1u << 29)) {
		md->flags |= TP_DSA_META_F_TAG_VLAN;
		mv_to_8021q(t);
		return (int)hdr;
	}
	return (int)hdr + 4;
}

/*
 * RX fast path over a burst (hdr 0 dsa, 4 edsa). The usual frame - a tag
 * word the kernel accepts without a trunk source (FORWARD, or TO_CPU with
 * an accepted code), inside the configured port/device ranges, with 16
 * bytes after the tag in the first segment - is stripped with its tag word
 * in one register: the meta built and written as one 8-byte store, the
 * MACs moved with one 16-byte store, no call. Any other frame goes through
 * the reference path (tag_strip_ref_one with dec, the same code the
 * generic loop runs), so results are those of var##_strip_ref, frame for
 * frame (tests/dsa_tag/test_dsa_fast.c compares them).
 */
#define MV_W_TAGGED (1u << 29)
/* FORWARD (bits 31-30 = 3) with the trunk bit 18 clear */
#define MV_W_FWD_MASK 0xC0040000u
#define MV_W_FWD_PORT 0xC0000000u
/* TO_CPU codes the kernel accepts (0, 2, 3, 4, 5), as a bit set */
#define MV_TO_CPU_CODES_OK 0x3Du

static __rte_always_inline int
mv_fast_word(uint32_t w)
{
	unsigned int code;

	if (likely((w & MV_W_FWD_MASK) == MV_W_FWD_PORT))
		return 1;
	code = ((w >> 16) & 0x06) | ((w >> 12) & 1);
	return w >> 30 == MV_CMD_TO_CPU && ((MV_TO_CPU_CODES_OK >> code) & 1);
}

/* Bytes 5-7 of the meta (frame_type, flags, proto) by the tagger (dsa 0,
 * edsa 1) and the tag word's top three bits (command, tagged):
 * frame_type is 1 + command (TO_CPU 0 -> 1, FORWARD 3 -> 4), flags VALID,
 * and TAG_VLAN when tagged. One indexed load instead of five shifts and
 * masks per frame. */
#define MV_META_HI(proto, cmd, tagged)                                            \
	((uint64_t)(1 + (cmd)) << 40 |                                            \
	 (uint64_t)(TP_DSA_META_F_VALID | ((tagged) ? TP_DSA_META_F_TAG_VLAN : 0)) << 48 | \
	 (uint64_t)(proto) << 56)
#define MV_META_HI_ROW(proto)                                                     \
	{ MV_META_HI(proto, 0, 0), MV_META_HI(proto, 0, 1), MV_META_HI(proto, 1, 0), \
	  MV_META_HI(proto, 1, 1), MV_META_HI(proto, 2, 0), MV_META_HI(proto, 2, 1), \
	  MV_META_HI(proto, 3, 0), MV_META_HI(proto, 3, 1) }
static const uint64_t mv_meta_hi[2][8] = {
	MV_META_HI_ROW(TP_DSA_PROTO_DSA), MV_META_HI_ROW(TP_DSA_PROTO_EDSA),
};

/* The meta of an accepted tag word (see mv_rx), as the 8 bytes of struct
 * tp_dsa_meta in memory order: tag_vid, port, device, prio, frame_type,
 * flags, proto. Device (bits 28-24) and VID (11-0) are already in place. */
static __rte_always_inline uint64_t
mv_fast_meta(uint32_t w, uint8_t proto)
{
	RTE_BUILD_BUG_ON(TP_DSA_FT_TO_CPU != 1 + MV_CMD_TO_CPU ||
			 TP_DSA_FT_FORWARD != 1 + MV_CMD_FORWARD);
	RTE_BUILD_BUG_ON(offsetof(struct tp_dsa_meta, frame_type) != 5 ||
			 offsetof(struct tp_dsa_meta, flags) != 6 ||
			 offsetof(struct tp_dsa_meta, proto) != 7);
	return (w & 0x1F000FFFu) | ((w >> 3) & 0x001F0000u) |
	       (uint64_t)((w >> 13) & 7) << 32 |          /* prio -> byte 4 */
	       mv_meta_hi[proto == TP_DSA_PROTO_EDSA][w >> 29];
}

/* One frame on the fast path: 1 when stripped, 0 when it needs the
 * reference path (nothing changed then). meta: the field is registered
 * (at off); ranged: n_ports / n_devices are set. */
static __rte_always_inline int
mv_rx_fast_one(struct rte_mbuf *m, unsigned int hdr, uint8_t proto, int meta,
	       size_t off, int ranged, unsigned int np, unsigned int ndev)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	unsigned int by = hdr + 4;
	uint64_t md;
	uint32_t w;

	if (unlikely(m->data_len < hdr + 20))
		return 0;
	memcpy(&w, p + TAG_MACS + hdr, 4);
	w = rte_be_to_cpu_32(w);
	if (unlikely(!mv_fast_word(w)))
		return 0;
	if (ranged && (((w >> 19) & 0x1F) >= np || ((w >> 24) & 0x1F) >= ndev))
		return 0;
	md = mv_fast_meta(w, proto);
	if (meta)
		memcpy((uint8_t *)m + off, &md, 8);
	if (unlikely(w & MV_W_TAGGED)) {
		mv_to_8021q(p + TAG_MACS + hdr);
		by = hdr;
		if (hdr == 0) /* "dsa": the tag became the 802.1Q header */
			return 1;
	}
	tp_mbuf_strip_after_macs(m, p, by);
	return 1;
}

static __rte_always_inline uint16_t
mv_rx_burst_inline(struct rte_mbuf **pkts, uint16_t n, const struct tp_dsa_conf *conf,
		   struct rte_mbuf **drops, uint8_t *reasons, struct tp_dsa_stats *st,
		   unsigned int hdr, uint8_t proto, tag_dec_fn dec, int meta, int ranged)
{
	const int off = tp_dsa_meta_offset;
	const size_t moff = meta ? (size_t)off : 0;
	const struct tp_dsa_conf lc = *conf;
	const unsigned int np = lc.n_ports ? lc.n_ports : 256;
	const unsigned int ndev = lc.n_devices ? lc.n_devices : 256;
	uint16_t i, k = 0, nd = 0;

	st->in += n;
	for (i = 0; i < n && i < TAG_PREFETCH_AHEAD; i++)
		tag_prefetch(pkts[i], TP_DSA_POS_AFTER_SA, off);
	/* Two loops, so the one that prefetches needs no bound check for it.
	 * While every frame takes the fast path none moves in pkts[], so
	 * there is no kept index to carry: that is the usual burst. */
	for (i = 0; i + TAG_PREFETCH_AHEAD < n; i++) {
		tag_prefetch(pkts[i + TAG_PREFETCH_AHEAD], TP_DSA_POS_AFTER_SA,
			     meta ? off : -1);
		if (unlikely(!mv_rx_fast_one(pkts[i], hdr, proto, meta, moff, ranged, np,
					     ndev)))
			goto mixed;
	}
	for (; i < n; i++)
		if (unlikely(!mv_rx_fast_one(pkts[i], hdr, proto, meta, moff, ranged, np,
					     ndev)))
			goto mixed;
	st->out += n;
	return n;
mixed:
	/* pkts[i] missed (untouched); the same loops, keeping pkts[k] */
	for (k = i; i + TAG_PREFETCH_AHEAD < n; i++) {
		struct rte_mbuf *m = pkts[i];

		tag_prefetch(pkts[i + TAG_PREFETCH_AHEAD], TP_DSA_POS_AFTER_SA,
			     meta ? off : -1);
		if (likely(mv_rx_fast_one(m, hdr, proto, meta, moff, ranged, np, ndev)))
			TP_KEEP(pkts, i, k, m);
		else
			tag_strip_ref_keep(pkts, i, &k, off, &lc, drops, reasons, &nd, st,
					   proto, TP_DSA_POS_AFTER_SA, hdr + 4, dec, 0);
	}
	for (; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (likely(mv_rx_fast_one(m, hdr, proto, meta, moff, ranged, np, ndev)))
			TP_KEEP(pkts, i, k, m);
		else
			tag_strip_ref_keep(pkts, i, &k, off, &lc, drops, reasons, &nd, st,
					   proto, TP_DSA_POS_AFTER_SA, hdr + 4, dec, 0);
	}
	st->out += k;
	return k;
}

/* The meta store and the ranges' check compiled in only where needed. */
static __rte_always_inline uint16_t
mv_rx_burst(struct rte_mbuf **pkts, uint16_t n, const struct tp_dsa_conf *c,
	    struct rte_mbuf **drops, uint8_t *reasons, struct tp_dsa_stats *st,
	    unsigned int hdr, uint8_t proto, tag_dec_fn dec)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	int ranged = c->n_ports != 0 || c->n_devices != 0;

	if (likely(tp_dsa_meta_offset >= 0 && !ranged))
		return mv_rx_burst_inline(pkts, n, c, drops, reasons, st, hdr, proto,
					  dec, 1, 0);
	if (tp_dsa_meta_offset >= 0)
		return mv_rx_burst_inline(pkts, n, c, drops, reasons, st, hdr, proto,
					  dec, 1, 1);
	return mv_rx_burst_inline(pkts, n, c, drops, reasons, st, hdr, proto, dec,
				  0, ranged);
#else
	return tag_strip_loop(pkts, n, c, drops, reasons, st, proto,
			      TP_DSA_POS_AFTER_SA, hdr + 4, dec, 0);
#endif
}

/*
 * The switch tag and the VLAN tags after it in one pass
 * (tp_dsa_vlan_strip_prefix). A frame both fast paths take - a tag word
 * mv_rx_fast_one accepts, without "tagged" (that tag turns into an 802.1Q
 * header, which the VLAN stage then reads), no tag taken by the NIC, and
 * the 24 bytes the VLAN fast path reads present after the switch tag - has
 * its tag word and both TPID slots read once, the meta and the VLAN fields
 * written, and its MACs moved once, by the switch tag and the VLAN tags
 * together. Returns 1 then, or 0 with the frame untouched.
 */
static __rte_always_inline int
mv_rx_vlan_one(struct rte_mbuf *m, unsigned int hdr, uint8_t proto, size_t off,
	       tpid_pair_vec tv, uint64_t *n_single, uint64_t *n_qinq)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	uint8_t *v = p + TAG_MACS + hdr + 4; /* where the VLAN stage would look */
	uint64_t ol = m->ol_flags, md;
	uint16_t dl = m->data_len;
	unsigned int by = hdr + 4, tags;
	uint32_t w;

	if (unlikely(dl < hdr + 4 + 24 ||
		     (ol & (RTE_MBUF_F_RX_QINQ_STRIPPED | RTE_MBUF_F_RX_VLAN_STRIPPED))))
		return 0;
	memcpy(&w, p + TAG_MACS + hdr, 4);
	w = rte_be_to_cpu_32(w);
	if (unlikely(!mv_fast_word(w) || (w & MV_W_TAGGED)))
		return 0;
	md = mv_fast_meta(w, proto);
	memcpy((uint8_t *)m + off, &md, 8);
	tags = tpid_pair(tv, v);
	/* the TCIs are read before the MAC move overwrites them */
	if (likely(tags == 3)) {
		uint16_t tci = tag_rd16(v + 6);

		m->vlan_tci_outer = tag_rd16(v + 2);
		m->ol_flags = ol | TP_VLAN_RX_F_TWO;
		tp_mbuf_strip_after_macs(m, p, by + 8);
		m->vlan_tci = tci;
		(*n_qinq)++;
	} else if (tags & 1) {
		uint16_t tci = tag_rd16(v + 2);

		m->ol_flags = ol | TP_VLAN_RX_F_ONE;
		tp_mbuf_strip_after_macs(m, p, by + 4);
		m->vlan_tci = tci;
		(*n_single)++;
	} else {
		tp_mbuf_strip_after_macs(m, p, by);
	}
	return 1;
}

/* The leading frames of the burst mv_rx_vlan_one takes; stops at the first
 * other one (the caller gives the rest to the two bursts, which keeps the
 * order and every drop reason). The configurations the fast strip does not
 * take (no meta field, port/device ranges, switch side, no TPID) take no
 * frame. */
static __rte_always_inline uint16_t
mv_rx_vlan_prefix(struct rte_mbuf **pkts, uint16_t n, const struct tp_dsa_conf *c,
		  const struct tp_vlan_conf *vc, struct tp_dsa_stats *st,
		  struct tp_vlan_stats *vst, unsigned int hdr, uint8_t proto)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	const int off = tp_dsa_meta_offset;
	uint64_t n_single = 0, n_qinq = 0;
	struct tpid_set s;
	tpid_pair_vec tv;
	uint16_t i;

	if (c == NULL)
		c = &tp_dsa_default_conf;
	if (off < 0 || c->n_ports != 0 || c->n_devices != 0 ||
	    (c->flags & TP_DSA_CONF_F_SWITCH_SIDE) || tpid_set_init(&s, vc) == 0)
		return 0;
	tv = tpid_pair_load(&s);
	for (i = 0; i < n && i < TAG_PREFETCH_AHEAD; i++)
		tag_prefetch(pkts[i], TP_DSA_POS_AFTER_SA, off);
	for (i = 0; i + TAG_PREFETCH_AHEAD < n; i++) {
		tag_prefetch(pkts[i + TAG_PREFETCH_AHEAD], TP_DSA_POS_AFTER_SA, off);
		if (unlikely(!mv_rx_vlan_one(pkts[i], hdr, proto, (size_t)off, tv,
					     &n_single, &n_qinq)))
			goto out;
	}
	for (; i < n; i++)
		if (unlikely(!mv_rx_vlan_one(pkts[i], hdr, proto, (size_t)off, tv,
					     &n_single, &n_qinq)))
			break;
out:
	st->in += i;
	st->out += i;
	vst->in += i;
	vst->out += i;
	vst->single += n_single;
	vst->qinq += n_qinq;
	vst->untagged += i - n_single - n_qinq;
	return i;
#else
	RTE_SET_USED(pkts);
	RTE_SET_USED(n);
	RTE_SET_USED(c);
	RTE_SET_USED(vc);
	RTE_SET_USED(st);
	RTE_SET_USED(vst);
	RTE_SET_USED(hdr);
	RTE_SET_USED(proto);
	return 0; /* the meta is built in little-endian order (mv_fast_meta) */
#endif
}

/* Switch-side decode: only FROM_CPU is a CPU-to-switch frame. */
static __rte_always_inline int
mv_sw(uint8_t *t, unsigned int hdr, struct tp_dsa_meta *md)
{
	if (t[0] >> 6 != MV_CMD_FROM_CPU)
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
	md->frame_type = TP_DSA_FT_FROM_CPU;
	mv_fields(t, md);
	if (t[0] & MV_TAGGED) {
		md->flags |= TP_DSA_META_F_TAG_VLAN;
		mv_to_8021q(t);
		return (int)hdr;
	}
	return (int)hdr + 4;
}

/* Write a FROM_CPU tag at t for an untagged frame (standalone port). */
static inline void
mv_tx_untagged(uint8_t *t, unsigned int port, unsigned int dev, uint16_t vid)
{
	t[0] = (uint8_t)(MV_CMD_FROM_CPU << 6 | dev);
	t[1] = (uint8_t)(port << 3);
	t[2] = (uint8_t)((vid >> 8) & 0x0F);
	t[3] = (uint8_t)vid;
}

/* Convert the 802.1Q header at t (81 00 TCI) into a FROM_CPU tagged tag. */
static inline void
mv_tx_convert(uint8_t *t, unsigned int port, unsigned int dev)
{
	uint8_t hi = t[2];

	t[0] = (uint8_t)(MV_CMD_FROM_CPU << 6 | MV_TAGGED | dev);
	t[1] = (uint8_t)(port << 3 | ((hi >> 4) & 1));
	t[2] = hi & 0xEF;
}

/* Is the frame 802.1Q tagged, with its header where it may be converted in
 * place (tag_tx_vlan_in_place_ok)? */
static inline int
mv_is_8021q(const struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

	return tag_tx_vlan_in_place_ok(m) && p[12] == 0x81 && p[13] == 0x00;
}

#endif /* TP_DSA_TAG_MARVELL_H */
