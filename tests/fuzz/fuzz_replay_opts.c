/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: tagpipe-replay's command line (replay_parse_args, the
 * options after the EAL's "--").
 *
 * Input: the arguments, separated by NUL bytes (fuzz.h, fuzz_argv).
 * Properties (apps/replay/replay.h, the man page's promise for bad input):
 *   - refused: -EINVAL and one error line on stderr, the last, starting
 *     "tagpipe-replay: error: " (notes on an old spelling may precede it);
 *   - accepted: 0, only notes on stderr, and the options are coherent: at
 *     least one input, burst 1..TP_PIPELINE_MAX_BURST, loops >= 1, a
 *     program opened, GRO flows 1..65535, a switch CPU port of -1..255;
 *   - nothing leaks (LeakSanitizer): the program is closed after.
 * Skipped inputs: what ends the program by design (--help, --version,
 * -h) and what reads or builds files (XDP objects "bpf:", ".o", ACL rule
 * files "acl:", any path with '/'), which other targets cover.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "replay.h"
#include "tp_pipeline.h"
#include "tp_prog.h"

static bool
touches_files(const char *a)
{
	return strstr(a, "bpf") != NULL || strstr(a, ".o") != NULL ||
	       strstr(a, "acl") != NULL || strchr(a, '/') != NULL;
}

static int
parse(int argc, char **argv, void *arg)
{
	return replay_parse_args(argc, argv, arg);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct replay_opts o = { 0 };
	/* -i takes a value: the rest of its cluster */
	int rc = fuzz_cli_run(data, size, "tagpipe-replay", "i", touches_files, parse, &o);

	if (rc == 0) {
		FUZZ_CHECK(o.nb_inputs >= 1 && o.nb_inputs <= REPLAY_MAX_INPUTS);
		FUZZ_CHECK(o.burst >= 1 && o.burst <= TP_PIPELINE_MAX_BURST);
		FUZZ_CHECK(o.loops >= 1);
		FUZZ_CHECK(o.prog != NULL);
		FUZZ_CHECK(o.gro_flows >= 1 && o.gro_flows <= 65535);
		FUZZ_CHECK(o.switch_cpu_port >= -1 && o.switch_cpu_port <= 255);
	}
	tp_prog_close(o.prog);
	return 0;
}
