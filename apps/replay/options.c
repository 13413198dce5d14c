/* SPDX-License-Identifier: BSD-3-Clause */
/* tagpipe-replay command line. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_syntax.h"
#include "replay.h"
#include "tp_dsa_tag.h"
#include "tagpipe.h"

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

int
replay_stderr_mute(void)
{
	int saved, null;

	fflush(stderr);
	saved = dup(STDERR_FILENO);
	null = open("/dev/null", O_WRONLY);
	if (saved >= 0 && null >= 0)
		dup2(null, STDERR_FILENO);
	if (null >= 0)
		close(null);
	return saved;
}

void
replay_stderr_restore(int saved)
{
	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
}

void
replay_usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [EAL options --] -i FILE.pcap [-i FILE2.pcap ...] [options]\n"
		"  -i, --input FILE        pcap to replay (repeatable, up to %d)\n"
		"  --burst N               frames per burst (1..%d, default 32)\n"
		"  --loops N               replay the input N times (default 1)\n"
		"  --tagger NAME           DSA tagger to strip (default: the one a DSA\n"
		"                          link type names, else none)\n"
		"  --switch-cpu-port N     the switch's CPU port (taggers whose TX tag\n"
		"                          needs it: ocelot, seville, mxl862xx; without\n"
		"                          it, frames sent with a tag are dropped)\n"
		"  --vlan strip|keep       VLAN/QinQ stage (default strip)\n"
		"  --vlan-tpid HEX[,HEX]   TPIDs the VLAN stage strips (default 8100,88a8)\n"
		"  --gro off|burst|age:USEC  GRO stage (default burst)\n"
		"  --gro-flows N           aggregates GRO holds at once (default 1024)\n"
		"  --gro-order flow|kernel output order: each flow in arrival order\n"
		"                          (default), or exactly the Linux kernel's\n"
		"  --gro-tunnels LIST      merge TCP inside tunnels: off (default), all,\n"
		"                          or vxlan[:PORT[+PORT]],geneve,ipip (VXLAN port\n"
		"                          4789, GENEVE 6081)\n"
		"  --gro-udp               merge UDP datagrams as the kernel's\n"
		"                          rx-udp-gro-forwarding (default off)\n"
		"  --gro-csum verify|trust checksums the NIC did not check: verified in\n"
		"                          software, or trusted (default verify; with\n"
		"                          --compare trust, as librte_gro checks none)\n"
		"  --verdict NAME[:ARG]    verdict program: pass, drop, tx, redirect:N,\n"
		"                          by-switch-port, acl:FILE (default pass), or an\n"
		"                          XDP object FILE.o[:SECTION] (docs/xdp.md)\n"
		"  --bpf-map NAME:KEY=VALUE  set an element of the XDP object's map\n"
		"                          before the run (KEY, VALUE: hex bytes in memory\n"
		"                          order; PROG_ARRAY: VALUE is a function name)\n"
		"  --bpf-route 'ROUTE'     a route for the XDP object's bpf_fib_lookup, as\n"
		"                          ip-route(8) words: [blackhole|unreachable|\n"
		"                          prohibit] PREFIX[/LEN] [via GW] dev PORT\n"
		"                          [lladdr MAC] [smac MAC] [src A] [mtu N] [metric N]\n"
		"  --bpf-unverified        run XDP objects the kernel verifier was not\n"
		"                          asked about (tagpipe's own checks only)\n"
		"  --redirect KEY=port:P[,queue:Q][,switch_port:S]\n"
		"                          redirect map entry (repeatable)\n"
		"  --write VERDICT=FILE    write frames leaving with VERDICT (pass, tx,\n"
		"                          redirect, drop) to a pcap; repeatable\n"
		"  --write-format pcap|pcapng  format of every --write file (default:\n"
		"                          pcapng for FILE.pcapng, else pcap)\n"
		"  --meta FILE.jsonl|-     one JSON object per output frame\n"
		"  --stats FILE.json|-     final counters as JSON\n"
		"  --compare dpdk-gro      also run DPDK's librte_gro on the same frames\n"
		"                          after tagpipe's untag stages\n"
		"  --via-port VDEV[,ARGS]  replay through a loopback port (net_ring0, ...)\n"
		"  --workers N             N lcores, one pipeline each, the input split\n"
		"                          by RSS (Toeplitz over the 5-tuple): per-worker\n"
		"                          cycles/packet and total Mpps (1..%d; the EAL\n"
		"                          needs N lcores, e.g. -l 0-1 --; default: one)\n"
		"  --json FILE|-           benchmark figures as JSON\n"
		"                          (with '-' for one of --meta, --stats, --json,\n"
		"                          stdout holds only that; the summary goes to stderr)\n"
		"  -q, --quiet             no human summary\n"
		"  -h, --help              this text\n"
		"  --version               tagpipe and DPDK versions\n",
		prog, REPLAY_MAX_INPUTS, TP_PIPELINE_MAX_BURST, RTE_MAX_LCORE);
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

static int
parse_tagger(const char *val, struct replay_opts *o)
{
	char err[1200];

	if (cli_check_tagger(val, err, sizeof(err)) < 0) {
		replay_err("--tagger: %s", err);
		return -EINVAL;
	}
	o->tagger = val;
	o->tagger_given = true;
	return 0;
}

static int check_tagger_conf(const struct replay_opts *o);

int
replay_tagger_from_input(struct replay_opts *o, const struct replay_input *in)
{
	const char *want = replay_linktype_tagger(in->dlt);
	char name[128];

	if (want == NULL)
		return 0;
	if (!o->tagger_given) {
		o->tagger = want;
		return check_tagger_conf(o);
	}
	if (strcmp(o->tagger, want) == 0)
		return 0;
	replay_err("--tagger %s: the input's link type is %s, whose frames carry the "
		   "'%s' tag (leave out --tagger, or give --tagger %s)", o->tagger,
		   replay_linktype_name(in->dlt, name, sizeof(name)), want, want);
	return -EINVAL;
}

/* What the tagger needs besides its name (lib/dsa_tag's check, which
 * explains itself on stderr: held back for one line of our own). */
