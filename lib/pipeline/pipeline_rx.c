/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The datapath: stages on whole bursts, then actions grouped by verdict
 * (contract: tp_pipeline.h).
 *
 *   rx_burst:  DSA strip -> VLAN strip -> GRO -> program -> actions
 *   hook before GRO: DSA -> VLAN -> program -> actions (non-PASS) ;
 *                    PASS -> GRO -> actions (all PASS)
 *
 * Each stage is one call per burst (the tagger's and the program's through
 * one pointer each), in place in the caller's array; only GRO writes a new
 * array (its output can be up to twice its input). The actions walk the
 * verdict array once to count and weigh, partition the burst only when
 * the verdicts differ, then do one free / one callback / one transmit per
 * group. A packet's weight (frames it stands for) is computed once: at
 * arrival for the frames, in the actions for what GRO made of them.
 * Stage cycles come from one rte_rdtsc() per stage boundary, only when
 * conf.stage_cycles asks for them.
 */
#include <string.h>

#include <rte_cycles.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#include "map_priv.h"
#include "pipeline_priv.h"

/* Frames whose first line rx_chunk prefetches on entry. */
#define PL_RX_PREFETCH 4

/* The TSC at a stage boundary, read only when stages are timed. */
static inline uint64_t
stage_clock(const struct tp_pipeline *pl)
{
	return pl->time_stages ? rte_rdtsc() : 0;
}

static inline void
stage_add(struct tp_pipeline *pl, enum tp_stage s, uint32_t in, uint32_t out,
	  uint32_t drop, uint64_t *t)
{
	struct tp_stage_stats *ss = &pl->st.stage[s];

	pl_cnt_add(&ss->calls, 1);
	pl_cnt_add(&ss->in, in);
	pl_cnt_add(&ss->out, out);
	pl_cnt_add(&ss->drop, drop);
	if (pl->time_stages) {
		uint64_t now = rte_rdtsc();

		pl_cnt_add(&ss->cycles, now - *t);
		*t = now;
	}
}

static uint16_t
stage_dsa(struct tp_pipeline *pl, struct pl_port *pp, struct rte_mbuf **pkts,
	  uint16_t n)
{
	uint16_t k;

	k = tp_dsa_strip_burst_reasons(pp->tagger, pkts, n, &pp->dsa, pl->drops,
				       pl->why, &pl->dsa_rx);
	if (unlikely(k < n))
		pl_drop_lib(pl, TP_DROP_DSA_BASE, pl->drops, pl->why, n - k);
	return k;
}

static uint16_t
stage_vlan(struct tp_pipeline *pl, struct pl_port *pp, struct rte_mbuf **pkts,
	   uint16_t n)
{
	uint16_t k;

	k = tp_vlan_strip_burst_reasons(&pp->vlan, pkts, n, pl->drops, pl->why,
					&pl->vlan_rx);
	if (unlikely(k < n))
		pl_drop_lib(pl, TP_DROP_VLAN_BASE, pl->drops, pl->why, n - k);
	return k;
}

static inline void
run_prog(struct tp_pipeline *pl, uint16_t port, uint16_t queue,
	 struct rte_mbuf **pkts, uint16_t n)
{
	const struct tp_prog_env env = {
		.priv = pl->prog_priv, .port = port, .queue = queue,
	};

	tp_verdict_obs_t obs;

	if (n == 0)
		return;
	pl->prog_burst(&env, pkts, n, pl->verdict, pl->key);
	obs = __atomic_load_n(&pl->verdict_obs, __ATOMIC_ACQUIRE);
	if (unlikely(obs != NULL))
		obs(pl->verdict_obs_arg, port, queue, pkts, pl->verdict, pl->key, n);
}

/* ---- actions -------------------------------------------------------- */

/* pkts[0..n) with their weights wt[0..n) (read before the enqueue: once
 * on the ring, a worker may free the mbufs). */
