/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the eBPF runtime's two execution modes against each other.
 * Each input is a program (built by a structured generator, or a raw
 * instruction stream such as a tests/bpf object's, see gen_corpus.py) and
 * a few frames. The program is checked as an opened object is
 * (tpb_insns_open: tagpipe's checker, the --bpf-unverified reading), so
 * the checker is fuzzed too: whatever it gets, it refuses with a message
 * or accepts. An accepted program runs on each frame in the interpreter
 * (bpf_exec.c, the reference) and compiled (tpb_compile(), whatever
 * implements it) from the same state, and r0, the fault and its counter,
 * the redirect key, the tail calls, the loop budget, the packet's bytes
 * and geometry and every map must be the same (tests/bpf/bpf_diff.h).
 * Any difference aborts with what differed and the program.
 *
 * Input: [flags][len_hi][len_lo][burst (fuzz.h layout), up to 3 frames]
 * then the program bytes. flags bit 0: raw (the program bytes are
 * [n][n x entry pc, u16 LE][instructions, 8 bytes each]; n other programs
 * are tail-call targets); else the generator reads them (gen_*()).
 * flags bit 1: run as lcore index 1 (per-CPU maps); bit 2: a budget of
 * 64 backward jumps (else 4096) for programs with loops.
 *
 * Maps (fixed, the same for every program; map index = position here):
 * an ARRAY, a HASH, a PERCPU_ARRAY, an LRU_HASH, a one-entry ".data"
 * ARRAY (for BPF_PSEUDO_MAP_IDX_VALUE), a DEVMAP, a PROG_ARRAY and an
 * LPM_TRIE, each with a few elements set before the first frame.
 *
 * Compiled runs cost what tpb_compile() costs. TP_FUZZ_XBPF_COMPILE=N
 * compares one accepted program in N (default 1: all; 0: none, the
 * interpreter alone, run twice from the same state as a check of this
 * harness). At exit the target prints how many programs the checker
 * accepted and how many were compared, and fails when inputs ran but
 * nothing was compared.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf_diff.h"
#include "bpf_insns.h"
#include "fuzz.h"

#define XF_MAX_FRAMES 3
#define XF_MAX_INSNS 2048
#define XF_NCPU 2

enum { M_ARR, M_HASH, M_PCPU, M_LRU, M_DATA, M_DEV, M_JMP, M_LPM, XF_NMAPS };

static const struct bpf_insns_map xf_maps[XF_NMAPS] = {
	[M_ARR] = { "arr", BPF_MAP_TYPE_ARRAY, 4, 16, 4 },
	[M_HASH] = { "hash", BPF_MAP_TYPE_HASH, 8, 16, 8 },
	[M_PCPU] = { "pcpu", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 2 },
	[M_LRU] = { "lru", BPF_MAP_TYPE_LRU_HASH, 4, 8, 4 },
	[M_DATA] = { ".data", BPF_MAP_TYPE_ARRAY, 4, 64, 1 },
	[M_DEV] = { "dev", BPF_MAP_TYPE_DEVMAP, 4, 4, 4 },
	[M_JMP] = { "jmp", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4 },
	[M_LPM] = { "lpm", BPF_MAP_TYPE_LPM_TRIE, 8, 8, 8 },
};

static struct {
	uint64_t inputs, refused, accepted, nondet, compared, compared_runs, faulted_runs;
	uint64_t uncompared_cuts; /* runs that freed chain segments (bpf_diff.h) */
	uint64_t interp_only, compile_every;
	bool compile_ok;
	int verbose;
	char compile_note[BPF_ERR_LEN + 32];
} st;

/* ---- the generator ------------------------------------------------------ */

enum { F_MAIN, F_SUB, F_CB, F_TAIL, F_N };

struct gen {
	const uint8_t *in;
	size_t left;
	struct bpf_insn *ins;
	uint32_t len, cap;
	uint16_t set;             /* registers that may be read */
	bool ctx;                 /* r6 holds the context */
	int fn;                   /* F_* being generated */
	bool has[F_N];            /* functions the program has */
	uint32_t start[F_N];
	struct { uint32_t at, target; uint16_t set; } jmp[512];
	uint32_t njmp;
	struct { uint32_t at; int fn; } fix[256]; /* calls, function addresses */
	uint32_t nfix;
};

static uint8_t
u8(struct gen *g)
{
	if (g->left == 0)
		return 0;
	g->left--;
	return *g->in++;
}

static int32_t
imm32(struct gen *g)
{
	static const int32_t special[16] = {
		0, 1, -1, 2, 4, 7, 8, 16, 31, 32, 63, 64, INT32_MAX, INT32_MIN, 0xffff, -8,
	};
	uint8_t b = u8(g);

	if (b < 128)
		return special[b & 15];
	if (b < 224)
		return (int8_t)u8(g);
	return (int32_t)((uint32_t)u8(g) | (uint32_t)u8(g) << 8 | (uint32_t)u8(g) << 16 |
			 (uint32_t)u8(g) << 24);
}

#define R(r) ((uint16_t)(1u << (r)))

/* Before an operation at g->len: pending jumps that land here, or inside
 * the operations before (retargeted here: an operation's instructions run
 * together, so that what one sets the next may read), join their
 * register sets. */
static void
join(struct gen *g)
{
	for (uint32_t k = 0; k < g->njmp;) {
		if (g->jmp[k].target <= g->len) {
			g->ins[g->jmp[k].at].off = (int16_t)(g->len - g->jmp[k].at - 1);
			g->set &= g->jmp[k].set;
			g->jmp[k] = g->jmp[--g->njmp];
		} else {
			k++;
		}
	}
}

static bool
room(const struct gen *g, uint32_t n)
{
	return g->len + n + 8 <= g->cap; /* 8: the epilogue */
}

static void
put(struct gen *g, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	g->ins[g->len++] = (struct bpf_insn){ .code = code, .dst_reg = dst, .src_reg = src,
					      .off = off, .imm = imm };
}

static void
put_ld64(struct gen *g, uint8_t dst, uint8_t src, uint64_t v)
{
	put(g, BPF_LD | BPF_IMM | BPF_DW, dst, src, 0, (int32_t)(uint32_t)v);
	g->ins[g->len++] = (struct bpf_insn){ .imm = (int32_t)(uint32_t)(v >> 32) };
	g->set |= R(dst);
}

static void
mov_imm(struct gen *g, uint8_t dst, int32_t imm)
{
	put(g, BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm);
	g->set |= R(dst);
}

static void
mov_reg(struct gen *g, uint8_t dst, uint8_t src)
{
	put(g, BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0);
	g->set |= R(dst);
}

/* A forward jump over `over` instructions at most (retargeted to the
 * epilogue when the function ends first). */
static void
put_jmp(struct gen *g, uint8_t code, uint8_t dst, uint8_t src, int32_t imm, uint32_t over)
{
	put(g, code, dst, src, 0, imm);
	if (g->njmp < RTE_DIM(g->jmp)) {
		g->jmp[g->njmp].at = g->len - 1;
		g->jmp[g->njmp].target = g->len + over;
		g->jmp[g->njmp].set = g->set;
		g->njmp++;
	} else {
		g->ins[g->len - 1].off = 0;
	}
}

/* A register the program may write: not r10, not r6 while it holds the
 * context. */
static uint8_t
pick_dst(struct gen *g)
{
	static const uint8_t ctxfn[9] = { 0, 1, 2, 3, 4, 5, 7, 8, 9 };
	uint8_t b = u8(g);

	return g->ctx ? ctxfn[b % 9] : (uint8_t)(b % 10);
}

/* A readable register other than the context (r10 included); -1: none. */
static int
pick_src(struct gen *g)
{
	uint16_t ok = (uint16_t)(g->set & ~(g->ctx ? R(6) : 0));
	uint8_t b = u8(g);

	for (unsigned int k = 0; k < 11; k++) {
		unsigned int r = (b + k) % 11;

		if (ok & R(r))
			return (int)r;
	}
	return -1;
}

static void
call_fix(struct gen *g, int fn)
{
	if (g->nfix < RTE_DIM(g->fix)) {
		g->fix[g->nfix].at = g->len - 1;
		g->fix[g->nfix].fn = fn;
		g->nfix++;
	}
}

/* After a helper or BPF-to-BPF call: r1..r5 are scratched (the checker
 * refuses reading them), r0 holds the result. */
static void
after_call(struct gen *g)
{
	g->set &= (uint16_t)~(R(1) | R(2) | R(3) | R(4) | R(5));
	g->set |= R(0);
}

static const uint8_t alu_ops[13] = {
	BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR, BPF_AND, BPF_LSH, BPF_RSH, BPF_NEG,
	BPF_MOD, BPF_XOR, BPF_MOV, BPF_ARSH,
};
static const uint8_t jmp_ops[11] = {
	BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET, BPF_JNE, BPF_JSGT, BPF_JSGE, BPF_JLT,
	BPF_JLE, BPF_JSLT, BPF_JSLE,
};
static const uint8_t sizes[4] = { BPF_B, BPF_H, BPF_W, BPF_DW };
static const int32_t atomic_ops[10] = {
	BPF_ADD, BPF_ADD | BPF_FETCH, BPF_OR, BPF_OR | BPF_FETCH, BPF_AND,
	BPF_AND | BPF_FETCH, BPF_XOR, BPF_XOR | BPF_FETCH, BPF_XCHG, BPF_CMPXCHG,
};

static void
gen_alu(struct gen *g)
{
	uint8_t b = u8(g), op = alu_ops[u8(g) % 13], dst = pick_dst(g);
	uint8_t cls = (b & 1) ? BPF_ALU64 : BPF_ALU;
	int src = (b & 2) ? pick_src(g) : -1;
	int32_t imm = imm32(g);

	if (!(g->set & R(dst)))
		op = BPF_MOV;
	if (op == BPF_NEG) {
		put(g, cls | BPF_NEG, dst, 0, 0, 0);
	} else if (src >= 0) {
		put(g, cls | op | BPF_X, dst, (uint8_t)src, 0, 0);
	} else {
		/* constant shifts in range and constant divisors not zero,
		 * most of the time (the checker refuses the others) */
		if ((op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) && (b & 0xfc) != 0xfc)
			imm &= cls == BPF_ALU64 ? 63 : 31;
		if ((op == BPF_DIV || op == BPF_MOD) && imm == 0 && (b & 0xfc) != 0xfc)
			imm = 3;
		put(g, cls | op | BPF_K, dst, 0, 0, imm);
	}
	g->set |= R(dst);
}

static void
gen_end(struct gen *g)
{
	static const int32_t w[3] = { 16, 32, 64 };
	uint8_t b = u8(g), dst = pick_dst(g);

	if (!(g->set & R(dst)))
		mov_imm(g, dst, imm32(g));
	put(g, BPF_ALU | BPF_END | ((b & 1) ? BPF_TO_BE : BPF_TO_LE), dst, 0, 0,
	    w[(b >> 1) % 3]);
}

static int16_t
stack_off(struct gen *g, uint8_t size)
{
	uint8_t b = u8(g);
	int off = -8 * (1 + (b & 63));

	if (b & 0x40)
		off += (int)(u8(g) & 7) & ~((1 << (size >> 3)) - 1); /* aligned inside */
	if ((b & 0xc0) == 0xc0)
		off = (int8_t)u8(g); /* anywhere near the frame pointer */
	return (int16_t)off;
}

/* A load, store or atomic through base at off. */
static void
gen_access(struct gen *g, uint8_t base, int16_t off)
{
	uint8_t b = u8(g), size = sizes[(b >> 2) & 3];
	int src;


	switch (b & 3) {
	case 0: {
		uint8_t dst = pick_dst(g);

		put(g, BPF_LDX | BPF_MEM | size, dst, base, off, 0);
		g->set |= R(dst);
		break;
	}
	case 1:
		put(g, BPF_ST | BPF_MEM | size, base, 0, off, imm32(g));
		break;
	case 2:
		src = pick_src(g);
		if (src < 0)
			break;
		put(g, BPF_STX | BPF_MEM | size, base, (uint8_t)src, off, 0);
		break;
	default:
		src = pick_src(g);
		if (src < 0 || (src == BPF_REG_10 && (b & 0xe0) != 0xe0))
			break; /* (a fetch into r10 is refused) */
		/* aligned, as atomics must be, but for one in eight */
		if ((b & 0xe0) != 0xe0)
			off &= (b & 16) ? ~7 : ~3;
		put(g, BPF_STX | BPF_ATOMIC | ((b & 16) ? BPF_DW : BPF_W), base, (uint8_t)src,
		    off, atomic_ops[(b >> 5) % 10]);
		if (atomic_ops[(b >> 5) % 10] == BPF_CMPXCHG)
			g->set |= R(0);
		break;
	}
}

static void
gen_stack(struct gen *g)
{
	uint8_t b = u8(g);

	gen_access(g, BPF_REG_10, stack_off(g, sizes[b & 3]));
}

/* A register of its own (not r6 with the context, not base) */
static uint8_t
other_reg(struct gen *g, uint8_t avoid)
{
	uint8_t r = pick_dst(g);

	if (r == avoid)
		r = r == 9 ? 8 : 9;
	return r;
}

static void
gen_packet(struct gen *g)
{
	uint8_t b = u8(g), p = pick_dst(g), n = 1 + (b & 3);

	if (!g->ctx)
		return;
	put(g, BPF_LDX | BPF_MEM | BPF_W, p, 6, (b & 4) ? 8 : 0, 0); /* data or data_meta */
	g->set |= R(p);
	if (b & 0x80) {
		/* the verifier's pattern: p + off + size <= data_end */
		uint8_t e = other_reg(g, p), t = other_reg(g, p);
		int16_t off = (int16_t)(u8(g) % 72);

		if (t == e)
			t = e == 7 ? 8 : 7;
		if (t == p)
			t = p == 2 ? 3 : 2;
		put(g, BPF_LDX | BPF_MEM | BPF_W, e, 6, 4, 0);
		mov_reg(g, t, p);
		put(g, BPF_ALU64 | BPF_ADD | BPF_K, t, 0, 0, off + 8);
		g->set |= R(e);
		put_jmp(g, BPF_JMP | BPF_JGT | BPF_X, t, e, 0, n);
		for (unsigned int k = 0; k < n; k++)
			gen_access(g, p, (int16_t)(off + (u8(g) & 7)));
		return;
	}
	/* several accesses through one base in one block: compiled code may
	 * check their span once */
	for (unsigned int k = 0; k <= n; k++) {
		uint8_t o = u8(g);

		/* mostly inside a minimum frame, sometimes anywhere near */
		gen_access(g, p, (o & 0xc0) == 0xc0 ? (int16_t)(int8_t)u8(g) : (int16_t)(o % 56));
	}
}

static void
gen_ctx(struct gen *g)
{
	static const int16_t offs[8] = { 0, 4, 8, 12, 16, 0, 4, 12 };
	uint8_t b = u8(g), dst = pick_dst(g);

	if (!g->ctx)
		return;
	if (b == 0xff)  /* what the checker refuses: other sizes and fields */
		put(g, BPF_LDX | BPF_MEM | sizes[u8(g) & 3], dst, 6, (int16_t)(u8(g) % 24), 0);
	else
		put(g, BPF_LDX | BPF_MEM | BPF_W, dst, 6, offs[b & 7], 0);
	g->set |= R(dst);
}

static void
key_on_stack(struct gen *g, uint8_t map)
{
	uint8_t b = u8(g);

	if (map == M_LPM) {
		put(g, BPF_ST | BPF_MEM | BPF_W, 10, 0, -8, (b & 1) ? 32 : (b >> 1) % 40);
		put(g, BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, (int32_t)(0x0000000a | (b & 0xf0) << 12));
	} else if (xf_maps[map].key_size == 8) {
		put(g, BPF_ST | BPF_MEM | BPF_DW, 10, 0, -8, b % 6);
	} else {
		put(g, BPF_ST | BPF_MEM | BPF_W, 10, 0, -8, b % 6);
	}
}

static void
map_handle(struct gen *g, uint8_t reg, uint8_t map)
{
	put_ld64(g, reg, BPF_PSEUDO_MAP_IDX, map);
}

static void
gen_map(struct gen *g)
{
	uint8_t b = u8(g), map = u8(g) % XF_NMAPS;

	if (!room(g, 16))
		return;
	key_on_stack(g, map);
	switch (b & 3) {
	case 0: case 1: {
		uint8_t n = 1 + (u8(g) & 3);

		map_handle(g, 1, map);
		put(g, BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
		put(g, BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, (b & 0x80) ? -4 : -8);
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
		after_call(g);
		if ((b & 0x70) != 0) /* the null check, almost always */
			put_jmp(g, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 0, n);
		for (unsigned int k = 0; k < n; k++)
			gen_access(g, 0, (int16_t)(u8(g) % 20));
		break;
	}
	case 2:
		put(g, BPF_ST | BPF_MEM | BPF_DW, 10, 0, -32, imm32(g));
		put(g, BPF_ST | BPF_MEM | BPF_DW, 10, 0, -24, imm32(g));
		map_handle(g, 1, map);
		mov_reg(g, 2, 10);
		put(g, BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -8);
		mov_reg(g, 3, 10);
		put(g, BPF_ALU64 | BPF_ADD | BPF_K, 3, 0, 0, -32);
		mov_imm(g, 4, (b >> 2) % 4); /* BPF_ANY, NOEXIST, EXIST, bad */
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_update_elem);
		after_call(g);
		break;
	default:
		map_handle(g, 1, map);
		mov_reg(g, 2, 10);
		put(g, BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -8);
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_delete_elem);
		after_call(g);
		break;
	}
}

/* Global data: a pointer into ".data" (ld_imm64 of a map value). */
static void
gen_data(struct gen *g)
{
	uint8_t b = u8(g), r = pick_dst(g);

	put(g, BPF_LD | BPF_IMM | BPF_DW, r, BPF_PSEUDO_MAP_IDX_VALUE, 0, M_DATA);
	g->ins[g->len++] = (struct bpf_insn){ .imm = b % 64 };
	g->set |= R(r);
	b = u8(g);
	gen_access(g, r, (b & 0xe0) == 0xe0 ? (int16_t)(int8_t)b : (int16_t)(b & 7));
}

/* A pointer to the stack in another register, then accesses through it. */
static void
gen_stack_ptr(struct gen *g)
{
	uint8_t r = pick_dst(g), n = 1 + (u8(g) & 3);

	mov_reg(g, r, 10);
	put(g, BPF_ALU64 | BPF_ADD | BPF_K, r, 0, 0, -8 * (1 + (u8(g) & 31)));
	for (unsigned int k = 0; k < n; k++)
		gen_access(g, r, (int16_t)(8 * ((int8_t)u8(g) % 4)));
}

static void
gen_jmp(struct gen *g)
{
	uint8_t b = u8(g), op = jmp_ops[u8(g) % 11];
	uint8_t cls = (b & 1) ? BPF_JMP : BPF_JMP32;
	int dst = pick_src(g), src = (b & 2) ? pick_src(g) : -1;
	uint32_t over = u8(g) % 12;

	if (dst < 0)
		return;
	if (b == 0xfe) {
		put_jmp(g, BPF_JMP | BPF_JA, 0, 0, 0, over);
		return;
	}
	if (src >= 0)
		put_jmp(g, cls | op | BPF_X, (uint8_t)dst, (uint8_t)src, 0, over);
	else
		put_jmp(g, cls | op | BPF_K, (uint8_t)dst, 0, imm32(g), over);
}

/* r<reg> = a pointer: to the stack, into the packet, or a scalar. */
static void
arg_ptr(struct gen *g, uint8_t reg)
{
	uint8_t b = u8(g);

	if ((b & 3) == 0 && g->ctx) {
		put(g, BPF_LDX | BPF_MEM | BPF_W, reg, 6, 0, 0);
		put(g, BPF_ALU64 | BPF_ADD | BPF_K, reg, 0, 0, (b >> 2) % 32);
	} else if ((b & 7) == 1) {
		mov_imm(g, reg, imm32(g));
	} else {
		mov_reg(g, reg, 10);
		put(g, BPF_ALU64 | BPF_ADD | BPF_K, reg, 0, 0, -8 * (1 + (b >> 2) % 16));
	}
	g->set |= R(reg);
}

static void
gen_helper(struct gen *g)
{
	uint8_t b = u8(g), h = b % 14;

	if (!room(g, 16))
		return;
	if (h >= 7 && !g->ctx)
		h = h % 7;
	switch (h) {
	case 0:
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_smp_processor_id);
		break;
	case 1:
		mov_imm(g, 1, u8(g) % 6);
		mov_imm(g, 2, (u8(g) & 7) == 7);
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_redirect);
		break;
	case 2:
		map_handle(g, 1, (u8(g) & 7) ? M_DEV : u8(g) % XF_NMAPS);
		mov_imm(g, 2, u8(g) % 6);
		mov_imm(g, 3, u8(g) % 6);
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_redirect_map);
		break;
	case 3: case 4:
		arg_ptr(g, 1);
		mov_imm(g, 2, 4 * (u8(g) % 5) + ((u8(g) & 15) == 15));
		arg_ptr(g, 3);
		mov_imm(g, 4, 4 * (u8(g) % 5));
		mov_imm(g, 5, imm32(g));
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_csum_diff);
		break;
	case 5: case 6:
		/* BPF-to-BPF call, a bpf_loop, a tail call: in the next switch */
		break;
	case 7:
		mov_reg(g, 1, 6);
		mov_imm(g, 2, (int8_t)u8(g) / 2);
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_xdp_adjust_head);
		break;
	case 8:
		mov_reg(g, 1, 6);
		mov_imm(g, 2, -4 * (int)(u8(g) % 10) + 8);
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_xdp_adjust_meta);
		break;
	case 9:
		mov_reg(g, 1, 6);
		mov_imm(g, 2, (int8_t)u8(g));
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_xdp_adjust_tail);
		break;
	case 10:
		mov_reg(g, 1, 6);
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_xdp_get_buff_len);
		break;
	case 11: case 12:
		mov_reg(g, 1, 6);
		mov_imm(g, 2, u8(g) % 80);
		arg_ptr(g, 3);
		mov_imm(g, 4, 1 + u8(g) % 40);
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, h == 11 ? BPF_FUNC_xdp_load_bytes :
		    BPF_FUNC_xdp_store_bytes);
		break;
	default:
		mov_reg(g, 1, 6);
		mov_reg(g, 2, 10);
		put(g, BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -64);
		put(g, BPF_ST | BPF_MEM | BPF_B, 10, 0, -64, (u8(g) & 1) ? 2 : 10); /* family */
		put(g, BPF_ST | BPF_MEM | BPF_W, 10, 0, -56, u8(g) % 3);  /* ifindex */
		mov_imm(g, 3, 64);
		mov_imm(g, 4, u8(g) % 4);
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_fib_lookup);
		break;
	}
	if (h == 5 || h == 6)
		return;
	after_call(g);
}

