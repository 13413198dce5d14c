/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The eBPF interpreter: reference semantics of eBPF v1-v3 (ALU32/JMP32,
 * atomics, BPF-to-BPF calls, tail calls, loops) as documented in the kernel's
 * Documentation/bpf/standardization/instruction-set.rst, with a bounds
 * check on every load, store and helper buffer: an address must lie inside
 * the packet (data_meta..data_end), the stack frames, the context (reads)
 * or one map's value storage; otherwise the run stops, returns
 * XDP_ABORTED and is counted (BPF_CNT_OOB). Division by zero gives 0 and
 * modulo by zero leaves the dividend, as in the kernel.
 *
 * Tail calls (bpf_tail_call, helper 12) follow the kernel's interpreter
 * (kernel/bpf/core.c, JMP_TAIL_CALL): an index at or past max_entries, or
 * a chain that already made BPF_MAX_TAIL_CALLS calls, falls through; the
 * count is taken before the slot is read, so a call to an empty slot
 * counts too; a success runs the target from its first instruction with
 * the same context and the same stack frame, and the target's exit
 * returns to whoever called the frame that tail-called (the caller of a
 * BPF-to-BPF callee, or the pipeline). A fall-through returns -ENOENT.
 * Loops: every taken backward jump spends one unit of rs->loop_left; at
 * zero the run stops, XDP_ABORTED, counted (BPF_CNT_INSN_LIMIT).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_random.h>

#include "bpf_priv.h"
#include "tp_pipeline.h"   /* TP_PIPELINE_MAX_PORTS: the ports a pipeline serves */

static inline bool
in_range(uint64_t addr, uint32_t size, uint64_t base, uint64_t len)
{
	uint64_t a = addr - base;

	return addr >= base && a < len && size <= len - a;
}

/* Packet or stack: the common cases, inlined into every access. */
static inline bool
mem_fast(const struct bpf_run *rs, uint64_t addr, uint32_t size)
{
	return in_range(addr, size, rs->ctx.data_meta,
			rs->ctx.data_end - rs->ctx.data_meta) ||
	       in_range(addr, size, (uintptr_t)rs->stack,
			BPF_MAX_FRAMES * BPF_STACK_SIZE);
}

static __rte_noinline bool
mem_slow(const struct bpf_run *rs, uint64_t addr, uint32_t size, bool write)
{
	const struct tp_bpf *p = rs->prog;

	if (!write && in_range(addr, size, (uintptr_t)&rs->ctx, sizeof(rs->ctx)))
		return true;
	for (uint32_t r = 0; r < p->nb_regions; r++)
		if (in_range(addr, size, p->regions[r].base, p->regions[r].len))
			return true;
	/* RINGBUF records: only those this run holds, as the kernel's
	 * verifier allows (a submitted record's pointer is dead) */
	for (uint32_t k = 0; k < rs->rb_open; k++)
		if (in_range(addr, size, (uintptr_t)rs->rb_rec[k].sample, rs->rb_rec[k].size))
			return true;
	return false;
}

static inline bool
mem_ok(const struct bpf_run *rs, uint64_t addr, uint32_t size, bool write)
{
	return mem_fast(rs, addr, size) || mem_slow(rs, addr, size, write);
}

static uint64_t
fault(struct bpf_run *rs, enum bpf_counter why)
{
	rs->fault = 1;
	rs->why = why;
	return 0;
}

static struct tp_bpf_map *
map_of(struct bpf_run *rs, uint64_t h)
{
	uintptr_t b = (uintptr_t)rs->prog->maps;

	if (h < b || h >= b + rs->prog->nb_maps * sizeof(struct tp_bpf_map) ||
	    (h - b) % sizeof(struct tp_bpf_map) != 0)
		return NULL;
	return (struct tp_bpf_map *)(uintptr_t)h;
}

/* ---- what the JIT's code calls (bpf_jit_x86.c) ------------------------- */

static int
cg_mem_slow(struct bpf_run *rs, uint64_t addr, uint32_t size, int write)
{
	return mem_slow(rs, addr, size, write != 0);
}

static void
cg_oob(struct bpf_run *rs)
{
	fault(rs, BPF_CNT_OOB);
}

static void
cg_loop_limit(struct bpf_run *rs)
{
	fault(rs, BPF_CNT_INSN_LIMIT);
}

static uint64_t call_helper(struct bpf_run *rs, int32_t id, const uint64_t *r);
static uint64_t map_lookup(struct bpf_run *rs, struct tp_bpf_map *m, const void *key);

/* A lookup the kernel's verifier proved: r1 one of the object's maps (the
 * loader put its address there), the key readable (bpf_jit_x86.c). */
static uint64_t
cg_map_lookup(struct bpf_run *rs, uint64_t r1, uint64_t r2)
{
	return map_lookup(rs, (struct tp_bpf_map *)(uintptr_t)r1, (const void *)(uintptr_t)r2);
}

struct tp_bpf_map *
tpb_run_map(struct bpf_run *rs, uint64_t r)
{
	return map_of(rs, r);
}

uint64_t
tpb_run_fault(struct bpf_run *rs, enum bpf_counter why)
{
	return fault(rs, why);
}

bool
tpb_run_mem_ok(const struct bpf_run *rs, uint64_t addr, uint32_t size)
{
	return mem_ok(rs, addr, size, false);
}

bool
tpb_run_mem_writable(const struct bpf_run *rs, uint64_t addr, uint32_t size)
{
	return mem_ok(rs, addr, size, true);
}

const struct bpf_cg_ops tpb_cg_ops = {
	.helper = call_helper,
	.mem_slow = cg_mem_slow,
	.oob = cg_oob,
	.loop_limit = cg_loop_limit,
	.map_lookup = cg_map_lookup,
};

/* ---- helpers (IDs: include/uapi/linux/bpf.h __BPF_FUNC_MAPPER) --------- */

/* bpf_map_lookup_elem on map m with a readable key: the value, the inner
 * map of a map-of-maps, or NULL. Redirect maps: non-NULL when the entry is
 * set (xsk_def_xdp_prog_5.3 tests this before redirecting), but the
 * pointer is in no region, so a program cannot read or write through it. */
