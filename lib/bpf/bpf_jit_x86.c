/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The eBPF JIT for x86-64: the verified, rewritten program (bpf_verify.c)
 * translated into machine code in this process, with the semantics of the
 * interpreter (bpf_exec.c), which stays the reference. Instruction
 * semantics: the kernel's Documentation/bpf/standardization/
 * instruction-set.rst; encodings: Intel SDM Vol. 2 (bpf_jit_x86_emit.h).
 *
 * Memory: the code is written into an anonymous private mapping that is
 * read+write, then switched to read+execute (mprotect) before its first
 * run; never writable and executable at once. No file, no other process.
 *
 * Registers: eBPF r0..r10 live in x86 registers for the whole run, r1..r5
 * in the System V argument registers so that a helper call needs no
 * argument moves, r6..r9 and r10 in callee-saved ones:
 *   r0 rax  r1 rdi  r2 rsi  r3 rdx  r4 rcx  r5 r8
 *   r6 rbx  r7 r13  r8 r14  r9 r15  r10 rbp
 *   r12: the run state (struct bpf_run; its context is at offset 0, so
 *        r12 is also the program's r1 at entry)
 *   r9: scratch; r10 and r11: the packet's start (data_meta) and length
 *        for the bounds checks of unverified programs (reloaded after
 *        every call, since helpers move the packet), scratch otherwise.
 * r10 (eBPF) points into the run's stack (BPF_MAX_FRAMES frames of
 * BPF_STACK_SIZE bytes, rs->stack), one frame further per BPF-to-BPF call
 * or bpf_loop callback, as in the interpreter.
 *
 * Functions: every BPF function is an x86 function whose prologue saves
 * rbx, rbp, r13, r14, r15 (r6..r9 and r10 of the caller) and moves r10 to
 * the next frame; exit pops them and returns. Its body starts after the
 * prologue: a tail call jumps there with the same frame (the target's
 * exit then returns to whoever called the frame, as in the interpreter).
 * A run that faults sets rs->fault and returns 0; every call site tests
 * rs->fault and returns too, up to the burst loop.
 *
 * Checks: a program the kernel's verifier accepted (tp_bpf.kernel_ok)
 * runs its accesses unchecked, as the kernel's JIT does. Any other keeps
 * the interpreter's check at every access that is not a rewritten context
 * load or an r10-relative access inside the frame: the packet inline (two
 * compares), then out of line the stack and, through tpb_cg_ops.mem_slow,
 * the context and map regions; a failure faults at that access with the
 * interpreter's counter.
 *
 * Calls: helpers with an entry in tpb_helper_direct() are called directly;
 * any other through the dispatcher tpb_cg_ops.helper with r1..r5 stored
 * on the x86 stack. bpf_map_lookup_elem on an ARRAY or PERCPU_ARRAY map
 * that the code loaded into r1 in the same basic block is inlined (index
 * bound, then base + index * stride, as the kernel's array_map_gen_lookup,
 * kernel/bpf/arraymap.c); other lookups of kernel-verified programs call
 * the lookup without argument checks, the map's own (tpb_map_lookup)
 * when the code names the map and the helper adds nothing to it. Tail calls and bpf_loop call small
 * C functions below, which return the target or run the callbacks.
 *
 * One call per burst: the image starts with the burst loop, the
 * bpf_compiled_fn of bpf_priv.h, which runs rs[0..n) one after the other
 * with a copy of the entry function inside it (no call per packet: its
 * exits go on with the next run; a tail call from it calls the target).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpf_priv.h"

#if defined(__x86_64__)

#include "bpf_jit_x86_emit.h"

struct bpf_jit {
	void *image;
	size_t size;
	/* tail-call targets: body of program k of tp_bpf.progs, 0 if none */
	uintptr_t prog_body[BPF_MAX_PROGS];
	/* bpf_loop callbacks: pc and address of the function (prologue) */
	uint32_t ncb;
	struct {
		uint32_t pc;
		uintptr_t full;
	} *cb;
	/* C -> JIT: runs the function at fn with r1, r2 and the caller's r10 */
	uint64_t (*enter)(struct bpf_run *rs, uint64_t r1, uint64_t r2, uint64_t r10,
			  uintptr_t fn);
};

/* eBPF register -> x86 register (see the file comment). */
static const uint8_t xr[11] = {
	X_RAX, X_RDI, X_RSI, X_RDX, X_RCX, X_R8, X_RBX, X_R13, X_R14, X_R15, X_RBP,
};
#define RS X_R12
#define TMP X_R9
#define PM X_R10
#define PL X_R11

#define NOADDR UINT32_MAX
/* Passes before every jump is taken long (sizes then settle at once). */
#define SHORT_PASSES 16
#define MAX_PASSES (SHORT_PASSES + 4)

#define OFF_META ((int32_t)offsetof(struct bpf_run, ctx.data_meta))
#define OFF_END ((int32_t)offsetof(struct bpf_run, ctx.data_end))
#define OFF_STACK ((int32_t)offsetof(struct bpf_run, stack))
#define OFF_FAULT ((int32_t)offsetof(struct bpf_run, fault))
#define OFF_CPU ((int32_t)offsetof(struct bpf_run, cpu))
#define OFF_LOOP ((int32_t)offsetof(struct bpf_run, loop_left))
#define OFF_WHY ((int32_t)offsetof(struct bpf_run, why))

_Static_assert(offsetof(struct bpf_run, ctx) == 0, "r1 at entry is the run state");
_Static_assert(sizeof(((struct bpf_run *)0)->fault) == 8, "fault: 8 bytes");
_Static_assert(sizeof(((struct bpf_run *)0)->loop_left) == 4, "loop_left: 4 bytes");
_Static_assert(sizeof(((struct bpf_run *)0)->cpu) == 4, "cpu: 4 bytes");
_Static_assert(sizeof(enum bpf_counter) == 4, "why: 4 bytes");
_Static_assert(sizeof(struct bpf_run) <= INT32_MAX, "run state size");

/* An out-of-line check of one access (emitted after its function). */
struct stub {
	int base;              /* x86 register */
	int32_t off;
	uint8_t n, write;
	enum bpf_counter why;
	uint32_t lab, back;    /* the stub; the code after the access */
};

struct jit {
	const struct tp_bpf *p;
	struct xbuf x;
	bool proven;           /* kernel_ok: no checks, nothing cached */
	bool all_long;         /* every jump rel32 (the last passes) */
	/* per pc: offset of its code, this pass and the previous one;
	 * NOADDR when not (yet) emitted; in the functions, and in the copy
	 * of the entry function inside the burst loop (iaddr) */
	uint32_t *addr, *oaddr, *iaddr, *oiaddr;
	uint32_t *cur, *ocur;  /* addr or iaddr: the code being emitted */
	bool in_loop;          /* emitting the burst loop's copy */
	/* per function pc: offset of its prologue */
	uint32_t *full, *ofull;
	/* numbered labels, allocated in the same order every pass */
	uint32_t *lab, *olab;
	uint32_t nlab, onlab, labcap, olabcap;
	uint8_t *target;       /* pc is a jump target */
	struct stub *stubs;
	uint32_t nstubs, stubcap;
	uint32_t l_ret0, l_oob, l_bad, l_lim, l_setf; /* current function */
	uint32_t last_pc;      /* its last reached instruction */
	uint32_t l_thunk, l_enter, l_tailstub, l_next;
	/* r1 holds this map's handle: ld_imm64 earlier in the basic block */
	const struct tp_bpf_map *r1_map;
};

/* ---- labels and jumps --------------------------------------------------- */

