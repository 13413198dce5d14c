/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An eBPF program from an instruction array in memory, without an ELF
 * file: the way tests and fuzz targets reach the runtime's internals
 * (bpf_priv.h) with programs they write themselves. Private to lib/bpf and
 * tests; the public way in is tp_bpf.h.
 *
 * Map references use the kernel's own encoding for a map given by index
 * (include/uapi/linux/bpf.h, BPF_PSEUDO_MAP_IDX and _IDX_VALUE, the form
 * a BPF_PROG_LOAD with fd_array reads), so the same array loads into the
 * kernel unchanged:
 *   ld_imm64 src_reg BPF_PSEUDO_MAP_IDX (5), imm = k: the handle of map k;
 *   ld_imm64 src_reg BPF_PSEUDO_MAP_IDX_VALUE (6), imm = k, the second
 *     half's imm = off: the address of byte off of map k's value, for a
 *     one-entry ARRAY (as the kernel's array_map_direct_value_addr).
 * Both become what bpf_load.c makes of an object's relocations (the
 * address of tagpipe's map, or of its value storage), then the program is
 * checked and rewritten by tpb_verify_and_rewrite() as an opened object is,
 * in the --bpf-unverified reading: loops are allowed (the run-time budget
 * stops them), the kernel is not asked (kernel_ok stays false, so compiled
 * code keeps every run-time bounds check).
 */
#ifndef TP_BPF_INSNS_H
#define TP_BPF_INSNS_H

#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#include "bpf_priv.h"

struct bpf_insns_map {
	const char *name;         /* NULL: "map<k>" */
	uint32_t type;            /* enum bpf_map_type */
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
};

struct bpf_insns_spec {
	const struct bpf_insn *insns;
	uint32_t nb_insns;        /* 1..BPF_MAX_INSNS */
	const struct bpf_insns_map *maps;
	uint32_t nb_maps;         /* at most BPF_MAX_MAPS */
	/* first pcs of the object's other programs (tail-call targets,
	 * p->progs[1..]); the selected program starts at pc 0 */
	const uint32_t *entries;
	uint32_t nb_entries;      /* at most BPF_MAX_PROGS - 1 */
	uint32_t ncpu;            /* per-CPU copies (run cpu < ncpu); 0: 1 */
};

/* The program of s, loaded and checked. 0 and *out, or -EINVAL (bad
 * spec, bad map reference, refused by the checker: err says why, naming
 * the pc) or -ENOMEM. Not compiled: call tpb_compile() for that. */
int tpb_insns_open(const struct bpf_insns_spec *s, struct tp_bpf **out, char *err,
		   size_t errlen);

/* Everything of p (compiled code, maps, p itself); NULL is a no-op. */
void tpb_insns_close(struct tp_bpf *p);

#endif /* TP_BPF_INSNS_H */