static uint64_t
map_lookup(struct bpf_run *rs, struct tp_bpf_map *m, const void *key)
{
	void *v = tpb_map_lookup(m, key, rs->cpu);
	uint32_t in;

	if (tpb_map_is_of_maps(m->type)) {
		/* the inner map itself: a handle for the map helpers */
		if (v == NULL)
			return 0;
		memcpy(&in, v, 4);
		return in == 0 ? 0 : (uintptr_t)&rs->prog->maps[in - 1];
	}
	tpb_map_lru_touch(m, v);
	return (uintptr_t)v;
}

static uint64_t
h_map_lookup(struct bpf_run *rs, uint64_t r1, uint64_t r2)
{
	struct tp_bpf_map *m = map_of(rs, r1);

	if (m == NULL || m->type == BPF_MAP_TYPE_PROG_ARRAY ||
	    m->type == BPF_MAP_TYPE_RINGBUF || !mem_ok(rs, r2, m->key_size, false))
		return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	return map_lookup(rs, m, (const void *)(uintptr_t)r2);
}

static uint64_t
h_map_update(struct bpf_run *rs, uint64_t r1, uint64_t r2, uint64_t r3,
	     uint64_t r4)
{
	struct tp_bpf_map *m = map_of(rs, r1);

	if (m == NULL || !mem_ok(rs, r2, m->key_size, false) ||
	    !mem_ok(rs, r3, m->value_size, false))
		return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	if (m->type == BPF_MAP_TYPE_PROG_ARRAY || m->type == BPF_MAP_TYPE_RINGBUF ||
	    tpb_map_is_of_maps(m->type))
		return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	if (tpb_map_is_redirect(m->type))
		return (uint64_t)-EOPNOTSUPP;
	return (uint64_t)(int64_t)tpb_map_update(m, (const void *)(uintptr_t)r2,
						 (const void *)(uintptr_t)r3, r4,
						 rs->cpu, false);
}

static uint64_t
h_map_delete(struct bpf_run *rs, uint64_t r1, uint64_t r2)
{
	struct tp_bpf_map *m = map_of(rs, r1);

	if (m == NULL || !mem_ok(rs, r2, m->key_size, false))
		return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	if (m->type == BPF_MAP_TYPE_PROG_ARRAY || m->type == BPF_MAP_TYPE_RINGBUF ||
	    tpb_map_is_of_maps(m->type))
		return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	if (tpb_map_is_redirect(m->type))
		return (uint64_t)-EOPNOTSUPP;
	return (uint64_t)(int64_t)tpb_map_delete(m, (const void *)(uintptr_t)r2);
}

static uint64_t
h_ktime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* bpf_redirect: flags must be 0 for XDP (net/core/filter.c
 * bpf_xdp_redirect), ifindex N is tagpipe redirect key N - 1. */
static uint64_t
h_redirect(struct bpf_run *rs, uint64_t ifindex, uint64_t flags)
{
	if (flags != 0)
		return XDP_ABORTED;
	rs->redirect_key = (uint32_t)ifindex - 1;
	return XDP_REDIRECT;
}

/* bpf_redirect_map (net/core/filter.c __bpf_xdp_redirect_map): flags
 * beyond the fallback action (the low 2 bits) and the map type's own give
 * XDP_ABORTED -- BPF_F_BROADCAST and BPF_F_EXCLUDE_INGRESS are DEVMAP and
 * DEVMAP_HASH flags (kernel/bpf/devmap.c), CPUMAP and XSKMAP have none. A
 * miss returns the fallback and forgets an earlier target, as the kernel
 * clears its redirect state.
 *   - BPF_F_BROADCAST: every entry of the map, but the ingress port's with
 *     BPF_F_EXCLUDE_INGRESS; the key is not looked up. The run's key
 *     names the map (TP_REDIRECT_KEY_MULTI); the pipeline expands it
 *     after the run (tp_prog_redirect_targets), as the kernel does in
 *     xdp_do_redirect.
 *   - CPUMAP: the key is the CPU, the entry {qsize, prog} is set when
 *     qsize is not 0; the target is redirect key TP_BPF_CPUMAP_KEY_BASE +
 *     the CPU (an lcore's worker ring or port, as the application points
 *     that entry).
 *   - DEVMAP, DEVMAP_HASH, XSKMAP: the entry's ifindex N, redirect key N - 1. */
static uint64_t
h_redirect_map(struct bpf_run *rs, uint64_t r1, uint64_t key, uint64_t flags)
{
	struct tp_bpf_map *m = map_of(rs, r1);
	uint32_t k = (uint32_t)key, word;
	uint64_t allowed = 3;
	const void *v;

	if (m == NULL || !tpb_map_is_redirect(m->type))
		return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	if (m->type == BPF_MAP_TYPE_DEVMAP || m->type == BPF_MAP_TYPE_DEVMAP_HASH)
		allowed |= BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS;
	if (flags & ~allowed)
		return XDP_ABORTED;
	if (flags & BPF_F_BROADCAST) {
		rs->redirect_key = TP_REDIRECT_KEY_MULTI |
				   ((flags & BPF_F_EXCLUDE_INGRESS) ? BPF_RKEY_EXCLUDE : 0) |
				   (uint32_t)(m - rs->prog->maps);
		return XDP_REDIRECT;
	}
	if (key > UINT32_MAX || (v = tpb_map_lookup(m, &k, 0)) == NULL)
		goto miss;
	memcpy(&word, v, 4);
	if (word == 0)
		goto miss;
	rs->redirect_key = m->type == BPF_MAP_TYPE_CPUMAP ? TP_BPF_CPUMAP_KEY_BASE + k :
			   word - 1;
	return XDP_REDIRECT;
miss:
	rs->redirect_key = UINT32_MAX;
	return flags & 3;
}

/* bpf_csum_diff: one's-complement sum of ~from and to words plus seed,
 * folded to 32 bits (net/core/filter.c; sizes multiples of 4, <= 512). */
static uint64_t
h_csum_diff(struct bpf_run *rs, uint64_t from, uint64_t fsz, uint64_t to,
	    uint64_t tsz, uint64_t seed)
{
	uint64_t sum = (uint32_t)seed;
	uint32_t w;

	if ((fsz | tsz) & 3 || fsz > 512 || tsz > 512 || (fsz == 0 && tsz == 0))
		return (uint64_t)-EINVAL;
	if ((fsz && !mem_ok(rs, from, (uint32_t)fsz, false)) ||
	    (tsz && !mem_ok(rs, to, (uint32_t)tsz, false)))
		return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	for (uint64_t o = 0; o < fsz; o += 4) {
		memcpy(&w, (const uint8_t *)(uintptr_t)from + o, 4);
		sum += (uint32_t)~w;
	}
	for (uint64_t o = 0; o < tsz; o += 4) {
		memcpy(&w, (const uint8_t *)(uintptr_t)to + o, 4);
		sum += w;
	}
	while (sum >> 32)
		sum = (sum & 0xffffffffu) + (sum >> 32);
	return sum;
}

