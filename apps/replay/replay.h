/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay: loads pcaps into memory and pushes them through the
 * pipeline in bursts, then reports what came out and what it cost.
 *
 * Files: options.c (command line), capture.c (pcap in and out), output.c
 * (what leaves, per verdict), report.c (stats JSON, per-frame JSONL),
 * pipe.c (the tagpipe pipeline and its callbacks), port.c (--via-port),
 * share.c and workers.c (--workers: the RSS split, one pipeline per lcore),
 * dpdk_gro.c (--compare dpdk-gro), bench.c (human summary, --json,
 * merge-size histogram), main.c (EAL, pool, replay loops).
 */
#ifndef TP_REPLAY_H
#define TP_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_mbuf.h>

#include "tagpipe.h"

#define REPLAY_MAX_INPUTS 16
#define REPLAY_MAX_BPF_MAPS 64 /* --bpf-map options, and --bpf-route options */
#define REPLAY_MAX_REDIRECTS 64
#define REPLAY_MAX_TPIDS 4   /* TP_VLAN_MAX_TPIDS */
#define REPLAY_EXIT_USAGE 2  /* bad input from the person: one-line error */

/* The verdicts a frame can leave with, in XDP's numbering. */
#define REPLAY_VERDICTS(X) \
	X(ABORTED, aborted) \
	X(DROP, drop) \
	X(PASS, pass) \
	X(TX, tx) \
	X(REDIRECT, redirect)

enum replay_verdict {
#define X(U, l) REPLAY_##U,
	REPLAY_VERDICTS(X)
#undef X
	REPLAY_NB_VERDICTS
};

extern const char *const replay_verdict_names[REPLAY_NB_VERDICTS];

/* --redirect KEY=port:P[,queue:Q][,switch_port:S] */
struct replay_redirect {
	uint32_t key;
	uint16_t port;
	uint16_t queue;
	int switch_port;  /* -1: the packet's own source switch port */
};

struct replay_opts {
	const char *inputs[REPLAY_MAX_INPUTS];
	unsigned int nb_inputs;
	unsigned int burst;
	unsigned long loops;
	const char *tagger;
	bool tagger_given;                     /* --tagger on the command line */
	const char *vlan;
	const char *gro;
	unsigned int gro_flows;                /* --gro-flows N (default 1024) */
	struct tp_pipeline_gro gro_conf;       /* --gro and --gro-flows */
	uint16_t tpids[REPLAY_MAX_TPIDS];      /* --vlan-tpid */
	unsigned int nb_tpids;
	struct replay_redirect redirects[REPLAY_MAX_REDIRECTS];
	unsigned int nb_redirects;
	uint16_t in_port;                      /* pipeline port frames enter on */
	int switch_cpu_port;                   /* --switch-cpu-port, -1: not given */
	const char *verdict;
	struct tp_prog *prog;                  /* --verdict, opened (tp_prog.h) */
	const char *write[REPLAY_NB_VERDICTS]; /* --write VERDICT=FILE */
	/* --write-format: 0 pcap, 1 pcapng, -1 from each file's suffix
	 * (".pcapng": pcapng, else pcap). */
	int write_format;
	const char *meta;                      /* --meta FILE.jsonl or "-" */
	const char *stats;                     /* --stats FILE.json or "-" */
	const char *json;                      /* --json FILE or "-" */
	/* Where the human summary goes: stdout, or stderr when one of --json,
	 * --stats, --meta writes stdout (which then holds only that), or
	 * nowhere with --quiet (NULL). */
	FILE *summary;
	bool compare_dpdk_gro;                 /* --compare dpdk-gro */
	bool gro_csum_given;                   /* --gro-csum on the command line */
	const char *via_port;                  /* --via-port VDEV */
	/* GRO flush interval shared by tagpipe and --compare: 0 = end of every
	 * burst, else microseconds (--gro age:USEC). */
	uint64_t gro_age_us;
	/* --workers N: N lcores, one pipeline each, the input split by RSS
	 * (workers.c); 0: off, the single-lcore replay. */
	unsigned int workers;
};

/* One in-memory input frame. */
struct replay_frame {
	uint8_t *data;
	uint32_t len;
	uint64_t ts_ns;   /* capture timestamp, ns since the epoch */
};

