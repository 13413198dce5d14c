/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Instruction-set conformance: small programs, one per group of
 * instructions, each with its results written down by hand from the
 * eBPF instruction-set specification (the kernel's
 * Documentation/bpf/standardization/instruction-set.rst: ALU and JMP
 * semantics, 32-bit operations zero-extending their result, x / 0 = 0 and
 * x % 0 = x, shift counts masked to the width, atomic fetch forms loading
 * the old value, cmpxchg comparing with r0 and loading the old value into
 * r0, byte swaps, ld_imm64 with its 64-bit immediate) and from the
 * helpers' documentation (include/uapi/linux/bpf.h). Each runs
 *   - in tagpipe's interpreter and compiled (tpb_compile), from the same
 *     state, which must agree with each other (tests/bpf/bpf_diff.h) and
 *     with the results written here;
 *   - in the running kernel (BPF_PROG_TEST_RUN through libbpf), where this
 *     process may load programs: the same instructions, maps given by
 *     index (fd_array), must give the same results; elsewhere that part
 *     is skipped with a message.
 * A program writes its results as u64 words into the one-entry array
 * "out" (map 0) through r9 (a pointer to its value, set first), and
 * returns XDP_PASS. The frame is 64 bytes 0x00..0x3f. Programs the
 * checker must refuse are listed with the message expected.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "bpf_diff.h"
#include "bpf_insns.h"
#include "tp_test.h"

/* ---- instruction encoding (include/uapi/linux/bpf.h) ------------------ */

#define I(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define MOV64(d, i) I(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64R(d, s) I(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV32(d, i) I(BPF_ALU | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV32R(d, s) I(BPF_ALU | BPF_MOV | BPF_X, d, s, 0, 0)
#define A64(op, d, i) I(BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define A64R(op, d, s) I(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define A32(op, d, i) I(BPF_ALU | (op) | BPF_K, d, 0, 0, i)
#define A32R(op, d, s) I(BPF_ALU | (op) | BPF_X, d, s, 0, 0)
#define END(src, d, bits) I(BPF_ALU | BPF_END | (src), d, 0, 0, bits)
#define LD64(d, v) I(BPF_LD | BPF_IMM | BPF_DW, d, 0, 0, (int32_t)(uint32_t)(uint64_t)(v)), \
	I(0, 0, 0, 0, (int32_t)(uint32_t)((uint64_t)(v) >> 32))
#define MAPV(d, k, off) I(BPF_LD | BPF_IMM | BPF_DW, d, BPF_PSEUDO_MAP_IDX_VALUE, 0, k), \
	I(0, 0, 0, 0, off)
#define MAP(d, k) I(BPF_LD | BPF_IMM | BPF_DW, d, BPF_PSEUDO_MAP_IDX, 0, k), I(0, 0, 0, 0, 0)
#define FUNC(d, rel) I(BPF_LD | BPF_IMM | BPF_DW, d, BPF_PSEUDO_FUNC, 0, rel), I(0, 0, 0, 0, 0)
#define LDX(sz, d, s, o) I(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX(sz, d, s, o) I(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(sz, d, o, i) I(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define ATOM(sz, op, d, s, o) I(BPF_STX | BPF_ATOMIC | (sz), d, s, o, op)
#define JA(o) I(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define CALL(h) I(BPF_JMP | BPF_CALL, 0, 0, 0, h)
#define CALLREL(o) I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, o)
#define EXIT I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* results: out[k] = reg */
#define OUT(k, r) STX(BPF_DW, 9, r, 8 * (k))
#define PROLOGUE MAPV(9, 0, 0)
#define EPILOGUE MOV64(0, XDP_PASS), EXIT

/* The maps every program has (by index) and their contents before a run. */
enum { M_OUT, M_ARR, M_HASH, NMAPS };
static const struct bpf_insns_map maps[NMAPS] = {
	[M_OUT] = { "out", BPF_MAP_TYPE_ARRAY, 4, 64, 1 },
	[M_ARR] = { "arr", BPF_MAP_TYPE_ARRAY, 4, 8, 2 },
	[M_HASH] = { "hash", BPF_MAP_TYPE_HASH, 4, 8, 4 },
};
#define ARR1 0x1122334455667788ull /* arr[1]; arr[0] = 0 */

#define FRAME_LEN 64
#define MAX_INSNS 1024

struct conf {
	const char *name;
	const char *covers;
	const struct bpf_insn *insns;
	uint32_t n;
	uint32_t (*build)(struct bpf_insn *ins); /* instead of insns */
	uint64_t out[8];          /* expected out words */
	unsigned int nout;
	/* expected frame after the run: bytes [from, to) of the input, then
	 * `patch` at offset patch_at of that (patch_len 0: none); to == 0:
	 * unchanged */
	uint32_t from, to, patch_at, patch_len;
	uint8_t patch[8];
	bool tagpipe_only;        /* why not in the kernel: in covers */
	const char *refused;      /* the checker's message (a part) */
};

/* ---- the programs ------------------------------------------------------ */

static const struct bpf_insn alu64_add_sub[] = {
	PROLOGUE,
	MOV64(1, 0x7fffffff), A64(BPF_ADD, 1, 1), OUT(0, 1),
	MOV64(2, 5), A64(BPF_ADD, 2, -7), OUT(1, 2),     /* imm sign-extended */
	LD64(3, 0x8000000000000000ull), A64(BPF_SUB, 3, 1), OUT(2, 3),
	MOV64(4, 3), MOV64(5, 10), A64R(BPF_SUB, 4, 5), OUT(3, 4),
	MOV64(6, -1), A64R(BPF_ADD, 6, 6), OUT(4, 6),
	EPILOGUE,
};

static const struct bpf_insn alu32_add_sub[] = {
	PROLOGUE,
	LD64(1, 0xffffffff00000005ull), A32(BPF_ADD, 1, 3), OUT(0, 1),
	MOV64(2, 0), A32(BPF_SUB, 2, 1), OUT(1, 2),
	LD64(3, 0x100000001ull), LD64(4, 0xabcdef007fffffffull), A32R(BPF_ADD, 3, 4), OUT(2, 3),
	LD64(5, 0x7fffffff00000000ull), A32(BPF_ADD, 5, -1), OUT(3, 5),
	EPILOGUE,
};

static const struct bpf_insn alu_mul[] = {
	PROLOGUE,
	LD64(1, 0x100000001ull), A64(BPF_MUL, 1, 3), OUT(0, 1),
	LD64(2, 0x180000000ull), A32(BPF_MUL, 2, 2), OUT(1, 2),
	MOV64(3, -2), A64(BPF_MUL, 3, -3), OUT(2, 3),
	MOV32(4, -2), A32(BPF_MUL, 4, 3), OUT(3, 4),
	LD64(5, 0xffffffffffffffffull), MOV64(6, -1), A64R(BPF_MUL, 5, 6), OUT(4, 5),
	EPILOGUE,
};