static inline uint8_t *
buf_start(const struct rte_mbuf *m)
{
	return (uint8_t *)m->buf_addr;
}

/* bpf_xdp_adjust_head: data moves by delta; metadata moves along; at least
 * ETH_HLEN bytes stay (net/core/filter.c bpf_xdp_adjust_head). The mbuf
 * edit is shared with C programs (xdp_edit.c). */
static uint64_t
h_adjust_head(struct bpf_run *rs, uint64_t r2)
{
	uint32_t metalen = (uint32_t)(rs->ctx.data - rs->ctx.data_meta);
	int rc = tp_xdp_edit_head(rs->m, (int32_t)r2, metalen);

	if (rc < 0)
		return (uint64_t)(int64_t)rc;
	rs->ctx.data = (uintptr_t)rte_pktmbuf_mtod(rs->m, uint8_t *);
	rs->ctx.data_meta = rs->ctx.data - metalen;
	return 0;
}

/* bpf_xdp_adjust_meta: metadata of 0..32 bytes, a multiple of 4. */
static uint64_t
h_adjust_meta(struct bpf_run *rs, uint64_t r2)
{
	uint8_t *meta = (uint8_t *)(uintptr_t)rs->ctx.data_meta + (int32_t)r2;
	uint8_t *data = (uint8_t *)(uintptr_t)rs->ctx.data;

	if (meta > data || meta < buf_start(rs->m))
		return (uint64_t)-EINVAL;
	if (data - meta > BPF_META_MAX || ((data - meta) & 3))
		return (uint64_t)-EACCES;
	rs->ctx.data_meta = (uintptr_t)meta;
	return 0;
}

/* bpf_xdp_adjust_tail on a one-segment packet; grown bytes are zeroed
 * (xdp_edit.c, shared with C programs). */
static uint64_t
h_adjust_tail(struct bpf_run *rs, uint64_t r2)
{
	int rc = tp_xdp_edit_tail(rs->m, (int32_t)r2);

	if (rc < 0)
		return (uint64_t)(int64_t)rc;
	rs->ctx.data_end = rs->ctx.data + rs->m->data_len;
	return 0;
}

/* bpf_xdp_load_bytes / store_bytes: offsets from data, across segments. */
static uint64_t
h_xfer_bytes(struct bpf_run *rs, uint64_t off, uint64_t buf, uint64_t len,
	     bool store)
{
	if (!tp_xdp_edit_range_ok(rs->m, off, len))
		return (uint64_t)-EINVAL;
	if (!mem_ok(rs, buf, (uint32_t)len, !store))
		return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	return (uint64_t)(int64_t)tp_xdp_edit_xfer(rs->m, off, (void *)(uintptr_t)buf,
					       len, store);
}

/* The MTU of tagpipe port `port`: the ethdev's (rte_eth_dev_get_mtu) when
 * the port is an ethdev of this process, else BPF_DEFAULT_MTU. */
static uint32_t
port_mtu(uint16_t port)
{
	uint16_t mtu;

	if (rte_eth_dev_is_valid_port(port) && rte_eth_dev_get_mtu(port, &mtu) == 0)
		return mtu;
	return BPF_DEFAULT_MTU;
}

/* bpf_check_mtu for XDP (net/core/filter.c bpf_xdp_check_mtu): ifindex 0
 * is the ingress port, N the port N - 1 (outside 1..TP_PIPELINE_MAX_PORTS:
 * -ENODEV); any flag is -EINVAL (BPF_MTU_CHK_SEGS is for skbs). The length
 * checked is *mtu_len + ETH_HLEN when *mtu_len is not 0 (an L3 length, as
 * tot_len), else the first segment's, as the kernel's linear part, plus
 * len_diff; above MTU + ETH_HLEN it is FRAG_NEEDED. *mtu_len gets the MTU;
 * after an error it is left as it was (as Linux 6.18 leaves it). Lengths
 * in the kernel's int arithmetic. */
static uint64_t
h_check_mtu(struct bpf_run *rs, uint64_t ifindex, uint64_t mtu_len, uint64_t len_diff,
	    uint64_t flags)
{
	uint32_t idx = (uint32_t)ifindex, in, mtu;
	int64_t ret = BPF_MTU_CHK_RET_SUCCESS;

	if (!mem_ok(rs, mtu_len, 4, true))
		return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	memcpy(&in, (const void *)(uintptr_t)mtu_len, 4);
	if (flags != 0)
		return (uint64_t)-EINVAL;
	if (idx > TP_PIPELINE_MAX_PORTS)
		return (uint64_t)-ENODEV;
	{
		uint32_t port = idx != 0 ? idx - 1 : rs->ctx.ingress_ifindex - 1;
		int32_t len = in != 0 ? (int32_t)(in + RTE_ETHER_HDR_LEN) :
			      (int32_t)(rs->ctx.data_end - rs->ctx.data);

		mtu = port_mtu((uint16_t)port);
		len = (int32_t)((uint32_t)len + (uint32_t)len_diff);
		if (len > (int32_t)(mtu + RTE_ETHER_HDR_LEN))
			ret = BPF_MTU_CHK_RET_FRAG_NEEDED;
	}
	memcpy((void *)(uintptr_t)mtu_len, &mtu, 4);
	return (uint64_t)ret;
}

/* bpf_skc_lookup_tcp (99), bpf_sk_lookup_tcp (84), bpf_sk_lookup_udp (85):
 * tagpipe has no sockets, so a lookup finds none and returns NULL, the
 * kernel's answer when no socket matches the tuple (net/core/filter.c
 * __bpf_skc_lookup). The tuple (tuple_size bytes) must be readable. */
static uint64_t
h_sk_lookup(struct bpf_run *rs, uint64_t tuple, uint64_t size)
{
	if (size == 0 || size > UINT32_MAX || !mem_ok(rs, tuple, (uint32_t)size, false))
		return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	return 0;
}

