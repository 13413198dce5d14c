/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "bpf" program kind: an XDP object file as a verdict program
 * (contract: tp_prog.h, "XDP objects"). Opening loads, verifies and
 * rewrites the object (bpf_load.c, bpf_verify.c); the burst function runs
 * it once per packet in the interpreter (bpf_exec.c) with the context and
 * metadata filled from the mbuf.
 */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_telemetry.h>

#include "bpf_priv.h"

#define CHUNK 32

/*
 * The run slots of one lcore, kept between bursts: a slot is left in its
 * idle state by conclude() (no fault, no redirect, no tail call, no open
 * ring record), so a burst writes only each frame's fields (prepare())
 * and, when the port or queue changed, the context's two ids. Only the
 * thread of that lcore index uses it: EAL lcores and registered threads
 * have distinct indexes (rte_lcore_index); any other thread runs on
 * slots of its own stack.
 */
struct bpf_lcore_runs {
	struct bpf_run rs[CHUNK];
	uint8_t stack[BPF_MAX_FRAMES * BPF_STACK_SIZE] __rte_aligned(16);
	uint32_t port_queue; /* ids the slots' contexts hold: port << 16 | queue */
} __rte_cache_aligned;

/* Slots rs[0..k) in the idle state for lcore slot cpu, port and queue. */
static void
run_slots_init(struct bpf_run *rs, unsigned int k, const struct tp_bpf *p, uint32_t cpu,
	       uint8_t *stack, uint16_t port, uint16_t queue)
{
	for (unsigned int i = 0; i < k; i++) {
		rs[i] = (struct bpf_run){
			.prog = p,
			.cpu = cpu,
			.stack = stack,
			.redirect_key = UINT32_MAX,
			.loop_left = UINT32_MAX,
		};
		rs[i].ctx.ingress_ifindex = (uint32_t)port + 1;
		rs[i].ctx.rx_queue_index = queue;
	}
}

static void
bpf_free(struct tp_bpf *p)
{
	if (p == NULL)
		return;
	free(p->lruns);
	tpb_fib_free(p);
	btf__free(p->btf);
	tpb_compiled_free(p);
	for (uint32_t i = 0; i < p->nb_maps; i++)
		tpb_map_fini(&p->maps[i]);
	free(p->insns);
	free(p->insn_flags);
	free(p->counters);
	free(p);
}

/* "FILE.o" or "FILE.o:SEL": the selector follows the last ".o:". */
static int
split_spec(const char *arg, char *path, size_t plen, char *sel, size_t slen)
{
	const char *cut = NULL, *s = arg;

	while ((s = strstr(s, ".o:")) != NULL)
		cut = s++ + 2;
	if (cut == NULL) {
		if (strlen(arg) >= plen)
			return -1;
		snprintf(path, plen, "%s", arg);
		sel[0] = '\0';
		return 0;
	}
	if ((size_t)(cut - arg) >= plen || strlen(cut + 1) >= slen || cut[1] == '\0')
		return -1;
	memcpy(path, arg, (size_t)(cut - arg));
	path[cut - arg] = '\0';
	snprintf(sel, slen, "%s", cut + 1);
	return 0;
}

static enum tp_bpf_verify verify_mode = TP_BPF_VERIFY_AUTO;

const char *
tpb_exec_word(void)
{
	return "jit";
}

/* How p runs, for every report (tp_prog.h, struct tp_bpf_exec_info). */
static void
exec_info(const struct tp_bpf *p, struct tp_bpf_exec_info *in)
{
	bool nobody = p->has_loops && !p->kernel_ok;
	size_t n;

	memset(in, 0, sizeof(*in));
	snprintf(in->path, sizeof(in->path), "%s", p->path);
	snprintf(in->section, sizeof(in->section), "%s", p->section);
	snprintf(in->function, sizeof(in->function), "%s", p->func);
	in->frags = p->frags;
	in->verified_by = p->kernel_ok ? "kernel" : nobody ? "nobody" : "tagpipe";
	in->execution = p->compiled != NULL ? tpb_exec_word() : "interpreter";
	in->checks = p->kernel_ok && p->compiled != NULL ? "proven" : "checked";
	n = (size_t)snprintf(in->reason, sizeof(in->reason), "%s",
			     p->kernel_ok ? "the kernel's verifier accepted it" : p->verify_note);
	if (nobody && n < sizeof(in->reason))
		n += (size_t)snprintf(in->reason + n, sizeof(in->reason) - n,
				      "; a loop (pc %u) nobody proved finite runs under a "
				      "budget of %u backward jumps", p->loop_pc, BPF_LOOP_BUDGET);
	if (n >= sizeof(in->reason))
		return;
	if (p->compiled != NULL && p->kernel_ok)
		snprintf(in->reason + n, sizeof(in->reason) - n, "; %s code runs its memory "
			 "accesses unchecked, as the kernel's JIT does", tpb_exec_word());
	else if (p->compiled != NULL)
		snprintf(in->reason + n, sizeof(in->reason) - n, "; every memory access is "
			 "checked at run time");
	else if (p->interp_asked)
		snprintf(in->reason + n, sizeof(in->reason) - n, "; bpf-interp: the "
			 "interpreter checks every memory access");
	else
		snprintf(in->reason + n, sizeof(in->reason) - n, "; not %s (%s): the "
			 "interpreter checks every memory access", tpb_exec_word(),
			 p->mode_note + strlen("interpreted: "));
}

static int
exec_line(const struct tp_bpf *p, char *buf, size_t len)
{
	struct tp_bpf_exec_info in;

	exec_info(p, &in);
	return snprintf(buf, len, "%s (section %s, function %s): verified by %s, "
			"execution %s, memory checks %s: %s", in.path, in.section,
			in.function, in.verified_by, in.execution, in.checks, in.reason);
}

