/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC chip model: the LRO (RSC, receive side coalescing) engine.
 *
 * Registers (offsets and fields from LNX hw_atl/hw_atl_llh_internal.h, the
 * values drivers write from LNX hw_atl/hw_atl_b0.c hw_atl_b0_hw_offload_set):
 *  - 0x5590 bit N: LRO on ring N.
 *  - 0x55A0 + 4*(N/8), 2-bit field at 4*(N%8): most descriptors one
 *    session may use. LNX derives the code from HW_ATL_B0_LRO_RXD_MAX as
 *    "more than 8 -> 3, more than 4 -> 2, more than 2 -> 1, else 0", so the
 *    model reads the codes as 2, 4, 8, 16 descriptors.
 *  - 0x5594 bits 4:0: minimum TCP payload of a session's first segment.
 *  - 0x5620: time base divider (bits 31:20, 0x61A = 5 us, i.e. units of
 *    3.2 ns) and maximum coalescing interval (9:0, LNX 50 = 250 us) in
 *    time-base units. The inactive interval (19:10) is not modelled: LNX
 *    writes 0 there.
 *
 * Write-back (docs/ref/aqc.md §5.4; how LNX aq_ring.c aq_ring_rx_clean and
 * hw_atl_b0.c hw_atl_b0_hw_ring_rx_receive read it):
 *  - every descriptor of a session gets DD and a non-zero RSC count
 *    (bits 15:12 of bytes 8-9; LNX takes any non-zero count as "LRO" and
 *    then follows next_desc_ptr instead of index + 1);
 *  - a descriptor is written back when it is full and the session takes
 *    the next one (then bytes 12-13 hold that one's index) or when the
 *    session closes (then it is the last and carries EOP);
 *  - the data of the aggregate is packed: every buffer but the last is
 *    full (LNX sizes non-EOP fragments as min(length, buffer) and the EOP
 *    one as length mod buffer), so the length field holds the aggregate's
 *    bytes so far, on the EOP descriptor its total length;
 *  - the RSC count is the number of segments in the aggregate so far
 *    (the meaning of the count is INFERRED; LNX reads it as a flag). A
 *    session is closed when it reaches 15, the most the field holds.
 *  - the descriptors are taken from the ring head as data arrives, so two
 *    sessions (and frames of other flows) interleave in ring order.
 *
 * What is merged (an RSC engine coalesces only what the receiver could
 * not tell from the original segments):
 *  - TCP over IPv4 without options or fragmentation, or over IPv6 with no
 *    extension header; IP and TCP checksums correct; flags ACK, ACK|PSH only;
 *    a payload (>= the first-payload minimum to start a session); no L2
 *    trailer;
 *  - the same flow (Ethernet header and VLAN tag, addresses, ports) and the
 *    next in-order sequence number; TOS/TTL (traffic class, flow label,
 *    hop limit), DF, TCP data offset, flags but PSH, ACK number, window,
 *    urgent pointer and options all equal to the first segment's; IPv4 IDs
 *    incrementing by one or all equal; payload not above the first one's.
 *    A shorter segment or a PSH is appended and closes the session.
 *  - the aggregate stays below 65536 bytes (16-bit length field).
 * Anything else of an open session's flow closes the session first, and is
 * then delivered or starts a new session. Sessions also close at their
 * coalescing interval (polled each model pass), when the ring's LRO bit is
 * cleared, when the next segment would need more descriptors than allowed
 * or than posted, and to make room (2 sessions per ring; LNX programs a
 * session limit in 0x5594 bits 13:12 whose encoding no source gives).
 *
 * Headers of a closed aggregate, rewritten in the first buffer before the
 * EOP write-back: the first segment's, with IPv4 total length and header
 * checksum, or IPv6 payload length, set for the aggregate; PSH OR-ed in
 * when any segment had it; the TCP checksum recomputed over the aggregate.
 * Why: the Linux stack re-checks the IPv4 header checksum and trims a
 * packet to its IP length (ip_rcv_core, ipv6_rcv), so silicon must write
 * both; the TCP checksum is not needed by LNX (it marks the packet
 * CHECKSUM_UNNECESSARY from the L4-valid bit) but a full one makes the
 * aggregate valid for any receiver that checks. The checksum status bits
 * are those of the first segment (all were verified before merging).
 */
#include <string.h>

#include <rte_common.h>

#include "aqc_model_priv.h"

#define TCP_ACK 0x10u
#define TCP_PSH 0x08u
#define RSC_COUNT_MAX 15u

static inline uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void
wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* TCP pseudo-header sum for a TCP length of l4len (RFC 793 3.1, RFC 8200 8.1). */
static uint32_t
pseudo(const uint8_t *l3, bool v6, uint32_t l4len)
{
	if (!v6)
		return aqm_sum16(l3 + 12, 8, 0) + 6 + l4len;
	return aqm_sum16(l3 + 8, 32, 0) + 6 + (l4len >> 16) + (l4len & 0xffff);
}

static uint32_t
max_desc(const struct aqc_model *m, unsigned int q)
{
	uint32_t v = aqm_rd(m, AQC_RI(RPO_LRO_MAXDESC, q / 8));

	return 2u << ((v >> (4 * (q % 8))) & 3);
}

struct ring {
	uint64_t base;
	uint32_t size, head, tail, bufsz;
};

static void
ring_read(const struct aqc_model *m, unsigned int q, struct ring *r)
{
	r->base = ((uint64_t)aqm_rd(m, AQC_RI(RXD_BASE_HI, q)) << 32) |
		  aqm_rd(m, AQC_RI(RXD_BASE_LO, q));
	r->size = AQC_FGET(RXD_LEN, aqm_rd(m, AQC_RI(RXD_CTL, q))) * 8u;
	r->head = AQC_FGET(RXD_HEAD_PTR, aqm_rd(m, AQC_RI(RXD_HEAD, q)));
	r->tail = aqm_rd(m, AQC_RI(RXD_TAIL, q));
	r->bufsz = AQC_FGET(RXD_DATA_SIZE, aqm_rd(m, AQC_RI(RXD_BUF_SIZE, q))) *
		   AQC_RX_BUF_UNIT;
}

static uint32_t
ring_avail(const struct ring *r)
{
	if (r->size == 0 || r->head >= r->size || r->tail >= r->size)
		return 0;
	return (r->tail + r->size - r->head) % r->size;
}

/* Take the descriptor at the head for session s (room checked before). */
static void
take_desc(struct aqc_model *m, unsigned int q, struct ring *r, struct aqm_rsc_sess *s)
{
	union aqc_rx_desc *d = aqm_dma_ptr(m, r->base + 16u * r->head, 16);

	s->desc[s->ndesc] = (uint16_t)r->head;
	s->buf[s->ndesc] = d != NULL ? __atomic_load_n(&d->read.buf_addr, __ATOMIC_ACQUIRE) : 0;
	if (d == NULL)
		m->cnt.dma_faults++;
	s->ndesc++;
	s->fill = 0;
	if (++r->head == r->size)
		r->head = 0;
	aqm_wr(m, AQC_RI(RXD_HEAD, q), r->head);
}

/* docs/ref/aqc.md §5.4 write-back of session descriptor k: dword 2 last. */
static void
write_back(struct aqc_model *m, const struct ring *r, const struct aqm_rsc_sess *s,
	   uint32_t k, bool eop)
{
	union aqc_rx_desc *d = aqm_dma_ptr(m, r->base + 16u * s->desc[k], 16);
	uint32_t cnt = s->segs > 1 || s->ndesc > 1 ? RTE_MIN(s->segs, RSC_COUNT_MAX) : 0;
	uint32_t next = eop ? 0 : s->desc[k + 1];
	uint32_t dw2 = s->status | (eop ? AQC_RXD_EOP : 0) | cnt << AQC_RXD_RSC_SHIFT |
		       (s->len & 0xffffu) << 16;

	if (d == NULL)
		return;
	__atomic_store_n(&d->dw[0], s->dw0, __ATOMIC_RELAXED);
	__atomic_store_n(&d->dw[1], s->hash, __ATOMIC_RELAXED);
	__atomic_store_n(&d->dw[3], (uint32_t)s->vlan << 16 | next, __ATOMIC_RELAXED);
	__atomic_store_n(&d->dw[2], dw2, __ATOMIC_RELEASE);
}

static uint32_t
descs_needed(uint32_t fill, uint32_t n, uint32_t bufsz)
{
	return fill + n <= bufsz ? 0 : (fill + n - bufsz + bufsz - 1) / bufsz;
}

/* Copy n bytes into the session's buffers, taking (and linking) further
 * descriptors as they fill; room was checked with descs_needed. */
static void
put(struct aqc_model *m, unsigned int q, struct ring *r, struct aqm_rsc_sess *s,
    const uint8_t *src, uint32_t n)
{
	while (n > 0) {
		uint32_t chunk;

		if (s->fill == r->bufsz) {
			take_desc(m, q, r, s);
			write_back(m, r, s, s->ndesc - 2, false);
		}
		chunk = RTE_MIN(n, r->bufsz - s->fill);
		if (!aqm_dma_write(m, s->buf[s->ndesc - 1] + s->fill, src, chunk))
			s->dw0 |= AQC_RXD_DMA_ERR;
		s->fill += chunk;
		s->len += chunk;
		src += chunk;
		n -= chunk;
	}
}

/* Rewrite the headers (see the top) and write the EOP descriptor. */
static void
close_sess(struct aqc_model *m, unsigned int q, struct aqm_rsc_sess *s)
{
	struct ring r;
	uint8_t *h;

	if (!s->open)
		return;
	s->open = false;
	ring_read(m, q, &r);
	h = aqm_dma_ptr(m, s->buf[0], s->hdr_len);
	if (s->segs > 1 && h != NULL && !(s->dw0 & AQC_RXD_DMA_ERR)) {
		uint8_t *ip = h + s->l3_off, *th = h + s->l4_off;
		uint32_t l4len = s->len - s->l4_off, sum;

		if (s->v6) {
			wr16(ip + 4, (uint16_t)(s->len - s->l3_off - 40));
		} else {
			wr16(ip + 2, (uint16_t)(s->len - s->l3_off));
			wr16(ip + 10, 0);
			wr16(ip + 10, (uint16_t)~aqm_fold(aqm_sum16(ip, 20, 0)));
		}
		if (s->psh)
			th[13] |= TCP_PSH;
		wr16(th + 16, 0);
		sum = pseudo(ip, s->v6, l4len);
		/* buffers start at even frame offsets, so do their parts */
		for (uint32_t k = 0; k < s->ndesc; k++) {
			uint32_t start = k * r.bufsz, end = start + (k + 1 < s->ndesc ? r.bufsz : s->fill);
			const uint8_t *b;

			start = RTE_MAX(start, s->l4_off);
			if (start >= end)
				continue;
			b = aqm_dma_ptr(m, s->buf[k] + start - k * r.bufsz, end - start);
			if (b != NULL)
				sum = aqm_fold(aqm_sum16(b, end - start, sum));
		}
		wr16(th + 16, (uint16_t)~aqm_fold(sum));
		m->cnt.rsc_aggregates++;
	}
	write_back(m, &r, s, s->ndesc - 1, true);
	aqm_add64(m, AQC_R_RX_DMA_PKTS_LO, 1);
	aqm_add64(m, AQC_R_RX_DMA_OCTS_LO, s->len);
	m->cnt.rx_frames++;
}

static bool
same_flow(const struct aqm_rsc_sess *s, const struct aqm_rsc_frame *f)
{
	const uint8_t *a = s->hdr + s->l3_off, *b = f->data + f->l3_off;

	if (s->v6 != f->v6 || s->l3_off != f->l3_off || s->vlan != f->vlan ||
	    memcmp(s->hdr, f->data, s->l3_off) != 0)
		return false;
	if (s->v6 ? memcmp(a + 8, b + 8, 32) != 0 : memcmp(a + 12, b + 12, 8) != 0)
		return false;
	return memcmp(s->hdr + s->l4_off, f->data + f->l4_off, 4) == 0;
}

/* Everything of the segment's headers that must equal the session's. */
static bool
headers_match(const struct aqm_rsc_sess *s, const struct aqm_rsc_frame *f)
{
	const uint8_t *a = s->hdr + s->l3_off, *b = f->data + f->l3_off;
	const uint8_t *ta = s->hdr + s->l4_off, *tb = f->data + f->l4_off;
	uint32_t thl = s->hdr_len - s->l4_off;

	if (f->l4_off - f->l3_off != s->l4_off - s->l3_off || (uint32_t)(tb[12] >> 4) * 4 != thl)
		return false;
	if (s->v6) {
		if (memcmp(a, b, 4) != 0 || a[7] != b[7])
			return false;
	} else if (a[1] != b[1] || a[8] != b[8] || (a[6] & 0x40) != (b[6] & 0x40)) {
		return false;
	}
	/* ack (8-11), data offset (12), flags but PSH (13), window (14-15),
	 * urgent pointer (18-19), options (20-) */
	return memcmp(ta + 8, tb + 8, 5) == 0 && (ta[13] & ~TCP_PSH) == (tb[13] & ~TCP_PSH) &&
	       memcmp(ta + 14, tb + 14, 2) == 0 && memcmp(ta + 18, tb + 18, thl - 18) == 0;
}

/* The segment may be coalesced at all (see the top). */
static bool
eligible(const struct aqm_rsc_frame *f)
{
	const uint8_t *ip = f->data + f->l3_off, *th = f->data + f->l4_off;
	uint32_t thl;

	if (!f->tcp || !f->sane || f->frag || f->l3_end != f->len)
		return false;
	if (f->v6 ? f->l4_off != f->l3_off + 40 : (ip[0] & 0xf) != 5)
		return false;
	thl = (uint32_t)(th[12] >> 4) * 4;
	if (thl < 20 || f->l4_off + thl >= f->l3_end || f->l4_off + thl > AQM_RSC_HDR_MAX)
		return false;
	if ((th[13] & ~(TCP_ACK | TCP_PSH)) != 0 || !(th[13] & TCP_ACK))
		return false;
	if (!f->v6 && aqm_fold(aqm_sum16(ip, 20, 0)) != 0xffff)
		return false;
	return aqm_fold(aqm_sum16(th, f->l3_end - f->l4_off,
				  pseudo(ip, f->v6, f->l3_end - f->l4_off))) == 0xffff;
}

static uint32_t
payload(const struct aqm_rsc_frame *f)
{
	return f->l3_end - f->l4_off - (uint32_t)(f->data[f->l4_off + 12] >> 4) * 4;
}

static uint32_t
seq_of(const struct aqm_rsc_frame *f)
{
	const uint8_t *th = f->data + f->l4_off + 4;

	return (uint32_t)rd16(th) << 16 | rd16(th + 2);
}

/* Append, or return false (nothing written) when it may not be. */
static bool
append(struct aqc_model *m, unsigned int q, struct aqm_rsc_sess *s,
       const struct aqm_rsc_frame *f)
{
	uint32_t pay = payload(f), hl = f->len - pay;
	uint16_t id = f->v6 ? 0 : rd16(f->data + f->l3_off + 4);
	struct ring r;

	if (!headers_match(s, f) || seq_of(f) != s->next_seq || pay > s->mss ||
	    s->len + pay > 0xffff)
		return false;
	if (!f->v6) {
		if (s->segs == 1)
			s->id_fixed = id == s->ip_id;
		if (id != (uint16_t)(s->ip_id + (s->id_fixed ? 0 : s->segs)))
			return false;
	}
	ring_read(m, q, &r);
	if (s->ndesc + descs_needed(s->fill, pay, r.bufsz) > max_desc(m, q) ||
	    descs_needed(s->fill, pay, r.bufsz) > ring_avail(&r))
		return false;
	put(m, q, &r, s, f->data + hl, pay);
	s->segs++;
	s->next_seq += pay;
	s->psh |= (f->data[f->l4_off + 13] & TCP_PSH) != 0;
	m->cnt.rsc_merged++;
	if (s->psh || pay < s->mss || s->segs == RSC_COUNT_MAX)
		close_sess(m, q, s);
	return true;
}

/* Open a session in slot s (closing what it held) for segment f. */
static bool
start(struct aqc_model *m, unsigned int q, struct aqm_rsc_sess *s,
      const struct aqm_rsc_frame *f)
{
	uint32_t pay = payload(f), minpay = AQC_FGET(LRO_MIN_PAYLOAD, aqm_rd(m, AQC_R_RPO_LRO_CTL));
	struct ring r;

	if ((f->data[f->l4_off + 13] & TCP_PSH) || pay < RTE_MAX(minpay, 1u))
		return false;
	ring_read(m, q, &r);
	if (r.bufsz == 0 || 1 + descs_needed(0, f->len, r.bufsz) > RTE_MIN(max_desc(m, q), ring_avail(&r)))
		return false;
	close_sess(m, q, s);
	memset(s, 0, sizeof(*s));
	s->open = true;
	s->v6 = f->v6;
	s->l3_off = f->l3_off;
	s->l4_off = f->l4_off;
	s->hdr_len = f->len - pay;
	memcpy(s->hdr, f->data, s->hdr_len);
	s->next_seq = seq_of(f) + pay;
	s->ip_id = f->v6 ? 0 : rd16(f->data + f->l3_off + 4);
	s->segs = 1;
	s->mss = pay;
	s->dw0 = f->dw0;
	s->hash = f->hash;
	s->status = f->status;
	s->vlan = f->vlan;
	s->t_start = aqm_now_ns();
	take_desc(m, q, &r, s);
	put(m, q, &r, s, f->data, f->len);
	return true;
}

bool
aqm_rsc_rx(struct aqc_model *m, unsigned int q, const struct aqm_rsc_frame *f)
{
	struct aqm_rsc_sess *ss = m->rsc.s[q], *s = NULL, *victim = &ss[0];
	bool ok = eligible(f);

	if (!(aqm_rd(m, AQC_R_RPO_LRO_EN) & (1u << q)))
		return false;
	for (unsigned int i = 0; i < AQM_RSC_SESSIONS; i++) {
		if (ss[i].open && f->tcp && f->sane && same_flow(&ss[i], f))
			s = &ss[i];
		if (!ss[i].open || (victim->open && ss[i].t_start < victim->t_start))
			victim = &ss[i];
	}
	if (s != NULL) {
		if (ok && append(m, q, s, f))
			return true;
		close_sess(m, q, s);
		victim = s;
	}
	return ok && start(m, q, victim, f);
}

void
aqm_rsc_poll(struct aqc_model *m)
{
	uint32_t en = aqm_rd(m, AQC_R_RPO_LRO_EN), t = aqm_rd(m, AQC_R_RPO_LRO_TIMERS);
	/* 3.2 ns per time-base count (0x61A counts = 5 us, LNX hw_atl_b0.c) */
	uint64_t tick = (uint64_t)AQC_FGET(LRO_TIME_BASE, t) * 16u / 5u;
	uint64_t limit = tick * AQC_FGET(LRO_MAX_COAL, t), now = 0;

	for (unsigned int q = 0; q < AQM_RINGS; q++)
		for (unsigned int i = 0; i < AQM_RSC_SESSIONS; i++) {
			struct aqm_rsc_sess *s = &m->rsc.s[q][i];

			if (!s->open)
				continue;
			if (!(aqm_rd(m, AQC_RI(RXD_CTL, q)) & AQC_FMASK(RXD_EN))) {
				s->open = false;   /* nowhere to write back */
				continue;
			}
			if (now == 0)
				now = aqm_now_ns();
			if (!(en & (1u << q)) || now - s->t_start >= limit)
				close_sess(m, q, s);
		}
}

void
aqm_rsc_drop(struct aqc_model *m, unsigned int ring)
{
	for (unsigned int q = 0; q < AQM_RINGS; q++)
		if (ring == AQM_RINGS || ring == q)
			for (unsigned int i = 0; i < AQM_RSC_SESSIONS; i++)
				m->rsc.s[q][i].open = false;
}