/* bpf_tail_call's target: entry pc, or -1 to fall through (order of the
 * kernel's checks: index, count, then the slot). A map that is not a
 * PROG_ARRAY stops the run. */
static int64_t
tail_target(struct bpf_run *rs, uint64_t map, uint64_t index)
{
	struct tp_bpf_map *m = map_of(rs, map);
	uint32_t k = (uint32_t)index, v;

	if (m == NULL || m->type != BPF_MAP_TYPE_PROG_ARRAY) {
		fault(rs, BPF_CNT_BAD_HELPER_ARG);
		return -1;
	}
	if (k >= m->max_entries || rs->tail_calls >= BPF_MAX_TAIL_CALLS)
		return -1;
	rs->tail_calls++;
	memcpy(&v, m->values + (size_t)k * m->stride, 4);
	if (v == 0 || v > rs->prog->nb_progs)
		return -1;
	return rs->prog->progs[v - 1].entry;
}

static void
ring_put(struct bpf_perf_ring *r, uint64_t at, const void *src, size_t n)
{
	size_t o = (size_t)(at % BPF_PERF_RING_SIZE), first = RTE_MIN(n, BPF_PERF_RING_SIZE - o);

	memcpy(r->data + o, src, first);
	memcpy(r->data, (const uint8_t *)src + first, n - first);
}

/* bpf_perf_event_output from XDP (net/core/filter.c bpf_xdp_event_output):
 * flags = ring index (BPF_F_CURRENT_CPU: this lcore's; another lcore's is
 * -EOPNOTSUPP, as a perf event on another CPU is in the kernel) | packet
 * bytes to append << 32 (BPF_F_CTXLEN_MASK, at most the packet: else
 * -EFAULT); the record is data then those packet bytes. -ENOSPC (counted
 * as lost) when the ring is full. */
static uint64_t
h_perf_output(struct bpf_run *rs, uint64_t map, uint64_t flags, uint64_t data,
	      uint64_t size)
{
	struct tp_bpf_map *m = map_of(rs, map);
	uint64_t idx = flags & BPF_F_INDEX_MASK, ctxlen = (flags & BPF_F_CTXLEN_MASK) >> 32;
	struct bpf_perf_ring *r;
	uint32_t hdr[2];
	uint64_t head, need, at;

	if (m == NULL || m->type != BPF_MAP_TYPE_PERF_EVENT_ARRAY ||
	    size > BPF_PERF_RING_SIZE / 2 || !mem_ok(rs, data, (uint32_t)size, false))
		return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	if (flags & ~(BPF_F_INDEX_MASK | BPF_F_CTXLEN_MASK))
		return (uint64_t)-EINVAL;
	if (idx == BPF_F_CURRENT_CPU)
		idx = rs->cpu;
	if (idx >= m->max_entries)
		return (uint64_t)-E2BIG;
	if (idx != rs->cpu || idx >= m->nrings)
		return (uint64_t)-EOPNOTSUPP;
	if (ctxlen > rs->m->pkt_len)
		return (uint64_t)-EFAULT;
	r = &m->rings[idx];
	head = r->head;
	need = 8 + ((size + ctxlen + 7) & ~7ull);
	if (need > BPF_PERF_RING_SIZE - (head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE))) {
		r->lost++;
		return (uint64_t)-ENOSPC;
	}
	hdr[0] = (uint32_t)(size + ctxlen);
	hdr[1] = 0;
	ring_put(r, head, hdr, 8);
	ring_put(r, head + 8, (const void *)(uintptr_t)data, size);
	at = head + 8 + size;
	for (const struct rte_mbuf *s = rs->m; s != NULL && ctxlen > 0; s = s->next) {
		size_t n = RTE_MIN((uint64_t)s->data_len, ctxlen);

		ring_put(r, at, rte_pktmbuf_mtod(s, const void *), n);
		at += n;
		ctxlen -= n;
	}
	__atomic_store_n(&r->head, head + need, __ATOMIC_RELEASE);
	return 0;
}

int
tpb_helper_nargs(int32_t id)
{
	switch (id) {
	case BPF_FUNC_map_lookup_elem: return 2;
	case BPF_FUNC_map_update_elem: return 4;
	case BPF_FUNC_map_delete_elem: return 2;
	case BPF_FUNC_ktime_get_ns: return 0;
	/* fmt and its size: the kernel's proto checks no more (the values
	 * for the conversions are r3..r5 as the program left them) */
	case BPF_FUNC_trace_printk: return 2;
	case BPF_FUNC_get_prandom_u32: return 0;
	case BPF_FUNC_get_smp_processor_id: return 0;
	case BPF_FUNC_tail_call: return 3;
	case BPF_FUNC_perf_event_output: return 5;
	case BPF_FUNC_redirect: return 2;
	case BPF_FUNC_csum_diff: return 5;
	case BPF_FUNC_xdp_adjust_head: return 2;
	case BPF_FUNC_redirect_map: return 3;
	case BPF_FUNC_xdp_adjust_meta: return 2;
	case BPF_FUNC_xdp_adjust_tail: return 2;
	case BPF_FUNC_xdp_get_buff_len: return 1;
	case BPF_FUNC_xdp_load_bytes: return 4;
	case BPF_FUNC_xdp_store_bytes: return 4;
	case BPF_FUNC_ringbuf_output: return 4;
	case BPF_FUNC_ringbuf_reserve: return 3;
	case BPF_FUNC_ringbuf_submit: return 2;
	case BPF_FUNC_ringbuf_discard: return 2;
	case BPF_FUNC_ringbuf_query: return 2;
	case BPF_FUNC_loop: return 4;
	case BPF_FUNC_fib_lookup: return 4;
	case BPF_FUNC_check_mtu: return 5;
	case BPF_FUNC_sk_lookup_tcp: return 5;
	case BPF_FUNC_sk_lookup_udp: return 5;
	case BPF_FUNC_skc_lookup_tcp: return 5;
	case BPF_FUNC_sk_release: return 1;
	default: return -1;
	}
}