static void
to_ring(struct tp_pipeline *pl, struct rte_ring *r, struct rte_mbuf **pkts,
	const uint32_t *wt, uint16_t n)
{
	uint64_t w = 0;
	unsigned int sent = 0, tries = 0;

	for (uint16_t i = 0; i < n; i++)
		w += wt[i];
	while (sent < n) {
		sent += rte_ring_enqueue_burst(r, (void **)(pkts + sent), n - sent, NULL);
		if (sent == n || tries++ >= pl->conf.tx_retries)
			break;
		pl_cnt_add(&pl->st.tx_retries, 1);
	}
	if (sent < n) {
		uint64_t wr = 0;

		for (uint16_t i = (uint16_t)sent; i < n; i++)
			wr += wt[i];
		w -= wr;
		pl_drop_w(pl, TP_DROP_RING_FULL, pkts + sent, (uint16_t)(n - sent), wr);
	}
	pl_cnt_add(&pl->st.redirect, w);
}

/* Sum of wt[0..n). */
static inline uint64_t
wsum(const uint32_t *wt, uint16_t n)
{
	uint64_t w = 0;

	for (uint16_t i = 0; i < n; i++)
		w += wt[i];
	return w;
}

/* REDIRECT: resolve each key once per burst, group by key, act per group. */
static void
redirect_groups(struct tp_pipeline *pl, struct rte_mbuf **pkts,
		const uint32_t *wt, const uint32_t *keys, uint16_t n)
{
	struct tp_redirect_map *rm = pl->rmap;
	uint16_t ng = 0, nmiss = 0, nhit;
	uint32_t stamp;

	if (rm == NULL) {
		pl_drop_w(pl, TP_DROP_NO_TARGET, pkts, n, wsum(wt, n));
		return;
	}
	stamp = ++pl->stamp;
	if (stamp == 0) { /* wrapped: forget every old stamp */
		memset(pl->rd_stamp, 0, rm->n * sizeof(uint32_t));
		stamp = pl->stamp = 1;
	}
	for (uint16_t i = 0; i < n; i++) {
		uint32_t k = keys[i];
		uint16_t g;

		if (k >= rm->n) {
			pl->gidx[i] = UINT16_MAX;
			continue;
		}
		if (pl->rd_stamp[k] != stamp) {
			pl->rd_stamp[k] = stamp;
			pl->rd_group[k] = ng;
			pl->gword[ng] = tp_redirect_map_word(rm, k);
			pl->gcount[ng] = 0;
			ng++;
		}
		g = pl->rd_group[k];
		if (pl->gword[g] == 0) {
			pl->gidx[i] = UINT16_MAX;
			continue;
		}
		pl->gidx[i] = g;
		pl->gcount[g]++;
	}
	/* Lay the groups out one after another in rgrp, misses at the end. */
	nhit = 0;
	for (uint16_t g = 0; g < ng; g++) {
		pl->gof[g] = nhit;
		nhit += pl->gcount[g];
	}
	for (uint16_t i = 0; i < n; i++) {
		uint16_t at = pl->gidx[i] == UINT16_MAX ? nhit + nmiss++ :
			      pl->gof[pl->gidx[i]]++;

		pl->rgrp[at] = pkts[i];
		pl->rwt[at] = wt[i];
	}
	for (uint16_t g = 0, at = 0; g < ng; g++) {
		uint64_t w = pl->gword[g];
		uint16_t c = pl->gcount[g];

		if (c == 0)
			continue;
		if (rd_kind(w) == TP_REDIRECT_RING)
			to_ring(pl, rm->ring[rd_port(w)], pl->rgrp + at, pl->rwt + at, c);
		else
			pl_egress(pl, TP_REDIRECT, rd_port(w), rd_queue(w),
				  (rd_flags(w) & RD_F_SWPORT) ? rd_swport(w) : -1,
				  pl->rgrp + at, c);
		at += c;
	}
	if (nmiss > 0)
		pl_drop_w(pl, TP_DROP_NO_TARGET, pl->rgrp + nhit, nmiss,
			  wsum(pl->rwt + nhit, nmiss));
}

/* Redirect keys asked of the program per call in a broadcast. */
#define PL_MULTI_BATCH 32

/* REDIRECT of pkts[0..n) (weights wt), all with multi-target key `key`
 * (TP_REDIRECT_KEY_MULTI): the program names the targets
 * (tp_prog_redirect_targets); every target but the last gets a copy of
 * each packet (rte_pktmbuf_copy: the egress of one target re-tags its
 * packet in place, so the copies cannot share data), the last one the
 * packets themselves, as the kernel's dev_map_enqueue_multi gives the
 * frame itself to the last device. Copies are counted (copies) and go
 * through redirect_groups like any redirected packet. No target: the
 * packets are dropped as redirect_no_target. */
