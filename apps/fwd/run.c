/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Streams and forwarding lcores: which lcore serves which (port, queue), and
 * start/stop. Stream s goes to forwarding lcore s % nb_fwd_lcores, so with
 * as many lcores as RX queues each lcore owns exactly one queue.
 */
#include <inttypes.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
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
	fwd_clear_fwd_stats();
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

static int start(uint32_t tx_first);

int
fwd_start(void)
{
	return start(0);
}

int
fwd_start_tx_first(uint32_t bursts)
{
	return start(bursts);
}

/* testpmd's start tx_first: bursts of txonly frames on every stream, sent
 * from the main lcore before any forwarding lcore runs (each stream's TX
 * queue then has no other writer), counted in the streams' TX. */
static int
send_tx_first(uint32_t bursts)
{
	/* A burst sent before a link is up is lost on the wire: wait for
	 * the links first, at most testpmd's 9 s (its link status check). */
	for (unsigned int tries = 0; tries < 90; tries++) {
		bool up = true;

		for (uint16_t i = 0; i < fwd.nb_ports && up; i++) {
			struct rte_eth_link link;

			memset(&link, 0, sizeof(link));
			up = rte_eth_link_get_nowait(fwd.port_ids[i], &link) == 0 &&
			     link.link_status == RTE_ETH_LINK_UP;
		}
		if (up)
			break;
		rte_delay_ms(100);
	}
	for (unsigned int s = 0; s < fwd.nb_streams; s++) {
		int rc = fwd_engine_txonly.stream_init(&fwd.streams[s]);

		if (rc != 0) {
			fwd_err("start tx_first: stream %u: %s", s, rte_strerror(-rc));
			return rc;
		}
	}
	for (uint32_t b = 0; b < bursts; b++) {
		for (unsigned int s = 0; s < fwd.nb_streams; s++) {
			struct fwd_stream *fs = &fwd.streams[s];
			uint64_t before = fs->tx_pkts;

			fwd_txonly_burst(fs);
			fs->tx_first += fs->tx_pkts - before;
		}
	}
	return 0;
}

static int
start(uint32_t tx_first)
{
	const struct fwd_engine *e = fwd.opt.engine;

	if (fwd.running) {
		printf("Packet forwarding already started\n");
		return 0;
	}
	for (uint16_t i = 0; i < fwd.nb_ports; i++) {
		if (fwd.port_stopped[fwd.port_ids[i]]) {
			fprintf(stderr, "Not all ports were started\n");
			return -EIO;
		}
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
	 * statistics are kept; "clear stats" resets those). The pipelines'
	 * counters first: the streams' baseline is read from them. */
	fwd_pipeline_clear_stats();
	for (unsigned int s = 0; s < fwd.nb_streams; s++)
		memset(fwd.streams[s].rx_burst_spread, 0,
		       sizeof(fwd.streams[s].rx_burst_spread));
	fwd_clear_fwd_stats();
	fwd_verbose_apply();
	if (tx_first > 0 && send_tx_first(tx_first) != 0)
		return -EIO;
	fwd_show_config_fwd();   /* as testpmd's start prints it */
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

/* Since the stream was set up: from its pipeline instance in pipeline
 * mode (the pipeline's counters are the truth there), else its own. */
static void
stream_counts(const struct fwd_stream *fs, struct fwd_counts *c)
{
	c->rx = load(&fs->rx_pkts);
	c->tx = load(&fs->tx_pkts);
	c->dropped = load(&fs->dropped);
	c->passed = load(&fs->passed);
	c->passed_frames = load(&fs->passed_frames);
	c->core_cycles = load(&fs->core_cycles);
	/* What txonly bursts (start tx_first) sent is the stream's own. */
	if (fwd.opt.engine == fwd_engine_find("pipeline") &&
	    fwd_pipeline_stream_counts(fs, c))
		c->tx += load(&fs->tx_first);
}

static uint64_t
since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;   /* a counter re-made: from 0 */
}

/* "  RX-bursts : 1234 [60% of 32 pkts + 30% of 0 pkts + 10% of other]":
 * testpmd's --record-burst-stats line (app/test-pmd/testpmd.c,
 * pkt_burst_stats_display): the number of bursts, the share of empty ones,
 * then the two most frequent non-empty sizes, then the rest. */
