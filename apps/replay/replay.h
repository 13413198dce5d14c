/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay: loads pcaps into memory and pushes them through the
 * pipeline in bursts, then reports what came out and what it cost.
 *
 * Files: options.c (command line), capture.c (pcap in and out), report.c
 * (stats JSON, per-frame JSONL, human summary), main.c (EAL, pool, loop).
 */
#ifndef TP_REPLAY_H
#define TP_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_mbuf.h>

#define REPLAY_MAX_INPUTS 16
#define REPLAY_EXIT_USAGE 2  /* bad input from the person: one-line error */

/* The verdicts a frame can leave with, in XDP's numbering. */
#define REPLAY_VERDICTS(X) \
	X(ABORTED, aborted) \
	X(DROP, drop) \
	X(PASS, pass) \
	X(TX, tx) \
	X(REDIRECT, redirect)

enum replay_verdict {
#define X(U, l) REPLAY_##U,
	REPLAY_VERDICTS(X)
#undef X
	REPLAY_NB_VERDICTS
};

extern const char *const replay_verdict_names[REPLAY_NB_VERDICTS];

struct replay_opts {
	const char *inputs[REPLAY_MAX_INPUTS];
	unsigned int nb_inputs;
	unsigned int burst;
	unsigned long loops;
	const char *tagger;
	const char *vlan;
	const char *gro;
	const char *verdict;
	const char *write[REPLAY_NB_VERDICTS]; /* --write VERDICT=FILE */
	const char *meta;                      /* --meta FILE.jsonl */
	const char *stats;                     /* --stats FILE.json or "-" */
};

/* One in-memory input frame. */
struct replay_frame {
	uint8_t *data;
	uint32_t len;
};

struct replay_input {
	struct replay_frame *frames;
	uint32_t nb_frames;
	uint64_t bytes;
};

/* An output pcap written to FILE.part and renamed on success. */
struct replay_writer;

struct replay_counters {
	uint64_t rx, rx_bytes;
	uint64_t verdict[REPLAY_NB_VERDICTS];
	uint64_t gro_in, gro_out;
	uint64_t cycles;                       /* spent inside the pipeline */
	unsigned int mbufs_in_use_end;
};

/* options.c: parse app arguments; prints a one-line error and returns
 * -EINVAL on bad input. */
int replay_parse_args(int argc, char **argv, struct replay_opts *o);
void replay_usage(FILE *f, const char *prog);

/* capture.c */
int replay_load(const char *const *paths, unsigned int n, struct replay_input *in);
void replay_input_free(struct replay_input *in);
struct replay_writer *replay_writer_open(const char *path);
int replay_writer_put(struct replay_writer *w, const struct rte_mbuf *m);
int replay_writer_commit(struct replay_writer *w);  /* close + rename */
void replay_writer_abort(struct replay_writer *w);  /* close + unlink */

/* report.c */
/* What --meta prints of one output frame. */
struct replay_frame_meta {
	int switch_port;        /* -1: none */
	uint16_t vlan[2];       /* TCIs, outer first */
	unsigned int nb_vlan;
	uint32_t gso_segs;      /* 1 for a frame GRO did not merge */
	uint32_t gso_size;      /* payload per segment, 0 when not merged */
};

struct replay_meta;
struct replay_meta *replay_meta_open(const char *path);
int replay_meta_put(struct replay_meta *mf, enum replay_verdict v,
		    const struct rte_mbuf *m, const struct replay_frame_meta *fm);
int replay_meta_commit(struct replay_meta *mf);
void replay_meta_abort(struct replay_meta *mf);
int replay_stats_write(const char *path, const struct replay_counters *c);
void replay_summary(FILE *f, const struct replay_counters *c, uint64_t tsc_hz);

/* Print a one-line error naming the problem, prefixed with the program name. */
void replay_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* TP_REPLAY_H */