struct replay_input {
	struct replay_frame *frames;
	uint32_t nb_frames;
	uint64_t bytes;
	int dlt;          /* libpcap DLT_ of the inputs (all the same) */
	bool nsec;        /* an input has nanosecond timestamps (or is pcapng) */
};

/* Output pcaps declare this snaplen and hold records up to it: tcpdump's
 * and libpcap's MAXIMUM_SNAPLEN (pcap-int.h), which is also the largest
 * record libpcap reads back for Ethernet. It covers every merged packet
 * (a 65,535-byte IP datagram plus L2 headers and tags) and jumbo frames. */
#define REPLAY_SNAPLEN 262144u

/* An output pcap written to FILE.part and renamed on success. */
struct replay_writer;

/* Merge-size histogram: bucket b counts packets made of segments in
 * (hist_upper[b-1], hist_upper[b]]: 1, 2, 3-4, 5-8, 9-16, 17-32, 33-64, 65+. */
#define REPLAY_HIST_BUCKETS 8
extern const uint32_t replay_hist_upper[REPLAY_HIST_BUCKETS];

static inline void
replay_hist_add(uint64_t *hist, uint32_t segs)
{
	unsigned int b = 0;

	while (b < REPLAY_HIST_BUCKETS - 1 && segs > replay_hist_upper[b])
		b++;
	hist[b]++;
}

/* One figure per replay loop (--loops), for its median and spread. */
struct replay_series {
	double *v;
	unsigned long n, cap;
};

/* Append v; 0 or -ENOMEM. */
int replay_series_add(struct replay_series *s, double v);
/* Median, min and max of the values (all 0 when there are none). */
void replay_series_spread(const struct replay_series *s, double *med, double *min,
			  double *max);
void replay_series_free(struct replay_series *s);

/* What --compare dpdk-gro's survey counts, by what librte_gro 22.11 can do
 * with a frame after the untag stages (tcp4: merge; everything else is
 * passed through). */
enum replay_dgro_kind {
	REPLAY_DGRO_TCP4,
	REPLAY_DGRO_TCP6,       /* RTE_GRO_TCP_IPV6 is DPDK 23.07+ */
	REPLAY_DGRO_UDP4,
	REPLAY_DGRO_UDP6,
	REPLAY_DGRO_OTHER4,     /* ICMP, ... over IPv4 */
	REPLAY_DGRO_OTHER6,
	REPLAY_DGRO_NOT_IP,     /* ARP, ... */
	REPLAY_DGRO_UNTAG_DROP, /* dropped by the untag stages */
	REPLAY_DGRO_NB_KINDS
};
extern const char *const replay_dgro_kind_names[REPLAY_DGRO_NB_KINDS];

/* librte_gro's max_item_per_flow for --compare (dpdk_gro.c says why). */
#define REPLAY_DGRO_ITEMS 4

/* One engine's figures over the whole replay (tagpipe, or DPDK's GRO). */
struct replay_engine_stats {
	uint64_t in, out;         /* packets into the GRO step, packets out of it */
	uint64_t cycles;          /* TSC cycles inside the engine (DPDK: GRO) */
	uint64_t parse_cycles;    /* DPDK: ptype/header-length parse it needs */
	uint64_t untag_cycles;    /* DPDK: tagpipe's untag stages run first */
	uint64_t frames;          /* DPDK: frames into the untag step */
	uint64_t kinds[REPLAY_DGRO_NB_KINDS]; /* DPDK: survey, one input pass */
	uint32_t flows;           /* DPDK: TCP/IPv4 flows in the input */
	uint32_t max_flow_num;    /* DPDK: its table, from flows */
	struct replay_series loop_cpp; /* per loop: whole pipeline, cycles/frame */
	struct replay_series loop_gro; /* per loop: GRO alone, cycles/frame */
	uint64_t hist[REPLAY_HIST_BUCKETS];
	/* The cheapest loop of --loops (a machine shared with other work
	 * preempts some bursts; the best loop shows the engine's own cost). */
	uint64_t best_cycles;     /* cycles of that loop, 0: no loop done */
	uint64_t best_frames;     /* frames of that loop */
	uint64_t best_parse_cycles;
};

