/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_vlan: strip and insert 802.1Q / 802.1ad (QinQ) tags on bursts of mbufs.
 *
 * RX (tp_vlan_strip_burst): up to two tags at the front of the frame (right
 * after the source MAC) are removed and kept in the standard mbuf fields:
 *
 *   one tag   -> vlan_tci;                         ol_flags |= RX_VLAN | RX_VLAN_STRIPPED
 *   two tags  -> vlan_tci_outer = outer TCI, vlan_tci = inner TCI;
 *                ol_flags |= RX_VLAN | RX_VLAN_STRIPPED | RX_QINQ | RX_QINQ_STRIPPED
 *
 * A tag is recognised when its TPID is in the configured set (struct
 * tp_vlan_conf; default 0x8100 and 0x88A8, 0x9100 / 0x9200 optional; at most
 * TP_VLAN_MAX_TPIDS). Either position accepts any TPID of the set: like
 * Linux's VLAN core (docs/ref/vlan.md §1), the TPID is not tied to the position.
 * The TPID values are NOT kept (DPDK's mbuf has no field for them); insert
 * uses the TPIDs of its own configuration.
 *
 * Tags the NIC already stripped are respected, so a tag is never lost or
 * stripped twice:
 *   - RX_QINQ_STRIPPED set: both tags are already out; the frame is left alone.
 *   - RX_VLAN_STRIPPED set (one tag in vlan_tci): the NIC took the OUTERMOST
 *     tag. If the frame still starts with a tag of the set, that one is the
 *     inner tag: the NIC's TCI moves to vlan_tci_outer, the frame's TCI goes
 *     to vlan_tci and the QinQ flags are set. A third tag is never touched.
 *   - Without those flags, at most two tags are stripped from the frame; a
 *     third one stays in the frame.
 *
 * Strip moves only the 12 MAC address bytes forward (by 4 or 8) and adjusts
 * data_off/data_len/pkt_len; the payload is never moved.
 *
 * Multi-segment mbufs: the tags (and the EtherType after them) must be in the
 * first segment; a frame whose tag crosses the first segment's end is dropped
 * with reason "tag_not_contiguous" (never read out of bounds, never linearised).
 *
 * TX (tp_vlan_insert_burst): the tags an mbuf asks for are put back:
 *   - RTE_MBUF_F_TX_QINQ, or RX_QINQ_STRIPPED: outer tag (vlan_tci_outer,
 *     TPID tx_outer_tpid) + inner tag (vlan_tci, TPID tx_inner_tpid);
 *   - else RTE_MBUF_F_TX_VLAN, or RX_VLAN_STRIPPED: one tag (vlan_tci,
 *     TPID tx_inner_tpid);
 *   - else nothing.
 * With TP_VLAN_TX_OFFLOAD_{VLAN,QINQ} set in the configuration (the port
 * offers RTE_ETH_TX_OFFLOAD_VLAN_INSERT / _QINQ_INSERT), the frame is not
 * touched: RTE_MBUF_F_TX_VLAN (and _TX_QINQ) are set so the NIC inserts.
 * Otherwise the tags are written in software (needs 4 or 8 bytes of headroom
 * in the first segment). In both cases the RX_*_STRIPPED flags are cleared so
 * a second insert does nothing more; the software path also clears
 * RTE_MBUF_F_TX_VLAN/_TX_QINQ. A software insert into a frame that asks
 * for TX checksum or segmentation offload grows the header length those
 * read by the tag bytes (l2_len; outer_l2_len with TX_OUTER_IPV4/6), so
 * TSO aggregates and checksum-offloaded frames stay right behind it.
 *
 * Drops and mbuf ownership (both bursts): kept mbufs are compacted to the
 * front of pkts[] in their original order and their number is returned.
 * Dropped mbufs are stored in drops[] (room for n entries), in order, and the
 * caller owns them (n - return value of them); if drops is NULL they are
 * freed with rte_pktmbuf_free(). Every drop is counted in stats->drop[reason].
 * Frames without any tag are kept unchanged (counted in stats->untagged).
 *
 * NOT done here: priority/DEI interpretation, VLAN filtering, checksum
 * changes (none are needed), stripping of a third tag, shared (cloned)
 * mbufs - the caller must pass writable mbufs.
 */
#ifndef TP_VLAN_H
#define TP_VLAN_H

/* Declared here = exported: the library is built with -fvisibility=hidden
 * and its version.map lists these names (GCC manual, Visibility Pragmas). */
#pragma GCC visibility push(default)

#include <stdint.h>

#include <rte_compat.h>
#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

/* TPIDs (docs/ref/vlan.md §1). */
#define TP_VLAN_TPID_8021Q  0x8100
#define TP_VLAN_TPID_8021AD 0x88A8
#define TP_VLAN_TPID_QINQ1  0x9100
#define TP_VLAN_TPID_QINQ2  0x9200

#define TP_VLAN_MAX_TPIDS 4

/* Drop reasons: X(enum suffix, counter name). */
#define TP_VLAN_DROP_REASONS(X) \
	X(TOO_SHORT, "too_short")          /* TPID seen but the tag/EtherType is cut */ \
	X(SEGMENTED, "tag_not_contiguous") /* tag crosses the first segment's end */   \
	X(NO_HEADROOM, "no_headroom")      /* TX: not enough headroom for the tag */

enum tp_vlan_drop {
#define TP_VLAN_X_ENUM(e, s) TP_VLAN_DROP_##e,
	TP_VLAN_DROP_REASONS(TP_VLAN_X_ENUM)
#undef TP_VLAN_X_ENUM
	TP_VLAN_DROP_MAX
};

/* Name of a drop reason ("too_short"...), or NULL when out of range. */
const char *tp_vlan_drop_name(unsigned int reason);

/* Counters; the caller owns the struct and may read or zero it any time. */
struct tp_vlan_stats {
	uint64_t in;          /* mbufs given to the burst */
	uint64_t out;         /* mbufs returned kept */
	uint64_t single;      /* RX: one tag stripped from the frame / TX: one inserted */
	uint64_t qinq;        /* RX: two tags stripped from the frame / TX: two inserted */
	uint64_t nic;         /* RX: NIC had stripped already / TX: left to the NIC */
	uint64_t untagged;    /* nothing to strip / insert */
	uint64_t drop[TP_VLAN_DROP_MAX];
};

#define TP_VLAN_TX_OFFLOAD_VLAN 0x1 /* port inserts single tags (TX_VLAN) */
#define TP_VLAN_TX_OFFLOAD_QINQ 0x2 /* port inserts double tags (TX_QINQ) */

struct tp_vlan_conf {
	/* Accepted TPIDs, host order: tpid[0..n_tpid-1]; slots past n_tpid
	 * are ignored (n_tpid 0 = strip no tag). Set with
	 * tp_vlan_conf_set_tpids(), which checks the values, or by hand. */
	uint16_t tpid[TP_VLAN_MAX_TPIDS];
	uint8_t n_tpid;
	uint8_t tx_offload;       /* TP_VLAN_TX_OFFLOAD_* */
	uint16_t tx_outer_tpid;   /* TPID of an inserted outer tag; default 0x88A8 */
	uint16_t tx_inner_tpid;   /* TPID of an inserted single/inner tag; default 0x8100 */
};

/* Defaults: TPIDs {0x8100, 0x88A8}, tx_outer 0x88A8, tx_inner 0x8100, no
 * TX offload. Returns 0, or -EINVAL when conf is NULL. */
int tp_vlan_conf_init(struct tp_vlan_conf *conf);

/* Set the accepted TPID set. Returns 0; -EINVAL when n is 0 or more than
 * TP_VLAN_MAX_TPIDS, or a TPID is < 0x0600 (a length, not an EtherType),
 * with a message naming the bad value on stderr. */
int tp_vlan_conf_set_tpids(struct tp_vlan_conf *conf, const uint16_t *tpids,
			   unsigned int n);

/* Parse "8100,88a8" (hex, with or without 0x) into conf's TPID set. Returns
 * 0 or -EINVAL with a message naming the bad token. */
int tp_vlan_conf_parse_tpids(struct tp_vlan_conf *conf, const char *list);

/* Strip (see the top of this file). conf NULL = defaults. stats must not be
 * NULL. Returns the number of kept mbufs (0..n). */
uint16_t tp_vlan_strip_burst(const struct tp_vlan_conf *conf,
			     struct rte_mbuf **pkts, uint16_t n,
			     struct rte_mbuf **drops, struct tp_vlan_stats *stats);

/* Insert (see the top of this file). conf NULL = defaults. stats must not
 * be NULL. Returns the number of kept mbufs (0..n). */
uint16_t tp_vlan_insert_burst(const struct tp_vlan_conf *conf,
			      struct rte_mbuf **pkts, uint16_t n,
			      struct rte_mbuf **drops, struct tp_vlan_stats *stats);

/* Strip / insert that also write reasons[j] = the enum tp_vlan_drop reason
 * of drops[j] for each dropped mbuf (reasons has room for n, drops must not
 * be NULL), so a caller accounts drops per packet.
 * Experimental (version node EXPERIMENTAL; callers define
 * ALLOW_EXPERIMENTAL_API as for DPDK's own): may change before it is
 * declared stable. */
__rte_experimental
uint16_t tp_vlan_strip_burst_reasons(const struct tp_vlan_conf *conf,
				     struct rte_mbuf **pkts, uint16_t n,
				     struct rte_mbuf **drops, uint8_t *reasons,
				     struct tp_vlan_stats *stats);
__rte_experimental
uint16_t tp_vlan_insert_burst_reasons(const struct tp_vlan_conf *conf,
				      struct rte_mbuf **pkts, uint16_t n,
				      struct rte_mbuf **drops, uint8_t *reasons,
				      struct tp_vlan_stats *stats);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* TP_VLAN_H */