/* Calls between functions: a BPF-to-BPF call, bpf_loop, a tail call. */
static void
gen_call(struct gen *g)
{
	uint8_t b = u8(g);

	if (!room(g, 12) || !g->ctx)
		return;
	switch (b % 3) {
	case 0:
		if (!g->has[F_SUB] || g->fn == F_SUB)
			return;
		mov_reg(g, 1, 6);
		for (uint8_t r = 2; r <= 5; r++) {
			if (u8(g) & 1)
				arg_ptr(g, r);
			else
				mov_imm(g, r, imm32(g));
		}
		put(g, BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, -1);
		call_fix(g, F_SUB);
		break;
	case 1:
		if (!g->has[F_CB])
			return;
		mov_imm(g, 1, (b & 0x80) ? (1 << 24) : (b >> 2) % 6);
		put(g, BPF_LD | BPF_IMM | BPF_DW, 2, BPF_PSEUDO_FUNC, 0, -1);
		call_fix(g, F_CB);
		g->ins[g->len++] = (struct bpf_insn){ 0 };
		arg_ptr(g, 3);
		mov_imm(g, 4, (b & 0x7c) == 0x7c);
		g->set |= R(2);
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_loop);
		break;
	default:
		if (!g->has[F_TAIL])
			return;
		mov_reg(g, 1, 6);
		map_handle(g, 2, (b & 0x80) ? M_ARR : M_JMP);
		mov_imm(g, 3, (b >> 2) % 5);
		put(g, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_tail_call);
		break;
	}
	after_call(g);
}

