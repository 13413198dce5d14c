/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_pipeline: bursts of frames through DSA untag -> VLAN untag -> GRO ->
 * verdict -> actions, XDP-style.
 *
 * Model
 * -----
 * A pipeline instance belongs to one lcore and serves one (port, queue) pair
 * or several, with no lock on the datapath. Instances made from the same
 * struct tp_pipeline_conf share its read-only parts (program, maps).
 *
 * Verdicts are the XDP action codes. The verdict hook runs after GRO by
 * default (one verdict per merged packet) or before it, per frame.
 *
 * mbuf ownership
 * --------------
 * tp_pipeline_rx_burst() takes every mbuf it is given. Each one ends exactly
 * once as one of:
 *   - TP_PASS: handed to conf->pass_cb (which then owns it), or, without a
 *     callback, returned in the caller's array (see tp_pipeline_rx_burst);
 *     what the callback gives back with tp_pipeline_pass_drop() is a drop;
 *   - TP_TX (ingress port, conf->tx_queue) / TP_REDIRECT to a port
 *     ("Redirect map" below): re-segmented (hardware TSO flags or tp_gro_segment),
 *     VLAN tags re-inserted (software or NIC flags), DSA tag inserted for
 *     the packet's switch port (or the map entry's), then transmitted with
 *     rte_eth_tx_burst, or given to conf->egress_cb (which then owns them)
 *     when one is set; frames a TX queue refuses after conf->tx_retries
 *     extra tries are freed and counted as the drop reason tx_full;
 *   - TP_REDIRECT to a worker ring: enqueued as the pipeline sees it (tags
 *     stripped, merged packets merged; metadata in the mbuf), the consumer
 *     owns it; refused after the retries: freed, ring_full;
 *   - TP_DROP / TP_ABORTED, or a stage's drop: shown to conf->drop_cb (if
 *     any, read-only) and freed, counted by reason;
 *   - held by GRO until a later burst or tp_pipeline_flush().
 * Conservation holds after every call:
 *   rx + copies = pass + tx + redirect + drop + aborted + held_in_gro
 * in frames as received (a merged packet of k frames counts k; tp_stats.h),
 * where drop counts every freed frame (stage drops, DROP verdicts, tx_full)
 * and copies the frames the pipeline copied for a redirect to several
 * targets (TP_REDIRECT_KEY_MULTI: each target but the last gets a copy).
 *
 * What it does NOT do
 * -------------------
 *  - no program of its own: the verdict comes from a tp_prog (tp_prog.h:
 *    built-in C programs, user programs, and XDP objects when lib/bpf is
 *    built, tp_bpf.h); no devmap/cpumap egress programs;
 *  - no check that (port, queue) targets exist as ethdev queues: a bad
 *    target in the conf or the map is the caller's configuration (with
 *    egress_cb set no ethdev is touched at all);
 *  - no copy of packets but for a multi-target redirect: a PASS packet is
 *    the received mbuf, possibly the head of a merged chain
 *    (RTE_MBUF_F_RX_LRO, tp_gro.h output format);
 *  - no locking: one instance per lcore; maps and programs are shared
 *    read-only ("Redirect map" below says what the control plane may
 *    update live).
 *
 * This header and tp_stats.h are the contract of lib/pipeline; private
 * parts live in its .c files.
 */
#ifndef TP_PIPELINE_H
#define TP_PIPELINE_H

/* Declared here = exported: the library is built with -fvisibility=hidden
 * and its version.map lists these names (GCC manual, Visibility Pragmas). */
#pragma GCC visibility push(default)

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "tp_dsa_tag.h"
#include "tp_prog.h"
#include "tp_vlan.h"
#include "tp_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TP_PIPELINE_MAX_PORTS 32 /* = TP_STATS_MAX_PORTS */
#define TP_PIPELINE_MAX_BURST TP_PROG_MAX_BURST
/* The most frames one rx_burst runs when PASS packets come back in pkts
 * (no pass_cb): its uint16_t result counts up to 2n of them. */
