/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc receive path: queue setup/start/stop and rx_pkt_burst.
 *
 * The burst reads write-back descriptors (docs/ref/aqc.md §5.4) in ring order
 * while DD is set (four at a time in SSE where they are whole packets:
 * rx_vec4), turns each into an mbuf (length, packet type, RSS hash, checksum
 * and VLAN flags), chains consecutive descriptors until EOP (docs/ref/aqc.md
 * §5.4 "multi-descriptor packets"), then refills the consumed slots in bulk
 * and writes the tail register once.
 */
#include <errno.h>
#include <string.h>

#include <rte_cpuflags.h>
#include <rte_malloc.h>
#include <rte_prefetch.h>
#include <rte_vect.h>

#include "aqc_ethdev.h"
#include "aqc_log.h"

int
aqc_check_ring_size(const char *what, uint16_t nb_desc)
{
	if (nb_desc < AQC_RING_MIN_DESC || nb_desc > AQC_RING_MAX_DESC ||
	    nb_desc % AQC_RING_ALIGN_DESC != 0) {
		AQC_LOG(ERR, DRIVER, "%s ring size %u: must be a multiple of %u in [%u, %u]",
			what, nb_desc, AQC_RING_ALIGN_DESC, AQC_RING_MIN_DESC,
			AQC_RING_MAX_DESC);
		return -EINVAL;
	}
	return 0;
}

/* ---- descriptor -> mbuf metadata tables, built once ---- */

#if defined(RTE_ARCH_X86) && defined(__SSE4_1__)
/* rx_burst reads four write-backs at once (rx_vec4) */
#define AQC_RX_VEC 1
/* Aligned 16-byte MOVDQA loads are single-copy atomic on processors with
 * AVX (Intel SDM vol. 3A 9.1.1 "Guaranteed Atomic Operations"; AMD's APM
 * vol. 2 "Access Atomicity" says the same): a write-back read that way is
 * either the old one or all of the new one. Set by build_tables(). */
static bool rx_load16_atomic;
#endif

/* Packet type bits 6:0 of dword 0 bits 11:4 (docs/ref/aqc.md §5.4). */
static uint32_t ptype_tbl[128];
/* Checksum flags indexed by the L3 type (dword 0 bits 5:4) in bits 1:0,
 * RX_STAT bits 5:3 (bytes 8-9) in place, and RX_CNTL (dword 0 bits 20:19)
 * in bits 7:6. */
static uint64_t csum_tbl[256];

static void
build_tables(void)
{
#ifdef AQC_RX_VEC
	rx_load16_atomic = rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX) > 0;
#endif
	static const uint32_t l4[8] = {
		RTE_PTYPE_L4_TCP, RTE_PTYPE_L4_UDP, RTE_PTYPE_L4_SCTP,
		RTE_PTYPE_L4_ICMP, 0, 0, 0, 0,
	};

	for (unsigned int t = 0; t < 128; t++) {
		uint32_t p = RTE_PTYPE_L2_ETHER;

		if (t & 0x40)
			p = RTE_PTYPE_L2_ETHER_QINQ;
		else if (t & 0x20)
			p = RTE_PTYPE_L2_ETHER_VLAN;
		switch (t & 3) {
		case 0:
			p |= RTE_PTYPE_L3_IPV4 | l4[(t >> 2) & 7];
			break;
		case 1:
			p |= RTE_PTYPE_L3_IPV6 | l4[(t >> 2) & 7];
			break;
		case 3:
			p = (p & ~RTE_PTYPE_L2_MASK) | RTE_PTYPE_L2_ETHER_ARP;
			break;
		default:
			break;
		}
		ptype_tbl[t] = p;
	}
	for (unsigned int i = 0; i < 256; i++) {
		bool ipv4 = (i & 3) == 0, ip_err = i & 8, l4_err = i & 16;
		bool l4_ok = i & 32, ip_chk = i & 64, l4_chk = i & 128;
		uint64_t f = 0;

		/* docs/ref/aqc.md §5.4 interpretation rules */
		if (ip_chk && ipv4)
			f |= ip_err ? RTE_MBUF_F_RX_IP_CKSUM_BAD : RTE_MBUF_F_RX_IP_CKSUM_GOOD;
		if (l4_chk)
			f |= (!l4_err && l4_ok) ? RTE_MBUF_F_RX_L4_CKSUM_GOOD :
						  RTE_MBUF_F_RX_L4_CKSUM_BAD;
		csum_tbl[i] = f;
	}
}

