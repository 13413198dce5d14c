/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC chip model: faults from outside the driver (aqc_model.h): a peer
 * cable that stalls, a global reset nobody in the driver asked for, and
 * the random injector that starts faults of every kind on its own while
 * traffic flows (config fault_every). The DMA engine's own faults are set
 * with aqc_model_set_dma_faults (aqc_model.c).
 */
#include <errno.h>
#include <string.h>

#include "aqc_model_priv.h"

int
aqc_model_set_peer_stall(struct aqc_model *m, bool stall)
{
	if (m->cfg.wire != AQC_WIRE_PEER)
		return -EINVAL;
	/* read by the DMA pass without the lock: a pass sees it or the next */
	atomic_store_explicit(&m->peer_stall, stall, memory_order_relaxed);
	return 0;
}

int
aqc_model_global_reset(struct aqc_model *m)
{
	if (m->a2)
		return -ENOTSUP;
	/* the same request the driver makes (0x0000 bit 15); the control
	 * plane then runs it as for the driver's own (ctl_reset) */
	pthread_mutex_lock(&m->lock);
	aqm_wr(m, AQC_R_GLB_CTL, aqm_rd(m, AQC_R_GLB_CTL) | AQC_FMASK(GLB_SOFT_RESET));
	pthread_mutex_unlock(&m->lock);
	return 0;
}

/* ---- the random fault injector (config fault_every) ----
 *
 * Each frame the wire delivers starts a fault with probability
 * 1/fault_every. The kind, by weight out of 16:
 *   3  rx_dma_err  the next 1-3 frames written hit a PCIe write error
 *   3  rx_bad_len  the next 1-3 write-backs carry a corrupted length
 *   3  rx_late     the next 1-3 write-backs complete late, out of order
 *   3  mac_err     the next 1-3 frames arrive damaged (bad FCS)
 *   2  tx_stall    the TX engine fetches nothing for 1-20 ms
 *   1  link flap   the cable is out for 10-100 ms (the link follows
 *                  through the firmware, as for aqc_model_set_cable)
 *   1  peer stall  wire=peer: the cable stops moving for 1-20 ms;
 *                  other wires: a tx_stall
 * A timed fault that is already running is not started again. What they
 * do and where they are counted: aqc_model.h (struct aqc_model_dma_faults,
 * struct aqc_model_counters). */

/* splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): small, and every seed (0 too) gives a full
 * period. One generator per model, not rte_rand(): model threads are not
 * lcores and would share its one state for unregistered threads, so two
 * ports' draws would interleave and a seed would not repeat a run. */
static uint64_t
rand_next(struct aqm_random_faults *r)
{
	uint64_t z = (r->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A uniform draw in [lo, hi] (the bias of the modulo is immaterial here). */
static uint32_t
rand_in(struct aqm_random_faults *r, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(rand_next(r) % (hi - lo + 1));
}

void
aqm_random_faults_init(struct aqc_model *m)
{
	memset(&m->rf, 0, sizeof(m->rf));
	m->rf.rng = m->cfg.fault_seed;
}

static void
start_tx_stall(struct aqc_model *m, uint64_t now, uint32_t ms)
{
	if (m->rf.tx_stall_until != 0)
		return;
	m->rf.tx_stall_until = now + ms * 1000000ull;
	m->dma_fault.tx_stall = true;
	m->cnt.fault_tx_stalls++;
	m->cnt.random_faults++;
}

static void
start_fault(struct aqc_model *m)
{
	struct aqm_random_faults *r = &m->rf;
	/* every draw made whatever the kind, so that the sequence of kinds
	 * and lengths depends on the seed alone, not on which timed fault
	 * happens to be running */
	uint32_t kind = rand_in(r, 0, 15), n = rand_in(r, 1, 3);
	uint32_t stall_ms = rand_in(r, 1, 20), flap_ms = rand_in(r, 10, 100);
	uint64_t now = aqm_now_ns();

	if (kind < 3) {
		m->dma_fault.rx_dma_err += n;
	} else if (kind < 6) {
		m->dma_fault.rx_bad_len += n;
	} else if (kind < 9) {
		m->dma_fault.rx_late += n;
	} else if (kind < 12) {
		r->mac_err_left += n;
	} else if (kind < 14 || (kind == 15 && m->cfg.wire != AQC_WIRE_PEER)) {
		start_tx_stall(m, now, stall_ms);
		return;
	} else if (kind == 14) {
		if (r->cable_back_at != 0 || !m->cable_up)
			return;
		r->cable_back_at = now + flap_ms * 1000000ull;
		m->cable_up = false;
		m->cnt.fault_link_flaps++;
	} else {
		if (r->peer_stall_until != 0)
			return;
		r->peer_stall_until = now + stall_ms * 1000000ull;
		atomic_store_explicit(&m->peer_stall, true, memory_order_relaxed);
		m->cnt.fault_peer_stalls++;
	}
	m->cnt.random_faults++;
}

bool
aqm_random_fault_on_frame(struct aqc_model *m)
{
	if (m->cfg.fault_every == 0)
		return false;
	if (rand_next(&m->rf) % m->cfg.fault_every == 0)
		start_fault(m);
	if (m->rf.mac_err_left == 0)
		return false;
	m->rf.mac_err_left--;
	m->cnt.fault_mac_err++;
	return true;
}

void
aqm_random_faults_pass(struct aqc_model *m)
{
	struct aqm_random_faults *r = &m->rf;
	uint64_t now;

	if (m->cfg.fault_every == 0 ||
	    (r->tx_stall_until | r->cable_back_at | r->peer_stall_until) == 0)
		return;
	now = aqm_now_ns();
	if (r->tx_stall_until != 0 && now >= r->tx_stall_until) {
		r->tx_stall_until = 0;
		m->dma_fault.tx_stall = false;
	}
	if (r->cable_back_at != 0 && now >= r->cable_back_at) {
		r->cable_back_at = 0;
		m->cable_up = true;
	}
	if (r->peer_stall_until != 0 && now >= r->peer_stall_until) {
		r->peer_stall_until = 0;
		atomic_store_explicit(&m->peer_stall, false, memory_order_relaxed);
	}
}