bool
tpb_helper_takes_ctx(int32_t id)
{
	return id == BPF_FUNC_tail_call || id == BPF_FUNC_perf_event_output ||
	       id == BPF_FUNC_xdp_adjust_head || id == BPF_FUNC_xdp_adjust_meta ||
	       id == BPF_FUNC_xdp_adjust_tail || id == BPF_FUNC_xdp_get_buff_len ||
	       id == BPF_FUNC_xdp_load_bytes || id == BPF_FUNC_xdp_store_bytes ||
	       id == BPF_FUNC_fib_lookup || id == BPF_FUNC_check_mtu ||
	       id == BPF_FUNC_sk_lookup_tcp || id == BPF_FUNC_sk_lookup_udp ||
	       id == BPF_FUNC_skc_lookup_tcp;
}

static uint64_t
call_helper(struct bpf_run *rs, int32_t id, const uint64_t *r)
{
	switch (id) {
	case BPF_FUNC_map_lookup_elem: return h_map_lookup(rs, r[1], r[2]);
	case BPF_FUNC_map_update_elem: return h_map_update(rs, r[1], r[2], r[3], r[4]);
	case BPF_FUNC_map_delete_elem: return h_map_delete(rs, r[1], r[2]);
	case BPF_FUNC_ktime_get_ns: return h_ktime();
	case BPF_FUNC_trace_printk: return tpb_h_trace_printk(rs, r[1], r[2], r + 3);
	case BPF_FUNC_get_prandom_u32: return (uint32_t)rte_rand();
	case BPF_FUNC_get_smp_processor_id: return rs->cpu;
	case BPF_FUNC_redirect: return h_redirect(rs, r[1], r[2]);
	case BPF_FUNC_perf_event_output:
		return h_perf_output(rs, r[2], r[3], r[4], r[5]);
	case BPF_FUNC_csum_diff: return h_csum_diff(rs, r[1], r[2], r[3], r[4], r[5]);
	case BPF_FUNC_xdp_adjust_head: return h_adjust_head(rs, r[2]);
	case BPF_FUNC_redirect_map: return h_redirect_map(rs, r[1], r[2], r[3]);
	case BPF_FUNC_xdp_adjust_meta: return h_adjust_meta(rs, r[2]);
	case BPF_FUNC_xdp_adjust_tail: return h_adjust_tail(rs, r[2]);
	case BPF_FUNC_xdp_get_buff_len: return rs->m->pkt_len;
	case BPF_FUNC_xdp_load_bytes: return h_xfer_bytes(rs, r[2], r[3], r[4], false);
	case BPF_FUNC_xdp_store_bytes: return h_xfer_bytes(rs, r[2], r[3], r[4], true);
	case BPF_FUNC_ringbuf_output: return tpb_h_ringbuf_output(rs, r[1], r[2], r[3], r[4]);
	case BPF_FUNC_ringbuf_reserve: return tpb_h_ringbuf_reserve(rs, r[1], r[2], r[3]);
	case BPF_FUNC_ringbuf_submit: return tpb_h_ringbuf_commit(rs, r[1], r[2], false);
	case BPF_FUNC_ringbuf_discard: return tpb_h_ringbuf_commit(rs, r[1], r[2], true);
	case BPF_FUNC_ringbuf_query: return tpb_h_ringbuf_query(rs, r[1], r[2]);
	case BPF_FUNC_fib_lookup: return tpb_h_fib_lookup(rs, r[2], r[3], r[4]);
	case BPF_FUNC_check_mtu: return h_check_mtu(rs, r[2], r[3], r[4], r[5]);
	case BPF_FUNC_sk_lookup_tcp:
	case BPF_FUNC_sk_lookup_udp:
	case BPF_FUNC_skc_lookup_tcp: return h_sk_lookup(rs, r[2], r[3]);
	/* Only what a lookup returned may be released, and none ever
	 * returns a socket: the kernel's verifier refuses any other
	 * argument, tagpipe stops the run. */
	case BPF_FUNC_sk_release: return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	default: return fault(rs, BPF_CNT_BAD_HELPER_ARG); /* refused at load */
	}
}

/* ---- direct entries for the JIT (bpf_priv.h, bpf_helper_fn) ----------- */

static uint64_t
d_map_lookup(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	     struct bpf_run *rs)
{
	(void)r3; (void)r4; (void)r5;
	return h_map_lookup(rs, r1, r2);
}

uint64_t
tpb_map_lookup_proven(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
		      struct bpf_run *rs)
{
	(void)r3; (void)r4; (void)r5;
	return cg_map_lookup(rs, r1, r2);
}

static uint64_t
d_map_update(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	     struct bpf_run *rs)
{
	(void)r5;
	return h_map_update(rs, r1, r2, r3, r4);
}

static uint64_t
d_map_delete(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	     struct bpf_run *rs)
{
	(void)r3; (void)r4; (void)r5;
	return h_map_delete(rs, r1, r2);
}

static uint64_t
d_ktime(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	struct bpf_run *rs)
{
	(void)r1; (void)r2; (void)r3; (void)r4; (void)r5; (void)rs;
	return h_ktime();
}

static uint64_t
d_trace_printk(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	       struct bpf_run *rs)
{
	const uint64_t args[3] = { r3, r4, r5 };

	return tpb_h_trace_printk(rs, r1, r2, args);
}

static uint64_t
d_prandom(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	  struct bpf_run *rs)
{
	(void)r1; (void)r2; (void)r3; (void)r4; (void)r5; (void)rs;
	return (uint32_t)rte_rand();
}

static uint64_t
d_cpu(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
      struct bpf_run *rs)
{
	(void)r1; (void)r2; (void)r3; (void)r4; (void)r5;
	return rs->cpu;
}

static uint64_t
d_redirect(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	   struct bpf_run *rs)
{
	(void)r3; (void)r4; (void)r5;
	return h_redirect(rs, r1, r2);
}

static uint64_t
d_perf_output(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	      struct bpf_run *rs)
{
	(void)r1;
	return h_perf_output(rs, r2, r3, r4, r5);
}

static uint64_t
d_csum_diff(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	    struct bpf_run *rs)
{
	return h_csum_diff(rs, r1, r2, r3, r4, r5);
}

static uint64_t
d_adjust_head(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	      struct bpf_run *rs)
{
	(void)r1; (void)r3; (void)r4; (void)r5;
	return h_adjust_head(rs, r2);
}

static uint64_t
d_adjust_meta(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	      struct bpf_run *rs)
{
	(void)r1; (void)r3; (void)r4; (void)r5;
	return h_adjust_meta(rs, r2);
}

