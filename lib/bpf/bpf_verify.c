/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Load-time checks and the xdp_md rewrite (contract: tp_prog.h).
 *
 * 1. Structure: every reachable instruction is a valid eBPF v1-v3 opcode
 *    (include/uapi/linux/bpf.h), jumps land on instructions inside their
 *    function (never on the second half of ld_imm64), code cannot run off
 *    the end, helpers are ones the runtime has, shifts and constant
 *    divisors are in range.
 * 2. Termination: no recursion, call depth at most 8 frames (kernel
 *    MAX_CALL_FRAMES), and every reachable instruction has a path to an
 *    exit (a loop nothing leaves is refused as infinite). Other loops
 *    (back-edges) are recorded, not refused: tagpipe cannot prove that
 *    they end, as the kernel does since Linux 5.3 by exploring them, so
 *    the caller (prog_bpf.c) runs them only when the kernel's verifier
 *    accepted the object or the user asked for --bpf-unverified, and the
 *    run-time budget of BPF_LOOP_BUDGET backward jumps stops any run that
 *    loops longer (bpf_exec.c, bpf_jit_x86.c).
 * 3. Registers: a data-flow pass (meet over all paths) gives each
 *    register and 8-byte stack slot a kind: unset, scalar/pointer, the
 *    context, or "context on some paths". Reading an unset register is
 *    refused, as the kernel's check_reg_arg does. r0 must be set at the
 *    exits of the program and of bpf_loop callbacks only: a BPF-to-BPF
 *    callee may return nothing, and its caller then may not read r0
 *    (kernel/bpf/verifier.c prepare_func_exit, check_return_code). A byte
 *    swap (BPF_END) reads only its destination register.
 * 4. The context: programs read struct xdp_md with 4-byte loads at
 *    offsets 0..20 (net/core/filter.c xdp_is_valid_access). Each such load
 *    from a register holding the context -- followed through moves, stack
 *    spills and fills, and into BPF-to-BPF callees -- is rewritten in place
 *    into a load of struct bpf_xdp_ctx, whose pointers are 64-bit. The
 *    instruction count does not change, so no jump needs fixing. Any other
 *    use of the context (other sizes, stores, arithmetic, a register that
 *    is the context on one path only) is refused, as in the kernel.
 * Packet, stack and map accesses are then checked at run time on every
 * access (bpf_exec.c), so a program that skips its data_end check is
 * aborted rather than trusted.
 * Objects with tail calls: each other program of p->progs is checked the
 * same way, one after the other, on the same (shared) instructions; a
 * context load rewritten for one program stays valid for the next, and a
 * shared instruction that is a context load for one program but not for
 * another refuses the later one. A refused target is only marked unusable
 * (no PROG_ARRAY slot may point at it), its changes undone.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_priv.h"

enum { K_U = 0, K_S = 1, K_C = 2, K_M = 3 };
#define NSLOTS (BPF_STACK_SIZE / 8)

struct vstate {
	uint8_t reg[11];
	uint8_t slot[NSLOTS];
	uint8_t seen;
};

struct verifier {
	struct tp_bpf *p;
	uint32_t n;
	uint32_t entry;        /* the program being checked */
	const uint8_t *prev;   /* insn_flags left by programs checked before */
	int32_t *func;         /* pc -> function start pc, -1 unreached */
	uint8_t *second;       /* pc is the second half of ld_imm64 */
	struct vstate *st;     /* in-state per pc */
	uint32_t *work;
	uint32_t nwork;
	uint8_t *queued;
	uint8_t *cb;           /* pc starts a bpf_loop callback */
	uint8_t *loops;        /* function (start pc) calls bpf_loop */
	uint8_t *tails;        /* function (start pc) makes a tail call */
	uint8_t *ret_unset;    /* function (start pc) may return with r0 unset */
	char *err;
	size_t errlen;
};

