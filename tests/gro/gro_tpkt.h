/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Test frames for tp_gro: a TCP/IPv4 or TCP/IPv6 segment built from a small
 * description (the kernel GRO selftest's template, docs/ref/gro.md §3.1, by default),
 * and independent checks of what tp_gro outputs. Used by the rules,
 * property, pcap and benchmark programs.
 */
#ifndef GRO_TPKT_H
#define GRO_TPKT_H

#include <stdint.h>

#include <rte_mbuf.h>

#define TPKT_MAX 70000

struct tpkt {
	int v6;
	int ntags;             /* in-frame tags, outer first */
	uint16_t tpid[2];
	uint16_t tci[2];
	uint8_t dst[6], src[6];
	uint32_t seq;          /* absolute */
	uint32_t ack;
	uint16_t paylen;
	uint8_t pay_char;      /* 0: pattern by offset */
	uint8_t flags;         /* TCP flag byte */
	uint16_t window;
	uint16_t sport, dport;
	uint8_t optlen;
	uint8_t opts[40];
	uint8_t tos;           /* IPv4 TOS or IPv6 traffic class */
	uint8_t ttl;           /* or hop limit */
	uint16_t ip_id;
	int df, mf;
	int rsv;               /* IPv4 reserved flag bit (0x8000) */
	uint8_t ipopt_len;     /* IPv4 options bytes (multiple of 4) */
	uint32_t flow_label;
	uint8_t ext_type;      /* IPv6: 0 none, 60 dstopts, 0x100-1 hop: use ext_hop */
	int ext_hop;           /* Hop-by-Hop instead of Destination Options */
	uint8_t ext_fill;      /* the 6 option bytes */
	int frag6;             /* IPv6 atomic fragment header */
	int bad_tcp_csum, bad_ip_csum;
	uint32_t saddr4, daddr4;
	uint8_t saddr6[16], daddr6[16];
	int no_pad;            /* do not pad to 60 bytes */
};

/* The selftest's defaults: ACK, window 65535, ports 1500 -> 8000, TTL 8,
 * DF, ID 0, 192.168.1.200 -> 192.168.1.100 / fdaa::2 -> fdaa::1,
 * seq 100, ack 100, payload 'a'. */
void tpkt_init(struct tpkt *t, int v6);

/* Build the frame into buf (TPKT_MAX bytes); returns its length. */
uint32_t tpkt_build(const struct tpkt *t, uint8_t *buf);

/* Independent view of a frame (for checking outputs): offsets and lengths.
 * Returns 0 when it is TCP over IPv4/IPv6. */
struct tview {
	uint32_t l2, l3, l4, ip_len, paylen;
	int v6;
	uint32_t seq;
	uint8_t flags;
};
int tview_parse(const uint8_t *f, uint32_t len, struct tview *v);

/* 1 when the IPv4 header checksum (if v4) and the full TCP checksum of the
 * frame are valid. */
int tview_csums_ok(const uint8_t *f, const struct tview *v);

/* Check an output mbuf of tp_gro that is a merged packet against the
 * contract (independently of lib/gro code): IPv4 header checksum valid,
 * IP length = frame, TCP checksum = DPDK's rte_ipv4/ipv6_phdr_cksum with
 * TSO, RX_LRO, l2/l3/l4_len, tso_segsz = first_pay. Fails the test. */
void tview_check_merged(const struct rte_mbuf *m, uint32_t first_pay);

#endif /* GRO_TPKT_H */
