/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_gro internals: the parsed view of a packet, the flow key, the flow
 * entries and the bucketed table. Private to lib/gro.
 *
 * Table invariants:
 *  - a flow entry is either on the free stack or held (in exactly one bucket
 *    slot and on the age list); one held entry per key.
 *  - bucket b = hash & bucket_mask holds at most GRO_BUCKET_SLOTS entries
 *    (Linux MAX_GRO_SKBS = 8, docs/ref/gro.md §2); `used` has one bit per slot.
 *  - the age list is in the order aggregates were started: head = oldest.
 *  - held_segs = sum of segs over held entries.
 */
#ifndef TP_GRO_PRIV_H
#define TP_GRO_PRIV_H

#include <stdint.h>
#include <string.h>

#include <rte_mbuf.h>
#if defined(RTE_ARCH_X86)
/* The fast path's header compare has an AVX2 instance, chosen per tp_gro
 * at create (gro_fast.h fast_masked_eq_avx2). */
#define GRO_HAVE_WIDE 1
#include <immintrin.h>
/* The target of the AVX2 instances: the ISA only, DPDK's tuning kept,
 * so the always-inline helpers inline into them as into the others. */
#define GRO_WIDE_TARGET __attribute__((target("avx2")))
#endif

#include "tp_gro.h"

#define GRO_BUCKET_SLOTS 8     /* MAX_GRO_SKBS in Linux (§2) */
#define GRO_KERNEL_BUCKETS 8   /* GRO_HASH_BUCKETS in Linux (include/net/gro.h) */
#define GRO_NIL 0xFFFFu        /* no flow index */
#define GRO_MAX_FLOWS 65535u
#define GRO_UDP_CNT_MAX 64     /* UDP_GRO_CNT_MAX, net/ipv4/udp_offload.c */
#define GRO_L2_MAX 24          /* Ethernet + two tags (22) rounded up */
#define GRO_OPT_MAX 40         /* TCP options: data offset 15 => 40 bytes */
#define GRO_EXT_MAX 255        /* IPv6 extension bytes kept in the key */
#define GRO_TMPL_MAX 96        /* header bytes the fast path compares (16 x 6):
				* Ethernet + IPv6 + TCP with timestamps is 86 */
#define GRO_TMPL_FULL 128      /* ... for a tunnel (16 x 8; the last 32 in
				* tmpl_hi): VXLAN/IPv4 + IPv4 + TCP with
				* timestamps is 116 */
#define GRO_META_TCI 0x01      /* gro_flow.meta: TCIs or RSS hash compared */
#define GRO_META_TUN 0x02      /* tunnel: packet_type's tunnel bits compared */
#define GRO_META_EXT 0x04      /* a tunnel or UDP flow: the fields after key
				* matter (plain TCP flows never read them) */

/* TCP flag bits inside the 32-bit flag word (bytes 12..15 of the TCP header,
 * host order: doff/reserved/AE, flags, window). */
#define GRO_TCPW_FIN 0x00010000u
#define GRO_TCPW_SYN 0x00020000u
#define GRO_TCPW_RST 0x00040000u
#define GRO_TCPW_PSH 0x00080000u
#define GRO_TCPW_URG 0x00200000u

/* The flow key, compared as 10 64-bit words (docs/ref/gro.md §1.1). */
struct gro_key {
	union {
		uint64_t w[10];
		struct {
			uint8_t l2[GRO_L2_MAX];  /* MAC header + in-frame tags */
			uint8_t src[16];         /* IPv4: first 4 bytes */
			uint8_t dst[16];
			uint32_t ports;          /* sport, dport as on the wire */
			uint32_t v6w0;           /* IPv6 word 0 & 0xF00FFFFF; IPv4: 0 */
			uint16_t vlan_tci;       /* stripped TCIs (0 if absent) */
			uint16_t vlan_tci_outer;
			uint8_t dsa_port;
			uint8_t dsa_dev;
			uint8_t flags;           /* GRO_KF_* */
			uint8_t l2_len;
			uint8_t ext_len;         /* IPv6 extension header bytes */
			uint8_t ext_first;       /* IPv6 next header after fixed hdr */
			uint16_t ext_sum;        /* quick check of extension bytes */
			uint32_t pad;
		};
	};
};

