/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pipeline internals, private to lib/pipeline. One struct tp_pipeline per lcore;
 * nothing here is shared but the read-only program, the redirect map and
 * the telemetry list link.
 */
#ifndef TP_PIPELINE_PRIV_H
#define TP_PIPELINE_PRIV_H

#include <stdarg.h>
#include <sys/queue.h>

#include <rte_log.h>

#include "registry.h"   /* pl_registry_add/del at create/destroy */
#include "tp_dsa_tag.h"
#include "tp_gro.h"
#include "tp_pipeline.h"
#include "tp_prog.h"
#include "tp_stats.h"
#include "tp_vlan.h"

extern int tp_pipeline_logtype;
#define PL_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, tp_pipeline_logtype, "tagpipe: " fmt "\n", ##__VA_ARGS__)

/* Largest number of segments one merged packet may be split into on egress
 * (64 KiB / 128-byte MSS); also the egress chunk size. */
#define TP_EGRESS_MAX_SEGS 512

struct pl_port {
	bool enabled;
	bool vlan_strip;
	bool tso;                         /* hardware TSO usable on egress */
	bool tag_insert;                  /* tagger is not "none" */
	const struct tp_dsa_tagger *tagger;
	struct tp_dsa_conf dsa;
	struct tp_vlan_conf vlan;         /* tx_offload from the port's caps */
	struct tp_gro *gro;               /* NULL: GRO off */
	bool gro_age;                     /* GRO in age mode: needs the time */
	uint16_t last_queue;              /* for aggregates flushed later */
};

struct tp_pipeline {
	char name[32];
	struct tp_pipeline_conf conf;     /* copy; pointers shared */
	struct pl_port port[TP_PIPELINE_MAX_PORTS];
	struct tp_prog *prog;
	bool own_prog;
	tp_prog_burst_fn prog_burst;
	void *prog_priv;
	bool prog_all_pass;               /* the built-in "pass" program */
	tp_verdict_obs_t verdict_obs;     /* tp_pipeline_observe_verdicts */
	void *verdict_obs_arg;
	struct tp_redirect_map *rmap;
	uint64_t fixedid_flag;            /* lib/gro's fixed-IP-ID dynflag,
					   * resolved at create (0: no TSO port) */
	bool time_stages;                 /* conf.stage_cycles */
	bool in_pass_cb;                  /* conf.pass_cb runs (the app may
					   * call tp_pipeline_pass_drop) */
	uint64_t pass_dropped;            /* frames it gave back as drops */
	uint16_t max_burst;               /* conf.max_burst, resolved */
	uint32_t gro_ports;               /* bit p: port[p].gro != NULL (what
					   * a flush visits) */

	struct tp_pipeline_stats st;
	struct tp_dsa_stats dsa_rx, dsa_tx;
	struct tp_vlan_stats vlan_rx, vlan_tx;

	/* Redirect grouping: per map key, the burst stamp and group index. */
	uint32_t *rd_stamp;
	uint16_t *rd_group;
	uint32_t stamp;

	/* Scratch for one burst: 2 * max_burst entries each (GRO can hand
	 * back an aggregate and the packet that completed it), one block
	 * allocated at create right after this struct. The stages themselves
	 * work in place in the caller's array. */
	struct rte_mbuf **out;            /* GRO output */
	struct rte_mbuf **drops;          /* a library stage's drops */
	struct rte_mbuf **grp;            /* by verdict */
	struct rte_mbuf **rgrp;           /* by redirect target */
	uint32_t *wt;                     /* frames per packet (pl_weight), by
					   * position in the array acted on */
	uint32_t *gwt;                    /* the same, partitioned with grp */
	uint32_t *rwt;                    /* the same, partitioned with rgrp */
	uint32_t *rkey;
	uint32_t *key;
	uint64_t *gword;
	uint16_t *gidx;
	uint16_t *gcount;
	uint16_t *gof;
	uint8_t *verdict;
	uint8_t *why;                     /* library drop reason of drops[j] */
	/* REDIRECT with multi-target keys (pipeline_rx.c redirect_action):
	 * single-target packets, then one key's packets (bc), the multi-target
	 * ones waiting (bm), one target's copies (bx) */
	struct rte_mbuf **bc, **bm, **bx;
	uint32_t *bcwt, *bckey, *bmwt, *bmkey, *bxwt, *bxkey;

