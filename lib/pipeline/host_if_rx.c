/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * From the host: packets read from an interface leave through the conduit
 * with the interface's switch tag (contract: tp_host_if.h).
 *
 *   readv into a stash of mbufs -> virtio-net header checked
 *   -> GSO TCP: NIC TSO flags, or tp_gro_segment() into frames
 *      other NEEDS_CSUM: checksum completed in software
 *   -> tp_dsa_insert_burst (the interface's port) -> rte_eth_tx_burst
 *
 * Per interface and poll: at most conf.burst reads, one tag insert and
 * one transmit per HIF_OUT_MAX frames. An interface found empty is left
 * alone for a growing number of polls (HIF_IDLE_MAX).
 */
#include <errno.h>
#include <string.h>
#include <sys/uio.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_ip.h>

#include "host_if_priv.h"
#include "tp_gro.h"

#define ETH_P_IPV4 0x0800
#define ETH_P_IPV6 0x86DD

static inline void
drop_pkt(struct hif_queue *hq, struct rte_mbuf *m, enum tp_host_if_drop why)
{
	hif_cnt_add(&hq->st.from_host_drop[why], 1);
	rte_pktmbuf_free(m);
}

/* Keep hp->iov_mbufs mbufs ready for the next read. */
static bool
stash_fill(const struct tp_host_port *hp, struct hif_queue *hq)
{
	uint16_t want = hp->iov_mbufs - hq->nb_stash;

	if (want == 0)
		return true;
	if (rte_pktmbuf_alloc_bulk(hp->pool, hq->stash + hq->nb_stash, want) != 0)
		return false;
	hq->nb_stash = hp->iov_mbufs;
	return true;
}

/*
 * Read one packet. Returns 1 with *out the chain (or NULL when the packet
 * was dropped as short or too big), 0 when there is nothing to read, -1
 * on another error (counted). The mbufs the packet did not fill stay in
 * the stash.
 */
static int
read_one(const struct tp_host_port *hp, struct hif_queue *hq, struct iovec *iov,
	 struct hif_vnet_hdr *vh, struct rte_mbuf **out)
{
	uint16_t ns = hq->nb_stash, k;
	struct rte_mbuf *head, *prev = NULL;
	uint32_t len, left;
	ssize_t r;

	*out = NULL;
	iov[0].iov_base = vh;
	iov[0].iov_len = hp->vnet_sz;
	for (uint16_t j = 0; j < hp->iov_mbufs; j++) {
		struct rte_mbuf *mb = hq->stash[ns - 1 - j];

		iov[1 + j].iov_base = rte_pktmbuf_mtod(mb, void *);
		iov[1 + j].iov_len = hp->room;
	}
	do
		r = readv(hq->fd, iov, 1 + hp->iov_mbufs);
	while (r < 0 && errno == EINTR);
	if (r <= 0) {
		if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			hif_cnt_add(&hq->st.read_errors, 1);
			return -1;
		}
		return 0;
	}
	hif_cnt_add(&hq->st.from_host_pkts, 1);
	if ((size_t)r < (size_t)hp->vnet_sz + RTE_ETHER_HDR_LEN) {
		if ((size_t)r > hp->vnet_sz)
			hif_cnt_add(&hq->st.from_host_bytes, (uint64_t)r - hp->vnet_sz);
		hif_cnt_add(&hq->st.from_host_drop[TP_HOST_IF_DROP_SHORT], 1);
		return 1;
	}
	len = (uint32_t)r - hp->vnet_sz;
	hif_cnt_add(&hq->st.from_host_bytes, len);
	if (len > TP_HOST_IF_MAX_FRAME) {
		hif_cnt_add(&hq->st.from_host_drop[TP_HOST_IF_DROP_TOO_BIG], 1);
		return 1;
	}
	k = (uint16_t)((len + hp->room - 1) / hp->room);
	head = hq->stash[ns - 1];
	left = len;
	for (uint16_t j = 0; j < k; j++) {
		struct rte_mbuf *mb = hq->stash[ns - 1 - j];

		mb->data_len = (uint16_t)RTE_MIN(left, hp->room);
		left -= mb->data_len;
		if (prev != NULL)
			prev->next = mb;
		prev = mb;
	}
	prev->next = NULL;
	head->nb_segs = k;
	head->pkt_len = len;
	head->port = hp->port;
	hq->nb_stash = (uint16_t)(ns - k);
	*out = head;
	return 1;
}

/* Complete a CHECKSUM_PARTIAL packet: the one's complement of the sum from
 * start to the end, the field included (it holds the pseudo-header sum),
 * stored at start + off; 0 goes out as 0xFFFF (skb_checksum_help,
 * net/core/dev.c). The field lies in the first mbuf (checked). */