static uint32_t
new_label(struct jit *j)
{
	if (j->nlab == j->labcap) {
		uint32_t cap = j->labcap ? 2 * j->labcap : 256;
		uint32_t *nl = realloc(j->lab, cap * sizeof(*nl));

		if (nl == NULL) {
			j->x.oom = true;
			return 0;
		}
		j->lab = nl;
		j->labcap = cap;
	}
	j->lab[j->nlab] = NOADDR;
	return j->nlab++;
}

static void
bind(struct jit *j, uint32_t l)
{
	if (l < j->nlab)
		j->lab[l] = (uint32_t)j->x.len;
}

/* A label's offset: this pass's when bound already, else the previous
 * pass's (forward reference), else unknown. */
static uint32_t
label_at(const struct jit *j, uint32_t l)
{
	if (l < j->nlab && j->lab[l] != NOADDR)
		return j->lab[l];
	return l < j->onlab ? j->olab[l] : NOADDR;
}

static uint32_t
pc_at(const struct jit *j, uint32_t pc)
{
	return j->cur[pc] != NOADDR ? j->cur[pc] : j->ocur[pc];
}

/* jmp (cc < 0) or jcc to offset t: rel8 when it reaches, else rel32. */
static void
jump(struct jit *j, int cc, uint32_t t)
{
	struct xbuf *x = &j->x;
	int64_t at = (int64_t)x->len, rel;

	if (t != NOADDR && !j->all_long && x_is_i8((int64_t)t - (at + 2))) {
		x_byte(x, cc < 0 ? 0xeb : (uint8_t)(0x70 + cc));
		x_byte(x, (uint8_t)((int64_t)t - (at + 2)));
		return;
	}
	if (cc < 0) {
		x_byte(x, 0xe9);
		rel = (int64_t)t - (at + 5);
	} else {
		x_byte(x, 0x0f);
		x_byte(x, (uint8_t)(0x80 + cc));
		rel = (int64_t)t - (at + 6);
	}
	x_u32(x, t == NOADDR ? 0 : (uint32_t)(int32_t)rel);
}

static void
jump_label(struct jit *j, int cc, uint32_t l)
{
	jump(j, cc, label_at(j, l));
}

static void
call_rel(struct jit *j, uint32_t t)
{
	int64_t at = (int64_t)j->x.len;

	x_byte(&j->x, 0xe8);
	x_u32(&j->x, t == NOADDR ? 0 : (uint32_t)(int32_t)((int64_t)t - (at + 5)));
}

/* call of a C function at a fixed address (r11 is a scratch register at
 * every call site: caller-saved, reloaded after) */
static void
call_abs(struct jit *j, const void *fn)
{
	x_mov_imm64(&j->x, X_R11, (uint64_t)(uintptr_t)fn);
	x_call_r(&j->x, X_R11);
}

/* ---- pieces shared by every function ----------------------------------- */

/* The packet's bounds of unverified programs, cached in r10/r11. */
static void
reload(struct jit *j)
{
	if (j->proven)
		return;
	x_load(&j->x, true, PM, RS, OFF_META);
	x_load(&j->x, true, PL, RS, OFF_END);
	x_rr(&j->x, XF_W, 0x29, PM, PL);            /* sub r11, r10 */
}

/* After a call: stop when the run faulted, then reload the bounds. */
static void
after_call(struct jit *j)
{
	x_alu_imm_m(&j->x, XF_W, 7, RS, OFF_FAULT, 0); /* cmp qword [fault], 0 */
	jump_label(j, CC_NE, j->l_ret0);
	reload(j);
}

static void
epilogue(struct jit *j)
{
	x_pop(&j->x, X_R15);
	x_pop(&j->x, X_R14);
	x_pop(&j->x, X_R13);
	x_pop(&j->x, X_RBP);
	x_pop(&j->x, X_RBX);
	x_ret(&j->x);
}

/* Bytes of a load or store. */
static unsigned int
size_of(uint8_t code)
{
	static const unsigned int b[4] = { 4, 2, 1, 8 };

	return b[BPF_SIZE(code) >> 3];
}

/* r10 + constant offset entirely inside the frame: safe by construction. */
static bool
stack_const(uint8_t base, int16_t off, unsigned int n)
{
	return base == BPF_REG_10 && off < 0 && off >= -BPF_STACK_SIZE &&
	       off + (int)n <= 0;
}

/* The check of n bytes at base + off: the packet inline
 * (0 <= a - data_meta < len and a - data_meta + n <= len), the rest in
 * the function's stub for it. */
static void
check(struct jit *j, int base, int32_t off, unsigned int n, bool write,
      enum bpf_counter why)
{
	struct xbuf *x = &j->x;
	struct stub *s;

	if (j->nstubs == j->stubcap) {
		uint32_t cap = j->stubcap ? 2 * j->stubcap : 64;
		struct stub *ns = realloc(j->stubs, cap * sizeof(*ns));

		if (ns == NULL) {
			x->oom = true;
			return;
		}
		j->stubs = ns;
		j->stubcap = cap;
	}
	s = &j->stubs[j->nstubs++];
	*s = (struct stub){ .base = base, .off = off, .n = (uint8_t)n, .write = write,
			    .why = why, .lab = new_label(j), .back = new_label(j) };
	x_lea(x, TMP, base, off);
	x_rr(x, XF_W, 0x29, PM, TMP);               /* sub r9, r10 */
	x_rr(x, XF_W, 0x39, PL, TMP);               /* cmp r9, r11 */
	jump_label(j, CC_AE, s->lab);
	x_alu_imm(x, XF_W, 0, TMP, (int32_t)n);     /* add r9, n */
	x_rr(x, XF_W, 0x39, PL, TMP);
	jump_label(j, CC_A, s->lab);
	bind(j, s->back);
}

/* The stubs: the stack inline, then the thunk (tpb_cg_ops.mem_slow). */
static void
emit_stubs(struct jit *j)
{
	struct xbuf *x = &j->x;

	for (uint32_t k = 0; k < j->nstubs; k++) {
		const struct stub *s = &j->stubs[k];

		bind(j, s->lab);
		x_lea(x, TMP, s->base, s->off);
		x_rm(x, XF_W, 0x2b, TMP, RS, OFF_STACK);          /* sub r9, [stack] */
		x_alu_imm(x, XF_W, 7, TMP, BPF_MAX_FRAMES * BPF_STACK_SIZE - s->n);
		jump_label(j, CC_BE, s->back);
		x_lea(x, TMP, s->base, s->off);
		x_mov_imm64(x, PM, s->n);
		x_mov_imm64(x, PL, s->write);
		call_rel(j, label_at(j, j->l_thunk));
		jump_label(j, CC_NE, s->back);
		jump_label(j, -1, s->why == BPF_CNT_OOB ? j->l_oob : j->l_bad);
	}
	j->nstubs = 0;
}

/* ---- instructions ------------------------------------------------------- */

