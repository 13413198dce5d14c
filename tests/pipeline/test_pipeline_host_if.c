/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Host interfaces (tp_host_if.h).
 *
 * Bytes: an interface attached as one end of a SOCK_SEQPACKET socket pair
 * (one message = one virtio-net header and one frame, as a TAP reads and
 * writes them), so the test reads exactly what would reach the kernel and
 * writes exactly what the kernel would hand over, malformed headers too.
 * Expected frames are built here byte by byte with their own checksums
 * (pl_test.h), never taken from the library's output. The conduit is an
 * ethdev made by rte_eth_from_rings(); what it transmits is read from its
 * TX ring.
 *
 * Kernel: with root and /dev/net/tun, in a network namespace of the test's
 * own (unshare), real TAP devices: the name, carrier/MTU/MAC following the
 * conduit, a merged packet arriving in the kernel as one GSO packet (an
 * AF_PACKET socket with PACKET_VNET_HDR sees it), a frame the kernel sends
 * leaving tagged. Skipped without root or /dev/net/tun.
 */
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>
#include <netinet/in.h>

#include <rte_ethdev.h>
#include <rte_eth_ring.h>
#include <rte_bus_vdev.h>
#include <rte_ring.h>

#include "pl_test.h"

static struct rte_mempool *mp;
static struct rte_ring *txr;
static uint16_t port;          /* the conduit: a ring ethdev */
static bool have_netns;        /* unshare(CLONE_NEWNET) worked */

#define TAGGER "ocelot-8021q"
/* ocelot-8021q TX tag for switch port p, device 0 (linux
 * net/dsa/tag_8021q.c: VID 0xC00 | switch << 6 | port, TPID 0x8100). */
#define TAG_P1 { 0x81, 0x00, 0x0C, 0x01 }

#define BIG 70000