#define GRO_KF_V6 0x01
#define GRO_KF_VLAN 0x02     /* RTE_MBUF_F_RX_VLAN_STRIPPED */
#define GRO_KF_QINQ 0x04     /* RTE_MBUF_F_RX_QINQ_STRIPPED */
#define GRO_KF_DSA 0x08      /* switch port metadata valid */
#define GRO_KF_TUN 0x10      /* encapsulated: tkey holds the outer key
			      * (compared after the key, gro_merge.c lookup) */
#define GRO_KF_UDP 0x20      /* UDP GRO (the ports are UDP's) */

/* Tunnel kinds (gro_encap.h). */
#define GRO_TUN_NONE 0
#define GRO_TUN_VXLAN 1
#define GRO_TUN_IPIP 2       /* any IP in IP: IPIP, SIT, 4in6, 6in6 */
#define GRO_TUN_GENEVE 3

/* The outer flow key of a tunnel packet, compared byte for byte: the
 * offsets, the outer IP key fields, outer UDP ports and checksum zero-ness,
 * VXLAN header, inner MAC header and tags (gro_encap.h tkey_build). */
#define GRO_TKEY_MAX 128
#define GRO_GENEVE_HMAX 56   /* GENEVE header + options held (8 + 48) */

/* One packet as parsed by the burst loop. */
struct gro_pkt {
	struct rte_mbuf *m;
	uint32_t hash;
	uint8_t pass;          /* 0xFF: holdable; else enum tp_gro_pass_reason */
	uint8_t has_key;       /* key valid (TCP ports known) */
	uint8_t optlen;
	uint8_t v6;
	uint16_t l2_len;
	uint16_t l3_len;       /* IP header (+ IPv6 extension headers) */
	uint16_t l4_len;
	uint16_t paylen;       /* TCP payload bytes */
	uint32_t ip_len;       /* IPv4 total length; IPv6 40 + payload length */
	uint32_t seq;
	uint32_t ack;
	uint32_t tcpw;         /* flag word, host order */
	uint32_t l3w;          /* IPv4: ttl<<16|tos<<8|df; IPv6: tc<<8|hlim */
	uint16_t ip_id;
	uint16_t ext_patch;    /* fragment: its next-header byte in the ext
				* bytes, compared as TCP; GRO_NIL: none */
	const uint8_t *opts;
	/* beyond plain TCP */
	uint8_t l4p;           /* NH_TCP or NH_UDP */
	uint8_t want_udp;      /* UDP GRO asked for at this level */
	uint8_t early;         /* kernel order: refused before its flow lookup */
	uint8_t late;          /* refused through Linux's flush word only (IPv4
				* reserved bit): its flow lookup still runs */
	uint8_t tun;           /* GRO_TUN_* */
	uint8_t ov6;           /* outer IPv6 */
	uint8_t ucsum;         /* outer UDP checksum non-zero */
	uint8_t tkey_len;
	uint8_t o_hl;          /* outer IP header bytes */
	uint16_t o_l3;         /* outer IP offset (outer MAC header bytes) */
	uint16_t o_id;         /* outer IPv4 ID */
	uint32_t ol3w;         /* outer l3w (as l3w) */
	struct gro_key key;
	uint8_t tkey[GRO_TKEY_MAX];
};

#define GRO_HOLDABLE 0xFF

enum gro_id_mode { GRO_ID_INC = 1, GRO_ID_FIXED = 2 };

/* A held aggregate. Lines 0-2 are all the fast path (gro_fast.h) reads for
 * a segment: line 0 its scalar state, lines 1-2 the head's header template
 * and the metadata words. The full parse's view, the age list and the key
 * follow. Few lines per flow is what keeps many flows cheap: each flow is
 * visited about once per burst, after the burst's frames went through the
 * cache. */
