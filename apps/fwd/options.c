/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-fwd command line (after the EAL's "--"), in testpmd's spelling
 * where testpmd has the option. Every bad value ends the program with one
 * line naming it and exit status 2.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

#include "tp_eal.h"

#include "cli_syntax.h"
#include "fwd.h"
#include "host_if.h"
#include "tagpipe.h"

void
fwd_err(const char *fmt, ...)
{
	va_list ap;

	fputs("tagpipe-fwd: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Set while fwd_options_try_parse runs: a bad value jumps back to it
 * instead of ending the program (parsing allocates nothing, so nothing
 * is left behind). */
static jmp_buf *parse_escape;

static void __rte_noreturn
usage_exit(const char *fmt, ...)
{
	va_list ap;

	fputs("tagpipe-fwd: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see --help)\n", stderr);
	if (parse_escape != NULL)
		longjmp(*parse_escape, 1);
	if (fwd_eal_started)
		tp_eal_cleanup();
	exit(FWD_EXIT_USAGE);
}

static void
usage(void)
{
	char modes[128];

	printf("usage: tagpipe-fwd [EAL options] -- [options]\n"
	       "       tagpipe-fwd [EAL options]   (EAL options alone need no --)\n"
	       "  -i, --interactive          interactive prompt\n"
	       "  --stats-period SEC         print stats every SEC seconds (0: only at exit)\n"
	       "  --forward-mode MODE        %s (default %s)\n"
	       "  --port-topology paired|chained|loop   (default paired)\n"
	       "  --rxq N                    RX queues per port (1..%d, RSS when N > 1)\n"
	       "  --txq N                    TX queues per port (default: one per lcore)\n"
	       "  --rxd N, --txd N           descriptors per queue (default 1024)\n"
	       "  --nb-cores N               forwarding lcores (one per RX queue at most)\n"
	       "  --burst N                  frames per burst (1..%d, default 32)\n"
	       "  --total-num-mbufs N        mbufs in the pool\n"
	       "  --mbuf-size N              an mbuf's data room, headroom included\n"
	       "                             (default %u)\n"
	       "  --max-pkt-len N            the ports' largest frame, Ethernet header\n"
	       "                             and CRC included: MTU N - 18 (default: the\n"
	       "                             port's own MTU)\n"
	       "  --txpkts LEN               txonly frame length (42..1514, default 64)\n"
	       "  --eth-peer PORT,MAC        peer address for mac and txonly modes\n"
	       "  --port-tagger PORT:NAME    DSA tagger on PORT (pipeline mode)\n"
	       "  --port-vlan PORT:strip|keep  VLAN/QinQ on PORT (pipeline mode, default strip)\n"
	       "  --gro off|burst|age:USEC   GRO (pipeline mode, default burst: merges\n"
	       "                             within a burst; age: held across bursts up\n"
	       "                             to USEC, 1..%u; on = burst)\n"
	       "  --gro-flows N (1..65535), --gro-max-segs N (1..64)   GRO limits\n"
	       "  --gro-tunnels off|all|vxlan[:PORT[+PORT]],geneve,ipip   GRO inside tunnels\n"
	       "  --gro-udp                  UDP GRO as rx-udp-gro-forwarding\n"
	       "  --gro-order flow|kernel    output order: each flow in arrival order\n"
	       "                             (default), or exactly the Linux kernel's\n"
	       "  --gso on|off               re-segment merged packets on egress (default on)\n"
	       "  --record-stage-cycles      count TSC cycles per pipeline stage (show pipeline\n"
	       "                             stats: cycles/mbuf; off by default, it costs)\n"
	       "  --record-core-cycles       count the forwarding lcores' busy TSC cycles\n"
	       "                             (forward stats: CPU cycles/packet, as testpmd)\n"
	       "  --record-burst-stats       count RX bursts by size (forward stats: RX-bursts)\n"
	       "  --verdict NAME[:ARG]       verdict program (pipeline mode): pass, drop, tx,\n"
	       "                             redirect:N, by-switch-port, acl:FILE, ...\n"
	       "                             or an XDP object FILE.o[:SECTION] (docs/xdp.md)\n"
	       "  --bpf-unverified           run XDP objects without asking the kernel verifier\n"
	       "  --bpf-map NAME:KEY=VALUE   set an element of the XDP object's map (hex bytes)\n"
	       "  --bpf-route 'ROUTE'        a route for the XDP object's bpf_fib_lookup:\n"
	       "                             [blackhole|unreachable|prohibit] PREFIX[/LEN]\n"
	       "                             [via GW] dev PORT [lladdr MAC] [smac MAC] [src A]\n"
	       "                             [mtu N] [metric N] (ip-route(8) words)\n"
	       "  --redirect KEY=port:P[,switch_port:S]   redirect map entry (repeatable)\n"
	       "  --cmdline-file FILE        run prompt commands from FILE first (as typed),\n"
	       "                             then the prompt (-i) or forwarding\n"
	       "  --host-if PORT:SWITCH_PORT=NAME[,...]   a Linux interface NAME for a\n"
	       "                             switch port of PORT (pipeline mode: its PASS\n"
	       "                             packets, merged, go there; what the host sends\n"
	       "                             there leaves PORT with its tag; repeatable)\n"
	       "  -h, --help                 this text\n"
	       "  --version                  tagpipe and DPDK versions\n",
	       fwd_engine_list(modes, sizeof(modes), '|'), fwd_engines[0]->name,
	       FWD_MAX_QUEUES, FWD_MAX_BURST, (unsigned int)RTE_MBUF_DEFAULT_BUF_SIZE,
	       CLI_GRO_AGE_MAX_US);
}

static unsigned long
parse_num(const char *opt, const char *s, unsigned long lo, unsigned long hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s == '\0' || *s == '-' || *s == '+' || *end != '\0' || errno != 0 ||
	    v < lo || v > hi)
		usage_exit("%s: bad value '%s' (expected %lu..%lu)", opt, s, lo, hi);
	return v;
}

static bool
parse_onoff(const char *opt, const char *s)
{
	if (strcmp(s, "on") == 0)
		return true;
	if (strcmp(s, "off") == 0)
		return false;
	usage_exit("%s: bad value '%s' (expected on or off)", opt, s);
}

/* "PORT<sep>REST": returns the port, *rest points after the separator. */
static uint16_t
parse_port_prefix(const char *opt, const char *s, char sep, const char **rest)
{
	char buf[16];
	const char *p = strchr(s, sep);
	size_t n = p ? (size_t)(p - s) : 0;

	if (p == NULL || n == 0 || n >= sizeof(buf) || p[1] == '\0')
		usage_exit("%s: bad value '%s' (expected PORT%cVALUE)", opt, s, sep);
	memcpy(buf, s, n);
	buf[n] = '\0';
	*rest = p + 1;
	return (uint16_t)parse_num(opt, buf, 0, FWD_MAX_PORTS - 1);
}

/* KEY=port:P[,switch_port:S] (cli_syntax.h); KEY:PORT[:SWITCH_PORT], the
 * first spelling, still works with a note. */
static void
parse_redirect(struct fwd_options *o, const char *s)
{
	struct fwd_redirect *r;
	struct cli_redirect cr;
	char err[256];

	if (o->nb_redirects == FWD_MAX_REDIRECTS)
		usage_exit("--redirect: too many entries at '%s' (at most %d)", s,
			   FWD_MAX_REDIRECTS);
	if (cli_parse_redirect(s, FWD_MAX_PORTS - 1, &cr, err, sizeof(err)) < 0)
		usage_exit("--redirect: %s", err);
	/* Each forwarding lcore transmits on its own TX queue. */
	if (cr.queue_given)
		usage_exit("--redirect: '%s': queue: is not for tagpipe-fwd (each "
			   "forwarding lcore sends on its own TX queue)", s);
	if (cr.old_syntax) {
		cli_redirect_form(&cr, err, sizeof(err));
		fprintf(stderr, "tagpipe-fwd: note: --redirect %s: old spelling, write %s\n",
			s, err);
	}
	r = &o->redirect[o->nb_redirects++];
	r->key = cr.key;
	r->port = cr.port;
	r->switch_port = cr.switch_port;
}

enum {
	OPT_STATS_PERIOD = 256, OPT_FWD_MODE, OPT_TOPOLOGY, OPT_RXQ, OPT_TXQ,
	OPT_RXD, OPT_TXD, OPT_NB_CORES, OPT_BURST, OPT_NB_MBUFS, OPT_TXPKTS,
	OPT_ETH_PEER, OPT_PORT_TAGGER, OPT_PORT_VLAN, OPT_GRO, OPT_GRO_FLOWS,
	OPT_GRO_SEGS, OPT_GRO_AGE, OPT_GRO_ORDER, OPT_GRO_TUNNELS, OPT_GRO_UDP, OPT_GSO, OPT_VERDICT, OPT_REDIRECT,
	OPT_BPF_UNVERIFIED, OPT_BPF_MAP, OPT_BPF_ROUTE, OPT_VERSION, OPT_CMDLINE_FILE,
	OPT_STAGE_CYCLES,
	OPT_CORE_CYCLES,
	OPT_BURST_STATS,
	OPT_HOST_IF,
	OPT_MAX_PKT_LEN, OPT_MBUF_SIZE,
};

static const struct option long_opts[] = {
	{ "interactive", no_argument, NULL, 'i' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "stats-period", required_argument, NULL, OPT_STATS_PERIOD },
	{ "forward-mode", required_argument, NULL, OPT_FWD_MODE },
	{ "port-topology", required_argument, NULL, OPT_TOPOLOGY },
	{ "rxq", required_argument, NULL, OPT_RXQ },
	{ "txq", required_argument, NULL, OPT_TXQ },
	{ "rxd", required_argument, NULL, OPT_RXD },
	{ "txd", required_argument, NULL, OPT_TXD },
	{ "nb-cores", required_argument, NULL, OPT_NB_CORES },
	{ "burst", required_argument, NULL, OPT_BURST },
	{ "total-num-mbufs", required_argument, NULL, OPT_NB_MBUFS },
	{ "max-pkt-len", required_argument, NULL, OPT_MAX_PKT_LEN },
	{ "mbuf-size", required_argument, NULL, OPT_MBUF_SIZE },
	{ "txpkts", required_argument, NULL, OPT_TXPKTS },
	{ "eth-peer", required_argument, NULL, OPT_ETH_PEER },
	{ "port-tagger", required_argument, NULL, OPT_PORT_TAGGER },
	{ "port-vlan", required_argument, NULL, OPT_PORT_VLAN },
	{ "gro", required_argument, NULL, OPT_GRO },
	{ "gro-max-flows", required_argument, NULL, OPT_GRO_FLOWS },
	{ "gro-flows", required_argument, NULL, OPT_GRO_FLOWS },
	{ "gro-max-segs", required_argument, NULL, OPT_GRO_SEGS },
	{ "gro-age", required_argument, NULL, OPT_GRO_AGE },
	{ "gro-order", required_argument, NULL, OPT_GRO_ORDER },
	{ "gro-tunnels", required_argument, NULL, OPT_GRO_TUNNELS },
	{ "gro-udp", no_argument, NULL, OPT_GRO_UDP },
	{ "gso", required_argument, NULL, OPT_GSO },
	{ "verdict", required_argument, NULL, OPT_VERDICT },
	{ "redirect", required_argument, NULL, OPT_REDIRECT },
	{ "bpf-unverified", no_argument, NULL, OPT_BPF_UNVERIFIED },
	{ "bpf-map", required_argument, NULL, OPT_BPF_MAP },
	{ "bpf-route", required_argument, NULL, OPT_BPF_ROUTE },
	{ "cmdline-file", required_argument, NULL, OPT_CMDLINE_FILE },
	{ "record-stage-cycles", no_argument, NULL, OPT_STAGE_CYCLES },
	{ "record-core-cycles", no_argument, NULL, OPT_CORE_CYCLES },
	{ "record-burst-stats", no_argument, NULL, OPT_BURST_STATS },
	{ "host-if", required_argument, NULL, OPT_HOST_IF },
	{ NULL, 0, NULL, 0 },
};

static void
parse_one(struct fwd_options *o, int c, const char *a)
{
	const char *rest;
	uint16_t port;

	switch (c) {
	case 'i': o->interactive = true; break;
	case OPT_STATS_PERIOD:
		o->stats_period = (unsigned int)parse_num("--stats-period", a, 0, 86400);
		break;
	case OPT_FWD_MODE:
		o->engine = fwd_engine_find(a);
		if (o->engine == NULL) {
			char modes[128];

			usage_exit("--forward-mode: unknown mode '%s' (one of %s)", a,
				   fwd_engine_list(modes, sizeof(modes), ' '));
		}
		break;
	case OPT_TOPOLOGY:
		if (strcmp(a, "paired") == 0)
			o->topology = FWD_TOPO_PAIRED;
		else if (strcmp(a, "chained") == 0)
			o->topology = FWD_TOPO_CHAINED;
		else if (strcmp(a, "loop") == 0)
			o->topology = FWD_TOPO_LOOP;
		else
			usage_exit("--port-topology: bad value '%s' (paired, chained or loop)", a);
		break;
	case OPT_RXQ: o->nb_rxq = (uint16_t)parse_num("--rxq", a, 1, FWD_MAX_QUEUES); break;
	case OPT_TXQ: o->nb_txq = (uint16_t)parse_num("--txq", a, 1, FWD_MAX_QUEUES); break;
	case OPT_RXD: o->nb_rxd = (uint16_t)parse_num("--rxd", a, 32, 32768); break;
	case OPT_TXD: o->nb_txd = (uint16_t)parse_num("--txd", a, 32, 32768); break;
	case OPT_NB_CORES:
		o->nb_cores = (unsigned int)parse_num("--nb-cores", a, 1, RTE_MAX_LCORE - 1);
		break;
	case OPT_BURST: o->burst = (uint16_t)parse_num("--burst", a, 1, FWD_MAX_BURST); break;
	case OPT_NB_MBUFS:
		o->nb_mbufs = (uint32_t)parse_num("--total-num-mbufs", a, 1024, 1u << 24);
		break;
	case OPT_MAX_PKT_LEN:
		/* testpmd's: the largest frame, Ethernet header and CRC included */
		o->max_pkt_len = (uint32_t)parse_num("--max-pkt-len", a, RTE_ETHER_MIN_LEN,
						     UINT16_MAX);
		break;
	case OPT_MBUF_SIZE:
		/* testpmd's: an mbuf's data room, its headroom included */
		o->mbuf_size = (uint16_t)parse_num("--mbuf-size", a,
						   RTE_PKTMBUF_HEADROOM + RTE_ETHER_MIN_LEN,
						   UINT16_MAX);
		break;
	case OPT_TXPKTS:
		o->txpkt_len = (uint16_t)parse_num("--txpkts", a, 42, RTE_ETHER_MAX_LEN -
						   RTE_ETHER_CRC_LEN);
		break;
	case OPT_ETH_PEER:
		port = parse_port_prefix("--eth-peer", a, ',', &rest);
		if (rte_ether_unformat_addr(rest, &o->peer[port]) != 0)
			usage_exit("--eth-peer: bad MAC address '%s'", rest);
		o->peer_set[port] = true;
		break;
	case OPT_PORT_TAGGER:
		port = parse_port_prefix("--port-tagger", a, ':', &rest);
		if (strlen(rest) >= FWD_MAX_TAGGER_NAME)
			usage_exit("--port-tagger: tagger name too long '%s'", rest);
		strcpy(o->port[port].tagger, rest);
		o->port_set[port] = true;
		break;
	case OPT_PORT_VLAN:
		port = parse_port_prefix("--port-vlan", a, ':', &rest);
		if (strcmp(rest, "strip") == 0)
			o->port[port].vlan = FWD_VLAN_STRIP;
		else if (strcmp(rest, "keep") == 0)
			o->port[port].vlan = FWD_VLAN_KEEP;
		else
			usage_exit("--port-vlan: bad value '%s' (strip or keep)", rest);
		o->port_set[port] = true;
		break;
	case OPT_GRO: {
		enum cli_gro_mode mode;
		uint32_t us;
		char err[160];

		if (cli_parse_gro(a, &mode, &us, err, sizeof(err)) < 0)
			usage_exit("--gro: %s", err);
		o->gro.on = mode != CLI_GRO_OFF;
		if (mode != CLI_GRO_BURST || strcmp(a, "burst") == 0)
			o->gro.age_usec = us;
		break;
	}
	case OPT_GRO_FLOWS:
		/* tp_gro_conf.max_flows' range, as tagpipe-replay's --gro-flows. */
		o->gro.max_flows = (uint32_t)parse_num("--gro-flows", a, 1, 65535);
		break;
	case OPT_GRO_SEGS:
		o->gro.max_segs = (uint32_t)parse_num("--gro-max-segs", a, 1, 64);
		break;
	case OPT_GRO_AGE:
		/* The first spelling of --gro age:USEC (0: within a burst). */
		o->gro.age_usec = (uint32_t)parse_num("--gro-age", a, 0, CLI_GRO_AGE_MAX_US);
		fprintf(stderr, "tagpipe-fwd: note: --gro-age %s: old spelling, write "
			"--gro %s%s\n", a, o->gro.age_usec ? "age:" : "burst",
			o->gro.age_usec ? a : "");
		break;
	case OPT_GRO_TUNNELS: {
		char err[160];

		if (cli_parse_gro_tunnels(a, &o->gro.tunnels, o->gro.vxlan_ports, err,
					  sizeof(err)) < 0)
			usage_exit("--gro-tunnels: %s", err);
		break;
	}
	case OPT_GRO_UDP:
		o->gro.udp = true;
		break;
	case OPT_GRO_ORDER:
		if (strcmp(a, "flow") != 0 && strcmp(a, "kernel") != 0)
			usage_exit("--gro-order: bad value '%s' (flow or kernel)", a);
		o->gro.kernel_order = strcmp(a, "kernel") == 0;
		break;
	case OPT_GSO: o->gso = parse_onoff("--gso", a); break;
	case OPT_STAGE_CYCLES: o->stage_cycles = true; break;
	case OPT_CORE_CYCLES: o->core_cycles = true; break;
	case OPT_BURST_STATS: o->burst_stats = true; break;
	case OPT_VERDICT:
		if (strlen(a) == 0 || strlen(a) >= FWD_MAX_VERDICT)
			usage_exit("--verdict: bad value '%s'", a);
		strcpy(o->verdict, a);
		break;
	case OPT_REDIRECT: parse_redirect(o, a); break;
#ifdef TP_HAS_BPF
	case OPT_BPF_UNVERIFIED: tp_prog_bpf_set_verify(TP_BPF_VERIFY_OFF); break;
#else
	case OPT_BPF_UNVERIFIED: usage_exit("--bpf-unverified: built without lib/bpf (-Dbpf=disabled)");
#endif
	case OPT_BPF_MAP:
		if (o->nb_bpf_maps == FWD_MAX_BPF_MAPS)
			usage_exit("--bpf-map: more than %d", FWD_MAX_BPF_MAPS);
		o->bpf_map[o->nb_bpf_maps++] = a;
		break;
	case OPT_BPF_ROUTE:
		if (o->nb_bpf_routes == FWD_MAX_BPF_MAPS)
			usage_exit("--bpf-route: more than %d", FWD_MAX_BPF_MAPS);
		o->bpf_route[o->nb_bpf_routes++] = a;
		break;
	case OPT_CMDLINE_FILE:
		/* Checked now, so a typo costs no EAL start. */
		if (access(a, R_OK) != 0)
			usage_exit("--cmdline-file: cannot read '%s': %s", a, strerror(errno));
		o->cmdline_file = a;
		break;
	case OPT_HOST_IF: {
		char err[256];

		if (fwd_host_if_parse(o, a, err, sizeof(err)) < 0)
			usage_exit("--host-if: %s", err);
		break;
	}
	default:
		usage_exit("internal: option %d", c);
	}
}

void
fwd_options_parse(int argc, char **argv, const char *prog, struct fwd_options *o)
{
	char *args[argc + 2];
	int c;

	memset(o, 0, sizeof(*o));
	o->engine = fwd_engines[0];
	o->nb_rxq = 1;
	o->nb_rxd = 1024;
	o->nb_txd = 1024;
	o->burst = 32;
	o->txpkt_len = 64;
	o->gro.on = true;
	o->gso = true;
	o->topology = FWD_TOPO_PAIRED;

	/* getopt wants the program name in front; it may permute args[]. */
	args[0] = (char *)(uintptr_t)prog;
	memcpy(&args[1], argv, sizeof(*argv) * (size_t)argc);
	args[argc + 1] = NULL;
	argc++;
	argv = args;
	opterr = 0;
	/* 0, not 1: glibc's getopt then forgets the position inside a
	 * cluster of short options of an earlier parse ("A program that
	 * scans multiple argument vectors ... must reinitialize getopt by
	 * resetting optind to 0", getopt(3)); a second parse in one process
	 * would otherwise resume in the first one's strings */
	optind = 0;
	while ((c = getopt_long(argc, argv, ":ih", long_opts, NULL)) != -1) {
		if (c == 'h') {
			usage();
			exit(0);
		}
		if (c == OPT_VERSION) {
			cli_print_version("tagpipe-fwd");
			exit(0);
		}
		if (c == '?')
			usage_exit("unknown option '%s'", argv[optind - 1]);
		if (c == ':')
			usage_exit("option '%s' needs a value", argv[optind - 1]);
		parse_one(o, c, optarg);
	}
	if (optind < argc)
		usage_exit("unexpected argument '%s'", argv[optind]);
}

int
fwd_options_try_parse(int argc, char **argv, const char *prog, struct fwd_options *o)
{
	jmp_buf escape;

	if (setjmp(escape) != 0) {
		parse_escape = NULL;
		return -EINVAL;
	}
	parse_escape = &escape;
	fwd_options_parse(argc, argv, prog, o);
	parse_escape = NULL;
	return 0;
}

void
fwd_options_check(const struct fwd_options *o, uint16_t nb_ports,
		  unsigned int nb_workers)
{
	if (nb_ports == 0)
		usage_exit("no ports: give some with the EAL (e.g. --vdev net_ring0)");
	if (nb_ports > FWD_MAX_PORTS)
		usage_exit("%u ports: at most %d are supported", nb_ports, FWD_MAX_PORTS);
	for (unsigned int p = nb_ports; p < FWD_MAX_PORTS; p++) {
		if (o->port_set[p])
			usage_exit("port %u: no such port (there are %u)", p, nb_ports);
		if (o->peer_set[p])
			usage_exit("--eth-peer: no such port %u (there are %u)", p, nb_ports);
	}
	for (unsigned int i = 0; i < o->nb_redirects; i++)
		if (o->redirect[i].port >= nb_ports)
			usage_exit("--redirect: no such port %u (there are %u)",
				   o->redirect[i].port, nb_ports);
	if (nb_workers == 0)
		usage_exit("no forwarding lcore: give the EAL at least two (e.g. -l 0-1)");
	if (o->nb_cores > nb_workers)
		usage_exit("--nb-cores %u: only %u forwarding lcores (EAL -l)",
			   o->nb_cores, nb_workers);
	if (o->nb_cores > (unsigned int)nb_ports * o->nb_rxq)
		usage_exit("--nb-cores %u: more than the %u RX queues to serve",
			   o->nb_cores, nb_ports * o->nb_rxq);
	if (o->nb_txq != 0 && o->nb_txq < (o->nb_cores ? o->nb_cores : 1))
		usage_exit("--txq %u: fewer than the %u forwarding lcores (one TX queue each)",
			   o->nb_txq, o->nb_cores);
	{
		char err[1600];

		if (fwd_pipeline_check_options(o, err, sizeof(err)) < 0)
			usage_exit("%s", err);
	}
	{
		char err[256];

		if (fwd_host_if_check(o, nb_ports, err, sizeof(err)) < 0)
			usage_exit("%s", err);
	}
}
