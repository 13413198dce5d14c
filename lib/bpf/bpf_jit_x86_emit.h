/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * x86-64 instruction encodings for the eBPF JIT (bpf_jit_x86.c), private
 * to it. Encodings: Intel 64 and IA-32 Architectures Software Developer's
 * Manual, Vol. 2 (instruction format: legacy prefixes, REX, opcode, ModRM,
 * SIB, displacement, immediate; section 2.2.1 for REX).
 *
 * The code is written into a growing buffer; every emitter appends. A
 * failed allocation sets oom and later writes are dropped (the caller
 * checks once at the end).
 */
#ifndef TP_BPF_JIT_X86_EMIT_H
#define TP_BPF_JIT_X86_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Register numbers as ModRM/REX encode them. */
enum {
	X_RAX = 0, X_RCX, X_RDX, X_RBX, X_RSP, X_RBP, X_RSI, X_RDI,
	X_R8, X_R9, X_R10, X_R11, X_R12, X_R13, X_R14, X_R15,
};

/* Condition codes (the low nibble of Jcc 0x70+cc / 0x0F 0x80+cc). */
enum {
	CC_B = 0x2, CC_AE = 0x3, CC_E = 0x4, CC_NE = 0x5, CC_BE = 0x6, CC_A = 0x7,
	CC_L = 0xc, CC_GE = 0xd, CC_LE = 0xe, CC_G = 0xf,
};

/* Operand flags of one instruction. */
#define XF_W    0x1   /* REX.W: 64-bit operand size */
#define XF_66   0x2   /* operand-size prefix: 16-bit operand */
#define XF_B8   0x4   /* the ModRM reg operand is a byte register: spl, bpl,
		       * sil and dil need a REX prefix (else ah, ch, dh, bh) */
#define XF_LOCK 0x8   /* LOCK prefix */

struct xbuf {
	uint8_t *b;
	size_t len, cap;
	bool oom;
};

static inline void
x_byte(struct xbuf *x, uint8_t v)
{
	if (x->len == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 4096;
		uint8_t *nb = realloc(x->b, cap);

		if (nb == NULL) {
			x->oom = true;
			return;
		}
		x->b = nb;
		x->cap = cap;
	}
	x->b[x->len++] = v;
}

static inline void
x_u32(struct xbuf *x, uint32_t v)
{
	for (int k = 0; k < 4; k++)
		x_byte(x, (uint8_t)(v >> (8 * k)));
}

static inline void
x_u64(struct xbuf *x, uint64_t v)
{
	x_u32(x, (uint32_t)v);
	x_u32(x, (uint32_t)(v >> 32));
}

/* Legacy prefixes, then REX when needed (W, an extended register, or a
 * byte register 4..7 in the reg field). */
static inline void
x_prefix(struct xbuf *x, unsigned int f, int reg, int rm)
{
	uint8_t rex = (uint8_t)(0x40 | ((f & XF_W) ? 8 : 0) | ((reg & 8) ? 4 : 0) |
				((rm & 8) ? 1 : 0));

	if (f & XF_LOCK)
		x_byte(x, 0xf0);
	if (f & XF_66)
		x_byte(x, 0x66);
	if (rex != 0x40 || ((f & XF_B8) && reg >= 4 && reg <= 7))
		x_byte(x, rex);
}

/* One- or two-byte (0x0F-escaped) opcode. */
static inline void
x_opcode(struct xbuf *x, uint32_t op)
{
	if (op > 0xff)
		x_byte(x, (uint8_t)(op >> 8));
	x_byte(x, (uint8_t)op);
}

/* op with ModRM register-direct: reg field reg (or an opcode extension),
 * r/m field rm. */
static inline void
x_rr(struct xbuf *x, unsigned int f, uint32_t op, int reg, int rm)
{
	x_prefix(x, f, reg, rm);
	x_opcode(x, op);
	x_byte(x, (uint8_t)(0xc0 | (reg & 7) << 3 | (rm & 7)));
}

/* op with a memory operand [base + disp]: rsp/r12 as base need a SIB
 * byte, rbp/r13 a displacement even when it is 0. */