static void
alu(struct jit *j, const struct bpf_insn *i)
{
	static const uint8_t rr_op[16] = {
		[BPF_ADD >> 4] = 0x01, [BPF_SUB >> 4] = 0x29, [BPF_OR >> 4] = 0x09,
		[BPF_AND >> 4] = 0x21, [BPF_XOR >> 4] = 0x31,
	};
	static const uint8_t imm_digit[16] = {
		[BPF_ADD >> 4] = 0, [BPF_SUB >> 4] = 5, [BPF_OR >> 4] = 1,
		[BPF_AND >> 4] = 4, [BPF_XOR >> 4] = 6,
	};
	static const uint8_t shift_digit[16] = {
		[BPF_LSH >> 4] = 4, [BPF_RSH >> 4] = 5, [BPF_ARSH >> 4] = 7,
	};
	struct xbuf *x = &j->x;
	bool w = BPF_CLASS(i->code) == BPF_ALU64, isx = BPF_SRC(i->code) == BPF_X;
	unsigned int f = w ? XF_W : 0;
	int d = xr[i->dst_reg], s = xr[i->src_reg];
	uint8_t op = BPF_OP(i->code);

	switch (op) {
	case BPF_ADD: case BPF_SUB: case BPF_OR: case BPF_AND: case BPF_XOR:
		if (isx)
			x_rr(x, f, rr_op[op >> 4], s, d);
		else
			x_alu_imm(x, f, imm_digit[op >> 4], d, i->imm);
		break;
	case BPF_MOV:
		if (isx) {
			if (!(w && d == s)) /* 32-bit to itself: zero-extends */
				x_mov_rr(x, w, d, s);
		} else {
			x_mov_imm64(x, d, w ? (uint64_t)(int64_t)i->imm : (uint32_t)i->imm);
		}
		break;
	case BPF_MUL:
		if (isx) {
			x_rr(x, f, 0x0faf, d, s);           /* imul d, s */
		} else if (x_is_i8(i->imm)) {
			x_rr(x, f, 0x6b, d, d);
			x_byte(x, (uint8_t)i->imm);
		} else {
			x_rr(x, f, 0x69, d, d);
			x_u32(x, (uint32_t)i->imm);
		}
		break;
	case BPF_DIV: case BPF_MOD: {
		/* unsigned; x/0 = 0, x%0 = x (32-bit: zero-extended). rdx:rax
		 * are r3 and r0: saved in r9/r10, the divisor in r11 */
		bool mod = op == BPF_MOD;
		int res = mod ? X_RDX : X_RAX;
		uint32_t l_zero = new_label(j), l_done = new_label(j);

		if (isx) {
			x_mov_rr(x, w, PL, s);
			x_rr(x, f, 0x85, PL, PL);           /* test r11, r11 */
			jump_label(j, CC_E, l_zero);
		} else {
			x_mov_imm64(x, PL, w ? (uint64_t)(int64_t)i->imm : (uint32_t)i->imm);
		}
		if (d != X_RAX)
			x_mov_rr(x, true, TMP, X_RAX);
		if (d != X_RDX)
			x_mov_rr(x, true, PM, X_RDX);
		if (d != X_RAX)
			x_mov_rr(x, true, X_RAX, d);
		x_rr(x, 0, 0x31, X_RDX, X_RDX);             /* xor edx, edx */
		x_rr(x, f, 0xf7, 6, PL);                    /* div r11 */
		if (d != res)
			x_mov_rr(x, w, d, res);
		if (d != X_RAX)
			x_mov_rr(x, true, X_RAX, TMP);
		if (d != X_RDX)
			x_mov_rr(x, true, X_RDX, PM);
		if (isx) {
			jump_label(j, -1, l_done);
			bind(j, l_zero);
			if (!mod)
				x_rr(x, 0, 0x31, d, d);     /* xor d32, d32 */
			else if (!w)
				x_mov_rr(x, false, d, d);
		}
		bind(j, l_done);
		reload(j);
		break;
	}
	case BPF_LSH: case BPF_RSH: case BPF_ARSH: {
		int digit = shift_digit[op >> 4];

		if (!isx && i->imm == 0) {
			/* no shift; ALU32 still zero-extends */
			if (!w)
				x_mov_rr(x, false, d, d);
		} else if (!isx) {
			x_rr(x, f, 0xc1, digit, d);
			x_byte(x, (uint8_t)i->imm);
		} else if (s == X_RCX) {
			x_rr(x, f, 0xd3, digit, d);         /* shift d, cl */
		} else if (d == X_RCX) {
			x_mov_rr(x, true, TMP, X_RCX);
			x_mov_rr(x, true, X_RCX, s);
			x_rr(x, f, 0xd3, digit, TMP);
			x_mov_rr(x, true, X_RCX, TMP);
		} else {
			x_mov_rr(x, true, TMP, X_RCX);
			x_mov_rr(x, true, X_RCX, s);
			x_rr(x, f, 0xd3, digit, d);
			x_mov_rr(x, true, X_RCX, TMP);
		}
		/* x86 masks the count to 5 or 6 bits: BPF's s & 31 / s & 63 */
		break;
	}
	case BPF_NEG:
		x_rr(x, f, 0xf7, 3, d);
		break;
	case BPF_END:
		if (BPF_SRC(i->code) == BPF_TO_LE) {
			if (i->imm == 16)
				x_rr(x, 0, 0x0fb7, d, d);   /* movzx d32, d16 */
			else if (i->imm == 32)
				x_mov_rr(x, false, d, d);
		} else if (i->imm == 16) {
			x_rr(x, XF_66, 0xc1, 0, d);         /* rol d16, 8 */
			x_byte(x, 8);
			x_rr(x, 0, 0x0fb7, d, d);
		} else {
			x_prefix(x, i->imm == 64 ? XF_W : 0, 0, d);
			x_byte(x, 0x0f);                    /* bswap */
			x_byte(x, (uint8_t)(0xc8 + (d & 7)));
		}
		break;
	}
}

/* A taken jump to pc t; backward ones in programs with loops first spend
 * the loop budget (sub sets CF when it was 0: the interpreter's
 * loop_left-- == 0). cc < 0: unconditional. */
static void
branch(struct jit *j, int cc, uint32_t pc, const struct bpf_insn *i)
{
	uint32_t t = (uint32_t)((int64_t)pc + i->off + 1);

	if (j->p->has_loops && i->off < 0) {
		uint32_t skip = new_label(j);

		if (cc >= 0)
			jump_label(j, cc ^ 1, skip);
		x_alu_imm_m(&j->x, 0, 5, RS, OFF_LOOP, 1);
		jump_label(j, CC_B, j->l_lim);
		jump(j, -1, pc_at(j, t));
		bind(j, skip);
	} else {
		jump(j, cc, pc_at(j, t));
	}
}

static void
jmp_cond(struct jit *j, const struct bpf_insn *i, uint32_t pc)
{
	static const int8_t cc_of[16] = {
		[BPF_JEQ >> 4] = CC_E, [BPF_JNE >> 4] = CC_NE, [BPF_JGT >> 4] = CC_A,
		[BPF_JGE >> 4] = CC_AE, [BPF_JLT >> 4] = CC_B, [BPF_JLE >> 4] = CC_BE,
		[BPF_JSET >> 4] = CC_NE, [BPF_JSGT >> 4] = CC_G, [BPF_JSGE >> 4] = CC_GE,
		[BPF_JSLT >> 4] = CC_L, [BPF_JSLE >> 4] = CC_LE,
	};
	struct xbuf *x = &j->x;
	unsigned int f = BPF_CLASS(i->code) == BPF_JMP ? XF_W : 0;
	uint8_t op = BPF_OP(i->code);
	int d = xr[i->dst_reg];

	if (i->off == 0)
		return; /* to the next instruction either way */
	if (BPF_SRC(i->code) == BPF_X) {
		x_rr(x, f, op == BPF_JSET ? 0x85 : 0x39, xr[i->src_reg], d);
	} else if (op == BPF_JSET) {
		x_rr(x, f, 0xf7, 0, d);                     /* test d, imm */
		x_u32(x, (uint32_t)i->imm);
	} else if (i->imm == 0) {
		x_rr(x, f, 0x85, d, d);                     /* flags of cmp d, 0 */
	} else {
		x_alu_imm(x, f, 7, d, i->imm);              /* cmp d, imm */
	}
	branch(j, cc_of[op >> 4], pc, i);
}