/* --compare dpdk-gro: both GRO engines alone on the input's TCP/IPv4
 * frames (gro_alone.c). */
struct replay_alone {
	uint64_t frames;               /* frames of one pass */
	uint64_t tp_out, dpdk_out;     /* packets out of one pass */
	struct replay_series tp, dpdk; /* per loop: cycles per frame */
};

/* Remember a finished loop in st if it was the cheapest per frame so far.
 * Returns true when it was. */
static inline bool
replay_best_loop(struct replay_engine_stats *st, uint64_t cycles, uint64_t parse,
		 uint64_t frames)
{
	if (frames == 0)
		return false;
	if (st->best_frames != 0 &&
	    (double)cycles / (double)frames >= (double)st->best_cycles / (double)st->best_frames)
		return false;
	st->best_cycles = cycles;
	st->best_parse_cycles = parse;
	st->best_frames = frames;
	return true;
}

/* A counter known by name only at run time (drop reasons, stage cycles). */
struct replay_named {
	const char *name;
	uint64_t value;
};

#define REPLAY_MAX_NAMED 64

struct replay_workers;

struct replay_counters {
	uint64_t rx, rx_bytes;
	uint64_t verdict[REPLAY_NB_VERDICTS];      /* frames, as they came in */
	uint64_t verdict_pkts[REPLAY_NB_VERDICTS]; /* packets (a merged one counts 1) */
	uint64_t gro_in, gro_out;
	uint64_t cycles;                       /* spent inside the pipeline */
	uint64_t port_cycles;                  /* --via-port: TX+RX through the port */
	uint64_t port_lost;                    /* --via-port: sent, never came back */
	uint64_t held_in_gro;
	uint64_t copies;                       /* made for broadcast redirects */
	const char *verdict_spec;              /* the --verdict spec */
	bool xdp;                              /* it is an XDP object: */
#ifdef TP_HAS_BPF
	struct tp_bpf_exec_info xdp_info;      /* how it runs */
#endif
	unsigned int mbufs_in_use_end;
	struct replay_named drop_reasons[REPLAY_MAX_NAMED];
	unsigned int nb_drop_reasons;
	struct replay_named stage_cycles[REPLAY_MAX_NAMED]; /* per stage, total */
	uint64_t best_stage_cycles[REPLAY_MAX_NAMED];       /* per stage, best loop */
	unsigned int nb_stages;
	struct replay_engine_stats tp;         /* tagpipe's merge histogram */
	struct replay_engine_stats dpdk;       /* --compare dpdk-gro */
	struct replay_alone alone;             /* --compare: GRO alone, TCP/IPv4 */
	/* --workers: each worker's own figures; the counters above are their
	 * sums (cycles too: all workers' pipeline cycles). NULL: off. */
	struct replay_workers *workers;
};

/* --workers: one worker's run (its lcore, its share, its pipeline). */
struct replay_worker_result {
	unsigned int lcore;
	struct replay_counters c;   /* its pipeline's counters alone */
	uint64_t wall_cycles;       /* TSC from the common start to its end */
};

struct replay_workers {
	unsigned int n;
	struct replay_worker_result *w;
	uint64_t wall_cycles;       /* the common start to the last worker's end */
};

/* options.c: parse app arguments; prints a one-line error and returns
 * -EINVAL on bad input. */
int replay_parse_args(int argc, char **argv, struct replay_opts *o);
void replay_usage(FILE *f, const char *prog);

/* linktype.c: pcap link types (libpcap DLT_ values) and the taggers. */
/* The tagger whose tag a DSA link type names, or NULL. */
const char *replay_linktype_tagger(int dlt);
/* The DSA link type of a tagger's tag, else DLT_EN10MB. */
int replay_tagger_linktype(const char *tagger);
/* Frames start with an Ethernet header (possibly switch-tagged). */
bool replay_linktype_is_ethernet(int dlt);
/* "Raw IP (LINKTYPE_RAW)", as libpcap names it, into buf. */
const char *replay_linktype_name(int dlt, char *buf, size_t size);
/* After loading: a DSA link type picks the tagger when --tagger was not
 * given; a --tagger that names another tag is refused. 0 or -EINVAL. */