static uint64_t
d_adjust_tail(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	      struct bpf_run *rs)
{
	(void)r1; (void)r3; (void)r4; (void)r5;
	return h_adjust_tail(rs, r2);
}

static uint64_t
d_buff_len(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	   struct bpf_run *rs)
{
	(void)r1; (void)r2; (void)r3; (void)r4; (void)r5;
	return rs->m->pkt_len;
}

static uint64_t
d_load_bytes(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	     struct bpf_run *rs)
{
	(void)r1; (void)r5;
	return h_xfer_bytes(rs, r2, r3, r4, false);
}

static uint64_t
d_store_bytes(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	      struct bpf_run *rs)
{
	(void)r1; (void)r5;
	return h_xfer_bytes(rs, r2, r3, r4, true);
}

static uint64_t
d_rb_output(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	    struct bpf_run *rs)
{
	(void)r5;
	return tpb_h_ringbuf_output(rs, r1, r2, r3, r4);
}

static uint64_t
d_rb_reserve(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	     struct bpf_run *rs)
{
	(void)r4; (void)r5;
	return tpb_h_ringbuf_reserve(rs, r1, r2, r3);
}

static uint64_t
d_rb_submit(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	    struct bpf_run *rs)
{
	(void)r3; (void)r4; (void)r5;
	return tpb_h_ringbuf_commit(rs, r1, r2, false);
}

static uint64_t
d_rb_discard(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	     struct bpf_run *rs)
{
	(void)r3; (void)r4; (void)r5;
	return tpb_h_ringbuf_commit(rs, r1, r2, true);
}

static uint64_t
d_rb_query(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	   struct bpf_run *rs)
{
	(void)r3; (void)r4; (void)r5;
	return tpb_h_ringbuf_query(rs, r1, r2);
}

static uint64_t
d_fib_lookup(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5,
	     struct bpf_run *rs)
{
	(void)r1; (void)r5;
	return tpb_h_fib_lookup(rs, r2, r3, r4);
}

/* The same helpers as call_helper, each reached without its switch.
 * Helpers that are not here (tail_call and bpf_loop, which the JIT
 * handles itself, redirect_map, and any helper added to call_helper
 * later) go through the dispatcher. */
bpf_helper_fn
tpb_helper_direct(int32_t id)
{
	switch (id) {
	case BPF_FUNC_map_lookup_elem: return d_map_lookup;
	case BPF_FUNC_map_update_elem: return d_map_update;
	case BPF_FUNC_map_delete_elem: return d_map_delete;
	case BPF_FUNC_ktime_get_ns: return d_ktime;
	case BPF_FUNC_trace_printk: return d_trace_printk;
	case BPF_FUNC_get_prandom_u32: return d_prandom;
	case BPF_FUNC_get_smp_processor_id: return d_cpu;
	case BPF_FUNC_redirect: return d_redirect;
	case BPF_FUNC_perf_event_output: return d_perf_output;
	case BPF_FUNC_csum_diff: return d_csum_diff;
	case BPF_FUNC_xdp_adjust_head: return d_adjust_head;
	case BPF_FUNC_xdp_adjust_meta: return d_adjust_meta;
	case BPF_FUNC_xdp_adjust_tail: return d_adjust_tail;
	case BPF_FUNC_xdp_get_buff_len: return d_buff_len;
	case BPF_FUNC_xdp_load_bytes: return d_load_bytes;
	case BPF_FUNC_xdp_store_bytes: return d_store_bytes;
	case BPF_FUNC_ringbuf_output: return d_rb_output;
	case BPF_FUNC_ringbuf_reserve: return d_rb_reserve;
	case BPF_FUNC_ringbuf_submit: return d_rb_submit;
	case BPF_FUNC_ringbuf_discard: return d_rb_discard;
	case BPF_FUNC_ringbuf_query: return d_rb_query;
	case BPF_FUNC_fib_lookup: return d_fib_lookup;
	default: return NULL;
	}
}

/* ---- interpreter ------------------------------------------------------- */

struct frame {
	uint32_t ret_pc;
	uint64_t saved[4];     /* r6..r9 */
};

#define LOAD(type)                                                            \
	do {                                                                  \
		uint64_t a = reg[i->src_reg] + (int64_t)i->off;               \
		if (unlikely(!mem_ok(rs, a, sizeof(type), false)))            \
			return fault(rs, BPF_CNT_OOB);                        \
		type v;                                                       \
		memcpy(&v, (const void *)(uintptr_t)a, sizeof(type));         \
		reg[i->dst_reg] = v;                                          \
	} while (0)

#define STORE(type, val)                                                      \
	do {                                                                  \
		uint64_t a = reg[i->dst_reg] + (int64_t)i->off;               \
		type v = (type)(val);                                         \
		if (unlikely(!mem_ok(rs, a, sizeof(type), true)))             \
			return fault(rs, BPF_CNT_OOB);                        \
		memcpy((void *)(uintptr_t)a, &v, sizeof(type));               \
	} while (0)

#define ALU64(opc, expr)                                                      \
	case BPF_ALU64 | opc | BPF_K: { uint64_t s = (uint64_t)(int64_t)i->imm;\
		uint64_t d = reg[i->dst_reg]; (void)d; reg[i->dst_reg] = (expr); break; } \
	case BPF_ALU64 | opc | BPF_X: { uint64_t s = reg[i->src_reg];         \
		uint64_t d = reg[i->dst_reg]; (void)d; reg[i->dst_reg] = (expr); break; }

#define ALU32(opc, expr)                                                      \
	case BPF_ALU | opc | BPF_K: { uint32_t s = (uint32_t)i->imm;          \
		uint32_t d = (uint32_t)reg[i->dst_reg]; (void)d;              \
		reg[i->dst_reg] = (uint32_t)(expr); break; }                  \
	case BPF_ALU | opc | BPF_X: { uint32_t s = (uint32_t)reg[i->src_reg]; \
		uint32_t d = (uint32_t)reg[i->dst_reg]; (void)d;              \
		reg[i->dst_reg] = (uint32_t)(expr); break; }

/* A taken jump; backward ones spend the loop budget. */
#define TAKE(cond)                                                            \
	do {                                                                  \
		if (cond) {                                                   \
			if (i->off < 0 && unlikely(rs->loop_left-- == 0))     \
				return fault(rs, BPF_CNT_INSN_LIMIT);         \
			pc += i->off;                                         \
		}                                                             \
	} while (0)

