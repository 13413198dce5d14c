/* SPDX-License-Identifier: BSD-3-Clause */
/* net_aqc test helpers; see aqc_test.h. */
#include "aqc_test.h"

#include <stdlib.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>

const uint8_t aqc_test_dst_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x0b };
const uint8_t aqc_test_src_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x0a };

static const char *run_model = "aqc107";

void
aqc_test_model_from_args(int argc, char **argv)
{
	if (argc < 2)
		return;
	if (strcmp(argv[1], "aqc107") != 0 && strcmp(argv[1], "aqc113") != 0) {
		fprintf(stderr, "%s: model '%s': expected aqc107 or aqc113\n", argv[0], argv[1]);
		exit(2);
	}
	run_model = argv[1];
}

bool
aqc_test_a2(void)
{
	return strcmp(run_model, "aqc113") == 0;
}

const char *
aqc_test_model(void)
{
	return run_model;
}

int
aqc_test_eal_init(const char *const *vdevs)
{
	static char buf[16][PATH_MAX + 64];
	const char *list[17];
	unsigned int n = 0;

	for (; vdevs != NULL && vdevs[n] != NULL && n < 16; n++) {
		snprintf(buf[n], sizeof(buf[n]), "%s,model=%s", vdevs[n], run_model);
		list[n] = buf[n];
	}
	list[n] = NULL;
	return tp_test_eal_init(list);
}

void
aqc_test_port(struct aqc_test_port *p, const char *name)
{
	assert_int_equal(rte_eth_dev_get_port_by_name(name, &p->id), 0);
	p->model = aqc_model_lookup(name);
	assert_non_null(p->model);
	p->name = name;
}

void
aqc_test_start(const struct aqc_test_port *p, uint16_t nq, uint16_t nb_desc,
	       struct rte_mempool *mp, uint64_t rx_offloads, uint64_t tx_offloads,
	       bool rss, const uint8_t *rss_key)
{
	aqc_test_start_promisc(p, nq, nb_desc, mp, rx_offloads, tx_offloads, rss,
			       rss_key, true);
}

void
aqc_test_start_promisc(const struct aqc_test_port *p, uint16_t nq, uint16_t nb_desc,
		       struct rte_mempool *mp, uint64_t rx_offloads, uint64_t tx_offloads,
		       bool rss, const uint8_t *rss_key, bool promisc)
{
	struct rte_eth_conf conf;
	struct rte_eth_rxconf rxc = { .rx_free_thresh = 0 };
	struct rte_eth_txconf txc = { .tx_free_thresh = 0 };

	memset(&conf, 0, sizeof(conf));
	conf.rxmode.offloads = rx_offloads;
	conf.txmode.offloads = tx_offloads;
	if (rss) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP |
						   RTE_ETH_RSS_UDP;
		conf.rx_adv_conf.rss_conf.rss_key = (uint8_t *)(uintptr_t)rss_key;
		conf.rx_adv_conf.rss_conf.rss_key_len = rss_key ? 40 : 0;
		conf.rx_adv_conf.rss_conf.rss_hf &= RTE_ETH_RSS_IPV4 |
			RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV4_UDP |
			RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_TCP |
			RTE_ETH_RSS_NONFRAG_IPV6_UDP;
	}
	assert_int_equal(rte_eth_dev_configure(p->id, nq, nq, &conf), 0);
	for (uint16_t q = 0; q < nq; q++) {
		assert_int_equal(rte_eth_rx_queue_setup(p->id, q, nb_desc, 0, &rxc, mp), 0);
		assert_int_equal(rte_eth_tx_queue_setup(p->id, q, nb_desc, 0, &txc), 0);
	}
	if (promisc)
		assert_int_equal(rte_eth_promiscuous_enable(p->id), 0);
	else
		assert_int_equal(rte_eth_promiscuous_disable(p->id), 0);
	assert_int_equal(rte_eth_dev_start(p->id), 0);
	aqc_test_wait_link(p->id, RTE_ETH_LINK_UP);
}

void
aqc_test_wait_link(uint16_t port, int want)
{
	struct rte_eth_link link;

	for (int i = 0; i < 300; i++) {
		assert_int_equal(rte_eth_link_get_nowait(port, &link), 0);
		if (link.link_status == want)
			return;
		rte_delay_us_sleep(10000);
	}
	fail_msg("port %u: link did not become %s", port, want ? "up" : "down");
}

