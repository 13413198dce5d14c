/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Streams and forwarding lcores: which lcore serves which (port, queue), and
 * start/stop. Stream s goes to forwarding lcore s % nb_fwd_lcores, so with
 * as many lcores as RX queues each lcore owns exactly one queue.
 */
#include <inttypes.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

#include "fwd.h"

struct fwd_lcore {
	const struct fwd_engine *engine;
	struct fwd_stream *streams[FWD_MAX_STREAMS];
	unsigned int nb_streams;
	volatile bool stop;
} __rte_cache_aligned;

static struct fwd_lcore lcores[RTE_MAX_LCORE];

static uint16_t
peer_index(uint16_t i)
{
	switch (fwd.opt.topology) {
	case FWD_TOPO_CHAINED:
		return (uint16_t)((i + 1) % fwd.nb_ports);
	case FWD_TOPO_LOOP:
		return i;
	case FWD_TOPO_PAIRED:
	default:
		/* An odd last port forwards to itself. */
		return (uint16_t)((i ^ 1) < fwd.nb_ports ? (i ^ 1) : i);
	}
}

int
fwd_lcores_setup(void)
{
	unsigned int lcore, workers = 0;
	unsigned int nb_rx = (unsigned int)fwd.nb_ports * fwd.opt.nb_rxq;

	RTE_LCORE_FOREACH_WORKER(lcore)
		fwd.fwd_lcore_id[workers++] = lcore;
	fwd.nb_fwd_lcores = fwd.opt.nb_cores ? fwd.opt.nb_cores : RTE_MIN(workers, nb_rx);
	if (fwd.opt.nb_txq == 0)
		fwd.opt.nb_txq = (uint16_t)fwd.nb_fwd_lcores;
	if (fwd.opt.nb_txq < fwd.nb_fwd_lcores) {
		fwd_err("--txq %u: fewer than the %u forwarding lcores (one TX queue each)",
			fwd.opt.nb_txq, fwd.nb_fwd_lcores);
		return -EINVAL;
	}
	return 0;
}

int
fwd_streams_setup(void)
{
	fwd.nb_streams = 0;
	for (uint16_t i = 0; i < fwd.nb_ports; i++) {
		for (uint16_t q = 0; q < fwd.opt.nb_rxq; q++) {
			struct fwd_stream *fs = &fwd.streams[fwd.nb_streams++];

			memset(fs, 0, sizeof(*fs));
			fs->rx_port = fwd.port_ids[i];
			fs->rx_queue = q;
			fs->tx_port = fwd.port_ids[peer_index(i)];
			/* The TX queue of the lcore the stream goes to. */
			fs->tx_queue = (uint16_t)((fwd.nb_streams - 1) % fwd.nb_fwd_lcores);
			fs->mp = fwd.pool;
		}
	}
	memset(lcores, 0, sizeof(lcores));
	for (unsigned int s = 0; s < fwd.nb_streams; s++) {
		struct fwd_lcore *lc = &lcores[fwd.fwd_lcore_id[s % fwd.nb_fwd_lcores]];

		lc->streams[lc->nb_streams++] = &fwd.streams[s];
	}
	for (unsigned int s = 0; s < fwd.nb_streams; s++) {
		const struct fwd_stream *fs = &fwd.streams[s];

		FWD_LOG(DEBUG, "stream %u: RX port %u queue %u -> TX port %u queue %u, lcore %u",
			s, fs->rx_port, fs->rx_queue, fs->tx_port, fs->tx_queue,
			fwd.fwd_lcore_id[s % fwd.nb_fwd_lcores]);
	}
	memcpy(fwd.cleared, fwd.streams, sizeof(fwd.cleared));
	return 0;
}

static int
lcore_main(void *arg)
{
	struct fwd_lcore *lc = arg;
	const struct fwd_engine *e = lc->engine;
	unsigned int n = lc->nb_streams;

	while (!lc->stop)
		for (unsigned int i = 0; i < n; i++)
			e->packet_fwd(lc->streams[i]);
	if (e->stream_drain != NULL)
		for (unsigned int i = 0; i < n; i++)
			e->stream_drain(lc->streams[i]);
	return 0;
}

static void clear_fwd_counters(void);

int
fwd_start(void)
{
	const struct fwd_engine *e = fwd.opt.engine;

	if (fwd.running) {
		printf("Packet forwarding already started\n");
		return 0;
	}
	for (unsigned int s = 0; s < fwd.nb_streams; s++) {
		if (e->stream_init == NULL)
			break;
		int rc = e->stream_init(&fwd.streams[s]);

		if (rc != 0) {
			fwd_err("%s mode: stream %u set-up failed: %s", e->name, s,
				rte_strerror(-rc));
			return rc;
		}
	}
	/* As testpmd's start: forward statistics count this run only (port
	 * statistics are kept; "clear stats" resets those). */
	clear_fwd_counters();
	fwd_pipeline_clear_stats();
	fwd_verbose_apply();
	printf("%s packet forwarding - ports=%u - cores=%u - streams=%u\n", e->name,
	       fwd.nb_ports, fwd.nb_fwd_lcores, fwd.nb_streams);
	for (unsigned int l = 0; l < fwd.nb_fwd_lcores; l++) {
		unsigned int id = fwd.fwd_lcore_id[l];

		lcores[id].engine = e;
		lcores[id].stop = false;
		if (rte_eal_remote_launch(lcore_main, &lcores[id], id) != 0) {
			fwd_err("lcore %u: launch failed", id);
			fwd.running = true;
			fwd_stop();
			return -EBUSY;
		}
	}
	fwd.running = true;
	fflush(stdout);
	return 0;
}