static const struct bpf_insn alu64_div_mod[] = {
	PROLOGUE,
	MOV64(1, -1), A64(BPF_DIV, 1, 2), OUT(0, 1),
	MOV64(2, 100), MOV64(3, 0), A64R(BPF_DIV, 2, 3), OUT(1, 2),   /* x / 0 = 0 */
	MOV64(4, 100), A64R(BPF_MOD, 4, 3), OUT(2, 4),                /* x % 0 = x */
	MOV64(5, -7), A64(BPF_MOD, 5, 3), OUT(3, 5),                  /* unsigned */
	LD64(6, 0x8000000000000000ull), MOV64(7, 3), A64R(BPF_DIV, 6, 7), OUT(4, 6),
	LD64(8, 0x8000000000000000ull), A64R(BPF_MOD, 8, 7), OUT(5, 8),
	MOV64(1, 10), A64(BPF_DIV, 1, -1), OUT(6, 1),  /* divisor 2^64 - 1 */
	MOV64(1, 10), A64(BPF_MOD, 1, -1), OUT(7, 1),
	EPILOGUE,
};

static const struct bpf_insn alu32_div_mod[] = {
	PROLOGUE,
	LD64(1, 0x10000000aull), A32(BPF_DIV, 1, 3), OUT(0, 1),
	LD64(2, 0x500000007ull), LD64(3, 0x700000000ull), A32R(BPF_MOD, 2, 3), OUT(1, 2),
	MOV64(4, -1), MOV64(5, 0), A32R(BPF_DIV, 4, 5), OUT(2, 4),
	MOV32(6, -1), A32(BPF_DIV, 6, -1), OUT(3, 6),
	MOV32(7, 10), A32(BPF_MOD, 7, -3), OUT(4, 7),
	LD64(8, 0xffffffff00000009ull), A32R(BPF_MOD, 8, 5), OUT(5, 8), /* x % 0 = x, 32 bits */
	EPILOGUE,
};

static const struct bpf_insn alu_bitwise[] = {
	PROLOGUE,
	LD64(1, 0xf0f0f0f00f0f0f0full), A64(BPF_OR, 1, 0x70), OUT(0, 1),
	LD64(2, 0xf0f0f0f00f0f0f0full), A64(BPF_AND, 2, -256), OUT(1, 2),
	LD64(3, 0xf0f0f0f00f0f0f0full), A64(BPF_XOR, 3, -1), OUT(2, 3),
	LD64(4, 0xf0f0f0f00f0f0f0full), A32(BPF_AND, 4, 0xff00), OUT(3, 4),
	LD64(5, 0xf0f0f0f00f0f0f0full), A32(BPF_XOR, 5, -1), OUT(4, 5),
	LD64(6, 0xffffffff00000000ull), A32(BPF_OR, 6, 1), OUT(5, 6),
	LD64(7, 0xff00ff00ff00ff00ull), LD64(8, 0x0ff00ff00ff00ff0ull), A64R(BPF_XOR, 7, 8),
	OUT(6, 7),
	EPILOGUE,
};

static const struct bpf_insn alu64_shifts[] = {
	PROLOGUE,
	MOV64(1, 1), A64(BPF_LSH, 1, 63), OUT(0, 1),
	LD64(2, 0x8000000000000000ull), A64(BPF_RSH, 2, 63), OUT(1, 2),
	LD64(3, 0x8000000000000000ull), A64(BPF_ARSH, 3, 63), OUT(2, 3),
	MOV64(4, 1), MOV64(5, 65), A64R(BPF_LSH, 4, 5), OUT(3, 4),   /* 65 & 63 = 1 */
	LD64(6, 0x8000000000000000ull), MOV64(7, 68), A64R(BPF_ARSH, 6, 7), OUT(4, 6),
	MOV64(8, 0x100), A64R(BPF_RSH, 8, 7), OUT(5, 8),
	LD64(1, 0x4000000000000000ull), A64(BPF_ARSH, 1, 62), OUT(6, 1),
	EPILOGUE,
};

static const struct bpf_insn alu32_shifts[] = {
	PROLOGUE,
	MOV32(1, 1), A32(BPF_LSH, 1, 31), OUT(0, 1),
	LD64(2, 0xffffffff80000000ull), A32(BPF_RSH, 2, 31), OUT(1, 2),
	LD64(3, 0x0000000180000000ull), A32(BPF_ARSH, 3, 4), OUT(2, 3),
	MOV32(4, 1), MOV32(5, 33), A32R(BPF_LSH, 4, 5), OUT(3, 4),   /* 33 & 31 = 1 */
	LD64(6, 0xffffffff00000010ull), MOV32(7, 36), A32R(BPF_RSH, 6, 7), OUT(4, 6),
	LD64(8, 0x00000000f0000000ull), A32R(BPF_ARSH, 8, 7), OUT(5, 8),
	MOV32(1, 0x10), LD64(2, 0x1000000020ull), A32R(BPF_LSH, 1, 2), OUT(6, 1), /* 32 & 31 = 0 */
	EPILOGUE,
};

static const struct bpf_insn alu_neg_mov[] = {
	PROLOGUE,
	MOV64(1, 5), I(BPF_ALU64 | BPF_NEG, 1, 0, 0, 0), OUT(0, 1),
	LD64(2, 0x100000005ull), I(BPF_ALU | BPF_NEG, 2, 0, 0, 0), OUT(1, 2),
	LD64(3, 0x123456789abcdef0ull), MOV32R(4, 3), OUT(2, 4),
	MOV64(5, -1), OUT(3, 5),
	MOV32(6, -1), OUT(4, 6),
	MOV64R(7, 3), OUT(5, 7),
	LD64(8, 0x8000000000000000ull), I(BPF_ALU64 | BPF_NEG, 8, 0, 0, 0), OUT(6, 8),
	EPILOGUE,
};

static const struct bpf_insn byte_swaps[] = {
	PROLOGUE,
	LD64(1, 0x0102030405060708ull), END(BPF_TO_BE, 1, 16), OUT(0, 1),
	LD64(2, 0x0102030405060708ull), END(BPF_TO_BE, 2, 32), OUT(1, 2),
	LD64(3, 0x0102030405060708ull), END(BPF_TO_BE, 3, 64), OUT(2, 3),
	LD64(4, 0x0102030405060708ull), END(BPF_TO_LE, 4, 16), OUT(3, 4),
	LD64(5, 0x0102030405060708ull), END(BPF_TO_LE, 5, 32), OUT(4, 5),
	LD64(6, 0x0102030405060708ull), END(BPF_TO_LE, 6, 64), OUT(5, 6),
	EPILOGUE,
};