struct gro_flow {
	uint32_t next_seq;
	uint32_t ip_len;      /* IP length of the aggregate so far (a tunnel's:
			       * the outer datagram's, o_extra more) */
	uint32_t hash;
	uint32_t hash_mask;   /* ~0: the NIC's RSS hash picks the flow */
	uint32_t tci_mask;    /* vlan_tci | vlan_tci_outer << 16 */
	uint32_t tci_want;
	uint32_t seg_cap;     /* segments it may reach: max_segs, IP length */
	uint16_t mss;         /* first segment's payload */
	uint16_t segs;        /* packets (TCP segments) in the aggregate */
	uint16_t id_next;     /* IPv4 ID the next segment needs (or the first's
			       * after one segment: fixed IDs) */
	uint16_t frame;       /* frame length of a full-size segment */
	uint16_t hdr_len;     /* l2 + l3 + l4 */
	uint16_t l2_len;
	uint16_t l4_off;      /* l2_len + l3_len */
	uint16_t mbufs;       /* mbufs in the chain */
	uint8_t id_mode;
	uint8_t psh_fin;      /* FIN/PSH bits of the last segment (flag byte) */
	uint8_t v6;
	uint8_t nvec;         /* 16-byte words compared; 0: no fast path */
	uint8_t cs_in_vec;    /* the strict compare includes cs_mask: the
			       * head's checksum flags were GOOD */
	uint8_t meta;         /* tci_mask or hash_mask is not 0 */
	uint8_t shape;        /* tp_gro.shape_mask[] entry of the template */
	uint8_t head_single;  /* the first packet is one mbuf (may be trimmed) */
	struct rte_mbuf *tail;
	/* Lines 1-2: the fast path's view of the head. A segment may join
	 * without a parse when its first 16 x nvec bytes equal tmpl where the
	 * shape's mask is set (every key and flush-rule byte of the headers),
	 * its ol_flags & ol_strict equal ol_want (no LRO, the same VLAN/QinQ
	 * strip and RSS flags) and the masked metadata words equal. */
	uint8_t tmpl[GRO_TMPL_MAX] __rte_aligned(32); /* AVX2 loads */
	uint64_t ol_want;     /* with the checksum bits GOOD */
	uint64_t ol_strict;   /* ol_mask, without cs_mask unless cs_in_vec */
	uint64_t dsa_mask;    /* over the 8-byte tp_dsa_meta dynfield */
	uint64_t dsa_want;
	/* Line 3: what the fast path reads of a tunnel flow only */
	uint8_t tmpl_hi[GRO_TMPL_FULL - GRO_TMPL_MAX] __rte_aligned(32);
	uint32_t ptype_want;  /* packet_type & RTE_PTYPE_TUNNEL_MASK of the head */
	uint16_t o_id_next;   /* outer IPv4 ID the next segment needs */
	uint16_t o_id_off;    /* its offset in the frame; 0: no outer IPv4 */
	/* then the full parse's view and the table's links */
	uint64_t ol_mask;     /* with cs_mask */
	uint64_t cs_mask;     /* the checksum status bits that matter */
	uint32_t ack;
	uint32_t tcpw;        /* head's flag word */
	uint32_t l3w;
	uint16_t first_id;
	uint16_t l3_len;      /* IP header (+ IPv6 extension headers) */
	uint16_t age_prev;
	uint16_t age_next;
	uint8_t optlen;
	uint8_t slot;
	uint32_t bucket;
	uint32_t birth;       /* start order, for the bucket's oldest */
	uint64_t start_tsc;
	struct rte_mbuf *head;
	uint8_t opts[GRO_OPT_MAX];
	struct gro_key key;
	/* beyond plain TCP (read only when key.flags has TUN or UDP) */
	uint8_t l4p;          /* NH_TCP or NH_UDP */
	uint8_t tun;          /* GRO_TUN_* */
	uint8_t ov6;
	uint8_t ucsum;        /* outer UDP checksum non-zero */
	uint8_t o_hl;
	uint8_t o_id_mode;
	uint8_t tkey_len;
	uint16_t o_l3;
	uint16_t o_extra;     /* outer IP length - inner IP length */
	uint16_t o_first_id;
	uint32_t ol3w;
	uint8_t tkey[GRO_TKEY_MAX];
} __rte_cache_aligned;

/* Header geometries whose template masks tp_gro keeps (shape_mask): the
 * mask depends only on where the IP and TCP headers are and how long they
 * are, so all flows of one geometry share one, which stays in cache. */
#define GRO_SHAPES 16

struct gro_shape {          /* 8 bytes: compared as one word */
	uint16_t l2_len;
	uint16_t l4_off;
	uint16_t hdr_len;
	uint8_t v6;
	uint8_t o_id_off;     /* tunnel with outer IPv4: its ID's offset */
};

struct gro_bucket {
	uint32_t hash[GRO_BUCKET_SLOTS];
	uint16_t flow[GRO_BUCKET_SLOTS];
	uint8_t used;
	uint8_t pad[15];
} __rte_cache_aligned;

