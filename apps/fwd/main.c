/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-fwd: EAL options, "--", then ours (options.c); EAL options alone
 * need no "--" (testpmd's "dpdk-testpmd -l 0-1 --vdev ..."). Sets up every port
 * the EAL found, one stream per (port, RX queue), and forwards with the
 * chosen engine until "quit", SIGINT or SIGTERM; then stops the lcores,
 * drains what engines hold and what is still in the RX queues, closes the
 * ports and reports the mempool so a leaked mbuf is visible (and makes the
 * exit status 1).
 */
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_pdump.h>

#include "fwd.h"
#include "host_if.h"
#include "tp_eal.h"

RTE_LOG_REGISTER(fwd_logtype, tagpipe.fwd, INFO);

struct fwd_state fwd;
volatile bool fwd_quit;
bool fwd_eal_started;

static void
on_signal(int sig)
{
	RTE_SET_USED(sig);
	fwd_quit = true;
}

static void
install_signals(void)
{
	struct sigaction sa;

	/* No SA_RESTART: a blocked poll()/sleep returns at once. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void
show_all_port_stats(void)
{
	for (uint16_t i = 0; i < fwd.nb_ports; i++)
		fwd_port_show_stats(fwd.port_ids[i]);
}

/* Without -i: forward, print stats every --stats-period seconds. */
static void
run_batch(void)
{
	uint64_t hz = rte_get_timer_hz();
	uint64_t next = rte_get_timer_cycles() + hz * fwd.opt.stats_period;

	if (!fwd.running && fwd_start() != 0)   /* a --cmdline-file may have started */
		return;
	printf("Press Ctrl-C (SIGINT) or send SIGTERM to stop.\n");
	fflush(stdout);
	while (!fwd_quit) {
		usleep(100 * 1000);
		if (fwd.opt.stats_period != 0 && rte_get_timer_cycles() >= next) {
			show_all_port_stats();
			next += hz * fwd.opt.stats_period;
		}
	}
}

int
main(int argc, char **argv)
{
	unsigned int in_use, size;
	bool pdump = false;
	char err[256];
	int first;

	install_signals();
	/* Our options are checked before the EAL starts, so a typo costs no
	 * EAL start-up and its error is the only line printed. */
	first = tp_eal_app_args(argc, argv, err, sizeof(err));
	if (first < 0) {
		fwd_err("%s", err);
		return FWD_EXIT_USAGE;
	}
	fwd_options_parse(argc - first, argv + first, argv[0], &fwd.opt);
	if (tp_eal_init(argc, argv, NULL, NULL) < 0) {
		fwd_err("EAL start failed: %s", rte_strerror(rte_errno));
		return FWD_EXIT_USAGE;
	}
	fwd_eal_started = true;
	/* Packet capture by a secondary process (dpdk-dumpcap, dpdk-pdump),
	 * as testpmd offers it: those attach through the shared
	 * configuration, so not under --no-shconf. */
	if (tp_eal_shared_config()) {
		if (rte_pdump_init() == 0)
			pdump = true;
		else
			FWD_LOG(WARNING, "no packet capture: rte_pdump_init: %s",
				rte_strerror(rte_errno));
	}
	fwd_options_check(&fwd.opt, rte_eth_dev_count_avail(), rte_lcore_count() - 1);

	fwd.nb_ports = rte_eth_dev_count_avail();
	if (fwd_lcores_setup() != 0 || fwd_ports_setup() != 0 || fwd_streams_setup() != 0 ||
	    fwd_host_if_setup() != 0) {
		fwd_ports_close();
		if (pdump)
			rte_pdump_uninit();
		tp_eal_cleanup();
		return 1;
	}
	if (fwd.opt.cmdline_file != NULL &&
	    fwd_prompt_file(fwd.opt.cmdline_file) < 0)
		fwd_quit = true;
	/* Unless the file said quit (or could not be read): */
	if (!fwd_quit) {
		if (fwd.opt.interactive)
			fwd_prompt();
		else
			run_batch();
	}

	printf("\nStopping forwarding...\n");
	if (fwd.running)
		fwd_stop();
	fwd_verbose_release();
	printf("Drained %" PRIu64 " frames left in RX queues\n", fwd_ports_drain());
	show_all_port_stats();
	if (strcmp(fwd.opt.engine->name, "pipeline") == 0)
		fwd_pipeline_show_stats();
	if (fwd.opt.nb_host_ifs > 0)
		fwd_host_if_show();
	fwd_host_if_release();
	fwd_pipeline_release();
	fwd_pipeline_close_prog();
	fwd_ports_close();
	in_use = fwd_pool_in_use();
	size = fwd.pool->size;
	printf("mempool %s: %u of %u mbufs in use after shutdown%s\n", fwd.pool->name,
	       in_use, size, in_use ? " (LEAK)" : "");
	printf("Bye...\n");
	fflush(stdout);
	rte_mempool_free(fwd.pool);
	if (pdump)
		rte_pdump_uninit();
	tp_eal_cleanup();
	return in_use ? 1 : 0;
}
