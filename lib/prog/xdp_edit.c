/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet edits of verdict programs (rules: tp_prog.h, "For tagpipe's own
 * libraries"; C programs' API: tp_prog.h, "Acting on the packet"). The mbuf-level primitives serve the
 * eBPF helpers too, so a C program and an XDP object get the same bounds
 * and the same results.
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>

#include "tp_prog.h"

/* l2_len is a 7-bit mbuf field (rte_mbuf_core.h, tx_offload). */
#define L2_LEN_MAX 127

int
tp_xdp_edit_head(struct rte_mbuf *m, int32_t delta, uint32_t metalen)
{
	int64_t off = (int64_t)m->data_off + delta;
	bool merged = (m->ol_flags & RTE_MBUF_F_RX_LRO) != 0;
	int64_t l2 = (int64_t)m->l2_len - delta;

	if (off - (int64_t)metalen < 0 ||
	    (int64_t)m->data_len - delta < TP_XDP_EDIT_MIN_FRAME)
		return -EINVAL;
	/* A merged packet is re-segmented from its l2_len + l3_len + l4_len
	 * header on egress: the edit must stay inside the L2 header. */
	if (merged && (l2 < TP_XDP_EDIT_MIN_FRAME || l2 > L2_LEN_MAX))
		return -EINVAL;
	if (metalen > 0) {
		uint8_t *data = rte_pktmbuf_mtod(m, uint8_t *);

		memmove(data + delta - metalen, data - metalen, metalen);
	}
	m->data_off = (uint16_t)off;
	m->data_len = (uint16_t)(m->data_len - delta);
	m->pkt_len = (uint32_t)((int64_t)m->pkt_len - delta);
	if (merged)
		m->l2_len = (uint64_t)l2;
	return 0;
}

/* A chained (multi-buffer) packet, as net/core/filter.c's
 * bpf_xdp_frags_shrink_tail / bpf_xdp_frags_increase_tail treat one: a
 * cut may free whole segments from the end and shorten the one it ends
 * in (the packet keeps ETH_HLEN bytes); growth stays inside the last
 * segment's buffer. */
static int
edit_tail_chain(struct rte_mbuf *m, int32_t delta)
{
	struct rte_mbuf *s, *last = rte_pktmbuf_lastseg(m);

	if (delta >= 0) {
		if ((uint32_t)delta > rte_pktmbuf_tailroom(last) || !RTE_MBUF_DIRECT(last) ||
		    rte_mbuf_refcnt_read(last) != 1)
			return -EINVAL;
		memset(rte_pktmbuf_mtod_offset(last, uint8_t *, last->data_len), 0,
		       (size_t)delta);
		last->data_len = (uint16_t)(last->data_len + delta);
		m->pkt_len += (uint32_t)delta;
		return 0;
	}
	if ((int64_t)m->pkt_len + delta < TP_XDP_EDIT_MIN_FRAME)
		return -EINVAL;
	{
		uint32_t keep = (uint32_t)((int64_t)m->pkt_len + delta), segs = 1;

		/* the segment holding the new last byte */
		for (s = m; keep > s->data_len; s = s->next, segs++)
			keep -= s->data_len;
		s->data_len = (uint16_t)keep;
		rte_pktmbuf_free(s->next);
		s->next = NULL;
		m->nb_segs = (uint16_t)segs;
		m->pkt_len = (uint32_t)((int64_t)m->pkt_len + delta);
	}
	return 0;
}

int
tp_xdp_edit_tail(struct rte_mbuf *m, int32_t delta)
{
	if (m->ol_flags & RTE_MBUF_F_RX_LRO)
		return -EOPNOTSUPP;
	if (m->next != NULL)
		return edit_tail_chain(m, delta);
	/* One buffer: the frame may end anywhere up to the buffer's end. The
	 * kernel's limit is its frame's end less the room it keeps for
	 * skb_shared_info (xdp_data_hard_end); an mbuf keeps that kind of
	 * state outside its data buffer, so all of it is the frame's. */
	if ((int64_t)m->data_len + delta < TP_XDP_EDIT_MIN_FRAME ||
	    (delta > 0 && (uint32_t)delta > rte_pktmbuf_tailroom(m)))
		return -EINVAL;
	/* The kernel zeroes grown bytes too (bpf_xdp_adjust_tail). */
	if (delta > 0)
		memset(rte_pktmbuf_mtod_offset(m, uint8_t *, m->data_len), 0,
		       (size_t)delta);
	m->data_len = (uint16_t)(m->data_len + delta);
	m->pkt_len = (uint32_t)((int64_t)m->pkt_len + delta);
	return 0;
}

int
tp_xdp_edit_xfer(struct rte_mbuf *m, uint64_t off, void *buf, uint64_t len,
	      bool store)
{
	uint8_t *b = buf;

	if (!tp_xdp_edit_range_ok(m, off, len))
		return -EINVAL;
	for (struct rte_mbuf *s = m; s != NULL && len > 0; s = s->next) {
		uint64_t n;
		uint8_t *d;

		if (off >= s->data_len) {
			off -= s->data_len;
			continue;
		}
		n = RTE_MIN(len, s->data_len - off);
		d = rte_pktmbuf_mtod_offset(s, uint8_t *, off);
		/* memmove: an eBPF program may pass a buffer inside the packet */
		if (store)
			memmove(d, b, n);
		else
			memmove(b, d, n);
		b += n;
		len -= n;
		off = 0;
	}
	return 0;
}

/* ---- the C programs' API (tp_prog.h) ----------------------------------- */

static inline void
ctx_refresh(struct tp_xdp_md *ctx)
{
	struct rte_mbuf *m = ctx->mbuf;

	ctx->data = rte_pktmbuf_mtod(m, uint8_t *);
	ctx->data_end = ctx->data + m->data_len;
	ctx->pkt_len = m->pkt_len;
}

int
tp_xdp_adjust_head(struct tp_xdp_md *ctx, int32_t delta)
{
	int rc = tp_xdp_edit_head(ctx->mbuf, delta, 0);

	if (rc == 0)
		ctx_refresh(ctx);
	return rc;
}

int
tp_xdp_adjust_tail(struct tp_xdp_md *ctx, int32_t delta)
{
	int rc = tp_xdp_edit_tail(ctx->mbuf, delta);

	if (rc == 0)
		ctx_refresh(ctx);
	return rc;
}

int
tp_xdp_load_bytes(const struct tp_xdp_md *ctx, uint32_t off, void *buf,
		  uint32_t len)
{
	return tp_xdp_edit_xfer(ctx->mbuf, off, buf, len, false);
}

int
tp_xdp_store_bytes(struct tp_xdp_md *ctx, uint32_t off, const void *buf,
		   uint32_t len)
{
	/* store reads buf only; the cast keeps one copy loop for both ways */
	return tp_xdp_edit_xfer(ctx->mbuf, off, (void *)(uintptr_t)buf, len, true);
}

/* 802.1Q tag after the MAC addresses (IEEE 802.1Q-2018 §9.3: TPID, TCI). */
#define MACS_LEN (2 * RTE_ETHER_ADDR_LEN)
/* A TPID sits where an EtherType does; values below 0x0600 are lengths
 * (IEEE 802.3-2018 §3.2.6). */
#define ETHERTYPE_MIN 0x0600

int
tp_xdp_vlan_push(struct tp_xdp_md *ctx, uint16_t tpid, uint16_t tci)
{
	struct rte_mbuf *m = ctx->mbuf;
	rte_be16_t tag[2] = { rte_cpu_to_be_16(tpid), rte_cpu_to_be_16(tci) };
	uint8_t *d;
	int rc;

	if (tpid < ETHERTYPE_MIN || m->data_len < TP_XDP_EDIT_MIN_FRAME)
		return -EINVAL;
	if (rte_pktmbuf_headroom(m) < sizeof(tag))
		return -ENOSPC;
	rc = tp_xdp_edit_head(m, -(int32_t)sizeof(tag), 0);
	if (rc < 0)
		return rc;
	d = rte_pktmbuf_mtod(m, uint8_t *);
	memmove(d, d + sizeof(tag), MACS_LEN);
	memcpy(d + MACS_LEN, tag, sizeof(tag));
	ctx_refresh(ctx);
	return 0;
}

int
tp_xdp_vlan_pop(struct tp_xdp_md *ctx)
{
	struct rte_mbuf *m = ctx->mbuf;
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint16_t tpid, tci;
	uint8_t *nd;
	int rc;

	if (m->data_len < MACS_LEN + 2)
		return -ENOENT;
	tpid = (uint16_t)(d[MACS_LEN] << 8 | d[MACS_LEN + 1]);
	/* C-VLAN, S-VLAN (IEEE 802.1Q-2018 Table 9-1) and the pre-standard
	 * QinQ 0x9100 lib/vlan strips too. */
	if (tpid != RTE_ETHER_TYPE_VLAN && tpid != RTE_ETHER_TYPE_QINQ &&
	    tpid != RTE_ETHER_TYPE_QINQ1)
		return -ENOENT;
	/* The tag and the EtherType after it in the first segment: else
	 * fewer than ETH_HLEN bytes would stay and tp_xdp_edit_head refuses. */
	rc = tp_xdp_edit_head(m, 4, 0);
	if (rc < 0)
		return rc;
	nd = rte_pktmbuf_mtod(m, uint8_t *);
	tci = (uint16_t)(nd[MACS_LEN - 2] << 8 | nd[MACS_LEN - 1]);
	memmove(nd, nd - 4, MACS_LEN);
	ctx_refresh(ctx);
	return tci;
}