/* Loads, stores, atomics. */
static void
mem(struct jit *j, const struct bpf_insn *i, uint32_t pc)
{
	struct xbuf *x = &j->x;
	uint8_t cls = BPF_CLASS(i->code), sz = BPF_SIZE(i->code);
	unsigned int n = size_of(i->code);
	int d = xr[i->dst_reg], s = xr[i->src_reg];

	if (cls == BPF_LDX) {
		if (!j->proven && !(j->p->insn_flags[pc] & BPF_IF_CTX_LOAD) &&
		    !stack_const(i->src_reg, i->off, n))
			check(j, s, i->off, n, false, BPF_CNT_OOB);
		switch (sz) {
		case BPF_B: x_rm(x, 0, 0x0fb6, d, s, i->off); break;  /* movzx */
		case BPF_H: x_rm(x, 0, 0x0fb7, d, s, i->off); break;
		case BPF_W: x_rm(x, 0, 0x8b, d, s, i->off); break;
		default: x_rm(x, XF_W, 0x8b, d, s, i->off); break;
		}
		return;
	}
	if (!j->proven && !(BPF_MODE(i->code) == BPF_MEM && stack_const(i->dst_reg, i->off, n)))
		check(j, d, i->off, n, true, BPF_CNT_OOB);
	if (cls == BPF_ST) {
		switch (sz) {
		case BPF_B:
			x_rm(x, 0, 0xc6, 0, d, i->off);
			x_byte(x, (uint8_t)i->imm);
			break;
		case BPF_H:
			x_rm(x, XF_66, 0xc7, 0, d, i->off);
			x_byte(x, (uint8_t)i->imm);
			x_byte(x, (uint8_t)(i->imm >> 8));
			break;
		default:
			x_rm(x, sz == BPF_DW ? XF_W : 0, 0xc7, 0, d, i->off);
			x_u32(x, (uint32_t)i->imm);
			break;
		}
		return;
	}
	if (BPF_MODE(i->code) == BPF_MEM) {
		switch (sz) {
		case BPF_B: x_rm(x, XF_B8, 0x88, s, d, i->off); break;
		case BPF_H: x_rm(x, XF_66, 0x89, s, d, i->off); break;
		case BPF_W: x_rm(x, 0, 0x89, s, d, i->off); break;
		default: x_rm(x, XF_W, 0x89, s, d, i->off); break;
		}
		return;
	}
	/* atomics: the address in r9, aligned (else the interpreter's OOB) */
	{
		static const uint8_t lock_op[16] = {
			[BPF_ADD >> 4] = 0x01, [BPF_OR >> 4] = 0x09,
			[BPF_AND >> 4] = 0x21, [BPF_XOR >> 4] = 0x31,
		};
		unsigned int f = sz == BPF_DW ? XF_W : 0;
		int32_t aop = i->imm & ~BPF_FETCH;

		x_lea(x, TMP, d, i->off);
		x_rr(x, 0, 0xf6, 0, TMP);                   /* test r9b, n - 1 */
		x_byte(x, (uint8_t)(n - 1));
		jump_label(j, CC_NE, j->l_oob);
		if (i->imm == BPF_XCHG) {
			x_rm(x, f, 0x87, s, TMP, 0);        /* xchg [r9], s */
		} else if (i->imm == BPF_CMPXCHG) {
			x_rm(x, f | XF_LOCK, 0x0fb1, s, TMP, 0);
			if (!f)
				x_mov_rr(x, false, X_RAX, X_RAX);
		} else if (aop == BPF_ADD && (i->imm & BPF_FETCH)) {
			x_rm(x, f | XF_LOCK, 0x0fc1, s, TMP, 0); /* lock xadd */
		} else if (!(i->imm & BPF_FETCH)) {
			x_rm(x, f | XF_LOCK, lock_op[aop >> 4], s, TMP, 0);
		} else {
			/* and/or/xor with fetch: a compare-exchange loop on rax
			 * (r0, saved in r10); the new value in r11 */
			int src = s == X_RAX ? PM : s;
			uint32_t l_again = new_label(j);

			x_mov_rr(x, true, PM, X_RAX);
			x_load(x, f != 0, X_RAX, TMP, 0);
			bind(j, l_again);
			x_mov_rr(x, true, PL, X_RAX);
			x_rr(x, f, lock_op[aop >> 4], src, PL);
			x_rm(x, f | XF_LOCK, 0x0fb1, PL, TMP, 0);
			jump_label(j, CC_NE, l_again);
			if (s == X_RAX) {
				if (!f)
					x_mov_rr(x, false, X_RAX, X_RAX);
			} else {
				x_mov_rr(x, f != 0, s, X_RAX);
				x_mov_rr(x, true, X_RAX, PM);
			}
			reload(j);
		}
	}
}

/* Helper call through the direct table or the dispatcher. */
static void
call_helper(struct jit *j, int32_t id)
{
	struct xbuf *x = &j->x;
	bpf_helper_fn fn = tpb_helper_direct(id);

	if (fn != NULL) {
		x_mov_rr(x, true, X_R9, RS);
		call_abs(j, (const void *)(uintptr_t)fn);
	} else {
		/* uint64_t r[6] on the x86 stack (r[0] unused), 16-aligned */
		static const int regs[5] = { X_RDI, X_RSI, X_RDX, X_RCX, X_R8 };

		x_alu_imm(x, XF_W, 5, X_RSP, 48);
		for (int k = 0; k < 5; k++)
			x_store64(x, X_RSP, 8 * (k + 1), regs[k]);
		x_mov_rr(x, true, X_RDI, RS);
		x_mov_imm64(x, X_RSI, (uint32_t)id);
		x_mov_rr(x, true, X_RDX, X_RSP);
		call_abs(j, (const void *)(uintptr_t)tpb_cg_ops.helper);
		x_alu_imm(x, XF_W, 0, X_RSP, 48);
	}
	after_call(j);
}

/* bpf_map_lookup_elem: inline on a known ARRAY / PERCPU_ARRAY. */
static void
map_lookup(struct jit *j)
{
	const struct tp_bpf_map *m = j->r1_map;
	struct xbuf *x = &j->x;

	if (m != NULL && (m->type == BPF_MAP_TYPE_ARRAY || m->type == BPF_MAP_TYPE_PERCPU_ARRAY)) {
		uint32_t l_null = new_label(j), l_done = new_label(j);

		if (!j->proven)
			check(j, X_RSI, 0, m->key_size, false, BPF_CNT_BAD_HELPER_ARG);
		x_load(x, false, TMP, X_RSI, 0);            /* r9d = key */
		x_alu_imm(x, 0, 7, TMP, (int32_t)m->max_entries);
		jump_label(j, CC_AE, l_null);
		if (m->ncpu > 1) {
			x_rr(x, XF_W, 0x69, TMP, TMP);      /* r9 = key * ncpu + cpu */
			x_u32(x, m->ncpu);
			x_load(x, false, X_RAX, RS, OFF_CPU);
			x_rr(x, XF_W, 0x01, X_RAX, TMP);
		}
		x_rr(x, XF_W, 0x69, TMP, TMP);
		x_u32(x, m->stride);
		x_mov_imm64(x, X_RAX, (uint64_t)(uintptr_t)m->values);
		x_rr(x, XF_W, 0x01, TMP, X_RAX);
		jump_label(j, -1, l_done);
		bind(j, l_null);
		x_rr(x, 0, 0x31, X_RAX, X_RAX);
		bind(j, l_done);
	} else if (j->proven && m != NULL && !tpb_map_is_of_maps(m->type) && m->ref == NULL) {
		/* map and key proven, and the helper would add nothing to
		 * the map's lookup (no inner map to resolve, no LRU mark):
		 * tpb_map_lookup(m, key = r2, cpu), as the kernel calls a
		 * hash map's own lookup from the program */
		x_mov_imm64(x, X_RDI, (uint64_t)(uintptr_t)m);
		x_load(x, false, X_RDX, RS, OFF_CPU);
		call_abs(j, (const void *)(uintptr_t)tpb_map_lookup);
	} else if (j->proven) {
		/* map and key proven: no checks, no fault, no packet change */
		x_mov_rr(x, true, X_R9, RS);
		call_abs(j, (const void *)(uintptr_t)tpb_map_lookup_proven);
	} else {
		call_helper(j, BPF_FUNC_map_lookup_elem);
	}
}

