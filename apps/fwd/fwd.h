/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-fwd: a dpdk-testpmd for tagged traffic.
 *
 * Shape (testpmd's): ports are set up once; a *stream* is one RX queue of one
 * port together with the TX queue it forwards to; every stream belongs to
 * exactly one forwarding lcore (share-nothing: a TX queue is written by one
 * stream only). A forwarding *engine* is one small file ending in a const
 * struct fwd_engine; all engines are listed in fwd_engines[] (engines.c).
 *
 * Invariants
 *  - A stream's counters are written only by its lcore; the main lcore reads
 *    them (relaxed 64-bit loads) and keeps its own "cleared at" snapshot.
 *  - The engine of a running lcore never changes: set fwd needs stop first.
 *  - An engine never holds an mbuf across bursts except through the pipeline
 *    (GRO), which stream_drain() flushes when forwarding stops. So after
 *    stop, every mbuf is back in the pool or in a PMD's RX ring.
 */
#ifndef FWD_H
#define FWD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#define FWD_MAX_PORTS 32
#define FWD_MAX_QUEUES 16
#define FWD_MAX_BURST 256
#define FWD_MAX_STREAMS (FWD_MAX_PORTS * FWD_MAX_QUEUES)
#define FWD_MAX_TAGGER_NAME 32
#define FWD_MAX_VERDICT 256
#define FWD_MAX_BPF_MAPS 64
#define FWD_MAX_REDIRECTS 64

extern int fwd_logtype;
#define FWD_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, fwd_logtype, "tagpipe.fwd: " fmt "\n", ##__VA_ARGS__)

/* Exit status for bad command-line options (testpmd/getopt convention). */
#define FWD_EXIT_USAGE 2

struct fwd_stream {
	uint16_t rx_port;
	uint16_t rx_queue;
	uint16_t tx_port;
	uint16_t tx_queue;
	struct rte_mempool *mp;   /* mbuf pool (txonly frames, GSO copies) */
	void *ctx;                /* engine-private (pipeline instance) */
	/* Written by the owning lcore only. */
	uint64_t rx_pkts;
	uint64_t tx_pkts;
	uint64_t dropped;         /* freed by the engine (TX ring full, drops) */
	uint64_t passed;          /* PASS packets handed to us (a merged one: 1) */
	uint64_t passed_frames;   /* the frames those packets were made of */
	uint64_t segmented;       /* PASS packets split by tp_gro_segment (GSO) */
	uint64_t tx_first;        /* of tx_pkts: frames start tx_first sent */
	/* --record-core-cycles: TSC cycles of the bursts that received (or,
	 * with GRO holding packets, flushed); testpmd's fs->core_cycles. */
	uint64_t core_cycles;
	/* --record-burst-stats: RX bursts by size, empty ones included
	 * (testpmd's rx_burst_stats); zeroed at start. */
	uint64_t rx_burst_spread[FWD_MAX_BURST + 1];
} __rte_cache_aligned;

struct fwd_engine {
	const char *name;
	const char *help;
	/* Optional: prepare a stream before its lcore starts; 0 or -errno. */
	int (*stream_init)(struct fwd_stream *fs);
	/* Optional: release what the stream holds (flush GRO) after stop. */
	void (*stream_drain)(struct fwd_stream *fs);
	/* One burst: receive, act, transmit. The only indirect call per burst. */
	void (*packet_fwd)(struct fwd_stream *fs);
};

/* NULL-terminated table of every engine; engines.c. */
extern const struct fwd_engine *const fwd_engines[];
const struct fwd_engine *fwd_engine_find(const char *name);
/* "io#mac#..." into buf (for the prompt's completion); returns buf. */
char *fwd_engine_list(char *buf, size_t len, char sep);

enum fwd_topology { FWD_TOPO_PAIRED, FWD_TOPO_CHAINED, FWD_TOPO_LOOP };
enum fwd_vlan_mode { FWD_VLAN_STRIP, FWD_VLAN_KEEP };   /* default: strip */

struct fwd_port_conf {
	char tagger[FWD_MAX_TAGGER_NAME];   /* "" = no DSA tagger */
	enum fwd_vlan_mode vlan;
};

/* --redirect KEY:PORT[:SWITCH_PORT]; the queue is the lcore's own. */
struct fwd_redirect {
	uint32_t key;
	uint16_t port;
	int switch_port;          /* tag to insert; -1: the packet's own */
};

struct fwd_gro_conf {
	bool on;
	uint32_t max_flows;   /* 0: library default */
	uint32_t max_segs;    /* 0: library default */
	uint32_t age_usec;    /* 0: merge within a burst; else hold up to this */
	bool kernel_order;    /* --gro-order kernel (TP_GRO_ORDER_KERNEL) */
	uint32_t tunnels;     /* --gro-tunnels (TP_GRO_TUN_*) */
	bool udp;             /* --gro-udp */
	uint16_t vxlan_ports[4];
};

/* --host-if PORT:SWITCH_PORT=NAME (host_if.c): a Linux interface for a
 * switch port of a conduit port (index into port_ids). */
#define FWD_MAX_HOST_IFS 64
struct fwd_host_if_opt {
	uint16_t port;
	uint16_t sp;
	char name[16];
};

/* Everything the command line sets. */
struct fwd_options {
	bool interactive;
	unsigned int stats_period;        /* seconds, 0 = only final stats */
	const struct fwd_engine *engine;
	enum fwd_topology topology;
	uint16_t nb_rxq;
	uint16_t nb_txq;                  /* 0 = one per forwarding lcore */
	uint16_t nb_rxd;
	uint16_t nb_txd;
	unsigned int nb_cores;            /* 0 = as many as useful */
	uint16_t burst;
	uint32_t nb_mbufs;                /* 0 = computed */
	uint16_t mbuf_size;               /* data room with headroom; 0 = default */
	uint32_t max_pkt_len;             /* largest frame with CRC; 0 = the port's MTU */
	uint16_t txpkt_len;               /* txonly frame length */
	bool gso;                         /* pipeline: GSO on egress */
	bool stage_cycles;                /* pipeline: time every stage */
	bool core_cycles;                 /* --record-core-cycles */
	bool burst_stats;                 /* --record-burst-stats */
	struct fwd_gro_conf gro;
	char verdict[FWD_MAX_VERDICT];    /* "" = pipeline default */
	struct fwd_port_conf port[FWD_MAX_PORTS];
	bool port_set[FWD_MAX_PORTS];     /* a per-port option named it */
	bool peer_set[FWD_MAX_PORTS];
	struct rte_ether_addr peer[FWD_MAX_PORTS];
	struct fwd_redirect redirect[FWD_MAX_REDIRECTS];
	unsigned int nb_redirects;
	const char *bpf_map[FWD_MAX_BPF_MAPS]; /* --bpf-map NAME:KEY=VALUE */
	unsigned int nb_bpf_maps;
	const char *bpf_route[FWD_MAX_BPF_MAPS]; /* --bpf-route ROUTE */
	unsigned int nb_bpf_routes;
	const char *cmdline_file;         /* --cmdline-file, or NULL */
	struct fwd_host_if_opt host_if[FWD_MAX_HOST_IFS]; /* --host-if */
	unsigned int nb_host_ifs;
};

/* Runtime state owned by the main lcore. */
struct fwd_state {
	struct fwd_options opt;
	uint16_t nb_ports;
	uint16_t port_ids[FWD_MAX_PORTS];
	struct rte_ether_addr port_mac[RTE_MAX_ETHPORTS];
	struct rte_ether_addr peer_mac[RTE_MAX_ETHPORTS];
	struct rte_mempool *pool;
	struct fwd_stream streams[FWD_MAX_STREAMS];
	unsigned int nb_streams;
	unsigned int nb_fwd_lcores;
	unsigned int fwd_lcore_id[RTE_MAX_LCORE];
	bool running;
	bool port_stopped[RTE_MAX_ETHPORTS];   /* "port stop" */
	bool tx_tcp_csum[RTE_MAX_ETHPORTS];    /* TCP checksum offload enabled */
	/* Stream counters at the last start or "clear fwd stats" (run.c). */
	struct fwd_counts {
		uint64_t rx, tx, dropped, passed, passed_frames, core_cycles;
	} cleared[FWD_MAX_STREAMS];
};

extern struct fwd_state fwd;

/* Busy-cycle accounting as dpdk-testpmd 22.11 does it (app/test-pmd/
 * testpmd.h, get_start_cycles/get_end_cycles): an engine reads the TSC
 * before its RX burst and adds the cycles up to the end of its work only
 * when the burst had work, so polls that found nothing are not counted and
 * "CPU cycles/packet" is the forwarding core's cost per received frame. */
static inline uint64_t
fwd_busy_begin(void)
{
	return fwd.opt.core_cycles ? rte_rdtsc() : 0;
}

static inline void
fwd_busy_end(struct fwd_stream *fs, uint64_t begin)
{
	if (fwd.opt.core_cycles)
		fs->core_cycles += rte_rdtsc() - begin;
}

/* One RX burst of n frames, for --record-burst-stats. */
static inline void
fwd_rx_burst_seen(struct fwd_stream *fs, uint16_t n)
{
	if (fwd.opt.burst_stats)
		fs->rx_burst_spread[n]++;
}
extern volatile bool fwd_quit;   /* set by SIGINT/SIGTERM or "quit" */

extern bool fwd_eal_started;    /* rte_eal_cleanup() is due on exit */

/* options.c: parse the application's arguments (argv[0..argc), the part
 * after "--"); exits 2 on a bad one. */
void fwd_options_parse(int argc, char **argv, const char *prog,
		       struct fwd_options *o);
/* The same, returning -EINVAL after that one line instead of exiting (a
 * parse a program can survive: the fuzz target); --help and --version
 * still print and exit 0. */
int fwd_options_try_parse(int argc, char **argv, const char *prog,
			  struct fwd_options *o);
/* One-line "tagpipe-fwd: error: ..." on stderr. */
void fwd_err(const char *fmt, ...) __rte_format_printf(1, 2);
/* Checks that need the EAL (port numbers, lcores); exits 2 on a bad one. */
void fwd_options_check(const struct fwd_options *o, uint16_t nb_ports,
		       unsigned int nb_workers);

/* ports.c */
int fwd_ports_setup(void);
/* Receive and free what is still in the RX queues once forwarding stopped
 * (frames in flight, e.g. on a loopback ring), so that every mbuf is back
 * in the pool before the ports close. Returns the number of frames. */
uint64_t fwd_ports_drain(void);
void fwd_ports_close(void);
/* ports_testpmd.c: testpmd's reports and port operations. */
void fwd_port_show_info(uint16_t port);
void fwd_port_show_summary_header(void);
void fwd_port_show_summary(uint16_t port);
void fwd_port_show_rss_hash(uint16_t port);
void fwd_show_config_fwd(void);
void fwd_port_set_promisc(uint16_t port, bool on);
void fwd_port_set_link(uint16_t port, bool up);
/* port start|stop PORT, or every port for RTE_MAX_ETHPORTS. */
void fwd_port_start_stop(uint16_t port, bool start);
void fwd_port_show_stats(uint16_t port);
void fwd_port_show_xstats(uint16_t port);
void fwd_port_clear_stats(uint16_t port);
/* port_afpacket.c: warn if a net_af_packet port's interface has TX
 * checksum offload on (deploy/README.md). */
void fwd_port_check_af_packet(uint16_t port);

/* run.c: streams, lcores, start/stop. Forwarding lcore l transmits on TX
 * queue l of every port, so no TX queue has two writers. */
int fwd_lcores_setup(void);
int fwd_streams_setup(void);
int fwd_start(void);
/* start tx_first [N]: N bursts of txonly frames on every stream before the
 * engine starts (testpmd's), so a loop of ports has traffic. */
int fwd_start_tx_first(uint32_t bursts);
void fwd_stop(void);
int fwd_set_engine(const char *name);
/* Forward statistics as testpmd prints them: per stream (RX = TX +
 * TX-dropped, in frames), per port (ethdev counters since start) and
 * accumulated. */
void fwd_show_fwd_stats(void);
/* "clear fwd stats all": forward statistics count from now on. */
void fwd_clear_fwd_stats(void);
/* "clear port stats": reset port p's ethdev counters (the forward
 * statistics' port baseline follows). */
void fwd_clear_port_stats(uint16_t port);
void fwd_clear_stats(void);
unsigned int fwd_pool_in_use(void);

/* Pipeline mode (engine_pipeline.c); return 0 or -errno. */
/* Validate --port-tagger, --verdict (after the EAL): 0, or -EINVAL with the
 * message (naming the option and the bad value) in err. */
int fwd_pipeline_check_options(const struct fwd_options *o, char *err, size_t len);
int fwd_pipeline_set_verdict(const char *prog);
int fwd_pipeline_set_gro(bool on);
/* The stream's frames from its pipeline instance's counters (tp_stats.h:
 * rx; tx = TX + REDIRECT + PASS forwarded; dropped = drop + aborted), so
 * forward statistics, pipeline statistics and telemetry agree; false (c
 * untouched) when the stream has no instance. */
bool fwd_pipeline_stream_counts(const struct fwd_stream *fs, struct fwd_counts *c);
/* --stage-cycles / "set stage-cycles on|off": time every stage
 * (tp_pipeline_conf.stage_cycles); pipelines re-made at the next start. */
int fwd_pipeline_set_stage_cycles(bool on);
void fwd_pipeline_show_stats(void);
/* "show verdict": the program and, for an XDP object, how it runs
 * (tp_prog_bpf_exec_line). */
void fwd_pipeline_show_verdict(void);
/* Zero the instances' counters; only while stopped (lcores write them). */
void fwd_pipeline_clear_stats(void);
/* Destroy every instance (they are re-made at the next start). */
void fwd_pipeline_release(void);
/* Close the verdict program all instances share (at exit). */
void fwd_pipeline_close_prog(void);
/* Prompt "bpf map list|dump NAME|set NAME:KEY=VALUE" on the XDP object's
 * maps (shared by every instance, kept across stop/start). */
void fwd_pipeline_bpf_map(const char *verb, const char *arg);

/* engine_txonly.c: one burst of txonly frames on fs (start tx_first),
 * after the template of fs->tx_port was built (stream_init). */
void fwd_txonly_burst(struct fwd_stream *fs);
extern const struct fwd_engine fwd_engine_txonly;

/* verbose.c: "set verbose N" (testpmd's levels: bit 0 received, bit 1 sent). */
#define FWD_VERBOSE_RX 1u
#define FWD_VERBOSE_TX 2u
/* Parse "0".."3" and apply it; -EINVAL with an error naming the value. */
int fwd_set_verbose(const char *level);
unsigned int fwd_verbose_level(void);
/* (Re)install what the level needs on the current streams and ports: called
 * by set verbose and by start (new pipeline instances, another mode). */
void fwd_verbose_apply(void);
/* Remove everything (forwarding stopped, before the ports close). */
void fwd_verbose_release(void);

/* prompt.c */
void fwd_prompt(void);
/* Run the prompt commands in path, each echoed after the prompt as if
 * typed (testpmd's --cmdline-file); a "quit" sets fwd_quit. 0 or -errno. */
int fwd_prompt_file(const char *path);

/* Engines' shared helper: send pkts[0..n), free what the ring refused.
 * Returns the number sent. */
static inline uint16_t
fwd_tx_or_free(struct fwd_stream *fs, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t sent = rte_eth_tx_burst(fs->tx_port, fs->tx_queue, pkts, n);

	if (unlikely(sent < n)) {
		rte_pktmbuf_free_bulk(&pkts[sent], n - sent);
		fs->dropped += n - sent;
	}
	fs->tx_pkts += sent;
	return sent;
}

#endif /* FWD_H */
