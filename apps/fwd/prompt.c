/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The -i prompt (librte_cmdline, so TAB completes every keyword).
 *
 * The main lcore reads stdin one byte at a time with poll(), so SIGINT or
 * SIGTERM (fwd_quit) ends the prompt as "quit" does, and so does the end of
 * stdin (a script piped in).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>
#include <cmdline_socket.h>

#include "fwd.h"
#include "host_if.h"
#include "prompt_word.h"
#include "prompt_testpmd.h"
#include "tp_prog.h"

#define FWD_PROMPT "tagpipe> "

/* One token object per keyword; results land in struct cmd_res. */
struct cmd_res {
	cmdline_fixed_string_t w0;
	cmdline_fixed_string_t w1;
	cmdline_fixed_string_t w2;
	cmdline_multi_string_t w3;   /* the rest of the line (tk_arg3) */
	uint16_t port;
};

#define TK(name, field, words) \
	static cmdline_parse_token_string_t name = \
		TOKEN_STRING_INITIALIZER(struct cmd_res, field, words)

TK(tk_start, w0, "start");
TK(tk_stop, w0, "stop");
TK(tk_quit, w0, "quit");
TK(tk_help, w0, "help");
TK(tk_show, w0, "show");
TK(tk_clear, w0, "clear");
TK(tk_set, w0, "set");
TK(tk_port, w1, "port");
TK(tk_stats1, w1, "stats");
TK(tk_what, w2, "info#stats#xstats");
TK(tk_all, w3, "all");
TK(tk_fwd, w1, "fwd");
TK(tk_pipeline, w1, "pipeline");
TK(tk_stats2, w2, "stats");
TK(tk_verdict, w1, "verdict");
TK(tk_gro, w1, "gro");
TK(tk_verbose, w1, "verbose");
TK(tk_onoff, w2, "on#off");
TK(tk_bpf, w0, "bpf");
TK(tk_map, w1, "map");
TK(tk_list, w2, "list");
TK(tk_dumpset, w2, "dump#show#set#delete");
/* a map spec is the rest of the line: BTF-typed values have spaces */
TK(tk_arg3, w3, TOKEN_STRING_MULTI);
/* The word lists are filled (fwd_engines[], tp_prog_names) before the
 * prompt starts. Free words, so a bad one gets the command's own error
 * with the valid values. */
static char mode_words[128];
static char prog_words[256];
static struct fwd_word_token tk_mode =
	FWD_WORD_TOKEN_INITIALIZER(struct cmd_res, w2, mode_words,
				   "MODE: a forwarding mode (TAB lists them)");
static struct fwd_word_token tk_prog =
	FWD_WORD_TOKEN_INITIALIZER(struct cmd_res, w2, prog_words,
				   "PROG: pass, drop, tx, redirect:N, by-switch-port, "
				   "acl:FILE, or an XDP object FILE.o[:SECTION]");
static struct fwd_word_token tk_level =
	FWD_WORD_TOKEN_INITIALIZER(struct cmd_res, w2, "0#1#2#3",
				   "LEVEL: 0 off, 1 received, 2 sent, 3 both");
static cmdline_parse_token_num_t tk_portnum =
	TOKEN_NUM_INITIALIZER(struct cmd_res, port, RTE_UINT16);

static void
do_start(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_start();
}

static void
do_stop(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_stop();
}

static void
do_quit(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(res);
	RTE_SET_USED(data);
	fwd_quit = true;
	cmdline_quit(cl);
}

static void
do_help(void *res, struct cmdline *cl, void *data)
{
	char modes[128];

	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	printf("start | stop | quit\n"
	       "show port info|stats|xstats PORT|all\n"
	       "clear stats\n"
	       "set fwd %s\n", fwd_engine_list(modes, sizeof(modes), '|'));
	printf("show pipeline stats\n"
	       "show host-if\n"
	       "show verdict\n"
	       "set verdict PROG\n"
	       "set gro on|off\n"
	       "set verbose 0|1|2|3 (off, received, sent, both)\n"
	       "bpf map list | bpf map dump NAME | bpf map show NAME |\n"
	       "    bpf map set NAME:KEY=VALUE | bpf map delete NAME:KEY\n"
	       "    (dump: hex; show: the BTF types; KEY, VALUE: hex or typed)\n");
	fwd_prompt_testpmd_help();
	fflush(stdout);
}

static void
show_port(const char *what, uint16_t port)
{
	if (strcmp(what, "info") == 0)
		fwd_port_show_info(port);
	else if (strcmp(what, "stats") == 0)
		fwd_port_show_stats(port);
	else
		fwd_port_show_xstats(port);
}

static void
do_show_port(void *res, struct cmdline *cl, void *data)
{
	struct cmd_res *r = res;

	RTE_SET_USED(cl);
	if (data != NULL) {                  /* "all" */
		for (uint16_t i = 0; i < fwd.nb_ports; i++)
			show_port(r->w2, fwd.port_ids[i]);
		return;
	}
	if (!rte_eth_dev_is_valid_port(r->port)) {
		fwd_err("show port %s: no such port %u", r->w2, r->port);
		return;
	}
	show_port(r->w2, r->port);
}

static void
do_show_pipeline(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_pipeline_show_stats();
}


static void
do_show_verdict(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_pipeline_show_verdict();
}

static void
do_clear(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_clear_stats();
}

static void
do_set_fwd(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_set_engine(((struct cmd_res *)res)->w2);
	fflush(stdout);
}

static void
do_set_verdict(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_pipeline_set_verdict(((struct cmd_res *)res)->w2);
	fflush(stdout);
}

static void
do_bpf_map(void *res, struct cmdline *cl, void *data)
{
	struct cmd_res *r = res;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_pipeline_bpf_map(r->w2, r->w3);
}