static int
check_tagger_conf(const struct replay_opts *o)
{
	const struct tp_dsa_tagger *t = tp_dsa_tagger_find(o->tagger);
	struct tp_dsa_conf c = { 0 };
	int saved, rc;

	if (o->switch_cpu_port >= 0) {
		c.flags |= TP_DSA_CONF_F_CPU_PORT;
		c.cpu_port = (uint8_t)o->switch_cpu_port;
	} else if (t != NULL && (t->flags & TP_DSA_TAGGER_F_TX_CPU_PORT)) {
		/* Needed only to insert a tag: RX untags without it. */
		fprintf(stderr, "tagpipe-replay: note: --tagger %s without --switch-cpu-port: "
			"frames sent with a tag (tx, redirect to a port) are dropped "
			"(dsa_no_config)\n", o->tagger);
		c.flags |= TP_DSA_CONF_F_CPU_PORT;
	}
	saved = replay_stderr_mute();
	rc = tp_dsa_conf_check(t, &c);
	replay_stderr_restore(saved);
	if (rc == 0)
		return 0;
	replay_err("--tagger: '%s' refuses --switch-cpu-port %d", o->tagger,
		   o->switch_cpu_port);
	return -EINVAL;
}

static int
parse_vlan(const char *val, struct replay_opts *o)
{
	if (strcmp(val, "strip") != 0 && strcmp(val, "keep") != 0) {
		replay_err("--vlan: '%s' is not strip or keep", val);
		return -EINVAL;
	}
	o->vlan = val;
	return 0;
}