static int
ring_port(const char *name, unsigned int size, struct rte_ring **tx)
{
	struct rte_ring *rxr;
	struct rte_eth_conf ec;
	char rn[32];
	int p;

	memset(&ec, 0, sizeof(ec));
	snprintf(rn, sizeof(rn), "%s_rx", name);
	rxr = rte_ring_create(rn, 16, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	snprintf(rn, sizeof(rn), "%s_tx", name);
	*tx = rte_ring_create(rn, size, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	assert_non_null(rxr);
	assert_non_null(*tx);
	p = rte_eth_from_rings(name, &rxr, 1, tx, 1, SOCKET_ID_ANY);
	assert_true(p >= 0);
	assert_int_equal(rte_eth_dev_configure((uint16_t)p, 1, 1, &ec), 0);
	assert_int_equal(rte_eth_rx_queue_setup((uint16_t)p, 0, 16, SOCKET_ID_ANY, NULL, mp), 0);
	assert_int_equal(rte_eth_tx_queue_setup((uint16_t)p, 0, size, SOCKET_ID_ANY, NULL), 0);
	assert_int_equal(rte_eth_dev_start((uint16_t)p), 0);
	return p;
}

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	if (mp == NULL) {
		mp = tp_test_pool_create("hif", 4096, 0);
		port = (uint16_t)ring_port("hif_ring0", 1024, &txr);
		assert_int_equal(tp_dsa_meta_register(), 0);
	}
	return 0;
}

static struct tp_host_port *
make_port(uint16_t p)
{
	struct tp_host_port_conf c;
	struct tp_host_port *hp = NULL;
	char err[256];

	memset(&c, 0, sizeof(c));
	c.port = p;
	c.tagger = TAGGER;
	c.pool = mp;
	c.socket_id = SOCKET_ID_ANY;
	assert_int_equal(tp_host_port_create(&c, &hp, err, sizeof(err)), 0);
	return hp;
}

/* Attach one end of a socket pair as switch port sp's interface; the
 * other end is the "kernel" side, returned. */
static int
attach_pair(struct tp_host_port *hp, unsigned int sp, const char *name)
{
	int sv[2];
	char err[256];

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	{
		int big = 1 << 20;

		setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
		setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
		setsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
		setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	}
	assert_int_equal(tp_host_port_attach_if(hp, sp, name, &sv[0], err, sizeof(err)), 0);
	return sv[1];
}

/* The virtio-net header (include/uapi/linux/virtio_net.h,
 * virtio_net_hdr_mrg_rxbuf), native byte order as the TAP's legacy one. */
struct vh {
	uint8_t flags, gso_type;
	uint16_t hdr_len, gso_size, csum_start, csum_offset, num_buffers;
} __attribute__((packed));

static void
mark(struct rte_mbuf *m, uint8_t sp)
{
	struct tp_dsa_meta *md = tp_dsa_meta(m);

	memset(md, 0, sizeof(*md));
	md->flags = TP_DSA_META_F_VALID;
	md->port = sp;
	md->proto = TP_DSA_PROTO_OCELOT_8021Q;
	m->port = port;
}

/* Segment k of a flow as sent: payload bytes continue the flow's
 * pattern (byte j of the stream is (uint8_t)j). */
static void
seg_spec(struct pl_spec *s, uint32_t k, uint16_t mss, uint16_t len, uint8_t flags)
{
	pl_default_spec(s);
	s->seq = 1000 + k * mss;
	s->ip_id = (uint16_t)(100 + k);
	s->paylen = len;
	s->payseed = (uint8_t)(k * mss);
	s->tcp_flags = flags;
}

static uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* ---- to the host ---------------------------------------------------------- */

/* Four segments merged by lib/gro, VLAN 100 stripped: one message, a GSO
 * header, the tag back in the frame, the merged headers, the whole
 * payload; the TCP checksum field is the pseudo-header sum with the
 * length, so completing it from csum_start gives a valid checksum. */
static void
test_to_host_merged(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	static uint8_t got[BIG], want[BIG];
	struct tp_gro_conf gc = { 0 };
	struct tp_host_if_stats st;
	struct rte_mbuf *in[4], *out[8], *merged;
	struct tp_host_port *hp;
	struct tp_gro *g;
	struct pl_spec s;
	struct vh v;
	uint32_t sum, tcp_len;
	size_t n;
	ssize_t r;
	int peer;

	(void)state;
	hp = make_port(port);
	peer = attach_pair(hp, 1, "thp1");
	for (uint32_t k = 0; k < 4; k++) {
		uint8_t b[PL_MAX_FRAME];

		seg_spec(&s, k, 1000, k < 3 ? 1000 : 500, k < 3 ? 0x10 : 0x18);
		n = pl_build(b, &s);
		in[k] = tp_test_mbuf_from_bytes(mp, b, (uint32_t)n);
		mark(in[k], 1);
	}
	gc.mode = TP_GRO_MODE_BURST;
	g = tp_gro_create(&gc);
	assert_non_null(g);
	assert_int_equal(tp_gro_merge_burst(g, in, 4, out, 8, 0), 1);
	tp_gro_destroy(g);
	merged = out[0];
	assert_true(merged->ol_flags & RTE_MBUF_F_RX_LRO);
	merged->ol_flags |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	merged->vlan_tci = 0x2064;
	assert_int_equal(tp_host_port_to_host(hp, 0, &merged, 1), 0);

	r = recv(peer, got, sizeof(got), MSG_DONTWAIT);
	assert_int_equal(r, 12 + 14 + 4 + 20 + 20 + 3500);
	memcpy(&v, got, 12);
	assert_int_equal(v.flags, 1);          /* NEEDS_CSUM */
	assert_int_equal(v.gso_type, 1);       /* TCPV4 */
	assert_int_equal(v.hdr_len, 58);
	assert_int_equal(v.gso_size, 1000);
	assert_int_equal(v.csum_start, 38);
	assert_int_equal(v.csum_offset, 16);
	assert_int_equal(v.num_buffers, 0);

	/* The frame: the first segment's headers with the merged IPv4 length
	 * (and its checksum), PSH of the last, VLAN 100 after the MACs. */
	seg_spec(&s, 0, 1000, 3500, 0x18);
	s.inner_tpid = 0x8100;
	s.inner_tci = 0x2064;
	n = pl_build(want, &s);
	assert_int_equal(n, 14 + 4 + 20 + 20 + 3500);
	for (size_t i = 0; i < 3500; i++)
		want[58 + i] = (uint8_t)i;
	tcp_len = 20 + 3500;
	sum = pl_sum(want + 18 + 12, 8, 0) + 6 + tcp_len;
	pl_put16(want + 38 + 16, (uint16_t)~pl_fold(sum));
	assert_memory_equal(got + 12, want, n);
	/* CHECKSUM_PARTIAL completed as the kernel would (the complement of
	 * the sum from csum_start, field included): a valid TCP checksum. */
	pl_put16(got + 12 + 38 + 16, pl_fold(pl_sum(got + 12 + 38, tcp_len, 0)));
	sum = pl_sum(want + 18 + 12, 8, 0) + 6 + tcp_len;
	assert_int_equal(pl_fold(pl_sum(got + 12 + 38, tcp_len, sum)), 0);

	assert_int_equal(tp_host_if_stats_get(hp, 1, &st), 0);
	assert_int_equal(st.to_host_pkts, 1);
	assert_int_equal(st.to_host_frames, 4);
	assert_int_equal(st.to_host_gso, 1);
	assert_int_equal(st.to_host_bytes, 14 + 4 + 40 + 3500);
	assert_int_equal(st.to_host_drop_pkts, 0);
	close(peer);
	tp_host_port_destroy(hp);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Only packets of the conduit whose tag names a port with an interface
 * are taken; the rest come back in order. A plain packet is written as
 * it is with an all-zero header. A write the peer refuses (closed) is a
 * counted drop. */
static void
test_to_host_sorting(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	uint8_t b[PL_MAX_FRAME], got[PL_MAX_FRAME];
	const uint8_t zero[12] = { 0 };
	struct tp_host_if_stats st;
	struct rte_mbuf *m[5], *keep[5];
	struct tp_host_port *hp;
	struct pl_spec s;
	size_t n;
	int peer;

	(void)state;
	hp = make_port(port);
	peer = attach_pair(hp, 1, "thp1");
	pl_default_spec(&s);
	n = pl_build(b, &s);
	for (int i = 0; i < 5; i++)
		m[i] = tp_test_mbuf_from_bytes(mp, b, (uint32_t)n);
	mark(m[0], 3);                       /* no interface */
	mark(m[1], 1);                       /* ours */
	mark(m[2], 1);
	m[2]->port = (uint16_t)(port + 1);   /* another port's */
	m[3]->port = port;                   /* no tag */
	memset(tp_dsa_meta(m[3]), 0, sizeof(struct tp_dsa_meta));
	mark(m[4], 1);
	tp_dsa_meta(m[4])->device = 1;       /* another switch of a cascade */
	memcpy(keep, m, sizeof(keep));
	assert_int_equal(tp_host_port_to_host(hp, 0, m, 5), 4);
	assert_ptr_equal(m[0], keep[0]);
	assert_ptr_equal(m[1], keep[2]);
	assert_ptr_equal(m[2], keep[3]);
	assert_ptr_equal(m[3], keep[4]);
	rte_pktmbuf_free_bulk(m, 4);
	assert_int_equal(recv(peer, got, sizeof(got), MSG_DONTWAIT), (ssize_t)(12 + n));
	assert_memory_equal(got, zero, 12);
	assert_memory_equal(got + 12, b, n);

	close(peer);
	m[0] = tp_test_mbuf_from_bytes(mp, b, (uint32_t)n);
	mark(m[0], 1);
	assert_int_equal(tp_host_port_to_host(hp, 0, m, 1), 0);
	assert_int_equal(tp_host_if_stats_get(hp, 1, &st), 0);
	assert_int_equal(st.to_host_pkts, 1);
	assert_int_equal(st.to_host_frames, 1);
	assert_int_equal(st.to_host_gso, 0);
	assert_int_equal(st.to_host_bytes, n);
	assert_int_equal(st.to_host_drop_pkts, 1);
	assert_int_equal(st.to_host_drop_frames, 1);
	assert_int_equal(tp_host_if_stats_get(hp, 2, &st), -ENOENT);
	tp_host_port_destroy(hp);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* ---- from the host -------------------------------------------------------- */

static void
send_msg(int peer, const struct vh *v, const uint8_t *frame, size_t n)
{
	static uint8_t msg[BIG + 12];

	memcpy(msg, v, 12);
	memcpy(msg + 12, frame, n);
	assert_int_equal(send(peer, msg, 12 + n, 0), (ssize_t)(12 + n));
}

static unsigned int
drain_tx(struct rte_mbuf **back, unsigned int max)
{
	return rte_ring_dequeue_burst(txr, (void **)back, max, NULL);
}

/* The pseudo-header sum with the length, folded, not complemented: what
 * Linux leaves in a CHECKSUM_PARTIAL TCP/UDP packet's field. */
static uint16_t
partial4(const uint8_t *ip, uint8_t proto, uint32_t l4len)
{
	return (uint16_t)~pl_fold(pl_sum(ip + 12, 8, 0) + proto + l4len);
}

/* A 3500-byte GSO packet of MSS 1000 (as Linux's TCP hands a TSO device:
 * whole headers, IPv4 length of the whole, partial checksum) leaves as
 * four tagged frames, each exactly what a sender without TSO would send. */
static void
test_from_host_gso4(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	static uint8_t big[BIG];
	struct rte_mbuf *back[16];
	struct tp_host_if_stats st;
	struct tp_host_port *hp;
	struct pl_spec s;
	struct vh v = { .flags = 1, .gso_type = 1, .hdr_len = 54, .gso_size = 1000,
			.csum_start = 34, .csum_offset = 16 };
	uint64_t wire = 0;
	size_t n;
	int peer;

	(void)state;
	hp = make_port(port);
	peer = attach_pair(hp, 1, "thp1");
	seg_spec(&s, 0, 1000, 3500, 0x18);
	s.ip_id = 0x1234;
	n = pl_build(big, &s);
	pl_put16(big + 34 + 16, partial4(big + 14, 6, 20 + 3500));
	send_msg(peer, &v, big, n);
	assert_int_equal(tp_host_port_from_host(hp, 0, 0), 1);
	assert_int_equal(drain_tx(back, 16), 4);
	for (uint32_t k = 0; k < 4; k++) {
		const uint8_t tag[4] = TAG_P1;
		uint8_t want[PL_MAX_FRAME];
		size_t wn;

		seg_spec(&s, k, 1000, k < 3 ? 1000 : 500, k < 3 ? 0x10 : 0x18);
		s.ip_id = (uint16_t)(0x1234 + k);
		memcpy(s.tag, tag, 4);
		s.tag_len = 4;
		wn = pl_build(want, &s);
		tp_test_assert_mbuf_bytes(back[k], want, (uint32_t)wn);
		wire += wn;
		rte_pktmbuf_free(back[k]);
	}
	assert_int_equal(tp_host_if_stats_get(hp, 1, &st), 0);
	assert_int_equal(st.from_host_pkts, 1);
	assert_int_equal(st.from_host_bytes, n);
	assert_int_equal(st.from_host_gso, 1);
	assert_int_equal(st.from_host_tso, 0);
	assert_int_equal(st.from_host_frames, 4);
	assert_int_equal(st.from_host_sent, 4);
	assert_int_equal(st.from_host_wire_bytes, wire);
	assert_int_equal(st.from_host_tag_drop + st.from_host_tx_full, 0);
	/* Nothing more to read. */
	assert_int_equal(tp_host_port_from_host(hp, 0, 0), 0);
	close(peer);
	tp_host_port_destroy(hp);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* TCP over IPv6, built here: 2001:db8::1 -> 2001:db8::2. */
static size_t
build6(uint8_t *b, uint32_t seq, uint16_t paylen, uint8_t payseed, uint8_t flags,
       const uint8_t *tag, bool partial, uint32_t partial_len)
{
	static const uint8_t sa[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const uint8_t da[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
	size_t o = 12, ip, l4;
	uint32_t sum;

	memcpy(b, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02", 12);
	if (tag != NULL) {
		memcpy(b + o, tag, 4);
		o += 4;
	}
	pl_put16(b + o, 0x86DD);
	ip = o + 2;
	l4 = ip + 40;
	pl_put32(b + ip, 0x60000000);
	pl_put16(b + ip + 4, (uint16_t)(20 + paylen));
	b[ip + 6] = 6;
	b[ip + 7] = 64;
	memcpy(b + ip + 8, sa, 16);
	memcpy(b + ip + 24, da, 16);
	pl_put16(b + l4, 40000);
	pl_put16(b + l4 + 2, 80);
	pl_put32(b + l4 + 4, seq);
	pl_put32(b + l4 + 8, 1);
	b[l4 + 12] = 0x50;
	b[l4 + 13] = flags;
	pl_put16(b + l4 + 14, 0xFFFF);
	pl_put16(b + l4 + 16, 0);
	pl_put16(b + l4 + 18, 0);
	for (size_t i = 0; i < paylen; i++)
		b[l4 + 20 + i] = (uint8_t)(payseed + i);
	sum = pl_sum(b + ip + 8, 32, 0) + 6 + (partial ? partial_len : 20u + paylen);
	if (partial) {
		pl_put16(b + l4 + 16, (uint16_t)~pl_fold(sum));
	} else {
		sum = pl_sum(b + l4, 20u + paylen, sum);
		pl_put16(b + l4 + 16, pl_fold(sum));
	}
	return l4 + 20 + paylen;
}

static void
test_from_host_gso6(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	static uint8_t big[BIG];
	const uint8_t tag[4] = TAG_P1;
	struct rte_mbuf *back[16];
	struct tp_host_if_stats st;
	struct tp_host_port *hp;
	struct vh v = { .flags = 1, .gso_type = 4, .hdr_len = 74, .gso_size = 1200,
			.csum_start = 54, .csum_offset = 16 };
	size_t n;
	int peer;

	(void)state;
	hp = make_port(port);
	peer = attach_pair(hp, 1, "thp1");
	n = build6(big, 7, 3000, 0, 0x19, NULL, true, 20 + 3000);
	send_msg(peer, &v, big, n);
	assert_int_equal(tp_host_port_from_host(hp, 0, 0), 1);
	assert_int_equal(drain_tx(back, 16), 3);
	for (uint32_t k = 0; k < 3; k++) {
		uint8_t want[PL_MAX_FRAME];
		uint16_t len = k < 2 ? 1200 : 600;
		size_t wn = build6(want, 7 + k * 1200, len, (uint8_t)(k * 1200),
				   k < 2 ? 0x10 : 0x19, tag, false, 0);

		tp_test_assert_mbuf_bytes(back[k], want, (uint32_t)wn);
		rte_pktmbuf_free(back[k]);
	}
	assert_int_equal(tp_host_if_stats_get(hp, 1, &st), 0);
	assert_int_equal(st.from_host_gso, 1);
	assert_int_equal(st.from_host_frames, 3);
	assert_int_equal(st.from_host_sent, 3);
	close(peer);
	tp_host_port_destroy(hp);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* A UDP datagram with its checksum left to do, and a plain ARP frame:
 * one frame each, the checksum completed, the tag inserted. */
static void
test_from_host_csum_and_plain(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	const uint8_t tag[4] = TAG_P1;
	uint8_t b[PL_MAX_FRAME], want[PL_MAX_FRAME], arp[42];
	struct rte_mbuf *back[4];
	struct tp_host_port *hp;
	struct pl_spec s;
	struct vh v = { .flags = 1, .csum_start = 34, .csum_offset = 6 };
	struct vh plain = { 0 };
	size_t n, wn;
	int peer;

	(void)state;
	hp = make_port(port);
	peer = attach_pair(hp, 1, "thp1");
	pl_default_spec(&s);
	s.proto = 17;
	s.paylen = 333;
	n = pl_build(b, &s);
	pl_put16(b + 34 + 6, partial4(b + 14, 17, 8 + 333));
	send_msg(peer, &v, b, n);
	memset(arp, 0, sizeof(arp));
	memset(arp, 0xFF, 6);
	memcpy(arp + 6, "\x02\x00\x00\x00\x00\x02\x08\x06", 8);
	for (int i = 14; i < 42; i++)
		arp[i] = (uint8_t)i;
	send_msg(peer, &plain, arp, sizeof(arp));
	assert_int_equal(tp_host_port_from_host(hp, 0, 0), 2);
	assert_int_equal(drain_tx(back, 4), 2);
	memcpy(s.tag, tag, 4);
	s.tag_len = 4;
	wn = pl_build(want, &s);
	tp_test_assert_mbuf_bytes(back[0], want, (uint32_t)wn);
	memcpy(want, arp, 12);
	memcpy(want + 12, tag, 4);
	memcpy(want + 16, arp + 12, 30);
	tp_test_assert_mbuf_bytes(back[1], want, 46);
	rte_pktmbuf_free_bulk(back, 2);
	close(peer);
	tp_host_port_destroy(hp);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Every malformed input is a counted drop of its own reason; nothing is
 * transmitted, nothing leaks. */
static void
test_from_host_bad(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	static uint8_t big[BIG];
	uint8_t b[PL_MAX_FRAME];
	struct tp_host_if_stats st;
	struct rte_mbuf *back[4];
	struct tp_host_port *hp;
	struct pl_spec s;
	const struct vh gso = { .flags = 1, .gso_type = 1, .hdr_len = 54, .gso_size = 1000,
				.csum_start = 34, .csum_offset = 16 };
	struct vh v;
	size_t n;
	int peer;
	unsigned int sent = 0;

	(void)state;
	hp = make_port(port);
	peer = attach_pair(hp, 1, "thp1");
	seg_spec(&s, 0, 1000, 3000, 0x10);
	n = pl_build(big, &s);
	pl_put16(big + 34 + 16, partial4(big + 14, 6, 20 + 3000));

	/* short: 12 + 10 bytes */
	send_msg(peer, &gso, big, 10), sent++;
	/* bad_vnet_hdr: unknown type, ECN (not offered), unknown flag, GSO
	 * without NEEDS_CSUM, gso_size 0, checksum field past the end,
	 * GSO checksum offset not TCP's */
	v = gso, v.gso_type = 3, send_msg(peer, &v, big, n), sent++;
	v = gso, v.gso_type = 0x81, send_msg(peer, &v, big, n), sent++;
	v = gso, v.flags = 0x11, send_msg(peer, &v, big, n), sent++;
	v = gso, v.flags = 0, send_msg(peer, &v, big, n), sent++;
	v = gso, v.gso_size = 0, send_msg(peer, &v, big, n), sent++;
	v = gso, v.gso_type = 0, v.csum_start = (uint16_t)(n - 1), send_msg(peer, &v, big, n), sent++;
	v = gso, v.csum_offset = 6, send_msg(peer, &v, big, n), sent++;
	/* bad_headers: TCPv6 said of an IPv4 frame; TCP start inside the IP
	 * header; a data offset of 3; IPv4 carrying UDP; an IPv4 header
	 * length below 20 */
	v = gso, v.gso_type = 4, send_msg(peer, &v, big, n), sent++;
	v = gso, v.csum_start = 30, send_msg(peer, &v, big, n), sent++;
	memcpy(b, big, 100);
	b[34 + 12] = 0x30;
	send_msg(peer, &gso, b, 100), sent++;
	memcpy(b, big, 100);
	b[14 + 9] = 17;
	send_msg(peer, &gso, b, 100), sent++;
	memcpy(b, big, 100);                 /* IHL 4, TCP said to start at 16 */
	b[14] = 0x44;
	v = gso, v.csum_start = 30, send_msg(peer, &v, b, 100), sent++;
	/* too_many_segs: MSS 5 for 3000 bytes is 600 segments */
	v = gso, v.gso_size = 5, send_msg(peer, &v, big, n), sent++;
	/* too_big: a segment that does not fit one mbuf, and a frame longer
	 * than any TAP hands over (cut to the largest + 1 by the read) */
	v = gso, v.gso_size = 2500, send_msg(peer, &v, big, n), sent++;
	send_msg(peer, &gso, big, TP_HOST_IF_MAX_FRAME + 1), sent++;

	assert_int_equal(tp_host_port_from_host(hp, 0, 0), sent);
	assert_int_equal(drain_tx(back, 4), 0);
	assert_int_equal(tp_host_if_stats_get(hp, 1, &st), 0);
	assert_int_equal(st.from_host_pkts, sent);
	assert_int_equal(st.from_host_drop[TP_HOST_IF_DROP_SHORT], 1);
	assert_int_equal(st.from_host_drop[TP_HOST_IF_DROP_VNET_HDR], 7);
	assert_int_equal(st.from_host_drop[TP_HOST_IF_DROP_HEADERS], 5);
	assert_int_equal(st.from_host_drop[TP_HOST_IF_DROP_TOO_MANY_SEGS], 1);
	assert_int_equal(st.from_host_drop[TP_HOST_IF_DROP_TOO_BIG], 2);
	assert_int_equal(st.from_host_drop[TP_HOST_IF_DROP_NO_MBUF], 0);
	assert_int_equal(st.from_host_frames, 0);
	assert_int_equal(st.from_host_sent, 0);
	assert_int_equal(st.from_host_gso, 0);
	close(peer);
	tp_host_port_destroy(hp);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* A conduit with TSO: the GSO packet leaves as ONE mbuf asking for
 * TCP segmentation, the tag counted in l2_len, the TCP checksum the
 * pseudo-header sum without the length and the IPv4 checksum left to the
 * NIC (DPDK's TSO convention, rte_net_intel_cksum_prepare). */
static void
test_from_host_tso(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	static uint8_t big[BIG], want[BIG];
	const uint8_t tag[4] = TAG_P1;
	struct tp_host_port_conf c;
	struct tp_host_if_stats st;
	struct tp_host_port *hp = NULL;
	struct rte_mbuf *back[4];
	struct pl_spec s;
	struct vh v = { .flags = 1, .gso_type = 1, .hdr_len = 54, .gso_size = 1000,
			.csum_start = 34, .csum_offset = 16 };
	char err[256];
	size_t n;
	int peer;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.port = port;
	c.tagger = TAGGER;
	c.pool = mp;
	c.tx_caps = TP_PORT_TX_TSO;
	c.socket_id = SOCKET_ID_ANY;
	assert_int_equal(tp_host_port_create(&c, &hp, err, sizeof(err)), 0);
	peer = attach_pair(hp, 1, "thp1");
	seg_spec(&s, 0, 1000, 3500, 0x18);
	n = pl_build(big, &s);
	pl_put16(big + 34 + 16, partial4(big + 14, 6, 20 + 3500));
	send_msg(peer, &v, big, n);
	assert_int_equal(tp_host_port_from_host(hp, 0, 0), 1);
	assert_int_equal(drain_tx(back, 4), 1);
	assert_true(back[0]->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
	assert_true(back[0]->ol_flags & RTE_MBUF_F_TX_IPV4);
	assert_true(back[0]->ol_flags & RTE_MBUF_F_TX_IP_CKSUM);
	assert_int_equal(back[0]->l2_len, 18);
	assert_int_equal(back[0]->l3_len, 20);
	assert_int_equal(back[0]->l4_len, 20);
	assert_int_equal(back[0]->tso_segsz, 1000);
	/* The bytes: the tag after the MACs, the IPv4 checksum 0, the TCP
	 * checksum the pseudo-header sum without the length. */
	memcpy(s.tag, tag, 4);
	s.tag_len = 4;
	n = pl_build(want, &s);
	pl_put16(want + 18 + 10, 0);
	pl_put16(want + 38 + 16, (uint16_t)~pl_fold(pl_sum(want + 18 + 12, 8, 0) + 6));
	tp_test_assert_mbuf_bytes(back[0], want, (uint32_t)n);
	rte_pktmbuf_free(back[0]);
	assert_int_equal(tp_host_if_stats_get(hp, 1, &st), 0);
	assert_int_equal(st.from_host_tso, 1);
	assert_int_equal(st.from_host_gso, 1);
	assert_int_equal(st.from_host_frames, 4);
	assert_int_equal(st.from_host_sent, 4);
	/* on the wire: four frames of 18 + 40 header bytes and their payload */
	assert_int_equal(st.from_host_wire_bytes, 4 * 58 + 3500);
	close(peer);
	tp_host_port_destroy(hp);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* A TX queue that takes 3 of 5 frames: the rest freed and counted, the
 * identity frames = sent + tag_drop + tx_full holds. */
static void
test_from_host_tx_full(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	static uint8_t big[BIG];
	struct rte_ring *small;
	struct rte_mbuf *back[8];
	struct tp_host_if_stats st;
	struct tp_host_port *hp;
	struct pl_spec s;
	struct vh v = { .flags = 1, .gso_type = 1, .hdr_len = 54, .gso_size = 1000,
			.csum_start = 34, .csum_offset = 16 };
	size_t n;
	int peer, p;

	(void)state;
	p = ring_port("hif_small", 4, &small);
	hp = make_port((uint16_t)p);
	peer = attach_pair(hp, 2, "thp2");
	seg_spec(&s, 0, 1000, 5000, 0x10);
	n = pl_build(big, &s);
	pl_put16(big + 34 + 16, partial4(big + 14, 6, 20 + 5000));
	send_msg(peer, &v, big, n);
	assert_int_equal(tp_host_port_from_host(hp, 0, 0), 1);
	assert_int_equal(tp_host_if_stats_get(hp, 2, &st), 0);
	assert_int_equal(st.from_host_frames, 5);
	assert_int_equal(st.from_host_sent, 3);
	assert_int_equal(st.from_host_tx_full, 2);
	assert_int_equal(st.from_host_tag_drop, 0);
	assert_int_equal(rte_ring_dequeue_burst(small, (void **)back, 8, NULL), 3);
	rte_pktmbuf_free_bulk(back, 3);
	close(peer);
	tp_host_port_destroy(hp);
	rte_eth_dev_stop((uint16_t)p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Configuration errors name the bad value. */
static void
test_conf_errors(void **state)
{
	struct tp_host_port_conf c;
	struct tp_host_port *hp = NULL;
	char err[256];
	int fd = -1;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.port = port;
	c.pool = mp;
	c.tagger = "none";
	assert_int_equal(tp_host_port_create(&c, &hp, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'none'"));
	c.tagger = "nosuch";
	assert_int_equal(tp_host_port_create(&c, &hp, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nosuch"));
	c.tagger = TAGGER;
	c.vnet_hdr_size = 11;
	assert_int_equal(tp_host_port_create(&c, &hp, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "vnet_hdr_size 11"));
	c.vnet_hdr_size = 0;
	c.nb_queues = 17;
	assert_int_equal(tp_host_port_create(&c, &hp, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nb_queues 17"));
	c.nb_queues = 0;
	c.port = RTE_MAX_ETHPORTS - 1;
	assert_int_equal(tp_host_port_create(&c, &hp, err, sizeof(err)), -EINVAL);
	c.port = port;
	assert_int_equal(tp_host_port_create(&c, &hp, err, sizeof(err)), 0);
	/* ocelot-8021q addresses ports 0..15 */
	assert_int_equal(tp_host_port_attach_if(hp, 16, "x", &fd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "switch port 16"));
	assert_int_equal(tp_host_port_attach_if(hp, 1, "a/b", &fd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'a/b'"));
	assert_int_equal(tp_host_port_attach_if(hp, 1, "0123456789abcdef", &fd, err,
						sizeof(err)), -EINVAL);
	close(attach_pair(hp, 1, "thp1"));
	assert_int_equal(tp_host_port_attach_if(hp, 1, "thp9", &fd, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "already has thp1"));
	tp_host_port_destroy(hp);
}

/* ---- the kernel's TAP ----------------------------------------------------- */

static bool
kernel_ok(void)
{
	return have_netns && access("/dev/net/tun", R_OK | W_OK) == 0;
}

static void
if_up(const char *name)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	assert_true(s >= 0);
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
	assert_int_equal(ioctl(s, SIOCGIFFLAGS, &ifr), 0);
	ifr.ifr_flags |= IFF_UP;
	assert_int_equal(ioctl(s, SIOCSIFFLAGS, &ifr), 0);
	close(s);
}

static int
if_carrier(const char *name)
{
	struct ethtool_value ev = { .cmd = ETHTOOL_GLINK };
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
	ifr.ifr_data = (void *)&ev;
	assert_int_equal(ioctl(s, SIOCETHTOOL, &ifr), 0);
	close(s);
	return (int)ev.data;
}

static void
if_mtu_mac(const char *name, int *mtu, uint8_t mac[6])
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
	assert_int_equal(ioctl(s, SIOCGIFMTU, &ifr), 0);
	*mtu = ifr.ifr_mtu;
	assert_int_equal(ioctl(s, SIOCGIFHWADDR, &ifr), 0);
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(s);
}

static int
packet_socket(const char *name, bool vnet)
{
	struct sockaddr_ll sll;
	int s = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	int one = 1;

	assert_true(s >= 0);
	if (vnet)
		assert_int_equal(setsockopt(s, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof(one)), 0);
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = (int)if_nametoindex(name);
	assert_true(sll.sll_ifindex > 0);
	assert_int_equal(bind(s, (struct sockaddr *)&sll, sizeof(sll)), 0);
	return s;
}

/* A real TAP: its name from a pattern, carrier, MTU and MAC from the
 * conduit, a merged packet arriving in the kernel as ONE packet of 3540
 * IP bytes with its GSO type and size, and a frame the kernel sends on
 * the interface leaving tagged. */
static void
test_kernel_tap(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	static uint8_t got[BIG];
	uint8_t b[PL_MAX_FRAME], mac[6];
	struct rte_ether_addr cmac;
	struct tp_gro_conf gc = { 0 };
	struct rte_mbuf *in[4], *out[8], *back[4];
	struct tp_host_if_stats st;
	struct tp_host_port *hp;
	struct tp_gro *g;
	struct pl_spec s;
	char name[IFNAMSIZ], err[256];
	int mtu, ps, tx;
	struct vh v;
	ssize_t r;
	size_t n;

	(void)state;
	if (!kernel_ok()) {
		print_message("skipped: needs root, a network namespace and /dev/net/tun\n");
		skip();
	}
	hp = make_port(port);
	assert_int_equal(tp_host_port_add_if(hp, 1, "thostu%d", err, sizeof(err)), 0);
	assert_int_equal(tp_host_if_name(hp, 1, name), 0);
	assert_string_equal(name, "thostu0");
	/* The name is ours now: a second device of that name is refused. */
	assert_int_equal(tp_host_port_add_if(hp, 2, "thostu0", err, sizeof(err)), -EEXIST);
	assert_int_equal(tp_host_port_sync(hp, err, sizeof(err)), 0);
	if_mtu_mac(name, &mtu, mac);
	rte_eth_macaddr_get(port, &cmac);
	assert_int_equal(mtu, RTE_ETHER_MTU - 4);
	if (!rte_is_zero_ether_addr(&cmac))  /* net_ring's is zero: not applied */
		assert_memory_equal(mac, cmac.addr_bytes, 6);
	if_up(name);
	assert_int_equal(if_carrier(name), 1);
	assert_int_equal(rte_eth_dev_set_link_down(port), 0);
	assert_int_equal(tp_host_port_sync(hp, err, sizeof(err)), 0);
	assert_int_equal(if_carrier(name), 0);
	assert_int_equal(rte_eth_dev_set_link_up(port), 0);
	assert_int_equal(tp_host_port_sync(hp, err, sizeof(err)), 0);
	assert_int_equal(if_carrier(name), 1);

	/* To the kernel: one GSO packet. */
	ps = packet_socket(name, true);
	for (uint32_t k = 0; k < 4; k++) {
		seg_spec(&s, k, 1000, k < 3 ? 1000 : 500, 0x10);
		n = pl_build(b, &s);
		in[k] = tp_test_mbuf_from_bytes(mp, b, (uint32_t)n);
		mark(in[k], 1);
	}
	gc.mode = TP_GRO_MODE_BURST;
	g = tp_gro_create(&gc);
	assert_int_equal(tp_gro_merge_burst(g, in, 4, out, 8, 0), 1);
	tp_gro_destroy(g);
	assert_int_equal(tp_host_port_to_host(hp, 0, out, 1), 0);
	r = recv(ps, got, sizeof(got), 0);
	assert_int_equal(r, 10 + 14 + 20 + 20 + 3500);
	memcpy(&v, got, 10);
	assert_int_equal(v.gso_type, 1);
	assert_int_equal(v.gso_size, 1000);
	assert_int_equal(rd16(got + 10 + 14 + 2), 3540);
	close(ps);
	assert_int_equal(tp_host_if_stats_get(hp, 1, &st), 0);
	assert_int_equal(st.to_host_pkts, 1);
	assert_int_equal(st.to_host_gso, 1);

	/* From the kernel: what is sent on the interface leaves tagged. */
	tx = packet_socket(name, false);
	pl_default_spec(&s);
	n = pl_build(b, &s);
	assert_int_equal(send(tx, b, n, 0), (ssize_t)n);
	close(tx);
	for (int i = 0; i < 100 && tp_host_port_from_host(hp, 0, 0) == 0; i++)
		usleep(10000);
	assert_int_equal(drain_tx(back, 4), 1);
	{
		const uint8_t tag[4] = TAG_P1;
		uint8_t want[PL_MAX_FRAME];

		memcpy(s.tag, tag, 4);
		s.tag_len = 4;
		tp_test_assert_mbuf_bytes(back[0], want, (uint32_t)pl_build(want, &s));
	}
	rte_pktmbuf_free(back[0]);
	tp_host_port_destroy(hp);
	assert_int_equal(if_nametoindex(name), 0);   /* gone with its descriptors */
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* MAC and MTU follow the conduit when they change (a net_null conduit:
 * it takes both). */
static void
test_kernel_follow(void **state)
{
	struct rte_ether_addr cmac = { .addr_bytes = { 0x02, 0, 0, 0, 0x77, 0x01 } };
	struct rte_eth_conf ec;
	struct tp_host_port *hp;
	uint8_t mac[6];
	char name[IFNAMSIZ], err[256];
	uint16_t np;
	int mtu;

	(void)state;
	if (!kernel_ok()) {
		print_message("skipped: needs root, a network namespace and /dev/net/tun\n");
		skip();
	}
	memset(&ec, 0, sizeof(ec));
	assert_int_equal(rte_vdev_init("net_null_hif", NULL), 0);
	assert_int_equal(rte_eth_dev_get_port_by_name("net_null_hif", &np), 0);
	assert_int_equal(rte_eth_dev_configure(np, 1, 1, &ec), 0);
	assert_int_equal(rte_eth_rx_queue_setup(np, 0, 16, SOCKET_ID_ANY, NULL, mp), 0);
	assert_int_equal(rte_eth_tx_queue_setup(np, 0, 16, SOCKET_ID_ANY, NULL), 0);
	assert_int_equal(rte_eth_dev_start(np), 0);
	hp = make_port(np);
	assert_int_equal(tp_host_port_add_if(hp, 2, "thostf%d", err, sizeof(err)), 0);
	assert_int_equal(tp_host_if_name(hp, 2, name), 0);
	assert_int_equal(rte_eth_dev_default_mac_addr_set(np, &cmac), 0);
	assert_int_equal(tp_host_port_sync(hp, err, sizeof(err)), 0);
	if_mtu_mac(name, &mtu, mac);
	assert_int_equal(mtu, RTE_ETHER_MTU - 4);
	assert_memory_equal(mac, cmac.addr_bytes, 6);
	cmac.addr_bytes[5] = 0x02;
	assert_int_equal(rte_eth_dev_default_mac_addr_set(np, &cmac), 0);
	assert_int_equal(rte_eth_dev_set_mtu(np, 1400), 0);
	assert_int_equal(tp_host_port_sync(hp, err, sizeof(err)), 0);
	if_mtu_mac(name, &mtu, mac);
	assert_int_equal(mtu, 1400 - 4);
	assert_memory_equal(mac, cmac.addr_bytes, 6);
	/* Stopped conduit: no carrier. */
	if_up(name);
	assert_int_equal(if_carrier(name), 1);
	assert_int_equal(rte_eth_dev_stop(np), 0);
	assert_int_equal(tp_host_port_sync(hp, err, sizeof(err)), 0);
	assert_int_equal(if_carrier(name), 0);
	tp_host_port_destroy(hp);
	rte_eth_dev_close(np);
	rte_vdev_uninit("net_null_hif");
}

/* Two queues: a multi-queue TAP, one descriptor per queue; either
 * queue writes to the host, and what the host sends is read on the queue
 * the kernel picked. */
static void
test_kernel_multiqueue(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	static uint8_t got[BIG];
	uint8_t b[PL_MAX_FRAME];
	struct tp_host_port_conf c;
	struct tp_host_if_stats st;
	struct tp_host_port *hp = NULL;
	struct rte_mbuf *m, *back[4];
	struct pl_spec s;
	char name[IFNAMSIZ], err[256];
	unsigned int got_q = 0;
	size_t n;
	int ps, tx;

	(void)state;
	if (!kernel_ok()) {
		print_message("skipped: needs root, a network namespace and /dev/net/tun\n");
		skip();
	}
	memset(&c, 0, sizeof(c));
	c.port = port;
	c.tagger = TAGGER;
	c.pool = mp;
	c.nb_queues = 2;
	c.socket_id = SOCKET_ID_ANY;
	assert_int_equal(tp_host_port_create(&c, &hp, err, sizeof(err)), 0);
	assert_int_equal(tp_host_port_add_if(hp, 3, "thostq%d", err, sizeof(err)), 0);
	assert_int_equal(tp_host_if_name(hp, 3, name), 0);
	if_up(name);
	ps = packet_socket(name, false);
	pl_default_spec(&s);
	n = pl_build(b, &s);
	for (uint16_t q = 0; q < 2; q++) {
		m = tp_test_mbuf_from_bytes(mp, b, (uint32_t)n);
		mark(m, 3);
		assert_int_equal(tp_host_port_to_host(hp, q, &m, 1), 0);
		assert_int_equal(recv(ps, got, sizeof(got), 0), (ssize_t)n);
		assert_memory_equal(got, b, n);
	}
	close(ps);
	tx = packet_socket(name, false);
	assert_int_equal(send(tx, b, n, 0), (ssize_t)n);
	close(tx);
	for (int i = 0; i < 200 && got_q == 0; i++) {
		got_q = tp_host_port_from_host(hp, 0, 0) + tp_host_port_from_host(hp, 1, 0);
		if (got_q == 0)
			usleep(5000);
	}
	assert_int_equal(got_q, 1);
	assert_int_equal(drain_tx(back, 4), 1);
	rte_pktmbuf_free(back[0]);
	assert_int_equal(tp_host_if_stats_get(hp, 3, &st), 0);
	assert_int_equal(st.to_host_pkts, 2);
	assert_int_equal(st.from_host_pkts, 1);
	assert_int_equal(st.from_host_sent, 1);
	tp_host_port_destroy(hp);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_to_host_merged, setup),
		cmocka_unit_test_setup(test_to_host_sorting, setup),
		cmocka_unit_test_setup(test_from_host_gso4, setup),
		cmocka_unit_test_setup(test_from_host_gso6, setup),
		cmocka_unit_test_setup(test_from_host_csum_and_plain, setup),
		cmocka_unit_test_setup(test_from_host_bad, setup),
		cmocka_unit_test_setup(test_from_host_tx_full, setup),
		cmocka_unit_test_setup(test_from_host_tso, setup),
		cmocka_unit_test_setup(test_conf_errors, setup),
		cmocka_unit_test_setup(test_kernel_tap, setup),
		cmocka_unit_test_setup(test_kernel_follow, setup),
		cmocka_unit_test_setup(test_kernel_multiqueue, setup),
	};

	/* A namespace of our own before any thread exists: the TAP devices
	 * and every socket of the kernel test live and die in it. */
	have_netns = geteuid() == 0 && unshare(CLONE_NEWNET) == 0;
	if (have_netns) {
		/* Quiet interfaces: no IPv6 router solicitations on the TAP. */
		const char *const knobs[] = { "/proc/sys/net/ipv6/conf/all/disable_ipv6",
					      "/proc/sys/net/ipv6/conf/default/disable_ipv6" };

		for (unsigned int i = 0; i < RTE_DIM(knobs); i++) {
			FILE *f = fopen(knobs[i], "w");

			if (f != NULL) {
				fputs("1", f);
				fclose(f);
			}
		}
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
