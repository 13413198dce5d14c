/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Maps for verdict programs and the redirect map (contract: tp_map.h).
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
#include <rte_hash.h>
#include <rte_jhash.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "tp_map.h"
#include "map_priv.h"

/* ---- array map ---------------------------------------------------------- */

struct tp_array_map *
tp_array_map_create(uint32_t n, uint32_t value_size)
{
	struct tp_array_map *m;

	if (n == 0 || value_size == 0) {
		rte_errno = EINVAL;
		return NULL;
	}
	m = rte_zmalloc("tp_array_map", sizeof(*m), 0);
	if (m == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	m->values = rte_zmalloc("tp_array_map_values", (size_t)n * value_size,
				RTE_CACHE_LINE_SIZE);
	if (m->values == NULL) {
		rte_free(m);
		rte_errno = ENOMEM;
		return NULL;
	}
	m->n = n;
	m->value_size = value_size;
	return m;
}

void
tp_array_map_free(struct tp_array_map *m)
{
	if (m == NULL)
		return;
	rte_free(m->values);
	rte_free(m);
}

/* Values of 1, 2, 4, 8 bytes are stored with one atomic store (tp_map.h). */
static void
store_value(void *dst, const void *src, uint32_t size)
{
	switch (size) {
	case 1: {
		uint8_t v;
		memcpy(&v, src, 1);
		__atomic_store_n((uint8_t *)dst, v, __ATOMIC_RELEASE);
		break;
	}
	case 2: {
		uint16_t v;
		memcpy(&v, src, 2);
		__atomic_store_n((uint16_t *)dst, v, __ATOMIC_RELEASE);
		break;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, src, 4);
		__atomic_store_n((uint32_t *)dst, v, __ATOMIC_RELEASE);
		break;
	}
	case 8: {
		uint64_t v;
		memcpy(&v, src, 8);
		__atomic_store_n((uint64_t *)dst, v, __ATOMIC_RELEASE);
		break;
	}
	default:
		memcpy(dst, src, size);
	}
}

int
tp_array_map_update(struct tp_array_map *m, uint32_t key, const void *value)
{
	void *p = tp_array_map_lookup(m, key);

	if (p == NULL)
		return -ENOENT;
	store_value(p, value, m->value_size);
	return 0;
}

/* ---- hash map ------------------------------------------------------------ */

struct tp_hash_map {
	struct rte_hash *h;
	uint32_t value_size;
	uint32_t max_entries;
	uint8_t *values;          /* one value per rte_hash key position */
	int32_t *deleted;         /* positions waiting for reclaim */
	uint32_t nb_deleted;
};

struct tp_hash_map *
tp_hash_map_create(const char *name, uint32_t key_size, uint32_t value_size,
		   uint32_t max_entries)
{
	struct rte_hash_parameters p = {
		.name = name,
		.entries = max_entries,
		.key_len = key_size,
		.hash_func = rte_jhash,
		.socket_id = SOCKET_ID_ANY,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF,
	};
	struct tp_hash_map *m;

	if (name == NULL || key_size == 0 || key_size > 64 || value_size == 0 ||
	    max_entries < 8) {
		rte_errno = EINVAL;
		return NULL;
	}
	m = rte_zmalloc("tp_hash_map", sizeof(*m), 0);
	if (m == NULL)
		goto nomem;
	m->h = rte_hash_create(&p);
	if (m->h == NULL) {
		rte_free(m);
		return NULL; /* rte_errno set by rte_hash */
	}
	/* rte_hash may hand out positions up to its real capacity. */
	m->max_entries = rte_hash_max_key_id(m->h) + 1;
	m->value_size = value_size;
	m->values = rte_zmalloc("tp_hash_map_values",
				(size_t)m->max_entries * value_size,
				RTE_CACHE_LINE_SIZE);
	m->deleted = rte_zmalloc("tp_hash_map_del",
				 (size_t)m->max_entries * sizeof(int32_t), 0);
	if (m->values == NULL || m->deleted == NULL) {
		tp_hash_map_free(m);
		goto nomem;
	}
	return m;
nomem:
	rte_errno = ENOMEM;
	return NULL;
}

void
tp_hash_map_free(struct tp_hash_map *m)
{
	if (m == NULL)
		return;
	rte_hash_free(m->h);
	rte_free(m->values);
	rte_free(m->deleted);
	rte_free(m);
}

void *
tp_hash_map_lookup(const struct tp_hash_map *m, const void *key)
{
	int32_t pos = rte_hash_lookup(m->h, key);

	if (pos < 0)
		return NULL;
	return m->values + (size_t)pos * m->value_size;
}

uint32_t
tp_hash_map_lookup_bulk(const struct tp_hash_map *m, const void **keys,
			uint32_t n, void **values)
{
	int32_t pos[RTE_HASH_LOOKUP_BULK_MAX];
	uint32_t hits = 0;

	for (uint32_t done = 0; done < n; done += RTE_HASH_LOOKUP_BULK_MAX) {
		uint32_t k = RTE_MIN(n - done, (uint32_t)RTE_HASH_LOOKUP_BULK_MAX);

		rte_hash_lookup_bulk(m->h, keys + done, k, pos);
		for (uint32_t i = 0; i < k; i++) {
			if (pos[i] < 0) {
				values[done + i] = NULL;
				continue;
			}
			values[done + i] = m->values + (size_t)pos[i] * m->value_size;
			hits++;
		}
	}
	return hits;
}

int
tp_hash_map_update(struct tp_hash_map *m, const void *key, const void *value)
{
	int32_t pos = rte_hash_lookup(m->h, key);

	if (pos >= 0) {
		store_value(m->values + (size_t)pos * m->value_size, value,
			    m->value_size);
		return 0;
	}
	/* A fresh position: write the value before the key becomes visible. */
	pos = rte_hash_add_key(m->h, key);
	if (pos < 0)
		return pos == -ENOSPC ? -ENOSPC : pos;
	store_value(m->values + (size_t)pos * m->value_size, value, m->value_size);
	return 0;
}

int
tp_hash_map_delete(struct tp_hash_map *m, const void *key)
{
	int32_t pos = rte_hash_del_key(m->h, key);

	if (pos < 0)
		return -ENOENT;
	m->deleted[m->nb_deleted++] = pos;
	return 0;
}

void
tp_hash_map_reclaim(struct tp_hash_map *m)
{
	for (uint32_t i = 0; i < m->nb_deleted; i++) {
		memset(m->values + (size_t)m->deleted[i] * m->value_size, 0,
		       m->value_size);
		rte_hash_free_key_with_position(m->h, m->deleted[i]);
	}
	m->nb_deleted = 0;
}

uint32_t
tp_hash_map_count(const struct tp_hash_map *m)
{
	int32_t c = rte_hash_count(m->h);

	return c < 0 ? 0 : (uint32_t)c;
}

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
	/* Several lcores may enqueue on it (see tp_map.h): a single-producer
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
