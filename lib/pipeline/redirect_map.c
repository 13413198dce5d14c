/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The redirect map (contract: tp_pipeline.h, "Redirect map").
 *
 * Redirect entry word (64 bits, stored/loaded atomically):
 *   bits  0..7   kind (enum tp_redirect_kind)
 *   bits  8..15  flags: 0x01 = switch port given
 *   bits 16..31  port id (PORT) or ring slot (RING)
 *   bits 32..47  queue (PORT)
 *   bits 48..55  switch port (PORT, with flag 0x01)
 * 0 is the empty entry.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "map_priv.h"

/* ---- redirect map -------------------------------------------------------- */

struct tp_redirect_map *
tp_redirect_map_create(uint32_t n)
{
	struct tp_redirect_map *m;

	if (n == 0 || n > TP_REDIRECT_MAP_MAX) {
		rte_errno = EINVAL;
		return NULL;
	}
	m = rte_zmalloc("tp_redirect_map", sizeof(*m), 0);
	if (m == NULL)
		goto nomem;
	m->entry = rte_zmalloc("tp_redirect_entries", (size_t)n * sizeof(uint64_t),
			       RTE_CACHE_LINE_SIZE);
	if (m->entry == NULL) {
		rte_free(m);
		goto nomem;
	}
	m->n = n;
	return m;
nomem:
	rte_errno = ENOMEM;
	return NULL;
}

void
tp_redirect_map_free(struct tp_redirect_map *m)
{
	if (m == NULL)
		return;
	rte_free(m->entry);
	rte_free(m);
}

static void
entry_store(struct tp_redirect_map *m, uint32_t key, uint64_t w)
{
	__atomic_store_n(&m->entry[key], w, __ATOMIC_RELEASE);
}

int
tp_redirect_map_set_port(struct tp_redirect_map *m, uint32_t key, uint16_t port,
			 uint16_t queue, int switch_port)
{
	uint64_t w;

	if (key >= m->n)
		return -ENOENT;
	if (switch_port < TP_REDIRECT_SWITCH_PORT_KEEP || switch_port > 255)
		return -EINVAL;
	w = rd_word(TP_REDIRECT_PORT, switch_port >= 0 ? RD_F_SWPORT : 0, port,
		    queue, switch_port >= 0 ? (uint8_t)switch_port : 0);
	entry_store(m, key, w);
	return 0;
}

int
tp_redirect_map_set_ring(struct tp_redirect_map *m, uint32_t key,
			 struct rte_ring *ring)
{
	uint32_t slot;

	if (key >= m->n)
		return -ENOENT;
	/* Several lcores may enqueue on it (see tp_pipeline.h, "Redirect map"): a single-producer
	 * ring would be corrupted by two at once (lib/ring/rte_ring_elem.h,
	 * RTE_RING_SYNC_ST takes no lock). Refused while it is cheap to. */
	if (ring == NULL || ring->prod.sync_type == RTE_RING_SYNC_ST)
		return -EINVAL;
	for (slot = 0; slot < m->nb_rings; slot++)
		if (m->ring[slot] == ring)
			break;
	if (slot == m->nb_rings) {
		if (m->nb_rings == TP_REDIRECT_MAX_RINGS)
			return -ENOSPC;
		/* Publish the pointer before any entry names the slot. */
		__atomic_store_n(&m->ring[slot], ring, __ATOMIC_RELEASE);
		m->nb_rings++;
	}
	entry_store(m, key, rd_word(TP_REDIRECT_RING, 0, (uint16_t)slot, 0, 0));
	return 0;
}

int
tp_redirect_map_clear(struct tp_redirect_map *m, uint32_t key)
{
	if (key >= m->n)
		return -ENOENT;
	entry_store(m, key, 0);
	return 0;
}

int
tp_redirect_map_get(const struct tp_redirect_map *m, uint32_t key,
		    struct tp_redirect_target *t)
{
	uint64_t w;

	if (key >= m->n)
		return -ENOENT;
	w = tp_redirect_map_word(m, key);
	memset(t, 0, sizeof(*t));
	t->kind = rd_kind(w);
	t->switch_port = TP_REDIRECT_SWITCH_PORT_KEEP;
	if (t->kind == TP_REDIRECT_PORT) {
		t->port = rd_port(w);
		t->queue = rd_queue(w);
		if (rd_flags(w) & RD_F_SWPORT)
			t->switch_port = rd_swport(w);
	} else if (t->kind == TP_REDIRECT_RING) {
		t->ring = m->ring[rd_port(w)];
	}
	return 0;
}
