/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc transmit path: queue setup/start/stop and tx_pkt_burst.
 *
 * One data descriptor per mbuf segment (docs/ref/aqc.md §5.1); the last one of a packet
 * carries EOP and WB, and the chip sets DD in it when the packet is sent.
 * VLAN insertion and TCP segmentation (LSO) cost one context descriptor in
 * front (docs/ref/aqc.md §5.2).
 * Completed packets are reclaimed in batches once fewer than free_thresh
 * descriptors are free; their mbufs go back to the pool in bulk. The tail
 * register is written once per burst.
 */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_net.h>

#include "aqc_ethdev.h"
#include "aqc_log.h"

#define AQC_TX_CKSUM_FLAGS (RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_L4_MASK)

/* In-flight descriptors are [clean, tail); context slots hold NULL. */
void
aqc_tx_queue_free_mbufs(struct aqc_tx_queue *txq)
{
	for (uint16_t i = txq->clean; i != txq->tail; i = i + 1 == txq->nb_desc ? 0 : i + 1) {
		if (txq->sw_ring[i] != NULL)
			rte_pktmbuf_free_seg(txq->sw_ring[i]);
		txq->sw_ring[i] = NULL;
	}
	txq->clean = txq->tail;
	txq->nb_free = txq->nb_desc - 1;
	txq->nb_ctx = 0;
}

uint32_t
aqc_tx_queue_pending(const struct aqc_tx_queue *txq)
{
	const struct rte_mbuf *prev = NULL;
	uint32_t n = 0;

	/* a frame's segments sit in consecutive slots, linked by next; it is
	 * done once DD is in its EOP descriptor (reclaim below) */
	for (uint16_t i = txq->clean; i != txq->tail; i = i + 1 == txq->nb_desc ? 0 : i + 1) {
		const struct rte_mbuf *m = txq->sw_ring[i];

		if (m != NULL && (prev == NULL || prev->next != m) &&
		    !(txq->ring[txq->last_id[i]].ctl & AQC_TXD_DD))
			n++;
		prev = m;
	}
	return n;
}

static void
txq_free(struct aqc_tx_queue *txq)
{
	if (txq == NULL)
		return;
	aqc_tx_queue_free_mbufs(txq);
	rte_memzone_free(txq->mz);
	rte_free(txq->sw_ring);
	rte_free(txq->last_id);
	rte_free(txq);
}

void
aqc_tx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	txq_free(dev->data->tx_queues[qid]);
	dev->data->tx_queues[qid] = NULL;
}

int
aqc_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		   unsigned int socket, const struct rte_eth_txconf *conf)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	struct aqc_tx_queue *txq;
	int rc;

	rc = aqc_check_ring_size("TX", nb_desc);
	if (rc != 0)
		return rc;
	if (dev->data->tx_queues[qid] != NULL)
		aqc_tx_queue_release(dev, qid);
	txq = rte_zmalloc_socket("aqc_txq", sizeof(*txq), RTE_CACHE_LINE_SIZE, socket);
	if (txq == NULL)
		return -ENOMEM;
	txq->sw_ring = rte_zmalloc_socket("aqc_txq_sw", sizeof(txq->sw_ring[0]) * nb_desc,
					  RTE_CACHE_LINE_SIZE, socket);
	txq->last_id = rte_zmalloc_socket("aqc_txq_eop", sizeof(txq->last_id[0]) * nb_desc,
					  RTE_CACHE_LINE_SIZE, socket);
	txq->mz = rte_eth_dma_zone_reserve(dev, "aqc_tx_ring", qid,
					   sizeof(struct aqc_tx_desc) * AQC_RING_MAX_DESC,
					   128, socket);
	if (txq->sw_ring == NULL || txq->last_id == NULL || txq->mz == NULL) {
		txq_free(txq);
		return -ENOMEM;
	}
	txq->ring = txq->mz->addr;
	txq->nb_desc = nb_desc;
	txq->queue_id = qid;
	txq->port_id = dev->data->port_id;
	txq->hw = &ad->hw;
	txq->tail_reg = aqc_hw_tx_tail(&ad->hw, qid);
	txq->free_thresh = conf->tx_free_thresh ? conf->tx_free_thresh : AQC_TX_FREE_THRESH;
	txq->free_thresh = RTE_MIN(txq->free_thresh, nb_desc / 2);
	txq->deferred = conf->tx_deferred_start;
	txq->fast_free = ((conf->offloads | dev->data->dev_conf.txmode.offloads) &
			  RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE) != 0;
	dev->data->tx_queues[qid] = txq;
	return 0;
}

