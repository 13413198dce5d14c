/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_prog: verdict programs, XDP-style.
 *
 * A program is a BURST function: given n packets it writes one verdict
 * (enum tp_verdict, XDP action codes) per packet, and for TP_REDIRECT the
 * redirect-map key. The pipeline calls it once per burst through one
 * pointer; inside, the per-packet work is a static inline function the
 * compiler inlines (TP_PROG_DEFINE), so there is no per-packet indirect call.
 *
 * The per-packet view is struct tp_xdp_md, modelled on the kernel's xdp_md
 * (struct xdp_md, include/uapi/linux/bpf.h) with real pointers and tagpipe's metadata:
 *   data..data_end   the first segment of the packet, from the (untagged)
 *                    Ethernet header; for a merged packet the rest of the
 *                    payload is in further segments: use mbuf
 *                    (rte_pktmbuf_read) and pkt_len, like the kernel's
 *                    xdp.frags programs (docs/ref/xdp-abi.md §5).
 *   ingress_port, rx_queue, switch_port (-1: no switch tag), switch_device,
 *   VLAN TCIs the pipeline or the NIC stripped (nb_vlan 0..2), gro_segs.
 * A program may read and write packet bytes inside data..data_end (the "tx"
 * built-in swaps MACs), and change the packet through the tp_xdp_*
 * functions below ("Acting on the packet") only: never the mbuf's fields,
 * chain or ownership directly, and never free it. A value above TP_REDIRECT
 * is treated as TP_ABORTED and counted (bad_verdict), like the kernel's
 * bpf_warn_invalid_xdp_action (docs/ref/xdp-abi.md §1).
 *
 * Programs are found by name. Built-ins (prog_builtin.c, prog_acl.c):
 *   pass               every packet TP_PASS
 *   drop               every packet TP_DROP
 *   tx                 swap source and destination MAC, TP_TX
 *   redirect:N         every packet TP_REDIRECT to map key N (0..65535,
 *                      TP_REDIRECT_MAP_MAX - 1)
 *   by-switch-port     TP_REDIRECT to key = source switch port; packets
 *                      without a switch tag: TP_PASS
 *   acl:FILE           5-tuple rules from FILE, first match gives the
 *                      verdict, no match: the file's "default" (pass if
 *                      absent). File format: "ACL rules" below.
 * Other libraries register more kinds the same way a user does: lib/bpf
 * (tp_bpf.h) adds "bpf" and "bpf-interp", unmodified XDP object files
 * ("bpf:FILE.o[:SEL]", or "FILE.o[:SEL]" alone through the kind's
 * file_suffix).
 * User programs: fill a struct tp_prog_ops and tp_prog_register() it before
 * creating pipelines that name it. A spec is "NAME" or "NAME:ARG"; ARG goes
 * to ops->init.
 *
 * What this library does not do: run the program (the pipeline,
 * tp_pipeline.h, calls the burst function), own packets, or know eBPF.
 */
#ifndef TP_PROG_H
#define TP_PROG_H

/* Declared here = exported: the library is built with -fvisibility=hidden
 * and its version.map lists these names (GCC manual, Visibility Pragmas). */
#pragma GCC visibility push(default)

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_compat.h>
#include <rte_mbuf.h>

#include "tp_dsa_tag.h"
#include "tp_gro.h"

struct rte_tel_data;

