/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC chip model, wire side: loop, pcap files, a peer model port, or none.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <rte_log.h>

#include "aqc_model_priv.h"
#include "aqc_model_log.h"

/* Peers are linked and unlinked under aqm_registry_lock, which wire_tx
 * also takes: a peer is never freed under a sender. */
int
aqm_wire_open(struct aqc_model *m)
{
	char err[PCAP_ERRBUF_SIZE];

	if (m->cfg.wire == AQC_WIRE_PEER) {
		m->inq = calloc(1, sizeof(*m->inq));
		return m->inq != NULL ? 0 : -ENOMEM;
	}
	if (m->cfg.wire != AQC_WIRE_PCAP)
		return 0;
	if (m->cfg.rx_pcap[0] != '\0') {
		m->rx_pcap = pcap_open_offline(m->cfg.rx_pcap, err);
		m->pcap_pending = malloc(AQM_FRAME_MAX);
		if (m->rx_pcap == NULL || m->pcap_pending == NULL) {
			AQM_LOG(ERR, "%s: rx_pcap %s: %s", m->cfg.name,
				m->cfg.rx_pcap, m->rx_pcap == NULL ? err : "no memory");
			aqm_wire_close(m);
			return -EIO;
		}
	}
	if (m->cfg.tx_pcap[0] != '\0') {
		m->dead = pcap_open_dead(DLT_EN10MB, 65535);
		m->tx_dump = m->dead ? pcap_dump_open(m->dead, m->cfg.tx_pcap) : NULL;
		if (m->tx_dump == NULL) {
			AQM_LOG(ERR, "%s: tx_pcap %s: %s", m->cfg.name,
				m->cfg.tx_pcap, m->dead ? pcap_geterr(m->dead) : "no memory");
			aqm_wire_close(m);
			return -EIO;
		}
	}
	return 0;
}

void
aqm_wire_close(struct aqc_model *m)
{
	if (m->tx_dump != NULL)
		pcap_dump_close(m->tx_dump);
	if (m->dead != NULL)
		pcap_close(m->dead);
	if (m->rx_pcap != NULL)
		pcap_close(m->rx_pcap);
	free(m->pcap_pending);
	free(m->inq);
	m->tx_dump = NULL;
	m->dead = NULL;
	m->rx_pcap = NULL;
	m->pcap_pending = NULL;
	m->inq = NULL;
}

void
aqm_wire_flush(struct aqc_model *m)
{
	if (m->tx_dump != NULL)
		pcap_dump_flush(m->tx_dump);
}

static bool
queue_full(const struct aqm_peer_queue *q)
{
	return atomic_load_explicit(&q->tail, memory_order_relaxed) -
	       atomic_load_explicit(&q->head, memory_order_acquire) >= AQM_PEER_SLOTS;
}

bool
aqm_wire_tx_ready(struct aqc_model *m)
{
	bool ready = true;

	if (m->cfg.wire != AQC_WIRE_PEER)
		return true;
	if (atomic_load_explicit(&m->peer_stall, memory_order_relaxed))
		return false;
	pthread_mutex_lock(&aqm_registry_lock);
	if (m->peer != NULL)
		ready = !queue_full(m->peer->inq);
	pthread_mutex_unlock(&aqm_registry_lock);
	return ready;
}

int
aqm_wire_tx(struct aqc_model *m, const uint8_t *frame, uint32_t len)
{
	int rc = 0;

	switch (m->cfg.wire) {
	case AQC_WIRE_LOOP:
		(void)aqm_rx_frame(m, frame, len, false, aqm_random_fault_on_frame(m));
		break;
	case AQC_WIRE_PCAP:
		if (m->tx_dump != NULL) {
			struct pcap_pkthdr h;

			gettimeofday(&h.ts, NULL);
			h.caplen = h.len = len;
			pcap_dump((u_char *)m->tx_dump, &h, frame);
		}
		break;
	case AQC_WIRE_PEER:
		pthread_mutex_lock(&aqm_registry_lock);
		if (m->peer != NULL) {
			struct aqm_peer_queue *q = m->peer->inq;

			if (queue_full(q)) {
				rc = -EAGAIN;
			} else {
				uint32_t t = atomic_load_explicit(&q->tail, memory_order_relaxed);
				struct aqm_peer_slot *s = &q->slot[t % AQM_PEER_SLOTS];

				memcpy(s->data, frame, len);
				s->len = len;
				atomic_store_explicit(&q->tail, t + 1, memory_order_release);
			}
		}
		pthread_mutex_unlock(&aqm_registry_lock);
		break;
	case AQC_WIRE_NONE:
		break;
	}
	if (rc == 0 && m->tap != NULL)
		m->tap(m->tap_arg, frame, len);
	return rc;
}

/* The receive side of the pcap wire is open: rx_start's condition holds
 * and rx_delay_ms have passed since. A link that goes down closes it (the
 * capture stays where it was); the next link-up waits the delay again. */