int
tp_prog_bpf_set_verify(enum tp_bpf_verify mode)
{
	if (mode != TP_BPF_VERIFY_AUTO && mode != TP_BPF_VERIFY_KERNEL &&
	    mode != TP_BPF_VERIFY_OFF)
		return -EINVAL;
	verify_mode = mode;
	return 0;
}

/* Ask the kernel per verify_mode: 0 to go on, or the refusal. */
static int
kernel_check(struct tp_bpf *p, const struct bpf_insn *loaded, char *err, size_t errlen)
{
	char why[BPF_ERR_LEN];
	int rc;

	if (verify_mode == TP_BPF_VERIFY_OFF) {
		snprintf(p->verify_note, sizeof(p->verify_note), "kernel verifier not asked");
		return 0;
	}
	rc = tpb_kernel_verify(p, loaded, why, sizeof(why));
	if (rc == 0) {
		p->kernel_ok = true;
		snprintf(p->verify_note, sizeof(p->verify_note), "%s", why);
		return 0;
	}
	if (rc == -EINVAL || verify_mode == TP_BPF_VERIFY_KERNEL) {
		snprintf(err, errlen, "%s (%s): %s%s", p->path, p->section, why,
			 rc == -EINVAL ? "" : " (kernel verification required)");
		return -EINVAL;
	}
	snprintf(p->verify_note, sizeof(p->verify_note), "not kernel-verified: %s", why);
	return 0;
}

/* A PROG_ARRAY the object fills itself must name programs that passed
 * verification (libbpf would fail the kernel load likewise). */