#define TP_PIPELINE_MAX_RX_FRAMES 32767

/* Verdicts (enum tp_verdict, tp_verdict_name): tp_prog.h. */

struct tp_pipeline;
struct tp_prog;
struct tp_redirect_map;

/* Called once per burst with every frame that got the same fate. */
/* PASS: the callback owns pkts[0..n) (merged packets stay merged, tags stay
 * stripped: metadata in the mbuf, see tp_prog.h for the fields). */
typedef void (*tp_pass_cb_t)(void *arg, uint16_t port, uint16_t queue,
			     struct rte_mbuf **pkts, uint16_t n);
/* TX / REDIRECT to a port: replaces rte_eth_tx_burst; the callback owns
 * pkts[0..n), which are exactly what would have been transmitted (re-tagged,
 * re-segmented or TSO-flagged). Counted as sent. */
typedef void (*tp_egress_cb_t)(void *arg, enum tp_verdict v, uint16_t out_port,
			       uint16_t out_queue, struct rte_mbuf **pkts,
			       uint16_t n);
/* Frames about to be freed: v is TP_ABORTED for aborted ones, TP_DROP for
 * every other drop (verdict, stage drops, tx_full, ...). Read-only; the
 * pipeline frees them after the call. */
typedef void (*tp_drop_cb_t)(void *arg, enum tp_verdict v,
			     struct rte_mbuf *const *pkts, uint16_t n);

/* ---- configuration ------------------------------------------------------ */

enum tp_vlan_policy {
	TP_VLAN_POLICY_STRIP = 0, /* RX strips up to two tags (lib/vlan) */
	TP_VLAN_POLICY_KEEP = 1,  /* RX leaves tags in the frame */
};

/* Egress capabilities of a port (what its PMD offers and was configured
 * with: RTE_ETH_TX_OFFLOAD_VLAN_INSERT, _QINQ_INSERT, _TCP_TSO). */
#define TP_PORT_TX_VLAN_INSERT 0x1u
#define TP_PORT_TX_QINQ_INSERT 0x2u
#define TP_PORT_TX_TSO         0x4u

struct tp_port_conf {
	bool enabled;             /* the pipeline may receive on / send to it */
	char tagger[32];          /* lib/dsa_tag name; "" or "none": no switch tag */
	struct tp_dsa_conf dsa;   /* n_ports = switch ports 0..n_ports-1 accepted
				   * (0: all the tag can name), cpu_port, ... */
	enum tp_vlan_policy vlan; /* RX policy */
	struct tp_vlan_conf vlan_conf; /* TPIDs (RX set, TX outer/inner);
					* tx_offload is derived from tx_caps */
	uint32_t tx_caps;         /* TP_PORT_TX_* */
};

enum tp_gro_policy {
	TP_GRO_OFF = 0,
	TP_GRO_BURST = 1,         /* merge within a burst, all out at its end */
	TP_GRO_AGE = 2,           /* hold across bursts up to age_usec */
};

struct tp_pipeline_gro {
	enum tp_gro_policy mode;
	uint32_t age_usec;        /* TP_GRO_AGE: 1..1000000 */
	uint32_t max_flows;       /* 0: 1024 (per ingress port) */
	uint16_t max_segs;        /* 0: no limit but the IP length */
	bool no_sw_csum;          /* trust UNKNOWN checksums (lib/gro) */
	bool kernel_order;        /* TP_GRO_ORDER_KERNEL (tp_gro.h): Linux's
				   * output order; default per-flow order */
	uint32_t tunnels;         /* tp_gro_conf.tunnels (TP_GRO_TUN_*) */
	bool udp;                 /* tp_gro_conf.udp */
	uint16_t vxlan_ports[4];  /* tp_gro_conf.vxlan_ports */
};