const uint32_t *
aqc_supported_ptypes(struct rte_eth_dev *dev)
{
	static const uint32_t ptypes[] = {
		RTE_PTYPE_L2_ETHER, RTE_PTYPE_L2_ETHER_ARP, RTE_PTYPE_L2_ETHER_VLAN,
		RTE_PTYPE_L2_ETHER_QINQ, RTE_PTYPE_L3_IPV4, RTE_PTYPE_L3_IPV6,
		RTE_PTYPE_L4_TCP, RTE_PTYPE_L4_UDP, RTE_PTYPE_L4_SCTP,
		RTE_PTYPE_L4_ICMP, RTE_PTYPE_UNKNOWN,
	};

	(void)dev;
	return ptypes;
}

/* The 8 bytes at rearm_data: data_off, refcnt, nb_segs, port. */
static inline uint64_t *
rearm_word(struct rte_mbuf *m)
{
	return RTE_PTR_ADD(m, offsetof(struct rte_mbuf, rearm_data));
}

/* ---- queue management ---- */

/* Posted slots are [next, tail); consumed ones belong to the application
 * or to the packet being chained. */
void
aqc_rx_queue_free_mbufs(struct aqc_rx_queue *rxq)
{
	for (uint16_t i = rxq->next; i != rxq->tail; ) {
		rte_pktmbuf_free_seg(rxq->sw_ring[i]);
		rxq->sw_ring[i] = NULL;
		if (++i == rxq->nb_desc)
			i = 0;
	}
	rxq->next = rxq->tail;
	if (rxq->pkt_first != NULL)
		rte_pktmbuf_free(rxq->pkt_first);
	rxq->pkt_first = rxq->pkt_last = NULL;
	for (uint16_t i = 0; rxq->lro_wait != NULL && i < rxq->nb_desc; i++) {
		if (rxq->lro_wait[i].first != NULL)
			rte_pktmbuf_free(rxq->lro_wait[i].first);
		rxq->lro_wait[i].first = rxq->lro_wait[i].last = NULL;
	}
}

static void
rxq_free(struct aqc_rx_queue *rxq)
{
	if (rxq == NULL)
		return;
	aqc_rx_queue_free_mbufs(rxq);
	rte_memzone_free(rxq->mz);
	rte_free(rxq->lro_wait);
	rte_free(rxq->sw_ring);
	rte_free(rxq);
}

void
aqc_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	rxq_free(dev->data->rx_queues[qid]);
	dev->data->rx_queues[qid] = NULL;
}

int
aqc_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		   unsigned int socket, const struct rte_eth_rxconf *conf,
		   struct rte_mempool *mp)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	uint64_t offloads = conf->offloads | dev->data->dev_conf.rxmode.offloads;
	uint32_t room = rte_pktmbuf_data_room_size(mp);
	struct aqc_rx_queue *rxq;
	struct rte_mbuf mb;
	uint32_t buf;
	int rc;

	rc = aqc_check_ring_size("RX", nb_desc);
	if (rc != 0)
		return rc;
	/* docs/ref/aqc.md §7: buffer size in 1 KiB units, 1..16 KiB */
	buf = room > RTE_PKTMBUF_HEADROOM ? room - RTE_PKTMBUF_HEADROOM : 0;
	buf = RTE_MIN(buf / AQC_RX_BUF_UNIT * AQC_RX_BUF_UNIT, AQC_RX_BUF_MAX);
	if (buf < AQC_RX_BUF_UNIT) {
		AQC_LOG(ERR, DRIVER, "RX queue %u: mbuf data room %u leaves less than %u bytes after headroom",
			qid, room, AQC_RX_BUF_UNIT);
		return -EINVAL;
	}
	if (dev->data->rx_queues[qid] != NULL)
		aqc_rx_queue_release(dev, qid);
	rxq = rte_zmalloc_socket("aqc_rxq", sizeof(*rxq), RTE_CACHE_LINE_SIZE, socket);
	if (rxq == NULL)
		return -ENOMEM;
	rxq->sw_ring = rte_zmalloc_socket("aqc_rxq_sw", sizeof(rxq->sw_ring[0]) * nb_desc,
					  RTE_CACHE_LINE_SIZE, socket);
	/* §7: base alignment undocumented; 128 B as the DPDK driver does */
	rxq->mz = rte_eth_dma_zone_reserve(dev, "aqc_rx_ring", qid,
					   sizeof(union aqc_rx_desc) * AQC_RING_MAX_DESC,
					   128, socket);
	rxq->lro = (offloads & RTE_ETH_RX_OFFLOAD_TCP_LRO) != 0;
	if (rxq->lro)
		rxq->lro_wait = rte_zmalloc_socket("aqc_rxq_lro",
						   sizeof(rxq->lro_wait[0]) * nb_desc,
						   RTE_CACHE_LINE_SIZE, socket);
	if (rxq->sw_ring == NULL || rxq->mz == NULL || (rxq->lro && rxq->lro_wait == NULL)) {
		rxq_free(rxq);
		return -ENOMEM;
	}
	rxq->ring = rxq->mz->addr;
	rxq->mp = mp;
	rxq->nb_desc = nb_desc;
	rxq->buf_len = buf;
	rxq->queue_id = qid;
	rxq->port_id = dev->data->port_id;
	rxq->hw = &ad->hw;
	rxq->tail_reg = aqc_hw_rx_tail(&ad->hw, qid);
	rxq->free_thresh = conf->rx_free_thresh ? conf->rx_free_thresh : AQC_RX_FREE_THRESH;
	rxq->free_thresh = RTE_MIN(rxq->free_thresh, nb_desc / 2);
	rxq->vlan_strip = (offloads & RTE_ETH_RX_OFFLOAD_VLAN_STRIP) != 0;
	rxq->vlan_flags = RTE_MBUF_F_RX_VLAN |
			  (rxq->vlan_strip ? RTE_MBUF_F_RX_VLAN_STRIPPED : 0);
	rxq->deferred = conf->rx_deferred_start;
	rxq->dev_nombuf = &dev->data->rx_mbuf_alloc_failed;
	memset(&mb, 0, sizeof(mb));
	mb.data_off = RTE_PKTMBUF_HEADROOM;
	mb.nb_segs = 1;
	mb.port = rxq->port_id;
	rte_mbuf_refcnt_set(&mb, 1);
	rte_compiler_barrier();
	rxq->mbuf_initializer = *rearm_word(&mb);
	if (ptype_tbl[0] == 0)
		build_tables();
	dev->data->rx_queues[qid] = rxq;
	return 0;
}

