/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc LRO (RSC) on the chip model: in-order TCP segments of one flow
 * come out as one mbuf chain with RTE_MBUF_F_RX_LRO, tso_segsz and the
 * headers an RSC engine writes (IP length and header checksum, PSH OR-ed,
 * TCP checksum of the aggregate); two flows interleave in the ring through
 * next-descriptor pointers; out-of-order, flagged, differing and bad
 * segments are not merged; the descriptor limit and the coalescing interval
 * close sessions; and tp_gro on LRO'd input gives back, segmented, exactly
 * what tp_gro alone gives.
 *
 * Expected frames are built here, byte by byte, with rte_ip.h checksums:
 * an aggregate is the frame a sender would have built for the whole
 * payload with the first segment's headers.
 */
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_tcp.h>

#include "aqc_test.h"
#include "tp_gro.h"

static const char *const vdevs[] = {
	"net_aqc_sim0,mode=step,wire=none",
	NULL,
};

static int
setup(void **state)
{
	(void)state;
	return aqc_test_eal_init(vdevs);
}

/* docs/ref/aqc.md §5.4 write-back fields */
#define WB_DD(dw)    BITS((dw)[2], 0, 0)
#define WB_EOP(dw)   BITS((dw)[2], 1, 1)
#define WB_RSC(dw)   BITS((dw)[2], 15, 12)
#define WB_LEN(dw)   BITS((dw)[2], 31, 16)
#define WB_NEXT(dw)  BITS((dw)[3], 15, 0)

struct seg {
	uint16_t sport;
	uint32_t off;        /* stream offset of the payload (seq = 1000 + off) */
	uint32_t pay;
	uint8_t flags;
	uint16_t ip_id;
	uint8_t ttl;
	uint32_t ack;
	bool v6;
};

/* Payload byte at stream offset i: the same in segments and aggregates. */
static uint8_t
stream_byte(uint32_t i)
{
	return (uint8_t)(i * 7u + 3u);
}

static void
tcp_fill(uint8_t *f, uint32_t l4, const struct seg *s)
{
	struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)(f + l4);

	memset(t, 0, sizeof(*t));
	t->src_port = rte_cpu_to_be_16(s->sport);
	t->dst_port = rte_cpu_to_be_16(80);
	t->sent_seq = rte_cpu_to_be_32(1000 + s->off);
	t->recv_ack = rte_cpu_to_be_32(s->ack ? s->ack : 777);
	t->data_off = 5 << 4;
	t->tcp_flags = s->flags;
	t->rx_win = rte_cpu_to_be_16(4096);
	for (uint32_t i = 0; i < s->pay; i++)
		f[l4 + 20 + i] = stream_byte(s->off + i);
}

/* Ethernet + IPv6 + TCP (20 bytes) frame for s. */
static uint32_t
build6(uint8_t *f, const struct seg *s)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(f + 14);
	struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)(ip + 1);

	f[12] = 0x86;
	f[13] = 0xdd;
	memset(ip, 0, sizeof(*ip));
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28 | 0x12345);
	ip->payload_len = rte_cpu_to_be_16((uint16_t)(20 + s->pay));
	ip->proto = IPPROTO_TCP;
	ip->hop_limits = s->ttl ? s->ttl : 64;
	for (int i = 0; i < 16; i++) {
		ip->src_addr[i] = (uint8_t)(0x20 + i);
		ip->dst_addr[i] = (uint8_t)(0x40 + i);
	}
	tcp_fill(f, 54, s);
	t->cksum = rte_ipv6_udptcp_cksum(ip, t);
	return 74 + s->pay;
}

/* Ethernet + IPv4 (or IPv6, s->v6) + TCP (20 bytes) frame for s; returns
 * its length. */
static uint32_t
build(uint8_t *f, const struct seg *s)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + 14);
	struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)(ip + 1);

	memcpy(f, aqc_test_dst_mac, 6);
	memcpy(f + 6, aqc_test_src_mac, 6);
	if (s->v6)
		return build6(f, s);
	f[12] = 0x08;
	f[13] = 0x00;
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(40 + s->pay));
	ip->packet_id = rte_cpu_to_be_16(s->ip_id);
	ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	ip->time_to_live = s->ttl ? s->ttl : 64;
	ip->next_proto_id = IPPROTO_TCP;
	ip->src_addr = rte_cpu_to_be_32(0x0a000001);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000002);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	tcp_fill(f, 34, s);
	t->cksum = rte_ipv4_udptcp_cksum(ip, t);
	return 54 + s->pay;
}

