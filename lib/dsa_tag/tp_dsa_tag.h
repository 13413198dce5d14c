/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_dsa_tag: strip and insert Ethernet-switch (DSA) CPU-port tags, the way
 * the Linux kernel's taggers (net/dsa/tag_*.c) read and write them; each
 * tagger's file cites the kernel file its format comes from.
 *
 * Taggers. One per kernel name (as in /sys/class/net/<conduit>/dsa/tagging),
 * looked up once per configuration with tp_dsa_tagger_find() /
 * tp_dsa_tagger_find_proto(). Covered (RX strip + TX insert):
 *   none, brcm, brcm-prepend, brcm-legacy, dsa, edsa, gswip, ksz8795,
 *   ksz9477, ksz9893, lan937x, ksz8463, hellcreek, xrs700x, trailer, lan9303,
 *   mtk, mt7628, qca, ar9331, ocelot, seville, rtl4a, rtl8_4, rtl8_4t, a5psw,
 *   yt921x, gsw1xx, mxl862xx, nxp_netc, ocelot-8021q, vsc73xx-8021q,
 *   sja1105, sja1110.
 * Not covered: brcm-legacy-fcs (TX length/CRC byte order unsettled),
 * the historical 8021q (no rcv/xmit in any kernel).
 *
 * What each strip does is the kernel's rcv for that tagger: the
 * same fields decoded, the same checks (a frame the kernel drops is dropped
 * here with a named reason), the tag removed. Insert builds the tag the
 * kernel's xmit builds for a STANDALONE port, including its padding.
 *
 * Per-frame configuration the kernel takes from switch state, and what is
 * and is not covered here:
 *   - "is this (device, port) a user port": approximated by the ranges
 *     n_ports / n_devices of struct tp_dsa_conf.
 *   - dsa/edsa: TX is FROM_CPU with VID conf->tx_vid (0 standalone, 4095
 *     bridged); an 802.1Q frame is converted in place (standalone port).
 *     FORWARD-mode TX (bridge forwarding offload) is not built. RX trunk
 *     sources are accepted with TP_DSA_META_F_TRUNK (port = trunk field)
 *     unless TP_DSA_CONF_F_NO_TRUNK.
 *   - tag_8021q family (ocelot-8021q, vsc73xx-8021q, sja1105, sja1110,
 *     docs/ref/dsa-tags.md §1.3): RX decodes standalone VIDs (switch, port, PCP). A VID with a
 *     non-zero virtual bridge id (VBID) is resolved with conf->vbid_port[]
 *     when TP_DSA_CONF_F_VBID_MAP is set, else dropped ("bridge_vid"). A
 *     frame whose VLAN is not a tag_8021q VID (a VLAN-aware bridge's user
 *     VLAN) is passed unchanged with no tag info (stats->passed). A VLAN the
 *     NIC already stripped into vlan_tci (RX_VLAN_STRIPPED, not QinQ) is
 *     first put back in front of the EtherType, so a tag_8021q tag is
 *     decoded from it and a user VLAN stays in the frame for lib/vlan (same
 *     for lan9303). sja1105 link-local meta-frame pairing and sja1110
 *     control (0xDADC) frames are not covered (dropped "unsupported").
 *     TX: standalone VID; TPID 0x8100, or conf->tpid_8021q (default 0xDADB)
 *     for sja1105/sja1110; bridge VIDs (imprecise TX) are not built;
 *     link-local frames are tagged like any other (the kernel injects some
 *     of them through registers instead).
 *   - lan9303 TX: port | 0x10 (STP override), or ALR lookup (0x0008) for
 *     unicast DAs when TP_DSA_CONF_F_LAN9303_ALR (ports bridged).
 *   - ocelot, seville, mxl862xx TX need the CPU port number:
 *     TP_DSA_CONF_F_CPU_PORT + cpu_port, else the frame is dropped
 *     ("no_config"). With it, RX frames whose SRC_PORT is the CPU port are
 *     dropped ("port_range"). ocelot/seville TX VLAN fields are 0
 *     (standalone); RX VLAN replacement on VLAN-filtering ports is not done.
 *   - brcm-legacy: the extra 802.1Q header of cascaded switches is kept.
 *   - ksz9477/ksz9893/lan937x: TX without the PTP timestamp word; RX strips
 *     the 4-byte timestamp when the tail byte says so (value not kept).
 *   - mtk TX: passthrough bit for device != 0; chained-switch RX port match
 *     is by port number only.
 *   - rtl4a: frames without 0x8899 are passed unchanged (stats->passed),
 *     as the kernel leaves them on the conduit.
 *
 * Switch-side decode (TP_DSA_CONF_F_SWITCH_SIDE): strip then reads frames in
 * the CPU-to-switch (TX) format, as the switch would - used for captures of
 * both directions and for the round trip strip(insert(f)) == f. The meta's
 * port is then the (lowest) destination port and TP_DSA_META_F_SWITCH_SIDE
 * is set.
 *
 * Burst functions, drops and ownership. One indirect call per burst (through
 * the tagger); inside, one inline worker with the tagger's constant tag
 * length/position. dsa and edsa RX strip their usual frames (FORWARD or an
 * accepted TO_CPU, no trunk, in range) on a fast path decoded from the tag
 * word in one register; its results are those of the general code, frame
 * for frame. Kept mbufs are compacted to the front of pkts[] in order
 * and their count is returned. Dropped mbufs go to drops[] (room for n), in
 * order, owned by the caller; with drops == NULL they are freed. Each drop
 * is counted in stats->drop[reason]. stats must not be NULL. The
 * *_reasons variants also write each drop's reason next to it (reasons[j]
 * for drops[j]), so a caller can account drops per packet.
 *
 * Strip moves only bytes before the tag (12 MAC bytes for after-SA tags,
 * nothing for prepended tags) and trims tail tags; the payload never moves.
 * The tag must lie in the first segment (before-DA / after-SA: tag plus the
 * 14-byte Ethernet header after removal) or in the last segment (tail
 * tags); otherwise "tag_not_contiguous". No read past data_len, ever.
 *
 * Tail tags (ksz*, lan937x, hellcreek, xrs700x, trailer, rtl8_4t) are the
 * last bytes of the mbuf data: the NIC must strip the FCS (DPDK's default,
 * no RTE_ETH_RX_OFFLOAD_KEEP_CRC).
 *
 * Metadata: every mbuf strip keeps gets its struct tp_dsa_meta written when
 * the field is registered (flags 0 = no tag, e.g. "none" or a passed frame).
 * Insert takes the destination from conf (TP_DSA_CONF_F_TX_PORT) or else
 * from the meta (registered field with TP_DSA_META_F_VALID): port, device,
 * and prio as the TX traffic class where the tag has one. The meta is left
 * as it was. mbufs must be writable (not shared/indirect). A tag inserted
 * in front of the DA or after the SA into a frame that asks for TX
 * checksum or segmentation offload grows the header length those read
 * (l2_len; outer_l2_len with TX_OUTER_IPV4/6); a tail tag is not in the
 * header and cannot follow TSO (every segment would need its own).
 */
