/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_bpf: unmodified XDP objects as verdict programs (libtp_bpf).
 *
 * This library registers two program kinds with lib/prog (tp_prog.h) when
 * it is loaded: "bpf" (JIT-compiled where the machine has a JIT, else
 * interpreted, and it says which) and "bpf-interp" (always the
 * interpreter, the reference semantics). A spec "FILE.o[:SEL]" alone opens
 * the "bpf" kind. Everything below acts on a struct tp_prog opened with
 * tp_prog_open() as such a kind; given any other program, a function
 * returns -EINVAL. User guide: docs/xdp.md.
 *
 * Linking: pkg-config libtagpipe links it; a program that includes
 * tagpipe.h keeps it even under --as-needed when it calls none of its
 * functions (it only opens "FILE.o" specs), see tagpipe.h.
 *
 * What it does not do: attach anything to the kernel (the kernel's
 * verifier is only asked, see tp_prog_bpf_set_verify), pin maps, or run
 * kfuncs, sockets or LD_ABS/LD_IND programs.
 *
 * An eBPF ELF object built for the kernel (clang -target bpf) runs unchanged:
 *   - SEL picks the program by section name ("xdp", "xdp.frags", any
 *     executable section) or function name; default: the first function
 *     of the first executable section other than .text.
 *   - maps: BTF ".maps" and legacy "maps" definitions become tagpipe maps
 *     of the same shape (ARRAY, PERCPU_ARRAY, HASH, PERCPU_HASH, LRU_HASH,
 *     LRU_PERCPU_HASH, LPM_TRIE, PROG_ARRAY, PERF_EVENT_ARRAY, RINGBUF,
 *     ARRAY_OF_MAPS and HASH_OF_MAPS (inner shape from BTF __array(values,
 *     ...); values are map indexes, see tp_prog_bpf_map_lookup), DEVMAP,
 *     DEVMAP_HASH, CPUMAP, XSKMAP); .data/.rodata/.bss become one-entry
 *     ARRAY maps named after their section (".data", ...). Per-CPU means
 *     one copy per EAL lcore index.
 *   - the program reads struct xdp_md exactly as the kernel defines it;
 *     its loads are rewritten when the object is opened. In tagpipe:
 *       data..data_end     the first segment, from the untagged Ethernet
 *                          header (switch tag and stripped VLAN tags are
 *                          gone; see below for where they are);
 *       data_meta..data    struct tp_xdp_meta (8 bytes, below) for programs
 *                          that load data_meta, when the headroom has 8
 *                          bytes; else empty;
 *                          bpf_xdp_adjust_meta grows it in front, up to 32
 *                          bytes in all;
 *       ingress_ifindex    ingress ethdev port id + 1 (never 0, like a
 *                          kernel ifindex);
 *       rx_queue_index     the RX queue of the burst;
 *       egress_ifindex     refused (devmap egress programs only).
 *   - packets of several buffers: only a program in an xdp.frags section
 *     gets them (after GRO: merged packets too), as in the kernel. Any
 *     other runs before GRO on frames, and a chained frame is made one
 *     buffer when it fits its first (rte_pktmbuf_linearize), else it is
 *     TP_DROP without a run (tp_bpf_stats linearized, multibuf_dropped).
 *   - redirects: tagpipe ifindex N names redirect-map key N - 1.
 *     bpf_redirect(N, 0) and a DEVMAP/DEVMAP_HASH/XSKMAP entry whose
 *     value (first 4 bytes) is N give TP_REDIRECT with key N - 1; an entry
 *     of 0 is empty (redirect_map returns its fallback flags & 3). A
 *     CPUMAP's key is the CPU (lcore index), its value {qsize, prog} set
 *     when qsize is not 0: key TP_BPF_CPUMAP_KEY_BASE + CPU. DEVMAP
 *     broadcast (BPF_F_BROADCAST, BPF_F_EXCLUDE_INGRESS) gives a
 *     TP_REDIRECT_KEY_MULTI key: a copy to every entry.
 *   - helpers (kernel IDs): map_lookup/update/delete_elem (1-3),
 *     ktime_get_ns (5), trace_printk (6: to log type tagpipe.bpf at INFO,
 *     the kernel's format rules), get_prandom_u32 (7), get_smp_processor_id (8, the
 *     lcore index), perf_event_output (25, to per-lcore rings read with
 *     tp_prog_bpf_perf_read), tail_call (12: up to 33 per run, as the kernel's
 *     MAX_TAIL_CALL_CNT; targets are the object's other programs, see
 *     tp_prog_bpf_prog_find), redirect (23), csum_diff (28), xdp_adjust_head (44),
 *     redirect_map (51), xdp_adjust_meta (54), xdp_adjust_tail (65, up to
 *     the end of the (last) buffer; merged packets refuse it), xdp_get_buff_len (188), xdp_load_bytes (189),
 *     xdp_store_bytes (190), loop (181: the callback is a function of
 *     the object, at most 1 << 23 iterations, no tail call inside),
 *     fib_lookup (69, against the program's routes: tp_prog_bpf_route_add),
 *     check_mtu (163: ifindex 0 the ingress port, N port N - 1; a port's
 *     MTU is its ethdev's, 1500 for a port that is no ethdev; flags are
 *     -EINVAL, as for XDP in the kernel), sk_lookup_tcp/udp (84, 85) and
 *     skc_lookup_tcp (99: NULL, tagpipe has no sockets), sk_release (86:
 *     accepted for the kernel's verifier, never given a socket),
 *     ringbuf_output/reserve/submit/discard/query
 *     (130-134, to a ring read with tp_prog_bpf_ringbuf_consume, waited
 *     on with tp_prog_bpf_ringbuf_poll or _fd; a run
 *     may hold 4 reservations at once, and one that ends holding any has
 *     them discarded and returns TP_ABORTED, counted as a helper fault,
 *     where the kernel would have refused the program). Any other helper, kfuncs, recursion, loops
 *     that nothing leaves and LD_ABS/LD_IND are refused at open with an
 *     error naming the pc and what is unsupported. Other loops run only
 *     when the kernel verified the object or verification is OFF, and a
 *     run stops (TP_ABORTED, counted) after 1,000,000 backward jumps.
 *   - safety: registers must be set before use (r0 at the program's and
 *     bpf_loop callbacks' exits, not a BPF-to-BPF callee's) and the context used only
 *     as xdp_md allows (checked at open); the kernel's verifier is asked
 *     too when it can be (tp_prog_bpf_set_verify); every memory access
 *     is checked at run time against the packet, the stack, the context and map
 *     values. A run that steps outside returns TP_ABORTED and is counted
 *     (tp_prog_bpf_stats).
 *   - how it runs (verified by kernel / tagpipe / nobody, execution,
 *     memory checks proven / checked, why): tp_prog_bpf_exec_info, logged
 *     at INFO when opened (a fall back to the interpreter at WARNING).
 *   - execution: "bpf" runs the program with tagpipe's x86-64 JIT
 *     (bpf_jit_x86.c): machine code written into this process's memory at
 *     open, then made read-only and executable; no compiler, file or other
 *     process. The code keeps the interpreter's checks, except where the
 *     kernel's verifier proved the accesses or they are proven at open
 *     (r10-relative inside the frame, context loads). Other architectures
 *     run the interpreter, and describe() says so. "bpf-interp" always uses
 *     the interpreter (bpf_exec.c), the reference semantics. Both give the
 *     same verdicts, bytes and map effects (tests/bpf runs both).
 */
#ifndef TP_BPF_H
#define TP_BPF_H

/* Declared here = exported: the library is built with -fvisibility=hidden
 * and its version.map lists these names (GCC manual, Visibility Pragmas). */
#pragma GCC visibility push(default)

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_compat.h>

#include "tp_prog.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What tagpipe puts between data_meta and data for XDP objects: the
 * tagpipe view of tp_xdp_md that xdp_md has no field for. Host byte order. */
struct tp_xdp_meta {
	uint16_t vlan_tci;        /* stripped inner/only tag, 0 if none */
	uint16_t vlan_tci_outer;  /* stripped outer tag (QinQ), 0 if none */
	int16_t switch_port;      /* source switch port, -1 without a tag */
	uint8_t switch_device;
	uint8_t nb_vlan;          /* 0, 1 or 2 stripped tags */
};

/* An XDP object's CPUMAP redirect to CPU c (the map's key; tagpipe's CPUs
 * are lcore indexes) gives redirect-map key TP_BPF_CPUMAP_KEY_BASE + c,
 * which the application points at that lcore's worker ring
 * (tp_redirect_map_set_ring) or anywhere else; DEVMAP ifindexes give keys
 * below it. */
#define TP_BPF_CPUMAP_KEY_BASE 256u

/* The built-in program kinds for XDP objects (their ops, to recognise
 * opened ones): "bpf" compiles (falls back to the interpreter when no C
 * compiler or private cache directory is available: see
 * tp_prog_bpf_describe), "bpf-interp" always interprets. */
extern const struct tp_prog_ops tp_prog_bpf;
extern const struct tp_prog_ops tp_prog_bpf_interp;

/* The kernel verifier at open time (bpf_kverify.c): the selected program
 * is loaded once into the running kernel as an XDP program with maps of
 * the same shapes, then released (nothing attached or pinned).
 *   AUTO    when the kernel can be asked (root / CAP_BPF), a rejection
 *           refuses the object; otherwise tagpipe's own checks alone
 *           (tp_prog_bpf_describe says which) -- the default;
 *   KERNEL  refuse objects the kernel cannot verify;
 *   OFF     tagpipe's own checks alone (--bpf-unverified).
 * tagpipe's run-time bounds checks apply in every mode. */
enum tp_bpf_verify {
	TP_BPF_VERIFY_AUTO = 0,
	TP_BPF_VERIFY_KERNEL = 1,
	TP_BPF_VERIFY_OFF = 2,
};
/* Process-wide, for objects opened afterwards. 0 or -EINVAL. */
int tp_prog_bpf_set_verify(enum tp_bpf_verify mode);

struct tp_bpf_map_info {
	char name[64];
	uint32_t type;            /* enum bpf_map_type (linux/bpf.h) */
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t ncpu;            /* copies per value: per-CPU maps, else 1 */
	uint32_t value_stride;    /* bytes per copy in lookup/update buffers */
};

/* Maps of an opened XDP object, by index 0..n-1 or name. Control plane;
 * safe while pipelines run (values are copied under the map's lock, a
 * datapath reader may see a value half-written, as with kernel maps).
 * Return -EINVAL when p is not an XDP object. */
int tp_prog_bpf_map_count(const struct tp_prog *p);
int tp_prog_bpf_map_info(const struct tp_prog *p, int index,
			 struct tp_bpf_map_info *info);
/* Index of map name, -ENOENT or -EINVAL. */
int tp_prog_bpf_map_find(const struct tp_prog *p, const char *name);
/* value: ncpu * value_stride bytes for per-CPU maps (every lcore's copy,
 * as the bpf() syscall does), else value_size. lookup: 0 or -ENOENT.
 * update flags: BPF_ANY 0, BPF_NOEXIST 1, BPF_EXIST 2; 0, -EEXIST, -ENOENT,
 * -E2BIG (full or key out of range), -EOPNOTSUPP (devmap egress prog).
 * PROG_ARRAY values are program numbers (tp_prog_bpf_prog_find); a number
 * that is not a program, or one that failed verification, is -EINVAL.
 * ARRAY_OF_MAPS / HASH_OF_MAPS values are map indexes (u32); a map not
 * of the inner shape is -EINVAL.
 * delete: 0, -ENOENT, -EINVAL (array maps cannot delete; redirect maps and
 * PROG_ARRAY empty the slot). */
int tp_prog_bpf_map_lookup(const struct tp_prog *p, int index, const void *key,
			   void *value);
int tp_prog_bpf_map_update(const struct tp_prog *p, int index, const void *key,
			   const void *value, uint64_t flags);
int tp_prog_bpf_map_delete(const struct tp_prog *p, int index, const void *key);

/* Programs of an opened XDP object: 1 (the selected one, number 0), or,
 * when the object has PROG_ARRAY maps, also every other function of its
 * executable sections, numbered in symbol-table order from 1. A
 * PROG_ARRAY value is such a number (where the kernel's is a program fd).
 * count: n or -EINVAL; find: the number of function name, -ENOENT or
 * -EINVAL. */
int tp_prog_bpf_prog_count(const struct tp_prog *p);
int tp_prog_bpf_prog_find(const struct tp_prog *p, const char *name);

/* Add a route for bpf_fib_lookup (helper 69), from text in the manner of
 * ip-route(8):
 *   [blackhole|unreachable|prohibit] PREFIX[/LEN] [via GW] [dev PORT]
 *       [src ADDR] [lladdr MAC] [smac MAC] [mtu N] [metric N]
 * (words separated by spaces or commas; IPv4 or IPv6 by the prefix; no
 * LEN: a host route). A unicast route needs dev PORT, the tagpipe port it
 * leaves by (the helper returns ifindex PORT + 1). lladdr is the next
 * hop's MAC, a static neighbour entry: the gateway's, or with no via
 * every destination's of the prefix (use host routes for several
 * neighbours); without it a lookup says NO_NEIGH. smac is the egress
 * port's MAC (default 00:00:00:00:00:00), mtu the route's MTU (default
 * 1500; tot_len above it gives FRAG_NEEDED with mtu_result), src the
 * address BPF_FIB_LOOKUP_SRC returns (without it NO_SRC_ADDR). The helper
 * otherwise acts as the kernel's for XDP (net/core/filter.c): longest
 * prefix wins, a later route for the same prefix replaces it; one table
 * (BPF_FIB_LOOKUP_TBID naming any but 254, main, finds nothing); every
 * port forwards; an ifindex outside 1..TP_PIPELINE_MAX_PORTS is -ENODEV.
 * At most 1024 routes per program; routes may be added while traffic
 * runs. 0, or -EINVAL/-ENOSPC with err naming the bad word. */
int tp_prog_bpf_route_add(struct tp_prog *p, const char *spec, char *err, size_t errlen);

/* Update one map element from text "NAME:KEY=VALUE" (tagpipe-replay
 * --bpf-map): KEY and VALUE are hex bytes in memory order, exactly
 * key_size and value_size bytes (as the bpf() syscall takes them; "0a000001"
 * is IPv4 10.0.0.1 as a network-order key), or, where the object's BTF
 * gives the map's key or value type, a value of that type: a number
 * (decimal, 0x hex; a dotted IPv4 address for a __be32) for an integer,
 * enum or bitfield; "text" for a char array (zero-padded); {v, ...} for a
 * struct, each member optionally "name: v", and [v, ...] for an array,
 * every member and element in order, nested as the type is; at the top
 * the braces may go ("routes:24,0x0001a8c0=3": a prefix length and, in a
 * __u32 on little-endian x86, 192.168.1.0 in network order). What
 * tp_prog_bpf_map_dump_btf prints is read back as it is. Text that is
 * exactly the size in hex digits is read as hex. A per-CPU map gets VALUE in
 * every lcore's copy; a PROG_ARRAY's VALUE is a program's function name,
 * a map-in-map's VALUE the inner map's name.
 * BPF_ANY. 0, or -EINVAL/-E2BIG/... with err naming the bad part. */
int tp_prog_bpf_map_update_text(const struct tp_prog *p, const char *spec,
				char *err, size_t errlen);
/* Delete one element from text "NAME:KEY" (hex key, as above): 0, or
 * -ENOENT (no such element), -EINVAL (an array, or a bad spec; err names
 * the bad part). */
__rte_experimental
int tp_prog_bpf_map_delete_text(const struct tp_prog *p, const char *spec, char *err,
				size_t errlen);
/* Print map index's elements to f, one "KEY=VALUE" line each in the same
 * hex (per-CPU maps: every lcore's copy, comma-separated; PROG_ARRAY: the
 * function name; map-in-map: the inner map's name). Hash and LPM maps: every element; array maps: elements
 * with a nonzero byte, so a fresh array prints nothing; RINGBUF: each
 * submitted record as one hex line, consuming it (as
 * tp_prog_bpf_ringbuf_consume). Returns the number
 * of lines, or -EINVAL. Safe while traffic runs (values as for lookup). */
int tp_prog_bpf_map_dump(const struct tp_prog *p, int index, FILE *f);
/* The same as "KEY = VALUE" lines with keys and values in the object's
 * BTF types where it has them and text can express them: integers, enums
 * and bitfields as numbers, a __be16/__be32/__be64 typedef in network
 * byte order (a 4-byte __be32 as a dotted IPv4 address), char arrays
 * holding text as "...", structs as {member: value, ...} and arrays as
 * [v, ...], nested to 8 levels; anything else (unions, pointers) in hex as
 * above. Per-CPU values comma-separated. What it prints,
 * tp_prog_bpf_map_update_text reads back. */
int tp_prog_bpf_map_dump_btf(const struct tp_prog *p, int index, FILE *f);

/* The next record bpf_perf_event_output put in PERF_EVENT_ARRAY map index
 * from lcore index cpu: its bytes (the program's data, then the packet
 * bytes it asked for) into buf. Returns the record length, -EAGAIN when
 * there is none, -ENOBUFS when len is too small (the record stays),
 * -EINVAL (not such a map, cpu out of range). One reader per ring.
 * *lost (may be NULL): records dropped so far because the ring was full. */
int tp_prog_bpf_perf_read(const struct tp_prog *p, int index, uint32_t cpu,
			  void *buf, size_t len, uint64_t *lost);

/* RINGBUF map index (kernel/bpf/ringbuf.c semantics, records framed as
 * include/uapi/linux/bpf.h struct bpf_ringbuf_hdr): fn(ctx, data, len)
 * for each record submitted and not yet consumed, in ring order, up to
 * the first one still reserved; discarded records are skipped. Each
 * record is consumed once fn returns; a negative return stops there and
 * is returned. Otherwise the number of records given to fn (0: none), or
 * -EINVAL (not a RINGBUF map, fn NULL). Safe while traffic runs; consumers are
 * serialised. */
typedef int (*tp_bpf_ringbuf_fn)(void *ctx, const void *data, size_t len);
int tp_prog_bpf_ringbuf_consume(const struct tp_prog *p, int index,
				tp_bpf_ringbuf_fn fn, void *ctx);

/* A file descriptor that becomes readable (poll, epoll: POLLIN) when the
 * RINGBUF map index has a record for a consumer that may be waiting:
 * as the kernel wakes epoll waiters on a ring's fd (kernel/bpf/ringbuf.c
 * tpb_ringbuf_commit), a submit or discard wakes when the consumer had
 * read up to that record, unless the program passed BPF_RB_NO_WAKEUP,
 * and always with BPF_RB_FORCE_WAKEUP. tp_prog_bpf_ringbuf_consume
 * clears it before it reads. Created on the first call (until then no
 * commit makes a system call); readable at once if records wait. Owned
 * by the program (closed with it). The fd, or -EINVAL (not a RINGBUF
 * map), or -errno of eventfd(2). */
int tp_prog_bpf_ringbuf_fd(const struct tp_prog *p, int index);

/* libbpf's ring_buffer__poll for one ring: wait up to timeout_ms (-1:
 * no limit) for the fd above, then consume as tp_prog_bpf_ringbuf_consume.
 * The records given to fn, 0 when the time ran out, or a negative errno. */
int tp_prog_bpf_ringbuf_poll(const struct tp_prog *p, int index, int timeout_ms,
			     tp_bpf_ringbuf_fn fn, void *ctx);

struct tp_bpf_stats {
	uint64_t runs;            /* program runs (packets) */
	uint64_t aborted_oob;     /* runs stopped: memory access out of bounds */
	uint64_t aborted_helper;  /* runs stopped: bad helper argument */
	uint64_t aborted_loop;    /* runs stopped: loop budget spent */
	/* Frames of several buffers (chained mbufs) given to a program that is
	 * not xdp.frags, which the kernel never gives one: */
	uint64_t linearized;      /* made one buffer (they fit the first's) */
	uint64_t multibuf_dropped; /* did not fit: TP_DROP without a run */
};
/* Sum over lcores. 0 or -EINVAL. */
int tp_prog_bpf_stats(const struct tp_prog *p, struct tp_bpf_stats *st);
/* "FILE (section SEC, function F, N insns, M maps, jit|interpreted[: why],
 * <kernel verifier outcome>)" into buf, snprintf semantics; -EINVAL when p
 * is not an object. Without a JIT for the architecture the mode reads
 * "no JIT for this architecture: interpreter". */
int tp_prog_bpf_describe(const struct tp_prog *p, char *buf, size_t len);

/* How an opened XDP object runs: what proved it safe, what executes it,
 * whether its memory accesses are checked while it runs, and why. The
 * words are fixed (tests and tools compare them):
 *   verified_by  "kernel"   the running kernel's verifier accepted it, as
 *                           tagpipe reads the file (tp_prog_bpf_set_verify);
 *                "tagpipe"  the kernel was not asked or could not be, and
 *                           tagpipe's load-time checks passed (structure,
 *                           termination, registers, context use);
 *                "nobody"   as "tagpipe", but with a loop neither proved
 *                           finite (--bpf-unverified): it runs under the
 *                           backward-jump budget;
 *   execution    "compiled" translated to machine code (tpb_compile.c);
 *                "interpreter" the reference interpreter (bpf-interp, or
 *                           a fallback: reason says why);
 *   checks       "proven"   memory accesses run unchecked, the kernel
 *                           having proved them (kernel + compiled);
 *                "checked"  every access is checked at run time.
 * reason says it in words: the kernel verifier's outcome, then what the
 * execution does. The same facts are logged at INFO (log type
 * tagpipe.bpf) when the object is opened; a fallback to the interpreter
 * is logged at WARNING. */
struct tp_bpf_exec_info {
	char path[256];
	char section[64];
	char function[64];
	bool frags;               /* xdp.frags: given packets of several buffers */
	const char *verified_by;
	const char *execution;
	const char *checks;
	char reason[512];
};
/* 0, or -EINVAL when p is not an XDP object (or info is NULL). */
__rte_experimental
int tp_prog_bpf_exec_info(const struct tp_prog *p, struct tp_bpf_exec_info *info);
/* The same as one line, snprintf semantics (-EINVAL when not an object):
 * "PATH (section S, function F): verified by V, execution E, memory checks
 * C: REASON". */
__rte_experimental
int tp_prog_bpf_exec_line(const struct tp_prog *p, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* TP_BPF_H */
