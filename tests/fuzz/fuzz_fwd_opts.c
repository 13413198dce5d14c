/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: tagpipe-fwd's command line (fwd_options_try_parse, the
 * options after the EAL's "--"; the program itself exits 2 where this
 * returns -EINVAL).
 *
 * Input: the arguments, separated by NUL bytes (fuzz.h, fuzz_argv).
 * Properties (apps/fwd/fwd.h, the man page's promise for bad input):
 *   - refused: -EINVAL and one error line on stderr, the last, starting
 *     "tagpipe-fwd: error: " (notes on an old spelling may precede it);
 *   - accepted: 0, only notes on stderr, and the options in their ranges:
 *     a forwarding engine, queues 1..FWD_MAX_QUEUES, descriptors
 *     32..32768, burst 1..FWD_MAX_BURST, txonly frames 42..1514, GRO
 *     flows 1..65535 and segments at most 64 (0: defaults), redirect
 *     entries to ports below FWD_MAX_PORTS, strings within their arrays.
 * Skipped inputs: what ends the program by design (--help, --version,
 * -h), what sets process-wide XDP state ("bpf"), and paths ('/'): the
 * parser only checks --cmdline-file exists.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "fwd.h"

/* main.c's, which this target does not link: the EAL of the parse's
 * caller is not to be stopped */
bool fwd_eal_started;
struct fwd_state fwd;
volatile bool fwd_quit;
int fwd_logtype;

static bool
skipped(const char *a)
{
	return strstr(a, "bpf") != NULL || strchr(a, '/') != NULL;
}

/* the program's argv after "--": no program name in front */
static int
parse(int argc, char **argv, void *arg)
{
	return fwd_options_try_parse(argc - 1, argv + 1, "tagpipe-fwd", arg);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fwd_options o;
	/* no short option takes a value (-i is --interactive) */
	int rc = fuzz_cli_run(data, size, "tagpipe-fwd", "", skipped, parse, &o);

	if (rc != 0)
		return 0;
	FUZZ_CHECK(o.engine != NULL);
	FUZZ_CHECK(o.nb_rxq >= 1 && o.nb_rxq <= FWD_MAX_QUEUES);
	FUZZ_CHECK(o.nb_txq <= FWD_MAX_QUEUES);
	FUZZ_CHECK(o.nb_rxd >= 32 && o.nb_rxd <= 32768);
	FUZZ_CHECK(o.nb_txd >= 32 && o.nb_txd <= 32768);
	FUZZ_CHECK(o.burst >= 1 && o.burst <= FWD_MAX_BURST);
	FUZZ_CHECK(o.txpkt_len >= 42 && o.txpkt_len <= 1514);
	FUZZ_CHECK(o.gro.max_flows <= 65535 && o.gro.max_segs <= 64);
	FUZZ_CHECK(o.nb_redirects <= FWD_MAX_REDIRECTS);
	for (unsigned int i = 0; i < o.nb_redirects; i++)
		FUZZ_CHECK(o.redirect[i].port < FWD_MAX_PORTS);
	FUZZ_CHECK(strnlen(o.verdict, FWD_MAX_VERDICT) < FWD_MAX_VERDICT);
	for (unsigned int p = 0; p < FWD_MAX_PORTS; p++)
		FUZZ_CHECK(strnlen(o.port[p].tagger, FWD_MAX_TAGGER_NAME) < FWD_MAX_TAGGER_NAME);
	return 0;
}
