/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay --workers N: the share-nothing design measured. The input
 * is split as RSS would spread it over N RX queues (share.c); each worker
 * lcore gets its share and its own pipeline instance (same configuration:
 * taggers, GRO, verdict), and replays its share --loops times exactly as
 * the single-lcore replay does (replay_run_tagpipe), timing its own
 * pipeline cycles.
 *
 * The main lcore is worker 0; workers 1..N-1 run on the EAL's next worker
 * lcores. All wait at a barrier (an atomic start flag the main lcore sets
 * once every worker spins on it), so the wall clock runs from one common
 * start to the last worker's end.
 *
 * What the workers share, read-only: the input frames' bytes, the program
 * and its maps, the options. What they share and write: the mbuf pool,
 * behind a per-lcore cache each (rte_mempool: an lcore takes from and
 * returns to its own cache and touches the pool's ring only for a cache's
 * worth at a time). Nothing else: pipeline, GRO table, counters, merge
 * histogram and frame numbering are each worker's own.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_pause.h>

#include "replay.h"

struct worker {
	const struct replay_opts *o;
	struct rte_mempool *mp;
	struct replay_input share;
	struct replay_tp *tp;
	struct replay_out out;          /* no files: the merge histogram only */
	struct replay_worker_result *res;
	uint64_t end_tsc;
	int rc;
};

/* The barrier: workers count themselves in, then spin on start. */
static unsigned int nb_ready;
static bool start;

int
replay_workers_lcores(unsigned int n, char *buf, size_t len)
{
	cpu_set_t set;
	unsigned int found = 0;
	size_t off = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0) {
		replay_err("--workers %u: cannot read the CPUs this process may run on", n);
		return -EINVAL;
	}
	for (unsigned int cpu = 0; cpu < CPU_SETSIZE && found < n; cpu++) {
		int w;

		if (!CPU_ISSET(cpu, &set) || cpu >= RTE_MAX_LCORE)
			continue;
		w = snprintf(buf + off, len - off, "%s%u", found ? "," : "", cpu);
		if (w < 0 || (size_t)w >= len - off)
			break;
		off += (size_t)w;
		found++;
	}
	if (found < n) {
		replay_err("--workers %u: this process may run on %d CPUs (one lcore per "
			   "worker)", n, CPU_COUNT(&set));
		return -EINVAL;
	}
	return 0;
}

int
replay_workers_check(const struct replay_opts *o)
{
	unsigned int have = rte_lcore_count();

	if (o->workers <= have)
		return 0;
	replay_err("--workers %u: the EAL has %u lcore%s (one per worker, the main lcore "
		   "included: give e.g. -l 0-%u before --)", o->workers, have,
		   have == 1 ? "" : "s", o->workers - 1);
	return -EINVAL;
}

/* Make the pool's pages present before the clock starts. Without
 * hugepages the EAL's memory is anonymous memory the kernel maps on first
 * write, and the first worker to write a page (copying a frame into an
 * mbuf) would take that page fault inside the wall clock: thousands of
 * them for a pool of tens of MiB, costing more than the pipeline itself.
 * Each page gets one byte written back unchanged, while no mbuf is in use
 * (nothing else reads or writes the pool yet). */
static void
touch_chunk(struct rte_mempool *mp, void *arg, struct rte_mempool_memhdr *mh,
	    unsigned int idx)
{
	size_t page = *(const size_t *)arg;
	volatile uint8_t *p = mh->addr;

	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	for (size_t off = 0; off < mh->len; off += page)
		p[off] = p[off];
}

static void
pool_pretouch(struct rte_mempool *mp)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t step = page > 0 ? (size_t)page : 4096;

	rte_mempool_mem_iter(mp, touch_chunk, &step);
}

static void
worker_run(struct worker *w)
{
	w->rc = replay_run_tagpipe(w->o, &w->share, w->mp, w->tp, NULL, &w->res->c);
	w->end_tsc = rte_rdtsc_precise();
}

static int
worker_main(void *arg)
{
	struct worker *w = arg;

	__atomic_fetch_add(&nb_ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&start, __ATOMIC_ACQUIRE))
		rte_pause();
	worker_run(w);
	return 0;
}