/* The read format (§5.4): the buffer's IOVA, header address 0 (which
 * also clears the old write-back's DD). */
static inline void
post(volatile union aqc_rx_desc *d, const struct rte_mbuf *m)
{
#if defined(RTE_ARCH_X86)
	/* one 16-byte store: the IOVA's 8 bytes zero-extended, plus headroom */
	RTE_BUILD_BUG_ON(sizeof(m->buf_iova) != 8);
	_mm_store_si128((__m128i *)(uintptr_t)d,
			_mm_add_epi64(_mm_loadl_epi64((const __m128i *)(const void *)&m->buf_iova),
				      _mm_cvtsi32_si128(RTE_PKTMBUF_HEADROOM)));
#else
	d->qw[0] = rte_mbuf_data_iova_default(m);
	d->qw[1] = 0;
#endif
}

int
aqc_rx_queue_start(struct rte_eth_dev *dev, uint16_t qid)
{
	struct aqc_rx_queue *rxq = dev->data->rx_queues[qid];
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;
	uint16_t n = rxq->nb_desc - 1;
	struct rte_mbuf **tmp = rxq->sw_ring;

	/* §10.1 step 21: fill all descriptors but one (docs/ref/aqc.md §4.3). */
	memset((void *)(uintptr_t)rxq->ring, 0, sizeof(union aqc_rx_desc) * rxq->nb_desc);
	if (rte_mempool_get_bulk(rxq->mp, (void **)tmp, n) != 0) {
		AQC_LOG(ERR, DRIVER, "RX queue %u: cannot allocate %u mbufs", qid, n);
		memset(tmp, 0, sizeof(*tmp) * n);
		return -ENOMEM;
	}
	for (uint16_t i = 0; i < n; i++)
		post(&rxq->ring[i], tmp[i]);
	rxq->next = 0;
	rxq->tail = n;
	rxq->nb_unposted = 1;
	rxq->pkt_first = rxq->pkt_last = NULL;
	aqc_hw_rx_ring_init(hw, qid, rxq->mz->iova, rxq->nb_desc,
			    rxq->buf_len / AQC_RX_BUF_UNIT, rxq->vlan_strip);
	/* an aggregate never exceeds max_lro_pkt_size: at most that many
	 * full buffers per session (2 at the least, docs/ref/aqc.md §6.3) */
	aqc_hw_rx_ring_lro(hw, qid, rxq->lro,
			   dev->data->dev_conf.rxmode.max_lro_pkt_size / rxq->buf_len);
	aqc_hw_rx_ring_enable(hw, qid, true);
	aqc_wr_doorbell(rxq->tail_reg, n);
	rxq->notify_poll = aqc_backend(dev) != NULL && aqc_backend(dev)->rx_polled != NULL;
	rxq->started = true;
	dev->data->rx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

int
aqc_rx_queue_stop(struct rte_eth_dev *dev, uint16_t qid)
{
	struct aqc_rx_queue *rxq = dev->data->rx_queues[qid];
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;
	int rc = 0;

	if (rxq == NULL || !rxq->started)
		return 0;
	aqc_hw_rx_ring_enable(hw, qid, false);
	rc = aqc_hw_dma_fence(hw);
	aqc_rx_queue_free_mbufs(rxq);
	rxq->started = false;
	dev->data->rx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STOPPED;
	return rc;
}

/* ---- the burst ---- */

/* Refill the unposted slots but one, in at most two bulk gets (the ring
 * wraps), then hand them to the chip with one tail write. */
static inline void
refill(struct aqc_rx_queue *rxq)
{
	const unsigned int want = rxq->nb_unposted - 1, tail = rxq->tail;
	const unsigned int first = RTE_MIN(want, (unsigned int)rxq->nb_desc - tail);
	struct rte_mbuf **sw = rxq->sw_ring;
	volatile union aqc_rx_desc *ring = rxq->ring;

	if (rte_mempool_get_bulk(rxq->mp, (void **)&sw[tail], first) != 0)
		goto fail;
	if (first < want &&
	    rte_mempool_get_bulk(rxq->mp, (void **)sw, want - first) != 0) {
		rte_mempool_put_bulk(rxq->mp, (void **)&sw[tail], first);
		goto fail;
	}
	/* unrolled: per descriptor a pointer load, an IOVA load, two stores */
#pragma GCC unroll 4
	for (unsigned int k = tail; k < tail + first; k++)
		post(&ring[k], sw[k]);
#pragma GCC unroll 4
	for (unsigned int k = 0; k < want - first; k++)
		post(&ring[k], sw[k]);
	rxq->tail = first < want ? want - first : tail + first;
	if (rxq->tail == rxq->nb_desc)
		rxq->tail = 0;
	rxq->nb_unposted = 1;
	aqc_wr_doorbell(rxq->tail_reg, rxq->tail);
	return;
fail:
	/* mempool gets are all-or-nothing: the slots stay unposted */
	rxq->nombuf += want;
	*rxq->dev_nombuf += want;
}

/* Metadata of the packet's first (or only) mbuf from its EOP descriptor:
 * q0 = bytes 0-7 (type, RSS hash), q1 = bytes 8-15 (status, length, VLAN).
 * meta = false: packet type only (no offload asked for any flag). */
static __rte_always_inline void
fill_meta(struct rte_mbuf *m, uint64_t q0, uint64_t q1, uint64_t vlan_flags,
	  const bool meta)
{
	uint32_t type = (uint32_t)q0, pt = type >> 4;
	uint64_t f;

	m->packet_type = ptype_tbl[pt & 0x7f];
	if (!meta) {
		m->ol_flags = 0;
		return;
	}
	f = csum_tbl[(pt & 3) | ((uint32_t)q1 & 0x38) | ((type >> 13) & 0xc0)];
	f |= (type & AQC_RXD_RSS_TYPE_MASK) ? RTE_MBUF_F_RX_RSS_HASH : 0;
	f |= (type & (AQC_RXD_PKT_VLAN | AQC_RXD_PKT_QINQ)) ? vlan_flags : 0;
	m->ol_flags = f;
	m->hash.rss = (uint32_t)(q0 >> 32);
	m->vlan_tci = (uint16_t)(q1 >> 48);
}

/* §5.4: MAC error or DMA error = bad packet (dropped and counted). */
#define RX_ERROR(q0, q1) (((q1) & AQC_RXD_STAT_MAC_ERR) | ((q0) & AQC_RXD_DMA_ERR))
/* The common case: done, end of packet, no MAC error. */
#define RX_FAST_MASK (AQC_RXD_DD | AQC_RXD_EOP | AQC_RXD_STAT_MAC_ERR)
#define RX_FAST_WANT (AQC_RXD_DD | AQC_RXD_EOP)
/* bytes 10-11: the packet length. A single-buffer packet of length 0 or
 * longer than its buffer is a broken write-back (no frame is empty; a
 * corrupted write-back looks like that): the slow path drops and counts
 * it. RX_LEN_BAD folds both tests into one unsigned compare. */
#define RX_LEN(q1) (((uint32_t)(q1) >> 16) & 0xffffu)
#define RX_LEN_BAD(q1, buf_len) (RX_LEN(q1) - 1u >= (uint32_t)(buf_len))

/* docs/ref/aqc.md §5.4 bits 15:12 of bytes 8-9, bytes 12-13 */
#define RX_RSC_CNT(q1) (((uint32_t)(q1) & AQC_RXD_RSC_MASK) >> AQC_RXD_RSC_SHIFT)
#define RX_NEXT_DESC(q1) ((uint16_t)((q1) >> 32))
/* docs/ref/aqc.md §6.3: at most 16 descriptors per LRO session */
#define AQC_LRO_DESC_MAX 16u

#ifdef AQC_RX_VEC
static __rte_always_inline __m128i
load_desc(volatile const union aqc_rx_desc *d)
{
	__m128i v;

	/* MOVDQA itself: a load folded into another instruction's operand
	 * is not among those the guarantee names */
	__asm__ volatile("movdqa %1, %0" : "=x"(v) : "m"(*(const __m128i *)(uintptr_t)d));
	return v;
}

/*
 * Four descriptors at once, for a run of whole single-buffer packets:
 * rx_burst's fast loop, with the same tests, takes the four when every one
 * is done, EOP, without MAC or DMA error and of a length its buffer holds,
 * and returns 1; else 0 with nothing touched (the scalar loop then goes on
 * from the first of them). Per packet: the rearm word and ol_flags in one
 * 16-byte store, and packet type, pkt_len, data_len, vlan_tci and the RSS
 * hash (struct rte_mbuf's rx_descriptor_fields1) in another, shuffled from
 * the write-back (docs/ref/aqc.md §5.4: bytes 4-7 hash, 10-11 length, 14-15 VLAN).
 */
static __rte_always_inline int
rx_vec4(volatile union aqc_rx_desc *rd, struct rte_mbuf **slots, struct rte_mbuf **out,
	__m128i rearm, uint64_t vflags, uint16_t buf_len, const bool meta, uint64_t *bytes)
{
	const __m128i fields = _mm_setr_epi8(-1, -1, -1, -1, 10, 11, -1, -1,
					     10, 11, 14, 15, 4, 5, 6, 7);
	const __m128i fmask = _mm_set1_epi32(RX_FAST_MASK), fwant = _mm_set1_epi32(RX_FAST_WANT);
	const __m128i dmaerr = _mm_set1_epi32(AQC_RXD_DMA_ERR);
	const __m128i blen = _mm_set1_epi32(buf_len), zero = _mm_setzero_si128();
	__m128i d[4], st, w0, len, bad;

	/* Without atomic 16-byte loads, DD of all four first, as 8-byte
	 * reads (the scalar loop's order): x86 keeps loads in order, so the
	 * 16-byte reads after it see the rest of each write-back the chip
	 * finished before its DD. With them, the test of DD below is it. */
	if (unlikely(!rx_load16_atomic)) {
		if (!((rd[0].qw[1] & rd[1].qw[1] & rd[2].qw[1] & rd[3].qw[1]) & AQC_RXD_DD))
			return 0;
		rte_io_rmb();
	}
	for (int i = 0; i < 4; i++)
		d[i] = load_desc(&rd[i]);
	/* dword 2 (status, length) and dword 0 (type, DMA error) of each */
	st = _mm_unpacklo_epi64(_mm_unpackhi_epi32(d[0], d[1]), _mm_unpackhi_epi32(d[2], d[3]));
	w0 = _mm_unpacklo_epi64(_mm_unpacklo_epi32(d[0], d[1]), _mm_unpacklo_epi32(d[2], d[3]));
	len = _mm_srli_epi32(st, 16);
	bad = _mm_xor_si128(_mm_cmpeq_epi32(_mm_and_si128(st, fmask), fwant),
			    _mm_set1_epi32(-1));
	bad = _mm_or_si128(bad, _mm_cmpeq_epi32(len, zero));
	bad = _mm_or_si128(bad, _mm_cmpgt_epi32(len, blen));
	bad = _mm_or_si128(bad, _mm_cmpeq_epi32(_mm_and_si128(w0, dmaerr), dmaerr));
	if (!_mm_testz_si128(bad, bad))
		return 0;
	for (int i = 0; i < 4; i++) {
		struct rte_mbuf *m = slots[i];
		uint32_t type = (uint32_t)_mm_cvtsi128_si32(d[i]), pt = type >> 4;
		uint64_t f = 0;
		__m128i x = _mm_shuffle_epi8(d[i], fields);

		if (meta) {
			uint32_t s2 = (uint32_t)_mm_extract_epi32(d[i], 2);

			f = csum_tbl[(pt & 3) | (s2 & 0x38) | ((type >> 13) & 0xc0)];
			f |= (type & AQC_RXD_RSS_TYPE_MASK) ? RTE_MBUF_F_RX_RSS_HASH : 0;
			f |= (type & (AQC_RXD_PKT_VLAN | AQC_RXD_PKT_QINQ)) ? vflags : 0;
		}
		/* rearm_data then ol_flags; the rx fields: packet_type first */
		RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, ol_flags) !=
				 offsetof(struct rte_mbuf, rearm_data) + 8);
		RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, pkt_len) !=
				 offsetof(struct rte_mbuf, rx_descriptor_fields1) + 4 ||
				 offsetof(struct rte_mbuf, data_len) !=
				 offsetof(struct rte_mbuf, rx_descriptor_fields1) + 8 ||
				 offsetof(struct rte_mbuf, vlan_tci) !=
				 offsetof(struct rte_mbuf, rx_descriptor_fields1) + 10 ||
				 offsetof(struct rte_mbuf, hash) !=
				 offsetof(struct rte_mbuf, rx_descriptor_fields1) + 12);
		_mm_storeu_si128((__m128i *)(void *)rearm_word(m),
				 meta ? _mm_insert_epi64(rearm, (long long)f, 1) : rearm);
		x = _mm_insert_epi32(x, (int)ptype_tbl[pt & 0x7f], 0);
		_mm_storeu_si128((__m128i *)(void *)&m->rx_descriptor_fields1, x);
		out[i] = m;
	}
	/* the four lengths summed */
	len = _mm_add_epi32(len, _mm_srli_si128(len, 8));
	len = _mm_add_epi32(len, _mm_srli_si128(len, 4));
	*bytes += (uint32_t)_mm_cvtsi128_si32(len);
	return 1;
}
#endif