static const struct bpf_insn ld_imm64[] = {
	PROLOGUE,
	LD64(1, 0xdeadbeefcafebabeull), OUT(0, 1),
	LD64(2, 0x0000000080000000ull), OUT(1, 2),   /* low half not sign-extended */
	LD64(3, 0xffffffff00000000ull), OUT(2, 3),
	EPILOGUE,
};

/* Loads zero-extend; stores truncate; ST's immediate is sign-extended. */
static const struct bpf_insn memory[] = {
	PROLOGUE,
	ST(BPF_DW, 10, -8, -2), LDX(BPF_DW, 1, 10, -8), OUT(0, 1),
	ST(BPF_DW, 10, -16, 0), ST(BPF_W, 10, -16, -2), LDX(BPF_DW, 2, 10, -16), OUT(1, 2),
	LD64(3, 0x1122334455667788ull), STX(BPF_DW, 10, 3, -24), STX(BPF_B, 10, 3, -24),
	LDX(BPF_DW, 4, 10, -24), OUT(2, 4),
	LDX(BPF_B, 5, 10, -1), OUT(3, 5),          /* the top byte of the -2 above */
	LDX(BPF_H, 6, 10, -22), OUT(4, 6),
	STX(BPF_H, 10, 3, -32), ST(BPF_H, 10, -30, 0x7ff0), ST(BPF_W, 10, -28, 0),
	LDX(BPF_DW, 7, 10, -32), OUT(5, 7),
	LDX(BPF_W, 8, 10, -8), OUT(6, 8),
	EPILOGUE,
};

static const struct bpf_insn atomic64[] = {
	PROLOGUE,
	ST(BPF_DW, 10, -8, 10),
	MOV64(1, 5), ATOM(BPF_DW, BPF_ADD, 10, 1, -8),                       /* 15 */
	MOV64(2, 3), ATOM(BPF_DW, BPF_ADD | BPF_FETCH, 10, 2, -8), OUT(0, 2), /* 18 */
	MOV64(3, 0x100), ATOM(BPF_DW, BPF_OR | BPF_FETCH, 10, 3, -8), OUT(1, 3),
	MOV64(4, 0xff0), ATOM(BPF_DW, BPF_AND | BPF_FETCH, 10, 4, -8), OUT(2, 4),
	MOV64(5, 1), ATOM(BPF_DW, BPF_XOR | BPF_FETCH, 10, 5, -8), OUT(3, 5),
	MOV64(6, 0x77), ATOM(BPF_DW, BPF_XCHG, 10, 6, -8), OUT(4, 6),
	MOV64(0, 0x77), MOV64(7, 0x99), ATOM(BPF_DW, BPF_CMPXCHG, 10, 7, -8), OUT(5, 0),
	MOV64(0, 1), MOV64(8, 0x55), ATOM(BPF_DW, BPF_CMPXCHG, 10, 8, -8), OUT(6, 0),
	MOV64(1, 0x0f), ATOM(BPF_DW, BPF_OR, 10, 1, -8),
	MOV64(1, -2), ATOM(BPF_DW, BPF_AND, 10, 1, -8),
	MOV64(1, 0x300), ATOM(BPF_DW, BPF_XOR, 10, 1, -8),
	LDX(BPF_DW, 1, 10, -8), A64(BPF_LSH, 1, 8), A64R(BPF_OR, 1, 7), OUT(7, 1),
	EPILOGUE,
};

/* 32-bit atomics on the low word of a slot whose high word is a marker:
 * the marker must stay; loaded old values are zero-extended. */
static const struct bpf_insn atomic32[] = {
	PROLOGUE,
	LD64(1, 0xaaaaaaaa00000010ull), STX(BPF_DW, 10, 1, -8),
	LD64(2, 0xffffffff00000003ull), ATOM(BPF_W, BPF_ADD | BPF_FETCH, 10, 2, -8), OUT(0, 2),
	LD64(3, 0x12345678fffffff0ull), ATOM(BPF_W, BPF_ADD, 10, 3, -8), OUT(1, 3),
	MOV64(4, 0x30), ATOM(BPF_W, BPF_XCHG, 10, 4, -8), OUT(2, 4),
	LD64(0, 0xdead000000000030ull), MOV64(5, -1),
	ATOM(BPF_W, BPF_CMPXCHG, 10, 5, -8), OUT(3, 0),         /* low words equal */
	MOV64(0, 0), MOV64(6, 7), ATOM(BPF_W, BPF_CMPXCHG, 10, 6, -8), OUT(4, 0),
	MOV64(7, 0xf0), ATOM(BPF_W, BPF_AND | BPF_FETCH, 10, 7, -8), OUT(5, 7),
	MOV64(8, 0x0f), ATOM(BPF_W, BPF_OR, 10, 8, -8),
	MOV64(8, 0xff), ATOM(BPF_W, BPF_XOR | BPF_FETCH, 10, 8, -8), OUT(6, 8),
	LDX(BPF_DW, 1, 10, -8), OUT(7, 1),
	EPILOGUE,
};

/* BPF-to-BPF calls: arguments r1-r5, result r0, r6-r9 kept across the
 * call, the callee's own frame, a pointer into the caller's frame. */
static const struct bpf_insn calls[] = {
	PROLOGUE,                                             /* 0-1 */
	MOV64(6, 0x66), ST(BPF_DW, 10, -8, 0x1234),          /* 2-3 */
	MOV64(1, 7), MOV64(2, 5), MOV64R(3, 10), A64(BPF_ADD, 3, -8), /* 4-7 */
	CALLREL(10),                                          /* 8 -> 19 */
	OUT(0, 0), OUT(1, 6), LDX(BPF_DW, 1, 10, -8), OUT(2, 1), /* 9-12 */
	MOV64(1, 3), CALLREL(15),                             /* 13-14 -> 30 */
	OUT(3, 0), OUT(4, 6),                                 /* 15-16 */
	EPILOGUE,                                             /* 17-18 */
	/* 19: r0 = r1 * 10 + r2 + *r3; *r3 = 1; r6, r9 scratched */
	MOV64R(0, 1), A64(BPF_MUL, 0, 10), A64R(BPF_ADD, 0, 2),
	LDX(BPF_DW, 4, 3, 0), A64R(BPF_ADD, 0, 4), ST(BPF_DW, 3, 0, 1),
	MOV64(6, 1), MOV64(9, 2), ST(BPF_DW, 10, -8, 99), LDX(BPF_DW, 5, 10, -8), /* 19-28 */
	EXIT,                                                 /* 29 */
	/* 30: r0 = f(r1) = r1 + 1 + g(r1) with g at 36: depth 3 */
	MOV64R(6, 1), CALLREL(4), A64R(BPF_ADD, 0, 6), A64(BPF_ADD, 0, 1),
	MOV64(9, 0), EXIT,                                    /* 30-35 */
	/* 36: g(r1) = r1 * r1 */
	MOV64R(0, 1), A64R(BPF_MUL, 0, 1), EXIT,
};