int
aqc_tx_queue_start(struct rte_eth_dev *dev, uint16_t qid)
{
	struct aqc_tx_queue *txq = dev->data->tx_queues[qid];
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;

	memset((void *)(uintptr_t)txq->ring, 0, sizeof(struct aqc_tx_desc) * txq->nb_desc);
	txq->tail = 0;
	txq->clean = 0;
	txq->nb_ctx = 0;
	txq->nb_free = txq->nb_desc - 1;
	/* §10.1 steps 17 and 20 */
	aqc_hw_tx_ring_init(hw, qid, txq->mz->iova, txq->nb_desc);
	aqc_hw_tx_ring_enable(hw, qid, true);
	txq->started = true;
	dev->data->tx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

int
aqc_tx_queue_stop(struct rte_eth_dev *dev, uint16_t qid)
{
	struct aqc_tx_queue *txq = dev->data->tx_queues[qid];
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;
	int rc;

	if (txq == NULL || !txq->started)
		return 0;
	aqc_hw_tx_ring_enable(hw, qid, false);
	rc = aqc_hw_dma_fence(hw);
	aqc_tx_queue_free_mbufs(txq);
	txq->started = false;
	dev->data->tx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STOPPED;
	return rc;
}

/* Put sw[from, to) back: mbufs of one pool go to the pool in bulk. */
static __rte_always_inline void
free_range(struct rte_mbuf **sw, unsigned int from, unsigned int to)
{
	struct rte_mbuf *batch[AQC_TX_FREE_BULK];
	struct rte_mempool *pool = NULL;
	unsigned int nb = 0;

	for (unsigned int i = from; i < to; i++) {
		struct rte_mbuf *m = sw[i];

		if (m == NULL)
			continue;   /* a context descriptor's slot */
		m = rte_pktmbuf_prefree_seg(m);
		if (unlikely(m == NULL))
			continue;
		if (unlikely(m->pool != pool || nb == AQC_TX_FREE_BULK)) {
			if (nb > 0)
				rte_mempool_put_bulk(pool, (void **)batch, nb);
			nb = 0;
			pool = m->pool;
		}
		batch[nb++] = m;
	}
	if (nb > 0)
		rte_mempool_put_bulk(pool, (void **)batch, nb);
}

/* RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE: one pool, refcnt 1, and segments were
 * unlinked when queued (xmit_slow), so they go back as they are. */
static __rte_always_inline void
free_range_fast(struct rte_mbuf **sw, unsigned int from, unsigned int to)
{
	struct rte_mbuf *batch[AQC_TX_FREE_BULK];
	unsigned int nb = 0;

	for (unsigned int i = from; i < to; i++) {
		struct rte_mbuf *m = sw[i];

		batch[nb] = m;
		nb += m != NULL;   /* context slots hold NULL */
		if (unlikely(nb == AQC_TX_FREE_BULK)) {
			rte_mempool_put_bulk(batch[0]->pool, (void **)batch, nb);
			nb = 0;
		}
	}
	if (nb > 0)
		rte_mempool_put_bulk(batch[0]->pool, (void **)batch, nb);
}

static void
free_done(struct aqc_tx_queue *txq, unsigned int from, unsigned int to)
{
	if (!txq->fast_free) {
		free_range(txq->sw_ring, from, to);
	} else if (txq->nb_ctx == 0) {
		/* no context slot in flight: the ring slice is the object table */
		if (to > from)
			rte_mempool_put_bulk(txq->sw_ring[from]->pool,
					     (void **)&txq->sw_ring[from], to - from);
	} else {
		for (unsigned int i = from; i < to; i++)
			txq->nb_ctx -= txq->sw_ring[i] == NULL;
		free_range_fast(txq->sw_ring, from, to);
	}
}

/* Completed packets (§5.1: DD in each packet's EOP descriptor, written in
 * ring order). last_id[i] is the EOP of the packet holding slot i, so one
 * probe 32 slots ahead usually settles a whole batch; otherwise packet by
 * packet. Then the mbufs go back. */
static void
reclaim(struct aqc_tx_queue *txq)
{
	volatile struct aqc_tx_desc *ring = txq->ring;
	const uint16_t *last_id = txq->last_id;
	const unsigned int nb_desc = txq->nb_desc, tail = txq->tail, from = txq->clean;
	unsigned int clean = from;

	while (clean != tail) {
		unsigned int inflight = tail >= clean ? tail - clean : tail + nb_desc - clean;
		unsigned int probe = clean + RTE_MIN(inflight, (unsigned int)AQC_TX_FREE_BULK) - 1;
		unsigned int eop;

		if (probe >= nb_desc)
			probe -= nb_desc;
		eop = last_id[probe];
		if (!(ring[eop].ctl & AQC_TXD_DD)) {
			eop = last_id[clean];
			if (!(ring[eop].ctl & AQC_TXD_DD))
				break;
		}
		clean = eop + 1 == nb_desc ? 0 : eop + 1;
	}
	if (clean == from)
		return;
	if (clean > from) {
		free_done(txq, from, clean);
		txq->nb_free += clean - from;
	} else {
		free_done(txq, from, nb_desc);
		free_done(txq, 0, clean);
		txq->nb_free += nb_desc - from + clean;
	}
	txq->clean = clean;
}

/* §5.1 CMD bits for the offloads a packet asks for; LSO also asks for
 * the L4 checksum (docs/ref/aqc.md §5.2). */
static inline uint32_t
tx_cmd(uint64_t ol)
{
	uint32_t cmd = 0;

	if (ol & RTE_MBUF_F_TX_IP_CKSUM)
		cmd |= AQC_TXD_CMD_IPCSO;
	if (ol & (RTE_MBUF_F_TX_L4_MASK | RTE_MBUF_F_TX_TCP_SEG))
		cmd |= AQC_TXD_CMD_TUCSO;
	if (ol & RTE_MBUF_F_TX_TCP_SEG)
		cmd |= AQC_TXD_CMD_LSO;
	return cmd;
}

/* docs/ref/aqc.md §5.2 context descriptor: VLAN tag and/or LSO lengths and MSS. */
static inline void
tx_context(volatile struct aqc_tx_desc *d, const struct rte_mbuf *m, uint64_t ol)
{
	uint32_t ctl = AQC_TXD_TYPE_CTX, ctl2 = 0;

	if (ol & RTE_MBUF_F_TX_VLAN)
		ctl |= (uint32_t)m->vlan_tci << AQC_TXC_VLAN_SHIFT;
	if (ol & RTE_MBUF_F_TX_TCP_SEG) {
		ctl |= AQC_TXC_CMD_TCP | ((ol & RTE_MBUF_F_TX_IPV6) ? AQC_TXC_CMD_IPV6 : 0);
		ctl |= (uint32_t)m->l2_len << AQC_TXC_L2LEN_SHIFT;
		ctl |= ((uint32_t)m->l3_len & 1u) << 31;
		ctl2 = ((uint32_t)m->l3_len >> 1) << AQC_TXC_L3LEN_HI_SHIFT |
		       (uint32_t)m->l4_len << AQC_TXC_L4LEN_SHIFT |
		       (uint32_t)m->tso_segsz << AQC_TXC_MSS_SHIFT;
	}
	d->addr = 0;
	d->ctl = ctl;
	d->ctl2 = ctl2;
}

/* A packet with several segments or offloads: a context descriptor for VLAN
 * insertion or LSO, then one data descriptor per segment. Returns the new
 * tail; the caller has checked that the descriptors are free. */
static uint16_t
xmit_slow(struct aqc_tx_queue *txq, struct rte_mbuf *m, uint16_t tail)
{
	volatile struct aqc_tx_desc *ring = txq->ring;
	const uint64_t ol = m->ol_flags;
	uint32_t cmd = AQC_TXD_TYPE_DATA | tx_cmd(ol);
	uint32_t pay = m->pkt_len;
	uint32_t ctl2 = 0;
	uint16_t first = tail, last;

	if (ol & (RTE_MBUF_F_TX_VLAN | RTE_MBUF_F_TX_TCP_SEG)) {
		tx_context(&ring[tail], m, ol);
		txq->sw_ring[tail] = NULL;
		txq->nb_ctx += txq->fast_free;
		tail = tail + 1 == txq->nb_desc ? 0 : tail + 1;
		cmd |= (ol & RTE_MBUF_F_TX_VLAN) ? AQC_TXD_CMD_VLAN : 0;
		ctl2 |= AQC_TXD_CT_EN;
		/* §5.1: with LSO, PAY_LEN is the payload only (LNX, FBSD) */
		if (ol & RTE_MBUF_F_TX_TCP_SEG)
			pay -= m->l2_len + m->l3_len + m->l4_len;
	}
	ctl2 |= pay << AQC_TXD_PAYLEN_SHIFT;
	do {
		struct rte_mbuf *next = m->next;

		last = tail;
		ring[tail].addr = rte_mbuf_data_iova(m);
		ring[tail].ctl = cmd | ((uint32_t)m->data_len << AQC_TXD_BLEN_SHIFT);
		ring[tail].ctl2 = ctl2;
		txq->sw_ring[tail] = m;
		if (txq->fast_free) {
			/* the chip reads descriptors, not the chain: restore the
			 * pool invariant now so reclaim can put segments as-is */
			m->next = NULL;
			m->nb_segs = 1;
		}
		tail = tail + 1 == txq->nb_desc ? 0 : tail + 1;
		m = next;
	} while (m != NULL);
	ring[last].ctl |= AQC_TXD_EOP | AQC_TXD_CMD_WB;
	for (uint16_t i = first;; i = i + 1 == txq->nb_desc ? 0 : i + 1) {
		txq->last_id[i] = last;
		if (i == last)
			break;
	}
	return tail;
}

/* tx_pkt_prepare: what the descriptors cannot express is refused (rte_errno
 * EINVAL), and the L4 checksum field gets the pseudo-header sum the chip
 * completes (docs/ref/aqc.md §5.1 usage facts; without the length under LSO). */
uint16_t
aqc_prep_pkts(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	(void)q;
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint64_t ol = m->ol_flags;
		int rc;

		if (m->nb_segs > AQC_TX_MAX_SEGS && !(ol & RTE_MBUF_F_TX_TCP_SEG)) {
			rte_errno = EINVAL;
			return i;
		}
		if ((ol & RTE_MBUF_F_TX_TCP_SEG) &&
		    (m->tso_segsz == 0 || m->l2_len == 0 || m->l2_len > 127 ||
		     m->l3_len == 0 || m->l3_len > 511 || m->l4_len < 20 ||
		     m->pkt_len - (m->l2_len + m->l3_len + m->l4_len) > AQC_TXD_PAYLEN_MAX)) {
			rte_errno = EINVAL;
			return i;
		}
		rc = rte_net_intel_cksum_prepare(m);
		if (rc != 0) {
			rte_errno = -rc;
			return i;
		}
	}
	return n;
}