static void
redirect_multi(struct tp_pipeline *pl, uint16_t port, struct rte_mbuf **pkts,
	       const uint32_t *wt, uint16_t n, uint32_t key)
{
	uint32_t a[PL_MULTI_BATCH], b[PL_MULTI_BATCH], *cur = a, *next = b, pos = 0;
	unsigned int na, nb;

	na = tp_prog_redirect_targets(pl->prog, key, port, &pos, cur, PL_MULTI_BATCH);
	if (na == 0) {
		pl_drop_w(pl, TP_DROP_NO_TARGET, pkts, n, wsum(wt, n));
		return;
	}
	for (;;) {
		nb = tp_prog_redirect_targets(pl->prog, key, port, &pos, next, PL_MULTI_BATCH);
		for (unsigned int t = 0; t < na; t++) {
			bool last = nb == 0 && t == na - 1;
			uint16_t c = 0;
			uint64_t lost = 0;

			for (uint16_t i = 0; i < n; i++) {
				struct rte_mbuf *m = pkts[i];

				if (!last) {
					m = rte_pktmbuf_copy(pkts[i], pl->conf.seg_pool != NULL ?
							     pl->conf.seg_pool : pkts[i]->pool,
							     0, UINT32_MAX);
					pl_cnt_add(&pl->st.copies, wt[i]);
					if (m == NULL) {
						lost += wt[i];
						continue;
					}
				}
				pl->bx[c] = m;
				pl->bxwt[c] = wt[i];
				pl->bxkey[c] = cur[t];
				c++;
			}
			if (lost > 0) {
				/* copies the pool had no mbuf for */
				pl_cnt_add(&pl->st.drop_reason[TP_DROP_NO_MBUF], lost);
				pl_cnt_add(&pl->st.drop, lost);
			}
			if (c > 0)
				redirect_groups(pl, pl->bx, pl->bxwt, pl->bxkey, c);
		}
		if (nb == 0)
			return;
		cur = cur == a ? b : a;
		next = next == a ? b : a;
		na = nb;
	}
}

/* REDIRECT: single targets grouped by key (redirect_groups), then each
 * multi-target key's packets together (redirect_multi). */
static void
redirect_action(struct tp_pipeline *pl, uint16_t port, struct rte_mbuf **pkts,
		const uint32_t *wt, const uint32_t *keys, uint16_t n)
{
	uint32_t any = 0;
	uint16_t nu = 0, nm = 0;

	for (uint16_t i = 0; i < n; i++)
		any |= keys[i];
	if (likely(!(any & TP_REDIRECT_KEY_MULTI))) {
		redirect_groups(pl, pkts, wt, keys, n);
		return;
	}
	for (uint16_t i = 0; i < n; i++) {
		if (keys[i] & TP_REDIRECT_KEY_MULTI) {
			pl->bm[nm] = pkts[i];
			pl->bmwt[nm] = wt[i];
			pl->bmkey[nm++] = keys[i];
		} else {
			pl->bc[nu] = pkts[i];
			pl->bcwt[nu] = wt[i];
			pl->bckey[nu++] = keys[i];
		}
	}
	if (nu > 0)
		redirect_groups(pl, pl->bc, pl->bcwt, pl->bckey, nu);
	/* one key at a time: gather its packets at the front of bc */
	while (nm > 0) {
		uint32_t key = pl->bmkey[0];
		uint16_t k = 0, rest = 0;

		for (uint16_t i = 0; i < nm; i++) {
			if (pl->bmkey[i] == key) {
				pl->bc[k] = pl->bm[i];
				pl->bcwt[k++] = pl->bmwt[i];
			} else {
				pl->bm[rest] = pl->bm[i];
				pl->bmwt[rest] = pl->bmwt[i];
				pl->bmkey[rest++] = pl->bmkey[i];
			}
		}
		redirect_multi(pl, port, pl->bc, pl->bcwt, k, key);
		nm = rest;
	}
}