/* Helpers: map lookup (hit, miss), update, delete, and the packet ones. */
static const struct bpf_insn helpers_maps[] = {
	PROLOGUE,
	ST(BPF_W, 10, -4, 1), MAP(1, M_ARR), MOV64R(2, 10), A64(BPF_ADD, 2, -4),
	CALL(BPF_FUNC_map_lookup_elem),
	I(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2, 0), LDX(BPF_DW, 1, 0, 0), OUT(0, 1),
	ST(BPF_W, 10, -4, 5), MAP(1, M_ARR), MOV64R(2, 10), A64(BPF_ADD, 2, -4),
	CALL(BPF_FUNC_map_lookup_elem), OUT(1, 0),               /* past the end: NULL */
	ST(BPF_W, 10, -4, 3), ST(BPF_DW, 10, -16, 0xabc), MAP(1, M_HASH), MOV64R(2, 10),
	A64(BPF_ADD, 2, -4), MOV64R(3, 10), A64(BPF_ADD, 3, -16), MOV64(4, BPF_NOEXIST),
	CALL(BPF_FUNC_map_update_elem), OUT(2, 0),
	MAP(1, M_HASH), MOV64R(2, 10), A64(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem),
	I(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2, 0), LDX(BPF_DW, 1, 0, 0), OUT(3, 1),
	MAP(1, M_HASH), MOV64R(2, 10), A64(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_delete_elem),
	OUT(4, 0),
	MAP(1, M_HASH), MOV64R(2, 10), A64(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_delete_elem),
	OUT(5, 0),                                               /* -ENOENT */
	MAP(1, M_HASH), MOV64R(2, 10), A64(BPF_ADD, 2, -4), CALL(BPF_FUNC_map_lookup_elem),
	OUT(6, 0),
	EPILOGUE,
};

/* xdp_adjust_head(+2), xdp_adjust_tail(-4), xdp_get_buff_len,
 * xdp_load_bytes, then a checked store of 0xab at the new data[0]. */
static const struct bpf_insn helpers_packet[] = {
	PROLOGUE,
	MOV64R(6, 1),
	MOV64R(1, 6), MOV64(2, 2), CALL(BPF_FUNC_xdp_adjust_head), OUT(0, 0),
	MOV64R(1, 6), MOV64(2, -4), CALL(BPF_FUNC_xdp_adjust_tail), OUT(1, 0),
	MOV64R(1, 6), CALL(BPF_FUNC_xdp_get_buff_len), OUT(2, 0),
	MOV64R(1, 6), MOV64(2, 3), MOV64R(3, 10), A64(BPF_ADD, 3, -8), MOV64(4, 4),
	CALL(BPF_FUNC_xdp_load_bytes), OUT(3, 0), LDX(BPF_W, 1, 10, -8), OUT(4, 1),
	LDX(BPF_W, 2, 6, 0), LDX(BPF_W, 3, 6, 4), MOV64R(4, 3), A64R(BPF_SUB, 4, 2), OUT(5, 4),
	MOV64R(4, 2), A64(BPF_ADD, 4, 1), I(BPF_JMP | BPF_JGT | BPF_X, 4, 3, 1, 0),
	ST(BPF_B, 2, 0, 0xab),
	EPILOGUE,
};

/* bpf_loop: callback(i, ctx) adds i to *ctx, stops after i == 3. */
static const struct bpf_insn helpers_loop[] = {
	PROLOGUE,                                              /* 0-1 */
	ST(BPF_DW, 10, -8, 100),                               /* 2 */
	MOV64(1, 10), FUNC(2, 10), MOV64R(3, 10), A64(BPF_ADD, 3, -8), MOV64(4, 0), /* 3-8 */
	CALL(BPF_FUNC_loop), OUT(0, 0),                        /* 9-10 */
	LDX(BPF_DW, 1, 10, -8), OUT(1, 1),                     /* 11-12 */
	EPILOGUE,                                              /* 13-14 */
	/* 15: the callback */
	LDX(BPF_DW, 3, 2, 0), A64R(BPF_ADD, 3, 1), STX(BPF_DW, 2, 3, 0),
	MOV64(0, 0), I(BPF_JMP | BPF_JNE | BPF_K, 1, 0, 1, 3), MOV64(0, 1), EXIT,
};

/* Tail calls (tagpipe only: the kernel's target is a separate program):
 * slot 0 of a PROG_ARRAY holds program 1 (at pc tail_entry); slot 1 is
 * empty (falls through, -ENOENT); the target's exit ends the run. */
enum { M_JMP = NMAPS };
static const struct bpf_insns_map tail_maps[NMAPS + 1] = {
	[M_OUT] = { "out", BPF_MAP_TYPE_ARRAY, 4, 64, 1 },
	[M_ARR] = { "arr", BPF_MAP_TYPE_ARRAY, 4, 8, 2 },
	[M_HASH] = { "hash", BPF_MAP_TYPE_HASH, 4, 8, 4 },
	[M_JMP] = { "jmp", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 2 },
};
static const struct bpf_insn tail_calls[] = {
	PROLOGUE,                                              /* 0-1 */
	MOV64R(6, 1), MOV64(7, 0x77),                          /* 2-3 */
	MOV64R(1, 6), MAP(2, M_JMP), MOV64(3, 1), CALL(BPF_FUNC_tail_call), OUT(0, 0), /* 4-9 */
	MOV64R(1, 6), MAP(2, M_JMP), MOV64(3, 2), CALL(BPF_FUNC_tail_call), OUT(1, 0), /* 10-15 */
	ST(BPF_DW, 10, -8, 0x5a),                              /* 16 */
	MOV64R(1, 6), MAP(2, M_JMP), MOV64(3, 0), CALL(BPF_FUNC_tail_call), /* 17-21 */
	MOV64(1, 0xbad), OUT(2, 1), EPILOGUE,                  /* 22-25: not reached */
	/* 26: program 1: reads the same frame, returns XDP_TX */
	MAPV(9, 0, 0), LDX(BPF_DW, 1, 10, -8), OUT(3, 1), MOV64(0, XDP_TX), EXIT,
};
#define TAIL_ENTRY 26

