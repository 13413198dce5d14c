/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eBPF XDP runtime, private to lib/bpf: the loaded program, its maps, the
 * per-run state, and the entry points of bpf_load.c, bpf_verify.c,
 * bpf_map.c and bpf_exec.c. The public contract is tp_bpf.h.
 *
 * Instruction set and numbering: include/uapi/linux/bpf.h and
 * bpf_common.h (linux-libc-dev), documented in the kernel's
 * Documentation/bpf/standardization/instruction-set.rst.
 */
#ifndef TP_BPF_PRIV_H
#define TP_BPF_PRIV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include "tp_bpf.h"

#define BPF_ERR_LEN 256
#define BPF_STACK_SIZE 512        /* per frame: kernel MAX_BPF_STACK */
#define BPF_MAX_FRAMES 8          /* kernel MAX_CALL_FRAMES */
#define BPF_MAX_MAPS 64
#define BPF_MAX_INSNS 65536
#define BPF_MAP_NAME_MAX 64
#define BPF_MAX_PROGS 64          /* programs of one object (tail-call targets) */
/* Tail calls per run: the kernel's MAX_TAIL_CALL_CNT (include/linux/bpf.h;
 * the uapi bpf_tail_call documentation gives the same 33). */
#define BPF_MAX_TAIL_CALLS 33
/* Programs with loops: taken backward jumps allowed per run (the budget
 * that stops a loop tagpipe cannot prove finite); the kernel's own
 * exploration limit is 1M instructions (BPF_COMPLEXITY_LIMIT_INSNS,
 * include/linux/bpf.h), taken here as the same order of magnitude. */
#define BPF_LOOP_BUDGET 1000000u

/* bpf_check_mtu: a port that is not an ethdev of this process has
 * Ethernet's MTU (RFC 894). */
#define BPF_DEFAULT_MTU 1500u

/* CPUMAP: the kernel's sanity limit on an entry's qsize
 * (kernel/bpf/cpumap.c cpu_map_update_elem). */
#define BPF_CPUMAP_QSIZE_MAX 16384u

/* Redirect keys of bpf_redirect_map with BPF_F_BROADCAST:
 * TP_REDIRECT_KEY_MULTI | (BPF_F_EXCLUDE_INGRESS ? BPF_RKEY_EXCLUDE : 0) |
 * the DEVMAP's index (tp_prog_redirect_targets expands it). */
#define BPF_RKEY_EXCLUDE 0x40000000u
#define BPF_RKEY_MAP_MASK 0xffffu

/* Metadata tagpipe leaves in front of the packet (data_meta..data). */
#define BPF_TP_META_LEN ((uint32_t)sizeof(struct tp_xdp_meta))
/* Kernel limit on metadata: bpf_xdp_adjust_meta, net/core/filter.c. */
#define BPF_META_MAX 32

/* PERF_EVENT_ARRAY: one ring per lcore index, written only by that lcore
 * (bpf_perf_event_output), read by the control plane. Records: u32 length,
 * u32 zero, then the bytes, padded to 8. */
#define BPF_PERF_RING_SIZE (64u * 1024u)
struct bpf_perf_ring {
	uint64_t head;            /* bytes written (producer, release) */
	uint64_t tail;            /* bytes read (consumer, release) */
	uint64_t lost;            /* records that did not fit */
	uint8_t data[BPF_PERF_RING_SIZE];
};

/* Hash slot states (tp_bpf_map.state). */
enum { BPF_SLOT_EMPTY = 0, BPF_SLOT_USED = 1, BPF_SLOT_DELETED = 2 };

