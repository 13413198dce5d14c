// SPDX-License-Identifier: BSD-3-Clause
/*
 * eBPF instructions one at a time, on chosen registers (t_isa_ops.h):
 * ALU64 and ALU32 operations, byte swaps, JMP and JMP32 conditions,
 * then atomics on a map value. Built with -mcpu=v3 (ALU32, JMP32,
 * atomics with fetch).
 * Frame: bytes 16..23 hold a, 24..31 b (little-endian); the results go
 * from byte 32 on, 8 bytes per slot: T_ISA_OPS, then the T_ISA_C_SLOTS
 * slots computed below. XDP_TX; a frame too short for them: XDP_PASS.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "t_isa_ops.h"

struct cell {
	__u64 x;
	__u32 y;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cell);
} isa_cell SEC(".maps");

#define R64 "r"
#define R32 "w"
/* instruction text of "rD OP= rS" (D, S: register numbers as strings) */
#define X_ADD(W, D, S) R##W D " += " R##W S
#define X_SUB(W, D, S) R##W D " -= " R##W S
#define X_MUL(W, D, S) R##W D " *= " R##W S
#define X_DIV(W, D, S) R##W D " /= " R##W S
#define X_OR(W, D, S) R##W D " |= " R##W S
#define X_AND(W, D, S) R##W D " &= " R##W S
#define X_XOR(W, D, S) R##W D " ^= " R##W S
#define X_LSH(W, D, S) R##W D " <<= " R##W S
#define X_RSH(W, D, S) R##W D " >>= " R##W S
#define X_ARSH(W, D, S) R##W D " s>>= " R##W S
#define X_MOV(W, D, S) R##W D " = " R##W S
/* clang 14's assembler has no syntax for modulo and JSET: the encoded
 * instruction (code, dst_reg | src_reg << 4, off, imm; bpf_common.h) */
#define MODX_64 "0x9f"   /* BPF_ALU64 | BPF_MOD | BPF_X */
#define MODX_32 "0x9c"   /* BPF_ALU | BPF_MOD | BPF_X */
#define MODK_64 "0x97"
#define MODK_32 "0x94"
#define SETX_64 "0x4d"   /* BPF_JMP | BPF_JSET | BPF_X */
#define SETX_32 "0x4e"   /* BPF_JMP32 | BPF_JSET | BPF_X */
#define SETK_64 "0x45"
#define SETK_32 "0x46"
#define X_MOD(W, D, S) ".quad (" MODX_##W " | (" S " << 12) | (" D " << 8))"
/* "rD OP= K" */
#define F_ADD(W, D, K) R##W D " += " K
#define F_SUB(W, D, K) R##W D " -= " K
#define F_MUL(W, D, K) R##W D " *= " K
#define F_DIV(W, D, K) R##W D " /= " K
#define F_OR(W, D, K) R##W D " |= " K
#define F_AND(W, D, K) R##W D " &= " K
#define F_XOR(W, D, K) R##W D " ^= " K
#define F_LSH(W, D, K) R##W D " <<= " K
#define F_RSH(W, D, K) R##W D " >>= " K
#define F_ARSH(W, D, K) R##W D " s>>= " K
#define F_MOV(W, D, K) R##W D " = " K
#define F_MOD(W, D, K) ".quad (" MODK_##W " | (" D " << 8) | (((" K ") & 0xffffffff) << 32))"
#define F_BE16(W, D, K) "r" D " = be16 r" D
#define F_BE32(W, D, K) "r" D " = be32 r" D
#define F_BE64(W, D, K) "r" D " = be64 r" D
#define F_LE16(W, D, K) "r" D " = le16 r" D
#define F_LE32(W, D, K) "r" D " = le32 r" D
#define F_LE64(W, D, K) "r" D " = le64 r" D
#define F_NEG(W, D, K) R##W D " = -" R##W D
/* "if rD C rS goto +1" */
#define J_EQ(W, D, S) "if " R##W D " == " S " goto +1"
#define J_NE(W, D, S) "if " R##W D " != " S " goto +1"
#define J_GT(W, D, S) "if " R##W D " > " S " goto +1"
#define J_GE(W, D, S) "if " R##W D " >= " S " goto +1"
#define J_LT(W, D, S) "if " R##W D " < " S " goto +1"
#define J_LE(W, D, S) "if " R##W D " <= " S " goto +1"
#define J_SGT(W, D, S) "if " R##W D " s> " S " goto +1"
#define J_SGE(W, D, S) "if " R##W D " s>= " S " goto +1"
#define J_SLT(W, D, S) "if " R##W D " s< " S " goto +1"
#define J_SLE(W, D, S) "if " R##W D " s<= " S " goto +1"
#define JX_SET(W, D, S) ".quad (" SETX_##W " | (" S " << 12) | (" D " << 8) | (1 << 16))"
#define JK_SET(W, D, K) ".quad (" SETK_##W " | (" D " << 8) | (1 << 16) | (((" K ") & 0xffffffff) << 32))"
#define JX_EQ(W, D, S) J_EQ(W, D, R##W S)
#define JX_NE(W, D, S) J_NE(W, D, R##W S)
#define JX_GT(W, D, S) J_GT(W, D, R##W S)
#define JX_GE(W, D, S) J_GE(W, D, R##W S)
#define JX_LT(W, D, S) J_LT(W, D, R##W S)
#define JX_LE(W, D, S) J_LE(W, D, R##W S)
#define JX_SGT(W, D, S) J_SGT(W, D, R##W S)
#define JX_SGE(W, D, S) J_SGE(W, D, R##W S)
#define JX_SLT(W, D, S) J_SLT(W, D, R##W S)
#define JX_SLE(W, D, S) J_SLE(W, D, R##W S)
#define JK_EQ J_EQ
#define JK_NE J_NE
#define JK_GT J_GT
#define JK_GE J_GE
#define JK_LT J_LT
#define JK_LE J_LE
#define JK_SGT J_SGT
#define JK_SGE J_SGE
#define JK_SLT J_SLT
#define JK_SLE J_SLE