static int
verr(struct verifier *v, uint32_t pc, const char *fmt, ...)
{
	char msg[BPF_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(v->err, v->errlen, "%s (%s): pc %u: %s", v->p->path,
		 v->p->section, pc, msg);
	return -EINVAL;
}

static bool
is_ldimm64(const struct bpf_insn *i)
{
	return i->code == (BPF_LD | BPF_IMM | BPF_DW);
}

/* Successors of pc: fallthrough and/or jump target; returns count. */
static int
succs(const struct bpf_insn *i, uint32_t pc, int64_t out[2])
{
	uint8_t cls = BPF_CLASS(i->code), op = BPF_OP(i->code);

	if (is_ldimm64(i)) {
		out[0] = pc + 2;
		return 1;
	}
	if (cls == BPF_JMP || cls == BPF_JMP32) {
		if (op == BPF_EXIT)
			return 0;
		if (op == BPF_CALL) {
			out[0] = pc + 1;
			return 1;
		}
		if (op == BPF_JA) {
			out[0] = (int64_t)pc + i->off + 1;
			return 1;
		}
		out[0] = pc + 1;
		out[1] = (int64_t)pc + i->off + 1;
		return 2;
	}
	out[0] = pc + 1;
	return 1;
}

static int
check_alu(struct verifier *v, const struct bpf_insn *i, uint32_t pc)
{
	uint8_t op = BPF_OP(i->code), cls = BPF_CLASS(i->code);
	bool x = BPF_SRC(i->code) == BPF_X;
	unsigned int bits = cls == BPF_ALU64 ? 64 : 32;

	switch (op) {
	case BPF_ADD: case BPF_SUB: case BPF_MUL: case BPF_OR: case BPF_AND:
	case BPF_XOR: case BPF_MOV: case BPF_ARSH:
		break;
	case BPF_DIV: case BPF_MOD:
		if (!x && i->imm == 0)
			return verr(v, pc, "division by constant zero");
		break;
	case BPF_LSH: case BPF_RSH:
		if (!x && (i->imm < 0 || (unsigned int)i->imm >= bits))
			return verr(v, pc, "shift by %d on %u bits", i->imm, bits);
		break;
	case BPF_NEG:
		if (x)
			return verr(v, pc, "bad neg opcode 0x%02x", i->code);
		break;
	case BPF_END:
		/* The source bit is the byte order (BPF_TO_LE / BPF_TO_BE), not
		 * a register operand; src_reg must be 0 (kernel/bpf/verifier.c
		 * check_alu_op: "BPF_END uses reserved fields"). */
		if (cls == BPF_ALU64)
			return verr(v, pc, "bswap (eBPF v4) is not supported");
		if (i->imm != 16 && i->imm != 32 && i->imm != 64)
			return verr(v, pc, "byte swap of %d bits", i->imm);
		if (i->src_reg != 0)
			return verr(v, pc, "byte swap with src_reg %u (reserved)", i->src_reg);
		break;
	default:
		return verr(v, pc, "unknown ALU opcode 0x%02x", i->code);
	}
	if (i->off != 0)
		return verr(v, pc, "opcode 0x%02x with offset %d (signed div/mod "
			    "and movsx of eBPF v4 are not supported)", i->code, i->off);
	if (i->dst_reg == BPF_REG_10)
		return verr(v, pc, "r10 (frame pointer) is read-only");
	return 0;
}

static int
check_mem(struct verifier *v, const struct bpf_insn *i, uint32_t pc)
{
	uint8_t cls = BPF_CLASS(i->code), mode = BPF_MODE(i->code);
	uint8_t size = BPF_SIZE(i->code);

	if (cls == BPF_LD)
		return verr(v, pc, "LD_ABS/LD_IND (opcode 0x%02x) is for socket "
			    "filters, not XDP", i->code);
	if (cls == BPF_STX && mode == BPF_ATOMIC) {
		int32_t op = i->imm & ~BPF_FETCH;

		if (size != BPF_W && size != BPF_DW)
			return verr(v, pc, "atomic of size %u", 1u << (size >> 3));
		if (!(op == BPF_ADD || op == BPF_AND || op == BPF_OR ||
		      op == BPF_XOR || i->imm == BPF_XCHG || i->imm == BPF_CMPXCHG))
			return verr(v, pc, "unknown atomic operation 0x%x", i->imm);
		/* the fetch forms but cmpxchg (which writes r0) load the old
		 * value into src_reg, and r10 is read-only (kernel/bpf/verifier.c
		 * check_atomic: "frame pointer is read only"); compiled code
		 * trusts r10 */
		if ((i->imm & BPF_FETCH) && i->imm != BPF_CMPXCHG && i->src_reg == BPF_REG_10)
			return verr(v, pc, "r10 (frame pointer) is read-only");
		return 0;
	}
	if (mode != BPF_MEM)
		return verr(v, pc, "memory mode 0x%02x not supported (opcode 0x%02x)",
			    mode, i->code);
	if (cls == BPF_LDX && i->dst_reg == BPF_REG_10)
		return verr(v, pc, "r10 (frame pointer) is read-only");
	return 0;
}

static int
check_jmp(struct verifier *v, const struct bpf_insn *i, uint32_t pc)
{
	uint8_t op = BPF_OP(i->code), cls = BPF_CLASS(i->code);

	switch (op) {
	case BPF_JA:
		if (cls == BPF_JMP32)
			return verr(v, pc, "gotol (eBPF v4) is not supported");
		return 0;
	case BPF_JEQ: case BPF_JGT: case BPF_JGE: case BPF_JSET: case BPF_JNE:
	case BPF_JSGT: case BPF_JSGE: case BPF_JLT: case BPF_JLE: case BPF_JSLT:
	case BPF_JSLE:
		return 0;
	case BPF_CALL:
		if (cls == BPF_JMP32)
			break;
		if (i->src_reg == BPF_PSEUDO_CALL)
			return 0;
		if (i->src_reg != 0)
			return verr(v, pc, "kfunc call (src_reg %u) is not supported",
				    i->src_reg);
		if (tpb_helper_nargs(i->imm) < 0)
			return verr(v, pc, "helper %d is not supported", i->imm);
		return 0;
	case BPF_EXIT:
		if (cls == BPF_JMP32)
			break;
		return 0;
	}
	return verr(v, pc, "unknown jump opcode 0x%02x", i->code);
}

static int
check_insn(struct verifier *v, uint32_t pc)
{
	const struct bpf_insn *i = &v->p->insns[pc];

	if (i->dst_reg > 10 || i->src_reg > 10)
		return verr(v, pc, "register number above r10");
	if (is_ldimm64(i)) {
		if (pc + 1 >= v->n || v->p->insns[pc + 1].code != 0)
			return verr(v, pc, "truncated ld_imm64");
		if (i->src_reg != 0 && i->src_reg != BPF_PSEUDO_FUNC)
			return verr(v, pc, "ld_imm64 pseudo source %u (map fd/BTF id "
				    "forms) is not supported in object files", i->src_reg);
		if (i->dst_reg == BPF_REG_10)
			return verr(v, pc, "r10 (frame pointer) is read-only");
		return 0;
	}
	switch (BPF_CLASS(i->code)) {
	case BPF_ALU: case BPF_ALU64:
		return check_alu(v, i, pc);
	case BPF_LD: case BPF_LDX: case BPF_ST: case BPF_STX:
		return check_mem(v, i, pc);
	default:
		return check_jmp(v, i, pc);
	}
}

/* Mark the function starting at start: DFS, refuse back-edges and code
 * shared between functions. color: 0 white, 1 on stack, 2 done. */
static int
walk_function(struct verifier *v, uint32_t start, uint8_t *color,
	      uint32_t *stack, uint32_t *calls, uint32_t *ncalls)
{
	uint32_t sp = 0;
	uint8_t *nexti = calloc(v->n, 1);

	if (nexti == NULL)
		return verr(v, start, "out of memory");
	stack[sp++] = start;
	color[start] = 1;
	v->func[start] = (int32_t)start;
	while (sp > 0) {
		uint32_t pc = stack[sp - 1];
		const struct bpf_insn *i = &v->p->insns[pc];
		int64_t s[2];
		int ns, rc;

		if (nexti[pc] == 0) {
			rc = check_insn(v, pc);
			if (rc < 0)
				goto out_rc;
			if (i->code == (BPF_JMP | BPF_CALL) &&
			    i->src_reg == BPF_PSEUDO_CALL) {
				int64_t t = (int64_t)pc + i->imm + 1;

				if (t < 0 || t >= v->n || v->second[t]) {
					rc = verr(v, pc, "call to pc %ld outside the code", (long)t);
					goto out_rc;
				}
				calls[(*ncalls)++] = (uint32_t)t;
			}
			if (is_ldimm64(i) && i->src_reg == BPF_PSEUDO_FUNC) {
				/* a callback: walked as a function called from here */
				int64_t t = (int64_t)pc + i->imm + 1;

				if (t < 0 || t >= v->n || v->second[t]) {
					rc = verr(v, pc, "function address pc %ld outside the "
						  "code", (long)t);
					goto out_rc;
				}
				v->cb[t] = 1;
				calls[(*ncalls)++] = (uint32_t)t;
			}
			if (i->code == (BPF_JMP | BPF_CALL) && i->src_reg == 0) {
				v->loops[start] |= i->imm == BPF_FUNC_loop;
				v->tails[start] |= i->imm == BPF_FUNC_tail_call;
			}
		}
		ns = succs(i, pc, s);
		if (nexti[pc] < ns) {
			int64_t t = s[nexti[pc]++];

			if (t < 0 || t >= v->n || v->second[t]) {
				rc = verr(v, pc, t >= v->n ? "runs past the end of the code" :
					  "jump to pc %ld outside the code", (long)t);
				goto out_rc;
			}
			if (v->func[t] >= 0 && v->func[t] != (int32_t)start) {
				rc = verr(v, pc, "jump into another function (pc %ld)", (long)t);
				goto out_rc;
			}
			if (color[t] == 1 && !v->p->has_loops) {
				v->p->has_loops = true;
				v->p->loop_pc = pc;
			}
			if (color[t] == 0) {
				color[t] = 1;
				v->func[t] = (int32_t)start;
				stack[sp++] = (uint32_t)t;
			}
			continue;
		}
		color[pc] = 2;
		sp--;
	}
	free(nexti);
	return 0;
out_rc:
	free(nexti);
	return -EINVAL;
}

/* Depth-first over the call graph: no recursion, depth <= BPF_MAX_FRAMES. */
static int
call_depth(struct verifier *v, uint32_t f, unsigned int d, const uint32_t *efrom,
	   const uint32_t *eto, uint32_t ne, uint8_t *onstack)
{
	int rc = 0;

	if (onstack[f])
		return verr(v, f, "recursive BPF-to-BPF call");
	if (d > BPF_MAX_FRAMES)
		return verr(v, f, "call depth above %d frames", BPF_MAX_FRAMES);
	onstack[f] = 1;
	for (uint32_t e = 0; e < ne && rc == 0; e++)
		if (efrom[e] == f)
			rc = call_depth(v, eto[e], d + 1, efrom, eto, ne, onstack);
	/* bpf_loop runs its callback one frame below: whichever callback its
	 * argument names, so every one counts (an over-approximation that
	 * keeps the stack bound whatever register flow brought it there) */
	for (uint32_t c = 0; c < v->n && rc == 0 && v->loops[f]; c++)
		if (v->cb[c])
			rc = call_depth(v, c, d + 1, efrom, eto, ne, onstack);
	onstack[f] = 0;
	return rc;
}

/* Tail calls from inside a bpf_loop callback (or what it calls) are
 * refused: the callback must return to bpf_loop. seen: n bytes. */
static int
callback_tail_calls(struct verifier *v, const uint32_t *efrom, const uint32_t *eto,
		    uint32_t ne, uint8_t *seen)
{
	bool grew = true;

	memset(seen, 0, v->n);
	for (uint32_t c = 0; c < v->n; c++)
		seen[c] = v->cb[c];
	while (grew) {
		grew = false;
		for (uint32_t e = 0; e < ne; e++)
			if (seen[efrom[e]] && !seen[eto[e]])
				seen[eto[e]] = grew = true;
	}
	for (uint32_t f = 0; f < v->n; f++)
		if (seen[f] && v->tails[f])
			return verr(v, f, "tail call inside a bpf_loop callback is not "
				    "supported");
	return 0;
}

/* Walk every function reachable from the entry, then check the calls. */
static int
discover(struct verifier *v)
{
	uint32_t *fstart = calloc(v->n, sizeof(uint32_t));
	uint32_t *calls = calloc(v->n, sizeof(uint32_t));
	uint32_t *efrom = calloc(v->n, sizeof(uint32_t));
	uint32_t *eto = calloc(v->n, sizeof(uint32_t));
	uint32_t *stack = calloc(v->n, sizeof(uint32_t));
	uint8_t *color = calloc(v->n, 1);
	uint8_t *known = calloc(v->n, 1);
	uint32_t nf = 0, ne = 0;
	int rc = 0;

	if (!fstart || !calls || !efrom || !eto || !stack || !color || !known) {
		rc = verr(v, 0, "out of memory");
		goto out;
	}
	fstart[nf++] = v->entry;
	known[v->entry] = 1;
	for (uint32_t f = 0; f < nf && rc == 0; f++) {
		uint32_t nc = 0;

		rc = walk_function(v, fstart[f], color, stack, calls, &nc);
		for (uint32_t c = 0; c < nc && rc == 0; c++) {
			uint32_t t = calls[c];

			if (v->func[t] >= 0 && v->func[t] != (int32_t)t)
				rc = verr(v, t, "call into the middle of a function");
			efrom[ne] = fstart[f];
			eto[ne++] = t;
			if (!known[t]) {
				known[t] = 1;
				fstart[nf++] = t;
			}
		}
	}
	if (rc == 0) {
		memset(color, 0, v->n);
		rc = call_depth(v, v->entry, 1, efrom, eto, ne, color);
	}
	if (rc == 0)
		rc = callback_tail_calls(v, efrom, eto, ne, color);
out:
	free(fstart);
	free(calls);
	free(efrom);
	free(eto);
	free(stack);
	free(color);
	free(known);
	return rc;
}

/* Every reached instruction must have a path to an exit: backward
 * propagation to a fixpoint (calls are assumed to return; a callee that
 * cannot is caught in its own body). */
static int
check_exits(struct verifier *v)
{
	uint8_t *ce = calloc(v->n, 1);
	bool changed = true;
	int rc = 0;

	if (ce == NULL)
		return verr(v, v->entry, "out of memory");
	while (changed) {
		changed = false;
		for (uint32_t pc = v->n; pc-- > 0;) {
			const struct bpf_insn *i = &v->p->insns[pc];
			int64_t t[2];
			int ns;

			if (v->func[pc] < 0 || ce[pc])
				continue;
			ns = succs(i, pc, t);
			if (ns == 0)
				ce[pc] = 1; /* exit */
			for (int k = 0; k < ns && !ce[pc]; k++)
				ce[pc] = ce[t[k]];
			changed |= ce[pc] != 0;
		}
	}
	for (uint32_t pc = 0; pc < v->n && rc == 0; pc++)
		if (v->func[pc] >= 0 && !ce[pc])
			rc = verr(v, pc, "infinite loop: no path from here reaches an "
				  "exit");
	free(ce);
	return rc;
}

static uint8_t
meet(uint8_t a, uint8_t b)
{
	if (a == b)
		return a;
	if (a == K_U || b == K_U)
		return K_U;
	return K_M;
}

static void
flow_into(struct verifier *v, uint32_t pc, const struct vstate *s)
{
	struct vstate *d = &v->st[pc];
	bool changed = false;

	if (!d->seen) {
		*d = *s;
		d->seen = 1;
		changed = true;
	} else {
		for (int r = 0; r < 11; r++) {
			uint8_t m = meet(d->reg[r], s->reg[r]);

			changed |= m != d->reg[r];
			d->reg[r] = m;
		}
		for (int k = 0; k < NSLOTS; k++) {
			uint8_t m = meet(d->slot[k], s->slot[k]);

			changed |= m != d->slot[k];
			d->slot[k] = m;
		}
	}
	if (changed && !v->queued[pc]) {
		v->queued[pc] = 1;
		v->work[v->nwork++] = pc;
	}
}

static int
use(struct verifier *v, uint32_t pc, const struct vstate *s, int r, bool final)
{
	if (final && s->reg[r] == K_U)
		return verr(v, pc, "r%d is read before it is set", r);
	return 0;
}

/* The xdp_md field at off -> (size, offset) in struct bpf_xdp_ctx. */
static int
ctx_field(uint32_t off, uint8_t *size, int16_t *noff)
{
	switch (off) {
	case 0: *size = BPF_DW; *noff = offsetof(struct bpf_xdp_ctx, data); return 0;
	case 4: *size = BPF_DW; *noff = offsetof(struct bpf_xdp_ctx, data_end); return 0;
	case 8: *size = BPF_DW; *noff = offsetof(struct bpf_xdp_ctx, data_meta); return 0;
	case 12: *size = BPF_W; *noff = offsetof(struct bpf_xdp_ctx, ingress_ifindex); return 0;
	case 16: *size = BPF_W; *noff = offsetof(struct bpf_xdp_ctx, rx_queue_index); return 0;
	default: return -1;
	}
}

/* BPF_EXIT: the main program and bpf_loop callbacks must return a value
 * (kernel/bpf/verifier.c: check_return_code at the outermost exit, "R0
 * not a scalar value" for a callback), a BPF-to-BPF callee need not:
 * clang drops a callee's return value that no caller uses, and the kernel
 * then gives the caller an unset r0, which it may not read. So a callee
 * exit with r0 unset marks the function, and its call sites are visited
 * again with r0 unset after the call. */
static int
exit_r0(struct verifier *v, uint32_t pc, const struct vstate *s, bool final)
{
	uint32_t f = (uint32_t)v->func[pc];

	if (f == v->entry || v->cb[f])
		return use(v, pc, s, BPF_REG_0, final);
	if (final || s->reg[BPF_REG_0] != K_U || v->ret_unset[f])
		return 0;
	v->ret_unset[f] = 1;
	for (uint32_t c = 0; c < v->n; c++) {
		const struct bpf_insn *ci = &v->p->insns[c];

		if (v->st[c].seen && ci->code == (BPF_JMP | BPF_CALL) &&
		    ci->src_reg == BPF_PSEUDO_CALL && (int64_t)c + ci->imm + 1 == f &&
		    !v->queued[c]) {
			v->queued[c] = 1;
			v->work[v->nwork++] = c;
		}
	}
	return 0;
}

/* Apply insn pc to state s. final: report errors and rewrite. */
static int
transfer(struct verifier *v, uint32_t pc, struct vstate *s, bool final)
{
	struct bpf_insn *i = &v->p->insns[pc];
	uint8_t cls = BPF_CLASS(i->code);
	int rc = 0;

	if (is_ldimm64(i)) {
		if (i->src_reg == BPF_PSEUDO_FUNC && !final) {
			/* bpf_loop's callback: r1 the index, r2 its context */
			struct vstate c;

			memset(&c, K_U, sizeof(c));
			c.reg[BPF_REG_1] = K_S;
			c.reg[BPF_REG_2] = K_S;
			c.reg[BPF_REG_10] = K_S;
			flow_into(v, (uint32_t)((int64_t)pc + i->imm + 1), &c);
		}
		s->reg[i->dst_reg] = K_S;
		return 0;
	}
	switch (cls) {
	case BPF_ALU: case BPF_ALU64: {
		uint8_t op = BPF_OP(i->code);
		/* BPF_END's source bit says to_be, not a source register */
		bool x = BPF_SRC(i->code) == BPF_X && op != BPF_END;

		if (x && (rc = use(v, pc, s, i->src_reg, final)) < 0)
			return rc;
		if (op == BPF_MOV) {
			s->reg[i->dst_reg] = x && cls == BPF_ALU64 ? s->reg[i->src_reg] : K_S;
			return 0;
		}
		if ((rc = use(v, pc, s, i->dst_reg, final)) < 0)
			return rc;
		if (final && (s->reg[i->dst_reg] >= K_C || (x && s->reg[i->src_reg] >= K_C)))
			return verr(v, pc, "arithmetic on the context pointer");
		s->reg[i->dst_reg] = K_S;
		return 0;
	}
	case BPF_LDX: {
		uint8_t b = s->reg[i->src_reg];

		if ((rc = use(v, pc, s, i->src_reg, final)) < 0)
			return rc;
		if (b == K_M && final)
			return verr(v, pc, "r%d is the context on some paths only",
				    i->src_reg);
		if (v->prev[pc] & BPF_IF_CTX_LOAD) {
			/* rewritten for a program checked before */
			if (final && b != K_C)
				return verr(v, pc, "a context load in another program "
					    "of the object, not here");
			s->reg[i->dst_reg] = K_S;
			return 0;
		}
		if (b == K_C && final && (v->prev[pc] & BPF_IF_REACHED))
			return verr(v, pc, "a context load here, not in another "
				    "program of the object");
		if (b == K_C) {
			uint8_t nsize;
			int16_t noff;

			if (final && i->off == 20)
				return verr(v, pc, "egress_ifindex is only for devmap "
					    "egress programs");
			if (final && (BPF_SIZE(i->code) != BPF_W || i->off < 0 ||
				      ctx_field((uint32_t)i->off, &nsize, &noff) < 0))
				return verr(v, pc, "context access of %u bytes at offset %d "
					    "(xdp_md allows 4-byte loads of its fields)",
					    1u << (BPF_SIZE(i->code) >> 3) , i->off);
			if (final) {
				i->code = (uint8_t)(BPF_LDX | BPF_MEM | nsize);
				i->off = noff;
				v->p->insn_flags[pc] |= BPF_IF_CTX_LOAD;
				if (noff == offsetof(struct bpf_xdp_ctx, data_meta))
					v->p->reads_meta = true;
			}
			s->reg[i->dst_reg] = K_S;
			return 0;
		}
		if (i->src_reg == BPF_REG_10 && BPF_SIZE(i->code) == BPF_DW &&
		    i->off < 0 && i->off >= -BPF_STACK_SIZE && (i->off & 7) == 0) {
			uint8_t k = s->slot[(i->off + BPF_STACK_SIZE) / 8];

			s->reg[i->dst_reg] = k == K_U ? K_S : k;
			return 0;
		}
		s->reg[i->dst_reg] = K_S;
		return 0;
	}
	case BPF_ST: case BPF_STX: {
		uint8_t b = s->reg[i->dst_reg];
		int size = 1 << (BPF_SIZE(i->code) >> 3);

		if ((rc = use(v, pc, s, i->dst_reg, final)) < 0)
			return rc;
		if (cls == BPF_STX && (rc = use(v, pc, s, i->src_reg, final)) < 0)
			return rc;
		if (final && b >= K_C)
			return verr(v, pc, "write to the context (xdp_md is read-only)");
		if (cls == BPF_STX && BPF_MODE(i->code) == BPF_ATOMIC) {
			if (final && s->reg[i->src_reg] >= K_C)
				return verr(v, pc, "atomic on the context pointer");
			if (i->imm == BPF_CMPXCHG) {
				if ((rc = use(v, pc, s, BPF_REG_0, final)) < 0)
					return rc;
				s->reg[BPF_REG_0] = K_S;
			} else if (i->imm & BPF_FETCH) {
				s->reg[i->src_reg] = K_S;
			}
			return 0;
		}
		if (i->dst_reg == BPF_REG_10) {
			int lo = i->off, hi = i->off + size;

			if (lo >= -BPF_STACK_SIZE && hi <= 0) {
				uint8_t k = cls == BPF_STX && size == 8 && (lo & 7) == 0 ?
					    s->reg[i->src_reg] : K_S;

				for (int a = lo & ~7; a < hi; a += 8)
					s->slot[(a + BPF_STACK_SIZE) / 8] =
						(size == 8 && (lo & 7) == 0) ? k : K_S;
			}
		} else if (final && cls == BPF_STX && s->reg[i->src_reg] >= K_C) {
			return verr(v, pc, "context pointer stored outside the stack");
		}
		return 0;
	}
	default:
		break;
	}
	/* jumps */
	if (BPF_OP(i->code) == BPF_JA)
		return 0;
	if (BPF_OP(i->code) == BPF_EXIT)
		return exit_r0(v, pc, s, final);
	if (BPF_OP(i->code) == BPF_CALL) {
		if (i->src_reg == BPF_PSEUDO_CALL) {
			struct vstate c;
			uint32_t t = (uint32_t)((int64_t)pc + i->imm + 1);

			memset(&c, K_U, sizeof(c));
			for (int r = 1; r <= 5; r++)
				c.reg[r] = s->reg[r];
			c.reg[BPF_REG_10] = K_S;
			if (!final)
				flow_into(v, t, &c);
			/* what the callee leaves in r0: unset if some exit of
			 * it leaves it so (prepare_func_exit hands the caller
			 * the callee's r0 as it is) */
			s->reg[BPF_REG_0] = v->ret_unset[t] ? K_U : K_S;
			for (int r = 1; r <= 5; r++)
				s->reg[r] = K_U;
			return 0;
		} else {
			int na = tpb_helper_nargs(i->imm);

			for (int r = 1; r <= na; r++)
				if ((rc = use(v, pc, s, r, final)) < 0)
					return rc;
			for (int r = 2; r <= na; r++)
				if (final && s->reg[r] >= K_C)
					return verr(v, pc, "context passed to helper %d as "
						    "argument %d", i->imm, r);
			if (final && tpb_helper_takes_ctx(i->imm) && s->reg[1] != K_C)
				return verr(v, pc, "helper %d needs the context in r1",
					    i->imm);
			if (final && !tpb_helper_takes_ctx(i->imm) && na >= 1 &&
			    s->reg[1] >= K_C)
				return verr(v, pc, "context passed to helper %d", i->imm);
		}
		s->reg[BPF_REG_0] = K_S;
		for (int r = 1; r <= 5; r++)
			s->reg[r] = K_U;
		return 0;
	}
	if ((rc = use(v, pc, s, i->dst_reg, final)) < 0)
		return rc;
	if (BPF_OP(i->code) != BPF_JA && BPF_SRC(i->code) == BPF_X)
		rc = use(v, pc, s, i->src_reg, final);
	return rc;
}

static int
dataflow(struct verifier *v)
{
	struct vstate s;
	int rc;

	memset(&s, K_U, sizeof(s));
	s.reg[BPF_REG_1] = K_C;
	s.reg[BPF_REG_10] = K_S;
	flow_into(v, v->entry, &s);
	while (v->nwork > 0) {
		uint32_t pc = v->work[--v->nwork];
		int64_t t[2];
		int ns;

		v->queued[pc] = 0;
		s = v->st[pc];
		rc = transfer(v, pc, &s, false);
		if (rc < 0)
			return rc;
		ns = succs(&v->p->insns[pc], pc, t);
		for (int k = 0; k < ns; k++)
			flow_into(v, (uint32_t)t[k], &s);
	}
	/* Final pass on the fixpoint: errors and the rewrite. */
	for (uint32_t pc = 0; pc < v->n; pc++) {
		if (!v->st[pc].seen)
			continue;
		v->p->insn_flags[pc] |= BPF_IF_REACHED;
		if (v->func[pc] == (int32_t)pc)
			v->p->insn_flags[pc] |= BPF_IF_FUNC;
		if (v->cb[pc])
			v->p->insn_flags[pc] |= BPF_IF_CALLBACK;
		s = v->st[pc];
		rc = transfer(v, pc, &s, true);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Check (and rewrite) the program starting at entry. */
static int
verify_one(struct tp_bpf *p, uint32_t entry, const uint8_t *prev, char *err,
	   size_t errlen)
{
	struct verifier v = { .p = p, .n = p->nb_insns, .entry = entry, .prev = prev,
			      .err = err, .errlen = errlen };
	int rc = -ENOMEM;

	if (entry >= v.n) {     /* the loader checks it; never index past */
		snprintf(err, errlen, "program entry %u past the last instruction (%u)",
			 entry, v.n);
		return -EINVAL;
	}
	v.func = malloc(v.n * sizeof(int32_t));
	v.second = calloc(v.n, 1);
	v.st = calloc(v.n, sizeof(struct vstate));
	v.work = malloc(v.n * sizeof(uint32_t));
	v.queued = calloc(v.n, 1);
	v.cb = calloc(v.n, 1);
	v.loops = calloc(v.n, 1);
	v.tails = calloc(v.n, 1);
	v.ret_unset = calloc(v.n, 1);
	if (!v.func || !v.second || !v.st || !v.work || !v.queued || !v.cb || !v.loops ||
	    !v.tails || !v.ret_unset) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (uint32_t pc = 0; pc < v.n; pc++) {
		v.func[pc] = -1;
		if (is_ldimm64(&p->insns[pc]) && pc + 1 < v.n) {
			v.second[pc + 1] = 1;
			pc++;
			v.func[pc] = -1;
		}
	}
	rc = discover(&v);
	if (rc == 0)
		rc = check_exits(&v);
	if (rc == 0)
		rc = dataflow(&v);
out:
	free(v.func);
	free(v.second);
	free(v.st);
	free(v.work);
	free(v.queued);
	free(v.cb);
	free(v.loops);
	free(v.tails);
	free(v.ret_unset);
	return rc;
}

int
tpb_verify_and_rewrite(struct tp_bpf *p, char *err, size_t errlen)
{
	size_t isz = p->nb_insns * sizeof(struct bpf_insn);
	struct bpf_insn *save_insns = NULL;
	uint8_t *prev = calloc(p->nb_insns, 1);
	int rc;

	p->insn_flags = calloc(p->nb_insns, 1);
	if (p->insn_flags == NULL || prev == NULL) {
		free(prev);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = verify_one(p, p->entry, prev, err, errlen);
	p->progs[0].usable = rc == 0;
	if (rc == 0 && p->nb_progs > 1 && (save_insns = malloc(isz)) == NULL) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
	}
	for (uint32_t k = 1; rc == 0 && k < p->nb_progs; k++) {
		struct bpf_prog_ent *e = &p->progs[k];
		bool loops = p->has_loops, meta = p->reads_meta;
		uint32_t loop_pc = p->loop_pc;

		memcpy(prev, p->insn_flags, p->nb_insns);
		memcpy(save_insns, p->insns, isz);
		e->usable = verify_one(p, e->entry, prev, e->note, sizeof(e->note)) == 0;
		if (!e->usable) {
			memcpy(p->insn_flags, prev, p->nb_insns);
			memcpy(p->insns, save_insns, isz);
			p->has_loops = loops;
			p->loop_pc = loop_pc;
			p->reads_meta = meta;
		}
	}
	free(save_insns);
	free(prev);
	return rc;
}