struct tp_bpf_map {
	char name[BPF_MAP_NAME_MAX];
	uint32_t type;            /* enum bpf_map_type */
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t ncpu;            /* value copies: per-CPU types, else 1 */
	uint32_t stride;          /* bytes per copy (value_size, 8-aligned for per-CPU) */
	uint8_t *values;          /* slots * ncpu * stride */
	size_t values_len;
	/* hash types: open addressing, `slots` entries */
	uint32_t slots;           /* power of two >= 2 * max_entries */
	uint32_t count;
	uint8_t *state;           /* per slot: BPF_SLOT_* */
	uint8_t *keys;            /* slots * key_size */
	uint8_t *ref;             /* LRU types: per slot, looked up since the
				   * clock hand last passed */
	uint32_t hand;            /* LRU types: the clock hand (a slot) */
	uint32_t btf_key, btf_value; /* BTF type ids in tp_bpf.btf; 0: none */
	uint32_t *plen_count;     /* LPM_TRIE: elements per prefix length */
	struct bpf_perf_ring *rings; /* PERF_EVENT_ARRAY: nrings of them */
	uint32_t nrings;
	struct bpf_ringbuf *rb;   /* RINGBUF (bpf_ringbuf.c) */
	/* ARRAY_OF_MAPS / HASH_OF_MAPS: the inner map template (BTF
	 * __array(values, ...)); values are inner map index + 1, 0 = empty */
	struct {
		uint32_t type, key_size, value_size, max_entries;
	} inner;
	rte_spinlock_t lock;      /* writers (programs and control plane) */
};

/* tagpipe's context in place of struct xdp_md: 64-bit pointers. The
 * program's 4-byte loads of xdp_md fields are rewritten into loads of
 * these (bpf_verify.c). */
struct bpf_xdp_ctx {
	uint64_t data;
	uint64_t data_end;
	uint64_t data_meta;
	uint32_t ingress_ifindex;
	uint32_t rx_queue_index;
	uint32_t egress_ifindex;
	uint32_t pad;
};

/* One memory region a program may touch besides packet, stack and ctx. */
struct bpf_region {
	uintptr_t base;
	size_t len;
};

enum bpf_counter {
	BPF_CNT_RUNS,
	BPF_CNT_OOB,              /* memory access outside every region */
	BPF_CNT_BAD_HELPER_ARG,   /* helper refused its arguments at run time */
	BPF_CNT_INSN_LIMIT,       /* loop budget (BPF_LOOP_BUDGET) exhausted */
	BPF_CNT_LINEARIZED,       /* chained frames made one buffer for a program
				   * that is not xdp.frags */
	BPF_CNT_MULTIBUF_DROP,    /* ... that did not fit one: dropped unrun */
	BPF_NB_COUNTERS,
};

/* Per-instruction facts from bpf_verify.c, used by the C code generator. */
#define BPF_IF_CTX_LOAD 0x01      /* rewritten load of struct bpf_xdp_ctx */
#define BPF_IF_REACHED  0x02      /* reachable from the entry */
#define BPF_IF_FUNC     0x04      /* first instruction of a function */
#define BPF_IF_CALLBACK 0x08      /* ... that is a bpf_loop callback */
/* bpf_loop (helper 181, kernel/bpf/bpf_iter.c): at most BPF_MAX_LOOPS
 * iterations (include/linux/bpf.h) */
#define BPF_LOOP_MAX_ITER (1u << 23)
/* What ld_imm64 of a function address (BPF_PSEUDO_FUNC) puts in its
 * register: this tag | the function's pc. Not an address (non-canonical
 * on x86-64), so a program that dereferences it is stopped (OOB). */
#define BPF_FUNC_ADDR_TAG 0xbf1f000000000000ull

struct bpf_run;
struct bpf_cg_ops;
struct bpf_jit;
struct bpf_ringbuf;
/* Reservations one run may hold at once (tpb_ringbuf_reserve gives NULL
 * beyond): a tagpipe limit, the kernel's is its verifier's. */
#define BPF_RB_MAX_OPEN 4
/* A compiled program (the JIT, bpf_jit_x86.c): runs rs[0..n) one after
 * the other, r0 of each into r0[]. The JIT's code calls the functions of
 * tpb_cg_ops that it found at translation; ops is not read. */
typedef void (*bpf_compiled_fn)(struct bpf_run *rs, uint16_t n, uint64_t *r0,
				const struct bpf_cg_ops *ops);

/* A program of the object: the selected one (index 0) and, when the
 * object has PROG_ARRAY maps, every other function of its executable
 * sections (tail-call targets). */
struct bpf_prog_ent {
	char name[64];
	char section[64];
	uint32_t entry;           /* pc in tp_bpf.insns */
	bool usable;              /* verified: may sit in a PROG_ARRAY */
	char note[BPF_ERR_LEN];   /* why not, when !usable */
};