#ifndef TP_DSA_TAG_H
#define TP_DSA_TAG_H

/* Declared here = exported: the library is built with -fvisibility=hidden
 * and its version.map lists these names (GCC manual, Visibility Pragmas). */
#pragma GCC visibility push(default)

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "tp_dsa_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- metadata ---------------------------------------------------------- */

/* Register the dynamic field (idempotent). Needs the EAL. Returns 0 or
 * -errno (rte_errno of rte_mbuf_dynfield_register). */
int tp_dsa_meta_register(void);

/* Offset of the field in the mbuf; < 0 until registered ("no tag info"). */
extern int tp_dsa_meta_offset;

/* The meta of m. Only valid while tp_dsa_meta_offset >= 0. */
static inline struct tp_dsa_meta *
tp_dsa_meta(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, tp_dsa_meta_offset, struct tp_dsa_meta *);
}

/* ---- protocol ids (include/net/dsa.h DSA_TAG_PROTO_*) ----------- */

enum tp_dsa_proto {
	TP_DSA_PROTO_NONE = 0,
	TP_DSA_PROTO_BRCM = 1,
	TP_DSA_PROTO_BRCM_PREPEND = 2,
	TP_DSA_PROTO_DSA = 3,
	TP_DSA_PROTO_EDSA = 4,
	TP_DSA_PROTO_GSWIP = 5,
	TP_DSA_PROTO_KSZ9477 = 6,
	TP_DSA_PROTO_KSZ9893 = 7,
	TP_DSA_PROTO_LAN9303 = 8,
	TP_DSA_PROTO_MTK = 9,
	TP_DSA_PROTO_QCA = 10,
	TP_DSA_PROTO_TRAILER = 11,
	TP_DSA_PROTO_SJA1105 = 13,
	TP_DSA_PROTO_KSZ8795 = 14,
	TP_DSA_PROTO_OCELOT = 15,
	TP_DSA_PROTO_AR9331 = 16,
	TP_DSA_PROTO_RTL4_A = 17,
	TP_DSA_PROTO_HELLCREEK = 18,
	TP_DSA_PROTO_XRS700X = 19,
	TP_DSA_PROTO_OCELOT_8021Q = 20,
	TP_DSA_PROTO_SEVILLE = 21,
	TP_DSA_PROTO_BRCM_LEGACY = 22,
	TP_DSA_PROTO_SJA1110 = 23,
	TP_DSA_PROTO_RTL8_4 = 24,
	TP_DSA_PROTO_RTL8_4T = 25,
	TP_DSA_PROTO_RZN1_A5PSW = 26,
	TP_DSA_PROTO_LAN937X = 27,
	TP_DSA_PROTO_VSC73XX_8021Q = 28,
	TP_DSA_PROTO_YT921X = 30,
	TP_DSA_PROTO_MXL_GSW1XX = 31,
	/* 32..35 are provisional in the kernel. */
	TP_DSA_PROTO_MXL862 = 32,
	TP_DSA_PROTO_NETC = 33,
	TP_DSA_PROTO_KSZ8463 = 34,
	TP_DSA_PROTO_MT7628 = 35,
	TP_DSA_PROTO_MAX = 64
};