/* tso_segsz and l2/l3/l4_len of an LRO aggregate of segs segments. The
 * write-back has no segment size: like Linux's ixgbe_set_rsc_gso_size
 * (drivers/net/ethernet/intel/ixgbe/ixgbe_main.c) it is the TCP payload
 * divided by the segment count, rounded up -- exact when the segments
 * were of one size, as bulk transfers are. Headers are read from the
 * first buffer, which holds them all (the chip rewrote them, §5.4). */
static void
lro_meta(struct rte_mbuf *m, uint32_t segs)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t l2 = RTE_ETHER_HDR_LEN, l3, l4, hdr;
	uint16_t et;

	/* a broken write-back may claim an aggregate of a few bytes: read
	 * nothing past data_len (Ethernet, 2 tags, IPv4 IHL byte) */
	if (m->data_len < RTE_ETHER_HDR_LEN + 8 + 1)
		return;
	et = (uint16_t)(d[12] << 8 | d[13]);
	for (int i = 0; i < 2 && (et == RTE_ETHER_TYPE_VLAN || et == RTE_ETHER_TYPE_QINQ); i++) {
		et = (uint16_t)(d[l2 + 2] << 8 | d[l2 + 3]);
		l2 += 4;
	}
	if (et == RTE_ETHER_TYPE_IPV4)
		l3 = (d[l2] & 0xfu) * 4u;
	else if (et == RTE_ETHER_TYPE_IPV6)
		l3 = 40;
	else
		return;
	/* the first buffer (>= 1 KiB) holds every header the chip merges */
	if (l2 + l3 + 13 > m->data_len)
		return;
	l4 = (uint32_t)(d[l2 + l3 + 12] >> 4) * 4u;
	hdr = l2 + l3 + l4;
	if (hdr > m->data_len || hdr >= m->pkt_len)
		return;
	m->l2_len = l2;
	m->l3_len = l3;
	m->l4_len = l4;
	m->tso_segsz = (uint16_t)((m->pkt_len - hdr + segs - 1) / segs);
	m->ol_flags |= RTE_MBUF_F_RX_LRO;
}