void
pl_actions(struct tp_pipeline *pl, uint16_t port, uint16_t queue,
	   struct rte_mbuf **pkts, uint16_t n, struct rte_mbuf **pass_out,
	   uint16_t *npass)
{
	uint16_t cnt[TP_NB_VERDICTS] = { 0 }, off[TP_NB_VERDICTS] = { 0 };
	uint64_t w[TP_NB_VERDICTS] = { 0 };
	struct rte_mbuf **grp = pkts;
	const uint32_t *gwt = pl->wt, *gkey = pl->key;

	if (n == 0)
		return;
	for (uint16_t i = 0; i < n; i++) {
		uint8_t v = pl->verdict[i];
		uint32_t wi = pl_weight(pkts[i]);

		if (unlikely(v > TP_REDIRECT)) {
			/* Out-of-range value: ABORTED (docs/ref/xdp-abi.md §1). */
			pl_cnt_add(&pl->st.bad_verdict, wi);
			v = TP_ABORTED;
			pl->verdict[i] = v;
		}
		pl->wt[i] = wi;
		cnt[v]++;
		w[v] += wi;
	}
	for (unsigned int v = 0; v < TP_NB_VERDICTS; v++) {
		pl_cnt_add(&pl->st.verdict[v], w[v]);
		pl_cnt_add(&pl->st.verdict_pkts[v], cnt[v]);
	}
	/* One verdict for the whole burst (the usual case): act on pkts as
	 * it is; otherwise partition it into groups by verdict. */
	if (cnt[pl->verdict[0]] != n) {
		uint16_t at[TP_NB_VERDICTS], o = 0;

		for (unsigned int v = 0; v < TP_NB_VERDICTS; v++) {
			off[v] = at[v] = o;
			o += cnt[v];
		}
		for (uint16_t i = 0; i < n; i++) {
			uint16_t j = at[pl->verdict[i]]++;

			pl->grp[j] = pkts[i];
			pl->gwt[j] = pl->wt[i];
			pl->rkey[j] = pl->key[i];
		}
		grp = pl->grp;
		gwt = pl->gwt;
		gkey = pl->rkey;
	}

	if (cnt[TP_ABORTED] > 0) {
		pl_cnt_add(&pl->st.aborted, w[TP_ABORTED]);
		if (pl->conf.drop_cb != NULL)
			pl->conf.drop_cb(pl->conf.drop_arg, TP_ABORTED,
					 grp + off[TP_ABORTED], cnt[TP_ABORTED]);
		rte_pktmbuf_free_bulk(grp + off[TP_ABORTED], cnt[TP_ABORTED]);
	}
	if (cnt[TP_DROP] > 0)
		pl_drop_w(pl, TP_DROP_VERDICT, grp + off[TP_DROP], cnt[TP_DROP], w[TP_DROP]);
	if (cnt[TP_PASS] > 0) {
		if (pl->conf.pass_cb != NULL) {
			pl_pass_to_app(pl, port, queue, grp + off[TP_PASS], cnt[TP_PASS],
				       w[TP_PASS]);
		} else {
			pl_cnt_add(&pl->st.pass, w[TP_PASS]);
			if (pass_out + *npass != grp + off[TP_PASS])
				memmove(pass_out + *npass, grp + off[TP_PASS],
					cnt[TP_PASS] * sizeof(struct rte_mbuf *));
			*npass += cnt[TP_PASS];
		}
	}
	if (cnt[TP_TX] > 0)
		pl_egress(pl, TP_TX, port, pl->conf.tx_queue, -1, grp + off[TP_TX],
			  cnt[TP_TX]);
	if (cnt[TP_REDIRECT] > 0)
		redirect_action(pl, port, grp + off[TP_REDIRECT], gwt + off[TP_REDIRECT],
				gkey + off[TP_REDIRECT], cnt[TP_REDIRECT]);
}

/* ---- the burst -------------------------------------------------------- */

static inline uint64_t burst_weight(struct rte_mbuf *const *pkts, uint16_t n);

/* pl_actions for a burst whose verdicts are all PASS (the built-in "pass"
 * program, no verdict observer): the same counters, no verdict array. */