static void
csum_complete(struct rte_mbuf *m, uint32_t start, uint32_t off)
{
	uint16_t sum = 0, v;

	rte_raw_cksum_mbuf(m, start, m->pkt_len - start, &sum);
	v = (uint16_t)~sum;
	if (v == 0)
		v = 0xFFFF;
	memcpy(rte_pktmbuf_mtod_offset(m, uint8_t *, start + off), &v, 2);
}

/* Pseudo-header sum without the length, folded, not complemented: what
 * a NIC doing TSO expects in the TCP checksum field (lib/gro's merged
 * format, tp_gro.h). IPv6: the header's own addresses and next header 6,
 * also behind extension headers. */
static uint16_t
phdr_sum_nolen(const uint8_t *ip, int v4)
{
	static const uint8_t proto[2] = { 0, 6 };
	uint32_t s = rte_raw_cksum(v4 ? ip + 12 : ip + 8, v4 ? 8 : 32);

	s += rte_raw_cksum(proto, 2);
	s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)((s & 0xFFFF) + (s >> 16));
}

/* Ethernet + up to two VLAN tags: the header length and the EtherType
 * after it, or 0 when the first mbuf ends first. */
static uint32_t
parse_l2(const struct rte_mbuf *m, uint16_t *type)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t l2 = RTE_ETHER_HDR_LEN;
	uint16_t et = (uint16_t)(p[12] << 8 | p[13]);

	for (int tags = 0; tags < 2 && (et == 0x8100 || et == 0x88A8 || et == 0x9100); tags++) {
		if (m->data_len < l2 + 4)
			return 0;
		et = (uint16_t)(p[l2 + 2] << 8 | p[l2 + 3]);
		l2 += 4;
	}
	*type = et;
	return l2;
}

/* The IPv6 header at ip ends, extension headers included, exactly at
 * l3 bytes with next header TCP (RFC 8200 §4: Hop-by-Hop 0, Routing 43,
 * Destination Options 60, each (len + 1) * 8 bytes). */
static bool
ipv6_to_tcp(const uint8_t *ip, uint32_t l3)
{
	uint32_t off = 40;
	uint8_t nh = ip[6];

	while (nh != IPPROTO_TCP) {
		if ((nh != 0 && nh != 43 && nh != 60) || off + 8 > l3)
			return false;
		nh = ip[off];
		off += ((uint32_t)ip[off + 1] + 1) * 8;
	}
	return off == l3;
}

struct hif_out {
	struct hif_scratch *sc;
	uint16_t k;                  /* frames in sc->out */
};

static void flush_out(const struct tp_host_port *hp, struct tp_host_if *hif,
		      struct hif_queue *hq, struct hif_out *o, uint16_t txq);

static inline void
add_frame(struct hif_queue *hq, struct hif_out *o, struct rte_mbuf *m, uint16_t w,
	  uint32_t hdr)
{
	o->sc->out[o->k] = m;
	o->sc->w[o->k] = w;
	o->sc->hdr[o->k] = hdr;
	o->k++;
	hif_cnt_add(&hq->st.from_host_frames, w);
}