static void
burst_spread_show(const char *dir, const uint64_t *spread)
{
	uint64_t total = spread[0], count[3] = { spread[0], 0, 0 }, acc = 0;
	unsigned int size[3] = { 0, 0, 0 };
	int shown = 0;

	for (unsigned int k = 1; k <= FWD_MAX_BURST; k++) {
		if (spread[k] == 0)
			continue;
		total += spread[k];
		if (spread[k] > count[1]) {
			count[2] = count[1];
			size[2] = size[1];
			count[1] = spread[k];
			size[1] = k;
		} else if (spread[k] > count[2]) {
			count[2] = spread[k];
			size[2] = k;
		}
	}
	if (total == 0)
		return;
	printf("  %s-bursts : %" PRIu64 " [", dir, total);
	for (unsigned int i = 0; i < 3; i++) {
		int pct;

		acc += count[i];
		if (acc == total) {
			printf("%d%% of %u pkts]\n", 100 - shown, size[i]);
			return;
		}
		pct = (int)((double)count[i] / (double)total * 100);
		printf("%d%% of %u pkts + ", pct, size[i]);
		shown += pct;
	}
	printf("%d%% of other]\n", 100 - shown);
}

/* The RX burst sizes of every stream that receives on port p. */
static void
port_bursts_show(uint16_t p)
{
	static uint64_t spread[FWD_MAX_BURST + 1];

	memset(spread, 0, sizeof(spread));
	for (unsigned int s = 0; s < fwd.nb_streams; s++)
		if (fwd.streams[s].rx_port == p)
			for (unsigned int k = 0; k <= FWD_MAX_BURST; k++)
				spread[k] += load(&fwd.streams[s].rx_burst_spread[k]);
	burst_spread_show("RX", spread);
}

/* Port ethdev counters at the last start / clear (testpmd's
 * fwd_stats_reset, nic_stats_clear). */
static struct rte_eth_stats port_base[RTE_MAX_ETHPORTS];