void
aqc_test_stop(const struct aqc_test_port *p)
{
	assert_int_equal(rte_eth_dev_stop(p->id), 0);
}

uint32_t
aqc_test_reg(const struct aqc_test_port *p, uint32_t off)
{
	return __atomic_load_n((uint32_t *)(void *)(aqc_model_bar(p->model) + off),
			       __ATOMIC_ACQUIRE);
}

static void
desc(const struct aqc_test_port *p, uint32_t lo, uint32_t hi, unsigned int n, uint32_t dw[4])
{
	uint64_t base = ((uint64_t)aqc_test_reg(p, hi) << 32) | aqc_test_reg(p, lo);

	assert_true(base != 0);
	memcpy(dw, (const void *)(uintptr_t)(base + 16u * n), 16);
}

void
aqc_test_rx_desc(const struct aqc_test_port *p, unsigned int q, unsigned int n, uint32_t dw[4])
{
	desc(p, DOC_RXD_BASE_LO(q), DOC_RXD_BASE_HI(q), n, dw);
}

void
aqc_test_tx_desc(const struct aqc_test_port *p, unsigned int q, unsigned int n, uint32_t dw[4])
{
	desc(p, DOC_TXD_BASE_LO(q), DOC_TXD_BASE_HI(q), n, dw);
}

static uint32_t
ether(uint8_t *f, uint16_t type)
{
	memcpy(f, aqc_test_dst_mac, 6);
	memcpy(f + 6, aqc_test_src_mac, 6);
	f[12] = type >> 8;
	f[13] = type & 0xff;
	return 14;
}

static void
fill(uint8_t *p, uint32_t n, uint32_t seed)
{
	for (uint32_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed * 131u + i * 7u + (i >> 8));
}

static uint32_t
ip4(uint8_t *f, uint8_t proto, uint32_t l4len, uint32_t seed)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + ether(f, RTE_ETHER_TYPE_IPV4));

	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(20 + l4len);
	ip->packet_id = rte_cpu_to_be_16(seed & 0xffff);
	ip->time_to_live = 64;
	ip->next_proto_id = proto;
	ip->src_addr = rte_cpu_to_be_32(0x0a000001 + (seed & 0xff));
	ip->dst_addr = rte_cpu_to_be_32(0x0a010001 + ((seed >> 8) & 0xff));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	return 34;
}

uint32_t
aqc_test_udp4(uint8_t *f, uint32_t payload, uint16_t sport, uint16_t dport, uint32_t seed)
{
	uint32_t off = ip4(f, IPPROTO_UDP, 8 + payload, seed);
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(f + off);

	u->src_port = rte_cpu_to_be_16(sport);
	u->dst_port = rte_cpu_to_be_16(dport);
	u->dgram_len = rte_cpu_to_be_16(8 + payload);
	u->dgram_cksum = 0;
	fill(f + off + 8, payload, seed);
	u->dgram_cksum = rte_ipv4_udptcp_cksum((struct rte_ipv4_hdr *)(f + 14), u);
	return off + 8 + payload;
}

uint32_t
aqc_test_tcp4(uint8_t *f, uint32_t payload, uint16_t sport, uint16_t dport, uint32_t seed)
{
	uint32_t off = ip4(f, IPPROTO_TCP, 20 + payload, seed);
	struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)(f + off);

	memset(t, 0, sizeof(*t));
	t->src_port = rte_cpu_to_be_16(sport);
	t->dst_port = rte_cpu_to_be_16(dport);
	t->sent_seq = rte_cpu_to_be_32(seed * 1000u);
	t->data_off = 5 << 4;
	t->tcp_flags = RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG;
	t->rx_win = rte_cpu_to_be_16(512);
	fill(f + off + 20, payload, seed);
	t->cksum = rte_ipv4_udptcp_cksum((struct rte_ipv4_hdr *)(f + 14), t);
	return off + 20 + payload;
}