int replay_tagger_from_input(struct replay_opts *o, const struct replay_input *in);

/* capture.c */
int replay_load(const char *const *paths, unsigned int n, struct replay_input *in);
void replay_input_free(struct replay_input *in);
/* The capture timestamp a frame's mbuf carries (DPDK's RX timestamp
 * dynfield, copied into the segments GSO makes); registered by
 * replay_timestamp_init. */
int replay_timestamp_init(void);
void replay_timestamp_set(struct rte_mbuf *m, uint64_t ts_ns);
uint64_t replay_timestamp(const struct rte_mbuf *m);
/* Frames replay_load read (all inputs): a frame id modulo this is the
 * frame's index in the input (ids run on across --loops). */
extern uint32_t replay_nb_input_frames;
/* A number per input frame in a second dynfield (registered with the
 * timestamp): a merged packet keeps its first frame's, and the segments GSO
 * makes of it their packet's, so the segments of one packet are known on
 * egress (merge-size histogram of TX and REDIRECT). */
void replay_frame_id_set(struct rte_mbuf *m, uint32_t id);
uint32_t replay_frame_id(const struct rte_mbuf *m);
/* A pcap of link type dlt (libpcap DLT_), nanosecond timestamps if nsec;
 * or a pcapng (always nanoseconds). */
struct replay_writer *replay_writer_open(const char *path, int dlt, bool nsec,
					 bool pcapng);

/* pcapng.c: a Section Header and one Interface Description Block of that
 * link type; then one Enhanced Packet Block per frame. 0 or -EIO. */
int replay_pcapng_header(FILE *f, int linktype, uint32_t snaplen);
int replay_pcapng_packet(FILE *f, uint64_t ts_ns, const uint8_t *data, uint32_t len);
int replay_writer_put(struct replay_writer *w, const struct rte_mbuf *m);
int replay_writer_commit(struct replay_writer *w);  /* close + rename */
void replay_writer_abort(struct replay_writer *w);  /* close + unlink */

/* report.c */
/* What --meta prints of one output frame. */
struct replay_frame_meta {
	uint32_t frame;         /* index of the input frame it starts with
				 * (0-based, all inputs in order) */
	uint64_t ts_ns;         /* that frame's capture timestamp */
	int switch_port;        /* -1: none */
	unsigned int switch_device; /* switch index in a cascade (with a port) */
	uint16_t vlan[2];       /* TCIs, outer first */
	unsigned int nb_vlan;
	uint32_t gso_segs;      /* 1 for a frame GRO did not merge */
	uint32_t gso_size;      /* payload per segment, 0 when not merged */
	int out_port;           /* TX/REDIRECT: egress port, else -1 */
	uint16_t out_queue;
};

struct replay_meta;
struct replay_meta *replay_meta_open(const char *path);
int replay_meta_put(struct replay_meta *mf, enum replay_verdict v,
		    const struct rte_mbuf *m, const struct replay_frame_meta *fm);
int replay_meta_commit(struct replay_meta *mf);
void replay_meta_abort(struct replay_meta *mf);
int replay_stats_write(const char *path, const struct replay_counters *c);
/* Can path ("-": stdout) be written? Checked before the run, so a bad
 * path fails first and leaves nothing. 0 or -errno (message printed). */
int replay_json_probe(const char *path);
/* Write what fill prints to path ("-": stdout) through path.part + rename. */
int replay_write_json(const char *path, void (*fill)(FILE *f, const void *arg),
		      const void *arg);
/* {"name":value,...}; skip_zero leaves out zero counters. */
void replay_json_named(FILE *f, const struct replay_named *v, unsigned int n,
		       bool skip_zero);
void replay_summary(FILE *f, const struct replay_opts *o,
		    const struct replay_counters *c, uint64_t tsc_hz);