/* Jumps: every condition, 64 and 32 bits, immediate and register, taken
 * and not, from a table whose "taken" column is written from the spec
 * (JGT/JGE/JLT/JLE/JSET unsigned, JS* signed, JMP32 on the low words). */
struct jrow {
	uint8_t cls, op, src;
	uint64_t d, s;            /* BPF_K: s is the sign-extended imm */
	bool taken;
};
#define N1 0xffffffffffffffffull
#define J(c, o, x, d, s, t) { BPF_##c, BPF_##o, BPF_##x, d, s, t }
static const struct jrow jrows[] = {
	J(JMP, JEQ, K, 5, 5, true), J(JMP, JEQ, K, 0x100000005ull, 5, false),
	J(JMP, JEQ, X, N1, N1, true), J(JMP, JEQ, X, 1, 2, false),
	J(JMP, JNE, K, 5, 5, false), J(JMP, JNE, X, 0x100000005ull, 5, true),
	J(JMP, JGT, K, N1, 1, true), J(JMP, JGT, K, 1, N1, false),    /* imm -1 */
	J(JMP, JGT, X, 2, 2, false), J(JMP, JGT, X, 0x8000000000000000ull, 1, true),
	J(JMP, JGE, K, 2, 2, true), J(JMP, JGE, X, 1, 2, false),
	J(JMP, JLT, K, 1, N1, true), J(JMP, JLT, X, N1, 1, false),
	J(JMP, JLE, K, 2, 2, true), J(JMP, JLE, X, 3, 2, false),
	J(JMP, JSET, K, 0x10, 0x18, true), J(JMP, JSET, K, 0x100000000ull, N1, true),
	J(JMP, JSET, X, 0xf0, 0x0f, false),
	J(JMP, JSGT, K, N1, 1, false), J(JMP, JSGT, X, 1, N1, true),
	J(JMP, JSGE, K, N1, N1, true), J(JMP, JSGE, X, 0x8000000000000000ull, 0, false),
	J(JMP, JSLT, K, N1, 1, true), J(JMP, JSLT, X, 1, N1, false),
	J(JMP, JSLE, K, 0x7fffffffffffffffull, N1, false), J(JMP, JSLE, X, N1, N1, true),
	J(JMP32, JEQ, K, 0x100000005ull, 5, true), J(JMP32, JEQ, X, 0x100000005ull, 6, false),
	J(JMP32, JNE, K, 0xffffffff00000005ull, 5, false), J(JMP32, JNE, X, 1, 0x100000001ull, false),
	J(JMP32, JGT, K, 0x1ffffffffull, 1, true), J(JMP32, JGT, X, 0x100000000ull, 1, false),
	J(JMP32, JGE, K, 0x80000000ull, 0x7fffffff, true), J(JMP32, JGE, X, 1, 0x200000002ull, false),
	J(JMP32, JLT, K, 0x500000001ull, 2, true), J(JMP32, JLT, X, N1, 1, false),
	J(JMP32, JLE, K, 0x100000000ull, 0, true), J(JMP32, JLE, X, 0xffffffffull, 0, false),
	J(JMP32, JSET, K, 0xff00000000ull, N1, false), J(JMP32, JSET, X, 0x80000000ull, 0x80000000ull, true),
	J(JMP32, JSGT, K, 0xffffffffull, 1, false), J(JMP32, JSGT, X, 0x7fffffffull, 0xffffffffull, true),
	J(JMP32, JSGE, K, 0x1ffffffffull, N1, true), J(JMP32, JSGE, X, 0x80000000ull, 0, false),
	J(JMP32, JSLT, K, 0x180000000ull, 0, true), J(JMP32, JSLT, X, 0, 0x80000000ull, false),
	J(JMP32, JSLE, K, 0x7fffffffull, -2, false), J(JMP32, JSLE, X, 0xfffffffeull, 0xffffffffull, true),
};
#undef J

static uint32_t
build_jumps(struct bpf_insn *ins)
{
	const struct bpf_insn pro[] = { PROLOGUE }, epi[] = { EPILOGUE };
	uint32_t n = 0;

	memcpy(ins, pro, sizeof(pro));
	n += RTE_DIM(pro);
	ins[n++] = MOV64(3, 0);
	for (size_t k = 0; k < RTE_DIM(jrows); k++) {
		const struct jrow *r = &jrows[k];
		const struct bpf_insn d[] = { LD64(1, r->d) }, s[] = { LD64(2, r->s) };

		memcpy(ins + n, d, sizeof(d));
		n += 2;
		if (r->src == BPF_X) {
			memcpy(ins + n, s, sizeof(s));
			n += 2;
		}
		/* taken: over the "ja", to the "or" of this row's bit */
		ins[n++] = I(r->cls | r->op | r->src, 1, r->src == BPF_X ? 2 : 0, 1,
			     r->src == BPF_K ? (int32_t)r->s : 0);
		ins[n++] = JA(1);
		ins[n++] = A64(BPF_OR, 3, (int32_t)(1u << (k % 31)));
		if (k % 31 == 30 || k + 1 == RTE_DIM(jrows)) {
			ins[n++] = OUT(k / 31, 3);
			ins[n++] = MOV64(3, 0);
		}
	}
	memcpy(ins + n, epi, sizeof(epi));
	return n + RTE_DIM(epi);
}

/* Programs the checker must refuse (as the kernel's verifier does). */
static const struct bpf_insn bad_shift[] = { MOV64(0, 1), A64(BPF_LSH, 0, 64), EXIT };
static const struct bpf_insn bad_shift32[] = { MOV64(0, 1), A32(BPF_RSH, 0, 32), EXIT };
static const struct bpf_insn bad_div0[] = { MOV64(0, 1), A64(BPF_DIV, 0, 0), EXIT };
static const struct bpf_insn bad_mod0[] = { MOV64(0, 1), A32(BPF_MOD, 0, 0), EXIT };
static const struct bpf_insn bad_fetch_r10[] = {
	ST(BPF_DW, 10, -8, 0), MOV64(0, 0), ATOM(BPF_DW, BPF_ADD | BPF_FETCH, 10, 10, -8), EXIT,
};
static const struct bpf_insn bad_xchg_r10[] = {
	ST(BPF_DW, 10, -8, 0), MOV64(0, 0), ATOM(BPF_W, BPF_XCHG, 10, 10, -8), EXIT,
};
static const struct bpf_insn bad_r10_write[] = { A64(BPF_ADD, 10, 8), MOV64(0, 0), EXIT };
static const struct bpf_insn bad_uninit[] = { MOV64R(0, 5), EXIT };
static const struct bpf_insn bad_jump[] = { MOV64(0, 0), JA(5), EXIT };
static const struct bpf_insn bad_ld64_half[] = { LD64(0, 1), I(BPF_JMP | BPF_JA, 0, 0, -2, 0), EXIT };

