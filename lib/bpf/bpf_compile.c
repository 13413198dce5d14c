/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Compiled execution: the verified, rewritten program translated into C
 * and built by the system C compiler into a shared object that is loaded
 * with dlopen -- the approach of eBPF for Windows' bpf2c, with the same
 * safety as the interpreter (bpf_exec.c):
 *   - every BPF function becomes a C function with r0..r10 as locals,
 *     each instruction a C statement, each jump a goto; in programs with
 *     loops every taken backward jump spends the run's loop budget, as in
 *     the interpreter;
 *   - a tail call is inlined: the PROG_ARRAY's bounds, the chain count
 *     and the slot are checked as in the interpreter, then a switch over
 *     the slot's program number returns that program's function called
 *     with the same context and stack frame (a C tail call);
 *   - a program the kernel's verifier accepted, in the same reading of the
 *     file as tagpipe's (tp_bpf.kernel_ok, bpf_kverify.c), runs its
 *     memory accesses unchecked, as the kernel's JIT does: the verifier
 *     proved each within the packet, the stack, the context or a map value
 *     of the shapes tagpipe gives them (PROVEN in the generated file). It
 *     verified every function the file holds: the selected program with
 *     its BPF-to-BPF calls and bpf_loop callbacks, and each tail-call
 *     target, which bpf_kverify.c loads with it;
 *   - in any other program (--bpf-unverified), packet and map accesses keep
 *     their run-time bounds check (packet and
 *     stack inline, anything else through ops->mem_slow); accesses at a
 *     constant offset from r10 inside the frame and the rewritten context
 *     loads are proven safe at load time and run unchecked; accesses in
 *     one basic block through the same, unchanged base register share one
 *     inline check of the span they cover (a MAC swap: 24 byte accesses,
 *     one check), and each falls back to its own check when the span
 *     fails, so a run faults at the same access as in the interpreter;
 *   - helpers go through ops->helper (the interpreter's dispatcher);
 *   - one call per burst: the generated tp_bpf_burst() loops over the
 *     prepared run states, so the pipeline makes no per-packet indirect
 *     call into the object.
 * The compiler is $CC or "cc", run with -O2 -fPIC -shared on a file in a
 * private directory (mode 0700, mkdtemp) under $XDG_CACHE_HOME/tagpipe or
 * $HOME/.cache/tagpipe, never /tmp; files are removed once loaded.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf_priv.h"

extern char **environ;

/* The prefix of struct bpf_run the generated code declares. */
_Static_assert(offsetof(struct bpf_run, ctx) == 0, "run ABI: ctx");
_Static_assert(offsetof(struct bpf_run, stack) == sizeof(struct bpf_xdp_ctx),
	       "run ABI: stack");
_Static_assert(offsetof(struct bpf_run, fault) == sizeof(struct bpf_xdp_ctx) + 8,
	       "run ABI: fault");
_Static_assert(offsetof(struct bpf_run, cpu) == sizeof(struct bpf_xdp_ctx) + 16,
	       "run ABI: cpu");
_Static_assert(offsetof(struct bpf_run, tail_calls) == sizeof(struct bpf_xdp_ctx) + 24,
	       "run ABI: tail_calls");
_Static_assert(offsetof(struct bpf_run, loop_left) == sizeof(struct bpf_xdp_ctx) + 28,
	       "run ABI: loop_left");
_Static_assert(offsetof(struct bpf_cg_ops, loop_limit) == 3 * sizeof(void *),
	       "ops ABI: loop_limit");
_Static_assert(offsetof(struct bpf_cg_ops, map_lookup) == 4 * sizeof(void *),
	       "ops ABI: map_lookup");
_Static_assert(sizeof(struct bpf_xdp_ctx) == 40, "run ABI: ctx size");

static const char prologue[] =
	"#include <stdint.h>\n"
	"struct rs { uint64_t data, data_end, data_meta; uint32_t ifx, rxq, efx, pad;\n"
	"\tuint8_t *stack; uint64_t fault; uint32_t cpu, rkey, tcc, loop_left; };\n"
	"struct ops { uint64_t (*helper)(struct rs *, int32_t, const uint64_t *);\n"
	"\tint (*mem_slow)(struct rs *, uint64_t, uint32_t, int);\n"
	"\tvoid (*oob)(struct rs *); void (*loop_limit)(struct rs *);\n"
	"\tuint64_t (*map_lookup)(struct rs *, uint64_t, uint64_t); };\n"
	"#define STK %u\n"
	/* pm/pl: packet start (data_meta) and length, in locals: only helpers
	 * change them (the program cannot reach struct rs), so they are
	 * reloaded after every call (RELOAD). One unsigned compare per range. */
	"#define RELOAD() do { pm = rs->data_meta; pl = rs->data_end - pm; } while (0)\n"
	/* PROVEN: the kernel's verifier proved every access in bounds, so
	 * none is checked again (as the kernel's JIT runs it) */
	"#if PROVEN\n"
	"#define FAST(a, n) 1\n"
	"#define CHK(a, n, w) do { } while (0)\n"
	"#else\n"
	"#define FAST(a, n) (((a) - pm <= pl - (n) && pl >= (n)) || \\\n"
	"\t((a) - sb <= STK - (n)))\n"
	"#define CHK(a, n, w) do { if (__builtin_expect(!FAST((a), (n)), 0) && \\\n"
	"\t!ops->mem_slow(rs, (a), (n), (w))) goto oob; } while (0)\n"
	"#endif\n"
	"#define LD(T, d, a) do { uint64_t _a = (a); T _v; CHK(_a, sizeof(T), 0); \\\n"
	"\t__builtin_memcpy(&_v, (const void *)(uintptr_t)_a, sizeof(T)); d = _v; } while (0)\n"
	"#define LDU(T, d, a) do { T _v; \\\n"
	"\t__builtin_memcpy(&_v, (const void *)(uintptr_t)(a), sizeof(T)); d = _v; } while (0)\n"
	"#define ST(T, a, v) do { uint64_t _a = (a); T _v = (T)(v); CHK(_a, sizeof(T), 1); \\\n"
	"\t__builtin_memcpy((void *)(uintptr_t)_a, &_v, sizeof(T)); } while (0)\n"
	"#define STU(T, a, v) do { T _v = (T)(v); \\\n"
	"\t__builtin_memcpy((void *)(uintptr_t)(a), &_v, sizeof(T)); } while (0)\n"
	/* g: the shared check of the current group passed */
	"#define LDG(T, d, a) do { if (__builtin_expect(g, 1)) LDU(T, d, a); else LD(T, d, a); } while (0)\n"
	"#define STG(T, a, v) do { if (__builtin_expect(g, 1)) STU(T, a, v); else ST(T, a, v); } while (0)\n"
	"#define CALLH(id) do { hr[1] = r1; hr[2] = r2; hr[3] = r3; hr[4] = r4; hr[5] = r5; \\\n"
	"\tr0 = ops->helper(rs, (id), hr); if (rs->fault) return 0; RELOAD(); } while (0)\n";

struct gen {
	FILE *f;
	const struct tp_bpf *p;
	uint8_t *target;       /* pc is a jump target (starts a basic block) */
	uint32_t group_end;    /* accesses up to this pc share the check g */
	uint8_t group_base;    /* their base register */
};

static const char *const sz_t[4] = { "uint32_t", "uint16_t", "uint8_t", "uint64_t" };

static unsigned int
sz_bytes(uint8_t code)
{
	static const unsigned int b[4] = { 4, 2, 1, 8 };

	return b[BPF_SIZE(code) >> 3];
}

static void
emit_alu(struct gen *g, const struct bpf_insn *i)
{
	bool is64 = BPF_CLASS(i->code) == BPF_ALU64;
	char s[48], d[8];
	const char *t = is64 ? "uint64_t" : "uint32_t";
	const char *st = is64 ? "int64_t" : "int32_t";
	unsigned int mask = is64 ? 63 : 31;

	snprintf(d, sizeof(d), "r%u", i->dst_reg);
	if (BPF_SRC(i->code) == BPF_X)
		snprintf(s, sizeof(s), "((%s)r%u)", t, i->src_reg);
	else if (is64)
		snprintf(s, sizeof(s), "((uint64_t)(int64_t)%dLL)", i->imm);
	else
		snprintf(s, sizeof(s), "((uint32_t)%uU)", (uint32_t)i->imm);
#define OUT(...) fprintf(g->f, __VA_ARGS__)
	switch (BPF_OP(i->code)) {
	case BPF_ADD: OUT("\t%s = (%s)((%s)%s + %s);\n", d, t, t, d, s); break;
	case BPF_SUB: OUT("\t%s = (%s)((%s)%s - %s);\n", d, t, t, d, s); break;
	case BPF_MUL: OUT("\t%s = (%s)((%s)%s * %s);\n", d, t, t, d, s); break;
	case BPF_DIV: OUT("\t%s = %s ? (%s)((%s)%s / %s) : 0;\n", d, s, t, t, d, s); break;
	case BPF_MOD: OUT("\t%s = %s ? (%s)((%s)%s %% %s) : (%s)%s;\n", d, s, t, t, d, s, t, d);
		break;
	case BPF_OR: OUT("\t%s = (%s)((%s)%s | %s);\n", d, t, t, d, s); break;
	case BPF_AND: OUT("\t%s = (%s)((%s)%s & %s);\n", d, t, t, d, s); break;
	case BPF_XOR: OUT("\t%s = (%s)((%s)%s ^ %s);\n", d, t, t, d, s); break;
	case BPF_LSH: OUT("\t%s = (%s)((%s)%s << (%s & %u));\n", d, t, t, d, s, mask); break;
	case BPF_RSH: OUT("\t%s = (%s)((%s)%s >> (%s & %u));\n", d, t, t, d, s, mask); break;
	case BPF_ARSH: OUT("\t%s = (%s)((%s)(%s)%s >> (%s & %u));\n", d, t, st, t, d, s, mask);
		break;
	case BPF_MOV: OUT("\t%s = %s;\n", d, s); break;
	case BPF_NEG: OUT("\t%s = (%s)(-(%s)%s);\n", d, t, t, d); break;
	case BPF_END:
		if (BPF_SRC(i->code) == BPF_TO_LE)
			OUT("\t%s = (uint%d_t)%s;\n", d, i->imm, d);
		else if (i->imm == 16)
			OUT("\t%s = __builtin_bswap16((uint16_t)%s);\n", d, d);
		else if (i->imm == 32)
			OUT("\t%s = __builtin_bswap32((uint32_t)%s);\n", d, d);
		else
			OUT("\t%s = __builtin_bswap64(%s);\n", d, d);
		break;
	}
}

static const char *
jmp_op(uint8_t op, bool *sign)
{
	*sign = false;
	switch (op) {
	case BPF_JEQ: return "==";
	case BPF_JNE: return "!=";
	case BPF_JGT: return ">";
	case BPF_JGE: return ">=";
	case BPF_JLT: return "<";
	case BPF_JLE: return "<=";
	case BPF_JSET: return "&";
	case BPF_JSGT: *sign = true; return ">";
	case BPF_JSGE: *sign = true; return ">=";
	case BPF_JSLT: *sign = true; return "<";
	case BPF_JSLE: *sign = true; return "<=";
	}
	return NULL;
}

/* bpf_map_lookup_elem on an ARRAY or PERCPU_ARRAY, inlined: r1 is the
 * map's address from ld_imm64, so the C compiler folds the test when the
 * map is known at the call site. Other maps go through the helper, or,
 * when the kernel's verifier proved map and key (PROVEN), straight to the
 * lookup: it can neither fault nor move the packet. */
static void
emit_lookup(struct gen *g)
{
	const struct tp_bpf *p = g->p;

	OUT("\t");
	for (uint32_t k = 0; k < p->nb_maps; k++) {
		const struct tp_bpf_map *m = &p->maps[k];

		if (m->type != BPF_MAP_TYPE_ARRAY && m->type != BPF_MAP_TYPE_PERCPU_ARRAY)
			continue;
		OUT("if (r1 == 0x%llxULL) { uint32_t _k; LD(uint32_t, _k, r2); "
		    "r0 = _k < %uU ? 0x%llxULL + ((uint64_t)_k * %u%s) * %u : 0; } else ",
		    (unsigned long long)(uintptr_t)m, m->max_entries,
		    (unsigned long long)(uintptr_t)m->values, m->ncpu,
		    m->ncpu > 1 ? " + rs->cpu" : "", m->stride);
	}
	if (p->kernel_ok)
		OUT("r0 = ops->map_lookup(rs, r1, r2);\n");
	else
		OUT("CALLH(%d);\n", BPF_FUNC_map_lookup_elem);
}

/* bpf_tail_call inlined (semantics: bpf_exec.c tail_target). A map that
 * is not a PROG_ARRAY goes to the helper dispatcher, which stops the run. */
static void
emit_tail_call(struct gen *g)
{
	const struct tp_bpf *p = g->p;

	OUT("\t{ uint32_t _k = (uint32_t)r3, _v = 0;\n\t");
	for (uint32_t k = 0; k < p->nb_maps; k++) {
		const struct tp_bpf_map *m = &p->maps[k];

		if (m->type != BPF_MAP_TYPE_PROG_ARRAY)
			continue;
		OUT("if (r2 == 0x%llxULL) { if (_k < %uU && rs->tcc < %u) { rs->tcc++; "
		    "__builtin_memcpy(&_v, (const char *)0x%llxULL + (uint64_t)_k * 4, 4); "
		    "} } else ", (unsigned long long)(uintptr_t)m, m->max_entries,
		    BPF_MAX_TAIL_CALLS, (unsigned long long)(uintptr_t)m->values);
	}
	OUT("CALLH(%d);\n\tswitch (_v) {\n", BPF_FUNC_tail_call);
	for (uint32_t k = 0; k < p->nb_progs; k++)
		if (p->progs[k].usable)
			OUT("\tcase %uU: return f%u(rs, ops, (uint64_t)(uintptr_t)rs, 0, 0, 0, "
			    "0, r10);\n", k + 1, p->progs[k].entry);
	OUT("\t}\n\tr0 = (uint64_t)-2LL; /* -ENOENT */ }\n");
}

/* bpf_loop inlined (semantics: bpf_exec.c run_loop): the callback named
 * by r2 is found among the object's callbacks and called as its C
 * function; an unknown one, or no frame left, goes to the helper
 * dispatcher, which stops the run. */
static void
emit_loop(struct gen *g)
{
	const struct tp_bpf *p = g->p;

	OUT("\t{ uint64_t _i = 0; uint32_t _n = (uint32_t)r1; int64_t _f = -1;\n\t"
	    "switch (r2) {");
	for (uint32_t pc = 0; pc < p->nb_insns; pc++)
		if (p->insn_flags[pc] & BPF_IF_CALLBACK)
			OUT(" case 0x%llxULL: _f = %u; break;",
			    (unsigned long long)(BPF_FUNC_ADDR_TAG | pc), pc);
	OUT(" }\n\tif (_f < 0 || r10 + %u > sb + STK) CALLH(%d);\n"
	    "\telse if (r4 != 0) r0 = (uint64_t)-22LL; /* -EINVAL */\n"
	    "\telse if (_n > %uU) r0 = (uint64_t)-7LL; /* -E2BIG */\n"
	    "\telse { for (; _i < _n; _i++) { uint64_t _c = 0; switch (_f) {",
	    BPF_STACK_SIZE, BPF_FUNC_loop, BPF_LOOP_MAX_ITER);
	for (uint32_t pc = 0; pc < p->nb_insns; pc++)
		if (p->insn_flags[pc] & BPF_IF_CALLBACK)
			OUT(" case %u: _c = f%u(rs, ops, _i, r3, 0, 0, 0, r10 + %u); break;",
			    pc, pc, BPF_STACK_SIZE);
	OUT(" }\n\t\tif (rs->fault) return 0; if (_c) { _i++; break; } }\n"
	    "\t\tr0 = _i; RELOAD(); } }\n");
}

/* goto target: backward jumps spend the loop budget in programs with loops. */
static void
emit_goto(struct gen *g, const struct bpf_insn *i, uint32_t target)
{
	if (g->p->has_loops && i->off < 0)
		OUT("{ if (__builtin_expect(rs->loop_left-- == 0, 0)) goto lim; goto L%u; }\n",
		    target);
	else
		OUT("goto L%u;\n", target);
}

static void
emit_jmp(struct gen *g, const struct bpf_insn *i, uint32_t pc)
{
	bool is32 = BPF_CLASS(i->code) == BPF_JMP32, sign;
	uint8_t op = BPF_OP(i->code);
	const char *t, *o;
	uint32_t target = (uint32_t)((int64_t)pc + i->off + 1);
	char s[48];

	if (op == BPF_JA) {
		OUT("\t");
		emit_goto(g, i, target);
		return;
	}
	if (op == BPF_EXIT) {
		OUT("\treturn r0;\n");
		return;
	}
	if (op == BPF_CALL) {
		if (i->src_reg == BPF_PSEUDO_CALL)
			OUT("\tr0 = f%u(rs, ops, r1, r2, r3, r4, r5, r10 + %u); "
			    "if (rs->fault) return 0; RELOAD();\n",
			    (uint32_t)((int64_t)pc + i->imm + 1), BPF_STACK_SIZE);
		else if (i->imm == BPF_FUNC_map_lookup_elem)
			emit_lookup(g);
		else if (i->imm == BPF_FUNC_tail_call)
			emit_tail_call(g);
		else if (i->imm == BPF_FUNC_loop)
			emit_loop(g);
		else
			OUT("\tCALLH(%d);\n", i->imm);
		return;
	}
	o = jmp_op(op, &sign);
	t = is32 ? (sign ? "int32_t" : "uint32_t") : (sign ? "int64_t" : "uint64_t");
	if (BPF_SRC(i->code) == BPF_X)
		snprintf(s, sizeof(s), "(%s)r%u", t, i->src_reg);
	else if (is32)
		snprintf(s, sizeof(s), "(%s)%dLL", t, i->imm);
	else
		snprintf(s, sizeof(s), "(%s)(int64_t)%dLL", t, i->imm);
	if (op == BPF_JSET)
		OUT("\tif (((%s)r%u & %s) != 0) ", t, i->dst_reg, s);
	else
		OUT("\tif ((%s)r%u %s %s) ", t, i->dst_reg, o, s);
	emit_goto(g, i, target);
}

/* r10 + constant offset entirely inside the frame: safe by construction. */
static bool
stack_const(uint8_t base, int16_t off, unsigned int n)
{
	return base == BPF_REG_10 && off < 0 && off >= -BPF_STACK_SIZE &&
	       off + (int)n <= 0;
}

/* Base register of a plain (non-atomic) memory access, or -1. */
static int
access_base(const struct bpf_insn *i)
{
	uint8_t cls = BPF_CLASS(i->code);

	if (BPF_MODE(i->code) != BPF_MEM || i->code == (BPF_LD | BPF_IMM | BPF_DW))
		return -1;
	if (cls == BPF_LDX)
		return i->src_reg;
	if (cls == BPF_ST || cls == BPF_STX)
		return i->dst_reg;
	return -1;
}

/* Does insn i (after its own access) leave register r unchanged? */
static bool
keeps_reg(const struct bpf_insn *i, uint8_t r)
{
	uint8_t cls = BPF_CLASS(i->code);

	if (cls == BPF_ALU || cls == BPF_ALU64 || cls == BPF_LDX ||
	    i->code == (BPF_LD | BPF_IMM | BPF_DW))
		return i->dst_reg != r;
	return cls == BPF_ST || (cls == BPF_STX && BPF_MODE(i->code) == BPF_MEM);
}

/* At a checked access that starts no group yet: find the accesses through
 * the same base up to the end of the basic block (a jump target, a jump,
 * call or exit, or a change of the base) and, when there are two or more,
 * emit the check of their span into g. */
static void
maybe_group(struct gen *g, uint32_t pc)
{
	const struct tp_bpf *p = g->p;
	const struct bpf_insn *i = &p->insns[pc];
	int base = access_base(i);
	int64_t lo = i->off, hi = (int64_t)i->off + sz_bytes(i->code);
	uint32_t last = pc, n = 1;

	if (pc <= g->group_end && g->group_base == base)
		return;
	for (uint32_t q = pc; q < p->nb_insns; q++) {
		const struct bpf_insn *j = &p->insns[q];
		uint8_t cls = BPF_CLASS(j->code);

		if (q != pc && (g->target[q] || (p->insn_flags[q] & BPF_IF_FUNC)))
			break;
		if (q != pc && access_base(j) == base) {
			lo = RTE_MIN(lo, (int64_t)j->off);
			hi = RTE_MAX(hi, (int64_t)j->off + sz_bytes(j->code));
			last = q;
			n++;
		}
		if (cls == BPF_JMP || cls == BPF_JMP32 || !keeps_reg(j, (uint8_t)base))
			break;
		if (j->code == (BPF_LD | BPF_IMM | BPF_DW))
			q++; /* its second half */
	}
	if (n < 2 || hi - lo > BPF_STACK_SIZE)
		return;
	OUT("\t{ uint64_t _a = r%d + (uint64_t)(int64_t)%lld; g = FAST(_a, %lldU); }\n",
	    base, (long long)lo, (long long)(hi - lo));
	g->group_end = last;
	g->group_base = (uint8_t)base;
}

static void
emit_mem(struct gen *g, const struct bpf_insn *i, uint32_t pc)
{
	uint8_t cls = BPF_CLASS(i->code);
	unsigned int n = sz_bytes(i->code);
	const char *t = sz_t[BPF_SIZE(i->code) >> 3];

	if (cls == BPF_LDX) {
		bool safe = (g->p->insn_flags[pc] & BPF_IF_CTX_LOAD) ||
			    stack_const(i->src_reg, i->off, n);

		bool grouped = false;

		if (!safe) {
			maybe_group(g, pc);
			grouped = pc <= g->group_end && g->group_base == i->src_reg;
		}
		OUT("\t%s(%s, r%u, r%u + (uint64_t)(int64_t)%d);\n",
		    safe ? "LDU" : grouped ? "LDG" : "LD", t,
		    i->dst_reg, i->src_reg, i->off);
		return;
	}
	if (cls == BPF_STX && BPF_MODE(i->code) == BPF_ATOMIC) {
		const char *fn = NULL;

		OUT("\t{ uint64_t _a = r%u + (uint64_t)(int64_t)%d; CHK(_a, %u, 1); "
		    "if (_a & %u) goto oob;\n", i->dst_reg, i->off, n, n - 1);
		switch (i->imm & ~BPF_FETCH) {
		case BPF_ADD: fn = "__atomic_fetch_add"; break;
		case BPF_AND: fn = "__atomic_fetch_and"; break;
		case BPF_OR: fn = "__atomic_fetch_or"; break;
		case BPF_XOR: fn = "__atomic_fetch_xor"; break;
		}
		if (i->imm == BPF_XCHG) {
			OUT("\t  r%u = __atomic_exchange_n((%s *)(uintptr_t)_a, (%s)r%u, 5); }\n",
			    i->src_reg, t, t, i->src_reg);
		} else if (i->imm == BPF_CMPXCHG) {
			OUT("\t  %s _e = (%s)r0; __atomic_compare_exchange_n((%s *)(uintptr_t)_a, "
			    "&_e, (%s)r%u, 0, 5, 5); r0 = _e; }\n", t, t, t, t, i->src_reg);
		} else if (i->imm & BPF_FETCH) {
			OUT("\t  r%u = %s((%s *)(uintptr_t)_a, (%s)r%u, 5); }\n",
			    i->src_reg, fn, t, t, i->src_reg);
		} else {
			OUT("\t  (void)%s((%s *)(uintptr_t)_a, (%s)r%u, 5); }\n", fn, t, t,
			    i->src_reg);
		}
		return;
	}
	{
		bool safe = stack_const(i->dst_reg, i->off, n), grouped = false;
		char v[40];

		if (!safe) {
			maybe_group(g, pc);
			grouped = pc <= g->group_end && g->group_base == i->dst_reg;
		}
		if (cls == BPF_STX)
			snprintf(v, sizeof(v), "r%u", i->src_reg);
		else
			snprintf(v, sizeof(v), "(int64_t)%dLL", i->imm);
		OUT("\t%s(%s, r%u + (uint64_t)(int64_t)%d, %s);\n",
		    safe ? "STU" : grouped ? "STG" : "ST", t, i->dst_reg, i->off, v);
	}
}

static void
emit_function(struct gen *g, uint32_t start)
{
	const struct tp_bpf *p = g->p;

	OUT("static uint64_t f%u(struct rs *rs, const struct ops *ops, uint64_t r1, "
	    "uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5, uint64_t r10)\n{\n"
	    "\tuint64_t r0 = 0, r6 = 0, r7 = 0, r8 = 0, r9 = 0, hr[6] = { 0 };\n"
	    "\tuint64_t pm, pl, sb = (uint64_t)(uintptr_t)rs->stack;\n\tint g = 0;\n"
	    "\tRELOAD(); (void)g;\n", start);
	for (uint32_t pc = start; pc < p->nb_insns; pc++) {
		const struct bpf_insn *i = &p->insns[pc];

		if (pc != start && (p->insn_flags[pc] & BPF_IF_FUNC))
			break;
		if (!(p->insn_flags[pc] & BPF_IF_REACHED))
			continue;
		OUT("L%u:\n", pc);
		if (i->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			uint64_t v = (uint32_t)i->imm | (uint64_t)(uint32_t)i[1].imm << 32;

			if (i->src_reg == BPF_PSEUDO_FUNC) /* as bpf_exec.c */
				v = BPF_FUNC_ADDR_TAG | (uint32_t)((int64_t)pc + i->imm + 1);
			OUT("\tr%u = 0x%llxULL;\n", i->dst_reg, (unsigned long long)v);
			pc++;
			continue;
		}
		switch (BPF_CLASS(i->code)) {
		case BPF_ALU: case BPF_ALU64: emit_alu(g, i); break;
		case BPF_JMP: case BPF_JMP32: emit_jmp(g, i, pc); break;
		default: emit_mem(g, i, pc); break;
		}
	}
	OUT("oob:\n\tops->oob(rs);\n\treturn 0;\n");
	if (p->has_loops)
		OUT("lim:\n\tops->loop_limit(rs);\n\treturn 0;\n");
	OUT("}\n");
}

static int
generate(const struct tp_bpf *p, FILE *f)
{
	struct gen g = { .f = f, .p = p, .group_base = UINT8_MAX };

	g.target = calloc(p->nb_insns + 1, 1);
	if (g.target == NULL)
		return -ENOMEM;
	for (uint32_t pc = 0; pc < p->nb_insns; pc++) {
		const struct bpf_insn *i = &p->insns[pc];
		uint8_t cls = BPF_CLASS(i->code), op = BPF_OP(i->code);
		int64_t t = (int64_t)pc + i->off + 1;

		if ((p->insn_flags[pc] & BPF_IF_REACHED) && (cls == BPF_JMP || cls == BPF_JMP32) &&
		    op != BPF_CALL && op != BPF_EXIT && t >= 0 && t < p->nb_insns)
			g.target[t] = 1;
	}
	fprintf(f, "#define PROVEN %d\n", p->kernel_ok ? 1 : 0);
	fprintf(f, prologue, BPF_MAX_FRAMES * BPF_STACK_SIZE);
	for (uint32_t pc = 0; pc < p->nb_insns; pc++)
		if (p->insn_flags[pc] & BPF_IF_FUNC)
			fprintf(f, "static uint64_t f%u(struct rs *, const struct ops *, uint64_t, "
				"uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);\n", pc);
	for (uint32_t pc = 0; pc < p->nb_insns; pc++)
		if (p->insn_flags[pc] & BPF_IF_FUNC)
			emit_function(&g, pc);
	fprintf(f, "void tp_bpf_burst(char *base, unsigned short n, uint64_t *r0, "
		"const struct ops *ops)\n{\n\tfor (unsigned int i = 0; i < n; i++) {\n"
		"\t\tstruct rs *rs = (struct rs *)(base + (unsigned long)i * %zu);\n"
		"\t\tr0[i] = f%u(rs, ops, (uint64_t)(uintptr_t)rs, 0, 0, 0, 0, "
		"(uint64_t)(uintptr_t)rs->stack + %u);\n\t}\n}\n",
		sizeof(struct bpf_run), p->entry, BPF_STACK_SIZE);
	free(g.target);
	return ferror(f) ? -EIO : 0;
}

static int
cache_dir(char *buf, size_t len)
{
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
	char base[512];

	if (x != NULL && x[0] == '/')
		snprintf(base, sizeof(base), "%s/tagpipe", x);
	else if (h != NULL && h[0] == '/')
		snprintf(base, sizeof(base), "%s/.cache/tagpipe", h);
	else
		return -ENOENT;
	if (strncmp(base, "/tmp/", 5) == 0)
		return -EPERM;
	{
		char parent[512];
		char *slash;

		snprintf(parent, sizeof(parent), "%s", base);
		slash = strrchr(parent, '/');
		if (slash != NULL && slash != parent) {
			*slash = '\0';
			(void)mkdir(parent, 0700);
		}
	}
	if (mkdir(base, 0700) != 0 && errno != EEXIST)
		return -errno;
	if ((size_t)snprintf(buf, len, "%s/bpf-XXXXXX", base) >= len)
		return -ENAMETOOLONG;
	return mkdtemp(buf) ? 0 : -errno;
}

static int
run_cc(const char *dir, const char *src, const char *so, char *err, size_t errlen)
{
	const char *cc = getenv("CC");
	char log[700];
	char *argv[] = { (char *)(cc && cc[0] ? cc : "cc"), "-O2", "-fPIC", "-shared",
			 "-fno-strict-aliasing", "-w", "-o", (char *)so, (char *)src, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc;

	snprintf(log, sizeof(log), "%s/cc.log", dir);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		snprintf(err, errlen, "cannot run C compiler '%s': %s", argv[0], strerror(rc));
		unlink(log);
		return -rc;
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char first[160] = "";
		FILE *f = fopen(log, "r");

		if (f != NULL) {
			if (fgets(first, sizeof(first), f) == NULL)
				first[0] = '\0';
			fclose(f);
		}
		first[strcspn(first, "\n")] = '\0';
		snprintf(err, errlen, "C compiler '%s' failed: %s", argv[0], first);
		unlink(log);
		return -EINVAL;
	}
	unlink(log);
	return 0;
}

int
bpf_compile(struct tp_bpf *p, char *err, size_t errlen)
{
	char dir[600], src[640], so[640];
	FILE *f;
	int rc;

	rc = cache_dir(dir, sizeof(dir));
	if (rc < 0) {
		snprintf(err, errlen, "no private cache directory ($XDG_CACHE_HOME or "
			 "$HOME, not under /tmp): %s", strerror(-rc));
		return rc;
	}
	snprintf(src, sizeof(src), "%s/prog.c", dir);
	snprintf(so, sizeof(so), "%s/prog.so", dir);
	f = fopen(src, "w");
	if (f == NULL) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", src, strerror(errno));
		rmdir(dir);
		return rc;
	}
	rc = generate(p, f);
	if (fclose(f) != 0 && rc == 0)
		rc = -EIO;
	if (rc == 0)
		rc = run_cc(dir, src, so, err, errlen);
	if (rc == 0) {
		p->dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
		if (p->dl == NULL) {
			snprintf(err, errlen, "dlopen: %s", dlerror());
			rc = -EINVAL;
		} else {
			p->compiled = (bpf_compiled_fn)(uintptr_t)dlsym(p->dl, "tp_bpf_burst");
			if (p->compiled == NULL) {
				snprintf(err, errlen, "dlsym: %s", dlerror());
				dlclose(p->dl);
				p->dl = NULL;
				rc = -EINVAL;
			}
		}
	}
	unlink(src);
	unlink(so);
	rmdir(dir);
	return rc;
}

void
bpf_compiled_free(struct tp_bpf *p)
{
	if (p->dl != NULL)
		dlclose(p->dl);
	p->dl = NULL;
	p->compiled = NULL;
}
