/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The prompt commands a dpdk-testpmd user types every day, spelled and
 * answered as testpmd 22.11 does (app/test-pmd/cmdline.c): forward
 * statistics, clearing port counters, start tx_first, port start/stop,
 * port summary, the forwarding configuration, promiscuous mode, link
 * up/down, a port's RSS hash functions, "set record-core-cycles" and
 * "set record-burst-stats"; and tagpipe's own "set record-stage-cycles",
 * named after them. prompt.c lists them (FWD_TESTPMD_COMMANDS).
 */
#include <string.h>

#include <cmdline_parse.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>

#include "fwd.h"
#include "prompt_testpmd.h"

struct tcmd_res {
	cmdline_fixed_string_t w0;
	cmdline_fixed_string_t w1;
	cmdline_fixed_string_t w2;
	cmdline_fixed_string_t w3;
	uint16_t port;
	uint32_t num;
};

#define TK(name, field, words) \
	static cmdline_parse_token_string_t name = \
		TOKEN_STRING_INITIALIZER(struct tcmd_res, field, words)

TK(tk_show_clear, w0, "show#clear");
TK(tk_show, w0, "show");
TK(tk_clear, w0, "clear");
TK(tk_start, w0, "start");
TK(tk_set, w0, "set");
TK(tk_port0, w0, "port");
TK(tk_fwd1, w1, "fwd");
TK(tk_port1, w1, "port");
TK(tk_config1, w1, "config");
TK(tk_txfirst1, w1, "tx_first");
TK(tk_startstop1, w1, "start#stop");
TK(tk_promisc1, w1, "promisc");
TK(tk_link1, w1, "link-up#link-down");
TK(tk_cycles1, w1, "record-stage-cycles#record-core-cycles#record-burst-stats");
TK(tk_stats2, w2, "stats");
TK(tk_sx2, w2, "stats#xstats");
TK(tk_summary2, w2, "summary");
TK(tk_fwd2, w2, "fwd");
TK(tk_port2, w2, "port");
TK(tk_all2, w2, "all");
TK(tk_onoff2, w2, "on#off");
TK(tk_all3, w3, "all");
TK(tk_onoff3, w3, "on#off");
TK(tk_rss3, w3, "rss-hash");
static cmdline_parse_token_num_t tk_port_at2 =
	TOKEN_NUM_INITIALIZER(struct tcmd_res, port, RTE_UINT16);
static cmdline_parse_token_num_t tk_port_at3 =
	TOKEN_NUM_INITIALIZER(struct tcmd_res, port, RTE_UINT16);
static cmdline_parse_token_num_t tk_num2 =
	TOKEN_NUM_INITIALIZER(struct tcmd_res, num, RTE_UINT32);

/* A non-NULL data marks the "all" form. */
static char all_marker;
#define ALL(data) ((data) != NULL)

static void
each_port(void *data, uint16_t port, void (*fn)(uint16_t))
{
	if (!ALL(data)) {
		fn(port);
		return;
	}
	for (uint16_t i = 0; i < fwd.nb_ports; i++)
		fn(fwd.port_ids[i]);
}

static void
do_fwd_stats(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (strcmp(((struct tcmd_res *)res)->w0, "show") == 0)
		fwd_show_fwd_stats();
	else
		fwd_clear_fwd_stats();
	fflush(stdout);
}

static void
clear_stats_one(uint16_t port)
{
	if (!rte_eth_dev_is_valid_port(port)) {
		fprintf(stderr, "Invalid port %u\n", port);
		return;
	}
	fwd_clear_port_stats(port);
	printf("\n  NIC statistics for port %u cleared\n", port);
}

static void
clear_xstats_one(uint16_t port)
{
	int rc;

	if (!rte_eth_dev_is_valid_port(port)) {
		fprintf(stderr, "Invalid port %u\n", port);
		return;
	}
	rc = rte_eth_xstats_reset(port);
	if (rc != 0) {
		fprintf(stderr, "nic_xstats_clear: Error: failed to reset xstats (port %u): %s\n",
			port, strerror(-rc));
		return;
	}
	/* The forward statistics' port baseline follows, as in testpmd. */
	fwd_clear_port_stats(port);
}

static void
do_clear_port(void *res, struct cmdline *cl, void *data)
{
	struct tcmd_res *r = res;

	RTE_SET_USED(cl);
	each_port(data, r->port, strcmp(r->w2, "stats") == 0 ? clear_stats_one : clear_xstats_one);
	fflush(stdout);
}

static void
do_start_tx_first(void *res, struct cmdline *cl, void *data)
{
	struct tcmd_res *r = res;

	RTE_SET_USED(cl);
	fwd_start_tx_first(data != NULL ? 1 : r->num);
	fflush(stdout);
}

static void
start_one(uint16_t port)
{
	fwd_port_start_stop(port, true);
}

static void
stop_one(uint16_t port)
{
	fwd_port_start_stop(port, false);
}

static void
do_port_start_stop(void *res, struct cmdline *cl, void *data)
{
	struct tcmd_res *r = res;
	bool start = strcmp(r->w1, "start") == 0;

	RTE_SET_USED(cl);
	if (ALL(data))
		fwd_port_start_stop(RTE_MAX_ETHPORTS, start);
	else
		(start ? start_one : stop_one)(r->port);
}

static void
do_summary(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(cl);
	fwd_port_show_summary_header();
	each_port(data, ((struct tcmd_res *)res)->port, fwd_port_show_summary);
}

static void
do_config_fwd(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_show_config_fwd();
}