#define P(a) .insns = (a), .n = RTE_DIM(a)
static const struct conf cases[] = {
	{ "alu64_add_sub", "ALU64 ADD/SUB imm (sign-extended) and reg, wrap-around", P(alu64_add_sub),
	  .out = { 0x80000000ull, 0xfffffffffffffffeull, 0x7fffffffffffffffull,
		   0xfffffffffffffff9ull, 0xfffffffffffffffeull }, .nout = 5 },
	{ "alu32_add_sub", "ALU32 ADD/SUB imm and reg, zero-extended result", P(alu32_add_sub),
	  .out = { 8, 0xffffffffull, 0x80000000ull, 0xffffffffull }, .nout = 4 },
	{ "alu_mul", "ALU64/ALU32 MUL imm and reg, signed operands, truncation", P(alu_mul),
	  .out = { 0x300000003ull, 0, 6, 0xfffffffaull, 1 }, .nout = 5 },
	{ "alu64_div_mod", "ALU64 DIV/MOD unsigned, x/0 = 0, x%0 = x, imm sign-extended",
	  P(alu64_div_mod),
	  .out = { 0x7fffffffffffffffull, 0, 100, 0, 0x2aaaaaaaaaaaaaaaull, 2, 0, 10 }, .nout = 8 },
	{ "alu32_div_mod", "ALU32 DIV/MOD on low words, by zero, imm as u32", P(alu32_div_mod),
	  .out = { 3, 7, 0, 1, 10, 9 }, .nout = 6 },
	{ "alu_bitwise", "ALU64/ALU32 OR/AND/XOR imm and reg", P(alu_bitwise),
	  .out = { 0xf0f0f0f00f0f0f7full, 0xf0f0f0f00f0f0f00ull, 0x0f0f0f0ff0f0f0f0ull, 0x0f00,
		   0xf0f0f0f0ull, 1, 0xf0f0f0f0f0f0f0f0ull }, .nout = 7 },
	{ "alu64_shifts", "ALU64 LSH/RSH/ARSH imm 63, reg counts >= 64 masked", P(alu64_shifts),
	  .out = { 0x8000000000000000ull, 1, N1, 2, 0xf800000000000000ull, 0x10,
		   1 }, .nout = 7 },
	{ "alu32_shifts", "ALU32 LSH/RSH/ARSH imm 31, reg counts >= 32 masked, zero-extended",
	  P(alu32_shifts),
	  .out = { 0x80000000ull, 1, 0xf8000000ull, 2, 1, 0xff000000ull, 0x10 }, .nout = 7 },
	{ "alu_neg_mov", "ALU64/ALU32 NEG, MOV imm and reg (32-bit zero-extends)", P(alu_neg_mov),
	  .out = { 0xfffffffffffffffbull, 0xfffffffbull, 0x9abcdef0ull, N1, 0xffffffffull,
		   0x123456789abcdef0ull, 0x8000000000000000ull }, .nout = 7 },
	{ "byte_swaps", "END to_be/to_le 16/32/64 (little-endian host)", P(byte_swaps),
	  .out = { 0x0807, 0x08070605ull, 0x0807060504030201ull, 0x0708, 0x05060708ull,
		   0x0102030405060708ull }, .nout = 6 },
	{ "ld_imm64", "LD_IMM64 (two-slot 64-bit immediate)", P(ld_imm64),
	  .out = { 0xdeadbeefcafebabeull, 0x80000000ull, 0xffffffff00000000ull }, .nout = 3 },
	{ "memory", "LDX/ST/STX B/H/W/DW: zero-extending loads, truncating stores, ST imm "
	  "sign-extended", P(memory),
	  .out = { 0xfffffffffffffffeull, 0xfffffffeull, 0x1122334455667788ull, 0xff, 0x5566,
		   0x7ff07788ull, 0xfffffffeull }, .nout = 7 },
	{ "atomic64", "ATOMIC DW add/or/and/xor with and without FETCH, XCHG, CMPXCHG hit and miss",
	  P(atomic64),
	  .out = { 15, 18, 0x112, 0x110, 0x111, 0x77, 0x99, 0x39e99 }, .nout = 8 },
	{ "atomic32", "ATOMIC W add/and/or/xor (FETCH zero-extended), XCHG, CMPXCHG on low words; "
	  "the high word untouched", P(atomic32),
	  .out = { 0x10, 0x12345678fffffff0ull, 0x3, 0x30, 0xffffffffull, 0xffffffffull, 0xff,
		   0xaaaaaaaa00000000ull }, .nout = 8 },
	{ "bpf_to_bpf_calls", "CALL pseudo (BPF-to-BPF): args, r6-r9 kept, own frame, caller's "
	  "stack by pointer, depth 3", P(calls),
	  .out = { 75 + 0x1234, 0x66, 1, 3 + 1 + 9, 0x66 }, .nout = 5 },
	{ "helpers_maps", "helpers map_lookup_elem (hit, miss), map_update_elem, map_delete_elem "
	  "(hit, -ENOENT)", P(helpers_maps),
	  .out = { ARR1, 0, 0, 0xabc, 0, (uint64_t)-ENOENT, 0 }, .nout = 7 },
	{ "helpers_packet", "helpers xdp_adjust_head, xdp_adjust_tail, xdp_get_buff_len, "
	  "xdp_load_bytes; a bounds-checked packet store", P(helpers_packet),
	  .out = { 0, 0, 58, 0, 0x08070605ull, 58 }, .nout = 6,
	  .from = 2, .to = 60, .patch_at = 0, .patch_len = 1, .patch = { 0xab } },
	{ "helpers_loop", "helper loop (bpf_loop) with a callback, early stop", P(helpers_loop),
	  .out = { 4, 106 }, .nout = 2 },
	{ "tail_calls", "helper tail_call: out of range and empty slots fall through (-ENOENT), "
	  "a hit runs the target on the same frame and ends the run (tagpipe only: the kernel "
	  "needs the target as its own program)", P(tail_calls),
	  .out = { (uint64_t)-ENOENT, (uint64_t)-ENOENT, 0, 0x5a }, .nout = 4,
	  .tagpipe_only = true },
	{ "jumps", "JMP and JMP32: JEQ JNE JGT JGE JLT JLE JSET JSGT JSGE JSLT JSLE, imm and reg, "
	  "taken and not (each a row of a table); JA", .build = build_jumps },
	{ "refused_shift", "LSH imm 64 refused", P(bad_shift), .refused = "shift by 64" },
	{ "refused_shift32", "ALU32 RSH imm 32 refused", P(bad_shift32), .refused = "shift by 32" },
	{ "refused_div0", "DIV by constant 0 refused", P(bad_div0), .refused = "division by constant zero" },
	{ "refused_mod0", "ALU32 MOD by constant 0 refused", P(bad_mod0),
	  .refused = "division by constant zero" },
	{ "refused_fetch_r10", "atomic fetch into r10 refused", P(bad_fetch_r10),
	  .refused = "r10 (frame pointer) is read-only" },
	{ "refused_xchg_r10", "atomic xchg into r10 refused", P(bad_xchg_r10),
	  .refused = "r10 (frame pointer) is read-only" },
	{ "refused_r10_write", "ALU on r10 refused", P(bad_r10_write),
	  .refused = "r10 (frame pointer) is read-only" },
	{ "refused_uninit", "read of an unset register refused", P(bad_uninit),
	  .refused = "r5 is read before it is set" },
	{ "refused_jump", "jump past the end refused", P(bad_jump), .refused = "runs past the end" },
	{ "refused_ld64_half", "jump into the middle of ld_imm64 refused", P(bad_ld64_half),
	  .refused = "jump to pc 1" },
};