struct tp_bpf {
	char path[256];
	char section[64];
	char func[64];
	struct bpf_insn *insns;   /* relocated and rewritten */
	uint32_t nb_insns;
	uint32_t entry;           /* pc of the selected function */
	bool frags;               /* section xdp.frags */
	bool reads_meta;          /* loads xdp_md.data_meta: fill tp_xdp_meta */
	bool has_loops;           /* a back-edge in some verified program */
	bool kernel_ok;           /* the kernel's verifier accepted it, as
				   * tagpipe loaded it (bpf_kverify.c):
				   * the JIT runs accesses unchecked */
	uint32_t loop_pc;         /* the first one found (for messages) */
	struct bpf_prog_ent progs[BPF_MAX_PROGS];
	uint32_t nb_progs;
	uint8_t *insn_flags;      /* BPF_IF_*, one per instruction */
	bpf_compiled_fn compiled; /* NULL: interpreter */
	struct bpf_jit *jit;      /* the JIT's image (bpf_jit_x86.c), or NULL */
	char mode_note[BPF_ERR_LEN + 16]; /* why the interpreter runs, when it does */
	bool interp_asked;        /* "bpf-interp": the interpreter by choice */
	char verify_note[BPF_ERR_LEN + 32]; /* what the kernel verifier said */
	struct tp_bpf_map maps[BPF_MAX_MAPS];
	uint32_t nb_maps;         /* user maps, then global data sections */
	struct bpf_region regions[BPF_MAX_MAPS];
	uint32_t nb_regions;
	uint64_t (*counters)[BPF_NB_COUNTERS]; /* per lcore index */
	uint32_t ncpu;
	struct bpf_lcore_runs *lruns; /* per lcore index < ncpu (prog_bpf.c) */
	struct bpf_fib *fib;      /* routes of bpf_fib_lookup; NULL: none yet */
	struct btf *btf;          /* the object's BTF (a copy), or NULL */
};

/* Per-run state. The JIT's code reads and writes it at the offsets the
 * C compiler gives (offsetof in bpf_jit_x86.c). */
struct bpf_run {
	struct bpf_xdp_ctx ctx;
	uint8_t *stack;           /* BPF_MAX_FRAMES * BPF_STACK_SIZE */
	uint64_t fault;           /* nonzero: stopped, see why */
	/* reset together after each run (prog_bpf.c): one 8-aligned word */
	uint32_t redirect_key;
	uint32_t tail_calls;      /* taken in this run (BPF_MAX_TAIL_CALLS) */
	uint32_t cpu;             /* per-CPU map slot (lcore index) */
	uint32_t loop_left;       /* backward jumps left (BPF_LOOP_BUDGET) */
	const struct tp_bpf *prog;
	struct rte_mbuf *m;
	enum bpf_counter why;
	/* RINGBUF records this run reserved and has not yet submitted or
	 * discarded (the kernel's verifier tracks them as references) */
	uint32_t rb_open;
	struct {
		void *sample;
		uint32_t size;
	} rb_rec[BPF_RB_MAX_OPEN];
};

/* What the JIT's code calls back into (never on packet or stack accesses). */
struct bpf_cg_ops {
	uint64_t (*helper)(struct bpf_run *rs, int32_t id, const uint64_t *r);
	int (*mem_slow)(struct bpf_run *rs, uint64_t addr, uint32_t size, int write);
	void (*oob)(struct bpf_run *rs);
	void (*loop_limit)(struct bpf_run *rs);
	/* bpf_map_lookup_elem without the argument checks, for programs
	 * the kernel's verifier accepted */
	uint64_t (*map_lookup)(struct bpf_run *rs, uint64_t map, uint64_t key);
};
extern const struct bpf_cg_ops tpb_cg_ops;

/* bpf_load.c: a libbpf print callback that prints nothing (libbpf's own
 * messages would duplicate the errors tagpipe gives; libbpf_set_print). */
int tpb_libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap);

/* bpf_load.c: ELF, maps, relocations. Fills p (zeroed by the caller). */
int tpb_load_object(struct tp_bpf *p, const char *path, const char *sel,
		    char *err, size_t errlen);

/* bpf_verify.c: structure, loops, registers, helper IDs, then the xdp_md
 * rewrite, for the selected program (0 or -EINVAL with err naming the
 * pc) and then every other program of p->progs (a failure only marks it
 * unusable as a tail-call target, with the reason in its note). Loops are
 * recorded in has_loops/loop_pc, not refused: the caller decides. */
