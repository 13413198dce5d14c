/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe fuzz targets: one entry point per target (LLVMFuzzerTestOneInput),
 * built twice - with libFuzzer (tests/fuzz/libfuzzer.sh, clang) to search,
 * and with corpus_main.c (meson, the project's compiler, ASan with
 * -Dsanitize=true) to replay the committed corpus as a deterministic test.
 *
 * Every target checks properties, not just "no crash": each mbuf that goes
 * in comes back kept or dropped exactly once, drop counters add up, lengths
 * are exact, and the pool's in-use count is back to its start at the end.
 *
 * Input layout shared by the burst targets (fuzz_burst): after the target's
 * own leading bytes, frames as [flags][len_hi][len_lo][len bytes], the last
 * frame taking what is left. flags bit 0: split the frame into a chain of
 * two segments (at len * flags[7:1] / 128).
 */
#ifndef TP_FUZZ_H
#define TP_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#define FUZZ_MAX_BURST 64
#define FUZZ_MAX_FRAME 9216 /* a jumbo frame; longer input is cut there */

/* A property failed: print where and why, abort (libFuzzer keeps the input
 * as crash-*, the corpus runner names the file). */
#define FUZZ_CHECK(cond) do {							\
		if (!(cond)) {							\
			fprintf(stderr, "%s:%d: property failed: %s\n",		\
				__FILE__, __LINE__, #cond);			\
			abort();						\
		}								\
	} while (0)

/* The EAL (started on first use, --no-huge, unique --file-prefix) and one
 * pool of mbufs large enough for FUZZ_MAX_FRAME plus headroom. */
struct rte_mempool *fuzz_pool(void);

/* Build up to max mbufs from *data (layout above), consuming it. Returns
 * the count; stops early when the pool is dry. */
uint16_t fuzz_burst(const uint8_t **data, size_t *size, struct rte_mbuf **pkts,
		    uint16_t max);

/* Copy m's bytes (all segments) to buf (room for cap bytes); returns
 * pkt_len after checking the mbuf and that pkt_len is the sum of data_len. */
uint32_t fuzz_bytes(const struct rte_mbuf *m, uint8_t *buf, uint32_t cap);

/* A leading [len_hi][len_lo]: consumed, the length returned (at most what
 * follows); -1 when fewer than 2 bytes are left. */
long fuzz_len16(const uint8_t **data, size_t *size);

/* The n bytes at p as a file (a memfd: no disk): returns its descriptor,
 * its path ("/proc/self/fd/N") in path; the caller closes it. */
int fuzz_memfd(const uint8_t *p, size_t n, char *path, size_t plen);

/* The pool holds every mbuf again. */
void fuzz_check_pool(void);

/* Command-line targets (fuzz_cli.c). The input is the arguments after
 * the program name, separated by NUL bytes: at most FUZZ_MAX_ARGS, each
 * cut at FUZZ_MAX_ARG bytes. */
#define FUZZ_MAX_ARGS 24
#define FUZZ_MAX_ARG 256

/* One command-line input: the arguments into argv (argv[0] = prog),
 * parse(argc, argv, arg) run with stderr in memory, then the properties
 * every parser promises: it returns 0 or -EINVAL; it writes only
 * "PROG: note: " lines (an old spelling, accepted) and, when it refuses,
 * one "PROG: error: " line, the last (a newline in the input may split a
 * quoted value: then only "an error line is there"). Returns parse's
 * result, or 1 when the input was skipped: an argument ends the program
 * by design (--help, --version, -h in a cluster of short options;
 * with_value: the short options that take a value) or skip(argument)
 * says the target must not parse it. */
int fuzz_cli_run(const uint8_t *data, size_t size, const char *prog, const char *with_value,
		 bool (*skip)(const char *), int (*parse)(int argc, char **argv, void *arg),
		 void *arg);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif /* TP_FUZZ_H */
