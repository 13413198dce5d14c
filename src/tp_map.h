/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_map: maps for verdict programs, and the redirect map.
 *
 * Three kinds, in the manner of BPF maps (include/uapi/linux/bpf.h: BPF_MAP_TYPE_*):
 *   - array map: n fixed-size values indexed 0..n-1 (BPF ARRAY);
 *   - hash map: fixed-size key -> fixed-size value, on rte_hash (BPF HASH);
 *   - redirect map: key 0..n-1 -> a target, either an ethdev (port, queue),
 *     optionally with the switch port whose tag egress inserts (DEVMAP), or
 *     a worker rte_ring (CPUMAP). The pipeline resolves TP_REDIRECT verdicts
 *     through it.
 *
 * Control-plane safety (updates while datapath lcores read):
 *   - redirect map: an entry is one 64-bit word stored and loaded
 *     atomically; a reader sees the old or the new target, never a mix, and
 *     a burst resolves each packet's key once. No lock, no RCU needed. A
 *     ring, once named by an entry, stays referenced by the map until
 *     tp_redirect_map_free(): it must outlive the map (entries may be
 *     re-pointed at any time; the ring slot is not reused).
 *   - array map: tp_array_map_update() stores values of 1, 2, 4 or 8 bytes
 *     atomically; larger values are copied with memcpy and a reader may see
 *     a half-written value (use 8-byte values, or swap an index).
 *   - hash map: rte_hash created with lock-free read/write concurrency
 *     (RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF): lookups never block and see
 *     a key before or after an add; values follow the array-map rule. A
 *     deleted key's slot is NOT reused until tp_hash_map_reclaim() is called,
 *     which the caller may do only when no datapath lcore can still hold a
 *     pointer from an earlier lookup (after every lcore finished its burst).
 *   - creating and freeing maps is control plane only, with no reader left.
 * One writer (control-plane thread) at a time per map.
 *
 * Sharing across datapath lcores (pipelines on several lcores, one map):
 *   - reading a map from several lcores is safe (the rules above);
 *   - a redirect entry names a target, not an owner: every pipeline whose
 *     program picks it sends there. Two lcores must never transmit on one
 *     ethdev (port, queue) at once (rte_eth_tx_burst is not thread-safe
 *     per queue, lib/ethdev/rte_ethdev.h): with a shared map, give each
 *     lcore its own TX queue (its own map entries), or share only ring
 *     targets;
 *   - ring targets must be multi-producer: tp_redirect_map_set_ring()
 *     refuses a ring created with RING_F_SP_ENQ (-EINVAL), even for a map
 *     one lcore uses, since the map cannot know who will share it.
 */
#ifndef TP_MAP_H
#define TP_MAP_H

/* Declared here = exported: the library is built with -fvisibility=hidden
 * and its version.map lists these names (GCC manual, Visibility Pragmas). */
#pragma GCC visibility push(default)

#include <stdint.h>
#include <string.h>

#include <rte_ring.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- array map ---------------------------------------------------------- */

struct tp_array_map {
	uint32_t n;
	uint32_t value_size;
	uint8_t *values;       /* n * value_size, zeroed at create */
};

/* Returns NULL with rte_errno EINVAL (n or value_size 0) or ENOMEM. */
struct tp_array_map *tp_array_map_create(uint32_t n, uint32_t value_size);
void tp_array_map_free(struct tp_array_map *m);

/* Pointer to the value of key, NULL when key >= n. */
static inline void *
tp_array_map_lookup(const struct tp_array_map *m, uint32_t key)
{
	if (key >= m->n)
		return NULL;
	return m->values + (size_t)key * m->value_size;
}

/* 0, or -ENOENT (key >= n). See the top for atomicity. */
int tp_array_map_update(struct tp_array_map *m, uint32_t key, const void *value);

/* ---- hash map ------------------------------------------------------------ */

struct tp_hash_map;

/* key_size 1..64, value_size 1.., max_entries 8.. (rte_hash minimum).
 * Returns NULL with rte_errno EINVAL or ENOMEM. name must be unique. */
