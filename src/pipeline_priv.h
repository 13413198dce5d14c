/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pipeline internals, private to src/. One struct tp_pipeline per lcore;
 * nothing here is shared but the read-only program, the redirect map and
 * the telemetry list link.
 */
#ifndef TP_PIPELINE_PRIV_H
#define TP_PIPELINE_PRIV_H

#include <stdarg.h>
#include <sys/queue.h>

#include <rte_log.h>

#include "tp_dsa_tag.h"
#include "tp_gro.h"
#include "tp_map.h"
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
	struct tp_redirect_map *rmap;
	uint64_t fixedid_flag;            /* lib/gro's fixed-IP-ID dynflag */
	bool eg_has_tso;

	struct tp_pipeline_stats st;
	struct tp_dsa_stats dsa_rx, dsa_tx;
	struct tp_vlan_stats vlan_rx, vlan_tx;

	/* Redirect grouping: per map key, the burst stamp and group index. */
	uint32_t *rd_stamp;
	uint16_t *rd_group;
	uint32_t stamp;

	/* Scratch (one burst). */
	struct rte_mbuf *work[TP_PIPELINE_MAX_BURST];
	struct rte_mbuf *out[2 * TP_PIPELINE_MAX_BURST];
	struct rte_mbuf *drops[2 * TP_PIPELINE_MAX_BURST];
	struct rte_mbuf *grp[2 * TP_PIPELINE_MAX_BURST];   /* by verdict */
	struct rte_mbuf *rgrp[2 * TP_PIPELINE_MAX_BURST];  /* by redirect target */
	uint32_t rkey[2 * TP_PIPELINE_MAX_BURST];
	uint16_t gidx[2 * TP_PIPELINE_MAX_BURST];
	uint8_t verdict[2 * TP_PIPELINE_MAX_BURST];
	uint32_t key[2 * TP_PIPELINE_MAX_BURST];
	uint64_t gword[2 * TP_PIPELINE_MAX_BURST];
	uint16_t gcount[2 * TP_PIPELINE_MAX_BURST];
	uint16_t gof[2 * TP_PIPELINE_MAX_BURST];
	struct rte_mbuf *eg[TP_EGRESS_MAX_SEGS];
	struct rte_mbuf *eg_orig[TP_EGRESS_MAX_SEGS];
	struct rte_mbuf *eg_drops[TP_EGRESS_MAX_SEGS];
	uint32_t eg_len[TP_EGRESS_MAX_SEGS];
	uint32_t eg_w[TP_EGRESS_MAX_SEGS];

	TAILQ_ENTRY(tp_pipeline) next;    /* telemetry list */
};

/* Frames a mbuf stands for: merged (RX_LRO) or TSO-flagged packets count
 * their segments, anything else 1 (tp_stats.h units). */
static inline uint32_t
pl_weight(const struct rte_mbuf *m)
{
	uint32_t hdr, pay;

	if (m->ol_flags & RTE_MBUF_F_TX_TCP_SEG) {
		if (m->tso_segsz == 0)
			return 1;
		hdr = (uint32_t)m->l2_len + m->l3_len + m->l4_len;
		pay = m->pkt_len > hdr ? m->pkt_len - hdr : 0;
		return pay == 0 ? 1 : (pay + m->tso_segsz - 1) / m->tso_segsz;
	}
	return tp_gro_segs(m);
}

/* Free n mbufs as drops of reason r (weights added), after drop_cb. */
void pl_drop(struct tp_pipeline *pl, enum tp_drop_reason r,
	     struct rte_mbuf **pkts, uint16_t n);
/* Free n mbufs a library stage dropped: per-reason counts are the change
 * of the library's counters (before -> after), frames beyond one per mbuf
 * (TSO packets) go to the first reason that changed. */
void pl_drop_lib(struct tp_pipeline *pl, unsigned int base,
		 const uint64_t *before, const uint64_t *after,
		 unsigned int nreasons, struct rte_mbuf **pkts, uint16_t n);

/* Verdict actions on pkts[0..n) with pl->verdict/pl->key (pipeline_rx.c).
 * PASS packets are appended to pass_out[*npass] when there is no pass_cb. */
void pl_actions(struct tp_pipeline *pl, uint16_t port, uint16_t queue,
		struct rte_mbuf **pkts, uint16_t n,
		struct rte_mbuf **pass_out, uint16_t *npass);

/* egress.c: re-segment, re-tag and transmit pkts[0..n) on (port, queue);
 * switch_port >= 0 overrides the tag's destination. v: TP_TX/TP_REDIRECT. */
void pl_egress(struct tp_pipeline *pl, enum tp_verdict v, uint16_t port,
	       uint16_t queue, int switch_port, struct rte_mbuf **pkts,
	       uint16_t n);

/* telemetry.c: the list of live pipelines. */
void pl_registry_add(struct tp_pipeline *pl);
void pl_registry_del(struct tp_pipeline *pl);

#endif /* TP_PIPELINE_PRIV_H */