static void
inject(const struct aqc_test_port *p, const struct seg *s)
{
	static uint8_t f[16384];

	assert_int_equal(aqc_model_inject(p->model, f, build(f, s)), 0);
}

/* The aggregate of segments first..first+n-1: the first's headers, the
 * payloads concatenated, PSH if any had it. */
static uint32_t
build_agg(uint8_t *f, const struct seg *segs, unsigned int n)
{
	struct seg a = segs[0];

	for (unsigned int i = 1; i < n; i++) {
		a.pay += segs[i].pay;
		a.flags |= segs[i].flags & RTE_TCP_PSH_FLAG;
	}
	return build(f, &a);
}

static void
start_lro(const struct aqc_test_port *p, struct rte_mempool *mp, uint32_t max_lro)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info di;

	assert_int_equal(rte_eth_dev_info_get(p->id, &di), 0);
	assert_true(di.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TCP_LRO);
	assert_true(di.rx_queue_offload_capa & RTE_ETH_RX_OFFLOAD_TCP_LRO);
	assert_int_equal(di.max_lro_pkt_size, 65535);
	memset(&conf, 0, sizeof(conf));
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_TCP_LRO | RTE_ETH_RX_OFFLOAD_CHECKSUM |
			       RTE_ETH_RX_OFFLOAD_SCATTER;
	conf.rxmode.max_lro_pkt_size = max_lro;
	assert_int_equal(rte_eth_dev_configure(p->id, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(p->id, 0, 64, 0, NULL, mp), 0);
	assert_int_equal(rte_eth_tx_queue_setup(p->id, 0, 64, 0, NULL), 0);
	assert_int_equal(rte_eth_promiscuous_enable(p->id), 0);
	assert_int_equal(rte_eth_dev_start(p->id), 0);
	aqc_test_wait_link(p->id, RTE_ETH_LINK_UP);
	/* §6.3: the driver's per-ring LRO bit and LNX session values */
	assert_int_equal(aqc_test_reg(p, 0x5590) & 1, 1);
	assert_int_equal(BITS(aqc_test_reg(p, 0x5620), 9, 0), 50);
	assert_int_equal(BITS(aqc_test_reg(p, 0x5620), 31, 20), 0x61a);
}

static void
assert_lro(const struct rte_mbuf *m, const uint8_t *want, uint32_t len, uint16_t segsz,
	   uint16_t nb_segs)
{
	tp_test_assert_mbuf_bytes(m, want, len);
	assert_int_equal(m->nb_segs, nb_segs);
	assert_true(m->ol_flags & RTE_MBUF_F_RX_LRO);
	assert_int_equal(m->tso_segsz, segsz);
	assert_int_equal(m->l2_len, 14);
	assert_int_equal(m->l3_len, RTE_ETH_IS_IPV6_HDR(m->packet_type) ? 40 : 20);
	assert_int_equal(m->l4_len, 20);
	assert_int_equal(m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK, RTE_MBUF_F_RX_L4_CKSUM_GOOD);
	if (!RTE_ETH_IS_IPV6_HDR(m->packet_type))
		assert_int_equal(m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK,
				 RTE_MBUF_F_RX_IP_CKSUM_GOOD);
}

static void
assert_plain(const struct rte_mbuf *m, const struct seg *s)
{
	uint8_t f[2048];

	tp_test_assert_mbuf_bytes(m, f, build(f, s));
	assert_false(m->ol_flags & RTE_MBUF_F_RX_LRO);
}

static const uint8_t ACK = RTE_TCP_ACK_FLAG, PSH = RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG;

/* Four 1000-byte segments, PSH on the last: one aggregate of 4054 bytes
 * over two 2 KiB buffers; the write-back chain as docs/ref/aqc.md §5.4 describes. */
