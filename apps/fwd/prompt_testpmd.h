/* SPDX-License-Identifier: BSD-3-Clause */
/* testpmd's everyday prompt commands (prompt_testpmd.c), for prompt.c. */
#ifndef PROMPT_TESTPMD_H
#define PROMPT_TESTPMD_H

#include <cmdline_parse.h>

extern cmdline_parse_inst_t fwd_tc_fwd_stats, fwd_tc_clear_port_all,
	fwd_tc_clear_port_n, fwd_tc_start_tx_first, fwd_tc_start_tx_first_n,
	fwd_tc_port_all, fwd_tc_port_n, fwd_tc_summary_all, fwd_tc_summary_n,
	fwd_tc_config_fwd, fwd_tc_promisc_all, fwd_tc_promisc_n, fwd_tc_link,
	fwd_tc_rss_hash, fwd_tc_stage_cycles;

/* Entries of prompt.c's command list. */
#define FWD_TESTPMD_COMMANDS \
	&fwd_tc_fwd_stats, &fwd_tc_clear_port_all, &fwd_tc_clear_port_n, \
	&fwd_tc_start_tx_first, &fwd_tc_start_tx_first_n, &fwd_tc_port_all, \
	&fwd_tc_port_n, &fwd_tc_summary_all, &fwd_tc_summary_n, \
	&fwd_tc_config_fwd, &fwd_tc_promisc_all, &fwd_tc_promisc_n, \
	&fwd_tc_link, &fwd_tc_rss_hash, &fwd_tc_stage_cycles

/* Their lines of "help". */
void fwd_prompt_testpmd_help(void);

#endif /* PROMPT_TESTPMD_H */