enum tp_verdict_hook {
	TP_HOOK_AFTER_GRO = 0,    /* one verdict per merged packet (default);
				   * an XDP object not in an xdp.frags section
				   * runs BEFORE_GRO instead, as in the kernel
				   * only xdp.frags programs see multi-buffer
				   * packets */
	TP_HOOK_BEFORE_GRO = 1,   /* one verdict per frame; only PASS frames
				   * go on to GRO and then to the application */
};

struct tp_pipeline_conf {
	const char *name;         /* for telemetry; NULL: "pipeline<N>" */
	struct tp_port_conf port[TP_PIPELINE_MAX_PORTS]; /* index = port id */
	struct tp_pipeline_gro gro;
	enum tp_verdict_hook hook;
	/* The program: an opened one (shared, not owned; wins) or a spec that
	 * create opens ("pass", "redirect:3", "acl:rules.txt"; NULL: "pass"). */
	struct tp_prog *prog;
	const char *prog_spec;
	struct tp_redirect_map *redirect; /* shared, not owned; NULL: none */
	struct rte_mempool *seg_pool;     /* for segmentation copies; NULL:
					   * only in-place (tp_gro layout) */
	uint16_t max_burst;       /* largest n rx_burst runs at once; the
				   * scratch is sized for it, larger bursts
				   * run in parts (1..TP_PIPELINE_MAX_BURST;
				   * 0: TP_PIPELINE_MAX_BURST) */
	bool stage_cycles;        /* time every stage with rte_rdtsc() into
				   * tp_stage_stats.cycles; off (default): no
				   * TSC read for timing, cycles stay 0. With
				   * VLAN strip on and a tagger that strips
				   * both in one pass (dsa, edsa:
				   * tp_dsa_vlan_strip_prefix), the DSA
				   * stage's cycles include the VLAN strip of
				   * the frames that pass took */
	uint16_t tx_queue;        /* this instance's queue for TP_TX, every port */
	uint16_t tx_retries;      /* extra tries for a refusing ring; default 4 */
	tp_pass_cb_t pass_cb;
	void *pass_arg;
	tp_egress_cb_t egress_cb;
	void *egress_arg;
	tp_drop_cb_t drop_cb;
	void *drop_arg;
	int socket_id;            /* SOCKET_ID_ANY ok */
};

/* Defaults: no port enabled; for each port tagger "none", VLAN strip with
 * tp_vlan_conf_init() TPIDs, no TX caps; GRO burst mode; hook after GRO;
 * program "pass"; max_burst TP_PIPELINE_MAX_BURST; stage timing off;
 * tx_retries 4; socket SOCKET_ID_ANY. */
void tp_pipeline_conf_init(struct tp_pipeline_conf *conf);

/* Parse "off", "burst" or "age:USEC", optionally followed by
 * ",flows=N", ",segs=N", ",nocsum", ",kernel-order", and what to merge
 * beyond plain TCP: ",udp", ",vxlan" (port 4789) or ",vxlan=PORT[+PORT]"
 * (up to TP_GRO_VXLAN_PORTS_MAX), ",geneve", ",ipip" (tp_gro.h). Options
 * not given keep gro's values. 0, or -EINVAL with err naming the token. */
int tp_pipeline_parse_gro(struct tp_pipeline_gro *gro, const char *s,
			  char *err, size_t errlen);
/* Parse "strip", "keep", optionally ":TPID,TPID..." (hex) for the RX set.
 * 0 or -EINVAL with err naming the token. */
int tp_pipeline_parse_vlan(struct tp_port_conf *pc, const char *s,
			   char *err, size_t errlen);

/* ---- life cycle --------------------------------------------------------- */

/*
 * Create an instance for the calling lcore. Validates everything: unknown
 * tagger, DSA conf the tagger refuses (tp_dsa_conf_check), TPIDs, GRO
 * limits, program spec and its argument (acl file lines), TX TSO on a port
 * whose tagger is a trailer (refused: the trailer must end every frame).
 * Registers the lib/dsa_tag meta field and lib/gro's dynamic flag.
 * Returns 0 and *out, or -EINVAL with a message naming the bad value in err
 * (and logged on the 'tagpipe.pipeline' log type), or -ENOMEM.
 * The conf is copied; prog / redirect / seg_pool must outlive the pipeline.
 */