static bool
pcap_wire_open(struct aqc_model *m)
{
	uint64_t now;

	if (m->cfg.rx_start == AQC_RX_START_NOW)
		return true;
	if (!aqm_link_up(m)) {
		m->wire_go_at = 0;
		return false;
	}
	if (m->cfg.rx_start == AQC_RX_START_POLL && !atomic_load(&m->app_polled))
		return false;
	now = aqm_now_ns();
	if (m->wire_go_at == 0)
		m->wire_go_at = now + (uint64_t)m->cfg.rx_delay_ms * 1000000ull;
	return now >= m->wire_go_at;
}

/* The end of rx_pcap's current play: start the next one (rx_loops), or
 * close the capture. false when the input is done. */
static bool
pcap_next_play(struct aqc_model *m)
{
	char err[PCAP_ERRBUF_SIZE];

	pcap_close(m->rx_pcap);
	m->rx_pcap = NULL;
	m->pcap_plays++;
	/* a play that took no record would repeat forever doing nothing */
	if (m->pcap_play_frames == 0 ||
	    (m->cfg.rx_loops != 0 && m->pcap_plays >= m->cfg.rx_loops))
		return false;
	m->pcap_play_frames = 0;
	m->rx_pcap = pcap_open_offline(m->cfg.rx_pcap, err);
	if (m->rx_pcap == NULL) {
		AQM_LOG(ERR, "%s: rx_pcap %s, play %u: %s", m->cfg.name,
			m->cfg.rx_pcap, m->pcap_plays + 1, err);
		return false;
	}
	return true;
}

static unsigned int
rx_from_pcap(struct aqc_model *m, unsigned int budget)
{
	unsigned int n = 0;

	if (m->rx_pcap == NULL || !pcap_wire_open(m))
		return 0;

	while (m->rx_pcap != NULL && n < budget) {
		if (m->pcap_pending_len == 0) {
			struct pcap_pkthdr *h;
			const u_char *data;
			int rc = pcap_next_ex(m->rx_pcap, &h, &data);

			if (rc != 1) {
				if (rc != PCAP_ERROR_BREAK) {
					/* a read error: the input is done */
					AQM_LOG(ERR, "%s: rx_pcap read: %s",
						m->cfg.name, pcap_geterr(m->rx_pcap));
					pcap_close(m->rx_pcap);
					m->rx_pcap = NULL;
					break;
				}
				if (!pcap_next_play(m))
					break;   /* end of file and of the last play */
				continue;
			}
			m->pcap_play_frames++;
			if (h->caplen == 0 || h->caplen > AQC_MAX_FRAME) {
				m->cnt.pcap_in++;
				continue;   /* cannot be a frame on this wire */
			}
			memcpy(m->pcap_pending, data, h->caplen);
			m->pcap_pending_len = h->caplen;
			m->pcap_pending_bad = aqm_random_fault_on_frame(m);
		}
		if (aqm_rx_frame(m, m->pcap_pending, m->pcap_pending_len, true,
				 m->pcap_pending_bad) == -EAGAIN)
			break;
		/* counted once it is on the wire: a frame that waits for room
		 * is still the sender's */
		m->cnt.pcap_in++;
		m->pcap_pending_len = 0;
		n++;
	}
	return n;
}

static unsigned int
rx_from_peer(struct aqc_model *m, unsigned int budget)
{
	struct aqm_peer_queue *q = m->inq;
	unsigned int n = 0;
	uint32_t h = atomic_load_explicit(&q->head, memory_order_relaxed);

	if (atomic_load_explicit(&m->peer_stall, memory_order_relaxed))
		return 0;
	while (n < budget && h != atomic_load_explicit(&q->tail, memory_order_acquire)) {
		const struct aqm_peer_slot *s = &q->slot[h % AQM_PEER_SLOTS];

		(void)aqm_rx_frame(m, s->data, s->len, false, aqm_random_fault_on_frame(m));
		h++;
		n++;
		atomic_store_explicit(&q->head, h, memory_order_release);
	}
	return n;
}

unsigned int
aqm_wire_rx(struct aqc_model *m, unsigned int budget)
{
	if (m->cfg.wire == AQC_WIRE_PCAP)
		return rx_from_pcap(m, budget);
	if (m->cfg.wire == AQC_WIRE_PEER)
		return rx_from_peer(m, budget);
	return 0;
}

void
aqm_peer_link(struct aqc_model *m, struct aqc_model *list)
{
	if (m->cfg.wire != AQC_WIRE_PEER)
		return;
	for (struct aqc_model *x = list; x != NULL; x = x->next_model) {
		if (x->cfg.wire != AQC_WIRE_PEER || x->peer != NULL)
			continue;
		if (strcmp(m->cfg.peer, x->cfg.name) == 0 ||
		    strcmp(x->cfg.peer, m->cfg.name) == 0) {
			m->peer = x;
			x->peer = m;
			AQM_LOG(INFO, "%s cabled to %s", m->cfg.name, x->cfg.name);
			return;
		}
	}
}

void
aqm_peer_unlink(struct aqc_model *m)
{
	if (m->peer != NULL)
		m->peer->peer = NULL;
	m->peer = NULL;
}