void
fwd_show_fwd_stats(void)
{
	uint64_t port_dropped[RTE_MAX_ETHPORTS] = { 0 };
	uint64_t t_rx = 0, t_rx_drop = 0, t_tx = 0, t_tx_drop = 0, t_nombuf = 0, cycles = 0;
	bool pipeline = fwd.opt.engine == fwd_engine_find("pipeline");

	for (unsigned int s = 0; s < fwd.nb_streams; s++) {
		const struct fwd_stream *fs = &fwd.streams[s];
		const struct fwd_counts *c = &fwd.cleared[s];
		struct fwd_counts n;
		uint64_t r, t, d;

		stream_counts(fs, &n);
		r = since(n.rx, c->rx);
		t = since(n.tx, c->tx);
		d = since(n.dropped, c->dropped);
		port_dropped[fs->tx_port] += d;
		cycles += since(n.core_cycles, c->core_cycles);
		/* testpmd leaves out a stream that did nothing. (It prints
		 * the others only with more streams than ports; tagpipe-fwd
		 * always does: they hold the frame counts RX = TX +
		 * TX-dropped and pipeline mode's Passed columns.) */
		if (r == 0 && t == 0 && d == 0)
			continue;
		printf("\n  ------- Forward Stats for RX Port=%2u/Queue=%2u -> TX Port=%2u/Queue=%2u -------\n",
		       fs->rx_port, fs->rx_queue, fs->tx_port, fs->tx_queue);
		/* RX, TX and TX-dropped count frames (RX = TX + TX-dropped
		 * once stopped, except frames txonly made); in pipeline mode
		 * PASS is shown both ways (GRO merges frames into fewer
		 * packets). */
		printf("  RX-packets: %-14" PRIu64 " TX-packets: %-14" PRIu64
		       " TX-dropped: %-14" PRIu64, r, t, d);
		if (pipeline)
			printf(" Passed-frames: %-14" PRIu64 " Passed-packets: %-14" PRIu64,
			       since(n.passed_frames, c->passed_frames),
			       since(n.passed, c->passed));
		printf("\n");
	}
	for (uint16_t i = 0; i < fwd.nb_ports; i++) {
		uint16_t p = fwd.port_ids[i];
		const struct rte_eth_stats *b = &port_base[p];
		struct rte_eth_stats st;
		uint64_t rx, rx_drop, tx, tx_drop;

		if (rte_eth_stats_get(p, &st) != 0)
			memset(&st, 0, sizeof(st));
		rx = since(st.ipackets, b->ipackets);
		rx_drop = since(st.imissed, b->imissed);
		tx = since(st.opackets, b->opackets);
		tx_drop = port_dropped[p] + since(st.oerrors, b->oerrors);
		printf("\n  ---------------------- Forward statistics for port %-2u ----------------------\n", p);
		printf("  RX-packets: %-14" PRIu64 " RX-dropped: %-14" PRIu64 "RX-total: %-" PRIu64 "\n",
		       rx, rx_drop, rx + rx_drop);
		if (st.ierrors + since(st.rx_nombuf, b->rx_nombuf) > 0) {
			printf("  RX-error: %-" PRIu64 "\n", st.ierrors);
			printf("  RX-nombufs: %-14" PRIu64 "\n", since(st.rx_nombuf, b->rx_nombuf));
		}
		printf("  TX-packets: %-14" PRIu64 " TX-dropped: %-14" PRIu64 "TX-total: %-" PRIu64 "\n",
		       tx, tx_drop, tx + tx_drop);
		if (fwd.opt.burst_stats)
			port_bursts_show(p);
		printf("  ----------------------------------------------------------------------------\n");
		t_rx += rx;
		t_rx_drop += rx_drop;
		t_tx += tx;
		t_tx_drop += tx_drop;
		t_nombuf += since(st.rx_nombuf, b->rx_nombuf);
	}
	printf("\n  +++++++++++++++ Accumulated forward statistics for all ports+++++++++++++++\n");
	printf("  RX-packets: %-14" PRIu64 " RX-dropped: %-14" PRIu64 "RX-total: %-" PRIu64 "\n",
	       t_rx, t_rx_drop, t_rx + t_rx_drop);
	printf("  TX-packets: %-14" PRIu64 " TX-dropped: %-14" PRIu64 "TX-total: %-" PRIu64 "\n",
	       t_tx, t_tx_drop, t_tx + t_tx_drop);
	if (t_nombuf > 0)
		printf("  RX-nombufs: %-14" PRIu64 "\n", t_nombuf);
	printf("  ++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++\n");
	/* testpmd's line, to the letter: busy cycles over the frames the
	 * ports received (frames sent, in txonly mode). */
	if (fwd.opt.core_cycles && (t_rx > 0 || t_tx > 0)) {
		bool tx_only = fwd.opt.engine == fwd_engine_find("txonly");
		uint64_t pkts = tx_only ? t_tx : t_rx;

		printf("\n  CPU cycles/packet=%.2F (total cycles=%" PRIu64 " / total %s packets=%"
		       PRIu64 ") at %" PRIu64 " MHz Clock\n",
		       pkts > 0 ? (double)cycles / (double)pkts : 0.0, cycles,
		       fwd.opt.engine->name, pkts, rte_get_tsc_hz() / 1000000);
	}
	fflush(stdout);
}

void
fwd_clear_fwd_stats(void)
{
	for (unsigned int s = 0; s < fwd.nb_streams; s++)
		stream_counts(&fwd.streams[s], &fwd.cleared[s]);
	for (uint16_t i = 0; i < fwd.nb_ports; i++)
		if (rte_eth_stats_get(fwd.port_ids[i], &port_base[fwd.port_ids[i]]) != 0)
			memset(&port_base[fwd.port_ids[i]], 0, sizeof(port_base[0]));
}

void
fwd_clear_port_stats(uint16_t port)
{
	fwd_port_clear_stats(port);
	if (port < RTE_MAX_ETHPORTS && rte_eth_stats_get(port, &port_base[port]) != 0)
		memset(&port_base[port], 0, sizeof(port_base[0]));
}

void
fwd_clear_stats(void)
{
	fwd_clear_fwd_stats();
	for (uint16_t i = 0; i < fwd.nb_ports; i++)
		fwd_clear_port_stats(fwd.port_ids[i]);
	if (!fwd.running) {
		fwd_pipeline_clear_stats();
		fwd_clear_fwd_stats();   /* from the pipelines' zeros */
	} else {
		printf("Pipeline counters kept: they are cleared only while stopped\n");
	}
	printf("Statistics cleared\n");
	fflush(stdout);
}

unsigned int
fwd_pool_in_use(void)
{
	return fwd.pool ? rte_mempool_in_use_count(fwd.pool) : 0;
}
