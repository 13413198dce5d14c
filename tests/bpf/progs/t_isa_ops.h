/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The result slots of t_isa.c, shared with the test that computes each one
 * in C (test_bpf.c, test_isa). a and b are the frame's two input words.
 *   BIN(W, OP, D, S)   rD = a, rS = b, then "rD OP rS" on W bits (64, or 32
 *                      with wD/wS), the result rD (with D == S: b OP b)
 *   IMM(W, OP, D, K)   rD = a, then "rD OP K"
 *   JMP(W, C, D, S)    1 when "if rD C rS" jumps (W 32: wD, wS), else 0
 *   JMPK(W, C, D, K)   the same against the constant K
 * The registers are eBPF's; the pairs are those the JIT must treat apart
 * on x86 (r0 = rax and r3 = rdx for division, r4 = rcx for shifts).
 */
#define T_ISA_PAIRS(X, W, OP) \
	X(W, OP, 0, 3) X(W, OP, 3, 0) X(W, OP, 3, 4) X(W, OP, 4, 3) \
	X(W, OP, 0, 4) X(W, OP, 4, 0) X(W, OP, 4, 4) X(W, OP, 3, 3) \
	X(W, OP, 0, 0) X(W, OP, 1, 2) X(W, OP, 6, 7) X(W, OP, 4, 1)

#define T_ISA_OPS(BIN, IMM, JMP, JMPK) \
	T_ISA_PAIRS(BIN, 64, DIV) T_ISA_PAIRS(BIN, 32, DIV) \
	T_ISA_PAIRS(BIN, 64, MOD) T_ISA_PAIRS(BIN, 32, MOD) \
	T_ISA_PAIRS(BIN, 64, LSH) T_ISA_PAIRS(BIN, 32, LSH) \
	T_ISA_PAIRS(BIN, 64, RSH) T_ISA_PAIRS(BIN, 32, RSH) \
	T_ISA_PAIRS(BIN, 64, ARSH) T_ISA_PAIRS(BIN, 32, ARSH) \
	BIN(64, ADD, 1, 2) BIN(32, ADD, 6, 7) BIN(64, SUB, 7, 8) BIN(32, SUB, 2, 9) \
	BIN(64, MUL, 0, 3) BIN(32, MUL, 4, 5) BIN(64, OR, 3, 4) BIN(32, OR, 8, 0) \
	BIN(64, AND, 1, 9) BIN(32, AND, 5, 3) BIN(64, XOR, 2, 6) BIN(32, XOR, 0, 1) \
	BIN(64, MOV, 3, 4) BIN(32, MOV, 4, 3) BIN(32, MOV, 5, 5) \
	IMM(64, ADD, 3, -1) IMM(32, ADD, 3, -1) IMM(64, SUB, 4, 300) IMM(32, SUB, 0, 7) \
	IMM(64, MUL, 0, -3) IMM(32, MUL, 3, 100000) IMM(64, DIV, 3, 7) IMM(32, DIV, 0, -7) \
	IMM(64, DIV, 4, -1) IMM(64, MOD, 0, 7) IMM(32, MOD, 3, -7) IMM(64, MOD, 4, -1) \
	IMM(64, OR, 1, -256) IMM(32, OR, 2, 0x55) \
	IMM(64, AND, 4, -256) IMM(32, AND, 3, 0x7fff0000) IMM(64, XOR, 0, -1) \
	IMM(32, XOR, 3, 0x80000001) IMM(64, LSH, 4, 63) IMM(32, LSH, 3, 31) \
	IMM(64, RSH, 0, 1) IMM(32, RSH, 4, 17) IMM(64, ARSH, 3, 60) IMM(32, ARSH, 0, 5) \
	IMM(32, LSH, 4, 0) IMM(32, RSH, 0, 0) IMM(64, ARSH, 3, 0) \
	IMM(64, MOV, 3, -1) IMM(32, MOV, 4, -1) IMM(64, MOV, 0, 0x7fffffff) \
	IMM(64, BE16, 3, 0) IMM(64, BE32, 4, 0) IMM(64, BE64, 0, 0) \
	IMM(64, LE16, 6, 0) IMM(64, LE32, 3, 0) IMM(64, LE64, 4, 0) \
	IMM(64, NEG, 3, 0) IMM(32, NEG, 4, 0) \
	JMP(64, EQ, 3, 4) JMP(32, EQ, 0, 3) JMP(64, NE, 4, 0) JMP(32, NE, 1, 2) \
	JMP(64, GT, 3, 4) JMP(32, GT, 3, 4) JMP(64, GE, 6, 7) JMP(32, GE, 6, 7) \
	JMP(64, LT, 0, 3) JMP(32, LT, 0, 3) JMP(64, LE, 4, 3) JMP(32, LE, 4, 3) \
	JMP(64, SGT, 3, 4) JMP(32, SGT, 3, 4) JMP(64, SGE, 1, 2) JMP(32, SGE, 1, 2) \
	JMP(64, SLT, 0, 4) JMP(32, SLT, 0, 4) JMP(64, SLE, 4, 0) JMP(32, SLE, 4, 0) \
	JMP(64, SET, 3, 4) JMP(32, SET, 0, 3) \
	JMPK(64, EQ, 3, 0) JMPK(32, EQ, 3, 0) JMPK(64, NE, 4, -1) JMPK(32, NE, 4, -1) \
	JMPK(64, GT, 0, -2) JMPK(32, GT, 0, -2) JMPK(64, GE, 3, 1000) \
	JMPK(32, GE, 3, 1000) JMPK(64, LT, 4, 5) JMPK(32, LT, 4, 5) \
	JMPK(64, LE, 0, 0) JMPK(32, LE, 0, 0) JMPK(64, SGT, 3, -5) \
	JMPK(32, SGT, 3, -5) JMPK(64, SGE, 4, 0) JMPK(32, SGE, 4, 0) \
	JMPK(64, SLT, 0, -1) JMPK(32, SLT, 0, -1) JMPK(64, SLE, 3, 7) JMPK(32, SLE, 3, 7) \
	JMPK(64, SET, 3, -0x100) JMPK(32, SET, 4, 0x80)

/* Slots after T_ISA_OPS, computed by t_isa.c without T_ISA_OPS' forms:
 * three registers left by byte-wise accesses to frame bytes 0..15, then
 * the atomics on a map value, each storing a, applying b and giving the
 * value fetched and the value left (see t_isa.c). */
#define T_ISA_C_SLOTS 25