/* ---- running ------------------------------------------------------------ */

static struct rte_mempool *mp;
static uint8_t frame[FRAME_LEN];
static bool kernel_checked;
static unsigned int kernel_runs;
static char kernel_skip[200];

static uint32_t
insns_of(const struct conf *c, struct bpf_insn *ins)
{
	if (c->build != NULL)
		return c->build(ins);
	memcpy(ins, c->insns, c->n * sizeof(*ins));
	return c->n;
}

/* The expected frame bytes: a window of the input with a patch. */
static uint32_t
expected_frame(const struct conf *c, uint8_t *want)
{
	uint32_t from = c->to ? c->from : 0, to = c->to ? c->to : FRAME_LEN;

	memcpy(want, frame + from, to - from);
	memcpy(want + c->patch_at, c->patch, c->patch_len);
	return to - from;
}

static void
check_out(const char *who, const struct conf *c, const uint64_t *got)
{
	for (unsigned int k = 0; k < c->nout; k++)
		if (got[k] != c->out[k])
			fail_msg("%s: %s: out[%u] = 0x%" PRIx64 ", expected 0x%" PRIx64, c->name,
				 who, k, got[k], c->out[k]);
}

static uint64_t jump_want[8];
static unsigned int jump_words;

/* jumps: the expected words from the table's "taken" column. */
static void
jump_expectation(void)
{
	memset(jump_want, 0, sizeof(jump_want));
	for (size_t k = 0; k < RTE_DIM(jrows); k++)
		if (jrows[k].taken)
			jump_want[k / 31] |= 1ull << (k % 31);
	jump_words = (unsigned int)((RTE_DIM(jrows) + 30) / 31);
}

/* tagpipe: interpreter and compiled from the same state (bpf_diff_both),
 * then the results against the expectation. */
static void
run_tagpipe(const struct conf *c, const struct conf *eff)
{
	struct bpf_insn *ins = calloc(MAX_INSNS, sizeof(*ins));
	const uint32_t tail_entry = TAIL_ENTRY;
	struct bpf_insns_spec s = { .insns = ins, .maps = maps, .nb_maps = NMAPS, .ncpu = 1 };
	struct tp_bpf *p = NULL;
	struct bpf_diff_out o;
	struct rte_mbuf *m;
	char err[BPF_ERR_LEN], why[400];
	uint8_t want[FRAME_LEN];
	uint64_t out[8];
	uint32_t wl, key = 1;
	uint64_t one = ARR1;
	int rc;

	assert_non_null(ins);
	s.nb_insns = insns_of(c, ins);
	if (c->insns == tail_calls) {
		s.maps = tail_maps;
		s.nb_maps = NMAPS + 1;
		s.entries = &tail_entry;
		s.nb_entries = 1;
	}
	rc = tpb_insns_open(&s, &p, err, sizeof(err));
	if (c->refused != NULL) {
		if (rc == 0)
			fail_msg("%s: the checker accepted it, expected '%s'", c->name, c->refused);
		if (strstr(err, c->refused) == NULL)
			fail_msg("%s: refused with '%s', expected '%s'", c->name, err, c->refused);
		free(ins);
		return;
	}
	if (rc != 0)
		fail_msg("%s: refused: %s", c->name, err);
	assert_int_equal(tpb_map_update(&p->maps[M_ARR], &key, &one, 0, 0, true), 0);
	if (c->insns == tail_calls) {
		uint32_t slot = 0, prog1 = 1 + 1; /* program 1, stored + 1 */

		assert_true(p->progs[1].usable);
		assert_int_equal(tpb_map_update(&p->maps[M_JMP], &slot, &prog1, 0, 0, true), 0);
	}
	if (tpb_compile(p, err, sizeof(err)) != 0)
		fail_msg("%s: tpb_compile: %s", c->name, err);
	m = tp_test_mbuf_from_bytes(mp, frame, FRAME_LEN);
	if (bpf_diff_both(p, m, 0, 4096, &o, why, sizeof(why)) != 0)
		fail_msg("%s: interpreter and compiled differ: %s", c->name, why);
	if (o.fault)
		fail_msg("%s: the run stopped (%s)", c->name, bpf_diff_why(&o));
	assert_int_equal(o.r0, c->insns == tail_calls ? XDP_TX : XDP_PASS);
	memcpy(out, p->maps[M_OUT].values, sizeof(out));
	check_out("tagpipe (interpreter = compiled)", eff, out);
	wl = expected_frame(c, want);
	tp_test_assert_mbuf_bytes(m, want, wl);
	rte_pktmbuf_free(m);
	tpb_insns_close(p);
	free(ins);
}

/* The kernel wants BTF func_info for a program with a callback
 * (kernel/bpf/verifier.c check_ld_imm: "missing btf func_info"): one
 * FUNC per subprogram (pc 0 and every call or function-address target),
 * of type int(void), static but the first. Returns the BTF fd or -1;
 * fi and *nfi the records. */
