/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kernel's own verifier as a second opinion (contract: tp_prog.h).
 *
 * Where the running kernel lets this process load BPF programs (root or
 * CAP_BPF + CAP_NET_ADMIN), the selected program is loaded once through
 * libbpf as an XDP program, with kernel maps of the same shapes created by
 * libbpf from the same definitions (a RINGBUF gets the size libbpf's open
 * already rounded it to, the size tagpipe's ring has), and everything is released at once: nothing is attached or
 * pinned (pinning requests such as xdp-filter's LIBBPF_PIN_BY_NAME are
 * cleared first). Objects with tail calls: the other programs tagpipe
 * accepted as tail-call targets are loaded (and so verified) with it. A program the kernel rejects is refused with the last
 * lines of the verifier log. When the kernel cannot be asked (no privilege,
 * no BPF, legacy map definitions libbpf cannot open), the caller decides
 * (tp_prog_bpf_set_verify). The kernel verifies libbpf's reading of the
 * file, so it is asked only when that reading is tagpipe's
 * (reading_differs); else the program counts as not kernel-verified.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpf_priv.h"

#define KLOG_SIZE (1u << 20)

/* The verifier's reason: the last two log lines before its statistics
 * ("processed N insns ..."), joined by "; ". */
static void
log_tail(char *log, char *out, size_t len)
{
	const char *lines[2] = { NULL, NULL };
	char *save = NULL;

	for (char *l = strtok_r(log, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (strncmp(l, "processed ", 10) == 0 || strncmp(l, "verification time", 17) == 0)
			continue;
		lines[0] = lines[1];
		lines[1] = l;
	}
	if (lines[0] != NULL)
		snprintf(out, len, "%s; %s", lines[0], lines[1]);
	else
		snprintf(out, len, "%s", lines[1] ? lines[1] : "(no log)");
}

/* Instruction a (libbpf's, as in the file) is b (tagpipe's, as loaded):
 * equal but for what relocation fills in, the immediates and source
 * register of ld_imm64 (map or data addresses here, map fds there) and
 * the offset of a BPF-to-BPF call (the callee's place in each layout). */
static bool
same_insn(const struct bpf_insn *a, const struct bpf_insn *b, bool second_half)
{
	if (second_half)
		return a->code == b->code;
	if (a->code != b->code || a->dst_reg != b->dst_reg)
		return false;
	if (a->code == (BPF_LD | BPF_IMM | BPF_DW))
		return true;
	if (a->code == (BPF_JMP | BPF_CALL) && a->src_reg == BPF_PSEUDO_CALL)
		return b->src_reg == BPF_PSEUDO_CALL;
	return a->src_reg == b->src_reg && a->off == b->off && a->imm == b->imm;
}

/*
 * The kernel checks libbpf's reading of the file, and tagpipe runs its own
 * (bpf_load.c): the proof covers tagpipe's program only where the two
 * agree. They must have the same user maps (type, key and value size,
 * entries: what bounds a map-value access) and, for every program the
 * kernel is given, the same instructions at tagpipe's entry of that
 * function. BPF-to-BPF callees (.text) are not listed by libbpf and are
 * not compared. NULL when they agree, else what differs.
 */
static const char *
reading_differs(const struct tp_bpf *p, const struct bpf_insn *loaded, struct bpf_object *obj,
		char *buf, size_t len)
{
	struct bpf_program *prog;
	struct bpf_map *m;

	bpf_object__for_each_map(m, obj) {
		const struct tp_bpf_map *t = NULL;

		if (bpf_map__is_internal(m))
			continue; /* global data: the ELF section sizes, read alike */
		for (uint32_t k = 0; k < p->nb_maps && t == NULL; k++)
			if (strcmp(p->maps[k].name, bpf_map__name(m)) == 0)
				t = &p->maps[k];
		if (t == NULL || t->type != (uint32_t)bpf_map__type(m) ||
		    t->key_size != bpf_map__key_size(m) ||
		    t->value_size != bpf_map__value_size(m) ||
		    t->max_entries != bpf_map__max_entries(m)) {
			snprintf(buf, len, "map '%s'", bpf_map__name(m));
			return buf;
		}
	}
	bpf_object__for_each_program(prog, obj) {
		const struct bpf_insn *ki = bpf_program__insns(prog);
		size_t cnt = bpf_program__insn_cnt(prog);
		int64_t entry = -1;

		if (!bpf_program__autoload(prog))
			continue;
		for (uint32_t k = 0; k < p->nb_progs && entry < 0; k++)
			if (strcmp(p->progs[k].name, bpf_program__name(prog)) == 0)
				entry = p->progs[k].entry;
		if (entry < 0 || cnt > p->nb_insns - (uint64_t)entry) {
			snprintf(buf, len, "program %s", bpf_program__name(prog));
			return buf;
		}
		for (size_t i = 0; i < cnt; i++) {
			bool second = i > 0 && ki[i - 1].code == (BPF_LD | BPF_IMM | BPF_DW);

			if (!same_insn(&ki[i], &loaded[entry + i], second)) {
				snprintf(buf, len, "program %s, instruction %zu",
					 bpf_program__name(prog), i);
				return buf;
			}
		}
	}
	return NULL;
}

int
tpb_kernel_verify(const struct tp_bpf *p, const struct bpf_insn *loaded, char *err,
		  size_t errlen)
{
	libbpf_print_fn_t old;
	struct bpf_object *obj;
	struct bpf_program *prog, *sel = NULL;
	struct bpf_map *m;
	const char *differs;
	char *log, what[96];
	int rc;

	log = calloc(1, KLOG_SIZE);
	if (log == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	old = libbpf_set_print(tpb_libbpf_quiet);
	obj = bpf_object__open_file(p->path, NULL);
	if (obj == NULL) {
		rc = -errno;
		snprintf(err, errlen, "libbpf cannot open the object for the kernel");
		goto out;
	}
	bpf_object__for_each_program(prog, obj) {
		bool target = false;

		for (uint32_t k = 1; k < p->nb_progs; k++)
			target |= p->progs[k].usable &&
				  strcmp(bpf_program__name(prog), p->progs[k].name) == 0;
		if (strcmp(bpf_program__name(prog), p->func) == 0 &&
		    strcmp(bpf_program__section_name(prog), p->section) == 0)
			sel = prog;
		else if (target) {
			bpf_program__set_type(prog, BPF_PROG_TYPE_XDP);
			/* one buffer: loads are sequential, the failing one's log is last */
			bpf_program__set_log_buf(prog, log, KLOG_SIZE);
			bpf_program__set_log_level(prog, 1);
		} else
			bpf_program__set_autoload(prog, false);
	}
	if (sel == NULL) {
		rc = -ENOENT;
		snprintf(err, errlen, "libbpf does not list program %s", p->func);
		goto close;
	}
	/* libbpf 1.x opens non-standard section names as type unspec. */
	bpf_program__set_type(sel, BPF_PROG_TYPE_XDP);
	/* Tail-call targets share the PROG_ARRAY's owner: recent kernels
	 * refuse programs whose expected attach type differs from it
	 * (kernel/bpf/core.c __bpf_prog_map_compatible). */
	bpf_object__for_each_program(prog, obj)
		if (prog != sel && bpf_program__autoload(prog))
			bpf_program__set_expected_attach_type(prog,
				bpf_program__expected_attach_type(sel));
	if (p->frags)
		bpf_program__set_flags(sel, bpf_program__flags(sel) | BPF_F_XDP_HAS_FRAGS);
	bpf_program__set_log_buf(sel, log, KLOG_SIZE);
	bpf_program__set_log_level(sel, 1);
	bpf_object__for_each_map(m, obj)
		bpf_map__set_pin_path(m, NULL);
	/* a proof of libbpf's reading is no proof of tagpipe's */
	differs = reading_differs(p, loaded, obj, what, sizeof(what));
	if (differs != NULL) {
		rc = -EPROTO;
		snprintf(err, errlen, "libbpf's reading of the file differs from tagpipe's at %s",
			 differs);
		goto close;
	}
	rc = bpf_object__load(obj);
	if (rc == 0) {
		snprintf(err, errlen, "verified by the kernel");
	} else if (log[0] != '\0') {
		char tail[BPF_ERR_LEN];

		log_tail(log, tail, sizeof(tail));
		snprintf(err, errlen, "the kernel verifier rejects it: %s", tail);
		rc = -EINVAL;
	} else {
		snprintf(err, errlen, "the kernel cannot load BPF here: %s", strerror(-rc));
		rc = rc == -EINVAL ? -EPERM : rc; /* no verdict from the verifier */
	}
close:
	bpf_object__close(obj);
out:
	libbpf_set_print(old);
	free(log);
	return rc;
}
