/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txonly: transmit copies of one UDP/IPv4 frame as fast as the TX queue takes
 * them; received frames are freed (counted in dropped).
 *
 * The frame: Ethernet (src = TX port's MAC, dst = its peer), IPv4 198.18.0.1
 * -> 198.18.0.2 (RFC 2544 benchmarking range), TTL 64, ID 0, no options,
 * UDP 9 -> 9 (discard) with checksum 0 (allowed for IPv4, RFC 768), zero
 * payload, --txpkts bytes in all (without FCS).
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_memcpy.h>
#include <rte_udp.h>

#include "fwd.h"

/* 198.18.0.1 -> 198.18.0.2 (RFC 2544 benchmarking range). Not RTE_IPV4():
 * in 22.11 it shifts an int left by 24, undefined for a first octet >= 128. */
#define TXONLY_IP_SRC UINT32_C(0xC6120001)
#define TXONLY_IP_DST UINT32_C(0xC6120002)
#define TXONLY_UDP_PORT 9

/* One template per TX port, built before the lcores start. */
static uint8_t tmpl[FWD_MAX_PORTS][RTE_ETHER_MAX_LEN];

static int
txonly_init(struct fwd_stream *fs)
{
	uint16_t len = fwd.opt.txpkt_len;
	uint8_t *f;
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;

	if (fs->tx_port >= FWD_MAX_PORTS)
		return -EINVAL;
	f = tmpl[fs->tx_port];
	eth = (struct rte_ether_hdr *)f;
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	udp = (struct rte_udp_hdr *)(ip + 1);
	memset(f, 0, sizeof(tmpl[0]));
	rte_ether_addr_copy(&fwd.peer_mac[fs->tx_port], &eth->dst_addr);
	rte_ether_addr_copy(&fwd.port_mac[fs->tx_port], &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(len - sizeof(*eth));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(TXONLY_IP_SRC);
	ip->dst_addr = rte_cpu_to_be_32(TXONLY_IP_DST);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16(TXONLY_UDP_PORT);
	udp->dst_port = rte_cpu_to_be_16(TXONLY_UDP_PORT);
	udp->dgram_len = rte_cpu_to_be_16(len - sizeof(*eth) - sizeof(*ip));
	return 0;
}

void
fwd_txonly_burst(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	const uint8_t *f = tmpl[fs->tx_port];
	uint16_t len = fwd.opt.txpkt_len;
	uint16_t burst = fwd.opt.burst;
	uint16_t n;

	if (rte_pktmbuf_alloc_bulk(fs->mp, pkts, burst) != 0)
		return;
	for (uint16_t i = 0; i < burst; i++) {
		rte_memcpy(rte_pktmbuf_mtod(pkts[i], void *), f, len);
		pkts[i]->data_len = len;
		pkts[i]->pkt_len = len;
	}
	/* Frames the ring refused were never "received": free, don't count. */
	n = rte_eth_tx_burst(fs->tx_port, fs->tx_queue, pkts, burst);
	fs->tx_pkts += n;
	if (n < burst)
		rte_pktmbuf_free_bulk(&pkts[n], burst - n);
}

static void
txonly_fwd(struct fwd_stream *fs)
{
	const uint64_t begin = fwd_busy_begin();
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	uint16_t n = rte_eth_rx_burst(fs->rx_port, fs->rx_queue, pkts, fwd.opt.burst);

	fwd_rx_burst_seen(fs, n);
	if (n > 0) {
		fs->rx_pkts += n;
		fs->dropped += n;
		rte_pktmbuf_free_bulk(pkts, n);
	}
	fwd_txonly_burst(fs);
	/* every burst sends: testpmd's txonly counts each one */
	fwd_busy_end(fs, begin);
}

const struct fwd_engine fwd_engine_txonly = {
	.name = "txonly",
	.help = "transmit generated UDP frames (--txpkts bytes)",
	.stream_init = txonly_init,
	.packet_fwd = txonly_fwd,
};