/* One packet read from the host, checked and made into frames in o. */
static void
process(const struct tp_host_port *hp, struct tp_host_if *hif, struct hif_queue *hq,
	struct hif_out *o, struct rte_mbuf *m, const struct hif_vnet_hdr *vh,
	uint16_t txq)
{
	uint32_t len = m->pkt_len, cs = vh->csum_start, co = vh->csum_offset;
	uint32_t l2, l3, l4, hdr, pay, nseg;
	uint8_t gso = vh->gso_type;
	uint8_t *ip, *th;
	uint16_t et;
	int v4, r;

	/* Known flags: NEEDS_CSUM, DATA_VALID (2); known types: none, TCPv4,
	 * TCPv6. ECN was not offered (no TUN_F_TSO_ECN): the kernel never
	 * sends it, so a header with it is not the kernel's. */
	if ((vh->flags & ~3u) != 0 ||
	    (gso != HIF_VNET_GSO_NONE && gso != HIF_VNET_GSO_TCPV4 &&
	     gso != HIF_VNET_GSO_TCPV6)) {
		drop_pkt(hq, m, TP_HOST_IF_DROP_VNET_HDR);
		return;
	}
	if (vh->flags & HIF_VNET_F_NEEDS_CSUM) {
		if (cs + co + 2 > len) {
			drop_pkt(hq, m, TP_HOST_IF_DROP_VNET_HDR);
			return;
		}
		if (cs + co + 2 > m->data_len) {
			drop_pkt(hq, m, TP_HOST_IF_DROP_HEADERS);
			return;
		}
	}
	if (gso == HIF_VNET_GSO_NONE)
		goto single;
	/* GSO: the kernel marks every such packet CHECKSUM_PARTIAL at the TCP
	 * checksum (virtio_net_hdr_from_skb); without that, where TCP
	 * starts is unknown. */
	if (!(vh->flags & HIF_VNET_F_NEEDS_CSUM) || vh->gso_size == 0 || co != 16) {
		drop_pkt(hq, m, TP_HOST_IF_DROP_VNET_HDR);
		return;
	}
	v4 = gso == HIF_VNET_GSO_TCPV4;
	l2 = parse_l2(m, &et);
	if (l2 == 0 || cs <= l2 || et != (v4 ? ETH_P_IPV4 : ETH_P_IPV6)) {
		drop_pkt(hq, m, TP_HOST_IF_DROP_HEADERS);
		return;
	}
	l3 = cs - l2;
	ip = rte_pktmbuf_mtod_offset(m, uint8_t *, l2);
	if (v4 ? ((ip[0] >> 4) != 4 || l3 < 20 || (ip[0] & 0xF) * 4u != l3 ||
		  ip[9] != IPPROTO_TCP) :
		 ((ip[0] >> 4) != 6 || l3 < 40 || !ipv6_to_tcp(ip, l3))) {
		drop_pkt(hq, m, TP_HOST_IF_DROP_HEADERS);
		return;
	}
	if (cs + 20 > m->data_len) {
		drop_pkt(hq, m, TP_HOST_IF_DROP_HEADERS);
		return;
	}
	th = ip + l3;
	l4 = (uint32_t)(th[12] >> 4) * 4;
	hdr = cs + l4;
	if (l4 < 20 || hdr > m->data_len || len <= hdr) {
		drop_pkt(hq, m, TP_HOST_IF_DROP_HEADERS);
		return;
	}
	pay = len - hdr;
	nseg = (pay + vh->gso_size - 1) / vh->gso_size;
	if (nseg > TP_HOST_IF_MAX_SEGS) {
		drop_pkt(hq, m, TP_HOST_IF_DROP_TOO_MANY_SEGS);
		return;
	}
	/* Software segmentation copies each segment into one mbuf. */
	if (nseg > 1 && !hp->tso && hdr + vh->gso_size > hp->room) {
		drop_pkt(hq, m, TP_HOST_IF_DROP_TOO_BIG);
		return;
	}
	if (nseg == 1)
		goto single;          /* fits one frame: just the checksum */
	m->l2_len = l2;
	m->l3_len = l3;
	m->l4_len = l4;
	m->tso_segsz = vh->gso_size;
	if (hp->tso) {
		uint16_t ph = phdr_sum_nolen(ip, v4);

		if (v4) {
			m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4 |
				      RTE_MBUF_F_TX_IP_CKSUM;
			ip[10] = 0;
			ip[11] = 0;
		} else {
			m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV6;
		}
		memcpy(th + 16, &ph, 2);
		if (o->k == HIF_OUT_MAX)
			flush_out(hp, hif, hq, o, txq);
		hif_cnt_add(&hq->st.from_host_tso, 1);
		hif_cnt_add(&hq->st.from_host_gso, 1);
		add_frame(hq, o, m, (uint16_t)nseg, hdr);
		return;
	}
	/* Software: lib/gro's inverse, each segment copied into one mbuf. */
	m->ol_flags = RTE_MBUF_F_RX_LRO;
	if (o->k + nseg > HIF_OUT_MAX)
		flush_out(hp, hif, hq, o, txq);
	r = tp_gro_segment(m, o->sc->out + o->k, (uint16_t)(HIF_OUT_MAX - o->k), hp->pool);
	if (r < 0) {
		drop_pkt(hq, m, r == -ENOMEM ? TP_HOST_IF_DROP_NO_MBUF :
			 TP_HOST_IF_DROP_HEADERS);
		return;
	}
	for (int i = 0; i < r; i++) {
		o->sc->w[o->k + i] = 1;
		o->sc->hdr[o->k + i] = 0;
	}
	o->k = (uint16_t)(o->k + r);
	hif_cnt_add(&hq->st.from_host_frames, (uint64_t)r);
	hif_cnt_add(&hq->st.from_host_gso, 1);
	return;
single:
	if (gso != HIF_VNET_GSO_NONE)
		hif_cnt_add(&hq->st.from_host_gso, 1);
	if (vh->flags & HIF_VNET_F_NEEDS_CSUM)
		csum_complete(m, cs, co);
	if (o->k == HIF_OUT_MAX)
		flush_out(hp, hif, hq, o, txq);
	add_frame(hq, o, m, 1, 0);
}