int tp_pipeline_create(const struct tp_pipeline_conf *conf,
		       struct tp_pipeline **out, char *err, size_t errlen);

/* Free the instance. Frames still held in GRO are freed with it (call
 * tp_pipeline_flush(pl, true, ...) first to keep them). NULL: no-op. */
void tp_pipeline_destroy(struct tp_pipeline *pl);

/* ---- datapath ----------------------------------------------------------- */

/*
 * Run n frames received on (port, queue) through the stages and carry out
 * their verdicts. Takes ownership of all n mbufs (see the top for where
 * each one ends). A burst larger than conf->max_burst runs as
 * consecutive bursts of at most max_burst, in order (GRO in burst mode
 * merges within each of them); without pass_cb, frames past
 * TP_PIPELINE_MAX_RX_FRAMES are freed and counted ("burst_too_large").
 * The stages work in place in
 * pkts[0..n): its contents after the call are unspecified, except for the
 * PASS output below.
 * PASS packets go to conf->pass_cb; without one they are written to
 * pkts[0..r) and r is returned: pkts must then have room for 2 * n
 * pointers (GRO in age mode can complete aggregates held from earlier
 * bursts besides this burst's packets; it completes aged ones only as far
 * as that room goes, the rest later). With pass_cb the result is 0.
 * n = 0 is allowed: with pass_cb (or in a later tp_pipeline_flush) the
 * aged aggregates are completed.
 * A port that is not enabled in the conf: every frame is dropped
 * ("port_not_configured"). Not thread-safe: one lcore per instance.
 */
uint16_t tp_pipeline_rx_burst(struct tp_pipeline *pl, uint16_t port,
			      uint16_t queue, struct rte_mbuf **pkts,
			      uint16_t n);

/*
 * Complete aggregates GRO holds and carry out their verdicts: all of them
 * (all = true) or those older than the configured age (age mode; burst
 * mode never holds across calls). The verdict sees the port the frames came
 * in on and the last queue rx_burst was called with for that port.
 * PASS packets go to pass_cb (then pkts may be NULL and max is ignored) or
 * to pkts[0..r) (at most max; the rest stay held - call again while
 * tp_pipeline_held() > 0). Returns r (0 with pass_cb).
 */
uint16_t tp_pipeline_flush(struct tp_pipeline *pl, bool all,
			   struct rte_mbuf **pkts, uint16_t max);

/* Frames held in GRO right now. */
uint32_t tp_pipeline_held(const struct tp_pipeline *pl);

/*
 * Transmit PASS packets that the application forwards itself (from its
 * pass_cb) on (port, queue) with rte_eth_tx_burst and conf->tx_retries
 * extra tries, counted in the port's counters as the pipeline's own TX:
 * st.port[port].tx (frames), tx_wire (mbufs) and tx_full (frames refused).
 * The packets are sent as given (no re-tagging, no segmentation). Returns
 * the number sent; pkts[r..n) stay the caller's (to free or keep) and are
 * not counted as drops: the PASS verdict already counted them. Only on the
 * instance's lcore. A port >= TP_PIPELINE_MAX_PORTS sends nothing.
 */
__rte_experimental
uint16_t tp_pipeline_pass_tx(struct tp_pipeline *pl, uint16_t port,
			     uint16_t queue, struct rte_mbuf **pkts, uint16_t n);

/*
 * From within conf->pass_cb only (on the instance's lcore): the
 * application frees PASS packets it was handed and cannot forward (its TX
 * queue refused them: TP_DROP_TX_FULL; a VLAN insert failed: that
 * library's reason; ...). They are freed (after drop_cb) and counted as
 * drops of that reason, in frames, and not as pass, so conservation and
 * the drop reasons cover what the application lost. Returns 0, or -EINVAL
 * (outside pass_cb, or reason >= TP_DROP_MAX: nothing freed).
 */
