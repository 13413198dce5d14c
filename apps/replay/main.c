/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay: replay pcaps through the pipeline.
 *
 * Frames are loaded into memory first, so every bad input is reported before
 * DPDK starts and before any output file exists. Each burst is copied into
 * mbufs (not timed), optionally sent through a port and received back
 * (--via-port, timed apart), handed to tagpipe (timed with the TSC, minus the
 * time spent in our output callbacks), and what comes out is written per
 * verdict and freed. With --compare dpdk-gro the same frames are then
 * replayed through DPDK's librte_gro in the same run. With --workers the
 * same loop runs on each worker's lcore over its share (workers.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "replay.h"
#include "tp_dsa_tag.h"
#include "tp_eal.h"
#include "tp_prog.h"

/* At most this many mbufs (bursts of 1024 and GRO tables of thousands of
 * flows), and at most REPLAY_POOL_BYTES of memory: DPDK gives 64 MiB by
 * default without hugepages. */
#define REPLAY_POOL_MAX 16383
#define REPLAY_POOL_BYTES (40u << 20)

static unsigned int replay_pool_size;

/* Bytes every mbuf keeps free at its tail: the longest TX trailer of any
 * tail tagger (e.g. ksz9477's and lan937x's 2-byte tag, net/dsa/tag_ksz.c),
 * which the tagger appends to the last segment. Without it the largest
 * frame of a capture, and every segment of a re-segmented merge (each
 * segment is one of these mbufs, tp_gro.h), is dropped as no_tailroom. */
static uint32_t
tx_tail_reserve(void)
{
	const struct tp_dsa_tagger *t[TP_DSA_PROTO_MAX];
	unsigned int n = RTE_MIN(tp_dsa_tagger_list(t, TP_DSA_PROTO_MAX),
				 (unsigned int)TP_DSA_PROTO_MAX);
	uint32_t r = 0;

	for (unsigned int i = 0; i < n; i++)
		if (t[i]->position == TP_DSA_POS_TAIL)
			r = RTE_MAX(r, (uint32_t)t[i]->tx_len);
	return r;
}

static uint32_t replay_tail_reserve;

/* With an XDP object as the verdict, a frame's first mbuf is laid out as
 * the kernel lays out an XDP frame (BPF_PROG_TEST_RUN's, and drivers' of a
 * page per frame: net/bpf/test_run.c, include/net/xdp.h): XDP_PACKET_HEADROOM
 * (256) in front and room for a frame of 4096 - 256 - 320 bytes, the page
 * less the headroom and the kernel's skb_shared_info. So
 * bpf_xdp_adjust_head and bpf_xdp_adjust_tail reach exactly as far as in
 * the kernel (docs/xdp.md). */
#define REPLAY_XDP_FRAME 3520u
static uint16_t replay_headroom = RTE_PKTMBUF_HEADROOM;

/* One mbuf holds the largest input frame, as a NIC configured for that MTU
 * would deliver it (GRO merges single-segment frames only, tp_gro.h), plus
 * the TX tail reserve, and for an XDP object the kernel's frame (above); a
 * frame beyond one mbuf's 64 KiB is chained, every segment keeping the
 * reserve. The pool shrinks to stay within REPLAY_POOL_BYTES. */
static struct rte_mempool *
pool_create(const struct replay_input *in, bool xdp)
{
	uint32_t maxlen = RTE_MBUF_DEFAULT_DATAROOM;
	uint32_t room, elt;

	replay_tail_reserve = tx_tail_reserve();
	for (uint32_t i = 0; i < in->nb_frames; i++)
		maxlen = RTE_MAX(maxlen, in->frames[i].len + replay_tail_reserve);
	if (xdp) {
		replay_headroom = XDP_PACKET_HEADROOM;
		maxlen = RTE_MAX(maxlen, REPLAY_XDP_FRAME);
	}
	room = RTE_MIN(maxlen + replay_headroom, (uint32_t)UINT16_MAX);
	elt = room + (uint32_t)sizeof(struct rte_mbuf) + 64;
	replay_pool_size = RTE_MIN((uint32_t)REPLAY_POOL_MAX, REPLAY_POOL_BYTES / elt);
	return rte_pktmbuf_pool_create("replay_pool", replay_pool_size, 256, 0,
				       (uint16_t)room, (int)rte_socket_id());
}