static void
test_merge(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("lro_m", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_model_counters c0, c;
	struct seg s[4];
	struct aqc_test_port p;
	struct rte_mbuf *m[4];
	uint8_t want[8192];
	uint32_t dw[4], len;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	start_lro(&p, mp, 65535);
	for (unsigned int i = 0; i < 4; i++)
		s[i] = (struct seg){ .sport = 5000, .off = 1000 * i, .pay = 1000,
				     .flags = i == 3 ? PSH : ACK, .ip_id = (uint16_t)(100 + i) };
	aqc_model_get_counters(p.model, &c0);
	for (unsigned int i = 0; i < 4; i++)
		inject(&p, &s[i]);
	/* descriptor 0: first buffer, not the end, linked to 1 */
	aqc_test_rx_desc(&p, 0, 0, dw);
	assert_int_equal(WB_DD(dw), 1);
	assert_int_equal(WB_EOP(dw), 0);
	assert_int_not_equal(WB_RSC(dw), 0);
	assert_int_equal(WB_NEXT(dw), 1);
	aqc_test_rx_desc(&p, 0, 1, dw);
	assert_int_equal(WB_EOP(dw), 1);
	assert_int_equal(WB_RSC(dw), 4);
	assert_int_equal(WB_LEN(dw), 4054);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, m, 4), 1);
	aqc_model_get_counters(p.model, &c);
	assert_int_equal(c.rsc_merged - c0.rsc_merged, 3);
	assert_int_equal(c.rsc_aggregates - c0.rsc_aggregates, 1);
	assert_int_equal(c.rx_frames - c0.rx_frames, 1);
	len = build_agg(want, s, 4);
	assert_int_equal(len, 4054);
	assert_lro(m[0], want, len, 1000, 2);
	assert_int_equal(m[0]->data_len, 2048);
	assert_int_equal(m[0]->next->data_len, 4054 - 2048);
	rte_pktmbuf_free(m[0]);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* Two flows interleaved with a UDP frame between them: each aggregate
 * follows its next pointers over the other's descriptors; the UDP frame
 * comes first (it ended first in ring order). */
static void
test_interleave(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("lro_i", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct seg a[3], b[3];
	struct aqc_test_port p;
	struct rte_mbuf *m[8];
	uint8_t want[8192], udp[256];
	uint32_t dw[4], ulen;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	start_lro(&p, mp, 65535);
	for (unsigned int i = 0; i < 3; i++) {
		a[i] = (struct seg){ .sport = 1, .off = 1200 * i, .pay = 1200,
				     .flags = i == 2 ? PSH : ACK, .ip_id = (uint16_t)i };
		b[i] = a[i];
		b[i].sport = 2;
		b[i].ip_id = (uint16_t)(50 + i);
	}
	ulen = aqc_test_udp4(udp, 30, 7, 9, 1);
	inject(&p, &a[0]);                  /* desc 0 */
	inject(&p, &b[0]);                  /* desc 1 */
	assert_int_equal(aqc_model_inject(p.model, udp, ulen), 0);   /* desc 2 */
	inject(&p, &a[1]);                  /* fills desc 0, takes 3 */
	inject(&p, &b[1]);                  /* fills desc 1, takes 4 */
	inject(&p, &a[2]);                  /* PSH: A ends in desc 3 */
	inject(&p, &b[2]);                  /* B ends in desc 4 */
	aqc_test_rx_desc(&p, 0, 0, dw);
	assert_int_equal(WB_NEXT(dw), 3);
	aqc_test_rx_desc(&p, 0, 1, dw);
	assert_int_equal(WB_NEXT(dw), 4);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, m, 8), 3);
	tp_test_assert_mbuf_bytes(m[0], udp, ulen);
	assert_lro(m[1], want, build_agg(want, a, 3), 1200, 2);
	assert_lro(m[2], want, build_agg(want, b, 3), 1200, 2);
	rte_pktmbuf_free_bulk(m, 3);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* What an RSC engine must not merge comes out as sent, in order. */