__rte_experimental
int tp_pipeline_pass_drop(struct tp_pipeline *pl, enum tp_drop_reason reason,
			  struct rte_mbuf **pkts, uint16_t n);

/*
 * From within conf->pass_cb only: split a merged PASS packet the
 * application forwards itself into its segments (GSO, tp_gro_segment()
 * with conf->seg_pool), counted in st.segmented as the pipeline's own
 * TX/REDIRECT segmentation is. A packet that is not merged is out[0].
 * Returns the number of segments in out[0..r); -ENOSPC when they need more
 * than max (m untouched, still the caller's); -EINVAL outside pass_cb;
 * any other error: m freed and counted as a drop (no_mbuf, segment_error).
 */
__rte_experimental
int tp_pipeline_pass_segment(struct tp_pipeline *pl, struct rte_mbuf *m,
			     struct rte_mbuf **out, uint16_t max);

/* ---- counters (tp_stats.h) ---------------------------------------------- */

/* Copy the counters (held_in_gro computed now). Any thread, also while the
 * instance runs: each counter whole and never going backwards, not one
 * snapshot across counters (tp_stats.h). 0 or -EINVAL (NULL). */
int tp_pipeline_stats_get(const struct tp_pipeline *pl,
			  struct tp_pipeline_stats *st);
/* Zero the counters; held_in_gro stays what GRO holds, so conservation
 * then holds with rx starting at held_in_gro. Only on the instance's lcore
 * (or while it does not run): it writes the counters. */
void tp_pipeline_stats_reset(struct tp_pipeline *pl);
/* Sum a into acc (for several instances). */
void tp_pipeline_stats_add(struct tp_pipeline_stats *acc,
			   const struct tp_pipeline_stats *a);

const char *tp_pipeline_name(const struct tp_pipeline *pl);

/* The verdict program the instance runs (its conf's prog), for reading
 * (e.g. an XDP object's maps); the caller owns it as before. */
__rte_experimental
const struct tp_prog *tp_pipeline_prog(const struct tp_pipeline *pl);

/*
 * Verdict observer, for tracing (tagpipe-fwd's "set verbose"): called on
 * the instance's lcore once per program run with the packets the program
 * judged and its results: verdict[i] as the program returned it (a value
 * >= TP_NB_VERDICTS is then acted on as TP_ABORTED), key[i] the redirect
 * key (meaningful for TP_REDIRECT). Read-only: the packets are acted on
 * after the call. fn NULL stops it. May be called from another lcore while
 * the instance runs (arg is published before fn); off, the datapath pays
 * one load and one branch per program run.
 */
typedef void (*tp_verdict_obs_t)(void *arg, uint16_t port, uint16_t queue,
				 struct rte_mbuf *const *pkts, const uint8_t *verdict,
				 const uint32_t *key, uint16_t n);
__rte_experimental
void tp_pipeline_observe_verdicts(struct tp_pipeline *pl, tp_verdict_obs_t fn,
				  void *arg);

/* ---- Redirect map ---------------------------------------------------------
 *
 * Key 0..n-1 -> a target, in the manner of BPF's DEVMAP and CPUMAP
 * (include/uapi/linux/bpf.h): an ethdev (port, queue), optionally with the
 * switch port whose tag egress inserts, or a worker rte_ring. The pipeline
 * resolves TP_REDIRECT verdicts through it (conf.redirect).
 *
 * Control-plane safety (updates while datapath lcores read): an entry is
 * one 64-bit word stored and loaded atomically; a reader sees the old or
 * the new target, never a mix, and a burst resolves each packet's key
 * once. No lock, no RCU needed. A ring, once named by an entry, stays
 * referenced by the map until tp_redirect_map_free(): it must outlive the
 * map (entries may be re-pointed at any time; the ring slot is not
 * reused). Creating and freeing is control plane only, with no reader
 * left; one writer at a time.
 *
 * Sharing across datapath lcores (pipelines on several lcores, one map): a
 * redirect entry names a target, not an owner: every pipeline whose
 * program picks it sends there. Two lcores must never transmit on one
 * ethdev (port, queue) at once (rte_eth_tx_burst is not thread-safe per
 * queue, lib/ethdev/rte_ethdev.h): with a shared map, give each lcore its
 * own TX queue (its own map entries), or share only ring targets. Ring
 * targets must be multi-producer: tp_redirect_map_set_ring() refuses a
 * ring created with RING_F_SP_ENQ (-EINVAL), even for a map one lcore
 * uses, since the map cannot know who will share it.
 */