static void
gen_body(struct gen *g, unsigned int max_ops)
{
	for (unsigned int k = 0; k < max_ops && g->left > 0 && room(g, 24); k++) {
		uint8_t op = u8(g);

		join(g);
		if (op == 0xff && u8(g) == 0xa5) {
			/* a raw instruction: mostly what the checker refuses */
			uint8_t code = u8(g), regs = u8(g);
			int16_t off = (int16_t)(u8(g) | u8(g) << 8);

			put(g, code, regs & 15, regs >> 4, off, imm32(g));
			continue;
		}
		switch (op % 12) {
		case 0: case 1: case 2: gen_alu(g); break;
		case 3: gen_end(g); break;
		case 4: gen_stack(g); break;
		case 5: gen_packet(g); break;
		case 6: gen_ctx(g); break;
		case 7: gen_map(g); break;
		case 8: gen_data(g); break;
		case 9: gen_jmp(g); break;
		case 10: gen_helper(g); break;
		default:
			if (op & 0x10)
				gen_stack_ptr(g);
			else
				gen_call(g);
			break;
		}
	}
}

/* One function: prologue (registers set, the context kept in r6),
 * body, epilogue (main and tail: r7..r9 stored into .data, which the
 * map comparison sees). */
static void
gen_function(struct gen *g, int fn, unsigned int max_ops)
{
	g->fn = fn;
	g->start[fn] = g->len;
	g->njmp = 0;
	g->ctx = fn != F_CB;
	g->set = R(10) | R(1);
	if (fn == F_SUB)
		g->set |= R(2) | R(3) | R(4) | R(5);
	if (fn == F_CB)
		g->set |= R(2);
	if (g->ctx) {
		mov_reg(g, 6, 1);
		mov_imm(g, 1, imm32(g));
	}
	mov_imm(g, 0, imm32(g));
	for (uint8_t r = 2; r <= 9; r++)
		if (r != 6 || !g->ctx)
			if (!(g->set & R(r)))
				mov_imm(g, r, imm32(g));
	gen_body(g, max_ops);
	/* jumps past the end land on the epilogue */
	for (uint32_t k = 0; k < g->njmp; k++)
		g->jmp[k].target = g->len;
	join(g);
	if (fn == F_MAIN || fn == F_TAIL) {
		put_ld64(g, 1, BPF_PSEUDO_MAP_IDX_VALUE, M_DATA);
		g->ins[g->len - 1].imm = fn == F_MAIN ? 32 : 40;
		for (uint8_t r = 7; r <= 9; r++)
			if (g->set & R(r))
				put(g, BPF_STX | BPF_MEM | (r == 7 ? BPF_DW : BPF_W), 1, r,
				    (int16_t)(r == 7 ? 0 : 4 * (r - 6)), 0);
	} else if (fn == F_CB) {
		put(g, BPF_ALU64 | BPF_AND | BPF_K, 0, 0, 0, 1);
	}
	put(g, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/* The program from the generator's bytes: main, then the functions the
 * first byte asks for. Returns the instruction count; entries[0] the
 * tail program's start when it has one. */
static uint32_t
generate(const uint8_t *in, size_t n, struct bpf_insn *ins, uint32_t *entries,
	 uint32_t *nentries)
{
	struct gen *g = calloc(1, sizeof(*g));
	uint8_t has;
	uint32_t len;

	FUZZ_CHECK(g != NULL);
	g->in = in;
	g->left = n;
	g->ins = ins;
	g->cap = XF_MAX_INSNS;
	has = u8(g);
	g->has[F_MAIN] = true;
	g->has[F_SUB] = has & 1;
	g->has[F_CB] = has & 2;
	g->has[F_TAIL] = has & 4;
	gen_function(g, F_MAIN, 48);
	for (int fn = F_SUB; fn < F_N; fn++)
		if (g->has[fn])
			gen_function(g, fn, 12);
	for (uint32_t k = 0; k < g->nfix; k++) {
		struct bpf_insn *i = &ins[g->fix[k].at];

		i->imm = (int32_t)((int64_t)g->start[g->fix[k].fn] - g->fix[k].at - 1);
	}
	*nentries = 0;
	if (g->has[F_TAIL])
		entries[(*nentries)++] = g->start[F_TAIL];
	len = g->len;
	free(g);
	return len;
}

/* ---- running ------------------------------------------------------------ */

/* The maps' starting contents: a few elements in each. */
static void
fill_maps(struct tp_bpf *p)
{
	uint64_t v[2 * XF_NCPU];

	for (uint32_t k = 0; k < p->nb_maps; k++) {
		struct tp_bpf_map *m = &p->maps[k];

		if (m->type == BPF_MAP_TYPE_ARRAY || m->type == BPF_MAP_TYPE_PERCPU_ARRAY)
			for (size_t i = 0; i < m->values_len; i++)
				m->values[i] = (uint8_t)(i * 13 + k);
	}
	for (uint64_t key = 0; key < 3; key++) {
		uint32_t k32 = (uint32_t)key, slot = (uint32_t)key + 1;

		v[0] = 0x1111111111111111ull * (key + 1);
		v[1] = ~v[0];
		v[2] = v[0] + 1;
		v[3] = v[1] + 1;
		FUZZ_CHECK(tpb_map_update(&p->maps[M_HASH], &key, v, 0, 0, true) == 0);
		if (key < 2)
			FUZZ_CHECK(tpb_map_update(&p->maps[M_LRU], &k32, v, 0, 0, true) == 0);
		FUZZ_CHECK(tpb_map_update(&p->maps[M_DEV], &k32, &slot, 0, 0, true) == 0);
	}
	{
		/* 10.0.0.0/8 and 10.1.0.0/16 (key: prefix length, then data) */
		uint8_t k1[8] = { 8, 0, 0, 0, 10, 0, 0, 0 }, k2[8] = { 16, 0, 0, 0, 10, 1, 0, 0 };

		FUZZ_CHECK(tpb_map_update(&p->maps[M_LPM], k1, v, 0, 0, true) == 0);
		FUZZ_CHECK(tpb_map_update(&p->maps[M_LPM], k2, v + 1, 0, 0, true) == 0);
	}
	/* the tail program in slots 0 and 2 (prog_bpf.c stores number + 1) */
	for (uint32_t prog = 1; prog < p->nb_progs && prog < 2; prog++) {
		uint32_t one = prog + 1;

		for (uint32_t slot = 0; slot < 4; slot += 2)
			if (p->progs[prog].usable)
				FUZZ_CHECK(tpb_map_update(&p->maps[M_JMP], &slot, &one, 0, 0,
							  true) == 0);
	}
}

static void
dump_program(const struct tp_bpf *p)
{
	fprintf(stderr, "xbpf: the program as checked and rewritten (%u instructions, "
		"%s loops):\n", p->nb_insns, p->has_loops ? "with" : "no");
	for (uint32_t pc = 0; pc < p->nb_insns; pc++) {
		const struct bpf_insn *i = &p->insns[pc];

		fprintf(stderr, "  %4u: %02x %u %u %6d %11d%s\n", pc, i->code, i->dst_reg,
			i->src_reg, i->off, i->imm,
			(p->insn_flags[pc] & BPF_IF_REACHED) ? "" : "  (unreached)");
	}
}

static void
print_stats(void)
{
	fprintf(stderr, "xbpf: %" PRIu64 " inputs: %" PRIu64 " programs accepted by the "
		"checker, %" PRIu64 " refused, %" PRIu64 " skipped (ktime/prandom); %" PRIu64
		" compared interpreter vs compiled over %" PRIu64 " runs (%" PRIu64
		" faulted; %" PRIu64 " not comparable: chain cut), %" PRIu64
		" interpreter only (%s)\n",
		st.inputs, st.accepted, st.refused, st.nondet, st.compared, st.compared_runs,
		st.faulted_runs, st.uncompared_cuts, st.interp_only,
		st.compile_ok ? "TP_FUZZ_XBPF_COMPILE" : st.compile_note);
	if (st.inputs > 0 && st.accepted == 0) {
		fprintf(stderr, "xbpf: FAILED: the checker accepted no program\n");
		_exit(1);
	}
	if (st.inputs > 0 && st.compile_ok && st.compile_every > 0 && st.compared == 0) {
		fprintf(stderr, "xbpf: FAILED: no program was compared in both modes\n");
		_exit(1);
	}
}

/* Once, at the first input (fuzz_common.c has LLVMFuzzerInitialize). */
static void
xf_init(void)
{
	static const struct bpf_insn ret2[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .imm = 2 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	const struct bpf_insns_spec s = { .insns = ret2, .nb_insns = 2, .ncpu = 1 };
	const char *e = getenv("TP_FUZZ_XBPF_COMPILE");
	struct tp_bpf *p;
	char err[BPF_ERR_LEN];

	fuzz_pool();
	st.verbose = getenv("TP_FUZZ_XBPF_VERBOSE") ? atoi(getenv("TP_FUZZ_XBPF_VERBOSE")) : 0;
	st.compile_every = e != NULL && e[0] ? strtoull(e, NULL, 10) : 1;
	/* Can this build compile at all? (no C compiler: an environment
	 * problem, not a finding; then the interpreter alone is fuzzed) */
	FUZZ_CHECK(tpb_insns_open(&s, &p, err, sizeof(err)) == 0);
	st.compile_ok = tpb_compile(p, err, sizeof(err)) == 0 && p->compiled != NULL;
	if (!st.compile_ok)
		snprintf(st.compile_note, sizeof(st.compile_note), "compiled mode unavailable: %s",
			 err);
	tpb_insns_close(p);
	atexit(print_stats);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bpf_insn ins[XF_MAX_INSNS];
	struct rte_mbuf *pkts[XF_MAX_FRAMES];
	uint32_t entries[BPF_MAX_PROGS], nentries = 0, n, budget;
	struct bpf_insns_spec s;
	struct tp_bpf *p;
	char err[BPF_ERR_LEN], why[400];
	const uint8_t *burst;
	size_t blen;
	uint8_t flags;
	uint16_t nf;
	bool compare;
	long bl;
	int rc;

	static bool ready;

	if (!ready) {
		xf_init();
		ready = true;
	}
	if (size < 1)
		return 0;
	flags = data[0];
	data++;
	size--;
	bl = fuzz_len16(&data, &size);
	if (bl < 0)
		return 0;
	st.inputs++;
	burst = data;
	blen = (size_t)bl;
	data += blen;
	size -= blen;
	if (flags & 1) {
		uint32_t ne = size > 0 ? data[0] % 4 : 0;

		if (size < 1 + 2 * ne)
			return 0;
		for (uint32_t k = 0; k < ne; k++)
			entries[nentries++] = data[1 + 2 * k] | (uint32_t)data[2 + 2 * k] << 8;
		data += 1 + 2 * ne;
		size -= 1 + 2 * ne;
		n = (uint32_t)RTE_MIN(size / 8, (size_t)XF_MAX_INSNS);
		memcpy(ins, data, n * sizeof(ins[0]));
	} else {
		n = generate(data, size, ins, entries, &nentries);
	}
	s = (struct bpf_insns_spec){ .insns = ins, .nb_insns = n, .maps = xf_maps,
				     .nb_maps = XF_NMAPS, .entries = entries,
				     .nb_entries = nentries, .ncpu = XF_NCPU };
	err[0] = '\0';
	rc = tpb_insns_open(&s, &p, err, sizeof(err));
	if (rc != 0) {
		FUZZ_CHECK(rc == -EINVAL || rc == -ENOMEM);
		FUZZ_CHECK(err[0] != '\0');
		if (st.verbose)
			fprintf(stderr, "xbpf: refused: %s\n", err);
		st.refused++;
		return 0;
	}
	st.accepted++;
	if (!bpf_diff_deterministic(p)) {
		st.nondet++;
		tpb_insns_close(p);
		return 0;
	}
	fill_maps(p);
	if (st.verbose > 1)
		dump_program(p);
	compare = st.compile_ok && st.compile_every > 0 &&
		  st.accepted % st.compile_every == 0;
	if (compare && tpb_compile(p, err, sizeof(err)) != 0) {
		/* the checker accepted it: compiled mode must take it too
		 * (prog_bpf.c would quietly fall back to the interpreter) */
		dump_program(p);
		fprintf(stderr, "xbpf: tpb_compile refused a checked program: %s\n", err);
		abort();
	}
	budget = (flags & 4) ? 64 : 4096;
	nf = fuzz_burst(&burst, &blen, pkts, XF_MAX_FRAMES);
	for (uint16_t f = 0; f < nf; f++) {
		struct bpf_diff_out o;

		if (compare) {
			int d = bpf_diff_both(p, pkts[f], (flags >> 1) & 1, budget, &o, why,
					      sizeof(why));

			if (d == 1) {        /* a chain cut: not comparable */
				st.uncompared_cuts++;
				continue;
			}
			if (d != 0) {
				dump_program(p);
				fprintf(stderr, "xbpf: frame %u of %u (%u bytes, %u segments): "
					"interpreter and compiled differ: %s\n", f, nf,
					pkts[f]->pkt_len, pkts[f]->nb_segs, why);
				abort();
			}
			st.compared_runs++;
		} else {
			/* the interpreter twice from the same state: the harness
			 * restores everything a run may change */
			struct bpf_diff_snap *a = bpf_diff_snap_new(p), *b = bpf_diff_snap_new(p);
			struct bpf_diff_out o2;

			bpf_diff_save(a, p, pkts[f]);
			bpf_diff_run(p, false, pkts[f], (flags >> 1) & 1, budget, &o);
			if (pkts[f]->nb_segs != bpf_diff_snap_segs(a)) {
				/* a chain cut: no snapshot puts it back */
				st.uncompared_cuts++;
				bpf_diff_snap_free(a);
				bpf_diff_snap_free(b);
				continue;
			}
			bpf_diff_save(b, p, pkts[f]);
			bpf_diff_restore(a, p, pkts[f]);
			bpf_diff_run(p, false, pkts[f], (flags >> 1) & 1, budget, &o2);
			bpf_diff_save(a, p, pkts[f]);
			FUZZ_CHECK(o.r0 == o2.r0 && o.fault == o2.fault && o.why == o2.why);
			FUZZ_CHECK(bpf_diff_compare(a, b, p, why, sizeof(why)) == 0);
			bpf_diff_snap_free(a);
			bpf_diff_snap_free(b);
		}
		/* a stopped run returns 0 (prog_bpf.c makes it TP_ABORTED) */
		FUZZ_CHECK(!o.fault || o.r0 == 0);
		if (st.verbose)
			fprintf(stderr, "xbpf: frame %u: r0 0x%" PRIx64 " fault %s, %u insns\n", f,
				o.r0, bpf_diff_why(&o), p->nb_insns);
		st.faulted_runs += o.fault != 0;
	}
	if (compare)
		st.compared++;
	else
		st.interp_only++;
	rte_pktmbuf_free_bulk(pkts, nf);
	tpb_insns_close(p);
	fuzz_check_pool();
	return 0;
}