static uint64_t jit_tail(uint64_t r1, uint64_t map, uint64_t index, uint64_t r4,
			 uint64_t r5, struct bpf_run *rs);
static uint64_t jit_loop(uint64_t n, uint64_t fn, uint64_t ctx, uint64_t flags,
			 uint64_t r10, struct bpf_run *rs);

static void
call(struct jit *j, const struct bpf_insn *i, uint32_t pc)
{
	struct xbuf *x = &j->x;

	if (i->src_reg == BPF_PSEUDO_CALL) {
		uint32_t t = (uint32_t)((int64_t)pc + i->imm + 1);

		call_rel(j, j->full[t] != NOADDR ? j->full[t] : j->ofull[t]);
		after_call(j);
		return;
	}
	switch (i->imm) {
	case BPF_FUNC_map_lookup_elem:
		map_lookup(j);
		break;
	case BPF_FUNC_tail_call: {
		/* jit_tail: the target's body, or 0 to fall through */
		uint32_t l_fall = new_label(j);

		x_mov_rr(x, true, X_R9, RS);
		call_abs(j, (const void *)(uintptr_t)jit_tail);
		after_call(j);
		x_rr(x, XF_W, 0x85, X_RAX, X_RAX);
		jump_label(j, CC_E, l_fall);
		x_mov_rr(x, true, X_RDI, RS);               /* r1 = ctx */
		if (j->in_loop) {
			/* no frame to reuse: the target runs as a call whose
			 * exit ends the run */
			call_rel(j, label_at(j, j->l_tailstub));
			jump_label(j, -1, j->l_next);
		} else {
			x_jmp_r(x, X_RAX);
		}
		bind(j, l_fall);
		x_mov_imm64(x, X_RAX, (uint64_t)-ENOENT);
		break;
	}
	case BPF_FUNC_loop:
		/* r10 as fifth argument (r5 is not an argument of bpf_loop) */
		x_mov_rr(x, true, X_R8, X_RBP);
		x_mov_rr(x, true, X_R9, RS);
		call_abs(j, (const void *)(uintptr_t)jit_loop);
		after_call(j);
		break;
	default:
		call_helper(j, i->imm);
		break;
	}
}

/* Does i write r1 (which ends what r1_map knows)? */
static bool
writes_r1(const struct bpf_insn *i)
{
	uint8_t cls = BPF_CLASS(i->code);

	if (cls == BPF_ALU || cls == BPF_ALU64 || cls == BPF_LDX || cls == BPF_LD)
		return i->dst_reg == BPF_REG_1;
	if (cls == BPF_STX && BPF_MODE(i->code) == BPF_ATOMIC)
		return i->src_reg == BPF_REG_1 && (i->imm & BPF_FETCH);
	if (cls == BPF_JMP && BPF_OP(i->code) == BPF_CALL)
		return true;
	return false;
}

static const struct tp_bpf_map *
map_of_handle(const struct tp_bpf *p, uint64_t v)
{
	for (uint32_t k = 0; k < p->nb_maps; k++)
		if (v == (uint64_t)(uintptr_t)&p->maps[k])
			return &p->maps[k];
	return NULL;
}

static void
insn(struct jit *j, uint32_t pc)
{
	const struct tp_bpf *p = j->p;
	const struct bpf_insn *i = &p->insns[pc];
	uint8_t cls = BPF_CLASS(i->code);

	if (i->code == (BPF_LD | BPF_IMM | BPF_DW)) {
		uint64_t v = (uint32_t)i->imm | (uint64_t)(uint32_t)i[1].imm << 32;

		if (i->src_reg == BPF_PSEUDO_FUNC) /* as bpf_exec.c */
			v = BPF_FUNC_ADDR_TAG | (uint32_t)((int64_t)pc + i->imm + 1);
		x_mov_imm64(&j->x, xr[i->dst_reg], v);
		if (i->dst_reg == BPF_REG_1)
			j->r1_map = i->src_reg == 0 ? map_of_handle(p, v) : NULL;
		return;
	}
	switch (cls) {
	case BPF_ALU: case BPF_ALU64:
		alu(j, i);
		break;
	case BPF_JMP: case BPF_JMP32:
		switch (BPF_OP(i->code)) {
		case BPF_JA:
			if (i->off != 0)
				branch(j, -1, pc, i);
			break;
		case BPF_EXIT:
			if (!j->in_loop)
				epilogue(j);
			else if (pc != j->last_pc) /* the last falls into l_next */
				jump_label(j, -1, j->l_next);
			break;
		case BPF_CALL:
			call(j, i, pc);
			break;
		default:
			jmp_cond(j, i, pc);
			break;
		}
		break;
	default:
		mem(j, i, pc);
		break;
	}
	if (writes_r1(i))
		j->r1_map = NULL;
}

static bool
is_ldx_b(const struct bpf_insn *i)
{
	return i->code == (BPF_LDX | BPF_MEM | BPF_B);
}

static bool
is_stx_b(const struct bpf_insn *i)
{
	return i->code == (BPF_STX | BPF_MEM | BPF_B);
}

/* Byte-wise code clang emits for unaligned 16-bit accesses, done 16 bits
 * at a time. Only in kernel-verified programs (no check can fault between
 * the bytes), only where the n instructions at pc form one basic block,
 * and with every register left as the original leaves it.
 *
 * A little-endian load: rD = *(u8 *)(rB + o + 1); rD <<= 8;
 * rT = *(u8 *)(rB + o); rD |= rT (or with the low byte loaded first):
 * one 16-bit load, and rT's byte beside it. 4, or 0 when not that. */
static uint32_t
fuse_load16(struct jit *j, uint32_t pc)
{
	const struct tp_bpf *p = j->p;
	const struct bpf_insn *i = &p->insns[pc], *hi, *lo, *sh;
	uint8_t d, t, b;

	if (is_ldx_b(&i[0]) && is_ldx_b(&i[2])) {
		hi = &i[0], sh = &i[1], lo = &i[2];
	} else if (is_ldx_b(&i[0]) && is_ldx_b(&i[1])) {
		lo = &i[0], hi = &i[1], sh = &i[2];
	} else {
		return 0;
	}
	d = hi->dst_reg;
	t = lo->dst_reg;
	b = hi->src_reg;
	if (lo->src_reg != b || hi->off != lo->off + 1 || d == b || t == b || d == t ||
	    (sh->code != (BPF_ALU64 | BPF_LSH | BPF_K) && sh->code != (BPF_ALU | BPF_LSH | BPF_K)) ||
	    sh->dst_reg != d || sh->imm != 8 ||
	    (i[3].code != (BPF_ALU64 | BPF_OR | BPF_X) && i[3].code != (BPF_ALU | BPF_OR | BPF_X)) ||
	    i[3].dst_reg != d || i[3].src_reg != t)
		return 0;
	x_rm(&j->x, 0, 0x0fb7, xr[d], xr[b], lo->off);     /* movzx d32, word */
	x_rm(&j->x, 0, 0x0fb6, xr[t], xr[b], lo->off);     /* movzx t32, byte */
	if (d == BPF_REG_1 || t == BPF_REG_1)
		j->r1_map = NULL;
	return 4;
}

