/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_stats: the pipeline's counters.
 *
 * Units. Every counter below that says "frames" counts frames as they came
 * in from the wire: a merged packet of k segments that is transmitted,
 * redirected, passed or dropped adds k. So, after every tp_pipeline call,
 *
 *   rx + copies = pass + tx + redirect + drop + aborted + held_in_gro
 *                                                               (frames)
 *
 * where drop is the sum of drop_reason[] (every frame freed for any reason
 * other than an ABORTED verdict) and aborted counts frames freed because the
 * program returned TP_ABORTED or a value above TP_REDIRECT. pass counts the
 * frames handed to the application that it did not give back as drops
 * (tp_pipeline_pass_drop: a PASS frame its TX queue refused is a tx_full
 * drop, as a TX verdict's is); segmented counts the merged packets split
 * by software GSO, the pipeline's own and the application's PASS ones
 * (tp_pipeline_pass_segment). copies counts the frames the pipeline made
 * itself: a packet redirected to k targets at once (TP_REDIRECT_KEY_MULTI,
 * an XDP object's BPF_F_BROADCAST) is copied for all but one of them, and
 * each copy then leaves or is dropped like any packet (a copy the pool had
 * no mbufs for: drop reason no_mbuf).
 *
 * Drop reasons are ONE array with a fixed layout: each library has its own
 * range of slots (lib/dsa_tag's reasons, prefixed "dsa_", from
 * TP_DROP_DSA_BASE; lib/vlan's, "vlan_", from TP_DROP_VLAN_BASE; the
 * pipeline's own, TP_DROP_REASONS, from TP_DROP_OWN_BASE), with room to
 * spare, so a reason a library adds takes a spare slot of its range and
 * changes neither the array's size nor another reason's index (the ABI
 * stays; abi/ checks it). Slots without a reason read 0 and have no name
 * (tp_drop_reason_name gives NULL): iterate over 0..TP_DROP_MAX - 1 and
 * skip those. Strip and insert of the same library share its names; the
 * stage counters say where a drop happened.
 *
 * Stats are per pipeline instance, written only by its lcore.
 * Reading from another thread (tp_pipeline_stats_get) is safe while it
 * runs: every counter is written with a relaxed atomic store and read with
 * a relaxed atomic load (on x86-64 and arm64 plain 64-bit moves), so each
 * value is whole, and successive reads of one counter never go backwards.
 * What is NOT given across counters: a copy is not one instant's snapshot;
 * counters of the burst in flight may be partly updated (rx can already
 * include frames whose verdict, tx or drop is not counted yet), so the
 * identity above may be short by up to one burst's frames. It holds
 * exactly when read on the instance's lcore between calls, or from another
 * thread after the lcore stopped calling it (with the synchronisation that
 * told it so, e.g. rte_eal_wait_lcore). held_in_gro is GRO's count read at
 * the time of the copy (exact on the instance's lcore only).
 * tp_pipeline_stats_reset is for the instance's lcore (or while it stops).
 */
#ifndef TP_STATS_H
#define TP_STATS_H

/* Declared here = exported: the library is built with -fvisibility=hidden
 * and its version.map lists these names (GCC manual, Visibility Pragmas). */
#pragma GCC visibility push(default)

#include <stdint.h>

#include "tp_dsa_tag.h"
#include "tp_vlan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The pipeline's own drop reasons: X(enum suffix, counter name). */
#define TP_DROP_REASONS(X) \
	X(VERDICT, "verdict_drop")            /* program returned TP_DROP */          \
	X(NO_TARGET, "redirect_no_target")    /* REDIRECT key not in the map */       \
	X(TX_FULL, "tx_full")                 /* TX queue refused after retries */    \
	X(RING_FULL, "ring_full")             /* worker ring refused after retries */ \
	X(NO_MBUF, "no_mbuf")                 /* segmentation pool ran dry */         \
	X(SEGMENT, "segment_error")           /* merged packet inconsistent */        \
	X(TOO_MANY_SEGS, "too_many_segments") /* more than TP_EGRESS_MAX_SEGS */      \
	X(NO_PORT, "port_not_configured")     /* ingress/egress port not enabled */ \
	X(BURST_TOO_LARGE, "burst_too_large") /* past TP_PIPELINE_MAX_RX_FRAMES */

/* Slot ranges; a library's reason r is (its base + r). */
#define TP_DROP_DSA_BASE 0
#define TP_DROP_VLAN_BASE 32
#define TP_DROP_OWN_BASE 48
#define TP_DROP_MAX 80

enum tp_drop_reason {
#define TP_X_DSA(e, s) TP_DROP_DSA_##e,
	TP_DSA_DROP_REASONS(TP_X_DSA)
#undef TP_X_DSA
	TP_DROP_DSA_END_,
	TP_DROP_VLAN_FIRST_ = TP_DROP_VLAN_BASE - 1,
#define TP_X_VLAN(e, s) TP_DROP_VLAN_##e,
	TP_VLAN_DROP_REASONS(TP_X_VLAN)
#undef TP_X_VLAN
	TP_DROP_VLAN_END_,
	TP_DROP_OWN_FIRST_ = TP_DROP_OWN_BASE - 1,
#define TP_X_OWN(e, s) TP_DROP_##e,
	TP_DROP_REASONS(TP_X_OWN)
#undef TP_X_OWN
	TP_DROP_OWN_END_,
};

/* "dsa_too_short", "vlan_no_headroom", "tx_full", ... or NULL (a spare
 * slot, or reason >= TP_DROP_MAX). */
const char *tp_drop_reason_name(unsigned int reason);

/* Stages in the order of the default chain. */
#define TP_STAGES(X) \
	X(DSA, "dsa")         /* switch tag strip */                  \
	X(VLAN, "vlan")       /* 802.1Q/QinQ strip */                 \
	X(GRO, "gro")         /* merge */                             \
	X(VERDICT, "verdict") /* program */                           \
	X(ACTIONS, "actions") /* grouping, egress, transmit, free */

enum tp_stage {
#define TP_X_STAGE(e, s) TP_STAGE_##e,
	TP_STAGES(TP_X_STAGE)
#undef TP_X_STAGE
	TP_STAGE_MAX
};

const char *tp_stage_name(unsigned int stage);

/* Per stage, in mbufs as the stage sees them (GRO's out counts packets).
 * ACTIONS: in = out = packets acted on, drop = FRAMES freed while acting
 * (DROP/ABORTED verdicts, no target, tx_full, egress insert drops, ...). */
struct tp_stage_stats {
	uint64_t calls;   /* bursts the stage ran on */
	uint64_t in;      /* mbufs given to it */
	uint64_t out;     /* mbufs it handed on */
	uint64_t drop;    /* mbufs it dropped (ACTIONS: frames) */
	uint64_t cycles;  /* TSC cycles spent in it (rte_rdtsc per burst),
			   * only with conf.stage_cycles; else 0 */
};

#define TP_STATS_MAX_QUEUES 16
#define TP_STATS_MAX_PORTS 32

/* Per ethdev port (index = port id < TP_PIPELINE_MAX_PORTS). Frames. */
struct tp_port_stats {
	uint64_t rx;                          /* frames received on the port */
	uint64_t rx_queue[TP_STATS_MAX_QUEUES]; /* of rx, per queue (q < 16) */
	uint64_t tx;                          /* frames that left on the port */
	uint64_t tx_full;                     /* frames its TX queue refused */
	uint64_t tx_wire;                     /* mbufs handed to the TX queue
					       * (a TSO mbuf counts 1) */
};

struct tp_pipeline_stats {
	/* Conservation (frames). */
	uint64_t rx;
	uint64_t pass;
	uint64_t tx;          /* TX verdict, left on the ingress port */
	uint64_t redirect;    /* REDIRECT verdict, left to a port or a ring */
	uint64_t drop;        /* = sum of drop_reason[] */
	uint64_t aborted;
	uint64_t held_in_gro;
	uint64_t copies;      /* frames made for further redirect targets */
	/* What the program said, frames and packets (merged counts once). */
	uint64_t verdict[5];
	uint64_t verdict_pkts[5];
	uint64_t bad_verdict; /* frames whose program value was > TP_REDIRECT */
	uint64_t drop_reason[TP_DROP_MAX];
	struct tp_stage_stats stage[TP_STAGE_MAX];
	/* Egress work. */
	uint64_t tso;         /* merged packets handed to hardware TSO */
	uint64_t segmented;   /* merged packets split by tp_gro_segment() */
	uint64_t tx_retries;  /* extra rte_eth_tx_burst/ring enqueue calls */
	struct tp_port_stats port[TP_STATS_MAX_PORTS];
};

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* TP_STATS_H */
