/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Differential runs of one eBPF program (struct tp_bpf, lib/bpf/bpf_priv.h):
 * the interpreter (tpb_run, the reference semantics) and compiled code
 * (p->compiled, whatever tpb_compile() made) on the same frame, the same
 * maps and the same stack, from the same state. Used by the xbpf fuzz
 * target (tests/fuzz/fuzz_xbpf.c) and the conformance test
 * (tests/bpf/test_bpf_conformance.c).
 *
 * Both runs use the same memory (the mbuf, the maps, one stack): the
 * state is saved before the first, put back before the second, so even a
 * program that stores or compares pointers sees the same values in both.
 * What is compared after each run: r0 (all 64 bits), the fault flag and
 * its reason (the counter prog_bpf.c would bump), the redirect key, the
 * tail calls taken, the loop budget left (programs with loops), every
 * segment's bytes and geometry (data_off, data_len, pkt_len), and every
 * map's storage (values, hash slots and keys, LRU bits and hand, counts).
 * Not supported: PERF_EVENT_ARRAY and RINGBUF contents (not compared) and
 * the nondeterministic helpers ktime_get_ns and get_prandom_u32
 * (bpf_diff_deterministic() says whether a program reaches them).
 */
#ifndef TP_BPF_DIFF_H
#define TP_BPF_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "bpf_priv.h"

#define BPF_DIFF_MAX_SEGS 4

/* The outcome of one run, besides memory. */
struct bpf_diff_out {
	uint64_t r0;
	uint64_t fault;           /* nonzero: stopped */
	uint32_t why;             /* enum bpf_counter, when fault */
	uint32_t redirect_key;    /* UINT32_MAX: none */
	uint32_t tail_calls;
	uint32_t loop_left;
};

/* One run of p on m, set up as prog_bpf.c's prepare() does: the context
 * of m's first segment (ingress_ifindex 1, rx queue 0); for a program
 * that reads data_meta, 8 bytes of metadata (a fixed pattern) in front of
 * the data when the headroom has them; the stack filled with a fixed
 * pattern; cpu as the lcore index; a budget of `budget` backward jumps
 * for programs with loops (UINT32_MAX for the others, as prog_bpf.c
 * leaves it). compiled: p->compiled, which must be set; else tpb_run. */
void bpf_diff_run(struct tp_bpf *p, bool compiled, struct rte_mbuf *m, uint32_t cpu,
		  uint32_t budget, struct bpf_diff_out *o);

/* A copy of what a run may change: m's segments (at most
 * BPF_DIFF_MAX_SEGS) and every map of p. */
struct bpf_diff_snap;
struct bpf_diff_snap *bpf_diff_snap_new(const struct tp_bpf *p);
void bpf_diff_snap_free(struct bpf_diff_snap *s);
void bpf_diff_save(struct bpf_diff_snap *s, const struct tp_bpf *p, const struct rte_mbuf *m);
void bpf_diff_restore(const struct bpf_diff_snap *s, struct tp_bpf *p, struct rte_mbuf *m);
/* The segment count of the packet s saved. */
uint16_t bpf_diff_snap_segs(const struct bpf_diff_snap *s);
/* 0 when a and b hold the same state, else -1 with the first difference
 * described in why. */
int bpf_diff_compare(const struct bpf_diff_snap *a, const struct bpf_diff_snap *b,
		     const struct tp_bpf *p, char *why, size_t len);

/* p run on m from the same state in the interpreter, then compiled;
 * outcome and memory compared. 0: the same (o: the outcome, the state as
 * the runs left it); -1: why says what differed (the interpreter's value
 * first); 1: not compared, because the interpreter's run freed segments
 * of m's chain (a multi-buffer tail cut), which no snapshot can put back
 * (o: the interpreter's outcome, m as it left it). p->compiled must be
 * set. */
int bpf_diff_both(struct tp_bpf *p, struct rte_mbuf *m, uint32_t cpu, uint32_t budget,
		  struct bpf_diff_out *o, char *why, size_t len);

/* false when a reachable instruction calls ktime_get_ns or
 * get_prandom_u32 (different results in the two runs by design). */
bool bpf_diff_deterministic(const struct tp_bpf *p);

/* "oob", "helper", "loop", or "-" for no fault. */
const char *bpf_diff_why(const struct bpf_diff_out *o);

#endif /* TP_BPF_DIFF_H */