/* The EOP descriptor m of the chain first: the last buffer holds what the
 * total length leaves (§5.4). An error, or lengths that do not add up,
 * drops the chain (never trusted past the buffers). */
static struct rte_mbuf *
chain_end(struct aqc_rx_queue *rxq, struct rte_mbuf *first, struct rte_mbuf *m,
	  uint64_t q0, uint64_t q1, const bool meta)
{
	uint32_t len = RX_LEN(q1);

	if (unlikely(len <= first->pkt_len || len - first->pkt_len > rxq->buf_len ||
		     RX_ERROR(q0, q1))) {
		rxq->errors++;
		rte_pktmbuf_free(first);
		return NULL;
	}
	m->data_len = len - first->pkt_len;
	first->pkt_len = len;
	fill_meta(first, q0, q1, __atomic_load_n(&rxq->vlan_flags, __ATOMIC_RELAXED), meta);
	return first;
}

/* One descriptor of an LRO queue with an RSC count, or one an aggregate
 * waits for (§5.4: the chain follows next descriptor pointers, every
 * buffer but the last full). Aggregates wait in lro_wait under the index
 * of their next descriptor, so other packets in between flow on. */
static struct rte_mbuf *
rx_lro(struct aqc_rx_queue *rxq, unsigned int idx, struct rte_mbuf *m, uint64_t q0,
       uint64_t q1, const bool meta)
{
	struct aqc_lro_wait *w = &rxq->lro_wait[idx];
	struct rte_mbuf *first = w->first;
	uint32_t segs = RX_RSC_CNT(q1);

	if (first != NULL) {
		w->first = NULL;
		if (segs == 0) {
			/* the chain was promised this slot: it is broken */
			rxq->errors++;
			rte_pktmbuf_free(first);
			first = NULL;
		} else {
			w->last->next = m;
			first->nb_segs++;
		}
	}
	if (first == NULL) {
		first = m;
		m->pkt_len = 0;
	}
	if (!(q1 & AQC_RXD_EOP)) {
		unsigned int next = RX_NEXT_DESC(q1), ahead, room;

		m->data_len = rxq->buf_len;
		first->pkt_len += rxq->buf_len;
		/* the next one must be posted, later in the ring, and free */
		ahead = (next + rxq->nb_desc - idx) % rxq->nb_desc;
		room = (rxq->tail + rxq->nb_desc - idx) % rxq->nb_desc;
		if (segs == 0 || next >= rxq->nb_desc || ahead == 0 || ahead >= room ||
		    rxq->lro_wait[next].first != NULL || first->nb_segs >= AQC_LRO_DESC_MAX) {
			rxq->errors++;
			rte_pktmbuf_free(first);
			return NULL;
		}
		rxq->lro_wait[next] = (struct aqc_lro_wait){ .first = first, .last = m };
		return NULL;
	}
	first = chain_end(rxq, first, m, q0, q1, meta);
	if (first != NULL && segs >= 2)
		lro_meta(first, segs);
	return first;
}

