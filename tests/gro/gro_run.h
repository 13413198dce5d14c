/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Running a sequence of test frames through tp_gro the way the kernel GRO
 * selftest runs them (docs/ref/gro.md §3.1): packets, optional "sleep" points (the held
 * aggregates are flushed there, as gro_flush_timeout would), and the
 * receiver's view: TCP payload length of every output packet up to the
 * first FIN.
 */
#ifndef GRO_RUN_H
#define GRO_RUN_H

#include "gro_tpkt.h"
#include "tp_gro.h"

#define SEQ_MAX 2100

enum gro_variant {
	VAR_PLAIN, VAR_VLAN, VAR_QINQ, VAR_STRIP, VAR_QINQ_STRIP, VAR_DSA,
	VAR_RSS, VAR_NIC,
	VAR_PORT_EACH,   /* every frame from its own switch port: nothing merges */
	VAR_MAX
};

struct mbmeta {          /* mbuf fields set on the packet before GRO */
	uint64_t ol;
	uint16_t vlan_tci, vlan_tci_outer;
	uint32_t rss;
	int dsa_valid;
	uint8_t dsa_port, dsa_dev;
};

struct seq {
	int n;
	struct tpkt p[SEQ_MAX];
	struct mbmeta meta[SEQ_MAX];
	uint8_t flush_before[SEQ_MAX];
};

/* Append a selftest-template packet at seq offset off with len payload. */
struct tpkt *seq_add(struct seq *s, int v6, uint32_t off, uint16_t len);

/* Apply a variant (tags, stripped TCIs, switch port, RSS, NIC checksum
 * verdicts) to every packet. */
void seq_variant(struct seq *s, enum gro_variant v);

/* Run s through a fresh tp_gro (AGE mode, flushes only at sleep points and
 * at the end), check every merged output against the contract, record the
 * payload lengths before the first FIN into got (returns count). Frees
 * everything; the pool is back where it started. */
int seq_run(struct rte_mempool *mp, const struct seq *s, int *got, int max,
	    struct tp_gro_stats *st);

/* Register the switch-port dynfield and set it on m. */
void gro_test_dsa_set(struct rte_mbuf *m, int valid, uint8_t port, uint8_t dev);

#endif