int tpb_verify_and_rewrite(struct tp_bpf *p, char *err, size_t errlen);

/* bpf_map.c */
int tpb_map_init(struct tp_bpf_map *m, uint32_t ncpu, char *err, size_t errlen);
void tpb_map_fini(struct tp_bpf_map *m);
/* Datapath lookups of LRU maps mark the element used (value: what
 * tpb_map_lookup returned); control-plane lookups do not, as in the
 * kernel (htab_lru_map_lookup_elem_sys). */
void tpb_map_lru_touch(struct tp_bpf_map *m, const void *value);
/* Datapath: pointer to the value (cpu's copy), NULL on a miss. */
void *tpb_map_lookup(struct tp_bpf_map *m, const void *key, uint32_t cpu);
/* value: one copy (datapath) or ncpu copies (control plane, all_cpus). */
int tpb_map_update(struct tp_bpf_map *m, const void *key, const void *value,
		   uint64_t flags, uint32_t cpu, bool all_cpus);
int tpb_map_delete(struct tp_bpf_map *m, const void *key);
bool tpb_map_is_redirect(uint32_t type);
bool tpb_map_is_of_maps(uint32_t type);
/* Map inner may sit in map-in-map outer: 0, or -EINVAL with err why. */
int tpb_map_inner_ok(const struct tp_bpf_map *outer, const struct tp_bpf_map *inner,
		     char *err, size_t errlen);
bool tpb_map_is_percpu(uint32_t type);
/* Maps whose values no program may read or write (redirect targets,
 * PROG_ARRAY): not a memory region, no pointer handed out. */
bool tpb_map_is_opaque(uint32_t type);

/* bpf_ringbuf.c: the ring of a RINGBUF map (m->rb) and its helpers. */
int tpb_ringbuf_create(struct tp_bpf_map *m, char *err, size_t errlen);
void tpb_ringbuf_destroy(struct tp_bpf_map *m);
void *tpb_ringbuf_reserve(struct bpf_ringbuf *rb, uint64_t size);
void tpb_ringbuf_commit(void *sample, uint32_t size, bool discard, uint64_t flags);
int tpb_ringbuf_fd(struct bpf_ringbuf *rb);
void tpb_ringbuf_wake(struct bpf_ringbuf *rb);
uint64_t tpb_ringbuf_query(const struct bpf_ringbuf *rb, uint64_t flags);
int tpb_ringbuf_consume(struct bpf_ringbuf *rb, tp_bpf_ringbuf_fn fn, void *ctx);
uint64_t tpb_h_ringbuf_output(struct bpf_run *rs, uint64_t map, uint64_t data,
			      uint64_t size, uint64_t flags);
uint64_t tpb_h_ringbuf_reserve(struct bpf_run *rs, uint64_t map, uint64_t size,
			       uint64_t flags);
uint64_t tpb_h_ringbuf_commit(struct bpf_run *rs, uint64_t sample, uint64_t flags,
			      bool discard);
uint64_t tpb_h_ringbuf_query(struct bpf_run *rs, uint64_t map, uint64_t flags);

/* bpf_printk.c: bpf_trace_printk(fmt, fmt_size, args[0..2]) to the
 * tagpipe.bpf log type. */
uint64_t tpb_h_trace_printk(struct bpf_run *rs, uint64_t fmt_addr, uint64_t fmt_size,
			    const uint64_t args[3]);
/* End of a run that still holds reservations (a program the kernel would
 * refuse: "Unreleased reference", or one stopped midway): discards them
 * and faults the run if nothing else did. */
void tpb_ringbuf_abandon(struct bpf_run *rs);

/* bpf_kverify.c: load the selected program into the kernel once (verifier
 * only) and release it; loaded: p's instructions as tpb_load_object() left
 * them, before the rewrite. 0 verified, -EINVAL rejected (err: the
 * verifier's last lines), other negative: the kernel could not be asked,
 * or libbpf reads the file otherwise than tagpipe (err: why). */
int tpb_kernel_verify(const struct tp_bpf *p, const struct bpf_insn *loaded, char *err,
		      size_t errlen);