void
fwd_stop(void)
{
	if (!fwd.running) {
		printf("Packet forwarding not started\n");
		return;
	}
	for (unsigned int l = 0; l < fwd.nb_fwd_lcores; l++)
		lcores[fwd.fwd_lcore_id[l]].stop = true;
	for (unsigned int l = 0; l < fwd.nb_fwd_lcores; l++)
		rte_eal_wait_lcore(fwd.fwd_lcore_id[l]);
	fwd.running = false;
	FWD_LOG(DEBUG, "%u forwarding lcores stopped, %s mode drained", fwd.nb_fwd_lcores,
		fwd.opt.engine->name);
	printf("Telling cores to stop... Done.\n");
	fwd_show_fwd_stats();
}

int
fwd_set_engine(const char *name)
{
	const struct fwd_engine *e = fwd_engine_find(name);

	if (e == NULL) {
		char modes[128];

		fwd_err("set fwd: unknown mode '%s' (one of %s)", name,
			fwd_engine_list(modes, sizeof(modes), ' '));
		return -EINVAL;
	}
	if (fwd.running) {
		fwd_err("set fwd %s: stop forwarding first", name);
		return -EBUSY;
	}
	fwd.opt.engine = e;
	printf("Set %s packet forwarding mode\n", e->name);
	return 0;
}

static uint64_t
load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

void
fwd_show_fwd_stats(void)
{
	uint64_t rx = 0, tx = 0, dropped = 0, passed = 0, passed_frames = 0;

	for (unsigned int s = 0; s < fwd.nb_streams; s++) {
		const struct fwd_stream *fs = &fwd.streams[s], *c = &fwd.cleared[s];
		uint64_t r = load(&fs->rx_pkts) - c->rx_pkts;
		uint64_t t = load(&fs->tx_pkts) - c->tx_pkts;
		uint64_t d = load(&fs->dropped) - c->dropped;
		uint64_t p = load(&fs->passed) - c->passed;
		uint64_t pf = load(&fs->passed_frames) - c->passed_frames;

		printf("  ------- Forward Stats for RX Port=%2u/Queue=%2u -> TX Port=%2u/Queue=%2u -------\n",
		       fs->rx_port, fs->rx_queue, fs->tx_port, fs->tx_queue);
		/* RX, TX and Dropped count frames; PASS is shown in both
		 * (GRO merges frames into fewer packets). */
		printf("  RX-packets: %-14" PRIu64 " TX-packets: %-14" PRIu64
		       " Dropped: %-14" PRIu64 " Passed-frames: %-14" PRIu64
		       " Passed-packets: %-14" PRIu64 "\n", r, t, d, pf, p);
		rx += r;
		tx += t;
		dropped += d;
		passed += p;
		passed_frames += pf;
	}
	printf("  +++++++++++++++ Accumulated forward statistics for all ports +++++++++++++++\n");
	printf("  RX-packets: %-14" PRIu64 " TX-packets: %-14" PRIu64
	       " Dropped: %-14" PRIu64 " Passed-frames: %-14" PRIu64
	       " Passed-packets: %-14" PRIu64 "\n", rx, tx, dropped, passed_frames, passed);
	printf("  ++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++\n");
	fflush(stdout);
}

/* Forward counters count from now on (the streams' own only grow). */
static void
clear_fwd_counters(void)
{
	for (unsigned int s = 0; s < fwd.nb_streams; s++) {
		const struct fwd_stream *fs = &fwd.streams[s];
		struct fwd_stream *c = &fwd.cleared[s];

		c->rx_pkts = load(&fs->rx_pkts);
		c->tx_pkts = load(&fs->tx_pkts);
		c->dropped = load(&fs->dropped);
		c->passed = load(&fs->passed);
		c->passed_frames = load(&fs->passed_frames);
		c->segmented = load(&fs->segmented);
	}
}

uint64_t
fwd_streams_segmented(void)
{
	uint64_t n = 0;

	for (unsigned int s = 0; s < fwd.nb_streams; s++)
		n += load(&fwd.streams[s].segmented) - fwd.cleared[s].segmented;
	return n;
}

void
fwd_clear_stats(void)
{
	clear_fwd_counters();
	for (uint16_t i = 0; i < fwd.nb_ports; i++)
		fwd_port_clear_stats(fwd.port_ids[i]);
	if (!fwd.running)
		fwd_pipeline_clear_stats();
	else
		printf("Pipeline counters kept: they are cleared only while stopped\n");
	printf("Statistics cleared\n");
	fflush(stdout);
}

unsigned int
fwd_pool_in_use(void)
{
	return fwd.pool ? rte_mempool_in_use_count(fwd.pool) : 0;
}