/* "8100,88a8" or "0x9100": hex EtherTypes (>= 0x0600, else a length). */
static int
parse_tpids(const char *val, struct replay_opts *o)
{
	const char *s = val;

	o->nb_tpids = 0;
	for (;;) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(s, &end, 16);
		if (end == s || (*end != ',' && *end != '\0') || errno != 0 ||
		    *s == '-' || *s == '+' || v < 0x0600 || v > 0xffff) {
			replay_err("--vlan-tpid: bad TPID '%.*s' in '%s' (hex 0600..ffff)",
				   (int)strcspn(s, ","), s, val);
			return -EINVAL;
		}
		if (o->nb_tpids == REPLAY_MAX_TPIDS) {
			replay_err("--vlan-tpid: more than %d TPIDs in '%s'",
				   REPLAY_MAX_TPIDS, val);
			return -EINVAL;
		}
		o->tpids[o->nb_tpids++] = (uint16_t)v;
		if (*end == '\0')
			return 0;
		s = end + 1;
	}
}

/* off | burst | age:USEC (cli_syntax.h; "on" is burst). */
static int
parse_gro(const char *val, struct replay_opts *o)
{
	enum cli_gro_mode mode;
	uint32_t us;
	char err[160];

	if (cli_parse_gro(val, &mode, &us, err, sizeof(err)) < 0) {
		replay_err("--gro: %s", err);
		return -EINVAL;
	}
	o->gro_conf.mode = mode == CLI_GRO_OFF ? TP_GRO_OFF :
			   mode == CLI_GRO_BURST ? TP_GRO_BURST : TP_GRO_AGE;
	o->gro_conf.age_usec = us;
	o->gro_age_us = us;
	o->gro = val;
	return 0;
}

/* Open the program now (name and argument, e.g. the ACL file, checked
 * before DPDK starts); the pipeline shares it. */
static int
parse_verdict(const char *val, struct replay_opts *o)
{
	char err[256] = "", names[512];
	size_t n = strcspn(val, ":");
	int rc;

	tp_prog_close(o->prog);
	o->prog = NULL;
	rc = tp_prog_open(val, &o->prog, err, sizeof(err));
	if (rc == 0) {
		o->verdict = val;
		return 0;
	}
	/* An XDP object (FILE.o[:SECTION]): its loader's error says what. */
	if (strstr(val, ".o") == NULL &&
	    (n == 0 || n >= 64 || tp_prog_find(strndupa(val, n)) == NULL)) {
		tp_prog_names(names, sizeof(names));
		replay_err("--verdict: unknown program '%.*s' (valid: %s)", (int)n, val, names);
	} else {
		replay_err("--verdict: %s", err[0] ? err : strerror(-rc));
	}
	return -EINVAL;
}

/* KEY=port:P[,queue:Q][,switch_port:S] (cli_syntax.h) */
static int
parse_redirect(const char *val, struct replay_opts *o)
{
	struct cli_redirect r;
	char err[256];

	if (o->nb_redirects == REPLAY_MAX_REDIRECTS) {
		replay_err("--redirect: more than %d entries", REPLAY_MAX_REDIRECTS);
		return -EINVAL;
	}
	if (cli_parse_redirect(val, TP_PIPELINE_MAX_PORTS - 1, &r, err, sizeof(err)) < 0) {
		replay_err("--redirect: %s", err);
		return -EINVAL;
	}
	if (r.old_syntax) {
		cli_redirect_form(&r, err, sizeof(err));
		fprintf(stderr, "tagpipe-replay: note: --redirect %s: old spelling, write %s\n",
			val, err);
	}
	o->redirects[o->nb_redirects++] = (struct replay_redirect){
		.key = r.key, .port = r.port, .queue = r.queue, .switch_port = r.switch_port,
	};
	return 0;
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
	OPT_WRITE, OPT_META, OPT_STATS, OPT_GRO_FLOWS, OPT_COMPARE, OPT_JSON,
	OPT_VLAN_TPID, OPT_REDIRECT, OPT_VIA_PORT, OPT_GRO_CSUM, OPT_GRO_ORDER, OPT_GRO_TUNNELS, OPT_GRO_UDP, OPT_CPU_PORT,
	OPT_BPF_UNVERIFIED, OPT_WRITE_FORMAT, OPT_BPF_MAP, OPT_VERSION, OPT_BPF_ROUTE,
	OPT_WORKERS,
};