#define JMP(opc, cond)                                                        \
	case BPF_JMP | opc | BPF_K: {                                         \
		uint64_t d = reg[i->dst_reg], s = (uint64_t)(int64_t)i->imm;  \
		TAKE(cond);                                                   \
		break;                                                        \
	}                                                                     \
	case BPF_JMP | opc | BPF_X: {                                         \
		uint64_t d = reg[i->dst_reg], s = reg[i->src_reg];            \
		TAKE(cond);                                                   \
		break;                                                        \
	}                                                                     \
	case BPF_JMP32 | opc | BPF_K: {                                       \
		uint32_t d = (uint32_t)reg[i->dst_reg], s = (uint32_t)i->imm; \
		TAKE(cond);                                                   \
		break;                                                        \
	}                                                                     \
	case BPF_JMP32 | opc | BPF_X: {                                       \
		uint32_t d = (uint32_t)reg[i->dst_reg];                       \
		uint32_t s = (uint32_t)reg[i->src_reg];                       \
		TAKE(cond);                                                   \
		break;                                                        \
	}

#define SJMP(opc, op)                                                         \
	case BPF_JMP | opc | BPF_K:                                           \
		TAKE((int64_t)reg[i->dst_reg] op (int64_t)i->imm);            \
		break;                                                        \
	case BPF_JMP | opc | BPF_X:                                           \
		TAKE((int64_t)reg[i->dst_reg] op (int64_t)reg[i->src_reg]);   \
		break;                                                        \
	case BPF_JMP32 | opc | BPF_K:                                         \
		TAKE((int32_t)reg[i->dst_reg] op i->imm);                     \
		break;                                                        \
	case BPF_JMP32 | opc | BPF_X:                                         \
		TAKE((int32_t)reg[i->dst_reg] op (int32_t)reg[i->src_reg]);   \
		break;

static uint64_t
atomic_op(struct bpf_run *rs, const struct bpf_insn *i, uint64_t *reg)
{
	uint64_t a = reg[i->dst_reg] + (int64_t)i->off;
	bool dw = BPF_SIZE(i->code) == BPF_DW;
	uint64_t src = reg[i->src_reg], old;

	if (!mem_ok(rs, a, dw ? 8 : 4, true) || (a & (dw ? 7 : 3)))
		return fault(rs, BPF_CNT_OOB);
#define ATOM(T)                                                               \
	do {                                                                  \
		T *p = (T *)(uintptr_t)a, v = (T)src;                         \
		switch (i->imm & ~BPF_FETCH) {                                \
		case BPF_ADD: old = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); break; \
		case BPF_AND: old = __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); break; \
		case BPF_OR: old = __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); break;   \
		case BPF_XOR: old = __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); break; \
		default:                                                      \
			if (i->imm == BPF_XCHG) {                             \
				old = __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); \
			} else {                                              \
				T exp = (T)reg[BPF_REG_0];                    \
				__atomic_compare_exchange_n(p, &exp, v, false, \
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
				reg[BPF_REG_0] = exp;                         \
				return 1;                                     \
			}                                                     \
		}                                                             \
	} while (0)
	if (dw)
		ATOM(uint64_t);
	else
		ATOM(uint32_t);
#undef ATOM
	if (i->imm & BPF_FETCH)
		reg[i->src_reg] = dw ? old : (uint32_t)old;
	return 1;
}

static uint64_t interp(struct bpf_run *rs, uint32_t pc, uint64_t r1, uint64_t r2,
		       uint64_t r10);

int64_t
tpb_loop_callback(const struct bpf_run *rs, uint64_t fn, uint64_t r10)
{
	const struct tp_bpf *p = rs->prog;
	uint64_t pc = fn & ~BPF_FUNC_ADDR_TAG;

	if ((fn & BPF_FUNC_ADDR_TAG) != BPF_FUNC_ADDR_TAG || pc >= p->nb_insns ||
	    !(p->insn_flags[pc] & BPF_IF_CALLBACK) ||
	    r10 + BPF_STACK_SIZE > (uintptr_t)rs->stack + BPF_MAX_FRAMES * BPF_STACK_SIZE)
		return -1;
	return (int64_t)pc;
}

/* bpf_loop (kernel/bpf/bpf_iter.c): flags must be 0 (-EINVAL), at most
 * BPF_LOOP_MAX_ITER iterations (-E2BIG); the callback (index, ctx) runs
 * in the next frame down; a nonzero return stops the loop. Returns the
 * number of callback calls. A bad callback stops the run. */
static uint64_t
run_loop(struct bpf_run *rs, const uint64_t *reg)
{
	uint32_t n = (uint32_t)reg[BPF_REG_1];
	int64_t pc = tpb_loop_callback(rs, reg[BPF_REG_2], reg[BPF_REG_10]);
	uint64_t i;

	if (pc < 0)
		return fault(rs, BPF_CNT_BAD_HELPER_ARG);
	if (reg[BPF_REG_4] != 0)
		return (uint64_t)-EINVAL;
	if (n > BPF_LOOP_MAX_ITER)
		return (uint64_t)-E2BIG;
	for (i = 0; i < n; i++) {
		uint64_t r = interp(rs, (uint32_t)pc, i, reg[BPF_REG_3],
				    reg[BPF_REG_10] + BPF_STACK_SIZE);

		if (unlikely(rs->fault))
			return 0;
		if (r != 0)
			return i + 1;
	}
	return i;
}

uint64_t
tpb_run(struct bpf_run *rs)
{
	return interp(rs, rs->prog->entry, (uintptr_t)&rs->ctx, 0,
		      (uintptr_t)rs->stack + BPF_STACK_SIZE);
}