/* c += w, counter by counter (names are the same in every worker). */
static void
counters_add(struct replay_counters *c, const struct replay_counters *w)
{
	c->rx += w->rx;
	c->rx_bytes += w->rx_bytes;
	for (int v = 0; v < REPLAY_NB_VERDICTS; v++) {
		c->verdict[v] += w->verdict[v];
		c->verdict_pkts[v] += w->verdict_pkts[v];
	}
	c->gro_in += w->gro_in;
	c->gro_out += w->gro_out;
	c->cycles += w->cycles;
	c->held_in_gro += w->held_in_gro;
	c->copies += w->copies;
	c->nb_drop_reasons = w->nb_drop_reasons;
	for (unsigned int r = 0; r < w->nb_drop_reasons; r++) {
		c->drop_reasons[r].name = w->drop_reasons[r].name;
		c->drop_reasons[r].value += w->drop_reasons[r].value;
	}
	c->nb_stages = w->nb_stages;
	for (unsigned int s = 0; s < w->nb_stages; s++) {
		c->stage_cycles[s].name = w->stage_cycles[s].name;
		c->stage_cycles[s].value += w->stage_cycles[s].value;
	}
	c->tp.in += w->tp.in;
	c->tp.out += w->tp.out;
	for (int b = 0; b < REPLAY_HIST_BUCKETS; b++)
		c->tp.hist[b] += w->tp.hist[b];
}

static void
workers_destroy(struct worker *w, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		replay_tp_destroy(w[i].tp);
		free(w[i].share.frames);   /* the frames' bytes are the input's */
	}
	free(w);
}

int
replay_run_workers(const struct replay_opts *o, const struct replay_input *in,
		   struct rte_mempool *mp, struct replay_counters *c)
{
	unsigned int n = o->workers, lcore, i;
	struct replay_input *shares = calloc(n, sizeof(*shares));
	struct worker *w = calloc(n, sizeof(*w));
	struct replay_workers *res = calloc(1, sizeof(*res));
	uint64_t start_tsc, last = 0;
	int rc = 0;

	if (shares == NULL || w == NULL || res == NULL ||
	    (res->w = calloc(n, sizeof(*res->w))) == NULL) {
		free(shares);
		free(w);
		free(res);
		return -ENOMEM;
	}
	res->n = n;
	c->workers = res;
	rc = replay_split(in, n, shares);
	if (rc < 0) {
		free(shares);
		free(w);
		return rc;
	}
	for (i = 0; i < n; i++)
		w[i].share = shares[i];    /* each worker owns its share's array now */
	free(shares);
	/* Worker 0 on the main lcore, then the EAL's worker lcores in order. */
	lcore = rte_get_main_lcore();
	for (i = 0; i < n; i++) {
		if (i > 0)
			lcore = rte_get_next_lcore(lcore, 1, 1);
		w[i].o = o;
		w[i].mp = mp;
		w[i].res = &res->w[i];
		w[i].res->lcore = lcore;
		w[i].out.hist = w[i].res->c.tp.hist;
		w[i].tp = replay_tp_create(o, mp, &w[i].out,
					   (int)rte_lcore_to_socket_id(lcore), &rc);
		if (w[i].tp == NULL)
			break;
	}
	if (rc < 0) {
		workers_destroy(w, n);
		return rc;
	}
	pool_pretouch(mp);
	__atomic_store_n(&nb_ready, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&start, false, __ATOMIC_RELAXED);
	for (i = 1; i < n; i++) {
		rc = rte_eal_remote_launch(worker_main, &w[i], w[i].res->lcore);
		if (rc < 0) {
			replay_err("--workers: cannot launch worker %u on lcore %u: %s", i,
				   w[i].res->lcore, strerror(-rc));
			/* those launched are let go and finish their share */
			n = i;
			break;
		}
	}
	while (__atomic_load_n(&nb_ready, __ATOMIC_ACQUIRE) < n - 1)
		rte_pause();
	start_tsc = rte_rdtsc_precise();
	__atomic_store_n(&start, true, __ATOMIC_RELEASE);
	if (rc == 0)
		worker_run(&w[0]);
	for (i = 1; i < n; i++)
		rte_eal_wait_lcore(w[i].res->lcore);
	for (i = 0; i < n; i++) {
		struct replay_worker_result *r = w[i].res;

		if (rc == 0 && w[i].rc < 0)
			rc = w[i].rc;
		replay_out_hist_flush(&w[i].out);
		replay_tp_counters(w[i].tp, &r->c);
		r->wall_cycles = w[i].end_tsc > start_tsc ? w[i].end_tsc - start_tsc : 0;
		last = RTE_MAX(last, r->wall_cycles);
		counters_add(c, &r->c);
	}
	res->wall_cycles = last;
	workers_destroy(w, res->n);
	return rc;
}

void
replay_workers_free(struct replay_counters *c)
{
	struct replay_workers *res = c->workers;

	if (res == NULL)
		return;
	for (unsigned int i = 0; i < res->n; i++) {
		replay_series_free(&res->w[i].c.tp.loop_cpp);
		replay_series_free(&res->w[i].c.tp.loop_gro);
	}
	free(res->w);
	free(res);
	c->workers = NULL;
}