/* ---- drop reasons and counters ------------------------------------------ */

#define TP_DSA_DROP_REASONS(X) \
	X(TOO_SHORT, "too_short")          /* frame shorter than tag + Ethernet header */ \
	X(SEGMENTED, "tag_not_contiguous") /* tag not within the first (last) segment */ \
	X(BAD_MARKER, "bad_marker")        /* marker EtherType / fixed bytes wrong */      \
	X(BAD_VERSION, "bad_version")      /* version / protocol field wrong */            \
	X(BAD_TYPE, "bad_type")            /* opcode, command or code the kernel refuses */ \
	X(MGMT, "mgmt_frame")              /* switch management frame (qca MIB/register) */ \
	X(NO_PORT, "no_port")              /* tag names no port (empty map, invalid bit) */ \
	X(PORT_RANGE, "port_range")        /* port outside conf / what the tag can name */ \
	X(DEVICE_RANGE, "device_range")    /* device/switch index outside conf */          \
	X(TRUNK, "trunk")                  /* trunk source with TP_DSA_CONF_F_NO_TRUNK */  \
	X(BRIDGE_VID, "bridge_vid")        /* tag_8021q bridge VID not in conf->vbid_port */ \
	X(UNSUPPORTED, "unsupported")      /* frame kind not covered (see top) */          \
	X(NO_CONFIG, "no_config")          /* TX needs configuration not given */          \
	X(NO_DEST, "no_dest")              /* TX: no port in conf nor in a valid meta */   \
	X(NO_HEADROOM, "no_headroom")      /* TX: not enough headroom for the tag */       \
	X(NO_TAILROOM, "no_tailroom")      /* TX: not enough tailroom for padding/tag */

enum tp_dsa_drop {
#define TP_DSA_X_ENUM(e, s) TP_DSA_DROP_##e,
	TP_DSA_DROP_REASONS(TP_DSA_X_ENUM)
#undef TP_DSA_X_ENUM
	TP_DSA_DROP_MAX
};

/* Name of a drop reason, or NULL when out of range. */
const char *tp_dsa_drop_name(unsigned int reason);

struct tp_dsa_stats {
	uint64_t in;       /* mbufs given to bursts */
	uint64_t out;      /* mbufs kept (tagged/untagged) */
	uint64_t passed;   /* kept unchanged without tag info (rtl4a, tag_8021q non-DSA VID) */
	uint64_t drop[TP_DSA_DROP_MAX];
};

/* ---- configuration ------------------------------------------------------ */

#define TP_DSA_CONF_F_SWITCH_SIDE 0x01 /* strip reads CPU-to-switch frames */
#define TP_DSA_CONF_F_TX_PORT     0x02 /* insert: tx_port/tx_device/tx_prio for all */
#define TP_DSA_CONF_F_NO_TRUNK    0x04 /* dsa/edsa RX: drop trunk sources */
#define TP_DSA_CONF_F_CPU_PORT    0x08 /* cpu_port is set (TX of taggers with
					* TP_DSA_TAGGER_F_TX_CPU_PORT) */