/* A two-byte copy through rX: rX = *(u8 *)(rA + s); *(u8 *)(rA + d) = rX;
 * rX = *(u8 *)(rA + s + 1); *(u8 *)(rA + d + 1) = rX: one 16-bit load
 * and store, rX loaded with its last byte. Reading both source bytes
 * first changes nothing unless the first store writes the second source
 * byte (d == s + 1), which is left alone. 4, or 0. */
static uint32_t
fuse_copy16(struct jit *j, uint32_t pc)
{
	const struct bpf_insn *i = &j->p->insns[pc];
	uint8_t a = i[0].src_reg, r = i[0].dst_reg;

	if (!is_ldx_b(&i[0]) || !is_stx_b(&i[1]) || !is_ldx_b(&i[2]) || !is_stx_b(&i[3]) ||
	    r == a || i[1].dst_reg != a || i[1].src_reg != r || i[2].src_reg != a ||
	    i[2].dst_reg != r || i[3].dst_reg != a || i[3].src_reg != r ||
	    i[2].off != i[0].off + 1 || i[3].off != i[1].off + 1 || i[1].off == i[0].off + 1)
		return 0;
	x_rm(&j->x, 0, 0x0fb7, TMP, xr[a], i[0].off);      /* movzx r9d, word */
	x_rm(&j->x, 0, 0x0fb6, xr[r], xr[a], i[2].off);    /* rX: the last byte */
	x_rm(&j->x, XF_66, 0x89, TMP, xr[a], i[1].off);    /* mov word, r9w */
	if (r == BPF_REG_1)
		j->r1_map = NULL;
	return 4;
}

/* A little-endian 16-bit store: *(u8 *)(rB + o) = rV; rV >>= 8;
 * *(u8 *)(rB + o + 1) = rV: one 16-bit store, then the shift. 3, or 0. */
static uint32_t
fuse_store16(struct jit *j, uint32_t pc)
{
	const struct bpf_insn *i = &j->p->insns[pc];
	uint8_t b = i[0].dst_reg, v = i[0].src_reg;

	if (!is_stx_b(&i[0]) || !is_stx_b(&i[2]) || v == b ||
	    (i[1].code != (BPF_ALU64 | BPF_RSH | BPF_K) && i[1].code != (BPF_ALU | BPF_RSH | BPF_K)) ||
	    i[1].dst_reg != v || i[1].imm != 8 || i[2].dst_reg != b || i[2].src_reg != v ||
	    i[2].off != i[0].off + 1)
		return 0;
	x_rm(&j->x, XF_66, 0x89, xr[v], xr[b], i[0].off);  /* mov word, v16 */
	alu(j, &i[1]);
	if (v == BPF_REG_1)
		j->r1_map = NULL;
	return 3;
}

/* The fusions above that apply at pc (instructions done), or 0. */
static uint32_t
fuse(struct jit *j, uint32_t pc, uint32_t end)
{
	const struct tp_bpf *p = j->p;
	uint32_t n = 0;

	if (!j->proven)
		return 0;
	/* how many from pc form a basic block: reached, no jump into them */
	while (n < 4 && pc + n < end && (p->insn_flags[pc + n] & BPF_IF_REACHED) &&
	       (n == 0 || !j->target[pc + n]))
		n++;
	if (n == 4) {
		uint32_t k = fuse_load16(j, pc);

		if (k == 0)
			k = fuse_copy16(j, pc);
		if (k > 0)
			return k;
	}
	return n >= 3 ? fuse_store16(j, pc) : 0;
}

/* One BPF function from start up to the next function: an x86 function,
 * or (in_loop) the burst loop's copy of the entry function, whose r10 the
 * loop sets and whose exits go on with the next run (l_next). Its out of
 * line part (function_tail) follows at once, or for the loop's copy after
 * the loop. */
static void
function_body(struct jit *j, uint32_t start, bool in_loop)
{
	const struct tp_bpf *p = j->p;
	struct xbuf *x = &j->x;
	uint32_t end, fused;

	j->in_loop = in_loop;
	j->cur = in_loop ? j->iaddr : j->addr;
	j->ocur = in_loop ? j->oiaddr : j->oaddr;
	j->l_ret0 = new_label(j);
	j->l_oob = new_label(j);
	j->l_bad = new_label(j);
	j->l_lim = new_label(j);
	j->l_setf = new_label(j);
	j->last_pc = start;
	for (end = start; end < p->nb_insns; end++) {
		if (end != start && (p->insn_flags[end] & BPF_IF_FUNC))
			break;
		if (p->insn_flags[end] & BPF_IF_REACHED)
			j->last_pc = end;
	}
	if (!in_loop) {
		j->full[start] = (uint32_t)x->len;
		x_push(x, X_RBX);
		x_push(x, X_RBP);
		x_push(x, X_R13);
		x_push(x, X_R14);
		x_push(x, X_R15);
		x_alu_imm(x, XF_W, 0, X_RBP, BPF_STACK_SIZE); /* r10 of this frame */
	}
	j->cur[start] = (uint32_t)x->len;                  /* the body */
	reload(j);
	for (uint32_t pc = start; pc < end; pc++) {
		if (pc != start)
			j->cur[pc] = (uint32_t)x->len;
		if (!(p->insn_flags[pc] & BPF_IF_REACHED))
			continue;
		if (pc == start || j->target[pc])
			j->r1_map = NULL;
		fused = fuse(j, pc, end);
		if (fused > 0) {
			/* none of the others is a jump target */
			for (uint32_t k = 1; k < fused; k++)
				j->cur[pc + k] = (uint32_t)x->len;
			pc += fused - 1;
			continue;
		}
		insn(j, pc);
		if (p->insns[pc].code == (BPF_LD | BPF_IMM | BPF_DW)) {
			pc++;
			if (pc < p->nb_insns)
				j->cur[pc] = (uint32_t)x->len;
		}
	}
}

/* The checks' stubs and the fault exits of the function just emitted. */
static void
function_tail(struct jit *j, bool in_loop)
{
	struct xbuf *x = &j->x;

	emit_stubs(j);
	bind(j, j->l_oob);
	x_rm(x, 0, 0xc7, 0, RS, OFF_WHY);
	x_u32(x, BPF_CNT_OOB);
	jump_label(j, -1, j->l_setf);
	bind(j, j->l_bad);
	x_rm(x, 0, 0xc7, 0, RS, OFF_WHY);
	x_u32(x, BPF_CNT_BAD_HELPER_ARG);
	jump_label(j, -1, j->l_setf);
	bind(j, j->l_lim);
	x_rm(x, 0, 0xc7, 0, RS, OFF_WHY);
	x_u32(x, BPF_CNT_INSN_LIMIT);
	bind(j, j->l_setf);
	x_rm(x, XF_W, 0xc7, 0, RS, OFF_FAULT);
	x_u32(x, 1);
	bind(j, j->l_ret0);
	x_rr(x, 0, 0x31, X_RAX, X_RAX);
	if (in_loop)
		jump_label(j, -1, j->l_next);
	else
		epilogue(j);
}

/* Does the function at start use r10: name it, or call what needs the
 * frame (BPF-to-BPF calls, bpf_loop callbacks, tail-call targets)? If not,
 * the burst loop need not set it. */