static void
pass_all(struct tp_pipeline *pl, uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
	 uint16_t n, struct rte_mbuf **pass_out, uint16_t *npass)
{
	uint64_t w;

	if (n == 0)
		return;
	w = burst_weight(pkts, n);
	pl_cnt_add(&pl->st.verdict[TP_PASS], w);
	pl_cnt_add(&pl->st.verdict_pkts[TP_PASS], n);
	if (pl->conf.pass_cb != NULL) {
		pl_pass_to_app(pl, port, queue, pkts, n, w);
		return;
	}
	pl_cnt_add(&pl->st.pass, w);
	if (pass_out + *npass != pkts)
		memmove(pass_out + *npass, pkts, n * sizeof(*pkts));
	*npass += n;
}

/* Split pkts[0..n) after the program: non-PASS go to the actions now, PASS
 * are compacted to the front of pkts; returns their count. */
static uint16_t
act_non_pass(struct tp_pipeline *pl, uint16_t port, uint16_t queue,
	     struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t keep = 0, other = 0;
	uint64_t w = 0;

	for (uint16_t i = 0; i < n; i++) {
		if (pl->verdict[i] == TP_PASS) {
			w += pl_weight(pkts[i]);
			pkts[keep++] = pkts[i];
			continue;
		}
		pl->out[other] = pkts[i];
		pl->verdict[other] = pl->verdict[i];
		pl->key[other] = pl->key[i];
		other++;
	}
	/* PASS frames are counted as a verdict here, as pass after GRO. */
	pl_cnt_add(&pl->st.verdict[TP_PASS], w);
	pl_cnt_add(&pl->st.verdict_pkts[TP_PASS], keep);
	pl_actions(pl, port, queue, pl->out, other, NULL, NULL);
	return keep;
}

/* Hand GRO's output (or the untouched burst) to the program and actions. */
static uint16_t
finish(struct tp_pipeline *pl, uint16_t port, uint16_t queue,
       struct rte_mbuf **pkts, uint16_t n, struct rte_mbuf **pass_out,
       uint64_t *t)
{
	uint64_t freed = pl->st.drop + pl->st.aborted;
	uint16_t npass = 0;

	if (pl->conf.hook == TP_HOOK_AFTER_GRO) {
		/* GRO can give back up to 2 * max_burst packets (aged
		 * aggregates plus this burst's): the program is promised at
		 * most TP_PIPELINE_MAX_BURST per call (tp_prog.h), so the
		 * program and the actions run once per such slice, in order
		 * (once, as before, for an empty burst). */
		uint16_t o = 0;

		do {
			uint16_t len = (uint16_t)RTE_MIN(n - o, TP_PIPELINE_MAX_BURST);

			if (pl->prog_all_pass &&
			    __atomic_load_n(&pl->verdict_obs, __ATOMIC_RELAXED) == NULL) {
				/* what run_prog and pl_actions do when every
				 * verdict is PASS, without writing them */
				stage_add(pl, TP_STAGE_VERDICT, len, len, 0, t);
				pass_all(pl, port, queue, pkts + o, len, pass_out, &npass);
			} else {
				run_prog(pl, port, queue, pkts + o, len);
				stage_add(pl, TP_STAGE_VERDICT, len, len, 0, t);
				pl_actions(pl, port, queue, pkts + o, len, pass_out, &npass);
			}
			freed = pl->st.drop + pl->st.aborted - freed;
			stage_add(pl, TP_STAGE_ACTIONS, len, len, (uint32_t)freed, t);
			freed = pl->st.drop + pl->st.aborted;
			o = (uint16_t)(o + len);
		} while (o < n);
		return npass;
	}
	/* Verdict ran before GRO: what GRO gives back is PASS. */
	uint64_t w = 0;

	for (uint16_t i = 0; i < n; i++)
		w += pl_weight(pkts[i]);
	if (n > 0 && pl->conf.pass_cb != NULL) {
		pl_pass_to_app(pl, port, queue, pkts, n, w);
	} else {
		pl_cnt_add(&pl->st.pass, w);
		if (n > 0 && pass_out != pkts)
			memmove(pass_out, pkts, n * sizeof(*pkts));
	}
	npass = pl->conf.pass_cb != NULL ? 0 : n;
	freed = pl->st.drop + pl->st.aborted - freed;
	stage_add(pl, TP_STAGE_ACTIONS, n, n, (uint32_t)freed, t);
	return npass;
}