enum tp_redirect_kind {
	TP_REDIRECT_NONE = 0,  /* empty entry: TP_REDIRECT drops (redirect_no_target) */
	TP_REDIRECT_PORT = 1,  /* transmit on (port, queue), egress processing */
	TP_REDIRECT_RING = 2,  /* enqueue on a worker ring, mbuf as is */
};

#define TP_REDIRECT_MAX_RINGS 64
/* Largest redirect map (entries): TP_REDIRECT_MAP_MAX (tp_prog.h). */
#define TP_REDIRECT_SWITCH_PORT_KEEP (-1)

/* A decoded entry. */
struct tp_redirect_target {
	enum tp_redirect_kind kind;
	uint16_t port;         /* PORT: ethdev port id */
	uint16_t queue;        /* PORT: TX queue */
	int16_t switch_port;   /* PORT: tag for this switch port, or -1: the
				* packet's own source switch port */
	struct rte_ring *ring; /* RING */
};

struct tp_redirect_map {
	uint32_t n;
	uint32_t nb_rings;
	uint64_t *entry;       /* packed target words, see redirect_map.c */
	struct rte_ring *ring[TP_REDIRECT_MAX_RINGS];
};

/* n entries, all empty. NULL with rte_errno EINVAL (n 0 or >
 * TP_REDIRECT_MAP_MAX) / ENOMEM. */
struct tp_redirect_map *tp_redirect_map_create(uint32_t n);
void tp_redirect_map_free(struct tp_redirect_map *m);

/* Point key at (port, queue), inserting the tag of switch_port (0..255) or
 * the packet's own (-1). 0, -ENOENT (key >= n), -EINVAL (switch_port). */
int tp_redirect_map_set_port(struct tp_redirect_map *m, uint32_t key,
			     uint16_t port, uint16_t queue, int switch_port);
/* Point key at a worker ring (the pipeline enqueues with
 * rte_ring_enqueue_burst; the ring must be multi-producer, see above). 0,
 * -ENOENT, -EINVAL (NULL ring, or a single-producer ring), -ENOSPC (more
 * than TP_REDIRECT_MAX_RINGS rings). */
int tp_redirect_map_set_ring(struct tp_redirect_map *m, uint32_t key,
			     struct rte_ring *ring);
/* Empty the entry. 0 or -ENOENT. */
int tp_redirect_map_clear(struct tp_redirect_map *m, uint32_t key);
/* Decode an entry: 0 (kind may be NONE) or -ENOENT (key >= n). */
int tp_redirect_map_get(const struct tp_redirect_map *m, uint32_t key,
			struct tp_redirect_target *t);

/* Datapath: the packed word of key (0 = empty or key out of range). */
static inline uint64_t
tp_redirect_map_word(const struct tp_redirect_map *m, uint32_t key)
{
	if (key >= m->n)
		return 0;
	return __atomic_load_n(&m->entry[key], __ATOMIC_ACQUIRE);
}

/* ---- Telemetry -------------------------------------------------------------
 *
 * rte_telemetry endpoints of every live pipeline (docs/counters.md lists
 * them): /tagpipe/pipelines, /tagpipe/stats, /tagpipe/drops,
 * /tagpipe/stages, /tagpipe/ports. Register them once, after
 * rte_eal_init(): 0 (also when already registered) or the negative errno
 * of rte_telemetry_register_cmd. */
int tp_telemetry_register(void);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* TP_PIPELINE_H */