#define TP_DSA_CONF_F_LAN9303_ALR 0x10 /* lan9303 TX: ports bridged, unicast by ALR */
#define TP_DSA_CONF_F_VBID_MAP    0x20 /* tag_8021q RX: vbid_port[] is set */

/* All-zero is the default: every port/device the tag can name accepted,
 * destination from the meta, dsa VID 0, sja TPID 0xDADB. NULL = all-zero. */
struct tp_dsa_conf {
	uint32_t flags;      /* TP_DSA_CONF_F_* */
	uint16_t n_ports;    /* accept ports 0..n_ports-1 (RX and TX); 0 = all */
	uint8_t n_devices;   /* accept devices 0..n_devices-1; 0 = all */
	uint8_t cpu_port;    /* with TP_DSA_CONF_F_CPU_PORT */
	uint8_t tx_port;     /* with TP_DSA_CONF_F_TX_PORT */
	uint8_t tx_device;
	uint8_t tx_prio;
	uint8_t reserved;
	uint16_t tx_vid;     /* dsa/edsa untagged TX VID: 0 standalone, 4095 bridged */
	uint16_t tpid_8021q; /* sja1105/sja1110 TX TPID; 0 = 0xDADB */
	/* tag_8021q RX with TP_DSA_CONF_F_VBID_MAP: the port a frame tagged
	 * with virtual bridge id v (1..7) is delivered to (the kernel picks a
	 * port of that bridge in forwarding state), or 0xFF: dropped. Index 0
	 * is unused (VBID 0 is a standalone VID). */
	uint8_t vbid_port[8];
};

/* ---- taggers -------------------------------------------------------------- */

enum tp_dsa_position {
	TP_DSA_POS_NONE = 0,   /* no tag ("none") */
	TP_DSA_POS_BEFORE_DA,  /* prepended before the destination MAC, "type 1" */
	TP_DSA_POS_AFTER_SA,   /* in the EtherType slot, "type 2" */
	TP_DSA_POS_TAIL,       /* trailer before the FCS, "type 3" */
};

/* Tagger properties (struct tp_dsa_tagger.flags). */
/* TX tags carry the CPU port number: insert needs TP_DSA_CONF_F_CPU_PORT
 * (tp_dsa_conf_check refuses a conf without it). ocelot/seville: the
 * injection header's SRC_PORT (linux net/dsa/tag_ocelot.c), mxl862xx: the
 * tag's word 3 bits 3:0 (linux net/dsa/tag_mxl862xx.c). */
#define TP_DSA_TAGGER_F_TX_CPU_PORT 0x01

/* Burst function of a tagger; see the top of this file for the contract. */
typedef uint16_t (*tp_dsa_burst_fn)(struct rte_mbuf **pkts, uint16_t n,
				    const struct tp_dsa_conf *conf,
				    struct rte_mbuf **drops, uint8_t *reasons,
				    struct tp_dsa_stats *stats);

/* A tagger. Read-only; the fields describe the usual case. */
struct tp_dsa_tagger {
	const char *name;      /* kernel name, e.g. "brcm-prepend" */
	uint8_t proto;         /* enum tp_dsa_proto */
	uint8_t position;      /* enum tp_dsa_position */
	uint8_t rx_len;        /* bytes an RX tag usually occupies (minimum) */
	uint8_t tx_len;        /* bytes TX insert usually adds */
	uint16_t rx_ports;     /* RX tag names ports 0..rx_ports-1 */
	uint16_t tx_ports;     /* TX tag addresses ports 0..tx_ports-1 */
	uint8_t devices;       /* device indexes the tag names (1 = none) */
	uint8_t tx_pad;        /* untagged frames padded to this length first (0 = none) */
	uint8_t flags;         /* TP_DSA_TAGGER_F_* (in what was padding before
				* strip_burst: the layout of the other fields
				* is unchanged) */
	tp_dsa_burst_fn strip_burst;
	tp_dsa_burst_fn insert_burst;
};

/* Lookup by kernel name (NULL if unknown) or protocol id (NULL if none). */
const struct tp_dsa_tagger *tp_dsa_tagger_find(const char *name);
const struct tp_dsa_tagger *tp_dsa_tagger_find_proto(unsigned int proto);

/* All taggers, sorted by protocol id: fills out[0..max) and returns the
 * total count (which may exceed max). */
unsigned int tp_dsa_tagger_list(const struct tp_dsa_tagger **out, unsigned int max);