static void
do_set_gro(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_pipeline_set_gro(strcmp(((struct cmd_res *)res)->w2, "on") == 0);
	fflush(stdout);
}

static void
do_set_verbose(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_set_verbose(((struct cmd_res *)res)->w2);
	fflush(stdout);
}

#define INST(name, fn, arg, help, ...) \
	static cmdline_parse_inst_t name = { \
		.f = fn, .data = arg, .help_str = help, \
		.tokens = { __VA_ARGS__, NULL }, \
	}

/* A non-NULL data marks the "all" form of show port. */
static char all_marker;

INST(c_start, do_start, NULL, "start: start forwarding", (void *)&tk_start);
INST(c_stop, do_stop, NULL, "stop: stop forwarding, print its stats", (void *)&tk_stop);
INST(c_quit, do_quit, NULL, "quit: stop and exit", (void *)&tk_quit);
INST(c_help, do_help, NULL, "help: list commands", (void *)&tk_help);
INST(c_show_port_n, do_show_port, NULL, "show port info|stats|xstats PORT",
     (void *)&tk_show, (void *)&tk_port, (void *)&tk_what, (void *)&tk_portnum);
INST(c_show_port_all, do_show_port, &all_marker, "show port info|stats|xstats all",
     (void *)&tk_show, (void *)&tk_port, (void *)&tk_what, (void *)&tk_all);
INST(c_clear, do_clear, NULL, "clear stats: reset port and forward counters",
     (void *)&tk_clear, (void *)&tk_stats1);
INST(c_set_fwd, do_set_fwd, NULL, "set fwd MODE", (void *)&tk_set, (void *)&tk_fwd,
     (void *)&tk_mode);
INST(c_show_pipeline, do_show_pipeline, NULL, "show pipeline stats",
     (void *)&tk_show, (void *)&tk_pipeline, (void *)&tk_stats2);
INST(c_show_verdict, do_show_verdict, NULL,
     "show verdict: the verdict program and how an XDP object runs",
     (void *)&tk_show, (void *)&tk_verdict);
INST(c_set_verdict, do_set_verdict, NULL, "set verdict PROG", (void *)&tk_set,
     (void *)&tk_verdict, (void *)&tk_prog);
INST(c_set_gro, do_set_gro, NULL, "set gro on|off", (void *)&tk_set, (void *)&tk_gro,
     (void *)&tk_onoff);
INST(c_set_verbose, do_set_verbose, NULL,
     "set verbose LEVEL: print packets (0 off, 1 received, 2 sent, 3 both)",
     (void *)&tk_set, (void *)&tk_verbose, (void *)&tk_level);
INST(c_bpf_list, do_bpf_map, NULL, "bpf map list: the XDP object's maps",
     (void *)&tk_bpf, (void *)&tk_map, (void *)&tk_list);
INST(c_bpf_arg, do_bpf_map, NULL,
     "bpf map dump|show NAME | bpf map set NAME:KEY=VALUE | bpf map delete NAME:KEY",
     (void *)&tk_bpf, (void *)&tk_map, (void *)&tk_dumpset, (void *)&tk_arg3);

static cmdline_parse_ctx_t commands[] = {
	&c_start, &c_stop, &c_quit, &c_help, &c_show_port_n, &c_show_port_all,
	&c_clear, &c_set_fwd,
	&c_show_pipeline, &c_show_verdict, &c_set_verdict, &c_set_gro, &c_set_verbose, &c_bpf_list,
	&c_bpf_arg,
	&fwd_cmd_show_host_if,
	/* testpmd's everyday commands (prompt_testpmd.c) */
	FWD_TESTPMD_COMMANDS,
	NULL,
};

/* The completion word lists, once. */
static void
fill_words(void)
{
	fwd_engine_list(mode_words, sizeof(mode_words), '#');
	/* "acl, bpf, ..." -> "acl#bpf#..." */
	tp_prog_names(prog_words, sizeof(prog_words));
	for (char *r = prog_words, *w = prog_words;; r++) {
		if (r[0] == ',' && r[1] == ' ') {
			*w++ = '#';
			r++;
		} else if ((*w++ = *r) == '\0') {
			break;
		}
	}
}

int
fwd_prompt_file(const char *path)
{
	struct cmdline *cl;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		int err = errno;

		fwd_err("--cmdline-file: cannot open '%s': %s", path, strerror(err));
		return -err;
	}
	fill_words();
	printf("Read CLI commands from %s\n", path);
	fflush(stdout);
	/* As cmdline_file_new(), but with stdout for the echo and the errors
	 * ("Bad arguments") a script's author needs to see. */
	cl = cmdline_new(commands, FWD_PROMPT, fd, STDOUT_FILENO);
	if (cl == NULL) {
		close(fd);
		fwd_err("--cmdline-file: cannot start the prompt");
		return -ENOMEM;
	}
	cmdline_interact(cl);
	cmdline_free(cl);      /* closes fd */
	printf("\n");
	fflush(stdout);
	return 0;
}

void
fwd_prompt(void)
{
	struct cmdline *cl;

	fill_words();
	cl = cmdline_stdin_new(commands, FWD_PROMPT);
	if (cl == NULL) {
		fwd_err("cannot start the prompt");
		return;
	}
	while (!fwd_quit) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		char c;
		int rc = poll(&pfd, 1, 200);

		if (rc < 0 && errno != EINTR)
			break;
		if (rc <= 0)
			continue;
		if (read(STDIN_FILENO, &c, 1) != 1)
			break;                 /* end of input: like quit */
		if (cmdline_in(cl, &c, 1) < 0)
			break;
	}
	printf("\n");
	cmdline_stdin_exit(cl);
}