/* One descriptor the fast loop did not take: part of a multi-descriptor
 * packet, or an error. Returns the completed packet, or NULL. */
static struct rte_mbuf *
rx_slow(struct aqc_rx_queue *rxq, unsigned int idx, struct rte_mbuf *m, uint64_t q0,
	uint64_t q1, const bool meta, const bool lro)
{
	struct rte_mbuf *first = rxq->pkt_first;

	if (lro && first == NULL &&
	    (RX_RSC_CNT(q1) != 0 || rxq->lro_wait[idx].first != NULL))
		return rx_lro(rxq, idx, m, q0, q1, meta);

	if (first == NULL && (q1 & AQC_RXD_EOP)) {
		/* a single-buffer packet with an error, or longer than its buffer */
		rxq->errors++;
		rte_pktmbuf_free_seg(m);
		return NULL;
	}
	/* §5.4: non-EOP buffers are full; the EOP one holds the rest */
	if (first == NULL) {
		first = m;
		m->pkt_len = 0;
		rxq->pkt_first = m;
	} else {
		rxq->pkt_last->next = m;
		first->nb_segs++;
	}
	rxq->pkt_last = m;
	if (!(q1 & AQC_RXD_EOP)) {
		m->data_len = rxq->buf_len;
		first->pkt_len += rxq->buf_len;
		return NULL;
	}
	rxq->pkt_first = NULL;
	return chain_end(rxq, first, m, q0, q1, meta);
}