/* "a5psw, ar9331, brcm, ..." (sorted by name) into buf; returns the length
 * the full string needs (like snprintf). For "unknown tagger; valid: ..." */
int tp_dsa_tagger_names(char *buf, size_t len);

/* Check conf against what tagger t needs on TX (cpu port, ranges).
 * Returns 0 or -EINVAL with a message naming the bad/missing value. */
int tp_dsa_conf_check(const struct tp_dsa_tagger *t, const struct tp_dsa_conf *conf);

/* Strip the tag from n frames (see the top). Returns the kept count 0..n. */
static inline uint16_t
tp_dsa_strip_burst(const struct tp_dsa_tagger *t, struct rte_mbuf **pkts,
		   uint16_t n, const struct tp_dsa_conf *conf,
		   struct rte_mbuf **drops, struct tp_dsa_stats *stats)
{
	return t->strip_burst(pkts, n, conf, drops, NULL, stats);
}

/* Insert the tag into n frames (see the top). Returns the kept count 0..n. */
static inline uint16_t
tp_dsa_insert_burst(const struct tp_dsa_tagger *t, struct rte_mbuf **pkts,
		    uint16_t n, const struct tp_dsa_conf *conf,
		    struct rte_mbuf **drops, struct tp_dsa_stats *stats)
{
	return t->insert_burst(pkts, n, conf, drops, NULL, stats);
}

/* The same, also writing reasons[j] = the enum tp_dsa_drop reason of
 * drops[j] for each dropped mbuf (reasons has room for n; drops must not
 * be NULL). The stats are counted as above. Experimental (callers define
 * ALLOW_EXPERIMENTAL_API, as for DPDK's own): may change before it is
 * declared stable. */
__rte_experimental
static inline uint16_t
tp_dsa_strip_burst_reasons(const struct tp_dsa_tagger *t, struct rte_mbuf **pkts,
			   uint16_t n, const struct tp_dsa_conf *conf,
			   struct rte_mbuf **drops, uint8_t *reasons,
			   struct tp_dsa_stats *stats)
{
	return t->strip_burst(pkts, n, conf, drops, reasons, stats);
}

__rte_experimental
static inline uint16_t
tp_dsa_insert_burst_reasons(const struct tp_dsa_tagger *t, struct rte_mbuf **pkts,
			    uint16_t n, const struct tp_dsa_conf *conf,
			    struct rte_mbuf **drops, uint8_t *reasons,
			    struct tp_dsa_stats *stats)
{
	return t->insert_burst(pkts, n, conf, drops, reasons, stats);
}

/*
 * The switch tag and then up to two VLAN tags stripped in one pass over
 * the leading frames of the burst: what tp_dsa_strip_burst(t, conf)
 * followed by tp_vlan_strip_burst(vconf) (tp_vlan.h) would do, with the
 * tag word and the TPIDs read once and the MACs moved once. Returns j:
 * pkts[0..j) are stripped exactly as those two bursts strip them (bytes,
 * lengths, data_off, ol_flags, vlan_tci, vlan_tci_outer, meta, and both
 * stats, which are counted), none dropped; pkts[j..n) are untouched, for
 * the caller to give to the two bursts in that order. It stops at the
 * first frame its fast path does not take (for dsa/edsa: a tag word the
 * kernel would drop or with "tagged" set, a trunk source, a tag the NIC
 * stripped, fewer than 24 bytes after the switch tag in the first
 * segment). j is 0 for taggers without a fused path (all but dsa and
 * edsa), a switch-side conf, n_ports/n_devices ranges, an unregistered
 * meta field or an empty TPID set. vconf NULL = tp_vlan's defaults. Cost
 * per burst: one call. Experimental.
 */
struct tp_vlan_conf;
struct tp_vlan_stats;
__rte_experimental
uint16_t tp_dsa_vlan_strip_prefix(const struct tp_dsa_tagger *t, struct rte_mbuf **pkts,
				  uint16_t n, const struct tp_dsa_conf *conf,
				  const struct tp_vlan_conf *vconf,
				  struct tp_dsa_stats *stats, struct tp_vlan_stats *vstats);

/* Registration, used by the tag_*.c files (constructor; link_whole keeps them). */
void tp_dsa_tagger_register(const struct tp_dsa_tagger *t);
#define TP_DSA_TAGGER_REGISTER(t) \
	RTE_INIT(tp_dsa_register_##t) { tp_dsa_tagger_register(&(t)); }

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* TP_DSA_TAG_H */