#define AQC_TX_SLOW_FLAGS (RTE_MBUF_F_TX_VLAN | RTE_MBUF_F_TX_TCP_SEG | AQC_TX_CKSUM_FLAGS)

static __rte_always_inline bool
tx_fast(const struct rte_mbuf *m)
{
	return m->nb_segs == 1 && !(m->ol_flags & AQC_TX_SLOW_FLAGS);
}

uint16_t
aqc_xmit_pkts(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct aqc_tx_queue *txq = q;
	volatile struct aqc_tx_desc *ring = txq->ring;
	struct rte_mbuf **sw = txq->sw_ring;
	uint16_t *last_id = txq->last_id;
	const unsigned int nb_desc = txq->nb_desc;
	unsigned int tail = txq->tail, sent = 0, dropped = 0;
	uint64_t bytes = 0;

	if (txq->nb_free < txq->free_thresh)
		reclaim(txq);
	while (sent < n) {
		struct rte_mbuf *m = pkts[sent];
		unsigned int need;

		if (likely(tx_fast(m))) {
			/* fast run: single-segment packets without offloads, one
			 * data descriptor each with EOP and WB (§5.1), up to
			 * the ring's end or the free descriptors */
			unsigned int lim = RTE_MIN(RTE_MIN(n - sent, nb_desc - tail),
						   (unsigned int)txq->nb_free);
			volatile uint64_t *d = (volatile uint64_t *)&ring[tail];
			struct rte_mbuf **s = &sw[tail];
			uint16_t *l = &last_id[tail];
			unsigned int k = 0;

			for (; k < lim; k++, d += 2) {
				uint64_t len;

				m = pkts[sent + k];
				if (unlikely(!tx_fast(m)))
					break;
				/* one segment: data_len == pkt_len = BLEN = PAY_LEN */
				len = m->data_len;
				d[0] = rte_mbuf_data_iova(m);
				d[1] = (AQC_TXD_TYPE_DATA | AQC_TXD_EOP | AQC_TXD_CMD_WB) |
				       len << AQC_TXD_BLEN_SHIFT |
				       len << (32 + AQC_TXD_PAYLEN_SHIFT);
				s[k] = m;
				l[k] = (uint16_t)(tail + k);
				bytes += len;
			}
			sent += k;
			tail += k;
			txq->nb_free -= k;
			if (tail == nb_desc)
				tail = 0;
			if (k > 0)
				continue;
			need = 1;   /* no free descriptor at all */
		} else {
			need = m->nb_segs + ((m->ol_flags & (RTE_MBUF_F_TX_VLAN |
							     RTE_MBUF_F_TX_TCP_SEG)) ? 1 : 0);
		}
		if (unlikely(need >= nb_desc)) {
			/* can never fit the ring: dropped and counted, not stuck */
			rte_pktmbuf_free(m);
			txq->errors++;
			dropped++;
			sent++;
			continue;
		}
		if (unlikely(need > txq->nb_free)) {
			txq->tail = tail;
			reclaim(txq);
			if (need > txq->nb_free)
				break;
			if (need == 1 && tx_fast(m))
				continue;
		}
		tail = xmit_slow(txq, m, tail);
		txq->nb_free -= need;
		bytes += m->pkt_len;
		sent++;
	}
	if (likely(sent > 0)) {
		txq->tail = tail;
		txq->pkts += sent - dropped;
		txq->bytes += bytes;
		aqc_wr_doorbell(txq->tail_reg, tail);
	}
	return sent;
}