#define BIN(W, OP, D, S) {                                                      \
	__u64 r;                                                                \
	asm volatile("r" #D " = %[a]; r" #S " = %[b]; " X_##OP(W, #D, #S)       \
		     "; %[r] = r" #D                                             \
		     : [r] "=r"(r) : [a] "r"(a), [b] "r"(b) : "r" #D, "r" #S);   \
	*o++ = r;                                                               \
}
#define IMM(W, OP, D, K) {                                                      \
	__u64 r;                                                                \
	asm volatile("r" #D " = %[a]; " F_##OP(W, #D, #K) "; %[r] = r" #D       \
		     : [r] "=r"(r) : [a] "r"(a) : "r" #D);                       \
	*o++ = r;                                                               \
}
#define JMP(W, C, D, S) {                                                       \
	__u64 r;                                                                \
	asm volatile("r" #D " = %[a]; r" #S " = %[b]; %[r] = 1; "               \
		     JX_##C(W, #D, #S) "; %[r] = 0"                              \
		     : [r] "=&r"(r) : [a] "r"(a), [b] "r"(b) : "r" #D, "r" #S);  \
	*o++ = r;                                                               \
}
#define JMPK(W, C, D, K) {                                                      \
	__u64 r;                                                                \
	asm volatile("r" #D " = %[a]; %[r] = 1; " JK_##C(W, #D, #K)             \
		     "; %[r] = 0"                                                \
		     : [r] "=&r"(r) : [a] "r"(a) : "r" #D);                      \
	*o++ = r;                                                               \
}

SEC("xdp")
int isa(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u64 *in = data + 16, *o = data + 32;
	struct cell *c;
	__u32 k = 0;
	__u64 a, b;

	/* the slot count: T_ISA_OPS expands to one statement per slot */
#define ONE(...) +1
	if (data + 32 + 8 * (0 T_ISA_OPS(ONE, ONE, ONE, ONE) + T_ISA_C_SLOTS) > end)
		return XDP_PASS;
	a = in[0];
	b = in[1];
	T_ISA_OPS(BIN, IMM, JMP, JMPK)

	/* byte-wise accesses on frame bytes 0..15 (the JIT may do them 16
	 * bits at a time): a copy onto its own next byte, a copy, a copy
	 * one byte down, a split 16-bit store, a 16-bit load */
	{
		__u64 r2, r3, r4;

		asm volatile("r2 = *(u8 *)(%[p] + 0); *(u8 *)(%[p] + 1) = r2; "
			     "r2 = *(u8 *)(%[p] + 1); *(u8 *)(%[p] + 2) = r2; "
			     "r2 = *(u8 *)(%[p] + 4); *(u8 *)(%[p] + 8) = r2; "
			     "r2 = *(u8 *)(%[p] + 5); *(u8 *)(%[p] + 9) = r2; "
			     "r2 = *(u8 *)(%[p] + 11); *(u8 *)(%[p] + 10) = r2; "
			     "r2 = *(u8 *)(%[p] + 12); *(u8 *)(%[p] + 11) = r2; "
			     "%[r2] = r2; "
			     "r3 = %[a]; *(u8 *)(%[p] + 12) = r3; r3 >>= 8; "
			     "*(u8 *)(%[p] + 13) = r3; "
			     "r3 = *(u8 *)(%[p] + 15); r3 <<= 8; r4 = *(u8 *)(%[p] + 14); "
			     "r3 |= r4; %[r3] = r3; %[r4] = r4"
			     : [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4)
			     : [p] "r"(data), [a] "r"(a) : "r2", "r3", "r4", "memory");
		*o++ = r2;
		*o++ = r3;
		*o++ = r4;
	}

	c = bpf_map_lookup_elem(&isa_cell, &k);
	if (c == NULL)
		return XDP_ABORTED;
	c->x = a;
	*o++ = __sync_fetch_and_add(&c->x, b);
	*o++ = c->x;
	c->x = a;
	__sync_fetch_and_add(&c->x, b);
	*o++ = c->x;
	c->x = a;
	__sync_fetch_and_and(&c->x, b);
	*o++ = c->x;
	c->x = a;
	__sync_fetch_and_xor(&c->x, b);
	*o++ = c->x;
	c->x = a;
	*o++ = __sync_fetch_and_and(&c->x, b);
	*o++ = c->x;
	c->x = a;
	__sync_fetch_and_or(&c->x, b);
	*o++ = c->x;
	c->x = a;
	*o++ = __sync_fetch_and_or(&c->x, b);
	*o++ = c->x;
	c->x = a;
	*o++ = __sync_fetch_and_xor(&c->x, b);
	*o++ = c->x;
	c->x = a;
	*o++ = __sync_lock_test_and_set(&c->x, b);
	*o++ = c->x;
	c->x = a;
	*o++ = __sync_val_compare_and_swap(&c->x, a, b);
	*o++ = c->x;
	c->x = a;
	*o++ = __sync_val_compare_and_swap(&c->x, b, 7);
	*o++ = c->x;
	c->y = (__u32)a;
	*o++ = __sync_fetch_and_xor(&c->y, (__u32)b);
	*o++ = c->y;
	c->y = (__u32)a;
	*o++ = __sync_val_compare_and_swap(&c->y, (__u32)b, (__u32)a + 1);
	*o++ = c->y;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