static void
test_not_merged(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("lro_n", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	struct rte_mbuf *m[16];
	/* out of order (0, 2000, 1000), then a pure ACK that closes the
	 * third; a FIN; a SYN; different TTL; different ACK number; an
	 * other flow each between; a bad checksum */
	const struct seg s[] = {
		{ .sport = 9, .off = 0, .pay = 1000, .flags = ACK, .ip_id = 1 },
		{ .sport = 9, .off = 2000, .pay = 1000, .flags = ACK, .ip_id = 3 },
		{ .sport = 9, .off = 1000, .pay = 1000, .flags = ACK, .ip_id = 2 },
		{ .sport = 9, .off = 2000, .pay = 0, .flags = ACK, .ip_id = 4 },
		{ .sport = 10, .off = 0, .pay = 500, .flags = ACK, .ip_id = 1 },
		{ .sport = 10, .off = 500, .pay = 500, .flags = ACK | RTE_TCP_FIN_FLAG, .ip_id = 2 },
		{ .sport = 11, .off = 0, .pay = 500, .flags = ACK, .ip_id = 1 },
		{ .sport = 11, .off = 500, .pay = 500, .flags = ACK, .ip_id = 2, .ttl = 63 },
		{ .sport = 11, .off = 1000, .pay = 500, .flags = ACK, .ip_id = 3, .ack = 778 },
		{ .sport = 12, .off = 0, .pay = 500, .flags = RTE_TCP_SYN_FLAG, .ip_id = 1 },
		{ .sport = 12, .off = 500, .pay = 500, .flags = ACK | RTE_TCP_URG_FLAG, .ip_id = 2 },
		{ .sport = 13, .off = 0, .pay = 500, .flags = PSH, .ip_id = 1 },
	};
	const unsigned int n = RTE_DIM(s);
	unsigned int got = 0;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	start_lro(&p, mp, 65535);
	for (unsigned int i = 0; i < n; i++)
		inject(&p, &s[i]);
	/* flow 11's last segment is still in a session: a segment of flow
	 * 11 with a bad checksum closes it and is delivered as it is */
	{
		uint8_t f[2048];
		struct seg bad = { .sport = 11, .off = 1500, .pay = 500, .flags = ACK, .ip_id = 4,
				   .ack = 778 };
		uint32_t len = build(f, &bad);

		f[60] ^= 0xff;
		assert_int_equal(aqc_model_inject(p.model, f, len), 0);
		got = rte_eth_rx_burst(p.id, 0, m, 16);
		assert_int_equal(got, n + 1);
		for (unsigned int i = 0; i < n; i++)
			assert_plain(m[i], &s[i]);
		tp_test_assert_mbuf_bytes(m[n], f, len);
		assert_false(m[n]->ol_flags & RTE_MBUF_F_RX_LRO);
		assert_int_equal(m[n]->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK,
				 RTE_MBUF_F_RX_L4_CKSUM_BAD);
	}
	rte_pktmbuf_free_bulk(m, got);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* max_lro_pkt_size 4096 with 2 KiB buffers: 2 descriptors per session
 * (0x55A0 code 0). Six 1000-byte segments: 4 fit (4054 bytes), the fifth
 * would need a third buffer and starts the next aggregate. */
static void
test_max_desc(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("lro_d", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	struct rte_mbuf *m[4];
	struct seg s[6];
	uint8_t want[8192];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	start_lro(&p, mp, 4096);
	assert_int_equal(BITS(aqc_test_reg(&p, 0x55a0), 1, 0), 0);
	for (unsigned int i = 0; i < 6; i++) {
		s[i] = (struct seg){ .sport = 7, .off = 1000 * i, .pay = 1000,
				     .flags = i == 5 ? PSH : ACK, .ip_id = (uint16_t)(9 + i) };
		inject(&p, &s[i]);
	}
	assert_int_equal(rte_eth_rx_burst(p.id, 0, m, 4), 2);
	assert_lro(m[0], want, build_agg(want, s, 4), 1000, 2);
	assert_lro(m[1], want, build_agg(want, s + 4, 2), 1000, 2);
	rte_pktmbuf_free_bulk(m, 2);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* No PSH: the session closes at its coalescing interval (0x5620, the
 * driver's 250 us), at a model pass after it. A shorter last segment
 * makes tso_segsz the rounded-up mean (documented in aqc_rx.c). */
static void
test_timeout(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("lro_t", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	struct rte_mbuf *m[4];
	struct seg s[3];
	uint8_t want[8192];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	start_lro(&p, mp, 65535);
	for (unsigned int i = 0; i < 3; i++) {
		s[i] = (struct seg){ .sport = 3, .off = 600 * i, .pay = i == 2 ? 300 : 600,
				     .flags = ACK, .ip_id = (uint16_t)(i + 1) };
		if (i < 2)
			inject(&p, &s[i]);
	}
	assert_int_equal(rte_eth_rx_burst(p.id, 0, m, 4), 0);
	rte_delay_us_sleep(2000);
	aqc_model_step(p.model, 64);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, m, 4), 1);
	assert_lro(m[0], want, build_agg(want, s, 2), 600, 1);
	rte_pktmbuf_free(m[0]);
	/* a short segment is appended and ends the session at once */
	s[0].off = 1200;
	s[0].ip_id = 3;
	s[1].off = 1800;
	s[1].ip_id = 4;
	s[2].off = 2400;
	s[2].ip_id = 5;
	for (unsigned int i = 0; i < 3; i++)
		inject(&p, &s[i]);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, m, 4), 1);
	/* (600 + 600 + 300) / 3 = 500 */
	assert_lro(m[0], want, build_agg(want, s, 3), 500, 1);
	rte_pktmbuf_free(m[0]);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* GRO on LRO'd input vs GRO alone, 8 segments of 1000 bytes: LRO (2
 * buffers per session) gives two aggregates of 4; tp_gro hands them back
 * as they are (already merged); tp_gro alone makes one of 8. Segmented
 * again (tp_gro_segment) both are exactly the 8 original segments. */
static void
test_gro_on_lro(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("lro_g", 512, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_gro_conf gc = { .mode = TP_GRO_MODE_BURST };
	struct tp_gro *g = tp_gro_create(&gc);
	struct rte_mbuf *in[8], *out[16], *segs[16];
	struct tp_gro_stats st;
	struct aqc_test_port p;
	struct seg s[8];
	uint8_t f[2048];
	int n, k, total = 0;

	(void)state;
	assert_non_null(g);
	aqc_test_port(&p, "net_aqc_sim0");
	start_lro(&p, mp, 4096);
	for (unsigned int i = 0; i < 8; i++) {
		s[i] = (struct seg){ .sport = 4, .off = 1000 * i, .pay = 1000,
				     .flags = i == 7 ? PSH : ACK, .ip_id = (uint16_t)(20 + i) };
		inject(&p, &s[i]);
	}
	assert_int_equal(rte_eth_rx_burst(p.id, 0, in, 8), 2);
	n = tp_gro_merge_burst(g, in, 2, out, 16, 0);
	assert_int_equal(n, 2);
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.pass[TP_GRO_PASS_LRO], 2);
	for (int i = 0; i < n; i++) {
		k = tp_gro_segment(out[i], segs + total, (uint16_t)(16 - total), mp);
		assert_int_equal(k, 4);
		total += k;
	}
	/* GRO alone on the original segments */
	for (unsigned int i = 0; i < 8; i++) {
		in[i] = rte_pktmbuf_alloc(mp);
		assert_non_null(in[i]);
		uint32_t len = build(f, &s[i]);
		memcpy(rte_pktmbuf_append(in[i], (uint16_t)len), f, len);
		in[i]->ol_flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	}
	n = tp_gro_merge_burst(g, in, 8, out, 16, 0);
	assert_int_equal(n, 1);
	k = tp_gro_segment(out[0], segs + total, (uint16_t)(16 - total), mp);
	assert_int_equal(k, 8);
	for (unsigned int i = 0; i < 8; i++) {
		uint32_t len = build(f, &s[i]);

		tp_test_assert_mbuf_bytes(segs[i], f, len);          /* via LRO */
		tp_test_assert_mbuf_bytes(segs[total + i], f, len);  /* GRO alone */
	}
	rte_pktmbuf_free_bulk(segs, (unsigned int)total + 8);
	tp_gro_destroy(g);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* IPv6: the payload length is rewritten; a different hop limit is not
 * merged. */
static void
test_ipv6(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("lro_6", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	struct rte_mbuf *m[4];
	struct seg s[4];
	uint8_t want[8192];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	start_lro(&p, mp, 65535);
	for (unsigned int i = 0; i < 4; i++) {
		s[i] = (struct seg){ .sport = 6, .off = 1400 * i, .pay = 1400, .v6 = true,
				     .flags = i == 2 ? PSH : ACK, .ttl = i == 3 ? 9 : 0 };
		inject(&p, &s[i]);
	}
	/* s[3] starts a session of its own: close it with a pure ACK */
	s[0] = (struct seg){ .sport = 6, .off = 5600, .flags = ACK, .v6 = true, .ttl = 9 };
	inject(&p, &s[0]);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, m, 4), 3);
	s[0].off = 0;
	s[0].pay = 1400;
	s[0].ttl = 0;
	assert_lro(m[0], want, build_agg(want, s, 3), 1400, 3);
	assert_plain(m[1], &s[3]);
	s[0] = (struct seg){ .sport = 6, .off = 5600, .flags = ACK, .v6 = true, .ttl = 9 };
	assert_plain(m[2], &s[0]);
	rte_pktmbuf_free_bulk(m, 3);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* Stopping the port with a session open, and with an aggregate waiting in
 * the driver for its next descriptor: every mbuf comes back; the restarted
 * port merges afresh. */
static void
test_stop_open(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("lro_s", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	struct rte_mbuf *m[4];
	struct seg s[3];
	uint8_t want[8192];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	start_lro(&p, mp, 65535);
	for (unsigned int i = 0; i < 3; i++)
		s[i] = (struct seg){ .sport = 8, .off = 1000 * i, .pay = 1000,
				     .flags = i == 2 ? PSH : ACK, .ip_id = (uint16_t)i };
	inject(&p, &s[0]);
	inject(&p, &s[1]);   /* descriptor 0 written back, linked to 1 */
	assert_int_equal(rte_eth_rx_burst(p.id, 0, m, 4), 0);   /* waits */
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	assert_int_equal(rte_eth_dev_start(p.id), 0);
	aqc_test_wait_link(p.id, RTE_ETH_LINK_UP);
	for (unsigned int i = 0; i < 3; i++)
		inject(&p, &s[i]);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, m, 4), 1);
	assert_lro(m[0], want, build_agg(want, s, 3), 1000, 2);
	rte_pktmbuf_free(m[0]);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* A broken chain (bad wire input as far as the driver knows): the first
 * descriptor's next pointer rewritten to point at itself, then past the
 * ring. Each time the chain is dropped and counted, so is the orphan end
 * that follows, nothing leaks, and the next aggregate is whole. */
static void
test_broken_chain(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("lro_b", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct rte_eth_stats st;
	struct aqc_test_port p;
	struct rte_mbuf *m[4];
	struct seg s[3];
	uint8_t want[8192];
	uint32_t dw[4];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	start_lro(&p, mp, 65535);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	for (unsigned int r = 0; r < 3; r++) {
		unsigned int first = 2 * r;   /* each round uses 2 descriptors */

		for (unsigned int i = 0; i < 3; i++)
			s[i] = (struct seg){ .sport = 20, .off = 3000 * r + 1000 * i, .pay = 1000,
					     .flags = i == 2 ? PSH : ACK,
					     .ip_id = (uint16_t)(3 * r + i) };
		inject(&p, &s[0]);
		inject(&p, &s[1]);
		aqc_test_rx_desc(&p, 0, first, dw);
		assert_int_equal(WB_NEXT(dw), first + 1);
		if (r < 2) {
			uint64_t base = ((uint64_t)aqc_test_reg(&p, DOC_RXD_BASE_HI(0)) << 32) |
					aqc_test_reg(&p, DOC_RXD_BASE_LO(0));
			volatile uint32_t *d = (volatile uint32_t *)(uintptr_t)(base + 16u * first);

			/* next pointer: itself (round 0) or past the 64-slot ring */
			d[3] = (d[3] & 0xffff0000u) | (r == 0 ? first : 200u);
		}
		inject(&p, &s[2]);
		if (r < 2) {
			assert_int_equal(rte_eth_rx_burst(p.id, 0, m, 4), 0);
			continue;
		}
		assert_int_equal(rte_eth_rx_burst(p.id, 0, m, 4), 1);
		assert_lro(m[0], want, build_agg(want, s, 3), 1000, 2);
		rte_pktmbuf_free(m[0]);
	}
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.ierrors, 4);   /* 2 chains + 2 orphan ends */
	/* the chip's DMA counter: three aggregates written; delivered: one */
	assert_int_equal(st.ipackets, 3);
	assert_int_equal(st.q_ipackets[0], 1);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_interleave),
		cmocka_unit_test(test_not_merged),
		cmocka_unit_test(test_max_desc),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_gro_on_lro),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_stop_open),
		cmocka_unit_test(test_broken_chain),
	};

	aqc_test_model_from_args(argc, argv);

	return cmocka_run_group_tests(tests, setup, NULL);
}