struct tp_gro {
	struct tp_gro_conf conf;
	uint32_t max_ip_len;
	uint32_t max_segs;
	uint32_t bucket_mask;
	uint32_t nb_flows;
	uint32_t held_flows;
	uint32_t held_segs;
	uint16_t age_head;     /* oldest */
	uint16_t age_tail;     /* newest */
	uint32_t nb_free;
	uint32_t births;
	int dsa_off;           /* tp_dsa_meta dynfield offset or -1 */
	uint8_t kernel;        /* conf.order == TP_GRO_ORDER_KERNEL */
	uint8_t wide;          /* the fast path compares in AVX2 (CPU flag and
				* the EAL's max SIMD width, at create) */
	uint16_t last;         /* flow the previous segment joined or started:
				* the fast path's first guess; GRO_NIL: none */
	uint16_t ghost;        /* entry completed last: while it is the free
				* stack's top, nothing was started since and its
				* template still describes that flow
				* (fast_start); GRO_NIL: none */
	uint64_t fixedid_flag; /* ol_flags bit of TP_GRO_DYNFLAG_FIXEDID */
	uint64_t ofixedid_flag; /* ... of TP_GRO_DYNFLAG_FIXEDID_OUTER */
	uint8_t tun_vxlan;     /* conf.tunnels & TP_GRO_TUN_VXLAN */
	uint8_t tun_ipip;      /* conf.tunnels & TP_GRO_TUN_IPIP */
	uint8_t tun_geneve;    /* conf.tunnels & TP_GRO_TUN_GENEVE */
	uint8_t udp;           /* conf.udp */
	uint8_t encap;         /* any of the three: gro_parse looks further */
	uint8_t nb_vxlan_ports;
	uint16_t vxlan_ports[TP_GRO_VXLAN_PORTS_MAX]; /* network order */
	uint32_t nb_shapes;    /* shapes known; once GRO_SHAPES, a flow of a
				* new geometry has no fast path (nvec 0) */
	struct gro_shape shape[GRO_SHAPES];
	/* per shape: 0xFF on the header bytes the fast path compares (the
	 * bytes that change between full-size segments are 0) */
	uint8_t shape_mask[GRO_SHAPES][GRO_TMPL_FULL] __rte_aligned(64);
	struct tp_gro_stats st;
	size_t mem;
	uint16_t *free_stack;
	struct gro_bucket *buckets;
	struct gro_flow *flows;
};

/* gro_csum.c. gro_csum_select_avx2: 0 forces the SSE sum (tests run both;
 * the default is chosen from the CPU at start). */
void gro_csum_select_avx2(int on);
int gro_ipv4_hdr_ok(const void *iph);
int gro_tcp_csum_ok_mbuf(const struct rte_mbuf *m, const uint8_t *l3, int v6,
			 uint32_t l4_off, uint32_t l4_len);
uint16_t gro_tcp_phdr_nolen(const uint8_t *l3, int v6);
uint16_t gro_phdr_nolen(const uint8_t *l3, int v6, uint8_t proto);
int gro_l4_csum_ok_mbuf(const struct rte_mbuf *m, const uint8_t *l3, int v6, uint8_t proto,
			uint32_t l4_off, uint32_t l4_len);
uint16_t gro_l4_csum_full(const uint8_t *l3, int v6, uint8_t proto, const struct rte_mbuf *m,
			  uint32_t l4_off, uint32_t l4_len);
uint16_t gro_tcp_csum_full(const uint8_t *l3, int v6, const struct rte_mbuf *m,
			   uint32_t l4_off, uint32_t l4_len);

/* gro_table.c. gro_fast_select_avx2: 0 makes the tp_gro created from then
 * on compare in 16-byte vectors (tests run both; by default AVX2 where the
 * CPU has it and rte_vect_get_max_simd_bitwidth() allows 256 bits). */
void gro_fast_select_avx2(int on);

/* gro_flows.c */
uint16_t gro_flow_alloc(struct tp_gro *g);
void gro_flow_unlink(struct tp_gro *g, uint16_t idx);
void gro_flow_link(struct tp_gro *g, uint16_t idx, uint32_t bucket, uint8_t slot);

/* gro_table.c */
uint64_t gro_fixedid_flag(void);
uint64_t gro_ofixedid_flag(void);

/* gro_complete.c: complete held flow idx (removed from the table), return
 * the packet to hand back. */
struct rte_mbuf *gro_complete(struct tp_gro *g, uint16_t idx,
			      enum tp_gro_flush_reason why);

#endif /* TP_GRO_PRIV_H */