struct tp_hash_map *tp_hash_map_create(const char *name, uint32_t key_size,
				       uint32_t value_size,
				       uint32_t max_entries);
void tp_hash_map_free(struct tp_hash_map *m);
/* Value pointer or NULL. Datapath safe. */
void *tp_hash_map_lookup(const struct tp_hash_map *m, const void *key);
/* Burst lookup: values[i] = pointer or NULL; returns the hit count. */
uint32_t tp_hash_map_lookup_bulk(const struct tp_hash_map *m,
				 const void **keys, uint32_t n, void **values);
/* Add or replace. 0, -ENOSPC (full). */
int tp_hash_map_update(struct tp_hash_map *m, const void *key, const void *value);
/* 0 or -ENOENT. The slot waits for tp_hash_map_reclaim(). */
int tp_hash_map_delete(struct tp_hash_map *m, const void *key);
/* Make deleted slots reusable (see the top for when this is allowed). */
void tp_hash_map_reclaim(struct tp_hash_map *m);
uint32_t tp_hash_map_count(const struct tp_hash_map *m);

/* ---- redirect map -------------------------------------------------------- */

enum tp_redirect_kind {
	TP_REDIRECT_NONE = 0,  /* empty entry: TP_REDIRECT drops (redirect_no_target) */
	TP_REDIRECT_PORT = 1,  /* transmit on (port, queue), egress processing */
	TP_REDIRECT_RING = 2,  /* enqueue on a worker ring, mbuf as is */
};

#define TP_REDIRECT_MAX_RINGS 64
/* Largest redirect map (entries): keys are 0..TP_REDIRECT_MAP_MAX - 1. */
#define TP_REDIRECT_MAP_MAX 65536u
#define TP_REDIRECT_SWITCH_PORT_KEEP (-1)

/* A decoded entry. */
struct tp_redirect_target {
	enum tp_redirect_kind kind;
	uint16_t port;         /* PORT: ethdev port id */
	uint16_t queue;        /* PORT: TX queue */
	int16_t switch_port;   /* PORT: tag for this switch port, or -1: the
				* packet's own source switch port */
	struct rte_ring *ring; /* RING */
};

struct tp_redirect_map {
	uint32_t n;
	uint32_t nb_rings;
	uint64_t *entry;       /* packed target words, see map.c */
	struct rte_ring *ring[TP_REDIRECT_MAX_RINGS];
};

/* n entries, all empty. NULL with rte_errno EINVAL (n 0 or >
 * TP_REDIRECT_MAP_MAX) / ENOMEM. */
struct tp_redirect_map *tp_redirect_map_create(uint32_t n);
void tp_redirect_map_free(struct tp_redirect_map *m);

/* Point key at (port, queue), inserting the tag of switch_port (0..255) or
 * the packet's own (-1). 0, -ENOENT (key >= n), -EINVAL (switch_port). */
int tp_redirect_map_set_port(struct tp_redirect_map *m, uint32_t key,
			     uint16_t port, uint16_t queue, int switch_port);
/* Point key at a worker ring (the pipeline enqueues with
 * rte_ring_enqueue_burst; the ring must be multi-producer, see above). 0,
 * -ENOENT, -EINVAL (NULL ring, or a single-producer ring), -ENOSPC (more
 * than TP_REDIRECT_MAX_RINGS rings). */
int tp_redirect_map_set_ring(struct tp_redirect_map *m, uint32_t key,
			     struct rte_ring *ring);
/* Empty the entry. 0 or -ENOENT. */
int tp_redirect_map_clear(struct tp_redirect_map *m, uint32_t key);
/* Decode an entry: 0 (kind may be NONE) or -ENOENT (key >= n). */
int tp_redirect_map_get(const struct tp_redirect_map *m, uint32_t key,
			struct tp_redirect_target *t);

/* Datapath: the packed word of key (0 = empty or key out of range). */
static inline uint64_t
tp_redirect_map_word(const struct tp_redirect_map *m, uint32_t key)
{
	if (key >= m->n)
		return 0;
	return __atomic_load_n(&m->entry[key], __ATOMIC_ACQUIRE);
}

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* TP_MAP_H */