/* Numbers the frames in the order they are made (replay_frame_id), on
 * each lcore apart (--workers: each worker numbers its own). */
static RTE_DEFINE_PER_LCORE(uint32_t, next_frame_id);

/* Copy one frame into a (possibly chained) mbuf, each segment keeping the
 * TX tail reserve free. */
static struct rte_mbuf *
frame_to_mbuf(struct rte_mempool *mp, const struct replay_frame *f)
{
	struct rte_mbuf *head = NULL, *tail = NULL;
	uint32_t off = 0;

	do {
		struct rte_mbuf *seg = rte_pktmbuf_alloc(mp);
		uint32_t n;

		if (seg == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
		if (head == NULL)
			seg->data_off = replay_headroom;
		n = RTE_MIN(f->len - off,
			    (uint32_t)rte_pktmbuf_tailroom(seg) - replay_tail_reserve);
		memcpy(rte_pktmbuf_append(seg, (uint16_t)n), f->data + off, n);
		off += n;
		if (head == NULL) {
			head = tail = seg;
		} else {
			tail->next = seg;
			tail = seg;
			head->nb_segs++;
			head->pkt_len += n;
		}
	} while (off < f->len);
	replay_timestamp_set(head, f->ts_ns);
	replay_frame_id_set(head, RTE_PER_LCORE(next_frame_id)++);
	return head;
}

/* Fill pkts with frames [first, first + n) of the input. Returns 0, or
 * -ENOMEM with nothing allocated. */
int
replay_make_burst(struct rte_mempool *mp, const struct replay_input *in, uint32_t first,
	   struct rte_mbuf **pkts, uint16_t n)
{
	for (uint16_t k = 0; k < n; k++) {
		pkts[k] = frame_to_mbuf(mp, &in->frames[first + k]);
		if (pkts[k] == NULL) {
			rte_pktmbuf_free_bulk(pkts, k);
			return -ENOMEM;
		}
	}
	return 0;
}

/* The same, and when the pool is dry, let the engine give back what it
 * holds (drain) and try once more. */
static int
make_burst_or_drain(struct rte_mempool *mp, const struct replay_input *in,
		    uint32_t first, struct rte_mbuf **pkts, uint16_t n,
		    int (*drain)(void *arg), void *arg)
{
	if (replay_make_burst(mp, in, first, pkts, n) == 0)
		return 0;
	if (drain(arg) == 0 && replay_make_burst(mp, in, first, pkts, n) == 0)
		return 0;
	replay_err("mbuf pool exhausted (%u mbufs)", replay_pool_size);
	return -ENOMEM;
}

static int
tp_drain(void *arg)
{
	struct replay_tp *t = arg;

	return replay_tp_drain(t);
}

int
replay_run_tagpipe(const struct replay_opts *o, const struct replay_input *in,
		   struct rte_mempool *mp, struct replay_tp *t, struct replay_port *port,
		   struct replay_counters *c)
{
	struct rte_mbuf **pkts = calloc(o->burst, sizeof(*pkts));
	int rc = 0;

	if (pkts == NULL)
		return -ENOMEM;
	for (unsigned long loop = 0; loop < o->loops && rc == 0; loop++) {
		uint64_t rx0 = c->rx;

		for (uint32_t i = 0; i < in->nb_frames && rc == 0; i += o->burst) {
			uint16_t n = (uint16_t)RTE_MIN((uint32_t)o->burst, in->nb_frames - i);

			rc = make_burst_or_drain(mp, in, i, pkts, n, tp_drain, t);
			if (rc < 0)
				break;
			if (port != NULL) {
				uint16_t sent = n;

				rc = replay_port_roundtrip(port, pkts, &n, c);
				if (rc < 0)
					break;
				/* A driver delivers into mbufs of its own choice,
				 * whose dynfields hold what their last use left: a
				 * loopback gives the frames back in order, so they
				 * get their timestamp and a fresh id again (with
				 * losses the order is unknown; the run fails). */
				for (uint16_t k = 0; n == sent && k < n; k++) {
					replay_timestamp_set(pkts[k], in->frames[i + k].ts_ns);
					replay_frame_id_set(pkts[k], RTE_PER_LCORE(next_frame_id)++);
				}
			}
			for (uint16_t k = 0; k < n; k++)
				c->rx_bytes += rte_pktmbuf_pkt_len(pkts[k]);
			c->rx += n;
			rc = replay_tp_burst(t, pkts, n);
		}
		if (rc == 0)
			replay_tp_loop_end(t, c->rx - rx0, c);
	}
	if (rc == 0)
		rc = replay_tp_drain(t);
	free(pkts);
	return rc;
}

struct dgro_drain_arg {
	struct replay_dgro *d;
	struct rte_mbuf **out;
	uint16_t max;
	struct replay_engine_stats *st;
};

static int
dgro_drain(void *arg)
{
	struct dgro_drain_arg *a = arg;

	while (replay_dgro_held(a->d) > 0) {
		uint16_t k = replay_dgro_drain(a->d, a->out, a->max, a->st);

		rte_pktmbuf_free_bulk(a->out, k);
		if (k == 0)
			return -EIO;
	}
	return 0;
}

/* --compare dpdk-gro: the same frames, bursts and flush interval through
 * tagpipe's untag stages and DPDK's librte_gro. A survey pass first counts
 * what librte_gro can merge and sizes its table for the input's flows
 * (not timed). Outputs are counted and freed (not written). */
static int
run_dpdk_gro(const struct replay_opts *o, const struct replay_input *in,
	     struct rte_mempool *mp, struct replay_counters *c)
{
	uint16_t max_out = (uint16_t)(2 * o->burst);
	struct rte_mbuf **pkts = calloc(o->burst, sizeof(*pkts));
	struct rte_mbuf **out = calloc(max_out, sizeof(*out));
	uint64_t flush = o->gro_age_us * rte_get_tsc_hz() / 1000000;
	struct replay_dgro *d = replay_dgro_create(o, flush);
	struct dgro_drain_arg da = { d, out, max_out, &c->dpdk };
	struct replay_engine_stats *e = &c->dpdk;
	struct replay_input sub = { 0 };
	int rc = 0;

	if (pkts == NULL || out == NULL || d == NULL) {
		replay_err("cannot set up DPDK's GRO comparison");
		rc = -ENOMEM;
		goto end;
	}
	/* frame by frame, to keep the TCP/IPv4 ones for the GRO-alone row */
	sub.frames = calloc(RTE_MAX(in->nb_frames, 1u), sizeof(*sub.frames));
	if (sub.frames == NULL)
		rc = -ENOMEM;
	for (uint32_t i = 0; i < in->nb_frames && rc == 0; i++) {
		uint64_t tcp4 = e->kinds[REPLAY_DGRO_TCP4];

		rc = replay_make_burst(mp, in, i, pkts, 1);
		if (rc == 0)
			rc = replay_dgro_survey(d, pkts, 1, e);
		if (rc == 0 && e->kinds[REPLAY_DGRO_TCP4] > tcp4)
			sub.frames[sub.nb_frames++] = in->frames[i];
	}
	if (rc == 0)
		rc = replay_dgro_start(d, (int)rte_socket_id(), e);
	if (rc < 0) {
		replay_err("cannot set up DPDK's GRO context for %u flows", e->flows);
		goto end;
	}
	for (unsigned long loop = 0; loop < o->loops && rc == 0; loop++) {
		uint64_t cyc0 = e->cycles, parse0 = e->parse_cycles, untag0 = e->untag_cycles;
		uint64_t gro, all;

		for (uint32_t i = 0; i < in->nb_frames; i += o->burst) {
			uint16_t n = (uint16_t)RTE_MIN((uint32_t)o->burst, in->nb_frames - i);
			uint16_t k;

			rc = make_burst_or_drain(mp, in, i, pkts, n, dgro_drain, &da);
			if (rc < 0)
				break;
			k = replay_dgro_burst(d, pkts, n, out, max_out, e);
			rte_pktmbuf_free_bulk(out, k);
		}
		if (rc < 0 || in->nb_frames == 0)
			break;
		gro = e->cycles - cyc0;
		all = gro + e->parse_cycles - parse0 + e->untag_cycles - untag0;
		replay_best_loop(e, gro, e->parse_cycles - parse0, in->nb_frames);
		if (replay_series_add(&e->loop_gro, (double)gro / in->nb_frames) < 0 ||
		    replay_series_add(&e->loop_cpp, (double)all / in->nb_frames) < 0)
			rc = -ENOMEM;
	}
	if (rc == 0)
		rc = dgro_drain(&da);
	if (rc == 0)
		rc = replay_gro_alone(o, &sub, mp, d, (uint16_t)e->max_flow_num, &c->alone);
end:
	free(sub.frames);     /* the frames' data belongs to in */
	replay_dgro_destroy(d);
	free(out);
	free(pkts);
	return rc;
}

/* Leave early with code: what the options and the loader allocated is
 * freed first, so a sanitizer build reports nothing on a bad-input exit. */
static int
quit(int code, struct replay_opts *o, struct replay_input *in)
{
	tp_prog_close(o->prog);
	o->prog = NULL;
	replay_input_free(in);
	return code;
}

/* The same once the pool exists (everything from it already freed). */
static int
quit_pool(int code, struct replay_opts *o, struct replay_input *in, struct rte_mempool *mp)
{
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return quit(code, o, in);
}

int
main(int argc, char **argv)
{
	const char *eal_defaults[] = {
		"-l", "0", "--no-pci", "--no-telemetry", "--log-level=lib.eal:error", NULL,
	};
	char lcores[256];
	struct replay_counters c = { 0 };
	struct replay_port *port = NULL;
	struct replay_tp *t = NULL;
	struct replay_input in;
	struct replay_opts o;
	struct replay_out out;
	struct rte_mempool *mp;
	char err[256], *before_app;
	int app, rc;

	/* EAL options first (then "--"), as tp_eal.h says; out of place is an
	 * error naming the argument. */
	app = tp_eal_app_args(argc, argv, err, sizeof(err));
	if (app < 0) {
		replay_err("%s", err);
		return REPLAY_EXIT_USAGE;
	}
	/* Parse and load everything before the EAL starts: bad input is
	 * reported without DPDK's noise and before any file is created. */
	before_app = argv[app - 1];
	argv[app - 1] = argv[0];
	memset(&in, 0, sizeof(in));
	rc = replay_parse_args(argc - app + 1, argv + app - 1, &o);
	if (rc < 0)
		return quit(REPLAY_EXIT_USAGE, &o, &in);
	if (replay_load(o.inputs, o.nb_inputs, &in) < 0)
		return quit(REPLAY_EXIT_USAGE, &o, &in);
	if (replay_tagger_from_input(&o, &in) < 0)
		return quit(REPLAY_EXIT_USAGE, &o, &in);
	if ((o.stats != NULL && replay_json_probe(o.stats) < 0) ||
	    (o.json != NULL && replay_json_probe(o.json) < 0))
		return quit(REPLAY_EXIT_USAGE, &o, &in);
	argv[app - 1] = before_app;
	/* --workers N without EAL options: the first N CPUs this process may
	 * run on, one lcore each (the main lcore is worker 0). */
	if (o.workers > 1 && app <= 1) {
		if (replay_workers_lcores(o.workers, lcores, sizeof(lcores)) < 0)
			return quit(REPLAY_EXIT_USAGE, &o, &in);
		eal_defaults[1] = lcores;
	}
	/* The EAL logs to stdout by default: keep a document there clean. */
	if (o.summary != stdout)
		rte_openlog_stream(stderr);

	if (tp_eal_init(app > 1 ? argc : 1, argv, eal_defaults, NULL) < 0) {
		replay_err("cannot start DPDK's EAL");
		return quit(1, &o, &in);
	}
	if (o.workers > 0 && replay_workers_check(&o) < 0) {
		rte_eal_cleanup();
		return quit(REPLAY_EXIT_USAGE, &o, &in);
	}
	if (replay_timestamp_init() < 0) {
		replay_err("cannot register the mbuf timestamp field: %s",
			   rte_strerror(rte_errno));
		return 1;
	}
	{
		bool xdp = false;
#ifdef TP_HAS_BPF
		struct tp_bpf_exec_info xi;

		xdp = tp_prog_bpf_exec_info(o.prog, &xi) == 0;
#endif
		mp = pool_create(&in, xdp);
	}
	if (mp == NULL) {
		replay_err("cannot create the mbuf pool: %s", rte_strerror(rte_errno));
		return quit(1, &o, &in);
	}
	/* Configuration only DPDK can judge (a vdev, what the pipeline checks
	 * at create) fails here, before any output file exists. */
	if (o.via_port != NULL) {
		port = replay_port_open(o.via_port, mp);
		if (port == NULL)
			return quit_pool(REPLAY_EXIT_USAGE, &o, &in, mp);
		o.in_port = replay_port_id(port);
		if (o.in_port >= TP_PIPELINE_MAX_PORTS) {
			replay_err("--via-port: port id %u is beyond the pipeline's %d ports",
				   o.in_port, TP_PIPELINE_MAX_PORTS);
			replay_port_close(port);
			return quit_pool(REPLAY_EXIT_USAGE, &o, &in, mp);
		}
	}
	if (replay_out_open(&o, &in, &out) < 0) {
		replay_port_close(port);
		return quit_pool(REPLAY_EXIT_USAGE, &o, &in, mp);
	}
	out.hist = c.tp.hist;
	if (o.workers > 0) {
		/* No output file with --workers (options.c): out stays empty. */
		rc = replay_run_workers(&o, &in, mp, &c);
		if (rc == -EINVAL) {
			replay_out_abort(&out);
			replay_workers_free(&c);
			return quit_pool(REPLAY_EXIT_USAGE, &o, &in, mp);
		}
		goto ran;
	}
	t = replay_tp_create(&o, mp, &out, (int)rte_socket_id(), &rc);
	if (t == NULL) {
		replay_out_abort(&out);
		replay_port_close(port);
		return quit_pool(rc == -EINVAL ? REPLAY_EXIT_USAGE : 1, &o, &in, mp);
	}
	rc = replay_run_tagpipe(&o, &in, mp, t, port, &c);
	if (out.error != 0) {
		replay_err("writing an output file failed: %s", strerror(-out.error));
		rc = out.error;
	}
	replay_out_hist_flush(&out);
	replay_tp_counters(t, &c);
	replay_tp_destroy(t);
ran:
	if (rc == 0 && o.compare_dpdk_gro)
		rc = run_dpdk_gro(&o, &in, mp, &c);
	replay_port_close(port);
	c.mbufs_in_use_end = rte_mempool_in_use_count(mp);
	c.verdict_spec = o.verdict;
#ifdef TP_HAS_BPF
	c.xdp = tp_prog_bpf_exec_info(o.prog, &c.xdp_info) == 0;
#endif
	if (rc < 0) {
		replay_out_abort(&out);
		replay_workers_free(&c);
		return 1;
	}
	if (replay_out_commit(&out) < 0)
		return 1;
	if (o.stats != NULL && replay_stats_write(o.stats, &c) < 0)
		return 1;
	if (o.json != NULL && replay_json_write(o.json, &o, &c, rte_get_tsc_hz()) < 0)
		return 1;
	if (o.summary != NULL)
		replay_summary(o.summary, &o, &c, rte_get_tsc_hz());
	/* A port that loses frames (net_aqc_sim mode=step does not loop them
	 * back by itself) made a replay of less than the input: the outputs
	 * and counters say what did come through, the exit status that the
	 * run is not the whole input. */
	if (c.port_lost > 0) {
		replay_err("--via-port %s: %lu of %lu frames sent were lost in the port",
			   o.via_port, c.port_lost, c.port_lost + c.rx);
		rc = 1;
	}
	tp_prog_close(o.prog);
	replay_series_free(&c.tp.loop_cpp);
	replay_series_free(&c.tp.loop_gro);
	replay_series_free(&c.dpdk.loop_cpp);
	replay_series_free(&c.dpdk.loop_gro);
	replay_series_free(&c.alone.tp);
	replay_series_free(&c.alone.dpdk);
	replay_workers_free(&c);
	replay_input_free(&in);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return rc < 0 ? 1 : rc;
}