/* The first burst since the queue started: tell the backend (net_aqc_sim:
 * the model's pcap wire waits for an application that receives), through
 * the calling process's own view of it. */
static __rte_noinline __rte_cold void
rx_first_poll(struct aqc_rx_queue *rxq)
{
	const struct aqc_backend *be = aqc_backend(&rte_eth_devices[rxq->port_id]);

	rxq->notify_poll = false;
	if (be != NULL && be->rx_polled != NULL)
		be->rx_polled(be->arg);
}

static __rte_always_inline uint16_t
rx_burst(struct aqc_rx_queue *rxq, struct rte_mbuf **pkts, uint16_t n, const bool meta,
	 const bool lro)
{
	/* LRO queues: a descriptor with an RSC count takes the slow path */
	const uint64_t fast_mask = RX_FAST_MASK | (lro ? AQC_RXD_RSC_MASK : 0);
	volatile union aqc_rx_desc *ring = rxq->ring;
	struct rte_mbuf **sw = rxq->sw_ring;
	/* vlan_flags may change under a running port (aqc_ops_ext.c) */
	const uint64_t init = rxq->mbuf_initializer;
	const uint64_t vflags = __atomic_load_n(&rxq->vlan_flags, __ATOMIC_RELAXED);
	const unsigned int nb_desc = rxq->nb_desc;
	/* locals: rte_io_rmb() is a compiler barrier, which would reload
	 * fields of rxq on every descriptor */
	const uint16_t buf_len = rxq->buf_len;
	unsigned int idx = rxq->next, nb_rx = 0, used = 0;
	uint64_t bytes = 0;

	/* Consumed slots keep their stale write-back (DD set) until refilled:
	 * never read past the posted ones (ring invariants, aqc_ethdev.h). */
	unsigned int budget = nb_desc - rxq->nb_unposted;

	if (unlikely(rxq->notify_poll))
		rx_first_poll(rxq);

	while (nb_rx < n) {
		/* fast run: whole single-buffer packets, up to the ring's end */
		unsigned int start = idx;
		unsigned int end = RTE_MIN(RTE_MIN(nb_desc, idx + (n - nb_rx)), idx + budget);
		struct rte_mbuf *m;
		uint64_t q0, q1;
		unsigned int slot;

		if (likely(rxq->pkt_first == NULL)) {
			/* one index j over the run's descriptors, slots and
			 * output entries */
			volatile union aqc_rx_desc *rd = ring + start;
			struct rte_mbuf **slots = sw + start, **out = pkts + nb_rx;
			const unsigned int cnt = end - start;
			unsigned int j = 0;

#ifdef AQC_RX_VEC
			/* LRO queues keep to one descriptor at a time (a
			 * session's slots wait in lro_wait) */
			if (!lro) {
				/* rearm_data, then ol_flags 0 */
				const __m128i rearm = _mm_cvtsi64_si128((long long)init);

				while (j + 4 <= cnt &&
				       rx_vec4(rd + j, slots + j, out + j, rearm, vflags, buf_len,
					       meta, &bytes))
					j += 4;
			}
#endif
			for (; j < cnt; j++) {
				uint32_t len;

				q1 = rd[j].qw[1];
				if ((q1 & fast_mask) != RX_FAST_WANT ||
				    unlikely(RX_LEN_BAD(q1, buf_len)) ||
				    (lro && rxq->lro_wait[start + j].first != NULL))
					break;
				rte_io_rmb();  /* the rest of the descriptor after DD */
				q0 = rd[j].qw[0];
				if (unlikely(q0 & AQC_RXD_DMA_ERR))
					break;
				m = slots[j];
				len = RX_LEN(q1);
				/* pool invariant: next == NULL; rearm: nb_segs 1, refcnt 1 */
				*rearm_word(m) = init;
				m->pkt_len = len;
				m->data_len = len;
				fill_meta(m, q0, q1, vflags, meta);
				bytes += len;
				out[j] = m;
			}
			idx += j;
			nb_rx += j;
			used += j;
			budget -= j;
		}
		if (idx == nb_desc) {
			idx = 0;
			continue;
		}
		if (nb_rx == n)
			break;
		/* slow step: one descriptor, if the chip is done with it */
		if (budget == 0)
			break;
		q1 = ring[idx].qw[1];
		if (!(q1 & AQC_RXD_DD))
			break;
		rte_io_rmb();
		q0 = ring[idx].qw[0];
		if (rxq->pkt_first == NULL && (q1 & fast_mask) == RX_FAST_WANT &&
		    !(q0 & AQC_RXD_DMA_ERR) && !RX_LEN_BAD(q1, buf_len) &&
		    !(lro && rxq->lro_wait[idx].first != NULL))
			continue;   /* completed since the fast run looked: take it there */
		budget--;
		m = sw[idx];
		*rearm_word(m) = init;
		slot = idx;
		idx = idx + 1 == nb_desc ? 0 : idx + 1;
		used++;
		m = rx_slow(rxq, slot, m, q0, q1, meta, lro);
		if (m != NULL) {
			bytes += m->pkt_len;
			pkts[nb_rx++] = m;
		}
	}
	rxq->next = idx;
	rxq->nb_unposted += used;
	rxq->pkts += nb_rx;
	rxq->bytes += bytes;
	if (rxq->nb_unposted > rxq->free_thresh)
		refill(rxq);
	return nb_rx;
}

