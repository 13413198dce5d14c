/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The option values tagpipe-replay and tagpipe-fwd share, parsed once so
 * that both spell them the same, accept the same values and give the same
 * errors:
 *   redirect entry  KEY=port:P[,queue:Q][,switch_port:S]
 *                   (tagpipe-fwd's older KEY:PORT[:SWITCH_PORT] is accepted
 *                   and flagged as old)
 *   GRO             off | burst | age:USEC  ("on" is burst)
 *   tagger          a tp_dsa_tagger name; the error lists the valid ones
 * Errors are written to err as "VALUE-related text" without the option or
 * program name; the caller prefixes both.
 */
#ifndef TP_CLI_SYNTAX_H
#define TP_CLI_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tp_pipeline.h"

#define CLI_REDIRECT_KEY_MAX (TP_REDIRECT_MAP_MAX - 1)  /* keys index an array map */
#define CLI_SWITCH_PORT_MAX 255u        /* a DSA tag's port field */
#define CLI_GRO_AGE_MAX_US 1000000u     /* tp_pipeline_gro.age_usec */

struct cli_redirect {
	uint32_t key;
	uint16_t port;
	uint16_t queue;
	bool queue_given;
	int switch_port;   /* -1: the packet's own source switch port */
	bool old_syntax;   /* given as KEY:PORT[:SWITCH_PORT] */
};

/* "PROG VERSION (DPDK x.y.z)" for --version: prog's last path component,
 * the project's version and the DPDK it was built with, on stdout. */
void cli_print_version(const char *prog);

/* 0, or -EINVAL with err set. Ports are 0..max_port. */
int cli_parse_redirect(const char *val, unsigned int max_port, struct cli_redirect *r,
		       char *err, size_t errlen);

/* The entry r in the current spelling (for the note on an old one). */
void cli_redirect_form(const struct cli_redirect *r, char *buf, size_t size);

enum cli_gro_mode { CLI_GRO_OFF, CLI_GRO_BURST, CLI_GRO_AGE };

/* off | burst | on | age:USEC (1..CLI_GRO_AGE_MAX_US). 0 or -EINVAL. */
int cli_parse_gro(const char *val, enum cli_gro_mode *mode, uint32_t *age_us,
		  char *err, size_t errlen);

/* --gro-tunnels: off | all | a comma list of vxlan[:PORT[+PORT...]],
 * geneve and ipip (tp_gro.h TP_GRO_TUN_*). *bits gets the kinds, ports[] the VXLAN
 * ports given (0 = unused: tp_gro's default 4789). 0 or -EINVAL. */
int cli_parse_gro_tunnels(const char *val, uint32_t *bits, uint16_t ports[4],
			  char *err, size_t errlen);

/* 0 if name is a tagger; else -EINVAL with err "unknown tagger 'X'
 * (valid: a, b, ...)". */
int cli_check_tagger(const char *name, char *err, size_t errlen);

#endif /* TP_CLI_SYNTAX_H */