/* --workers measures the pipeline per lcore: what would need one writer
 * fed by all workers (output captures, --meta rows in input order), or
 * one port, or a second engine after the run, stays single-lcore. */
static int
check_workers(const struct replay_opts *o)
{
	const char *other = o->meta != NULL ? "--meta" : o->via_port != NULL ? "--via-port" :
			    o->compare_dpdk_gro ? "--compare" : NULL;

	if (o->workers == 0)
		return 0;
	for (int v = 0; v < REPLAY_NB_VERDICTS && other == NULL; v++)
		if (o->write[v] != NULL)
			other = "--write";
	if (other == NULL)
		return 0;
	replay_err("--workers %u: not with %s (it needs the frames of all workers in one "
		   "place; run without --workers)", o->workers, other);
	return -EINVAL;
}

static bool
is_stdout(const char *path)
{
	return path != NULL && strcmp(path, "-") == 0;
}

/* At most one document on stdout, so that it parses as one; the human
 * summary moves to stderr then. */
static int
choose_stdout(struct replay_opts *o, bool quiet)
{
	const char *const names[] = { "--meta", "--stats", "--json" };
	const char *const paths[] = { o->meta, o->stats, o->json };
	const char *first = NULL;

	for (unsigned int i = 0; i < RTE_DIM(names); i++) {
		if (!is_stdout(paths[i]))
			continue;
		if (first != NULL) {
			replay_err("%s - and %s - both want stdout; give one a FILE", first,
				   names[i]);
			return -EINVAL;
		}
		first = names[i];
	}
	o->summary = quiet ? NULL : first != NULL ? stderr : stdout;
	return 0;
}

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
		{ "gro-flows", required_argument, NULL, OPT_GRO_FLOWS },
		{ "compare", required_argument, NULL, OPT_COMPARE },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "vlan-tpid", required_argument, NULL, OPT_VLAN_TPID },
		{ "redirect", required_argument, NULL, OPT_REDIRECT },
		{ "via-port", required_argument, NULL, OPT_VIA_PORT },
		{ "gro-csum", required_argument, NULL, OPT_GRO_CSUM },
		{ "gro-order", required_argument, NULL, OPT_GRO_ORDER },
		{ "gro-tunnels", required_argument, NULL, OPT_GRO_TUNNELS },
		{ "gro-udp", no_argument, NULL, OPT_GRO_UDP },
		{ "bpf-unverified", no_argument, NULL, OPT_BPF_UNVERIFIED },
		{ "bpf-map", required_argument, NULL, OPT_BPF_MAP },
		{ "bpf-route", required_argument, NULL, OPT_BPF_ROUTE },
		{ "switch-cpu-port", required_argument, NULL, OPT_CPU_PORT },
		{ "quiet", no_argument, NULL, 'q' },
		{ "write-format", required_argument, NULL, OPT_WRITE_FORMAT },
		{ "workers", required_argument, NULL, OPT_WORKERS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *maps[REPLAY_MAX_BPF_MAPS], *routes[REPLAY_MAX_BPF_MAPS];
	unsigned int nb_maps = 0, nb_routes = 0;
	bool quiet = false;
	unsigned long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->burst = 32;
	o->loops = 1;
	/* Defaults of issue 2 item 8: the full pipeline, verdict pass. */
	o->tagger = "none";
	o->vlan = "strip";
	o->verdict = "pass";
	parse_gro("burst", o);
	if (parse_verdict("pass", o) < 0)
		return -EINVAL;
	o->gro_flows = 1024;
	o->gro_conf.max_flows = 1024;
	o->switch_cpu_port = -1;
	o->write_format = -1;

	/* --bpf-unverified must hold for a --verdict given before it too. */
	for (int a = 1; a < argc && strcmp(argv[a], "--") != 0; a++)
		if (strcmp(argv[a], "--bpf-unverified") == 0) {
#ifdef TP_HAS_BPF
			tp_prog_bpf_set_verify(TP_BPF_VERIFY_OFF);
#else
			replay_err("--bpf-unverified: built without lib/bpf (-Dbpf=disabled)");
			return -EINVAL;
#endif
		}
	opterr = 0;
	/* 0, not 1: glibc's getopt then forgets the position inside a
	 * cluster of short options of an earlier parse ("A program that
	 * scans multiple argument vectors ... must reinitialize getopt by
	 * resetting optind to 0", getopt(3)); a second parse in one process
	 * would otherwise resume in the first one's strings */
	optind = 0;
	while ((c = getopt_long(argc, argv, ":i:hq", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (o->nb_inputs == REPLAY_MAX_INPUTS) {
				replay_err("-i: more than %d inputs", REPLAY_MAX_INPUTS);
				return -EINVAL;
			}
			o->inputs[o->nb_inputs++] = optarg;
			break;
		case OPT_BURST:
			if (parse_ulong("--burst", optarg, 1, TP_PIPELINE_MAX_BURST, &v) < 0)
				return -EINVAL;
			o->burst = (unsigned int)v;
			break;
		case OPT_LOOPS:
			if (parse_ulong("--loops", optarg, 1, ULONG_MAX / 2, &v) < 0)
				return -EINVAL;
			o->loops = v;
			break;
		case OPT_TAGGER:
			if (parse_tagger(optarg, o) < 0)
				return -EINVAL;
			break;
		case OPT_VLAN:
			if (parse_vlan(optarg, o) < 0)
				return -EINVAL;
			break;
		case OPT_VLAN_TPID:
			if (parse_tpids(optarg, o) < 0)
				return -EINVAL;
			break;
		case OPT_GRO:
			if (parse_gro(optarg, o) < 0)
				return -EINVAL;
			break;
		case OPT_VERDICT:
			if (parse_verdict(optarg, o) < 0)
				return -EINVAL;
			break;
		case OPT_BPF_UNVERIFIED:
			break; /* applied before the loop */
		case OPT_BPF_MAP:
			if (nb_maps == REPLAY_MAX_BPF_MAPS) {
				replay_err("--bpf-map: more than %d", REPLAY_MAX_BPF_MAPS);
				return -EINVAL;
			}
			maps[nb_maps++] = optarg;
			break;
		case OPT_BPF_ROUTE:
			if (nb_routes == REPLAY_MAX_BPF_MAPS) {
				replay_err("--bpf-route: more than %d", REPLAY_MAX_BPF_MAPS);
				return -EINVAL;
			}
			routes[nb_routes++] = optarg;
			break;
		case OPT_REDIRECT:
			if (parse_redirect(optarg, o) < 0)
				return -EINVAL;
			break;
		case OPT_CPU_PORT:
			if (parse_ulong("--switch-cpu-port", optarg, 0, 255, &v) < 0)
				return -EINVAL;
			o->switch_cpu_port = (int)v;
			break;
		case OPT_GRO_ORDER:
			if (strcmp(optarg, "flow") != 0 && strcmp(optarg, "kernel") != 0) {
				replay_err("--gro-order: '%s' is not flow or kernel", optarg);
				return -EINVAL;
			}
			o->gro_conf.kernel_order = strcmp(optarg, "kernel") == 0;
			break;
		case OPT_GRO_TUNNELS: {
			char err[160];

			if (cli_parse_gro_tunnels(optarg, &o->gro_conf.tunnels,
						  o->gro_conf.vxlan_ports, err, sizeof(err)) < 0) {
				replay_err("--gro-tunnels: %s", err);
				return -EINVAL;
			}
			break;
		}
		case OPT_GRO_UDP:
			o->gro_conf.udp = true;
			break;
		case OPT_GRO_CSUM:
			if (strcmp(optarg, "verify") != 0 && strcmp(optarg, "trust") != 0) {
				replay_err("--gro-csum: '%s' is not verify or trust", optarg);
				return -EINVAL;
			}
			o->gro_conf.no_sw_csum = strcmp(optarg, "trust") == 0;
			o->gro_csum_given = true;
			break;
		case OPT_VIA_PORT:
			o->via_port = optarg;
			break;
		case OPT_WRITE:
			if (parse_write(optarg, o) < 0)
				return -EINVAL;
			break;
		case OPT_META:
			o->meta = optarg;
			break;
		case OPT_WRITE_FORMAT:
			if (strcmp(optarg, "pcap") != 0 && strcmp(optarg, "pcapng") != 0) {
				replay_err("--write-format: '%s' is not pcap or pcapng", optarg);
				return -EINVAL;
			}
			o->write_format = strcmp(optarg, "pcapng") == 0;
			break;
		case OPT_STATS:
			o->stats = optarg;
			break;
		case OPT_GRO_FLOWS:
			/* tp_gro_conf.max_flows is 1..65535; DPDK's max_flow_num
			 * is a uint16_t too. */
			if (parse_ulong("--gro-flows", optarg, 1, 65535, &v) < 0)
				return -EINVAL;
			o->gro_flows = (unsigned int)v;
			o->gro_conf.max_flows = (uint32_t)v;
			break;
		case OPT_COMPARE:
			if (strcmp(optarg, "dpdk-gro") != 0) {
				replay_err("--compare: unknown engine '%s' (only dpdk-gro)", optarg);
				return -EINVAL;
			}
			o->compare_dpdk_gro = true;
			break;
		case OPT_JSON:
			o->json = optarg;
			break;
		case OPT_WORKERS:
			if (parse_ulong("--workers", optarg, 1, RTE_MAX_LCORE, &v) < 0)
				return -EINVAL;
			o->workers = (unsigned int)v;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			replay_usage(stdout, argv[0]);
			exit(0);
		case OPT_VERSION:
			cli_print_version("tagpipe-replay");
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
	if (choose_stdout(o, quiet) < 0)
		return -EINVAL;
	if (check_tagger_conf(o) < 0)
		return -EINVAL;
	/* librte_gro checks no checksum: a comparison trusts them on both
	 * sides unless asked otherwise (the report says so). */
	if (o->compare_dpdk_gro && !o->gro_csum_given)
		o->gro_conf.no_sw_csum = true;
	if (o->nb_inputs == 0) {
		replay_err("no input: give at least one -i FILE.pcap");
		return -EINVAL;
	}
	if (check_workers(o) < 0)
		return -EINVAL;
	/* after every option: the map belongs to the last --verdict */
#ifndef TP_HAS_BPF
	(void)maps;
	(void)routes;
	if (nb_maps > 0 || nb_routes > 0) {
		replay_err("--bpf-map/--bpf-route: built without lib/bpf (-Dbpf=disabled)");
		return -EINVAL;
	}
#else
	for (unsigned int i = 0; i < nb_maps; i++) {
		char err[256];

		if (tp_prog_bpf_map_update_text(o->prog, maps[i], err, sizeof(err)) < 0) {
			replay_err("--bpf-map: %s", err);
			return -EINVAL;
		}
	}
	for (unsigned int i = 0; i < nb_routes; i++) {
		char err[256];

		if (tp_prog_bpf_route_add(o->prog, routes[i], err, sizeof(err)) < 0) {
			replay_err("--bpf-route: %s", err);
			return -EINVAL;
		}
	}
#endif
	return 0;
}