/* The burst variant, once per configuration (dev_start; a secondary
 * process at attach, from the configuration the primary shares). */
void
aqc_rx_burst_select(struct rte_eth_dev *dev)
{
	uint64_t rxo = dev->data->dev_conf.rxmode.offloads;

	dev->rx_pkt_burst = (rxo & (RTE_ETH_RX_OFFLOAD_CHECKSUM | RTE_ETH_RX_OFFLOAD_VLAN_STRIP |
				    RTE_ETH_RX_OFFLOAD_RSS_HASH)) ?
			    aqc_recv_pkts : aqc_recv_pkts_simple;
	for (uint16_t i = 0; i < dev->data->nb_rx_queues; i++) {
		struct aqc_rx_queue *rxq = dev->data->rx_queues[i];

		if (rxq != NULL && rxq->lro)
			dev->rx_pkt_burst = aqc_recv_pkts_lro;
	}
}

/* With checksum, VLAN or RSS offloads: every flag from the descriptor. */
uint16_t
aqc_recv_pkts(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	return rx_burst(q, pkts, n, true, false);
}

/* LRO on (any queue of the port): chains by next descriptor pointer. */
uint16_t
aqc_recv_pkts_lro(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct aqc_rx_queue *rxq = q;

	if (rxq->lro)
		return rx_burst(q, pkts, n, true, true);
	return rx_burst(q, pkts, n, true, false);
}

/* Without them: length and packet type only. A queue whose VLAN strip was
 * turned on after dev_start chose this burst (aqc_ops_ext.c: the burst
 * pointers stay as they are while the port runs) needs the stripped TCI:
 * one test per burst hands it to the full burst. */
uint16_t
aqc_recv_pkts_simple(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct aqc_rx_queue *rxq = q;

	if (unlikely(__atomic_load_n(&rxq->vlan_strip, __ATOMIC_RELAXED)))
		return aqc_recv_pkts(q, pkts, n);
	return rx_burst(q, pkts, n, false, false);
}