/* output.c: what leaves, per verdict (--write, --meta, merge histogram). */
struct replay_out {
	struct replay_writer *pcap[REPLAY_NB_VERDICTS];
	struct replay_meta *meta;
	uint64_t *hist;   /* merge-size histogram to count into, or NULL */
	/* Egress: the packet whose segments are being counted (its frame id)
	 * and how many came so far; counted when another packet starts. */
	uint32_t seg_id;
	uint32_t seg_run;
	int error;        /* first write error (-EIO); later frames are skipped */
};
int replay_out_open(const struct replay_opts *o, const struct replay_input *in,
		    struct replay_out *out);
/* Write/record n frames leaving with verdict v (read-only; not freed).
 * merged_hist: count them in out->hist by segment count (PASS: the packets
 * as they are); TX and REDIRECT frames are egress segments, counted per
 * packet by frame id; DROP is not counted. */
void replay_out_emit(struct replay_out *out, enum replay_verdict v,
		     struct rte_mbuf *const *pkts, uint16_t n, bool merged_hist,
		     int out_port, uint16_t out_queue);
/* Count the packet whose egress segments were last seen (end of run). */
void replay_out_hist_flush(struct replay_out *out);
int replay_out_commit(struct replay_out *out);
void replay_out_abort(struct replay_out *out);

/* pipe.c: tagpipe's side of the replay (the pipeline, with callbacks that
 * hand what leaves to replay_out). */
struct replay_tp;
/* NULL on failure with *rc = -EINVAL (bad configuration, message printed)
 * or another negative errno. */
struct replay_tp *replay_tp_create(const struct replay_opts *o,
				   struct rte_mempool *mp, struct replay_out *out,
				   int socket_id, int *rc);
/* Takes all n mbufs. Adds the cycles spent inside tagpipe (not in our
 * callbacks) to the counters read by replay_tp_counters. 0 or -errno. */
int replay_tp_burst(struct replay_tp *t, struct rte_mbuf **pkts, uint16_t n);
/* Complete everything held (GRO). 0 or -errno. */
int replay_tp_drain(struct replay_tp *t);
/* End of one replay loop of frames frames: keeps the cheapest loop's
 * cycles, in total and per stage, in c. */
void replay_tp_loop_end(struct replay_tp *t, uint64_t frames, struct replay_counters *c);
/* Verdicts, drop reasons, stage cycles, GRO in/out into c. */
void replay_tp_counters(struct replay_tp *t, struct replay_counters *c);
void replay_tp_destroy(struct replay_tp *t);

/* port.c: --via-port. The vdev is created, given one RX and one TX queue
 * and started; a round trip sends a burst and receives it back (a loopback
 * port: net_ring, net_aqc_sim with wire=loop). */
struct replay_port;
struct replay_port *replay_port_open(const char *vdev, struct rte_mempool *mp);
/* Send *n frames, receive what comes back into pkts, *n = that count.
 * Frames the port loses are counted in c->port_lost. 0 or -errno. */
int replay_port_roundtrip(struct replay_port *p, struct rte_mbuf **pkts,
			  uint16_t *n, struct replay_counters *c);
void replay_port_close(struct replay_port *p);
uint16_t replay_port_id(const struct replay_port *p);

/* bench.c: --json and the --compare table. */
int replay_json_write(const char *path, const struct replay_opts *o,
		      const struct replay_counters *c, uint64_t tsc_hz);

/* pipe.c: the pipeline port configuration the options describe (tagger,
 * switch CPU port, VLAN policy and TPIDs); --compare untags with it too. */
void replay_port_conf(const struct replay_opts *o, struct tp_port_conf *pc);

/* dpdk_gro.c: DPDK's librte_gro in context mode (--compare dpdk-gro),
 * after tagpipe's untag stages. Use: create, survey every burst of the
 * input once, start, then burst / drain. */
struct replay_dgro;
struct replay_dgro *replay_dgro_create(const struct replay_opts *o, uint64_t flush_tsc);
void replay_dgro_destroy(struct replay_dgro *d);
/* Untag and classify n frames (st->kinds, the TCP/IPv4 flows), then free
 * them. 0 or -ENOMEM. */
int replay_dgro_survey(struct replay_dgro *d, struct rte_mbuf **pkts, uint16_t n,
		       struct replay_engine_stats *st);
/* Create the GRO context for the flows the survey found (st->flows,
 * st->max_flow_num). 0 or -ENOMEM. */
