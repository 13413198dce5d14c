/* SPDX-License-Identifier: BSD-3-Clause */
/* tagpipe-replay command line. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

const char *const replay_verdict_names[REPLAY_NB_VERDICTS] = {
#define X(U, l) [REPLAY_##U] = #l,
	REPLAY_VERDICTS(X)
#undef X
};

void
replay_err(const char *fmt, ...)
{
	va_list ap;

	fputs("tagpipe-replay: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
replay_usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [EAL options --] -i FILE.pcap [-i FILE2.pcap ...] [options]\n"
		"  -i, --input FILE        pcap to replay (repeatable, up to %d)\n"
		"  --burst N               frames per burst (1..%d, default 32)\n"
		"  --loops N               replay the input N times (default 1)\n"
		"  --tagger NAME           DSA tagger to strip (default none)\n"
		"  --vlan strip|keep       VLAN/QinQ stage (default keep)\n"
		"  --gro off|burst|age:USEC  GRO stage (default off)\n"
		"  --verdict NAME          verdict program (default pass)\n"
		"  --write VERDICT=FILE    write frames leaving with VERDICT (pass, tx,\n"
		"                          redirect, drop) to a pcap; repeatable\n"
		"  --meta FILE.jsonl       one JSON object per output frame\n"
		"  --stats FILE.json|-     final counters as JSON\n"
		"  -h, --help              this text\n",
		prog, REPLAY_MAX_INPUTS, 1024);
}

static int
parse_ulong(const char *opt, const char *s, unsigned long lo, unsigned long hi,
	    unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s == '\0' || *s == '-' || *end != '\0' || errno != 0 || v < lo || v > hi) {
		replay_err("%s: bad number '%s' (expected %lu..%lu)", opt, s, lo, hi);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* Until a stage exists, its option takes only its 'off' value. */
static int
only_value(const char *opt, const char *val, const char *allowed)
{
	if (strcmp(val, allowed) == 0)
		return 0;
	replay_err("%s: '%s' is not available in this build (only '%s')", opt, val, allowed);
	return -EINVAL;
}

static int
parse_write(const char *arg, struct replay_opts *o)
{
	const char *eq = strchr(arg, '=');
	size_t n;

	if (eq == NULL || eq[1] == '\0') {
		replay_err("--write: '%s' is not VERDICT=FILE", arg);
		return -EINVAL;
	}
	n = (size_t)(eq - arg);
	for (int v = 0; v < REPLAY_NB_VERDICTS; v++) {
		if (v == REPLAY_ABORTED)
			continue;
		if (strlen(replay_verdict_names[v]) == n &&
		    strncmp(arg, replay_verdict_names[v], n) == 0) {
			o->write[v] = eq + 1;
			return 0;
		}
	}
	replay_err("--write: unknown verdict '%.*s' (pass, tx, redirect, drop)", (int)n, arg);
	return -EINVAL;
}

enum {
	OPT_BURST = 256, OPT_LOOPS, OPT_TAGGER, OPT_VLAN, OPT_GRO, OPT_VERDICT,
	OPT_WRITE, OPT_META, OPT_STATS,
};

int
replay_parse_args(int argc, char **argv, struct replay_opts *o)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "burst", required_argument, NULL, OPT_BURST },
		{ "loops", required_argument, NULL, OPT_LOOPS },
		{ "tagger", required_argument, NULL, OPT_TAGGER },
		{ "vlan", required_argument, NULL, OPT_VLAN },
		{ "gro", required_argument, NULL, OPT_GRO },
		{ "verdict", required_argument, NULL, OPT_VERDICT },
		{ "write", required_argument, NULL, OPT_WRITE },
		{ "meta", required_argument, NULL, OPT_META },
		{ "stats", required_argument, NULL, OPT_STATS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->burst = 32;
	o->loops = 1;
	o->tagger = "none";
	o->vlan = "keep";
	o->gro = "off";
	o->verdict = "pass";

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (o->nb_inputs == REPLAY_MAX_INPUTS) {
				replay_err("-i: more than %d inputs", REPLAY_MAX_INPUTS);
				return -EINVAL;
			}
			o->inputs[o->nb_inputs++] = optarg;
			break;
		case OPT_BURST:
			if (parse_ulong("--burst", optarg, 1, 1024, &v) < 0)
				return -EINVAL;
			o->burst = (unsigned int)v;
			break;
		case OPT_LOOPS:
			if (parse_ulong("--loops", optarg, 1, ULONG_MAX / 2, &v) < 0)
				return -EINVAL;
			o->loops = v;
			break;
		case OPT_TAGGER:
			if (only_value("--tagger", optarg, "none") < 0)
				return -EINVAL;
			o->tagger = optarg;
			break;
		case OPT_VLAN:
			if (only_value("--vlan", optarg, "keep") < 0)
				return -EINVAL;
			o->vlan = optarg;
			break;
		case OPT_GRO:
			if (only_value("--gro", optarg, "off") < 0)
				return -EINVAL;
			o->gro = optarg;
			break;
		case OPT_VERDICT:
			if (only_value("--verdict", optarg, "pass") < 0)
				return -EINVAL;
			o->verdict = optarg;
			break;
		case OPT_WRITE:
			if (parse_write(optarg, o) < 0)
				return -EINVAL;
			break;
		case OPT_META:
			o->meta = optarg;
			break;
		case OPT_STATS:
			o->stats = optarg;
			break;
		case 'h':
			replay_usage(stdout, argv[0]);
			exit(0);
		case ':':
			replay_err("option '%s' needs a value", argv[optind - 1]);
			return -EINVAL;
		default:
			replay_err("unknown option '%s' (see --help)", argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		replay_err("unexpected argument '%s' (inputs go after -i)", argv[optind]);
		return -EINVAL;
	}
	if (o->nb_inputs == 0) {
		replay_err("no input: give at least one -i FILE.pcap");
		return -EINVAL;
	}
	return 0;
}