static int
static_slots_check(const struct tp_bpf *p, char *err, size_t errlen)
{
	for (uint32_t i = 0; i < p->nb_maps; i++) {
		const struct tp_bpf_map *m = &p->maps[i];

		for (uint32_t k = 0; m->type == BPF_MAP_TYPE_PROG_ARRAY &&
		     k < m->max_entries; k++) {
			uint32_t v;

			memcpy(&v, m->values + (size_t)k * m->stride, 4);
			if (v != 0 && !p->progs[v - 1].usable) {
				snprintf(err, errlen, "map '%s' slot %u: program %s: %s",
					 m->name, k, p->progs[v - 1].name,
					 p->progs[v - 1].note);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* Loops tagpipe cannot prove finite run only when the kernel's verifier,
 * which does prove it (Linux >= 5.3), accepted the object, or when the
 * user asked for unverified runs; both under the run-time loop budget. */
static int
loop_check(const struct tp_bpf *p, char *err, size_t errlen)
{
	if (!p->has_loops || p->kernel_ok || verify_mode == TP_BPF_VERIFY_OFF)
		return 0;
	snprintf(err, errlen, "%s (%s): pc %u: a loop (back-edge) tagpipe cannot "
		 "prove finite, and the kernel verifier did not check it (%s); "
		 "--bpf-unverified runs it with a budget of %u backward jumps per "
		 "packet", p->path, p->section, p->loop_pc, p->verify_note,
		 BPF_LOOP_BUDGET);
	return -EINVAL;
}

static int
bpf_open(const char *arg, bool compile, void **priv, char *err, size_t errlen)
{
	char path[256], sel[64];
	struct bpf_insn *loaded = NULL;
	struct tp_bpf *p;
	long nproc = sysconf(_SC_NPROCESSORS_CONF);
	int rc;

	if (arg == NULL || arg[0] == '\0' ||
	    split_spec(arg, path, sizeof(path), sel, sizeof(sel)) < 0) {
		snprintf(err, errlen, "bpf: expected FILE.o[:SECTION], got '%s'",
			 arg ? arg : "");
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		snprintf(err, errlen, "bpf: out of memory");
		return -ENOMEM;
	}
	/* Per-CPU copies: one per lcore index; the EAL may not be up yet. */
	p->ncpu = rte_lcore_count();
	if (nproc > (long)p->ncpu)
		p->ncpu = (uint32_t)nproc;
	if (p->ncpu == 0)
		p->ncpu = 1;
	p->counters = calloc(p->ncpu, sizeof(*p->counters));
	if (p->counters == NULL ||
	    posix_memalign((void **)&p->lruns, RTE_CACHE_LINE_SIZE,
			   p->ncpu * sizeof(*p->lruns)) != 0) {
		p->lruns = NULL;
		bpf_free(p);
		snprintf(err, errlen, "bpf: out of memory");
		return -ENOMEM;
	}
	for (uint32_t c = 0; c < p->ncpu; c++) {
		run_slots_init(p->lruns[c].rs, CHUNK, p, c, p->lruns[c].stack, 0, 0);
		p->lruns[c].port_queue = 0;
	}
	rc = tpb_load_object(p, path, sel[0] ? sel : NULL, err, errlen);
	if (rc == 0) {
		/* for tpb_kernel_verify: the instructions before the rewrite */
		loaded = malloc(p->nb_insns * sizeof(*loaded));
		if (loaded == NULL) {
			snprintf(err, errlen, "bpf: out of memory");
			rc = -ENOMEM;
		} else {
			memcpy(loaded, p->insns, p->nb_insns * sizeof(*loaded));
		}
	}
	if (rc == 0)
		rc = tpb_verify_and_rewrite(p, err, errlen);
	if (rc == 0)
		rc = static_slots_check(p, err, errlen);
	if (rc == 0)
		rc = kernel_check(p, loaded, err, errlen);
	free(loaded);
	if (rc == 0)
		rc = loop_check(p, err, errlen);
	if (rc < 0) {
		bpf_free(p);
		return rc < 0 ? -EINVAL : rc;
	}
	if (compile) {
		char why[BPF_ERR_LEN];

		if (tpb_compile(p, why, sizeof(why)) < 0) {
			snprintf(p->mode_note, sizeof(p->mode_note),
				 "interpreted: %s", why);
			rte_log(RTE_LOG_WARNING, tp_bpf_logtype, "tagpipe: %s (%s): not %s, "
				"the interpreter runs it: %s\n", p->path, p->section,
				tpb_exec_word(), why);
		}
	} else {
		p->interp_asked = true;
		snprintf(p->mode_note, sizeof(p->mode_note), "interpreted");
	}
	for (uint32_t i = 0; i < p->nb_maps; i++) {
		if (tpb_map_is_opaque(p->maps[i].type))
			continue; /* no value pointer is ever handed out */
		p->regions[p->nb_regions].base = (uintptr_t)p->maps[i].values;
		p->regions[p->nb_regions].len = p->maps[i].values_len;
		p->nb_regions++;
	}
	*priv = p;
	{
		char line[BPF_ERR_LEN * 3];

		exec_line(p, line, sizeof(line));
		rte_log(RTE_LOG_INFO, tp_bpf_logtype, "tagpipe: XDP object %s\n", line);
	}
	return 0;
}

static int
bpf_init(const char *arg, void **priv, char *err, size_t errlen)
{
	int rc = bpf_open(arg, true, priv, err, errlen);

	if (rc == 0)
		tpb_telemetry_add(*priv);
	return rc;
}

static int
bpf_init_interp(const char *arg, void **priv, char *err, size_t errlen)
{
	int rc = bpf_open(arg, false, priv, err, errlen);

	if (rc == 0)
		tpb_telemetry_add(*priv);
	return rc;
}

static void
bpf_fini(void *priv)
{
	tpb_telemetry_del(priv);
	bpf_free(priv);
}

/* Context of packet m into idle slot rs (the program's view); the ids of
 * port and queue are already in the context. */
static __rte_always_inline void
prepare_ctx(struct bpf_run *rs, struct rte_mbuf *m)
{
	uint8_t *data = rte_pktmbuf_mtod(m, uint8_t *);

	rs->m = m;
	rs->ctx.data = (uintptr_t)data;
	rs->ctx.data_end = (uintptr_t)data + m->data_len;
	rs->ctx.data_meta = (uintptr_t)data;
}

/* prepare_ctx, then what only some programs need: a fresh loop budget
 * (acyclic programs cannot spend UINT32_MAX backward jumps and never
 * touch it) and tagpipe's metadata for programs that can see it. */
static inline void
prepare(struct bpf_run *rs, const struct tp_prog_env *env, struct rte_mbuf *m)
{
	const struct tp_bpf *p = rs->prog;
	struct tp_xdp_md md;

	prepare_ctx(rs, m);
	if (p->has_loops)
		rs->loop_left = BPF_LOOP_BUDGET;
	if (p->reads_meta && rte_pktmbuf_headroom(m) >= BPF_TP_META_LEN) {
		struct tp_xdp_meta meta;

		tp_xdp_md_fill(&md, env, m);
		meta = (struct tp_xdp_meta){
			.vlan_tci = md.vlan_tci,
			.vlan_tci_outer = md.vlan_tci_outer,
			.switch_port = md.switch_port,
			.switch_device = md.switch_device,
			.nb_vlan = md.nb_vlan,
		};

		rs->ctx.data_meta -= BPF_TP_META_LEN;
		memcpy((void *)(uintptr_t)rs->ctx.data_meta, &meta, sizeof(meta));
	}
}

/* r0 and the run's fault into the pipeline's verdict and key; rs back to
 * the idle state (run_slots_init). The common run leaves no fault, no
 * reservation, no tail call and no redirect key: one test, then only
 * the verdict and the key are written. */
static inline void
conclude(struct bpf_run *rs, uint64_t r0, uint64_t *cnt, uint8_t *verdict,
	 uint32_t *key)
{
	uint32_t rk = rs->redirect_key;

	if ((rs->fault | rs->rb_open | rs->tail_calls | (rk ^ UINT32_MAX)) != 0) {
		if (rs->rb_open != 0)
			tpb_ringbuf_abandon(rs); /* leaves rb_open 0 */
		if (rs->fault) {
			cnt[rs->why]++;
			rs->fault = 0;
			r0 = TP_ABORTED;
		}
		rs->redirect_key = UINT32_MAX;
		rs->tail_calls = 0;
	}
	/* Above TP_REDIRECT: the pipeline counts it as bad_verdict. */
	*verdict = r0 > TP_REDIRECT ? UINT8_MAX : (uint8_t)r0;
	*key = rk;
}

static void frames_only(const struct tp_bpf *p, const struct tp_prog_env *env,
			struct bpf_run *rs, struct rte_mbuf **pkts, uint16_t n,
			uint8_t *verdict, uint32_t *key, uint64_t *cnt);

/* The burst on idle slots rs[0..CHUNK) (fewer when n is smaller). */
static inline void
run_on_slots(const struct tp_bpf *p, const struct tp_prog_env *env, struct bpf_run *rs,
	     struct rte_mbuf **pkts, uint16_t n, uint8_t *verdict, uint32_t *key,
	     uint64_t *cnt)
{
	uint64_t r0[CHUNK];

	for (uint16_t at = 0; at < n; at += CHUNK) {
		uint16_t k = RTE_MIN((uint16_t)(n - at), (uint16_t)CHUNK), segs = 0;

		/* nb_segs shares the cache line prepare reads anyway */
		if (p->has_loops || p->reads_meta)
			for (uint16_t i = 0; i < k; i++) {
				prepare(&rs[i], env, pkts[at + i]);
				segs |= (uint16_t)(pkts[at + i]->nb_segs - 1);
			}
		else
			for (uint16_t i = 0; i < k; i++) {
				prepare_ctx(&rs[i], pkts[at + i]);
				segs |= (uint16_t)(pkts[at + i]->nb_segs - 1);
			}
		if (unlikely(segs != 0) && !p->frags) {
			frames_only(p, env, rs, pkts + at, k, verdict + at, key + at, cnt);
			continue;
		}
		cnt[BPF_CNT_RUNS] += k;
		if (p->compiled != NULL) {
			/* one call per chunk; runs are sequential (one stack) */
			p->compiled(rs, k, r0, &tpb_cg_ops);
		} else {
			for (uint16_t i = 0; i < k; i++)
				r0[i] = tpb_run(&rs[i]);
		}
		for (uint16_t i = 0; i < k; i++)
			conclude(&rs[i], r0[i], cnt, &verdict[at + i], &key[at + i]);
	}
}

/* Frames of several buffers for a program that is not xdp.frags, which
 * the kernel never gives one (drivers refuse such a program where frames
 * may span buffers): each is made one buffer when it fits the first
 * segment's (rte_pktmbuf_linearize), counted; one that does not fit is
 * dropped without a run, counted. The others run in stretches, on the
 * same idle slots (the chunk that found them was prepared, not run). */
static __rte_noinline void
frames_only(const struct tp_bpf *p, const struct tp_prog_env *env, struct bpf_run *rs,
	    struct rte_mbuf **pkts, uint16_t n, uint8_t *verdict, uint32_t *key,
	    uint64_t *cnt)
{
	uint16_t from = 0;

	for (uint16_t i = 0; i <= n; i++) {
		if (i < n && pkts[i]->nb_segs == 1)
			continue;
		if (i < n && rte_pktmbuf_linearize(pkts[i]) == 0) {
			cnt[BPF_CNT_LINEARIZED]++;
			continue;
		}
		if (i > from)
			run_on_slots(p, env, rs, pkts + from, (uint16_t)(i - from),
				     verdict + from, key + from, cnt);
		if (i < n) {
			cnt[BPF_CNT_MULTIBUF_DROP]++;
			verdict[i] = TP_DROP;
			key[i] = UINT32_MAX;
		}
		from = (uint16_t)(i + 1);
	}
}

static void
bpf_burst(const struct tp_prog_env *env, struct rte_mbuf **pkts, uint16_t n,
	  uint8_t *verdict, uint32_t *key)
{
	const struct tp_bpf *p = env->priv;
	int li = rte_lcore_index(-1);

	if (likely(li >= 0 && (uint32_t)li < p->ncpu)) {
		/* this lcore's slots (see struct bpf_lcore_runs) */
		struct bpf_lcore_runs *lr = &p->lruns[li];
		uint32_t pq = (uint32_t)env->port << 16 | env->queue;

		if (unlikely(lr->port_queue != pq)) {
			for (unsigned int i = 0; i < CHUNK; i++) {
				lr->rs[i].ctx.ingress_ifindex = (uint32_t)env->port + 1;
				lr->rs[i].ctx.rx_queue_index = env->queue;
			}
			lr->port_queue = pq;
		}
		run_on_slots(p, env, lr->rs, pkts, n, verdict, key, p->counters[li]);
	} else {
		uint8_t stack[BPF_MAX_FRAMES * BPF_STACK_SIZE] __rte_aligned(16);
		uint32_t cpu = li < 0 ? 0 : (uint32_t)li % p->ncpu;
		struct bpf_run rs[CHUNK];

		run_slots_init(rs, RTE_MIN(n, (uint16_t)CHUNK), p, cpu, stack, env->port,
			       env->queue);
		run_on_slots(p, env, rs, pkts, n, verdict, key, p->counters[cpu]);
	}
}

static bool bpf_frames_only(const void *priv);
static unsigned int bpf_redirect_targets(const void *priv, uint32_t key,
					 uint16_t ingress_port, uint32_t *pos,
					 uint32_t *keys, unsigned int max);
static void bpf_telemetry_fields(const void *priv, struct rte_tel_data *d);

const struct tp_prog_ops tp_prog_bpf = {
	.name = "bpf",
	.usage = "bpf:FILE.o[:SECTION]  an XDP object file (also FILE.o[:SECTION])",
	.init = bpf_init,
	.fini = bpf_fini,
	.burst = bpf_burst,
	.file_suffix = ".o",
	.frames_only = bpf_frames_only,
	.redirect_targets = bpf_redirect_targets,
	.telemetry = bpf_telemetry_fields,
};

const struct tp_prog_ops tp_prog_bpf_interp = {
	.name = "bpf-interp",
	.usage = "bpf-interp:FILE.o[:SECTION]  the same, always interpreted",
	.init = bpf_init_interp,
	.fini = bpf_fini,
	.burst = bpf_burst,
	.frames_only = bpf_frames_only,
	.redirect_targets = bpf_redirect_targets,
	.telemetry = bpf_telemetry_fields,
};

/* The two kinds join lib/prog's registry when this library is loaded
 * (linked, or linked whole when static). */
RTE_INIT(bpf_register_kinds)
{
	if (tp_prog_register(&tp_prog_bpf) < 0 || tp_prog_register(&tp_prog_bpf_interp) < 0)
		RTE_LOG(ERR, USER1, "tagpipe: cannot register the bpf program kinds\n");
}

/* ---- control plane --------------------------------------------------- */

static struct tp_bpf *
bpf_of(const struct tp_prog *p)
{
	return p != NULL && (tp_prog_ops_of(p) == &tp_prog_bpf ||
			     tp_prog_ops_of(p) == &tp_prog_bpf_interp) ?
	       tp_prog_priv(p) : NULL;
}

/* ops->redirect_targets (tp_prog.h, tp_prog_redirect_targets): the
 * broadcast DEVMAP's set entries (ifindex N: key N - 1) in map order,
 * without the ingress port's under BPF_F_EXCLUDE_INGRESS
 * (net/core/filter.c, kernel/bpf/devmap.c dev_map_enqueue_multi). */
static unsigned int
bpf_redirect_targets(const void *priv, uint32_t key, uint16_t ingress_port,
		     uint32_t *pos, uint32_t *keys, unsigned int max)
{
	const struct tp_bpf *b = priv;
	const struct tp_bpf_map *m;
	uint32_t idx = key & BPF_RKEY_MAP_MASK, nslots;
	unsigned int n = 0;

	if (b == NULL || pos == NULL || !(key & TP_REDIRECT_KEY_MULTI) || idx >= b->nb_maps)
		return 0;
	m = &b->maps[idx];
	if (m->type != BPF_MAP_TYPE_DEVMAP && m->type != BPF_MAP_TYPE_DEVMAP_HASH)
		return 0;
	nslots = m->state != NULL ? m->slots : m->max_entries;
	for (; *pos < nslots && n < max; (*pos)++) {
		uint32_t ifindex;

		if (m->state != NULL &&
		    __atomic_load_n(&m->state[*pos], __ATOMIC_ACQUIRE) != BPF_SLOT_USED)
			continue;
		memcpy(&ifindex, m->values + (size_t)*pos * m->ncpu * m->stride, 4);
		if (ifindex == 0 ||
		    ((key & BPF_RKEY_EXCLUDE) && ifindex == (uint32_t)ingress_port + 1))
			continue;
		keys[n++] = ifindex - 1;
	}
	return n;
}

/* ops->frames_only: a program outside xdp.frags takes one-buffer frames
 * only (tp_prog.h). */
static bool
bpf_frames_only(const void *priv)
{
	const struct tp_bpf *b = priv;

	return !b->frags;
}

/* ops->telemetry: how the object runs, in /tagpipe/verdict. */
static void
bpf_telemetry_fields(const void *priv, struct rte_tel_data *d)
{
	struct tp_bpf_exec_info xi;

	exec_info(priv, &xi);
	rte_tel_data_add_dict_string(d, "path", xi.path);
	rte_tel_data_add_dict_string(d, "section", xi.section);
	rte_tel_data_add_dict_string(d, "function", xi.function);
	rte_tel_data_add_dict_u64(d, "frags", xi.frags);
	rte_tel_data_add_dict_string(d, "verified_by", xi.verified_by);
	rte_tel_data_add_dict_string(d, "execution", xi.execution);
	rte_tel_data_add_dict_string(d, "checks", xi.checks);
	rte_tel_data_add_dict_string(d, "reason", xi.reason);
}

static struct tp_bpf_map *
map_at(const struct tp_prog *p, int index)
{
	struct tp_bpf *b = bpf_of(p);

	if (b == NULL || index < 0 || (uint32_t)index >= b->nb_maps)
		return NULL;
	return &b->maps[index];
}

int
tp_prog_bpf_route_add(struct tp_prog *p, const char *spec, char *err, size_t errlen)
{
	struct tp_bpf *b = bpf_of(p);

	if (b == NULL || spec == NULL) {
		snprintf(err, errlen, "no XDP object (--verdict FILE.o) to add a route to");
		return -EINVAL;
	}
	return tpb_fib_add(b, spec, err, errlen);
}

int
tp_prog_bpf_map_count(const struct tp_prog *p)
{
	struct tp_bpf *b = bpf_of(p);

	return b ? (int)b->nb_maps : -EINVAL;
}

int
tp_prog_bpf_map_info(const struct tp_prog *p, int index,
		     struct tp_bpf_map_info *info)
{
	struct tp_bpf_map *m = map_at(p, index);

	if (m == NULL || info == NULL)
		return -EINVAL;
	snprintf(info->name, sizeof(info->name), "%s", m->name);
	info->type = m->type;
	info->key_size = m->key_size;
	info->value_size = m->value_size;
	info->max_entries = m->max_entries;
	info->ncpu = m->ncpu;
	info->value_stride = m->ncpu > 1 ? m->stride : m->value_size;
	return 0;
}

int
tp_prog_bpf_map_find(const struct tp_prog *p, const char *name)
{
	struct tp_bpf *b = bpf_of(p);

	if (b == NULL || name == NULL)
		return -EINVAL;
	for (uint32_t i = 0; i < b->nb_maps; i++)
		if (strcmp(b->maps[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

int
tp_prog_bpf_map_lookup(const struct tp_prog *p, int index, const void *key,
		       void *value)
{
	struct tp_bpf_map *m = map_at(p, index);
	uint8_t *out = value;

	if (m == NULL || key == NULL || value == NULL)
		return -EINVAL;
	if (m->type == BPF_MAP_TYPE_RINGBUF)
		return -EOPNOTSUPP;
	if (m->type == BPF_MAP_TYPE_PROG_ARRAY || tpb_map_is_of_maps(m->type)) {
		const uint8_t *v = tpb_map_lookup(m, key, 0);
		uint32_t n;

		if (v == NULL)
			return -ENOENT;
		memcpy(&n, v, 4);
		if (n == 0)
			return -ENOENT;
		n--; /* stored as number + 1 */
		memcpy(value, &n, 4);
		return 0;
	}
	rte_spinlock_lock(&m->lock);
	for (uint32_t c = 0; c < m->ncpu; c++) {
		const uint8_t *v = tpb_map_lookup(m, key, c);

		if (v == NULL) {
			rte_spinlock_unlock(&m->lock);
			return -ENOENT;
		}
		memcpy(out + (size_t)c * m->stride, v, m->value_size);
	}
	rte_spinlock_unlock(&m->lock);
	return 0;
}

int
tp_prog_bpf_map_update(const struct tp_prog *p, int index, const void *key,
		       const void *value, uint64_t flags)
{
	struct tp_bpf_map *m = map_at(p, index);
	struct tp_bpf *b = bpf_of(p);

	if (m == NULL || key == NULL || value == NULL)
		return -EINVAL;
	if (m->type == BPF_MAP_TYPE_PROG_ARRAY) {
		uint32_t n;

		memcpy(&n, value, 4);
		if (n >= b->nb_progs || !b->progs[n].usable)
			return -EINVAL;
		n++;
		return tpb_map_update(m, key, &n, flags, 0, true);
	}
	if (tpb_map_is_of_maps(m->type)) {
		char why[BPF_ERR_LEN];
		uint32_t n;

		memcpy(&n, value, 4);
		if (n >= b->nb_maps || tpb_map_inner_ok(m, &b->maps[n], why, sizeof(why)) < 0)
			return -EINVAL;
		n++;
		return tpb_map_update(m, key, &n, flags, 0, true);
	}
	return tpb_map_update(m, key, value, flags, 0, true);
}

/* "0a00ff" -> bytes; exactly want bytes, else -1. */
static int
hex_bytes(const char *s, size_t len, uint8_t *out, size_t want)
{
	if (len != 2 * want)
		return -1;
	for (size_t i = 0; i < want; i++) {
		char b[3] = { s[2 * i], s[2 * i + 1], 0 };
		char *end;

		if (!isxdigit((unsigned char)b[0]) || !isxdigit((unsigned char)b[1]))
			return -1;
		out[i] = (uint8_t)strtoul(b, &end, 16);
	}
	return 0;
}

/* "NAME:KEY..." of spec up to key_end: the map's index in *idx, its info
 * and the key bytes. 0, or -EINVAL with err naming the bad part. */
/* Exactly size hex bytes in memory order, else a value of BTF type id
 * (bpf_btf.c): 0 or -1. */
static int
text_bytes(const struct tp_prog *p, uint32_t id, const char *s, size_t len, uint8_t *out,
	   uint32_t size)
{
	return hex_bytes(s, len, out, size) == 0 ||
	       tpb_btf_parse(bpf_of(p)->btf, id, s, len, out, size) == 0 ? 0 : -1;
}

/* What an error adds when a value of the map's type would do too. */
static const char *
typed_note(const struct tp_prog *p, uint32_t id)
{
	return tpb_btf_typed(bpf_of(p)->btf, id) ? " nor a value of its BTF type" : "";
}

static int
name_and_key(const struct tp_prog *p, const char *spec, const char *colon,
	     const char *key_end, int *idx, struct tp_bpf_map_info *info, uint8_t *key,
	     char *err, size_t errlen)
{
	char name[64];

	if ((size_t)(colon - spec) >= sizeof(name)) {
		snprintf(err, errlen, "'%s': map name too long", spec);
		return -EINVAL;
	}
	memcpy(name, spec, (size_t)(colon - spec));
	name[colon - spec] = '\0';
	*idx = tp_prog_bpf_map_find(p, name);
	if (*idx < 0) {
		snprintf(err, errlen, "'%s': no map '%s'", spec, name);
		return -EINVAL;
	}
	tp_prog_bpf_map_info(p, *idx, info);
	if (text_bytes(p, map_at(p, *idx)->btf_key, colon + 1, (size_t)(key_end - colon - 1),
		       key, info->key_size) < 0) {
		snprintf(err, errlen, "'%s': key '%.*s' is not %u hex bytes%s", spec,
			 (int)(key_end - colon - 1), colon + 1, info->key_size,
			 typed_note(p, map_at(p, *idx)->btf_key));
		return -EINVAL;
	}
	return 0;
}

int
tp_prog_bpf_map_delete_text(const struct tp_prog *p, const char *spec, char *err,
			    size_t errlen)
{
	struct tp_bpf_map_info info;
	const char *colon;
	uint8_t key[512];
	int idx, rc;

	if (bpf_of(p) == NULL) {
		snprintf(err, errlen, "the verdict program is not an XDP object");
		return -EINVAL;
	}
	colon = spec ? strchr(spec, ':') : NULL;
	if (colon == NULL || strchr(colon, '=') != NULL) {
		snprintf(err, errlen, "'%s': expected NAME:KEY", spec ? spec : "");
		return -EINVAL;
	}
	rc = name_and_key(p, spec, colon, colon + strlen(colon), &idx, &info, key, err, errlen);
	if (rc < 0)
		return rc;
	rc = tp_prog_bpf_map_delete(p, idx, key);
	if (rc < 0)
		snprintf(err, errlen, "'%s': %s", spec, rc == -ENOENT ? "no such element" :
			 rc == -EINVAL ? "arrays have no element to delete" : strerror(-rc));
	return rc;
}

int
tp_prog_bpf_map_update_text(const struct tp_prog *p, const char *spec,
			    char *err, size_t errlen)
{
	const char *colon, *eq;
	struct tp_bpf_map_info info;
	uint8_t key[512], *val;
	int idx, rc;

	if (bpf_of(p) == NULL) {
		snprintf(err, errlen, "the verdict program is not an XDP object");
		return -EINVAL;
	}
	colon = spec ? strchr(spec, ':') : NULL;
	eq = colon ? strchr(colon, '=') : NULL;
	if (colon == NULL || eq == NULL) {
		snprintf(err, errlen, "'%s': expected NAME:KEY=VALUE", spec ? spec : "");
		return -EINVAL;
	}
	rc = name_and_key(p, spec, colon, eq, &idx, &info, key, err, errlen);
	if (rc < 0)
		return rc;
	val = calloc(info.ncpu, info.value_stride);
	if (val == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (info.type == BPF_MAP_TYPE_PROG_ARRAY) {
		int n = tp_prog_bpf_prog_find(p, eq + 1);

		if (n < 0) {
			snprintf(err, errlen, "'%s': no program '%s' in the object", spec, eq + 1);
			free(val);
			return -EINVAL;
		}
		memcpy(val, &n, 4);
	} else if (info.type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		   info.type == BPF_MAP_TYPE_HASH_OF_MAPS) {
		int n = tp_prog_bpf_map_find(p, eq + 1);
		char why[BPF_ERR_LEN];

		if (n < 0 || tpb_map_inner_ok(map_at(p, idx), map_at(p, n), why,
					      sizeof(why)) < 0) {
			snprintf(err, errlen, "'%s': %s", spec, n < 0 ? "no such inner map" : why);
			free(val);
			return -EINVAL;
		}
		memcpy(val, &n, 4);
	} else if (text_bytes(p, map_at(p, idx)->btf_value, eq + 1, strlen(eq + 1), val,
			      info.value_size) < 0) {
		snprintf(err, errlen, "'%s': value '%s' is not %u hex bytes%s", spec, eq + 1,
			 info.value_size, typed_note(p, map_at(p, idx)->btf_value));
		free(val);
		return -EINVAL;
	}
	for (uint32_t c = 1; c < info.ncpu; c++)
		memcpy(val + (size_t)c * info.value_stride, val, info.value_size);
	rc = tp_prog_bpf_map_update(p, idx, key, val, 0);
	free(val);
	if (rc < 0)
		snprintf(err, errlen, "'%s': %s", spec, rc == -E2BIG ? "map full or key out "
			 "of range" : rc == -EINVAL ? "value refused (not a usable program?)" :
			 strerror(-rc));
	return rc;
}

static void
hex_out(FILE *f, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", b[i]);
}

struct rb_dump {
	FILE *f;
	int lines;
};

static int
rb_dump_one(void *ctx, const void *data, size_t len)
{
	struct rb_dump *d = ctx;

	hex_out(d->f, data, len);
	fputc('\n', d->f);
	d->lines++;
	return 0;
}

/* RINGBUF: its committed records, consumed (the map has no elements to
 * list; this is what a dump can show of it). */
static int
ringbuf_dump(struct bpf_ringbuf *rb, FILE *f)
{
	struct rb_dump d = { .f = f };
	int rc = tpb_ringbuf_consume(rb, rb_dump_one, &d);

	return rc < 0 ? rc : d.lines;
}

int
tp_prog_bpf_ringbuf_consume(const struct tp_prog *p, int index,
			    tp_bpf_ringbuf_fn fn, void *ctx)
{
	struct tp_bpf_map *m = map_at(p, index);

	if (m == NULL || m->type != BPF_MAP_TYPE_RINGBUF || fn == NULL)
		return -EINVAL;
	return tpb_ringbuf_consume(m->rb, fn, ctx);
}

int
tp_prog_bpf_ringbuf_fd(const struct tp_prog *p, int index)
{
	struct tp_bpf_map *m = map_at(p, index);

	if (m == NULL || m->type != BPF_MAP_TYPE_RINGBUF)
		return -EINVAL;
	return tpb_ringbuf_fd(m->rb);
}

int
tp_prog_bpf_ringbuf_poll(const struct tp_prog *p, int index, int timeout_ms,
			 tp_bpf_ringbuf_fn fn, void *ctx)
{
	struct pollfd pfd = { .events = POLLIN };
	int rc;

	if (fn == NULL)
		return -EINVAL;
	pfd.fd = tp_prog_bpf_ringbuf_fd(p, index);
	if (pfd.fd < 0)
		return pfd.fd;
	do {
		rc = poll(&pfd, 1, timeout_ms);
	} while (rc < 0 && errno == EINTR);
	if (rc < 0)
		return -errno;
	if (rc == 0)
		return 0;
	return tp_prog_bpf_ringbuf_consume(p, index, fn, ctx);
}

/* key or value bytes as BTF type id when typed and the type prints, else
 * as hex */
static void
bytes_out(const struct tp_bpf *b, bool typed, uint32_t id, const uint8_t *d, uint32_t n,
	  FILE *f)
{
	if (!typed || !tpb_btf_typed(b->btf, id) || tpb_btf_print(b->btf, id, d, n, f) < 0)
		hex_out(f, d, n);
}

/* The elements of map index, one line each: KEY=VALUE in hex, or with
 * typed KEY = VALUE in the BTF types where the object has them. */
static int
dump_lines(const struct tp_bpf *b, int index, FILE *f, bool typed)
{
	struct tp_bpf_map *m;
	uint32_t nkeys;
	int lines = 0;

	if (b == NULL || index < 0 || (uint32_t)index >= b->nb_maps || f == NULL)
		return -EINVAL;
	m = (struct tp_bpf_map *)&b->maps[index];
	if (m->type == BPF_MAP_TYPE_RINGBUF)
		return ringbuf_dump(m->rb, f);
	nkeys = m->state != NULL ? m->slots : m->max_entries;
	rte_spinlock_lock(&m->lock);
	for (uint32_t s = 0; s < nkeys; s++) {
		const uint8_t *key = m->state != NULL ? m->keys + (size_t)s * m->key_size :
				     (const uint8_t *)&s;
		const uint8_t *v = m->values + (size_t)s * m->ncpu * m->stride;
		bool any = false;

		if (m->state != NULL && m->state[s] != BPF_SLOT_USED)
			continue;
		for (size_t i = 0; m->state == NULL && i < (size_t)m->ncpu * m->stride; i++)
			any |= v[i] != 0;
		if (m->state == NULL && !any)
			continue;
		bytes_out(b, typed, m->btf_key, key, m->key_size, f);
		fputs(typed ? " = " : "=", f);
		if (m->type == BPF_MAP_TYPE_PROG_ARRAY) {
			uint32_t n;

			memcpy(&n, v, 4);
			fputs(n >= 1 && n <= b->nb_progs ? b->progs[n - 1].name : "?", f);
		} else if (tpb_map_is_of_maps(m->type)) {
			uint32_t n;

			memcpy(&n, v, 4);
			fputs(n >= 1 && n <= b->nb_maps ? b->maps[n - 1].name : "?", f);
		} else {
			for (uint32_t c = 0; c < m->ncpu; c++) {
				if (c)
					fputs(typed ? ", " : ",", f);
				bytes_out(b, typed, m->btf_value, v + (size_t)c * m->stride,
					  m->value_size, f);
			}
		}
		fputc('\n', f);
		lines++;
	}
	rte_spinlock_unlock(&m->lock);
	return lines;
}

int
tp_prog_bpf_map_dump(const struct tp_prog *p, int index, FILE *f)
{
	return dump_lines(bpf_of(p), index, f, false);
}

int
tpb_obj_map_dump(const struct tp_bpf *b, int index, FILE *f)
{
	return dump_lines(b, index, f, false);
}

int
tp_prog_bpf_map_dump_btf(const struct tp_prog *p, int index, FILE *f)
{
	return dump_lines(bpf_of(p), index, f, true);
}

static void
ring_get(const struct bpf_perf_ring *r, uint64_t at, void *dst, size_t n)
{
	size_t o = (size_t)(at % BPF_PERF_RING_SIZE), first = RTE_MIN(n, BPF_PERF_RING_SIZE - o);

	memcpy(dst, r->data + o, first);
	memcpy((uint8_t *)dst + first, r->data, n - first);
}

int
tp_prog_bpf_perf_read(const struct tp_prog *p, int index, uint32_t cpu,
		      void *buf, size_t len, uint64_t *lost)
{
	struct tp_bpf_map *m = map_at(p, index);
	struct bpf_perf_ring *r;
	uint64_t head;
	uint32_t hdr[2];

	if (m == NULL || m->type != BPF_MAP_TYPE_PERF_EVENT_ARRAY || cpu >= m->nrings ||
	    (buf == NULL && len > 0))
		return -EINVAL;
	r = &m->rings[cpu];
	if (lost != NULL)
		*lost = __atomic_load_n(&r->lost, __ATOMIC_RELAXED);
	head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
	if (head == r->tail)
		return -EAGAIN;
	ring_get(r, r->tail, hdr, 8);
	if (hdr[0] > len)
		return -ENOBUFS;
	ring_get(r, r->tail + 8, buf, hdr[0]);
	__atomic_store_n(&r->tail, r->tail + 8 + ((hdr[0] + 7u) & ~7u), __ATOMIC_RELEASE);
	return (int)hdr[0];
}

int
tp_prog_bpf_prog_count(const struct tp_prog *p)
{
	struct tp_bpf *b = bpf_of(p);

	return b ? (int)b->nb_progs : -EINVAL;
}

int
tp_prog_bpf_prog_find(const struct tp_prog *p, const char *name)
{
	struct tp_bpf *b = bpf_of(p);

	if (b == NULL || name == NULL)
		return -EINVAL;
	for (uint32_t i = 0; i < b->nb_progs; i++)
		if (strcmp(b->progs[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

int
tp_prog_bpf_map_delete(const struct tp_prog *p, int index, const void *key)
{
	struct tp_bpf_map *m = map_at(p, index);

	if (m == NULL || key == NULL)
		return -EINVAL;
	return tpb_map_delete(m, key);
}

int
tp_prog_bpf_stats(const struct tp_prog *p, struct tp_bpf_stats *st)
{
	struct tp_bpf *b = bpf_of(p);

	if (b == NULL || st == NULL)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	for (uint32_t c = 0; c < b->ncpu; c++) {
		st->runs += b->counters[c][BPF_CNT_RUNS];
		st->aborted_oob += b->counters[c][BPF_CNT_OOB];
		st->aborted_helper += b->counters[c][BPF_CNT_BAD_HELPER_ARG];
		st->aborted_loop += b->counters[c][BPF_CNT_INSN_LIMIT];
		st->linearized += b->counters[c][BPF_CNT_LINEARIZED];
		st->multibuf_dropped += b->counters[c][BPF_CNT_MULTIBUF_DROP];
	}
	return 0;
}

int
tp_prog_bpf_describe(const struct tp_prog *p, char *buf, size_t len)
{
	struct tp_bpf *b = bpf_of(p);

	if (b == NULL)
		return -EINVAL;
	return snprintf(buf, len, "%s (section %s, function %s, %u insns, %u maps, %s, %s)",
			b->path, b->section, b->func, b->nb_insns, b->nb_maps,
			b->compiled ? tpb_exec_word() : b->mode_note, b->verify_note);
}

int
tp_prog_bpf_exec_info(const struct tp_prog *p, struct tp_bpf_exec_info *info)
{
	const struct tp_bpf *b = bpf_of(p);

	if (b == NULL || info == NULL)
		return -EINVAL;
	exec_info(b, info);
	return 0;
}

int
tp_prog_bpf_exec_line(const struct tp_prog *p, char *buf, size_t len)
{
	const struct tp_bpf *b = bpf_of(p);

	if (b == NULL)
		return -EINVAL;
	return exec_line(b, buf, len);
}