#ifdef __cplusplus
extern "C" {
#endif

/* Verdicts: the XDP action codes (enum xdp_action, include/uapi/linux/bpf.h),
 * so an XDP object's return value is a verdict as it is. X(UPPER, lower,
 * value). */
#define TP_VERDICTS(X) \
	X(ABORTED, aborted, 0) \
	X(DROP, drop, 1) \
	X(PASS, pass, 2) \
	X(TX, tx, 3) \
	X(REDIRECT, redirect, 4)

enum tp_verdict {
#define X(U, l, v) TP_##U = v,
	TP_VERDICTS(X)
#undef X
	TP_NB_VERDICTS
};

/* "aborted", "drop", "pass", "tx", "redirect"; NULL for another value. */
const char *tp_verdict_name(enum tp_verdict v);

/* Most packets one burst function call is given. */
#define TP_PROG_MAX_BURST 256

/* Redirect keys are 0..TP_REDIRECT_MAP_MAX - 1 (the pipeline's redirect
 * map, tp_pipeline.h, resolves them). */
#define TP_REDIRECT_MAP_MAX 65536u

/* The per-packet context: read-only for the program but redirect_key;
 * data, data_end and pkt_len follow the tp_xdp_* edits below. */
struct tp_xdp_md {
	uint8_t *data;            /* first byte of the frame (MAC header) */
	uint8_t *data_end;        /* end of the first segment's data */
	struct rte_mbuf *mbuf;    /* the whole packet */
	uint32_t pkt_len;         /* all segments */
	uint16_t ingress_port;
	uint16_t rx_queue;
	int16_t switch_port;      /* source switch port, -1 without a tag */
	uint8_t switch_device;
	uint8_t nb_vlan;          /* stripped tags: 0, 1 (vlan_tci), 2 (+outer) */
	uint16_t vlan_tci;
	uint16_t vlan_tci_outer;
	uint16_t gro_segs;        /* input frames in this packet (1 unless merged) */
	uint32_t redirect_key;    /* OUT: map key when returning TP_REDIRECT (0) */
};

/* What a burst function knows besides the packets. */
struct tp_prog_env {
	void *priv;               /* the program's state from ops->init */
	uint16_t port;            /* ingress port and queue of the burst */
	uint16_t queue;
};

/* Fill verdict[0..n) (enum tp_verdict values) and key[0..n) (redirect key,
 * read only where verdict is TP_REDIRECT). n is 1..TP_PROG_MAX_BURST. */
typedef void (*tp_prog_burst_fn)(const struct tp_prog_env *env,
				 struct rte_mbuf **pkts, uint16_t n,
				 uint8_t *verdict, uint32_t *key);

struct tp_prog_ops {
	const char *name;         /* [a-z0-9_-]+, unique */
	const char *usage;        /* one line, e.g. "redirect:N  all to entry N" */
	/* Optional. arg: text after ':' in the spec, or NULL. Returns 0 and
	 * sets *priv, or a negative errno with a message naming the bad
	 * value written to err (errlen bytes). */
	int (*init)(const char *arg, void **priv, char *err, size_t errlen);
	void (*fini)(void *priv); /* optional */
	tp_prog_burst_fn burst;
	/* Optional. A spec "FILE<file_suffix>" or "FILE<file_suffix>:ARG"
	 * opens this kind with the whole spec as ARG ("bpf": ".o"). */
	const char *file_suffix;
	/* Optional. True when the opened program takes only one-buffer
	 * packets (an XDP program outside an xdp.frags section, as the
	 * kernel never hands it a multi-buffer frame): the pipeline then
	 * refuses a configuration whose packets may span buffers. */
	bool (*frames_only)(const void *priv);
	/* Optional: the targets of a multi-target redirect key (see
	 * tp_prog_redirect_targets). */
	unsigned int (*redirect_targets)(const void *priv, uint32_t key,
					 uint16_t ingress_port, uint32_t *pos,
					 uint32_t *keys, unsigned int max);
	/* Optional: fields the kind adds to the telemetry of the pipelines
	 * that run it (/tagpipe/verdict), into d, a started dict. */
	void (*telemetry)(const void *priv, struct rte_tel_data *d);
};

/* Fill the context of packet m (inline: used inside burst functions). */
static inline void
tp_xdp_md_fill(struct tp_xdp_md *c, const struct tp_prog_env *env,
	       struct rte_mbuf *m)
{
	uint64_t f = m->ol_flags;

	c->data = rte_pktmbuf_mtod(m, uint8_t *);
	c->data_end = c->data + m->data_len;
	c->mbuf = m;
	c->pkt_len = m->pkt_len;
	c->ingress_port = env->port;
	c->rx_queue = env->queue;
	c->switch_port = -1;
	c->switch_device = 0;
	if (tp_dsa_meta_offset >= 0) {
		const struct tp_dsa_meta *dm = tp_dsa_meta(m);

		if (dm->flags & TP_DSA_META_F_VALID) {
			c->switch_port = dm->port;
			c->switch_device = dm->device;
		}
	}
	c->nb_vlan = (f & RTE_MBUF_F_RX_QINQ_STRIPPED) ? 2 :
		     (f & RTE_MBUF_F_RX_VLAN_STRIPPED) ? 1 : 0;
	c->vlan_tci = c->nb_vlan ? m->vlan_tci : 0;
	c->vlan_tci_outer = c->nb_vlan == 2 ? m->vlan_tci_outer : 0;
	c->gro_segs = tp_gro_segs(m);
	c->redirect_key = 0;
}

/*
 * Acting on the packet (xdp_edit.c). The same code serves the eBPF
 * helpers bpf_xdp_adjust_head (44), adjust_tail (65), load_bytes (189) and
 * store_bytes (190), so a C program and an XDP object get the same bounds
 * and bytes. Every function either does all it says and updates ctx
 * (data, data_end, pkt_len), or returns a negative errno and changes
 * nothing. Call them only from the program on its own packet.
 *
 * Segmented packets (a chain of mbufs: merged by GRO, or received as
 * several buffers): head edits (adjust_head, VLAN push/pop) work on the
 * first segment, which must keep at least ETH_HLEN (14) bytes. On a merged
 * packet (RX_LRO) they must stay inside its L2 header, whose length
 * (l2_len) follows, so each segment it is split into on egress carries the
 * edited header. Tail edits, as the kernel's bpf_xdp_adjust_tail: a
 * one-segment packet may end anywhere in its mbuf's buffer (the kernel
 * keeps the end of its frame for skb_shared_info, an mbuf keeps nothing
 * there); a chained one that is not merged grows inside its last
 * segment's buffer and is cut across segments, freeing the emptied ones
 * (the kernel's multi-buffer rule); a merged one (RX_LRO): -EOPNOTSUPP.
 * load/store reach every segment.
 *
 * Tags the pipeline stripped (ctx->nb_vlan) are not in the frame: they
 * are put back outermost on egress (tp_vlan.h); push/pop act on the
 * frame's bytes only.
 */

/* Move the frame's start by delta bytes: negative grows it into the
 * headroom (the new bytes are not initialised), positive drops bytes from
 * the front. 0, or -EINVAL: more than the headroom, fewer than 14 bytes
 * left in the first segment, or outside a merged packet's L2 header. */
__rte_experimental
int tp_xdp_adjust_head(struct tp_xdp_md *ctx, int32_t delta);

/* Move the frame's end by delta bytes: negative trims, positive grows into
 * the (last segment's) tailroom with zeroed bytes. 0, -EINVAL (more than
 * that tailroom, fewer than 14 bytes left), -EOPNOTSUPP (merged packet). */
__rte_experimental
int tp_xdp_adjust_tail(struct tp_xdp_md *ctx, int32_t delta);

/* Copy len (1..65535) bytes at frame offset off (from data) out of the
 * packet / into it, across segments. 0 or -EINVAL (not inside pkt_len). */
__rte_experimental
int tp_xdp_load_bytes(const struct tp_xdp_md *ctx, uint32_t off, void *buf,
		      uint32_t len);
__rte_experimental
int tp_xdp_store_bytes(struct tp_xdp_md *ctx, uint32_t off, const void *buf,
		       uint32_t len);

/* Insert a 4-byte tag (tpid, tci; host order in, network order in the
 * frame) right after the MAC addresses, in the headroom. 0, -EINVAL (tpid
 * below 0x0600: a length, not a type; a first segment under 14 bytes; a
 * merged packet's L2 header past 127 bytes), -ENOSPC (headroom < 4). */
__rte_experimental
int tp_xdp_vlan_push(struct tp_xdp_md *ctx, uint16_t tpid, uint16_t tci);

/* Remove the tag after the MAC addresses (TPID 0x8100, 0x88A8 or 0x9100).
 * Returns its TCI (0..65535), -ENOENT (no such tag there), -EINVAL (the tag
 * and the EtherType after it are not in the first segment). */
__rte_experimental
int tp_xdp_vlan_pop(struct tp_xdp_md *ctx);

/* A redirect key with this bit names several targets at once: an XDP
 * object's bpf_redirect_map with BPF_F_BROADCAST. The pipeline sends a
 * copy of the packet to each redirect key tp_prog_redirect_targets()
 * gives for it (the packet itself to the last). Keys of single targets
 * stay below TP_REDIRECT_MAP_MAX. */
#define TP_REDIRECT_KEY_MULTI 0x80000000u

/* Set the redirect target: per-packet return value for TP_REDIRECT to
 * redirect-map entry key (tp_pipeline.h, "Redirect map"; a key with no entry is dropped and
 * counted as redirect_no_target). */
static inline enum tp_verdict
tp_xdp_redirect(struct tp_xdp_md *ctx, uint32_t key)
{
	ctx->redirect_key = key;
	return TP_REDIRECT;
}

/*
 * Make a burst function `name` from a per-packet function
 *   static inline enum tp_verdict fn(void *priv, struct tp_xdp_md *ctx);
 * The result has type tp_prog_burst_fn.
 */
#define TP_PROG_DEFINE(name, fn)                                              \
	static void name(const struct tp_prog_env *env,                       \
			 struct rte_mbuf **pkts, uint16_t n,                  \
			 uint8_t *verdict, uint32_t *key)                     \
	{                                                                     \
		struct tp_xdp_md ctx;                                         \
		for (uint16_t i = 0; i < n; i++) {                            \
			tp_xdp_md_fill(&ctx, env, pkts[i]);                   \
			verdict[i] = (uint8_t)fn(env->priv, &ctx);            \
			key[i] = ctx.redirect_key;                            \
		}                                                             \
	}

/* Register a program (ops must stay valid; not copied). Not thread-safe
 * against tp_prog_open. Returns 0, -EINVAL (NULL ops/name/burst, bad name
 * characters), -EEXIST (name taken, built-ins included), -ENOSPC (64 max). */
int tp_prog_register(const struct tp_prog_ops *ops);

/* Registered program by name (built-ins included), or NULL. */
const struct tp_prog_ops *tp_prog_find(const char *name);

/* "acl, by-switch-port, drop, pass, redirect, tx, ..." into buf, snprintf
 * semantics. */
int tp_prog_names(char *buf, size_t len);

/* An opened program: ops + its state. Read-only once opened, so pipelines
 * on several lcores may share one. */
struct tp_prog;

/* Open "NAME" or "NAME:ARG". Returns 0 and *out, or -EINVAL (unknown name,
 * bad argument; err says which value) or -ENOMEM. */
int tp_prog_open(const char *spec, struct tp_prog **out, char *err,
		 size_t errlen);
/* Close (fini + free). NULL is a no-op. */
void tp_prog_close(struct tp_prog *p);
const struct tp_prog_ops *tp_prog_ops_of(const struct tp_prog *p);
void *tp_prog_priv(const struct tp_prog *p);
/* ops->frames_only of the opened program (false when it has none). */
bool tp_prog_frames_only(const struct tp_prog *p);

/* The targets of multi-target redirect key `key` (TP_REDIRECT_KEY_MULTI)
 * that program p gave a packet from ingress_port (ops->redirect_targets;
 * an XDP object: the broadcast DEVMAP's entries, less the ingress port's
 * under BPF_F_EXCLUDE_INGRESS, as the kernel's dev_map_enqueue_multi).
 * Writes up to max redirect keys from position *pos (start at 0) and
 * moves *pos past them; returns how many it wrote, 0 when none is left
 * (or p has no such key). Reads the targets as they are now, as the
 * kernel does right after the run. */
__rte_experimental
unsigned int tp_prog_redirect_targets(const struct tp_prog *p, uint32_t key,
				      uint16_t ingress_port, uint32_t *pos, uint32_t *keys,
				      unsigned int max);

/* ops->telemetry of the opened program into d (nothing when it has none). */
__rte_experimental
void tp_prog_telemetry(const struct tp_prog *p, struct rte_tel_data *d);

/* ---- For tagpipe's own libraries (version node INTERNAL) ----------------
 *
 * Packet edits at the mbuf level: the one implementation behind both the
 * C programs' tp_xdp_* functions above and lib/bpf's helpers
 * bpf_xdp_adjust_head/adjust_tail/load_bytes/store_bytes, so both get the
 * same bounds and bytes. Not ABI: callers define ALLOW_INTERNAL_API, as
 * with DPDK's __rte_internal functions. Rules:
 *   - a refused request returns a negative errno and changes nothing;
 *   - head edits work on the first segment; at least TP_XDP_EDIT_MIN_FRAME
 *     bytes stay in it; a merged packet (RX_LRO) keeps l2_len in step, so
 *     its re-segmentation on egress copies the edited L2 header;
 *   - tail edits: a one-buffer packet may end anywhere in its buffer; a
 *     chained one grows in its last segment's buffer and is cut across
 *     segments (emptied ones freed), as the kernel's multi-buffer XDP
 *     does; a merged (RX_LRO) packet refuses them (-EOPNOTSUPP).
 */

/* Smallest frame an edit may leave: an Ethernet header, ETH_HLEN
 * (the kernel's bpf_xdp_adjust_head/adjust_tail, net/core/filter.c). */
#define TP_XDP_EDIT_MIN_FRAME 14

/* Move the start of the frame by delta bytes (negative: grow into the
 * headroom); the metalen bytes in front of the data move along.
 * 0 or -EINVAL (headroom, ETH_HLEN left, or a merged packet's L2 header). */
__rte_internal
int tp_xdp_edit_head(struct rte_mbuf *m, int32_t delta, uint32_t metalen);

/* Move the end of the packet by delta bytes; grown bytes are zeroed.
 * 0, -EOPNOTSUPP (merged), -EINVAL (more than the last segment's tailroom,
 * fewer than ETH_HLEN bytes left). */
__rte_internal
int tp_xdp_edit_tail(struct rte_mbuf *m, int32_t delta);

/* Is [off, off + len) inside the packet (all segments), len 1..65535? */
static inline bool
tp_xdp_edit_range_ok(const struct rte_mbuf *m, uint64_t off, uint64_t len)
{
	return len > 0 && len <= 0xffff && off <= m->pkt_len &&
	       len <= m->pkt_len - off;
}

/* Copy len bytes at packet offset off to buf (store: from buf into the
 * packet), across segments. 0 or -EINVAL (range, as tp_xdp_edit_range_ok). */
__rte_internal
int tp_xdp_edit_xfer(struct rte_mbuf *m, uint64_t off, void *buf, uint64_t len,
		  bool store);

/* ---- ACL rules (the "acl" built-in) --------------------------------------
 *
 * the rules of the "acl" built-in program (spec "acl:FILE").
 *
 * File format: one rule per line, fields separated by blanks; '#' starts a
 * comment; blank lines are ignored.
 *
 *   VERDICT PROTO SRC DST SPORT DPORT
 *   default VERDICT
 *
 *   VERDICT  pass | drop | tx | aborted | redirect:N   (N: map key, decimal 0..65535)
 *   PROTO    tcp | udp | icmp | icmpv6 | any | 0..255 (IP protocol number)
 *   SRC,DST  any | IPv4 address[/len] | IPv6 address[/len]
 *            (an IPv4 prefix matches IPv4 packets only, IPv6 likewise)
 *   SPORT,   any | N | N-M   (0..65535; checked only for TCP and UDP:
 *   DPORT                     a rule with a port other than "any" never
 *                             matches another protocol)
 *
 * Rules are tried in file order; the first match gives the verdict. No
 * match: the "default" line's verdict (at most one such line; pass when
 * absent). A packet that is not IPv4/IPv6 (after up to two in-frame
 * 802.1Q/802.1ad tags; stripped tags are in the mbuf already) matches only
 * rules whose PROTO, SRC, DST, SPORT and DPORT are all "any". IPv4
 * fragments with a non-zero offset have no ports: they match only rules
 * with "any" ports. IPv6 extension headers are not walked: the protocol is
 * the IPv6 Next Header field.
 *
 * Errors: every bad line is reported as "FILE:LINE: bad FIELD 'VALUE'"
 * (the first bad field of the first bad line); at most TP_ACL_MAX_RULES;
 * a line longer than 1022 bytes or holding a NUL byte is refused naming
 * the line (and the NUL's column).
 *
 * Cost: a linear walk over the rules per packet (first match), fine for
 * tens of rules; not a classifier for thousands.
 */

#define TP_ACL_MAX_RULES 4096

struct tp_acl;

/* Load FILE. 0 and *out, -EINVAL (bad line; err names file, line, field and
 * value), -ENOENT/-EACCES (cannot open; err names the path), -ENOMEM. */
int tp_acl_load(const char *path, struct tp_acl **out, char *err, size_t errlen);
void tp_acl_free(struct tp_acl *a);
/* Number of rules (the default line excluded). */
uint32_t tp_acl_rules(const struct tp_acl *a);

/* Verdict for packet m (enum tp_verdict value); *key gets the redirect key
 * when the verdict is TP_REDIRECT. *rule gets the matching rule's index
 * (0-based, file order) or -1 for the default. Never reads past the data. */
uint8_t tp_acl_classify(const struct tp_acl *a, const struct rte_mbuf *m,
			uint32_t *key, int *rule);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* TP_PROG_H */