/* Tag o's frames for the interface's port and transmit them. */
static void
flush_out(const struct tp_host_port *hp, struct tp_host_if *hif, struct hif_queue *hq,
	  struct hif_out *o, uint16_t txq)
{
	struct hif_scratch *sc = o->sc;
	uint16_t k = o->k, kept, sent = 0, j = 0;
	uint64_t wsent = 0, bsent = 0, wrest = 0, wdrop = 0;
	unsigned int tries = 0;

	o->k = 0;
	if (k == 0)
		return;
	for (uint16_t i = 0; i < k; i++) {
		sc->orig[i] = sc->out[i];
		sc->len[i] = sc->out[i]->pkt_len;
	}
	kept = tp_dsa_insert_burst_reasons(hp->tagger, sc->out, k, &hif->dsa, sc->drops,
					   sc->why, &sc->dsa_tx);
	/* Match the kept ones to their weights (insert keeps the order);
	 * TSO: the NIC copies l2_len bytes (which the insert grew by the
	 * tag, tp_dsa_tag.h) in front of every segment, tag included. */
	for (uint16_t i = 0; i < k; i++) {
		struct rte_mbuf *m = j < kept ? sc->out[j] : NULL;

		if (sc->orig[i] != m) {
			wdrop += sc->w[i];
			continue;
		}
		sc->w[j] = sc->w[i];
		if (m->ol_flags & RTE_MBUF_F_TX_TCP_SEG) {
			uint32_t add = m->pkt_len - sc->len[i];

			sc->len[j] = m->pkt_len + (uint32_t)(sc->w[i] - 1) * (sc->hdr[i] + add);
		} else {
			sc->len[j] = m->pkt_len;
		}
		j++;
	}
	if (kept < k) {
		rte_pktmbuf_free_bulk(sc->drops, (unsigned int)(k - kept));
		hif_cnt_add(&hq->st.from_host_tag_drop, wdrop);
	}
	while (sent < kept) {
		sent += rte_eth_tx_burst(hp->port, txq, sc->out + sent, kept - sent);
		if (sent == kept || tries++ >= hp->tx_retries)
			break;
	}
	for (uint16_t i = 0; i < kept; i++) {
		if (i < sent) {
			wsent += sc->w[i];
			bsent += sc->len[i];
		} else {
			wrest += sc->w[i];
		}
	}
	hif_cnt_add(&hq->st.from_host_sent, wsent);
	hif_cnt_add(&hq->st.from_host_wire_bytes, bsent);
	if (sent < kept) {
		hif_cnt_add(&hq->st.from_host_tx_full, wrest);
		rte_pktmbuf_free_bulk(sc->out + sent, (unsigned int)(kept - sent));
	}
}

static uint32_t
poll_if(const struct tp_host_port *hp, struct tp_host_if *hif, struct hif_queue *hq,
	struct hif_scratch *sc, uint16_t txq)
{
	struct hif_out o = { .sc = sc, .k = 0 };
	/* The budget is in frames, as an RX burst's is: a 64 KiB GSO packet
	 * is some 45 of them, and a poll that turned 32 of those into 1440
	 * frames would overrun a receiver polled for 32 at a time (the
	 * counter is this queue's own, read plainly). */
	uint64_t frames0 = hq->st.from_host_frames;
	uint32_t got = 0;

	for (uint16_t r = 0; r < hp->burst && hq->st.from_host_frames - frames0 < hp->burst;
	     r++) {
		struct hif_vnet_hdr vh;
		struct rte_mbuf *m;
		int rc;

		if (!stash_fill(hp, hq)) {
			hif_cnt_add(&hq->st.no_mbuf_polls, 1);
			break;
		}
		memset(&vh, 0, sizeof(vh));
		rc = read_one(hp, hq, sc->iov, &vh, &m);
		if (rc <= 0)
			break;
		got++;
		if (m != NULL)
			process(hp, hif, hq, &o, m, &vh, txq);
	}
	flush_out(hp, hif, hq, &o, txq);
	return got;
}

uint32_t
tp_host_port_from_host(struct tp_host_port *hp, uint16_t q, uint16_t tx_queue)
{
	uint32_t got = 0;

	if (q >= hp->nb_queues)
		return 0;
	for (unsigned int i = 0; i < hp->nb_ifs; i++) {
		struct tp_host_if *hif = hp->ifs[i];
		struct hif_queue *hq = &hif->q[q];
		uint32_t n;

		if (hq->idle > 0) {
			hq->idle--;
			continue;
		}
		n = poll_if(hp, hif, hq, hp->scratch[q], tx_queue);
		if (n == 0) {
			hq->backoff = (uint16_t)RTE_MIN(HIF_IDLE_MAX, hq->backoff ? 2 * hq->backoff : 1);
			hq->idle = hq->backoff;
		} else {
			hq->backoff = 0;
		}
		got += n;
	}
	return got;
}
