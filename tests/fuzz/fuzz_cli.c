/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the command-line fuzz targets (fuzz_replay_opts, fuzz_fwd_opts):
 * input bytes into an argument vector, the parser run with its stderr in
 * memory, and the property on what it wrote. Contract in fuzz.h.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"

/* Would getopt_long read a as --help or --version (whole or abbreviated),
 * or a short-option cluster holding -h? with_value: the short options
 * that take a value (the rest of the cluster is that value). */
static bool
ends_program(const char *a, const char *with_value)
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
		if (strchr(with_value, *c) != NULL)
			return false;
	}
	return false;
}

/* argv[0] = prog, then the arguments (copied into store), NULL-terminated.
 * Returns argc, or 0 when an argument ends the program by design or
 * skip(argument) says the target must not parse it. */
static int
fuzz_argv(const uint8_t *data, size_t size, const char *prog, const char *with_value,
	  bool (*skip)(const char *), char **argv, char (*store)[FUZZ_MAX_ARG + 1])
{
	int argc = 0;
	size_t at = 0;

	argv[argc++] = (char *)(uintptr_t)prog;
	while (at < size && argc <= FUZZ_MAX_ARGS) {
		size_t n = strnlen((const char *)data + at, size - at);
		size_t k = n < FUZZ_MAX_ARG ? n : FUZZ_MAX_ARG;
		char *a = store[argc - 1];

		memcpy(a, data + at, k);
		a[k] = '\0';
		if (ends_program(a, with_value) || skip(a))
			return 0;
		argv[argc++] = a;
		at += n + 1;
	}
	argv[argc] = NULL;
	return argc;
}

/* stderr (the FILE a parser writes to) into *log until restored; fd 2
 * stays, for the sanitizers' reports. Returns the stream to restore. */
static FILE *
fuzz_stderr_to_memory(char **log, size_t *len)
{
	FILE *mem = open_memstream(log, len), *old = stderr;

	FUZZ_CHECK(mem != NULL);
	stderr = mem;
	return old;
}

static void
fuzz_stderr_restore(FILE *old)
{
	FILE *mem = stderr;

	stderr = old;
	FUZZ_CHECK(fclose(mem) == 0);
}

/* What a parser wrote: "PROG: note: " lines (an old spelling, accepted),
 * and for a refusal one "PROG: error: " line, the last. A newline in the
 * input can split a quoted value over lines: then only "an error line is
 * there" is checked. */
static void
fuzz_check_cli_lines(const char *log, const char *prog, bool refused, bool input_has_nl)
{
	char note[64], error[64];
	unsigned int errors = 0;
	const char *l = log, *last = NULL;

	snprintf(note, sizeof(note), "%s: note: ", prog);
	snprintf(error, sizeof(error), "%s: error: ", prog);
	if (input_has_nl) {
		FUZZ_CHECK(!refused || strstr(log, error) != NULL);
		return;
	}
	while (*l != '\0') {
		const char *nl = strchr(l, '\n');

		FUZZ_CHECK(nl != NULL); /* whole lines only */
		if (strncmp(l, error, strlen(error)) == 0) {
			errors++;
			last = l;
		} else if (strncmp(l, note, strlen(note)) != 0) {
			fprintf(stderr, "stderr was: '%s'\n", log); /* the reproducer's story */
			FUZZ_CHECK(!"a line that is neither a note nor an error");
		}
		l = nl + 1;
	}
	FUZZ_CHECK(errors == (refused ? 1u : 0u));
	FUZZ_CHECK(!refused || strchr(last, '\n')[1] == '\0');
}

int
fuzz_cli_run(const uint8_t *data, size_t size, const char *prog, const char *with_value,
	     bool (*skip)(const char *), int (*parse)(int argc, char **argv, void *arg),
	     void *arg)
{
	static char store[FUZZ_MAX_ARGS][FUZZ_MAX_ARG + 1];
	char *argv[FUZZ_MAX_ARGS + 2], *log = NULL;
	size_t len = 0;
	FILE *old;
	int argc, rc;

	argc = fuzz_argv(data, size, prog, with_value, skip, argv, store);
	if (argc == 0)
		return 1;
	old = fuzz_stderr_to_memory(&log, &len);
	rc = parse(argc, argv, arg);
	fuzz_stderr_restore(old);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL);
	fuzz_check_cli_lines(log, prog, rc < 0, memchr(data, '\n', size) != NULL);
	free(log);
	return rc;
}