uint32_t
aqc_test_udp6(uint8_t *f, uint32_t payload, uint16_t sport, uint16_t dport, uint32_t seed)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(f + ether(f, RTE_ETHER_TYPE_IPV6));
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(ip + 1);

	memset(ip, 0, sizeof(*ip));
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(8 + payload);
	ip->proto = IPPROTO_UDP;
	ip->hop_limits = 64;
	for (int i = 0; i < 16; i++) {
		ip->src_addr[i] = (uint8_t)(0x20 + i + seed);
		ip->dst_addr[i] = (uint8_t)(0x40 + i);
	}
	u->src_port = rte_cpu_to_be_16(sport);
	u->dst_port = rte_cpu_to_be_16(dport);
	u->dgram_len = rte_cpu_to_be_16(8 + payload);
	u->dgram_cksum = 0;
	fill((uint8_t *)(u + 1), payload, seed);
	u->dgram_cksum = rte_ipv6_udptcp_cksum(ip, u);
	return 14 + 40 + 8 + payload;
}

uint16_t
aqc_test_rx_all(uint16_t port, uint16_t q, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t got = 0;

	for (int i = 0; i < 2000 && got < n; i++) {
		got += rte_eth_rx_burst(port, q, pkts + got, RTE_MIN(32, n - got));
		if (got < n)
			rte_delay_us_sleep(1000);
	}
	assert_int_equal(got, n);
	return got;
}

uint32_t
aqc_test_toeplitz(const uint8_t key[40], const uint8_t *in, unsigned int len)
{
	uint32_t h = 0;

	for (unsigned int i = 0; i < len; i++) {
		for (unsigned int b = 0; b < 8; b++) {
			if (in[i] & (0x80u >> b)) {
				unsigned int k = i * 8 + b;  /* key window starts at bit k */
				uint32_t w = 0;

				for (unsigned int j = 0; j < 32; j++) {
					unsigned int kb = k + j;

					w = (w << 1) | ((key[kb / 8] >> (7 - kb % 8)) & 1u);
				}
				h ^= w;
			}
		}
	}
	return h;
}

uint32_t
aqc_test_tso_segment(uint8_t *out, const uint8_t *f, uint32_t payload, uint32_t mss,
		     uint32_t k)
{
	uint32_t nseg = (payload + mss - 1) / mss;
	uint32_t n = k + 1 < nseg ? mss : payload - mss * k;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(out + 14);
	struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)(out + 34);
	uint8_t flags = ((const struct rte_tcp_hdr *)(f + 34))->tcp_flags;

	memcpy(out, f, 54);
	memcpy(out + 54, f + 54 + mss * k, n);
	ip->total_length = rte_cpu_to_be_16(40 + n);
	ip->packet_id = rte_cpu_to_be_16(rte_be_to_cpu_16(ip->packet_id) + k);
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	t->sent_seq = rte_cpu_to_be_32(rte_be_to_cpu_32(t->sent_seq) + mss * k);
	/* docs/ref/aqc.md §6.3: masks 0x0FF6 (first, middle: no FIN, no PSH),
	 * 0x0F7F (last: no CWR), as the drivers program them */
	t->tcp_flags = (uint8_t)(flags & (k + 1 < nseg ? 0xf6 : 0x7f));
	t->cksum = 0;
	t->cksum = rte_ipv4_udptcp_cksum(ip, t);
	return 54 + n;
}

void
aqc_test_bench_frames(struct rte_mempool *mp, struct rte_mbuf **pkts, unsigned int n,
		      const uint8_t *f, uint32_t len)
{
	assert_int_equal(rte_pktmbuf_alloc_bulk(mp, pkts, n), 0);
	for (unsigned int k = 0; k < n; k++) {
		pkts[k]->data_len = pkts[k]->pkt_len = len;
		memcpy(rte_pktmbuf_mtod(pkts[k], void *), f, 64);
	}
}

double
aqc_test_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *log_buf;
static size_t log_len;
static FILE *log_mem, *log_orig;

void
aqc_test_log_capture(void)
{
	log_orig = rte_log_get_stream();
	log_mem = open_memstream(&log_buf, &log_len);
	assert_non_null(log_mem);
	rte_openlog_stream(log_mem);
}

bool
aqc_test_log_end(const char *s)
{
	bool found;

	rte_openlog_stream(log_orig);
	fclose(log_mem);
	found = strstr(log_buf, s) != NULL;
	if (!found)
		fprintf(stderr, "captured log (no '%s'):\n%s", s, log_buf);
	free(log_buf);
	log_buf = NULL;
	return found;
}

void
aqc_test_log_expect(const char *want)
{
	if (!aqc_test_log_end(want))
		fail_msg("log does not name '%s'", want);
}