/* bpf_printk.c: log type tagpipe.bpf (trace_printk lines, open and
 * fallback reports). */
extern int tp_bpf_logtype;

/* prog_bpf.c: the word for how compiled programs run ("jit"), in
 * every report (tp_prog_bpf_describe, tp_prog_bpf_exec_info). */
const char *tpb_exec_word(void);

/* bpf_jit_x86.c: translate to x86-64 machine code in memory (p->compiled,
 * p->jit). 0, or negative with err saying why (the caller falls back to
 * the interpreter): -ENOTSUP on other architectures. */
int tpb_compile(struct tp_bpf *p, char *err, size_t errlen);
void tpb_compiled_free(struct tp_bpf *p);

/* bpf_exec.c, for the JIT: helpers with one fixed ABI, r1..r5 then the
 * run -- the order in which the x86-64 System V ABI passes arguments in
 * rdi, rsi, rdx, rcx, r8, r9, where the JIT keeps r1..r5 -- so a call
 * needs no argument moves. NULL: the helper has no direct entry; the
 * JIT then calls tpb_cg_ops.helper (the dispatcher). */
typedef uint64_t (*bpf_helper_fn)(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
				  uint64_t r5, struct bpf_run *rs);
bpf_helper_fn tpb_helper_direct(int32_t id);
/* bpf_map_lookup_elem for programs the kernel's verifier accepted: r1 is
 * one of the object's maps, r2 a readable key (no argument checks). */
uint64_t tpb_map_lookup_proven(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
			       uint64_t r5, struct bpf_run *rs);

/* bpf_exec.c: run the program on one packet; returns r0. */
uint64_t tpb_run(struct bpf_run *rs);
/* bpf_loop's callback: the pc of the callback function value fn names
 * when it names one and a frame is left below r10, else -1. */
int64_t tpb_loop_callback(const struct bpf_run *rs, uint64_t fn, uint64_t r10);
/* For helpers outside bpf_exec.c: the map handle r (NULL if none), a
 * fault (returns 0), the bounds check of a buffer the helper reads. */
struct tp_bpf_map *tpb_run_map(struct bpf_run *rs, uint64_t r);
uint64_t tpb_run_fault(struct bpf_run *rs, enum bpf_counter why);
bool tpb_run_mem_ok(const struct bpf_run *rs, uint64_t addr, uint32_t size);
bool tpb_run_mem_writable(const struct bpf_run *rs, uint64_t addr, uint32_t size);

/* bpf_btf.c: keys and values as BTF types (integers, enums, bitfields,
 * char arrays as strings, nested structs and arrays of them). parse: 0,
 * or -1 when the text is not a value of type id of size bytes; print: 0,
 * or -1 when the type cannot be printed. */
int tpb_btf_parse(const struct btf *btf, uint32_t id, const char *s, size_t len,
		  uint8_t *out, uint32_t size);
int tpb_btf_print(const struct btf *btf, uint32_t id, const void *data, uint32_t size,
		  FILE *f);
bool tpb_btf_typed(const struct btf *btf, uint32_t id);

/* bpf_fib.c: the route table of bpf_fib_lookup (tp_prog_bpf_route_add). */
struct bpf_fib;
int tpb_fib_add(struct tp_bpf *p, const char *spec, char *err, size_t errlen);
void tpb_fib_free(struct tp_bpf *p);
uint64_t tpb_h_fib_lookup(struct bpf_run *rs, uint64_t params, uint64_t plen,
			  uint64_t flags);
/* Helpers known to the runtime: argument count, or -1 when unsupported. */
int tpb_helper_nargs(int32_t id);
/* 1 when helper id takes the context as its first argument. */
bool tpb_helper_takes_ctx(int32_t id);

/* prog_bpf.c: map index of b as "KEY=VALUE" hex lines (the text of
 * tp_prog_bpf_map_dump): the number of lines, or -EINVAL. */
int tpb_obj_map_dump(const struct tp_bpf *b, int index, FILE *f);

/* bpf_telemetry.c: the open objects the /tagpipe/bpf_map endpoint reads
 * (added once opened, removed before they are freed). */
void tpb_telemetry_add(struct tp_bpf *b);
void tpb_telemetry_del(struct tp_bpf *b);

#endif /* TP_BPF_PRIV_H */