/* Frames the mbufs of a burst stand for (tp_stats.h units). */
static inline uint64_t
burst_weight(struct rte_mbuf *const *pkts, uint16_t n)
{
	const uint64_t multi = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_RX_LRO;
	uint64_t w = 0, any = 0;
	uint16_t i;

	/* The usual burst holds only plain frames: OR the flags of all
	 * (no branch per mbuf), weigh each only when one of them is merged. */
	for (i = 0; i + 4 <= n; i += 4)
		any |= pkts[i]->ol_flags | pkts[i + 1]->ol_flags |
		       pkts[i + 2]->ol_flags | pkts[i + 3]->ol_flags;
	for (; i < n; i++)
		any |= pkts[i]->ol_flags;
	if (likely(!(any & multi)))
		return n;
	for (i = 0; i < n; i++)
		w += pl_weight(pkts[i]);
	return w;
}

/* One burst of n <= max_burst frames (pkts has room for 2n). */
static uint16_t
rx_chunk(struct tp_pipeline *pl, uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
	 uint16_t n)
{
	struct pl_port *pp;
	uint16_t j, k, c;
	uint64_t t, w;

	/* The NIC wrote the frames' bytes, so the first read of each misses
	 * the cache: start the first few now, under the bookkeeping below
	 * (a poll loop faster than its NIC gets bursts of one or two, where
	 * nothing else would hide that miss); the DSA strip prefetches the
	 * rest ahead of itself. */
	for (uint16_t i = 0; i < RTE_MIN(n, (uint16_t)PL_RX_PREFETCH); i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	/* Frames, not mbufs: a NIC-merged (RX_LRO) mbuf counts its segments.
	 * This is each mbuf's first touch (its first line); the DSA strip
	 * prefetches the frame bytes and the meta line ahead of itself. */
	w = burst_weight(pkts, n);
	pl_cnt_add(&pl->st.rx, w);
	if (unlikely(port >= TP_PIPELINE_MAX_PORTS || !pl->port[port].enabled)) {
		pl_drop_w(pl, TP_DROP_NO_PORT, pkts, n, w);
		return 0;
	}
	pp = &pl->port[port];
	pp->last_queue = queue;
	pl_cnt_add(&pl->st.port[port].rx, w);
	if (queue < TP_STATS_MAX_QUEUES)
		pl_cnt_add(&pl->st.port[port].rx_queue[queue], w);
	t = stage_clock(pl);

	/* The stages work in place in pkts; PASS packets end in pkts too.
	 * With VLAN strip on, the tagger's fused pass (dsa, edsa) strips
	 * both from the leading frames it takes (j); the two stages run on
	 * the rest. Timed, the fused pass counts as the DSA stage. */
	j = pp->vlan_strip ? tp_dsa_vlan_strip_prefix(pp->tagger, pkts, n, &pp->dsa,
						      &pp->vlan, &pl->dsa_rx,
						      &pl->vlan_rx) : 0;
	k = likely(j == n) ? n : j + stage_dsa(pl, pp, pkts + j, n - j);
	stage_add(pl, TP_STAGE_DSA, n, k, n - k, &t);
	if (pp->vlan_strip) {
		uint16_t k2 = likely(j == k) ? k : j + stage_vlan(pl, pp, pkts + j, k - j);

		stage_add(pl, TP_STAGE_VLAN, k, k2, k - k2, &t);
		k = k2;
	}
	if (pl->conf.hook == TP_HOOK_BEFORE_GRO) {
		run_prog(pl, port, queue, pkts, k);
		stage_add(pl, TP_STAGE_VERDICT, k, k, 0, &t);
		uint64_t freed = pl->st.drop + pl->st.aborted;
		uint16_t k2 = act_non_pass(pl, port, queue, pkts, k);

		freed = pl->st.drop + pl->st.aborted - freed;
		stage_add(pl, TP_STAGE_ACTIONS, k - k2, k - k2, (uint32_t)freed, &t);
		k = k2;
	}
	if (pp->gro == NULL)
		return finish(pl, port, queue, pkts, k, pkts, &t);
	{
		/* Without pass_cb, PASS packets land in the caller's pkts[],
		 * which has room for 2n: GRO (age mode) then completes aged
		 * aggregates only as far as that room goes. Age mode needs
		 * the time; burst mode ignores it. */
		uint16_t room = pl->conf.pass_cb != NULL ? 2 * pl->max_burst : 2 * n;
		uint64_t now = pp->gro_age ? (pl->time_stages ? t : rte_rdtsc()) : 0;
		int r = tp_gro_merge_burst(pp->gro, pkts, k, pl->out, room, now);

		c = r < 0 ? 0 : (uint16_t)r; /* out has room for 2n: never < 0 */
		stage_add(pl, TP_STAGE_GRO, k, c, 0, &t);
	}
	return finish(pl, port, queue, pl->out, c, pkts, &t);
}

uint16_t
tp_pipeline_rx_burst(struct tp_pipeline *pl, uint16_t port, uint16_t queue,
		     struct rte_mbuf **pkts, uint16_t n)
{
	uint32_t done = 0, total = 0;

	if (likely(n <= pl->max_burst))
		return rx_chunk(pl, port, queue, pkts, n);
	/* More than the scratch is sized for: consecutive bursts of at most
	 * max_burst. With pass_cb nothing comes back in pkts: each runs in
	 * place. */
	if (pl->conf.pass_cb != NULL) {
		while (done < n) {
			uint32_t c = RTE_MIN((uint32_t)n - done, pl->max_burst);

			(void)rx_chunk(pl, port, queue, pkts + done, (uint16_t)c);
			done += c;
		}
		return 0;
	}
	if (n > TP_PIPELINE_MAX_RX_FRAMES) {
		uint16_t extra = n - TP_PIPELINE_MAX_RX_FRAMES;
		uint64_t we = burst_weight(pkts + TP_PIPELINE_MAX_RX_FRAMES, extra);

		pl_cnt_add(&pl->st.rx, we);
		pl_drop_w(pl, TP_DROP_BURST_TOO_LARGE, pkts + TP_PIPELINE_MAX_RX_FRAMES,
			  extra, we);
		n = TP_PIPELINE_MAX_RX_FRAMES;
	}
	/* Without it each chunk needs room for twice its frames where its
	 * PASS packets go (GRO hands back a held aggregate and the packet
	 * that ends it). The frames wait in the top half of the caller's 2n
	 * array; each chunk is moved down to just after the PASS packets so
	 * far, whose count is at most 2 * done, so its room ends at or below
	 * 2 * done + 2c <= n + done + c: where the next chunk waits. */
	memmove(pkts + n, pkts, n * sizeof(*pkts));
	while (done < n) {
		uint32_t c = RTE_MIN((uint32_t)n - done, pl->max_burst);

		memmove(pkts + total, pkts + n + done, c * sizeof(*pkts));
		total += rx_chunk(pl, port, queue, pkts + total, (uint16_t)c);
		done += c;
	}
	return (uint16_t)total;
}

uint16_t
tp_pipeline_flush(struct tp_pipeline *pl, bool all, struct rte_mbuf **pkts,
		  uint16_t max)
{
	uint16_t npass = 0;

	/* Only the ports with GRO: a flush is called once per poll loop. */
	for (uint32_t ports = pl->gro_ports; ports != 0; ports &= ports - 1) {
		unsigned int p = (unsigned int)__builtin_ctz(ports);
		struct pl_port *pp = &pl->port[p];

		for (;;) {
			uint16_t room = 2 * pl->max_burst, c;
			uint64_t t = stage_clock(pl);

			/* Each aggregate gives at most one PASS packet. */
			if (pl->conf.pass_cb == NULL)
				room = RTE_MIN(room, (uint16_t)(max - npass));
			if (room == 0)
				return npass;
			c = all ? tp_gro_flush_all(pp->gro, pl->out, room) :
				  tp_gro_flush(pp->gro, pl->time_stages ? t : rte_rdtsc(),
					       pl->out, room);
			if (c == 0)
				break;
			stage_add(pl, TP_STAGE_GRO, 0, c, 0, &t);
			npass += finish(pl, (uint16_t)p, pp->last_queue, pl->out, c,
					pkts + npass, &t);
		}
	}
	return npass;
}
