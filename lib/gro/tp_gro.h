/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_gro: receive-side coalescing with the Linux kernel's GRO rules: TCP,
 * TCP inside VXLAN and IP-in-IP tunnels, UDP (the last two on request).
 *
 * WHAT IT DOES
 * Merges in-order TCP segments of one flow (TCP over IPv4 and over IPv6,
 * IPv6 Hop-by-Hop, Routing and Destination Options headers included) into
 * one mbuf chain, with the same-flow keys and flush rules of Linux GRO
 * (net/core/gro.c, net/ipv4/af_inet.c, net/ipv6/ip6_offload.c,
 * net/ipv4/tcp_offload.c):
 *
 *  - flow key: switch source port and device (struct tp_dsa_meta of
 *    tp_dsa_meta.h, when lib/dsa_tag marked it valid; tp_gro_create()
 *    registers the dynfield itself, so the order of tp_gro_create() and
 *    tp_dsa_meta_register() does not matter), stripped VLAN
 *    TCIs (RTE_MBUF_F_RX_VLAN_STRIPPED / RTE_MBUF_F_RX_QINQ_STRIPPED:
 *    presence and full TCI in vlan_tci / vlan_tci_outer), the whole MAC
 *    header byte for byte including up to two in-frame 802.1Q/802.1ad tags,
 *    IP addresses (IPv6: also version+flow label, every extension header
 *    byte), TCP ports. The RSS hash (RTE_MBUF_F_RX_RSS_HASH) picks the
 *    bucket when present, as skb->hash does; a different hash is a
 *    different flow.
 *  - flush rules (held aggregate completed, the new segment starts a new
 *    one): TCP flag word except PSH/FIN (includes data offset, CWR and ECE,
 *    and the window, Linux 7.0 rule for CWR), ACK number, options bytes,
 *    sequence not exactly next, payload larger than the first segment's,
 *    IPv4 TTL/TOS/DF, IPv4 ID neither incrementing nor fixed, IPv6 traffic
 *    class/hop limit, merged IP length over 65535 (or conf.max_ip_len),
 *    conf.max_segs reached.
 *  - a segment with PSH or FIN, or shorter than the first, is appended and
 *    then the aggregate is completed at once.
 *  - never held ("passed through", counted by reason, see
 *    TP_GRO_PASS_REASONS): non-TCP, IPv4 options, fragments, bad IP header
 *    or TCP checksum, zero payload, SYN/RST/URG, truncated or inconsistent
 *    lengths, PSH/FIN segments with nothing to join.
 *  - L2 padding after the IP datagram of a frame shorter than 60 bytes is
 *    trimmed before appending; any other bytes after the IP datagram make
 *    the frame unmergeable (Linux compares the IP length with what it got).
 *  - table full: the oldest aggregate of the bucket (8 per bucket, as the
 *    kernel's MAX_GRO_SKBS) or of the whole table is completed first.
 *
 * TUNNELS AND UDP (conf.tunnels, conf.udp; all off by default)
 *  - TP_GRO_TUN_VXLAN: TCP inside VXLAN (RFC 7348) over UDP/IPv4 or
 *    UDP/IPv6 to a port of conf.vxlan_ports (4789 when none is given), as
 *    vxlan_gro_receive (drivers/net/vxlan/vxlan_core.c) behind
 *    udp4/6_gro_receive and udp_gro_receive (net/ipv4/udp_offload.c,
 *    net/ipv6/udp_offload.c) for a tunnel socket. TP_GRO_TUN_IPIP: TCP
 *    inside IPv4-in-IPv4, IPv6-in-IPv4 (SIT), IPv4-in-IPv6 and IPv6-in-IPv6,
 *    as ipip_gro_receive (net/ipv4/af_inet.c) and sit / ip4ip6 / ip6ip6
 *    gro_receive (net/ipv6/ip6_offload.c). TP_GRO_TUN_GENEVE: TCP inside
 *    GENEVE (RFC 8926) over UDP/IPv4 or UDP/IPv6 to port 6081, Ethernet or
 *    IP inside, as geneve_gro_receive (drivers/net/geneve.c): version 0 and
 *    no O bit, else not merged; options up to 48 bytes (longer: passed
 *    through, which the kernel would merge). One level: a tunnel inside the
 *    tunnel passes through (the kernel's encap_mark).
 *    Flow key, beyond the inner flow's (above): the outer MAC header and
 *    tags, switch port and stripped TCIs (as for plain TCP), outer IP
 *    protocol and addresses (IPv6: version + flow label and next header),
 *    outer UDP ports, whether the outer UDP checksum is zero, the whole
 *    VXLAN header (flags and VNI words) or GENEVE header with its options,
 *    the inner MAC header and its in-frame tags. Flush rules, beyond the inner flow's: outer TTL, TOS
 *    and DF, or traffic class and hop limit; the outer IPv4 ID incrementing
 *    or fixed, decided apart from the inner ID's (include/net/gro.h
 *    inet_gro_flush per level, since Linux 6.18 without a DF condition);
 *    the merged OUTER IP length capped (gro_max_size). Never held: outer
 *    IPv4 options or fragments, a bad outer IPv4 header checksum (always
 *    verified, as inet_gro_receive does), a bad non-zero outer UDP checksum
 *    (the NIC's outer L4 status when its packet_type says it parsed the
 *    tunnel, else verified in software; a zero one is accepted), outer
 *    lengths that are not the bytes received, truncated tunnel headers, an
 *    inner EtherType other than IPv4/IPv6 (after up to two tags): counted
 *    by reason. The outer UDP length is not checked (udp_gro_receive does
 *    not) and is rewritten on completion. A tunnel's inner checksum status
 *    comes from the RX flags only when packet_type has tunnel bits (the NIC
 *    parsed it); else it is verified in software.
 *  - conf.udp: UDP datagrams as the kernel's forwarding path merges them
 *    with rx-udp-gro-forwarding (udp_gro_receive_segment): one flow = the
 *    MAC header, addresses and UDP ports (a UDP flow never equals a TCP
 *    one); datagrams of the first one's size are merged, a shorter one is
 *    appended and ends the aggregate, a longer one completes it and starts
 *    the next; at most 64 datagrams (UDP_GRO_CNT_MAX); IP rules as TCP's.
 *    Never held: UDP checksum zero or bad, UDP length other than the bytes
 *    received, empty datagrams, datagrams to a VXLAN port (never merged as
 *    UDP, tunnels on or off; nor to 6081 when GENEVE is on). In kernel order every refused datagram
 *    overtakes its held flow (udp_gro_receive_segment refuses before its
 *    lookup).
 *  - Checked against the running kernel (tests/gro/kernel/compare_encap.py:
 *    VXLAN devices in the receiving namespace, rx-udp-gro-forwarding on);
 *    GENEVE, which the test kernel lacks, against expectations built from
 *    the kernel's rules (tests/gro/check_geneve.py).
 *
 * ORDER: TWO MODES (conf.order).
 *  - TP_GRO_ORDER_FLOW (default): every flow leaves in arrival order. A
 *    packet of a held flow that cannot be merged completes that flow's
 *    aggregate first and then passes. Frames without a TCP header to key on
 *    (non-first IPv4 fragments, truncated frames, headers split over mbufs)
 *    cannot be matched to a flow and may still overtake a held aggregate.
 *  - TP_GRO_ORDER_KERNEL: the Linux kernel's output exactly, order
 *    included, for one burst = one NAPI poll (BURST mode). Differences
 *    from FLOW: a packet that Linux refuses before its TCP flow lookup
 *    (bad IPv4 header or TCP checksum, IPv4 options, fragments, bad IP
 *    version or IPv6 extension headers: inet_gro_receive /
 *    ipv6_gro_receive / tcp4_gro_receive's checksum check) passes at once
 *    and leaves its flow's aggregate held and open, so a later segment may
 *    still join it (the IPv4 reserved flag bit is not such a refusal: it
 *    only sets the flush word, and the held aggregate leaves first); the
 *    table is the kernel's, GRO_HASH_BUCKETS = 8 buckets of MAX_GRO_SKBS =
 *    8, bucket = hash & 7 (include/net/gro.h, net/core/gro.c), where a
 *    frame without an RSS hash has hash 0, as an skb without one (so at
 *    most 8 aggregates are held, the oldest completed to make room); at the
 *    end of a burst the buckets are completed in index order, each oldest first
 *    (__napi_gro_flush). Checked against the running kernel with a veth
 *    pair (tests/gro/kernel). The merge rules are the same in both modes.
 *
 * WHAT IT DOES NOT DO
 *  - no locks: one struct tp_gro per lcore (per RX queue); never share one.
 *  - no GRE, VXLAN-GPE, FOU/GUE tunnels; no outer IPv6 extension
 *    headers; no inner VLAN of a tunnel beyond two tags; no UDP GRO inside
 *    a tunnel (the kernel merges inner UDP of a VXLAN packet when
 *    rx-udp-gro-forwarding is on); no fraglist GRO; no TCP over fragments,
 *    no BIG TCP. A tunnel flow whose NIC did not parse the tunnel, or whose
 *    outer UDP checksum is non-zero, and UDP flows take the full parse for
 *    every segment (no header-compare fast path).
 *  - input mbufs may be chained (scattered jumbo frames), but all headers
 *    must lie in the first mbuf (else passed through, "headers_split");
 *    more than two in-frame VLAN tags, or IPv6 extension headers longer
 *    than 255 bytes in total, pass through.
 *  - never drops and never frees a packet: every mbuf given to it comes back
 *    exactly once, alone or inside an aggregate.
 *  - does not set TX offload flags: egress asks for TSO or calls
 *    tp_gro_segment().
 *
 * OUTPUT FORMAT OF A MERGED PACKET (an "aggregate" of 2 or more segments)
 *  - one chain: the first segment's mbuf(s) hold its headers and payload,
 *    then each later segment's mbuf(s) with its payload only (its headers
 *    are cut off with the data offset, still in the headroom). With
 *    single-mbuf inputs that is exactly one mbuf per segment.
 *  - headers are the first segment's, with: IPv4 total length and header
 *    checksum rewritten, or IPv6 payload length rewritten; PSH/FIN of the
 *    last segment OR-ed into the TCP flags; TCP checksum = the pseudo-header
 *    checksum WITHOUT the length, folded and not complemented (what DPDK TSO
 *    expects, rte_ipv4_phdr_cksum/rte_ipv6_phdr_cksum with
 *    RTE_MBUF_F_TX_TCP_SEG). For IPv6 the pseudo-header uses the IPv6
 *    header's destination and next header 6 (TCP), also behind extension
 *    headers (where rte_ipv6_phdr_cksum would take the first next header).
 *  - mbuf fields: RTE_MBUF_F_RX_LRO set; tso_segsz = first segment's TCP
 *    payload (every segment but the last has exactly this size, the last
 *    1..tso_segsz); l2_len (Ethernet + in-frame tags), l3_len (IP header +
 *    IPv6 extension headers), l4_len (TCP header with options);
 *    RX L4 checksum flag = RTE_MBUF_F_RX_L4_CKSUM_NONE (integrity verified,
 *    field not a full checksum), IPv4 header checksum flag = GOOD;
 *    the TP_GRO_DYNFLAG_FIXEDID dynamic flag when the IPv4 IDs were fixed.
 *    Segment count: tp_gro_segs(), computed from those fields.
 *  - a merged tunnel packet, in DPDK's tunnel TSO layout: outer_l2_len
 *    (outer MAC header and tags), outer_l3_len (outer IP header), l2_len =
 *    outer UDP + VXLAN + inner MAC header (VXLAN) or 0 (IP in IP), l3_len
 *    and l4_len of the inner headers; ol_flags RTE_MBUF_F_TX_TUNNEL_VXLAN
 *    (or _GENEVE, then l2_len = outer UDP + GENEVE header and options
 *    [+ inner MAC header]) or RTE_MBUF_F_TX_TUNNEL_IPIP,
 *    RTE_MBUF_F_TX_OUTER_IPV4 or _IPV6,
 *    RTE_MBUF_F_TX_OUTER_UDP_CKSUM when the outer UDP checksum is non-zero
 *    (then it holds the outer pseudo-header sum without the length, as the
 *    TCP one); packet_type L2_ETHER | outer L3 | [L4_UDP | TUNNEL_VXLAN |
 *    INNER_L2_ETHER] or TUNNEL_IP | INNER_L3_IPV4/6 | INNER_L4_TCP. Outer
 *    IP length (and IPv4 header checksum) and outer UDP length rewritten;
 *    TP_GRO_DYNFLAG_FIXEDID_OUTER when the outer IPv4 IDs were fixed. The
 *    RX checksum flags describe the inner headers.
 *  - a merged UDP packet: UDP length of the whole, UDP checksum = the
 *    pseudo-header sum without the length (as DPDK's UDP segmentation
 *    offload wants it), l4_len 8, tso_segsz = first datagram's payload,
 *    packet_type L2_ETHER | L3 | L4_UDP. tp_gro_plain_tcp() tells plain
 *    TCP aggregates (for a NIC's plain TSO) from these.
 * The TX flags above describe the packet; egress still asks for
 * segmentation (RTE_MBUF_F_TX_TCP_SEG / _UDP_SEG) or calls
 * tp_gro_segment().
 *  - a 1-segment aggregate is the original mbuf, bytes and fields untouched.
 *
 * Checksums: an mbuf whose ol_flags say GOOD (or NONE) is trusted, BAD is
 * passed through; UNKNOWN is verified in software unless conf.no_sw_csum
 * (then trusted, and counted in stats.csum_unverified).
 */
#ifndef TP_GRO_H
#define TP_GRO_H

/* Declared here = exported: the library is built with -fvisibility=hidden
 * and its version.map lists these names (GCC manual, Visibility Pragmas). */
#pragma GCC visibility push(default)

#include <stdint.h>

#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why an aggregate was completed. */
#define TP_GRO_FLUSH_REASONS(X) \
	X(PSH_FIN, "psh_fin")         /* PSH or FIN segment appended */        \
	X(SHORT, "short_segment")     /* appended segment < tso_segsz */       \
	X(FLAGS, "tcp_flag_word")     /* flags/doff/window differ */           \
	X(ACK, "tcp_ack")             /* ACK number differs */                 \
	X(OPTS, "tcp_options")        /* option bytes differ */                \
	X(SEQ, "tcp_seq")             /* not the next in-order byte */         \
	X(MSS, "larger_segment")      /* payload > first segment's */          \
	X(L3, "ip_fields")            /* TTL/TOS/DF or TC/hop limit differ */  \
	X(IPID, "ip_id")              /* IPv4 ID not inc/fixed */              \
	X(SIZE, "ip_len_cap")         /* would exceed max IP length */         \
	X(MAX_SEGS, "max_segs")       /* conf.max_segs reached (UDP: 64) */    \
	X(OUTER, "outer_ip_fields")   /* tunnel: outer TTL/TOS/DF/ID, TC/hlim */ \
	X(BYPASS, "same_flow_bypass") /* unmergeable packet of this flow */    \
	X(BUCKET_FULL, "bucket_full") /* oldest of a full bucket */            \
	X(TABLE_FULL, "table_full")   /* oldest of a full table */             \
	X(AGE, "age")                 /* tp_gro_flush() / age mode */          \
	X(BURST, "burst_end")         /* end of burst, burst mode */           \
	X(ALL, "flush_all")           /* tp_gro_flush_all() */

/* Why a packet was passed through without being held. */
#define TP_GRO_PASS_REASONS(X) \
	X(NOT_IP, "not_ip")             /* not IPv4/IPv6 (after tags) */       \
	X(NOT_TCP, "not_tcp")           /* IP but not TCP */                   \
	X(IP_OPTS, "ipv4_options")      /* IHL != 5 */                         \
	X(IP_FRAG, "ip_fragment")       /* IPv4 MF/offset, IPv6 frag hdr */    \
	X(IP_HDR, "ip_header")          /* reserved bit, version, ext hdrs */  \
	X(BAD_LEN, "bad_length")        /* IP/TCP lengths vs frame */          \
	X(TRAILER, "l2_trailer")        /* bytes after IP, not padding */      \
	X(BAD_IP_CSUM, "bad_ip_csum")   /* IPv4 header checksum */             \
	X(BAD_L4_CSUM, "bad_tcp_csum")  /* TCP checksum */                     \
	X(ZERO_PAYLOAD, "zero_payload") /* pure ACK etc. */                    \
	X(TCP_FLAGS, "syn_rst_urg")     /* SYN, RST or URG */                  \
	X(PSH_FIN, "psh_fin_alone")     /* PSH/FIN, nothing to join */         \
	X(HDR_SPLIT, "headers_split")   /* headers span input mbufs */         \
	X(LRO, "already_merged")        /* input already RX_LRO */             \
	X(BAD_UDP_CSUM, "bad_udp_csum") /* UDP or outer UDP checksum */        \
	X(UDP_CSUM0, "udp_zero_csum")   /* UDP GRO needs a checksum */         \
	X(TUN_HDR, "tunnel_header")     /* truncated tunnel, inner not IP */   \
	X(ALONE, "burst_of_one")        /* burst mode: nothing to merge with */

#define TP_GRO_X_ENUM(e, s) TP_GRO_FLUSH_##e,
enum tp_gro_flush_reason { TP_GRO_FLUSH_REASONS(TP_GRO_X_ENUM) TP_GRO_FLUSH_MAX };
#undef TP_GRO_X_ENUM
#define TP_GRO_X_ENUM(e, s) TP_GRO_PASS_##e,
enum tp_gro_pass_reason { TP_GRO_PASS_REASONS(TP_GRO_X_ENUM) TP_GRO_PASS_MAX };
#undef TP_GRO_X_ENUM

/* Names of the reasons, indexed by the enums above. */
extern const char *const tp_gro_flush_reason_names[TP_GRO_FLUSH_MAX];
extern const char *const tp_gro_pass_reason_names[TP_GRO_PASS_MAX];

enum tp_gro_flush_mode {
	TP_GRO_MODE_BURST = 0, /* everything completed at the end of each merge_burst */
	TP_GRO_MODE_AGE = 1,   /* held across bursts until older than age_tsc */
};

enum tp_gro_order {
	TP_GRO_ORDER_FLOW = 0,   /* per-flow arrival order kept (default) */
	TP_GRO_ORDER_KERNEL = 1, /* exactly Linux's output (see ORDER above) */
};

/* conf.tunnels bits. */
#define TP_GRO_TUN_VXLAN 0x1u  /* VXLAN (RFC 7348) over UDP/IPv4 or UDP/IPv6 */
#define TP_GRO_TUN_IPIP 0x2u   /* IPv4 or IPv6 in IPv4 or IPv6: IPIP (RFC 2003),
				* SIT (RFC 4213), IPv4-in-IPv6 and IPv6-in-IPv6
				* (RFC 2473) */
#define TP_GRO_TUN_GENEVE 0x4u /* GENEVE (RFC 8926) over UDP/IPv4 or UDP/IPv6
				* to port 6081, options up to 48 bytes */
#define TP_GRO_TUN_ALL (TP_GRO_TUN_VXLAN | TP_GRO_TUN_IPIP | TP_GRO_TUN_GENEVE)
#define TP_GRO_GENEVE_PORT 6081
#define TP_GRO_VXLAN_PORTS_MAX 4
#define TP_GRO_VXLAN_PORT_DEFAULT 4789

struct tp_gro_conf {
	uint32_t max_flows;   /* aggregates held at once, 1..65535 (0: 1024) */
	uint16_t max_segs;    /* segments per aggregate, 2..65535 (0: no limit
			       * but the IP length, as Linux) */
	uint32_t max_ip_len;  /* merged IP datagram length cap, 0: 65535
			       * (gro_max_size 65536 => <= 65535) */
	enum tp_gro_flush_mode mode;
	uint64_t age_tsc;     /* AGE mode: complete aggregates started at least
			       * this many TSC cycles ago (see tp_gro_usec_to_tsc) */
	int no_sw_csum;       /* 1: trust checksums whose status is UNKNOWN */
	int socket_id;        /* memory for the table; SOCKET_ID_ANY ok */
	enum tp_gro_order order;
	/* Beyond plain TCP (all off by default, see TUNNELS AND UDP above): */
	uint32_t tunnels;     /* TP_GRO_TUN_* bits: encapsulations merged */
	int udp;              /* 1: UDP GRO as rx-udp-gro-forwarding */
	uint16_t vxlan_ports[TP_GRO_VXLAN_PORTS_MAX]; /* UDP ports (host
			       * order) that carry VXLAN; 0 = unused slot;
			       * all 0: 4789 (IANA). Never UDP-merged. */
};

struct tp_gro_stats {
	uint64_t pkts_in;        /* mbufs given to merge_burst */
	uint64_t pkts_out;       /* mbufs handed back (passed through + aggregates) */
	uint64_t passed;         /* of pkts_out, never held */
	uint64_t aggregates_out; /* of pkts_out, completed aggregates (any size) */
	uint64_t merged_out;     /* of aggregates_out, those with >= 2 segments */
	uint64_t segs_merged;    /* input segments that left inside a merged packet */
	uint64_t flush[TP_GRO_FLUSH_MAX];
	uint64_t pass[TP_GRO_PASS_MAX];
	uint64_t csum_sw_ip;     /* IPv4 header checksums verified in software */
	uint64_t csum_sw_l4;     /* TCP checksums verified in software */
	uint64_t csum_unverified;/* UNKNOWN checksums trusted (no_sw_csum) */
	int sw_csum_off;         /* conf.no_sw_csum was set */
	/* tp_gro never drops: there is no drop counter. */
};

struct tp_gro;

/* Name of the dynamic ol_flags bit set on a merged IPv4 packet whose IDs were
 * fixed (all equal) rather than incrementing (Linux SKB_GSO_TCP_FIXEDID).
 * Registered by tp_gro_create(); tp_gro_segment() reads it. */
#define TP_GRO_DYNFLAG_FIXEDID "tp_gro_fixedid"
/* The same for the outer IPv4 header of a merged tunnel packet (Linux keeps
 * one fixed-ID bit per header level, include/net/gro.h inet_gro_flush). */
#define TP_GRO_DYNFLAG_FIXEDID_OUTER "tp_gro_fixedid_outer"

/* Convert microseconds to TSC cycles for conf.age_tsc. */
uint64_t tp_gro_usec_to_tsc(uint64_t usec);

/* Create a table. Registers the tp_dsa_meta dynfield (idempotent). Returns
 * NULL with rte_errno = EINVAL (a field out of range; the message is logged
 * naming it), ENOMEM, or rte_mbuf_dynfield_register()'s errno (no room for
 * the field: GRO is not created rather than silently keying without the
 * switch port). conf NULL = defaults. */
struct tp_gro *tp_gro_create(const struct tp_gro_conf *conf);

/* Free the table. Held mbufs are freed too (use tp_gro_flush_all first to
 * keep them). NULL is a no-op. */
void tp_gro_destroy(struct tp_gro *g);

/* Memory the table uses, bytes (for benchmarks and sizing). */
size_t tp_gro_memory(const struct tp_gro *g);

/*
 * Give a burst of n received mbufs to GRO. tp_gro takes ownership of all n.
 * It writes to out[] the mbufs it hands back and returns their count:
 *  - packets passed through unchanged (never held),
 *  - aggregates completed by this burst (flush rules, table full),
 *  - BURST mode: then every aggregate still held, oldest first (after the
 *    call nothing is held); a burst of one frame is handed back unparsed
 *    and counted as passed (TP_GRO_PASS_ALONE);
 *  - AGE mode: then aggregates started at or before now_tsc - conf.age_tsc,
 *    oldest first, as long as out[] has room (the rest come out later).
 * Order: events in arrival order; within a flow the output is always in
 * arrival order. Everything else stays held (tp_gro_held()).
 * out must have room for 2 * n mbufs (a same-flow unmergeable packet hands
 * back the held aggregate and itself) and must not overlap pkts; pkts[] is
 * left as it was (its pointers are not owned by the caller any more).
 * n may be 0 (AGE mode: just the aged flush).
 * Returns the count (0..2n), or -EINVAL when out_max < 2 * n (nothing taken).
 */
int tp_gro_merge_burst(struct tp_gro *g, struct rte_mbuf **pkts, uint16_t n,
		       struct rte_mbuf **out, uint16_t out_max, uint64_t now_tsc);

/* Complete aggregates started at or before now_tsc - conf.age_tsc (any mode),
 * oldest first, at most max. Returns how many were written to out. */
uint16_t tp_gro_flush(struct tp_gro *g, uint64_t now_tsc,
		      struct rte_mbuf **out, uint16_t max);

/* Complete every held aggregate, oldest first, at most max; call again while
 * tp_gro_held_flows() > 0. Returns how many were written to out. */
uint16_t tp_gro_flush_all(struct tp_gro *g, struct rte_mbuf **out, uint16_t max);

/* mbufs (segments) held right now: the pipeline's held_in_gro. */
uint32_t tp_gro_held(const struct tp_gro *g);
/* aggregates held right now. */
uint32_t tp_gro_held_flows(const struct tp_gro *g);

/* Counters since create (or the last reset). */
void tp_gro_stats_get(const struct tp_gro *g, struct tp_gro_stats *st);
void tp_gro_stats_reset(struct tp_gro *g);

/* 1 when the TCP checksum of the segment at l4 (l4_len bytes: header and
 * payload, one contiguous buffer) is valid, with the pseudo-header taken from
 * the IPv4 (v6 = 0) or IPv6 (v6 = 1; its own destination) header at l3
 * (RFC 793 §3.1, RFC 8200 §8.1). What tp_gro runs when a NIC gave no
 * checksum status; vectorised where the CPU allows. */
int tp_gro_tcp_csum_ok(const void *l3, int v6, const void *l4, uint32_t l4_len);

/* Segment count of a packet out of tp_gro: ceil(TCP payload / tso_segsz) for
 * a merged packet (RTE_MBUF_F_RX_LRO), 1 otherwise. */
static inline uint16_t
tp_gro_segs(const struct rte_mbuf *m)
{
	uint32_t hdr, pay;

	if (!(m->ol_flags & RTE_MBUF_F_RX_LRO) || m->tso_segsz == 0)
		return 1;
	hdr = (uint32_t)m->l2_len + m->l3_len + m->l4_len;
	if (m->ol_flags & RTE_MBUF_F_TX_TUNNEL_MASK)
		hdr += (uint32_t)m->outer_l2_len + m->outer_l3_len;
	pay = m->pkt_len > hdr ? m->pkt_len - hdr : 0;
	return (uint16_t)((pay + m->tso_segsz - 1) / m->tso_segsz);
}

/* 1 when a packet out of tp_gro merged plain TCP (no tunnel, not UDP):
 * what a NIC's plain TCP TSO can split. Tunnel and UDP aggregates need
 * tunnel TSO / UDP segmentation offload, or tp_gro_segment(). */
static inline int
tp_gro_plain_tcp(const struct rte_mbuf *m)
{
	return !(m->ol_flags & RTE_MBUF_F_TX_TUNNEL_MASK) &&
	       (m->packet_type & RTE_PTYPE_L4_MASK) != RTE_PTYPE_L4_UDP;
}

/*
 * The inverse (GSO, software): split a merged packet from tp_gro back into
 * its original segments: headers of the merged packet with, per segment,
 * the sequence number advanced, IPv4 total length / IPv6 payload length set,
 * IPv4 ID = first + i (or the first for all, TP_GRO_DYNFLAG_FIXEDID), PSH/FIN
 * only on the last, IPv4 header and TCP checksums complete and valid. A
 * tunnel packet's outer headers too: outer IP length, outer IPv4 ID (first +
 * i, or fixed: TP_GRO_DYNFLAG_FIXEDID_OUTER) and header checksum, outer UDP
 * length and (when it was non-zero) a complete UDP checksum. A UDP packet:
 * each datagram's UDP length and complete checksum. Segments keep the
 * tunnel's lengths and TX_TUNNEL / TX_OUTER_IPV* flags.
 * Segments get the merged packet's mbuf metadata (port, vlan TCIs, hash,
 * packet_type, dynfields, ol_flags without RTE_MBUF_F_RX_LRO and the fixed-ID
 * flag, RX L4 checksum GOOD) with l2/l3/l4_len set and tso_segsz 0.
 * TCP checksum offload: when m carries RTE_MBUF_F_TX_TCP_CKSUM (set by the
 * caller for a port with RTE_ETH_TX_OFFLOAD_TCP_CKSUM, together with
 * RTE_MBUF_F_TX_IPV4 or _IPV6 as DPDK requires), a plain TCP segment's
 * checksum field holds the pseudo-header checksum with its length
 * (rte_ipv4_phdr_cksum / rte_ipv6_phdr_cksum) and the segment keeps the
 * flag, so the NIC completes it; IPv6 with extension headers, UDP and
 * tunnel packets get complete checksums and lose the L4 request.
 * The original L2 padding of tiny frames is not restored.
 *
 * A packet without RTE_MBUF_F_RX_LRO (or with tso_segsz 0) is returned
 * unchanged as out[0], result 1. (An RX_LRO packet whose payload fits one
 * tso_segsz becomes one segment with its headers and checksums made whole.)
 *
 * Layout: when m is laid out as tp_gro produces it (each chained mbuf holds
 * one segment's payload, with headroom for the headers and refcnt 1) the
 * segments are made in place without allocating. Otherwise each segment is
 * copied into a new mbuf from pool (NULL: not allowed, -EINVAL) and m is
 * freed on success.
 *
 * Returns the number of segments written to out (1..max), or a negative
 * errno with m untouched and still owned by the caller: -ENOSPC (more than
 * max segments), -EINVAL (inconsistent metadata or headers), -ENOMEM.
 */
int tp_gro_segment(struct rte_mbuf *m, struct rte_mbuf **out, uint16_t max,
		   struct rte_mempool *pool);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* TP_GRO_H */
