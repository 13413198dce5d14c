/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: tagpipe-replay's command line (replay_parse_args, the
 * options after the EAL's "--").
 *
 * Input: the arguments, separated by NUL bytes (at most FUZZ_MAX_ARGS of
 * at most FUZZ_MAX_ARG bytes each; longer input is cut). Properties
 * (apps/replay/replay.h, the man page's promise for bad input):
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
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "replay.h"
#include "tp_pipeline.h"
#include "tp_prog.h"

#define FUZZ_MAX_ARGS 24
#define FUZZ_MAX_ARG 256

/* Would getopt_long read arg as --help or --version (whole or
 * abbreviated), or a short-option cluster holding -h? */
static bool
ends_program(const char *a)
{
	if (strncmp(a, "--", 2) == 0) {
		size_t n = strcspn(a + 2, "=");

		return n > 0 && (strncmp(a + 2, "help", n) == 0 ||
				 strncmp(a + 2, "version", n) == 0);
	}
	if (a[0] != '-')
		return false;
	for (const char *c = a + 1; *c; c++) {
		if (*c == 'h')
			return true;
		if (*c == 'i') /* the rest is -i's value */
			return false;
	}
	return false;
}

static bool
touches_files(const char *a)
{
	return strstr(a, "bpf") != NULL || strstr(a, ".o") != NULL ||
	       strstr(a, "acl") != NULL || strchr(a, '/') != NULL;
}

#define NOTE "tagpipe-replay: note: "
#define ERROR "tagpipe-replay: error: "

/* What the parser wrote: notes (an old spelling, accepted), then for a
 * refusal one error line, the last. A newline in the input may split a
 * quoted value over lines: then only "an error line is there" is checked. */
static void
check_lines(const char *log, bool refused, bool input_has_nl)
{
	unsigned int errors = 0;
	const char *l = log, *last = NULL;

	if (input_has_nl) {
		FUZZ_CHECK(!refused || strstr(log, ERROR) != NULL);
		return;
	}
	while (*l != '\0') {
		const char *nl = strchr(l, '\n');

		FUZZ_CHECK(nl != NULL); /* whole lines only */
		if (strncmp(l, ERROR, strlen(ERROR)) == 0) {
			errors++;
			last = l;
		} else if (strncmp(l, NOTE, strlen(NOTE)) != 0) {
			fprintf(stderr, "stderr was: '%s'\n", log); /* the reproducer's story */
			FUZZ_CHECK(!"a line that is neither a note nor an error");
		}
		l = nl + 1;
	}
	FUZZ_CHECK(errors == (refused ? 1u : 0u));
	FUZZ_CHECK(!refused || strchr(last, '\n')[1] == '\0');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char store[FUZZ_MAX_ARGS][FUZZ_MAX_ARG + 1];
	char *argv[FUZZ_MAX_ARGS + 2];
	char *log = NULL;
	struct replay_opts o;
	int argc = 0, rc;
	size_t at = 0, len = 0;
	FILE *mem, *old;

	(void)fuzz_pool(); /* the EAL: programs and taggers need it */
	argv[argc++] = (char *)"tagpipe-replay";
	while (at < size && argc <= FUZZ_MAX_ARGS) {
		size_t n = strnlen((const char *)data + at, size - at);
		size_t k = n < FUZZ_MAX_ARG ? n : FUZZ_MAX_ARG;

		memcpy(store[argc - 1], data + at, k);
		store[argc - 1][k] = '\0';
		if (ends_program(store[argc - 1]) || touches_files(store[argc - 1]))
			return 0;
		argv[argc] = store[argc - 1];
		argc++;
		at += n + 1;
	}
	argv[argc] = NULL;

	/* stderr (the FILE the parser writes to) into memory, for the
	 * property on its lines; fd 2 stays, for the sanitizers' reports */
	mem = open_memstream(&log, &len);
	FUZZ_CHECK(mem != NULL);
	old = stderr;
	stderr = mem;
	rc = replay_parse_args(argc, argv, &o);
	stderr = old;
	FUZZ_CHECK(fclose(mem) == 0 && log != NULL);

	FUZZ_CHECK(rc == 0 || rc == -EINVAL);
	check_lines(log, rc < 0, memchr(data, '\n', size) != NULL);
	if (rc == 0) {
		FUZZ_CHECK(o.nb_inputs >= 1 && o.nb_inputs <= REPLAY_MAX_INPUTS);
		FUZZ_CHECK(o.burst >= 1 && o.burst <= TP_PIPELINE_MAX_BURST);
		FUZZ_CHECK(o.loops >= 1);
		FUZZ_CHECK(o.prog != NULL);
		FUZZ_CHECK(o.gro_flows >= 1 && o.gro_flows <= 65535);
		FUZZ_CHECK(o.switch_cpu_port >= -1 && o.switch_cpu_port <= 255);
	}
	tp_prog_close(o.prog);
	free(log);
	return 0;
}
