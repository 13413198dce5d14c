/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A prompt token for a free word with suggestions: it accepts any word (so
 * a bad one reaches the command, whose error names it and the valid
 * values, instead of librte_cmdline's bare "Bad arguments"), TAB completes
 * from the '#'-separated list in words, and TAB TAB shows help instead of
 * "[Any STRING]". The parsed word lands in a cmdline_fixed_string_t.
 */
#ifndef FWD_PROMPT_WORD_H
#define FWD_PROMPT_WORD_H

#include <cmdline_parse.h>
#include <cmdline_parse_string.h>

struct fwd_word_token {
	struct cmdline_token_hdr hdr;
	const char *words;   /* "a#b#c": the completions */
	const char *help;    /* shown for TAB TAB */
};

extern struct cmdline_token_ops fwd_word_token_ops;

#define FWD_WORD_TOKEN_INITIALIZER(structure, field, list, helptext) \
	{ .hdr = { .ops = &fwd_word_token_ops, \
		   .offset = offsetof(structure, field) }, \
	  .words = (list), .help = (helptext) }

#endif /* FWD_PROMPT_WORD_H */