static bool
needs_r10(const struct tp_bpf *p, uint32_t start)
{
	for (uint32_t pc = start; pc < p->nb_insns; pc++) {
		const struct bpf_insn *i = &p->insns[pc];

		if (pc != start && (p->insn_flags[pc] & BPF_IF_FUNC))
			break;
		if (!(p->insn_flags[pc] & BPF_IF_REACHED))
			continue;
		if (i->dst_reg == BPF_REG_10 || i->src_reg == BPF_REG_10 ||
		    (BPF_CLASS(i->code) == BPF_JMP && BPF_OP(i->code) == BPF_CALL &&
		     (i->src_reg == BPF_PSEUDO_CALL || i->imm == BPF_FUNC_loop ||
		      i->imm == BPF_FUNC_tail_call)))
			return true;
		if (i->code == (BPF_LD | BPF_IMM | BPF_DW))
			pc++;
	}
	return false;
}

/* The image: the burst loop with the entry function inside it, the
 * tail-call stub, the C entry trampoline, the slow-check thunk, then the
 * functions. */
static void
image(struct jit *j)
{
	static const int saved[6] = { X_RBX, X_RBP, X_R12, X_R13, X_R14, X_R15 };
	const struct tp_bpf *p = j->p;
	struct xbuf *x = &j->x;
	uint32_t l_loop = new_label(j), l_done = new_label(j);

	j->l_next = new_label(j);
	j->l_tailstub = new_label(j);
	j->l_enter = new_label(j);
	j->l_thunk = new_label(j);

	/* burst(rs, n, r0, ops): locals [rsp] = end of rs[], [rsp+8] = r0 */
	for (int k = 0; k < 6; k++)
		x_push(x, saved[k]);
	x_alu_imm(x, XF_W, 5, X_RSP, 24);                  /* rsp 16-aligned */
	x_rr(x, 0, 0x0fb7, X_RSI, X_RSI);                  /* movzx esi, si */
	x_rr(x, 0, 0x85, X_RSI, X_RSI);
	jump_label(j, CC_E, l_done);
	x_rr(x, XF_W, 0x69, X_RSI, X_RSI);
	x_u32(x, (uint32_t)sizeof(struct bpf_run));
	x_rr(x, XF_W, 0x01, X_RDI, X_RSI);
	x_store64(x, X_RSP, 0, X_RSI);
	x_store64(x, X_RSP, 8, X_RDX);
	x_mov_rr(x, true, RS, X_RDI);
	bind(j, l_loop);
	if (needs_r10(p, p->entry)) {
		x_load(x, true, X_RBP, RS, OFF_STACK);
		x_alu_imm(x, XF_W, 0, X_RBP, BPF_STACK_SIZE);
	}
	x_mov_rr(x, true, X_RDI, RS);
	function_body(j, p->entry, true);
	bind(j, j->l_next);                                /* r0 in rax */
	x_load(x, true, X_RDX, X_RSP, 8);
	x_store64(x, X_RDX, 0, X_RAX);
	x_alu_imm_m(x, XF_W, 0, X_RSP, 8, 8);              /* add qword [rsp+8], 8 */
	x_alu_imm(x, XF_W, 0, RS, (int32_t)sizeof(struct bpf_run));
	x_rm(x, XF_W, 0x3b, RS, X_RSP, 0);                 /* cmp r12, [rsp] */
	jump_label(j, CC_B, l_loop);
	jump_label(j, -1, l_done);
	function_tail(j, true);
	bind(j, l_done);
	x_alu_imm(x, XF_W, 0, X_RSP, 24);
	for (int k = 5; k >= 0; k--)
		x_pop(x, saved[k]);
	x_ret(x);

	/* tail call from the loop's copy to the body in rax: the room of the
	 * prologue's five pushes (its exit pops them), then the body */
	bind(j, j->l_tailstub);
	x_alu_imm(x, XF_W, 5, X_RSP, 40);
	x_jmp_r(x, X_RAX);

	/* enter(rs, r1, r2, r10, fn): C calling a function's prologue */
	bind(j, j->l_enter);
	for (int k = 0; k < 6; k++)
		x_push(x, saved[k]);
	x_alu_imm(x, XF_W, 5, X_RSP, 8);
	x_mov_rr(x, true, RS, X_RDI);
	x_mov_rr(x, true, X_RBP, X_RCX);
	x_mov_rr(x, true, X_RDI, X_RSI);
	x_mov_rr(x, true, X_RSI, X_RDX);
	x_call_r(x, X_R8);
	x_alu_imm(x, XF_W, 0, X_RSP, 8);
	for (int k = 5; k >= 0; k--)
		x_pop(x, saved[k]);
	x_ret(x);

	/* thunk: r9 = address, r10 = size, r11 = write; ZF clear when
	 * tpb_cg_ops.mem_slow allows it; r0..r5 kept, r10/r11 reloaded */
	bind(j, j->l_thunk);
	if (!j->proven) {
		static const int keep[7] = { X_RAX, X_RDI, X_RSI, X_RDX, X_RCX, X_R8, X_R8 };

		for (int k = 0; k < 7; k++)
			x_push(x, keep[k]);
		x_mov_rr(x, true, X_RDI, RS);
		x_mov_rr(x, true, X_RSI, TMP);
		x_mov_rr(x, false, X_RDX, PM);
		x_mov_rr(x, false, X_RCX, PL);
		call_abs(j, (const void *)(uintptr_t)tpb_cg_ops.mem_slow);
		x_mov_rr(x, false, TMP, X_RAX);
		for (int k = 6; k >= 0; k--)
			x_pop(x, keep[k]);
		reload(j);
		x_rr(x, 0, 0x85, TMP, TMP);
		x_ret(x);
	}

	for (uint32_t pc = 0; pc < p->nb_insns; pc++)
		if (p->insn_flags[pc] & BPF_IF_FUNC) {
			function_body(j, pc, false);
			function_tail(j, false);
		}
}

/* ---- what the code calls ------------------------------------------------ */

/* bpf_tail_call (semantics: bpf_exec.c tail_target): the body of the
 * target, or 0 to fall through; a map that is not a PROG_ARRAY stops the
 * run. */
static uint64_t
jit_tail(uint64_t r1, uint64_t map, uint64_t index, uint64_t r4, uint64_t r5,
	 struct bpf_run *rs)
{
	struct tp_bpf_map *m = tpb_run_map(rs, map);
	uint32_t k = (uint32_t)index, v;

	(void)r1; (void)r4; (void)r5;
	if (m == NULL || m->type != BPF_MAP_TYPE_PROG_ARRAY)
		return tpb_run_fault(rs, BPF_CNT_BAD_HELPER_ARG);
	if (k >= m->max_entries || rs->tail_calls >= BPF_MAX_TAIL_CALLS)
		return 0;
	rs->tail_calls++;
	memcpy(&v, m->values + (size_t)k * m->stride, 4);
	if (v == 0 || v > rs->prog->nb_progs)
		return 0;
	return rs->prog->jit->prog_body[v - 1];
}

/* bpf_loop (semantics: bpf_exec.c run_loop): the callback runs in the
 * frame after r10's. */
static uint64_t
jit_loop(uint64_t n64, uint64_t fn, uint64_t ctx, uint64_t flags, uint64_t r10,
	 struct bpf_run *rs)
{
	const struct bpf_jit *jt = rs->prog->jit;
	int64_t pc = tpb_loop_callback(rs, fn, r10);
	uint32_t n = (uint32_t)n64;
	uintptr_t full = 0;
	uint64_t i;

	for (uint32_t k = 0; pc >= 0 && k < jt->ncb; k++)
		if (jt->cb[k].pc == (uint64_t)pc)
			full = jt->cb[k].full;
	if (full == 0)
		return tpb_run_fault(rs, BPF_CNT_BAD_HELPER_ARG);
	if (flags != 0)
		return (uint64_t)-EINVAL;
	if (n > BPF_LOOP_MAX_ITER)
		return (uint64_t)-E2BIG;
	for (i = 0; i < n; i++) {
		uint64_t r = jt->enter(rs, i, ctx, r10, full);

		if (rs->fault)
			return 0;
		if (r != 0)
			return i + 1;
	}
	return i;
}