static int
func_info(const struct bpf_insn *ins, uint32_t n, struct bpf_func_info *fi, uint32_t *nfi)
{
	struct btf *btf = btf__new_empty();
	uint8_t *start = calloc(n, 1);
	int i32, proto, fd = -1;

	assert_non_null(btf);
	assert_non_null(start);
	start[0] = 1;
	for (uint32_t pc = 0; pc < n; pc++)
		if ((ins[pc].code == (BPF_JMP | BPF_CALL) && ins[pc].src_reg == BPF_PSEUDO_CALL) ||
		    (ins[pc].code == (BPF_LD | BPF_IMM | BPF_DW) &&
		     ins[pc].src_reg == BPF_PSEUDO_FUNC))
			start[pc + ins[pc].imm + 1] = 1;
	i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	proto = btf__add_func_proto(btf, i32);
	*nfi = 0;
	for (uint32_t pc = 0; pc < n; pc++) {
		char name[16];

		if (!start[pc])
			continue;
		snprintf(name, sizeof(name), "f%u", pc);
		fi[*nfi].insn_off = pc;
		fi[*nfi].type_id = (uint32_t)btf__add_func(btf, name, pc == 0 ? BTF_FUNC_GLOBAL :
							   BTF_FUNC_STATIC, proto);
		(*nfi)++;
	}
	if (btf__load_into_kernel(btf) == 0)
		fd = btf__fd(btf) >= 0 ? dup(btf__fd(btf)) : -1;
	btf__free(btf);
	free(start);
	return fd;
}

/* The kernel: the same instructions through BPF_PROG_TEST_RUN. */
static void
run_kernel(const struct conf *c, const struct conf *eff)
{
	struct bpf_insn *ins = calloc(MAX_INSNS, sizeof(*ins));
	int fds[NMAPS], prog = -1, btf_fd = -1;
	struct bpf_func_info fi[16];
	uint32_t nfi = 0;
	static char log[1 << 20]; /* the verifier's log of a refusal */
	uint8_t data_out[FRAME_LEN + 256], want[FRAME_LEN];
	uint64_t out[8] = { 0 }, one = ARR1;
	uint32_t n, zero = 0, key = 1, wl;
	LIBBPF_OPTS(bpf_prog_load_opts, lo, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 1);
	LIBBPF_OPTS(bpf_test_run_opts, tr, .data_in = frame, .data_size_in = FRAME_LEN,
		    .data_out = data_out, .data_size_out = sizeof(data_out), .repeat = 1);

	assert_non_null(ins);
	log[0] = '\0';
	for (int k = 0; k < NMAPS; k++)
		fds[k] = -1;
	n = insns_of(c, ins);
	for (int k = 0; k < NMAPS; k++) {
		fds[k] = bpf_map_create(maps[k].type, maps[k].name, maps[k].key_size,
					maps[k].value_size, maps[k].max_entries, NULL);
		if (fds[k] < 0) {
			snprintf(kernel_skip, sizeof(kernel_skip), "bpf_map_create: %s",
				 strerror(errno));
			goto out;
		}
	}
	assert_int_equal(bpf_map_update_elem(fds[M_ARR], &key, &one, 0), 0);
	lo.fd_array = fds;
	if (c->refused == NULL) {
		btf_fd = func_info(ins, n, fi, &nfi);
		lo.prog_btf_fd = btf_fd >= 0 ? (uint32_t)btf_fd : 0;
		lo.func_info = btf_fd >= 0 ? fi : NULL;
		lo.func_info_cnt = btf_fd >= 0 ? nfi : 0;
		lo.func_info_rec_size = sizeof(fi[0]);
	}
	prog = bpf_prog_load(BPF_PROG_TYPE_XDP, "conf", "GPL", ins, n, &lo);
	if (c->refused != NULL) {
		if (prog >= 0)
			fail_msg("%s: the kernel accepted what tagpipe refuses", c->name);
		kernel_runs++;
		goto out;
	}
	if (prog < 0) {
		if (errno == EPERM) {
			snprintf(kernel_skip, sizeof(kernel_skip), "BPF_PROG_LOAD: %s",
				 strerror(errno));
			goto out;
		}
		fail_msg("%s: the kernel refused it (%s):\n%s", c->name, strerror(errno), log);
	}
	if (bpf_prog_test_run_opts(prog, &tr) != 0)
		fail_msg("%s: BPF_PROG_TEST_RUN: %s", c->name, strerror(errno));
	assert_int_equal(tr.retval, XDP_PASS);
	assert_int_equal(bpf_map_lookup_elem(fds[M_OUT], &zero, out), 0);
	check_out("kernel", eff, out);
	wl = expected_frame(c, want);
	if (tr.data_size_out != wl || memcmp(data_out, want, wl) != 0)
		fail_msg("%s: kernel: the frame (%u bytes) is not the expected one (%u bytes)",
			 c->name, tr.data_size_out, wl);
	kernel_runs++;
out:
	if (prog >= 0)
		close(prog);
	if (btf_fd >= 0)
		close(btf_fd);
	for (int k = 0; k < NMAPS; k++)
		if (fds[k] >= 0)
			close(fds[k]);
	free(ins);
}

static void
test_case(void **state)
{
	const struct conf *c = *state;
	struct conf eff = *c;
	bool kernel = !c->tagpipe_only && kernel_skip[0] == '\0';

	if (c->build == build_jumps) {
		memcpy(eff.out, jump_want, sizeof(jump_want));
		eff.nout = jump_words;
	}
	run_tagpipe(c, &eff);
	if (kernel)
		run_kernel(c, &eff);
	printf("conformance: %-18s %s; interpreter, compiled%s: %s\n", c->name,
	       c->refused ? "refused" : "exact results", kernel && kernel_skip[0] == '\0' ?
	       ", kernel" : "", c->covers);
	kernel_checked |= kernel && kernel_skip[0] == '\0';
}

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	mp = tp_test_pool_create("conf", 64, 0);
	for (unsigned int i = 0; i < FRAME_LEN; i++)
		frame[i] = (uint8_t)i;
	jump_expectation();
	/* the kernel part: loading a program needs CAP_BPF (root) */
	if (geteuid() != 0)
		snprintf(kernel_skip, sizeof(kernel_skip), "not root");
	libbpf_set_strict_mode(LIBBPF_STRICT_ALL);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	if (kernel_skip[0] != '\0')
		printf("conformance: kernel comparison skipped: %s\n", kernel_skip);
	else
		printf("conformance: %u cases compared with the running kernel "
		       "(BPF_PROG_TEST_RUN)\n", kernel_runs);
	return 0;
}

int
main(void)
{
	struct CMUnitTest t[RTE_DIM(cases)];

	for (size_t i = 0; i < RTE_DIM(cases); i++)
		t[i] = (struct CMUnitTest){ .name = cases[i].name, .test_func = test_case,
					    .initial_state = (void *)(uintptr_t)&cases[i] };
	return _cmocka_run_group_tests("bpf_conformance", t, RTE_DIM(cases), setup, teardown);
}