int replay_dgro_start(struct replay_dgro *d, int socket_id, struct replay_engine_stats *st);
/* Takes all n mbufs; writes what leaves to out (room >= 2 * n) and returns
 * the count. Untags and fills in packet_type and l2/l3/l4_len first (each
 * timed apart). */
uint16_t replay_dgro_burst(struct replay_dgro *d, struct rte_mbuf **pkts,
			   uint16_t n, struct rte_mbuf **out, uint16_t max_out,
			   struct replay_engine_stats *st);
/* Everything still held, at most max_out; call while replay_dgro_held(). */
uint16_t replay_dgro_drain(struct replay_dgro *d, struct rte_mbuf **out,
			   uint16_t max_out, struct replay_engine_stats *st);
uint64_t replay_dgro_held(struct replay_dgro *d);
/* The untag step alone (tagpipe's DSA and VLAN strip; frames they drop are
 * freed): returns how many are left, at the front of pkts. */
uint16_t replay_dgro_untag(struct replay_dgro *d, struct rte_mbuf **pkts, uint16_t n);
/* packet_type and l2/l3/l4_len as a NIC with ptype offload gives them. */
void replay_dgro_ptype(struct rte_mbuf **pkts, uint16_t n);

/* gro_alone.c: tp_gro and librte_gro alone on the same frames (sub: the
 * input's TCP/IPv4 frames), per loop of --loops. */
int replay_gro_alone(const struct replay_opts *o, const struct replay_input *sub,
		     struct rte_mempool *mp, struct replay_dgro *d, uint16_t max_flow_num,
		     struct replay_alone *res);
/* main.c: frames [first, first + n) of in as mbufs; 0, or -ENOMEM with
 * nothing allocated. */
int replay_make_burst(struct rte_mempool *mp, const struct replay_input *in,
		      uint32_t first, struct rte_mbuf **pkts, uint16_t n);

/* main.c: --loops replays of in through t (and port, if any), counted
 * in c; the single-lcore replay, and each worker's. 0 or -errno. */
int replay_run_tagpipe(const struct replay_opts *o, const struct replay_input *in,
		       struct rte_mempool *mp, struct replay_tp *t,
		       struct replay_port *port, struct replay_counters *c);

/* share.c: the RSS split of --workers. */
/* Toeplitz hash (Microsoft default key) of a frame's IPv4/IPv6 addresses
 * and TCP/UDP ports, as a NIC's RSS computes it; -EINVAL for a frame a NIC
 * would not hash (not IP after up to two VLAN tags, or cut short). */
int replay_rss_hash(const uint8_t *frame, uint32_t len, uint32_t *hash);
/* The queue (share) of n a hash goes to: a 128-entry redirection table
 * filled round-robin. */
unsigned int replay_rss_queue(uint32_t hash, unsigned int n);
/* Split in into n shares (frames not hashed: share 0), each in input
 * order; the shares point at in's frames (not copied). 0 or -ENOMEM. */
int replay_split(const struct replay_input *in, unsigned int n,
		 struct replay_input *shares);
void replay_split_free(struct replay_input *shares, unsigned int n);

/* workers.c: --workers. */
/* The first n CPUs this process may run on, as an EAL lcore list ("0,1"),
 * for the default EAL options; -EINVAL (message printed) when there are
 * fewer than n. */
int replay_workers_lcores(unsigned int n, char *buf, size_t len);
/* The EAL has at least o->workers lcores; else a one-line error, -EINVAL. */
int replay_workers_check(const struct replay_opts *o);
/* Replay in's shares on o->workers lcores (the main one is worker 0), one
 * pipeline each, started together; c gets the sums and c->workers each
 * worker's figures (replay_workers_free). 0 or -errno. */
int replay_run_workers(const struct replay_opts *o, const struct replay_input *in,
		       struct rte_mempool *mp, struct replay_counters *c);
void replay_workers_free(struct replay_counters *c);

/* Silence stderr (returns a handle for restore) while a library checks
 * configuration it explains on stderr; our one-line error says it. */
int replay_stderr_mute(void);
void replay_stderr_restore(int saved);

/* Print a one-line error naming the problem, prefixed with the program name. */
void replay_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* TP_REPLAY_H */