/* ---- entry points ------------------------------------------------------- */

static void
jit_fini(struct jit *j)
{
	free(j->x.b);
	free(j->addr);
	free(j->oaddr);
	free(j->iaddr);
	free(j->oiaddr);
	free(j->full);
	free(j->ofull);
	free(j->lab);
	free(j->olab);
	free(j->target);
	free(j->stubs);
}

/* Translate until the offsets of a pass equal those of the one before
 * (jumps shrink to rel8 where they reach; after SHORT_PASSES all rel32,
 * which settles in two passes). 0 or -ENOMEM / -E2BIG. */
static int
translate(struct jit *j)
{
	const struct tp_bpf *p = j->p;
	size_t n = p->nb_insns + 1;

	j->addr = malloc(n * sizeof(uint32_t));
	j->oaddr = malloc(n * sizeof(uint32_t));
	j->iaddr = malloc(n * sizeof(uint32_t));
	j->oiaddr = malloc(n * sizeof(uint32_t));
	j->full = malloc(n * sizeof(uint32_t));
	j->ofull = malloc(n * sizeof(uint32_t));
	j->target = calloc(n, 1);
	if (j->addr == NULL || j->oaddr == NULL || j->iaddr == NULL || j->oiaddr == NULL ||
	    j->full == NULL || j->ofull == NULL || j->target == NULL)
		return -ENOMEM;
	memset(j->addr, 0xff, n * sizeof(uint32_t));
	memset(j->iaddr, 0xff, n * sizeof(uint32_t));
	memset(j->full, 0xff, n * sizeof(uint32_t));
	for (uint32_t pc = 0; pc < p->nb_insns; pc++) {
		const struct bpf_insn *i = &p->insns[pc];
		uint8_t cls = BPF_CLASS(i->code), op = BPF_OP(i->code);
		int64_t t = (int64_t)pc + i->off + 1;

		if ((p->insn_flags[pc] & BPF_IF_REACHED) && (cls == BPF_JMP || cls == BPF_JMP32) &&
		    op != BPF_CALL && op != BPF_EXIT && t >= 0 && t < p->nb_insns)
			j->target[t] = 1;
	}
	for (int pass = 0; pass < MAX_PASSES; pass++) {
		uint32_t *t32;
		size_t olen = j->x.len;

		j->all_long = pass >= SHORT_PASSES;
		t32 = j->oaddr; j->oaddr = j->addr; j->addr = t32;
		t32 = j->oiaddr; j->oiaddr = j->iaddr; j->iaddr = t32;
		t32 = j->ofull; j->ofull = j->full; j->full = t32;
		t32 = j->olab; j->olab = j->lab; j->lab = t32;
		{
			uint32_t c = j->olabcap;

			j->olabcap = j->labcap;
			j->labcap = c;
		}
		j->onlab = j->nlab;
		j->nlab = 0;
		j->x.len = 0;
		memset(j->addr, 0xff, n * sizeof(uint32_t));
		memset(j->iaddr, 0xff, n * sizeof(uint32_t));
		memset(j->full, 0xff, n * sizeof(uint32_t));
		image(j);
		if (j->x.oom)
			return -ENOMEM;
		if (pass > 0 && j->x.len == olen && j->nlab == j->onlab &&
		    memcmp(j->addr, j->oaddr, n * sizeof(uint32_t)) == 0 &&
		    memcmp(j->iaddr, j->oiaddr, n * sizeof(uint32_t)) == 0 &&
		    memcmp(j->full, j->ofull, n * sizeof(uint32_t)) == 0 &&
		    memcmp(j->lab, j->olab, j->nlab * sizeof(uint32_t)) == 0)
			return 0;
	}
	return -E2BIG;
}

int
tpb_compile(struct tp_bpf *p, char *err, size_t errlen)
{
	struct jit j = { .p = p, .proven = p->kernel_ok };
	struct bpf_jit *jt = NULL;
	long pg = sysconf(_SC_PAGESIZE);
	size_t size;
	uint8_t *img;
	int rc;

	rc = translate(&j);
	if (rc < 0) {
		snprintf(err, errlen, "JIT: %s", rc == -ENOMEM ? "out of memory" :
			 "code offsets did not settle");
		jit_fini(&j);
		return rc;
	}
	size = (j.x.len + (size_t)pg - 1) & ~((size_t)pg - 1);
	jt = calloc(1, sizeof(*jt));
	img = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (jt == NULL || img == MAP_FAILED) {
		rc = img == MAP_FAILED ? -errno : -ENOMEM;
		snprintf(err, errlen, "JIT: no memory for the code: %s", strerror(-rc));
		if (img != MAP_FAILED)
			munmap(img, size);
		free(jt);
		jit_fini(&j);
		return rc;
	}
	memcpy(img, j.x.b, j.x.len);
	if (mprotect(img, size, PROT_READ | PROT_EXEC) != 0) {
		rc = -errno;
		snprintf(err, errlen, "JIT: cannot make the code executable: %s",
			 strerror(errno));
		munmap(img, size);
		free(jt);
		jit_fini(&j);
		return rc;
	}
	jt->image = img;
	jt->size = size;
	jt->enter = (uint64_t (*)(struct bpf_run *, uint64_t, uint64_t, uint64_t,
				  uintptr_t))(uintptr_t)(img + j.lab[j.l_enter]);
	for (uint32_t k = 0; k < p->nb_progs; k++) {
		uint32_t e = p->progs[k].entry;

		if (p->progs[k].usable && e < p->nb_insns && (p->insn_flags[e] & BPF_IF_FUNC))
			jt->prog_body[k] = (uintptr_t)(img + j.addr[e]);
	}
	for (uint32_t pc = 0; pc < p->nb_insns; pc++)
		jt->ncb += (p->insn_flags[pc] & BPF_IF_CALLBACK) != 0;
	jt->cb = calloc(jt->ncb ? jt->ncb : 1, sizeof(*jt->cb));
	if (jt->cb == NULL) {
		snprintf(err, errlen, "JIT: out of memory");
		munmap(img, size);
		free(jt);
		jit_fini(&j);
		return -ENOMEM;
	}
	jt->ncb = 0;
	for (uint32_t pc = 0; pc < p->nb_insns; pc++)
		if ((p->insn_flags[pc] & BPF_IF_CALLBACK) && (p->insn_flags[pc] & BPF_IF_FUNC)) {
			jt->cb[jt->ncb].pc = pc;
			jt->cb[jt->ncb].full = (uintptr_t)(img + j.full[pc]);
			jt->ncb++;
		}
	jit_fini(&j);
	p->jit = jt;
	p->compiled = (bpf_compiled_fn)(uintptr_t)img;
	return 0;
}

void
tpb_compiled_free(struct tp_bpf *p)
{
	if (p->jit != NULL) {
		munmap(p->jit->image, p->jit->size);
		free(p->jit->cb);
		free(p->jit);
	}
	p->jit = NULL;
	p->compiled = NULL;
}

#else /* !__x86_64__ */

int
tpb_compile(struct tp_bpf *p, char *err, size_t errlen)
{
	(void)p;
	snprintf(err, errlen, "no JIT for this architecture: interpreter");
	return -ENOTSUP;
}

void
tpb_compiled_free(struct tp_bpf *p)
{
	p->jit = NULL;
	p->compiled = NULL;
}

#endif