static void
do_promisc(void *res, struct cmdline *cl, void *data)
{
	struct tcmd_res *r = res;

	RTE_SET_USED(cl);
	if (ALL(data)) {
		for (uint16_t i = 0; i < fwd.nb_ports; i++)
			fwd_port_set_promisc(fwd.port_ids[i], strcmp(r->w2, "on") == 0);
	} else {
		fwd_port_set_promisc(r->port, strcmp(r->w3, "on") == 0);
	}
	fflush(stdout);
}

static void
do_link(void *res, struct cmdline *cl, void *data)
{
	struct tcmd_res *r = res;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_port_set_link(r->port, strcmp(r->w1, "link-up") == 0);
	fflush(stdout);
}

static void
do_rss_hash(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_port_show_rss_hash(((struct tcmd_res *)res)->port);
}

static void
do_stage_cycles(void *res, struct cmdline *cl, void *data)
{
	const struct tcmd_res *r = res;
	bool on = strcmp(r->w2, "on") == 0;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	/* testpmd sets its two flags silently; the lcores read them per
	 * burst, so they take effect while forwarding runs */
	if (strcmp(r->w1, "record-core-cycles") == 0)
		fwd.opt.core_cycles = on;
	else if (strcmp(r->w1, "record-burst-stats") == 0)
		fwd.opt.burst_stats = on;
	else
		fwd_pipeline_set_stage_cycles(on);
	fflush(stdout);
}

#define INST(name, fn, arg, help, ...) \
	cmdline_parse_inst_t name = { \
		.f = fn, .data = arg, .help_str = help, \
		.tokens = { __VA_ARGS__, NULL }, \
	}

INST(fwd_tc_fwd_stats, do_fwd_stats, NULL, "show|clear fwd stats all",
     (void *)&tk_show_clear, (void *)&tk_fwd1, (void *)&tk_stats2, (void *)&tk_all3);
INST(fwd_tc_clear_port_all, do_clear_port, &all_marker, "clear port stats|xstats all",
     (void *)&tk_clear, (void *)&tk_port1, (void *)&tk_sx2, (void *)&tk_all3);
INST(fwd_tc_clear_port_n, do_clear_port, NULL, "clear port stats|xstats <port_id>",
     (void *)&tk_clear, (void *)&tk_port1, (void *)&tk_sx2, (void *)&tk_port_at3);
INST(fwd_tc_start_tx_first, do_start_tx_first, &all_marker,
     "start tx_first: start forwarding after one burst of txonly frames per stream",
     (void *)&tk_start, (void *)&tk_txfirst1);
INST(fwd_tc_start_tx_first_n, do_start_tx_first, NULL,
     "start tx_first <num>: start forwarding after <num> bursts",
     (void *)&tk_start, (void *)&tk_txfirst1, (void *)&tk_num2);
INST(fwd_tc_port_all, do_port_start_stop, &all_marker, "port start|stop all",
     (void *)&tk_port0, (void *)&tk_startstop1, (void *)&tk_all2);
INST(fwd_tc_port_n, do_port_start_stop, NULL, "port start|stop <port_id>",
     (void *)&tk_port0, (void *)&tk_startstop1, (void *)&tk_port_at2);
INST(fwd_tc_summary_all, do_summary, &all_marker, "show port summary all",
     (void *)&tk_show, (void *)&tk_port1, (void *)&tk_summary2, (void *)&tk_all3);
INST(fwd_tc_summary_n, do_summary, NULL, "show port summary <port_id>",
     (void *)&tk_show, (void *)&tk_port1, (void *)&tk_summary2, (void *)&tk_port_at3);
INST(fwd_tc_config_fwd, do_config_fwd, NULL, "show config fwd",
     (void *)&tk_show, (void *)&tk_config1, (void *)&tk_fwd2);
INST(fwd_tc_promisc_all, do_promisc, &all_marker, "set promisc all on|off",
     (void *)&tk_set, (void *)&tk_promisc1, (void *)&tk_all2, (void *)&tk_onoff3);
INST(fwd_tc_promisc_n, do_promisc, NULL, "set promisc <port_id> on|off",
     (void *)&tk_set, (void *)&tk_promisc1, (void *)&tk_port_at2, (void *)&tk_onoff3);
INST(fwd_tc_link, do_link, NULL, "set link-up|link-down port <port_id>",
     (void *)&tk_set, (void *)&tk_link1, (void *)&tk_port2, (void *)&tk_port_at3);
INST(fwd_tc_rss_hash, do_rss_hash, NULL, "show port <port_id> rss-hash",
     (void *)&tk_show, (void *)&tk_port1, (void *)&tk_port_at2, (void *)&tk_rss3);
INST(fwd_tc_stage_cycles, do_stage_cycles, NULL,
     "set record-stage-cycles|record-core-cycles|record-burst-stats on|off: "
     "TSC cycles per pipeline stage, busy cycles per frame, RX burst sizes",
     (void *)&tk_set, (void *)&tk_cycles1, (void *)&tk_onoff2);

void
fwd_prompt_testpmd_help(void)
{
	printf("show fwd stats all | clear fwd stats all\n"
	       "clear port stats|xstats all|PORT\n"
	       "start tx_first [N]\n"
	       "port start|stop all|PORT\n"
	       "show port summary all|PORT | show port PORT rss-hash\n"
	       "show config fwd\n"
	       "set promisc all|PORT on|off\n"
	       "set link-up|link-down port PORT\n"
	       "set record-stage-cycles on|off (show pipeline stats: cycles/mbuf)\n"
	       "set record-core-cycles on|off | set record-burst-stats on|off\n");
}