	/* Egress scratch: one chunk (a merged packet may split into up to
	 * TP_EGRESS_MAX_SEGS frames); touched only by TX / REDIRECT. */
	struct rte_mbuf **eg;
	struct rte_mbuf **eg_drops;
	uint32_t *eg_w;
	uint8_t *eg_why;                  /* library drop reason of eg_drops[j] */

	TAILQ_ENTRY(tp_pipeline) next;    /* registry.c's list */
};

/* Add v to counter c of pl->st. The counters have one writer, the
 * instance's lcore, and readers on other threads (tp_pipeline_stats_get):
 * the writer stores the new value with a relaxed atomic store, which is one
 * aligned 64-bit store on x86-64 and arm64 (no lock, no fence; GCC manual
 * "__atomic Builtins"), so a reader's relaxed loads see each counter whole
 * and, by read-read coherence (C11 5.1.2.4), never going backwards. The
 * load of the writer's own value needs no atomic: no one else writes. */
static inline void
pl_cnt_add(uint64_t *c, uint64_t v)
{
	__atomic_store_n(c, *c + v, __ATOMIC_RELAXED);
}

/* Frames a mbuf stands for: merged (RX_LRO) or TSO-flagged packets count
 * their segments, anything else 1 (tp_stats.h units). */
static inline uint32_t
pl_weight(const struct rte_mbuf *m)
{
	uint32_t hdr, pay;

	/* One test for the common case: a plain frame. */
	if (likely(!(m->ol_flags & (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_RX_LRO))))
		return 1;
	if (m->ol_flags & RTE_MBUF_F_TX_TCP_SEG) {
		if (m->tso_segsz == 0)
			return 1;
		hdr = (uint32_t)m->l2_len + m->l3_len + m->l4_len;
		pay = m->pkt_len > hdr ? m->pkt_len - hdr : 0;
		return pay == 0 ? 1 : (pay + m->tso_segsz - 1) / m->tso_segsz;
	}
	return tp_gro_segs(m);
}

/* Hand PASS packets pkts[0..n) of w frames to conf.pass_cb and count as
 * pass the frames the application did not give back as drops. */
void pl_pass_to_app(struct tp_pipeline *pl, uint16_t port, uint16_t queue,
		    struct rte_mbuf **pkts, uint16_t n, uint64_t w);

/* Free n mbufs as drops of reason r (weights added), after drop_cb. */
void pl_drop(struct tp_pipeline *pl, enum tp_drop_reason r,
	     struct rte_mbuf **pkts, uint16_t n);
/* The same with their weights already summed in w. */
void pl_drop_w(struct tp_pipeline *pl, enum tp_drop_reason r,
	       struct rte_mbuf **pkts, uint16_t n, uint64_t w);
/* Free n mbufs a library stage dropped, each counted (its frames) under
 * drop reason base + why[i], the library's reason for pkts[i]. */
void pl_drop_lib(struct tp_pipeline *pl, unsigned int base,
		 struct rte_mbuf **pkts, const uint8_t *why, uint16_t n);

/* Verdict actions on pkts[0..n) with pl->verdict/pl->key (pipeline_rx.c);
 * each packet's weight is computed once, here, into pl->wt.
 * PASS packets are appended to pass_out[*npass] when there is no pass_cb. */
void pl_actions(struct tp_pipeline *pl, uint16_t port, uint16_t queue,
		struct rte_mbuf **pkts, uint16_t n,
		struct rte_mbuf **pass_out, uint16_t *npass);

/* egress.c: re-segment, re-tag and transmit pkts[0..n) on (port, queue);
 * switch_port >= 0 overrides the tag's destination. v: TP_TX/TP_REDIRECT. */
void pl_egress(struct tp_pipeline *pl, enum tp_verdict v, uint16_t port,
	       uint16_t queue, int switch_port, struct rte_mbuf **pkts,
	       uint16_t n);


#endif /* TP_PIPELINE_PRIV_H */