/* Run from pc (a function's first instruction) until its exit. */
static uint64_t
interp(struct bpf_run *rs, uint32_t pc, uint64_t r1, uint64_t r2, uint64_t r10)
{
	const struct bpf_insn *insns = rs->prog->insns;
	struct frame fr[BPF_MAX_FRAMES];
	unsigned int depth = 0;
	uint64_t reg[11];

	reg[BPF_REG_1] = r1;
	reg[BPF_REG_2] = r2;
	reg[BPF_REG_10] = r10;
	for (;;) {
		const struct bpf_insn *i = &insns[pc++];

		switch (i->code) {
		ALU64(BPF_ADD, d + s)
		ALU64(BPF_SUB, d - s)
		ALU64(BPF_MUL, d * s)
		ALU64(BPF_DIV, s ? d / s : 0)
		ALU64(BPF_MOD, s ? d % s : d)
		ALU64(BPF_OR, d | s)
		ALU64(BPF_AND, d & s)
		ALU64(BPF_XOR, d ^ s)
		ALU64(BPF_LSH, d << (s & 63))
		ALU64(BPF_RSH, d >> (s & 63))
		ALU64(BPF_ARSH, (uint64_t)((int64_t)d >> (s & 63)))
		ALU64(BPF_MOV, s)
		case BPF_ALU64 | BPF_NEG:
			reg[i->dst_reg] = -reg[i->dst_reg];
			break;
		ALU32(BPF_ADD, d + s)
		ALU32(BPF_SUB, d - s)
		ALU32(BPF_MUL, d * s)
		ALU32(BPF_DIV, s ? d / s : 0)
		ALU32(BPF_MOD, s ? d % s : d)
		ALU32(BPF_OR, d | s)
		ALU32(BPF_AND, d & s)
		ALU32(BPF_XOR, d ^ s)
		ALU32(BPF_LSH, d << (s & 31))
		ALU32(BPF_RSH, d >> (s & 31))
		ALU32(BPF_ARSH, (uint32_t)((int32_t)d >> (s & 31)))
		ALU32(BPF_MOV, s)
		case BPF_ALU | BPF_NEG:
			reg[i->dst_reg] = (uint32_t)-(uint32_t)reg[i->dst_reg];
			break;
		case BPF_ALU | BPF_END | BPF_TO_LE:
			reg[i->dst_reg] = i->imm == 16 ? (uint16_t)reg[i->dst_reg] :
					  i->imm == 32 ? (uint32_t)reg[i->dst_reg] :
					  reg[i->dst_reg];
			break;
		case BPF_ALU | BPF_END | BPF_TO_BE:
			reg[i->dst_reg] = i->imm == 16 ? rte_bswap16((uint16_t)reg[i->dst_reg]) :
					  i->imm == 32 ? rte_bswap32((uint32_t)reg[i->dst_reg]) :
					  rte_bswap64(reg[i->dst_reg]);
			break;
		case BPF_LD | BPF_IMM | BPF_DW:
			reg[i->dst_reg] = (uint32_t)i->imm |
					  (uint64_t)(uint32_t)insns[pc].imm << 32;
			if (unlikely(i->src_reg == BPF_PSEUDO_FUNC))
				reg[i->dst_reg] = BPF_FUNC_ADDR_TAG |
						  (uint32_t)((int64_t)pc + i->imm);
			pc++;
			break;
		case BPF_LDX | BPF_MEM | BPF_B: LOAD(uint8_t); break;
		case BPF_LDX | BPF_MEM | BPF_H: LOAD(uint16_t); break;
		case BPF_LDX | BPF_MEM | BPF_W: LOAD(uint32_t); break;
		case BPF_LDX | BPF_MEM | BPF_DW: LOAD(uint64_t); break;
		case BPF_STX | BPF_MEM | BPF_B: STORE(uint8_t, reg[i->src_reg]); break;
		case BPF_STX | BPF_MEM | BPF_H: STORE(uint16_t, reg[i->src_reg]); break;
		case BPF_STX | BPF_MEM | BPF_W: STORE(uint32_t, reg[i->src_reg]); break;
		case BPF_STX | BPF_MEM | BPF_DW: STORE(uint64_t, reg[i->src_reg]); break;
		case BPF_ST | BPF_MEM | BPF_B: STORE(uint8_t, i->imm); break;
		case BPF_ST | BPF_MEM | BPF_H: STORE(uint16_t, i->imm); break;
		case BPF_ST | BPF_MEM | BPF_W: STORE(uint32_t, i->imm); break;
		case BPF_ST | BPF_MEM | BPF_DW: STORE(uint64_t, (int64_t)i->imm); break;
		case BPF_STX | BPF_ATOMIC | BPF_W:
		case BPF_STX | BPF_ATOMIC | BPF_DW:
			if (!atomic_op(rs, i, reg))
				return 0;
			break;
		case BPF_JMP | BPF_JA:
			TAKE(1);
			break;
		JMP(BPF_JEQ, d == s)
		JMP(BPF_JNE, d != s)
		JMP(BPF_JGT, d > s)
		JMP(BPF_JGE, d >= s)
		JMP(BPF_JLT, d < s)
		JMP(BPF_JLE, d <= s)
		JMP(BPF_JSET, d & s)
		SJMP(BPF_JSGT, >)
		SJMP(BPF_JSGE, >=)
		SJMP(BPF_JSLT, <)
		SJMP(BPF_JSLE, <=)
		case BPF_JMP | BPF_CALL:
			if (i->src_reg == BPF_PSEUDO_CALL) {
				fr[depth].ret_pc = pc;
				memcpy(fr[depth].saved, &reg[BPF_REG_6], sizeof(fr[depth].saved));
				depth++;
				reg[BPF_REG_10] += BPF_STACK_SIZE;
				pc += i->imm;
				break;
			}
			if (i->imm == BPF_FUNC_tail_call) {
				int64_t t = tail_target(rs, reg[BPF_REG_2], reg[BPF_REG_3]);

				if (unlikely(rs->fault))
					return 0;
				if (t >= 0) {
					pc = (uint32_t)t;
					reg[BPF_REG_1] = (uintptr_t)&rs->ctx;
					break;
				}
				reg[BPF_REG_0] = (uint64_t)-ENOENT;
				break;
			}
			if (i->imm == BPF_FUNC_loop) {
				reg[BPF_REG_0] = run_loop(rs, reg);
				if (unlikely(rs->fault))
					return 0;
				break;
			}
			reg[BPF_REG_0] = call_helper(rs, i->imm, reg);
			if (unlikely(rs->fault))
				return 0;
			break;
		case BPF_JMP | BPF_EXIT:
			if (depth == 0)
				return reg[BPF_REG_0];
			depth--;
			pc = fr[depth].ret_pc;
			memcpy(&reg[BPF_REG_6], fr[depth].saved, sizeof(fr[depth].saved));
			reg[BPF_REG_10] -= BPF_STACK_SIZE;
			break;
		default:
			/* refused by bpf_verify.c; never reached */
			return fault(rs, BPF_CNT_OOB);
		}
	}
}