static inline void
x_rm(struct xbuf *x, unsigned int f, uint32_t op, int reg, int base, int32_t disp)
{
	uint8_t r = (uint8_t)((reg & 7) << 3), b = (uint8_t)(base & 7);

	x_prefix(x, f, reg, base);
	x_opcode(x, op);
	if (disp == 0 && b != 5) {
		x_byte(x, r | b);
		if (b == 4)
			x_byte(x, 0x24);
	} else if (disp >= -128 && disp <= 127) {
		x_byte(x, 0x40 | r | b);
		if (b == 4)
			x_byte(x, 0x24);
		x_byte(x, (uint8_t)disp);
	} else {
		x_byte(x, 0x80 | r | b);
		if (b == 4)
			x_byte(x, 0x24);
		x_u32(x, (uint32_t)disp);
	}
}

static inline bool
x_is_i8(int64_t v)
{
	return v >= -128 && v <= 127;
}

/* ALU group 1 (0x81/0x83 /digit): add 0, or 1, and 4, sub 5, xor 6, cmp 7. */
static inline void
x_alu_imm(struct xbuf *x, unsigned int f, int digit, int rm, int32_t imm)
{
	if (x_is_i8(imm)) {
		x_rr(x, f, 0x83, digit, rm);
		x_byte(x, (uint8_t)imm);
	} else {
		x_rr(x, f, 0x81, digit, rm);
		x_u32(x, (uint32_t)imm);
	}
}

/* The same on [base + disp]. */
static inline void
x_alu_imm_m(struct xbuf *x, unsigned int f, int digit, int base, int32_t disp, int32_t imm)
{
	if (x_is_i8(imm)) {
		x_rm(x, f, 0x83, digit, base, disp);
		x_byte(x, (uint8_t)imm);
	} else {
		x_rm(x, f, 0x81, digit, base, disp);
		x_u32(x, (uint32_t)imm);
	}
}

static inline void
x_mov_rr(struct xbuf *x, bool w, int dst, int src)
{
	x_rr(x, w ? XF_W : 0, 0x89, src, dst);
}

/* dst = v, in the shortest form: xor for 0 (flags change), a 32-bit move
 * (zero-extends) for values below 2^32, a sign-extended imm32, movabs. */
static inline void
x_mov_imm64(struct xbuf *x, int dst, uint64_t v)
{
	if (v == 0) {
		x_rr(x, 0, 0x31, dst, dst);
	} else if (v <= UINT32_MAX) {
		x_prefix(x, 0, 0, dst);
		x_byte(x, (uint8_t)(0xb8 + (dst & 7)));
		x_u32(x, (uint32_t)v);
	} else if ((int64_t)v >= INT32_MIN && (int64_t)v < 0) {
		x_rr(x, XF_W, 0xc7, 0, dst);
		x_u32(x, (uint32_t)v);
	} else {
		x_prefix(x, XF_W, 0, dst);
		x_byte(x, (uint8_t)(0xb8 + (dst & 7)));
		x_u64(x, v);
	}
}

/* mov dst, [base + disp] (64 or 32 bits) */
static inline void
x_load(struct xbuf *x, bool w, int dst, int base, int32_t disp)
{
	x_rm(x, w ? XF_W : 0, 0x8b, dst, base, disp);
}

/* mov [base + disp], src (64 bits) */
static inline void
x_store64(struct xbuf *x, int base, int32_t disp, int src)
{
	x_rm(x, XF_W, 0x89, src, base, disp);
}

static inline void
x_lea(struct xbuf *x, int dst, int base, int32_t disp)
{
	x_rm(x, XF_W, 0x8d, dst, base, disp);
}

static inline void
x_push(struct xbuf *x, int r)
{
	x_prefix(x, 0, 0, r);
	x_byte(x, (uint8_t)(0x50 + (r & 7)));
}

static inline void
x_pop(struct xbuf *x, int r)
{
	x_prefix(x, 0, 0, r);
	x_byte(x, (uint8_t)(0x58 + (r & 7)));
}

/* call / jmp through a register (FF /2, FF /4) */
static inline void
x_call_r(struct xbuf *x, int r)
{
	x_rr(x, 0, 0xff, 2, r);
}

static inline void
x_jmp_r(struct xbuf *x, int r)
{
	x_rr(x, 0, 0xff, 4, r);
}

static inline void
x_ret(struct xbuf *x)
{
	x_byte(x, 0xc3);
}

#endif /* TP_BPF_JIT_X86_EMIT_H */
