/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Maps of loaded XDP objects (contract: tp_prog.h, "XDP objects").
 *
 * Objects are opened before the EAL starts (the apps check --verdict while
 * parsing options), so these maps live in plain process memory, not in
 * rte_malloc/rte_hash, and follow BPF semantics rather than the redirect map's (tp_pipeline.h):
 *   - ARRAY / PERCPU_ARRAY: all keys exist, zeroed; delete is -EINVAL,
 *     BPF_NOEXIST is -EEXIST (kernel/bpf/arraymap.c array_map_update_elem).
 *   - HASH / PERCPU_HASH: preallocated slots, open addressing with linear
 *     probing over 2x max_entries slots; readers take no lock, writers
 *     hold the map's spinlock. Like the kernel's preallocated hash maps
 *     (kernel/bpf/hashtab.c), a deleted element's memory is reused by a
 *     later insert even while a program still holds a pointer to it.
 *   - LRU_HASH / LRU_PERCPU_HASH: the same table; an insert into a full map
 *     evicts an element instead of failing. Like the kernel's LRU
 *     (kernel/bpf/bpf_lru_list.c: a reference bit set on lookup, cleared
 *     as the lists rotate) this is an approximation: a clock over the
 *     slots, whose hand clears reference bits and evicts the first used
 *     slot found unreferenced -- never one looked up since the hand last
 *     passed while another was not.
 *   - LPM_TRIE: key = struct bpf_lpm_trie_key {u32 prefixlen; u8 data[]}
 *     (uapi linux/bpf.h), data in network order; lookup gives the element
 *     with the longest prefix, at most key.prefixlen bits, that matches
 *     (kernel/bpf/lpm_trie.c semantics). Stored as one hash table of keys
 *     masked to their prefix length; a lookup probes, longest first, only
 *     the prefix lengths that have elements (per-length counts), so at
 *     most 33 probes for IPv4 and 129 for IPv6, whatever the map holds.
 *   - PERF_EVENT_ARRAY: no values; one ring of BPF_PERF_RING_SIZE bytes per
 *     lcore index that bpf_perf_event_output fills (bpf_exec.c) and the
 *     control plane drains (tp_prog_bpf_perf_read). max_entries 0 means
 *     one per CPU, as libbpf sizes it at load.
 *   - DEVMAP / DEVMAP_HASH / XSKMAP: redirect targets, value = tagpipe
 *     ifindex (redirect-map key + 1, see tp_prog.h), 0 = empty.
 *   - CPUMAP: key = the CPU (lcore index), value = struct bpf_cpumap_val
 *     {qsize, prog}: qsize 0 is an empty entry and above 16384 is
 *     -EOVERFLOW (kernel/bpf/cpumap.c cpu_map_update_elem); a redirect to
 *     CPU c is redirect-map key TP_BPF_CPUMAP_KEY_BASE + c.
 *   - RINGBUF: no keys or values; one ring shared by all lcores, filled by
 *     the bpf_ringbuf_* helpers, drained by tp_prog_bpf_ringbuf_consume
 *     (bpf_ringbuf.c). Element calls are -EOPNOTSUPP, as the kernel's
 *     ringbuf_map_*_elem refuse them.
 *   - ARRAY_OF_MAPS / HASH_OF_MAPS: values are maps of the object (inner
 *     map index + 1, 0 = empty), each of the inner template's shape
 *     (type, key, value, max_entries: kernel/bpf/map_in_map.c
 *     bpf_map_meta_equal); a program's lookup gives the inner map itself,
 *     usable by the map helpers, never readable.
 *   - PROG_ARRAY: tail-call targets, value = program number + 1 (the
 *     control plane sees the program number, prog_bpf.c), 0 = empty; only
 *     bpf_tail_call may use it (kernel/bpf/verifier.c
 *     check_map_func_compatibility), so programs never see its values.
 * Per-CPU types keep one copy per EAL lcore index, each value rounded up to
 * 8 bytes as the kernel does (round_up(value_size, 8) in arraymap.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_hash_crc.h>

#include "bpf_priv.h"

#define SLOT_EMPTY BPF_SLOT_EMPTY
#define SLOT_USED BPF_SLOT_USED
#define SLOT_DELETED BPF_SLOT_DELETED

bool
tpb_map_is_percpu(uint32_t type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool
is_lru(uint32_t type)
{
	return type == BPF_MAP_TYPE_LRU_HASH || type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

bool
tpb_map_is_opaque(uint32_t type)
{
	return tpb_map_is_redirect(type) || type == BPF_MAP_TYPE_PROG_ARRAY ||
	       type == BPF_MAP_TYPE_PERF_EVENT_ARRAY || type == BPF_MAP_TYPE_RINGBUF ||
	       tpb_map_is_of_maps(type);
}

bool
tpb_map_is_of_maps(uint32_t type)
{
	return type == BPF_MAP_TYPE_ARRAY_OF_MAPS || type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

int
tpb_map_inner_ok(const struct tp_bpf_map *outer, const struct tp_bpf_map *inner,
		 char *err, size_t errlen)
{
	if (inner->type != outer->inner.type || inner->key_size != outer->inner.key_size ||
	    inner->value_size != outer->inner.value_size ||
	    inner->max_entries != outer->inner.max_entries) {
		snprintf(err, errlen, "map '%s' (type %u, key %u, value %u, max_entries "
			 "%u) is not of map '%s''s inner shape (type %u, key %u, value "
			 "%u, max_entries %u)", inner->name, inner->type, inner->key_size,
			 inner->value_size, inner->max_entries, outer->name,
			 outer->inner.type, outer->inner.key_size, outer->inner.value_size,
			 outer->inner.max_entries);
		return -EINVAL;
	}
	return 0;
}

bool
tpb_map_is_redirect(uint32_t type)
{
	return type == BPF_MAP_TYPE_DEVMAP || type == BPF_MAP_TYPE_DEVMAP_HASH ||
	       type == BPF_MAP_TYPE_CPUMAP || type == BPF_MAP_TYPE_XSKMAP;
}

static bool
is_hash(uint32_t type)
{
	return type == BPF_MAP_TYPE_HASH || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_DEVMAP_HASH || is_lru(type) ||
	       type == BPF_MAP_TYPE_LPM_TRIE || type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

static const char *
type_name(uint32_t t)
{
	static const char *const names[] = {
		[BPF_MAP_TYPE_HASH] = "hash", [BPF_MAP_TYPE_ARRAY] = "array",
		[BPF_MAP_TYPE_PROG_ARRAY] = "prog_array",
		[BPF_MAP_TYPE_PERF_EVENT_ARRAY] = "perf_event_array",
		[BPF_MAP_TYPE_PERCPU_HASH] = "percpu_hash",
		[BPF_MAP_TYPE_PERCPU_ARRAY] = "percpu_array",
		[BPF_MAP_TYPE_LRU_HASH] = "lru_hash",
		[BPF_MAP_TYPE_LRU_PERCPU_HASH] = "lru_percpu_hash",
		[BPF_MAP_TYPE_LPM_TRIE] = "lpm_trie",
		[BPF_MAP_TYPE_ARRAY_OF_MAPS] = "array_of_maps",
		[BPF_MAP_TYPE_HASH_OF_MAPS] = "hash_of_maps",
		[BPF_MAP_TYPE_DEVMAP] = "devmap", [BPF_MAP_TYPE_CPUMAP] = "cpumap",
		[BPF_MAP_TYPE_XSKMAP] = "xskmap",
		[BPF_MAP_TYPE_DEVMAP_HASH] = "devmap_hash",
		[BPF_MAP_TYPE_RINGBUF] = "ringbuf",
	};

	return t < sizeof(names) / sizeof(names[0]) && names[t] ? names[t] : "?";
}

/* Maps whose values are u32 numbers (programs, maps, CPU rings). */
static int
u32_values(const struct tp_bpf_map *m, char *err, size_t errlen)
{
	if (m->value_size == 4)
		return 0;
	snprintf(err, errlen, "map '%s': %s value size %u (4)", m->name,
		 type_name(m->type), m->value_size);
	return -EINVAL;
}

int
tpb_map_init(struct tp_bpf_map *m, uint32_t ncpu, char *err, size_t errlen)
{
	uint64_t copies;

	switch (m->type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		break;
	case BPF_MAP_TYPE_LPM_TRIE:
		/* data of 1..256 bytes: LPM_DATA_SIZE_MIN/MAX in lpm_trie.c */
		if (m->key_size < 4 + 1 || m->key_size > 4 + 256) {
			snprintf(err, errlen, "map '%s': lpm_trie key size %u (5..260)",
				 m->name, m->key_size);
			return -EINVAL;
		}
		m->plen_count = calloc((m->key_size - 4) * 8 + 1, sizeof(uint32_t));
		if (m->plen_count == NULL)
			goto nomem;
		break;
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
	case BPF_MAP_TYPE_CPUMAP:
	case BPF_MAP_TYPE_XSKMAP:
		/* DEVMAP may hold struct bpf_devmap_val (8 bytes); only its
		 * ifindex is used, egress programs are refused at update. */
		if (m->value_size != 4 && m->value_size != 8) {
			snprintf(err, errlen, "map '%s': %s value size %u (4 or 8)",
				 m->name, type_name(m->type), m->value_size);
			return -EINVAL;
		}
		break;
	case BPF_MAP_TYPE_RINGBUF:
		rte_spinlock_init(&m->lock);
		return tpb_ringbuf_create(m, err, errlen);
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		/* kernel/bpf/map_in_map.c bpf_map_meta_alloc: no nesting */
		if (m->inner.type == 0 || tpb_map_is_of_maps(m->inner.type) ||
		    m->inner.type == BPF_MAP_TYPE_PROG_ARRAY) {
			snprintf(err, errlen, "map '%s': %s needs an inner map "
				 "definition (BTF __array(values, ...)) of a plain map "
				 "type (inner type %u)", m->name, type_name(m->type),
				 m->inner.type);
			return -EINVAL;
		}
		if (u32_values(m, err, errlen) < 0)
			return -EINVAL;
		break;
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
		if (m->max_entries == 0)
			m->max_entries = ncpu;
		m->nrings = ncpu;
		m->rings = calloc(ncpu, sizeof(*m->rings));
		if (m->rings == NULL)
			goto nomem;
		/* key and value are u32, as for PROG_ARRAY */
		__attribute__((fallthrough));
	case BPF_MAP_TYPE_PROG_ARRAY:
		if (u32_values(m, err, errlen) < 0)
			return -EINVAL;
		break;
	default:
		snprintf(err, errlen, "map '%s': map type %u (%s) is not supported "
			 "(array, percpu_array, hash, percpu_hash, lru_hash, "
			 "lru_percpu_hash, lpm_trie, prog_array, perf_event_array, ringbuf, "
			 "array_of_maps, hash_of_maps, devmap, devmap_hash, cpumap, xskmap)", m->name, m->type, type_name(m->type));
		return -ENOTSUP;
	}
	if (m->max_entries == 0 || m->max_entries > (1u << 24) ||
	    m->value_size == 0 || m->value_size > 65536 ||
	    m->key_size == 0 || m->key_size > 512) {
		snprintf(err, errlen, "map '%s': bad sizes (key %u, value %u, "
			 "max_entries %u)", m->name, m->key_size, m->value_size,
			 m->max_entries);
		return -EINVAL;
	}
	if (!is_hash(m->type) && m->key_size != 4) {
		snprintf(err, errlen, "map '%s': %s key size %u (must be 4)",
			 m->name, type_name(m->type), m->key_size);
		return -EINVAL;
	}
	m->ncpu = tpb_map_is_percpu(m->type) ? ncpu : 1;
	m->stride = tpb_map_is_percpu(m->type) ? (m->value_size + 7u) & ~7u :
		    m->value_size;
	m->slots = m->max_entries;
	if (is_hash(m->type)) {
		m->slots = 8;
		while (m->slots < 2u * m->max_entries)
			m->slots <<= 1;
		m->state = calloc(m->slots, 1);
		m->keys = calloc(m->slots, m->key_size);
		if (m->state == NULL || m->keys == NULL)
			goto nomem;
		if (is_lru(m->type) && (m->ref = calloc(m->slots, 1)) == NULL)
			goto nomem;
	}
	copies = (uint64_t)m->slots * m->ncpu;
	m->values_len = (size_t)(copies * m->stride);
	if (m->values_len > ((size_t)1 << 31)) {
		snprintf(err, errlen, "map '%s': %zu bytes of values is too much",
			 m->name, m->values_len);
		return -E2BIG;
	}
	m->values = aligned_alloc(64, (m->values_len + 63) & ~(size_t)63);
	if (m->values == NULL)
		goto nomem;
	memset(m->values, 0, m->values_len);
	rte_spinlock_init(&m->lock);
	return 0;
nomem:
	snprintf(err, errlen, "map '%s': out of memory", m->name);
	return -ENOMEM;
}

void
tpb_map_fini(struct tp_bpf_map *m)
{
	free(m->values);
	free(m->state);
	free(m->keys);
	free(m->ref);
	free(m->plen_count);
	free(m->rings);
	tpb_ringbuf_destroy(m);
	m->rings = NULL;
	m->ref = NULL;
	m->plen_count = NULL;
	m->values = NULL;
	m->state = NULL;
	m->keys = NULL;
}

/* The slot a key's probe starts from: CRC32-C (the SSE4.2 instruction
 * where the CPU has it, rte_hash_crc.h), as DPDK's rte_hash uses by
 * default; about half of rte_jhash's instructions for keys of 4-16
 * bytes, which is where a program's filter lookups spend them. */
static inline uint32_t
key_hash(const struct tp_bpf_map *m, const void *key)
{
	/* rte_hash_crc()'s value, word by word as it takes them, but read
	 * with memcpy: it loads the key as uint64_t/uint32_t/uint16_t, and a
	 * program's key need not be aligned for that (r10 - 4 for an 8-byte
	 * key, the packet); UBSan stops such a load */
	const uint8_t *k = key;
	uint32_t n = m->key_size, i = 0, h = 0;
	uint64_t w8;
	uint32_t w4;
	uint16_t w2;

	for (; n - i >= 8; i += 8) {
		memcpy(&w8, k + i, 8);
		h = rte_hash_crc_8byte(w8, h);
	}
	if (n & 4) {
		memcpy(&w4, k + i, 4);
		h = rte_hash_crc_4byte(w4, h);
		i += 4;
	}
	if (n & 2) {
		memcpy(&w2, k + i, 2);
		h = rte_hash_crc_2byte(w2, h);
		i += 2;
	}
	if (n & 1)
		h = rte_hash_crc_1byte(k[i], h);
	return h;
}

/* Slot of key, or -1. Lock-free: a slot's key is written before its state
 * becomes USED (release), read after seeing USED (acquire). */
static int64_t
hash_find(const struct tp_bpf_map *m, const void *key, uint32_t h)
{
	uint32_t mask = m->slots - 1;

	for (uint32_t i = 0; i < m->slots; i++) {
		uint32_t s = (h + i) & mask;
		uint8_t st = __atomic_load_n(&m->state[s], __ATOMIC_ACQUIRE);

		if (st == SLOT_EMPTY)
			return -1;
		if (st == SLOT_USED &&
		    memcmp(m->keys + (size_t)s * m->key_size, key, m->key_size) == 0)
			return s;
	}
	return -1;
}

static inline uint8_t *
slot_value(const struct tp_bpf_map *m, uint64_t slot, uint32_t cpu)
{
	return m->values + (slot * m->ncpu + cpu) * m->stride;
}

/* LPM_TRIE: key with data masked to plen bits (and prefixlen = plen). */
static void
lpm_mask(const struct tp_bpf_map *m, const uint8_t *key, uint32_t plen, uint8_t *out)
{
	uint32_t n = m->key_size - 4;

	memcpy(out, &plen, 4);
	for (uint32_t b = 0; b < n; b++) {
		uint32_t bits = plen > b * 8 ? RTE_MIN(plen - b * 8, 8u) : 0;

		out[4 + b] = key[4 + b] & (uint8_t)(0xff00u >> bits);
	}
}

/* Update/delete name a prefix exactly: its masked key in mk, its length
 * in *plen; -1 when prefixlen exceeds the data's bits. */
static int
lpm_exact_key(const struct tp_bpf_map *m, const void *key, uint8_t *mk, uint32_t *plen)
{
	memcpy(plen, key, 4);
	if (*plen > (m->key_size - 4) * 8)
		return -1;
	lpm_mask(m, key, *plen, mk);
	return 0;
}

static int64_t
lpm_find(const struct tp_bpf_map *m, const uint8_t *key)
{
	uint32_t max = (m->key_size - 4) * 8, plen;
	uint8_t mk[4 + 256];

	memcpy(&plen, key, 4);
	for (int64_t l = RTE_MIN(plen, max); l >= 0; l--) {
		int64_t s;

		if (__atomic_load_n(&m->plen_count[l], __ATOMIC_RELAXED) == 0)
			continue;
		lpm_mask(m, key, (uint32_t)l, mk);
		s = hash_find(m, mk, key_hash(m, mk));
		if (s >= 0)
			return s;
	}
	return -1;
}

void *
tpb_map_lookup(struct tp_bpf_map *m, const void *key, uint32_t cpu)
{
	int64_t s;

	if (m->type == BPF_MAP_TYPE_RINGBUF)
		return NULL;
	if (!is_hash(m->type)) {
		uint32_t k;

		memcpy(&k, key, 4);
		if (k >= m->max_entries)
			return NULL;
		if (tpb_map_is_opaque(m->type)) {
			uint32_t v;

			memcpy(&v, slot_value(m, k, 0), 4);
			if (v == 0)
				return NULL;
		}
		return slot_value(m, k, m->ncpu > 1 ? cpu : 0);
	}
	s = m->plen_count ? lpm_find(m, key) :
	    hash_find(m, key, key_hash(m, key));
	return s < 0 ? NULL : slot_value(m, (uint64_t)s, m->ncpu > 1 ? cpu : 0);
}

void
tpb_map_lru_touch(struct tp_bpf_map *m, const void *value)
{
	size_t slot;

	if (m->ref == NULL || value == NULL)
		return;
	slot = (size_t)((const uint8_t *)value - m->values) / ((size_t)m->ncpu * m->stride);
	/* written only when it changes: no cache-line traffic on hot flows */
	if (!__atomic_load_n(&m->ref[slot], __ATOMIC_RELAXED))
		__atomic_store_n(&m->ref[slot], 1, __ATOMIC_RELAXED);
}

/* Full LRU map (lock held): evict per the clock (file header). At most
 * two turns: the first clears every reference bit it passes. */
static void
lru_evict(struct tp_bpf_map *m)
{
	for (uint64_t n = 0; n < 2ull * m->slots; n++) {
		uint32_t s = m->hand;

		m->hand = (m->hand + 1) & (m->slots - 1);
		if (m->state[s] != SLOT_USED)
			continue;
		if (__atomic_load_n(&m->ref[s], __ATOMIC_RELAXED)) {
			__atomic_store_n(&m->ref[s], 0, __ATOMIC_RELAXED);
			continue;
		}
		__atomic_store_n(&m->state[s], SLOT_DELETED, __ATOMIC_RELEASE);
		m->count--;
		return;
	}
}

static void
put_value(struct tp_bpf_map *m, uint64_t slot, const void *value, uint32_t cpu,
	  bool all_cpus)
{
	if (all_cpus) {
		for (uint32_t c = 0; c < m->ncpu; c++)
			memcpy(slot_value(m, slot, c),
			       (const uint8_t *)value + (size_t)c * m->stride,
			       m->value_size);
	} else {
		memcpy(slot_value(m, slot, m->ncpu > 1 ? cpu : 0), value,
		       m->value_size);
	}
}

int
tpb_map_update(struct tp_bpf_map *m, const void *key, const void *value,
	       uint64_t flags, uint32_t cpu, bool all_cpus)
{
	uint32_t h, mask, k, plen = 0;
	int64_t s, free_slot = -1;
	uint8_t mk[4 + 256];

	if (m->type == BPF_MAP_TYPE_RINGBUF)
		return -EOPNOTSUPP;
	if (flags > BPF_EXIST)
		return -EINVAL;
	if (m->plen_count != NULL) {
		if (lpm_exact_key(m, key, mk, &plen) < 0)
			return -EINVAL;
		key = mk;
	}
	if (tpb_map_is_redirect(m->type) && m->value_size == 8) {
		uint32_t prog;

		memcpy(&prog, (const uint8_t *)value + 4, 4);
		if (prog != 0)
			return -EOPNOTSUPP; /* devmap/cpumap egress programs */
	}
	if (!is_hash(m->type)) {
		memcpy(&k, key, 4);
		if (k >= m->max_entries)
			return -E2BIG;
		if (flags == BPF_NOEXIST)
			return -EEXIST;
		if (m->type == BPF_MAP_TYPE_CPUMAP &&
		    *(const uint32_t *)value > BPF_CPUMAP_QSIZE_MAX)
			return -EOVERFLOW;
		rte_spinlock_lock(&m->lock);
		put_value(m, k, value, cpu, all_cpus);
		rte_spinlock_unlock(&m->lock);
		return 0;
	}
	h = key_hash(m, key);
	mask = m->slots - 1;
	rte_spinlock_lock(&m->lock);
	s = hash_find(m, key, h);
	if (s >= 0) {
		if (flags == BPF_NOEXIST) {
			rte_spinlock_unlock(&m->lock);
			return -EEXIST;
		}
		put_value(m, (uint64_t)s, value, cpu, all_cpus);
		rte_spinlock_unlock(&m->lock);
		return 0;
	}
	if (flags != BPF_EXIST && m->count >= m->max_entries && is_lru(m->type))
		lru_evict(m);
	if (flags == BPF_EXIST || m->count >= m->max_entries) {
		rte_spinlock_unlock(&m->lock);
		return flags == BPF_EXIST ? -ENOENT : -E2BIG;
	}
	for (uint32_t i = 0; i < m->slots && free_slot < 0; i++) {
		uint32_t t = (h + i) & mask;

		if (m->state[t] != SLOT_USED)
			free_slot = t;
	}
	/* count < max_entries <= slots / 2: a free slot always exists. */
	memcpy(m->keys + (size_t)free_slot * m->key_size, key, m->key_size);
	if (m->ref != NULL)
		m->ref[free_slot] = 0;
	for (uint32_t c = 0; c < m->ncpu; c++)
		memset(slot_value(m, (uint64_t)free_slot, c), 0, m->stride);
	put_value(m, (uint64_t)free_slot, value, cpu, all_cpus);
	__atomic_store_n(&m->state[free_slot], SLOT_USED, __ATOMIC_RELEASE);
	m->count++;
	if (m->plen_count != NULL)
		__atomic_fetch_add(&m->plen_count[plen], 1, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&m->lock);
	return 0;
}

int
tpb_map_delete(struct tp_bpf_map *m, const void *key)
{
	uint8_t mk[4 + 256];
	uint32_t plen = 0;
	int64_t s;

	if (m->type == BPF_MAP_TYPE_RINGBUF)
		return -EOPNOTSUPP;
	if (m->plen_count != NULL) {
		if (lpm_exact_key(m, key, mk, &plen) < 0)
			return -EINVAL;
		key = mk;
	}
	if (!is_hash(m->type)) {
		uint32_t k;

		if (!tpb_map_is_opaque(m->type))
			return -EINVAL;
		memcpy(&k, key, 4);
		if (k >= m->max_entries)
			return -EINVAL;
		rte_spinlock_lock(&m->lock);
		memset(slot_value(m, k, 0), 0, m->value_size);
		rte_spinlock_unlock(&m->lock);
		return 0;
	}
	rte_spinlock_lock(&m->lock);
	s = hash_find(m, key, key_hash(m, key));
	if (s >= 0) {
		__atomic_store_n(&m->state[s], SLOT_DELETED, __ATOMIC_RELEASE);
		m->count--;
		if (m->plen_count != NULL)
			__atomic_fetch_sub(&m->plen_count[plen], 1, __ATOMIC_RELEASE);
	}
	rte_spinlock_unlock(&m->lock);
	return s >= 0 ? 0 : -ENOENT;
}
