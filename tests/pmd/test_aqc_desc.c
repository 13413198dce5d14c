/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Descriptor formats, bit by bit, against docs/ref/aqc.md tables §5.1 (TX
 * data), §5.2 (TX context), §5.3 (RX read) and §5.4 (RX write-back), in
 * both directions: what the driver writes for the chip, and what the driver
 * makes of what the chip writes. The model runs in step mode
 * so every descriptor can be read between the two sides.
 */
#include <string.h>

#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "aqc_test.h"

static const char *const vdevs[] = {
	"net_aqc_sim0,mode=step",
	"net_aqc_sim1,mode=step,wire=none",
	NULL,
};

static const uint8_t key[40] = {
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
	0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x01, 0x23, 0x45, 0x67, 0x89,
	0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32,
	0x10, 0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87,
};

static int
setup(void **state)
{
	(void)state;
	return aqc_test_eal_init(vdevs);
}

/* §5.3: a posted descriptor holds an mbuf data address of our pool and
 * zero in bytes 8-15 (bit 0 there would read as DD). */
static void
check_posted(const struct aqc_test_port *p, unsigned int n, struct rte_mempool *mp)
{
	uint32_t dw[4];
	uint64_t addr;
	struct rte_mbuf *m;

	aqc_test_rx_desc(p, 0, n, dw);
	addr = (uint64_t)dw[1] << 32 | dw[0];
	assert_int_equal(dw[2], 0);
	assert_int_equal(dw[3], 0);
	m = (struct rte_mbuf *)(uintptr_t)(addr - RTE_PKTMBUF_HEADROOM -
		rte_pktmbuf_priv_size(mp) - sizeof(struct rte_mbuf));
	assert_ptr_equal(m->pool, mp);
	assert_int_equal(rte_mbuf_data_iova_default(m), addr);
}

/* TX: VLAN insertion + IPv4/TCP checksum offload on a 2-segment packet.
 * §5.2: one context descriptor; §5.1: two data descriptors, EOP and WB on
 * the last; after the chip: DD in the WB descriptor only, head = tail. Then
 * the loop brings the frame back: docs/ref/aqc.md §5.4 write-back and the mbuf. */
static void
test_tx_descriptors(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("desc_tx", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	uint8_t f[256], want[260];
	struct rte_mbuf *m, *rx[4];
	struct rte_ipv4_hdr *ip;
	struct rte_tcp_hdr *tcp;
	uint32_t len, dw[4];
	uint64_t iova[2];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp,
		       RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
		       RTE_ETH_RX_OFFLOAD_UDP_CKSUM,
		       RTE_ETH_TX_OFFLOAD_VLAN_INSERT | RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
		       RTE_ETH_TX_OFFLOAD_TCP_CKSUM | RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
		       false, NULL);
	check_posted(&p, 0, mp);
	check_posted(&p, 62, mp);
	assert_int_equal(aqc_test_reg(&p, DOC_RXD_TAIL(0)), 63);
	assert_int_equal(BITS(aqc_test_reg(&p, DOC_RXD_BUFSZ(0)), 4, 0), 2);  /* 2 KiB */

	/* the frame we expect on the wire: tag inserted, checksums right */
	len = aqc_test_tcp4(f, 66, 4321, 80, 9);
	assert_int_equal(len, 120);
	memcpy(want, f, 12);
	memcpy(want + 12, "\x81\x00\x20\x64", 4);
	memcpy(want + 16, f + 12, len - 12);
	/* what the application hands over: IP checksum 0, TCP pseudo-header */
	ip = (struct rte_ipv4_hdr *)(f + 14);
	tcp = (struct rte_tcp_hdr *)(f + 34);
	ip->hdr_checksum = 0;
	tcp->cksum = rte_ipv4_phdr_cksum(ip, RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_TCP_CKSUM);
	m = tp_test_mbuf_chain_from_bytes(mp, f, len, 60);
	assert_int_equal(m->nb_segs, 2);
	m->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM |
		      RTE_MBUF_F_TX_TCP_CKSUM | RTE_MBUF_F_TX_VLAN;
	m->l2_len = 14;
	m->l3_len = 20;
	m->vlan_tci = 0x2064;
	iova[0] = rte_mbuf_data_iova(m);
	iova[1] = rte_mbuf_data_iova(m->next);
	assert_int_equal(rte_eth_tx_burst(p.id, 0, &m, 1), 1);
	assert_int_equal(aqc_test_reg(&p, DOC_TXD_TAIL(0)), 3);
	assert_int_equal(aqc_test_reg(&p, DOC_TXD_HEAD(0)), 0);

	/* §5.2 context descriptor */
	aqc_test_tx_desc(&p, 0, 0, dw);
	assert_int_equal(dw[0], 0);
	assert_int_equal(dw[1], 0);
	assert_int_equal(BITS(dw[2], 2, 0), 2);        /* DESC_TYPE context */
	assert_int_equal(BITS(dw[2], 3, 3), 0);        /* CTX_ID 0 */
	assert_int_equal(BITS(dw[2], 19, 4), 0x2064);  /* VLAN TCI */
	assert_int_equal(BITS(dw[2], 31, 20), 0);      /* CMD, L2 len: no LSO */
	assert_int_equal(dw[3], 0);
	/* §5.1 data descriptors */
	for (unsigned int i = 1; i <= 2; i++) {
		bool last = i == 2;

		aqc_test_tx_desc(&p, 0, i, dw);
		assert_int_equal((uint64_t)dw[1] << 32 | dw[0], iova[i - 1]);
		assert_int_equal(BITS(dw[2], 2, 0), 1);     /* DESC_TYPE data */
		assert_int_equal(BITS(dw[2], 3, 3), 0);
		assert_int_equal(BITS(dw[2], 19, 4), 60);   /* BLEN */
		assert_int_equal(BITS(dw[2], 20, 20), 0);   /* DD: not yet */
		assert_int_equal(BITS(dw[2], 21, 21), last); /* EOP */
		assert_int_equal(BITS(dw[2], 22, 22), 1);   /* CMD VLAN insert */
		assert_int_equal(BITS(dw[2], 23, 23), 0);   /* FCS (LNX: never) */
		assert_int_equal(BITS(dw[2], 24, 24), 1);   /* IPCSO */
		assert_int_equal(BITS(dw[2], 25, 25), 1);   /* TUCSO */
		assert_int_equal(BITS(dw[2], 26, 26), 0);   /* LSO */
		assert_int_equal(BITS(dw[2], 27, 27), last); /* WB */
		assert_int_equal(BITS(dw[2], 31, 28), 0);
		assert_int_equal(BITS(dw[3], 11, 0), 0);
		assert_int_equal(BITS(dw[3], 12, 12), 0);   /* CT_IDX */
		assert_int_equal(BITS(dw[3], 13, 13), 1);   /* CT_EN */
		assert_int_equal(BITS(dw[3], 31, 14), 120); /* PAY_LEN */
	}

	/* the chip: transmit, DD into the WB descriptor, head = tail; loop */
	assert_int_equal(aqc_model_step(p.model, 64), 1);
	assert_int_equal(aqc_test_reg(&p, DOC_TXD_HEAD(0)), 3);
	aqc_test_tx_desc(&p, 0, 2, dw);
	assert_int_equal(BITS(dw[2], 20, 20), 1);
	aqc_test_tx_desc(&p, 0, 1, dw);
	assert_int_equal(BITS(dw[2], 20, 20), 0);

	/* §5.4 write-back of the looped frame */
	aqc_test_rx_desc(&p, 0, 0, dw);
	assert_int_equal(BITS(dw[0], 3, 0), 0);        /* RSS type: RSS off */
	assert_int_equal(BITS(dw[0], 5, 4), 0);        /* L3 IPv4 */
	assert_int_equal(BITS(dw[0], 8, 6), 0);        /* L4 TCP */
	assert_int_equal(BITS(dw[0], 9, 9), 1);        /* VLAN tagged */
	assert_int_equal(BITS(dw[0], 10, 10), 0);      /* not QinQ */
	assert_int_equal(BITS(dw[0], 12, 12), 0);      /* no DMA error */
	assert_int_equal(BITS(dw[0], 19, 19), 1);      /* IPv4 csum checked */
	assert_int_equal(BITS(dw[0], 20, 20), 1);      /* L4 csum checked */
	assert_int_equal(BITS(dw[0], 31, 21), 0);      /* no split header */
	assert_int_equal(dw[1], 0);                    /* RSS hash */
	assert_int_equal(BITS(dw[2], 0, 0), 1);        /* DD */
	assert_int_equal(BITS(dw[2], 1, 1), 1);        /* EOP */
	assert_int_equal(BITS(dw[2], 5, 2), 1u << 3);  /* RX_STAT: L4 valid only */
	assert_int_equal(BITS(dw[2], 15, 6), 0);       /* ESTAT, RSC count */
	assert_int_equal(BITS(dw[2], 31, 16), 124);    /* packet length */
	assert_int_equal(BITS(dw[3], 15, 0), 0);       /* next descriptor */
	assert_int_equal(BITS(dw[3], 31, 16), 0x2064); /* VLAN TCI */

	assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 4), 1);
	tp_test_assert_mbuf_bytes(rx[0], want, len + 4);
	assert_int_equal(rx[0]->nb_segs, 1);
	assert_int_equal(rx[0]->port, p.id);
	assert_int_equal(rx[0]->vlan_tci, 0x2064);
	assert_int_equal(rx[0]->packet_type,
			 RTE_PTYPE_L2_ETHER_VLAN | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_TCP);
	assert_int_equal(rx[0]->ol_flags, RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_IP_CKSUM_GOOD |
			 RTE_MBUF_F_RX_L4_CKSUM_GOOD);
	rte_pktmbuf_free(rx[0]);

	/* no offloads, one segment: only type, BLEN, EOP, WB; PAY_LEN */
	len = aqc_test_udp4(f, 100, 1, 2, 3);
	m = tp_test_mbuf_from_bytes(mp, f, len);
	iova[0] = rte_mbuf_data_iova(m);
	assert_int_equal(rte_eth_tx_burst(p.id, 0, &m, 1), 1);
	aqc_test_tx_desc(&p, 0, 3, dw);
	assert_int_equal((uint64_t)dw[1] << 32 | dw[0], iova[0]);
	assert_int_equal(dw[2], 1u | (len << 4) | (1u << 21) | (1u << 27));
	assert_int_equal(dw[3], len << 14);
	assert_int_equal(aqc_model_step(p.model, 64), 1);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 4), 1);
	tp_test_assert_mbuf_bytes(rx[0], f, len);
	rte_pktmbuf_free(rx[0]);

	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* TX LSO (§5.2 context + §5.1 data with CMD LSO, PAY_LEN = payload): one
 * 2500-byte TCP payload with MSS 1000 leaves as three segments, each with
 * its own IPv4 length, ID, checksum, TCP sequence number, flags (0x7820 /
 * 0x7824 masks: PSH and FIN only on the last) and TCP checksum. */
static void
test_tso(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("desc_tso", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;
	static uint8_t f[4096], want[1600];
	struct rte_mbuf *m, *rx[8];
	struct rte_tcp_hdr *tcp;
	struct rte_eth_stats st;
	uint32_t len, dw[4];

	(void)state;
	aqc_test_port(&p, "net_aqc_sim0");
	aqc_test_start(&p, 1, 64, mp, RTE_ETH_RX_OFFLOAD_CHECKSUM,
		       RTE_ETH_TX_OFFLOAD_TCP_TSO | RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
		       RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM,
		       false, NULL);
	assert_int_equal(rte_eth_stats_reset(p.id), 0);
	len = aqc_test_tcp4(f, 2500, 3333, 443, 21);
	tcp = (struct rte_tcp_hdr *)(f + 34);
	tcp->tcp_flags = RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG | RTE_TCP_FIN_FLAG;
	m = tp_test_mbuf_chain_from_bytes(mp, f, len, 1000);
	m->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_TCP_SEG;
	m->l2_len = 14;
	m->l3_len = 20;
	m->l4_len = 20;
	m->tso_segsz = 1000;
	assert_int_equal(rte_eth_tx_prepare(p.id, 0, &m, 1), 1);
	assert_int_equal(rte_eth_tx_burst(p.id, 0, &m, 1), 1);
	/* §5.2 context: L2 14, L3 20, L4 20, MSS 1000, CMD TCP, IPv4 */
	aqc_test_tx_desc(&p, 0, 0, dw);
	assert_int_equal(BITS(dw[2], 2, 0), 2);
	assert_int_equal(BITS(dw[2], 19, 4), 0);
	assert_int_equal(BITS(dw[2], 21, 21), 0);       /* not IPv6 */
	assert_int_equal(BITS(dw[2], 22, 22), 1);       /* TCP */
	assert_int_equal(BITS(dw[2], 30, 24), 14);      /* L2 length */
	assert_int_equal(BITS(dw[2], 31, 31) | BITS(dw[3], 7, 0) << 1, 20);  /* L3 */
	assert_int_equal(BITS(dw[3], 15, 8), 20);       /* L4 length */
	assert_int_equal(BITS(dw[3], 31, 16), 1000);    /* MSS */
	for (unsigned int i = 1; i <= 3; i++) {
		aqc_test_tx_desc(&p, 0, i, dw);
		assert_int_equal(BITS(dw[2], 2, 0), 1);
		assert_int_equal(BITS(dw[2], 21, 21), i == 3);   /* EOP */
		assert_int_equal(BITS(dw[2], 24, 24), 1);        /* IPCSO */
		assert_int_equal(BITS(dw[2], 25, 25), 1);        /* TUCSO */
		assert_int_equal(BITS(dw[2], 26, 26), 1);        /* LSO */
		assert_int_equal(BITS(dw[2], 22, 22), 0);        /* no VLAN */
		assert_int_equal(BITS(dw[3], 13, 13), 1);        /* CT_EN */
		assert_int_equal(BITS(dw[3], 31, 14), 2500);     /* payload only */
	}
	assert_int_equal(aqc_model_step(p.model, 64), 1);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 8), 3);
	for (unsigned int k = 0; k < 3; k++) {
		uint32_t n = aqc_test_tso_segment(want, f, 2500, 1000, k);

		/* first two: ACK only; the last keeps ACK|PSH|FIN */
		assert_int_equal(want[47], k < 2 ? RTE_TCP_ACK_FLAG :
				 RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG | RTE_TCP_FIN_FLAG);
		tp_test_assert_mbuf_bytes(rx[k], want, n);
		assert_int_equal(rx[k]->ol_flags, RTE_MBUF_F_RX_IP_CKSUM_GOOD |
				 RTE_MBUF_F_RX_L4_CKSUM_GOOD);
		rte_pktmbuf_free(rx[k]);
	}
	assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
	assert_int_equal(st.opackets, 3);     /* segments on the wire */
	assert_int_equal(st.obytes, 3 * 54 + 2500);
	/* what the descriptors cannot express is refused by tx_prepare */
	m = tp_test_mbuf_from_bytes(mp, f, 200);
	m->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_TCP_SEG;
	m->l2_len = 14;
	m->l3_len = 20;
	m->l4_len = 20;
	m->tso_segsz = 0;
	assert_int_equal(rte_eth_tx_prepare(p.id, 0, &m, 1), 0);
	assert_int_equal(rte_errno, EINVAL);
	rte_pktmbuf_free(m);
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* RX: frames put on the wire; the write-back descriptor bits (§5.4) and
 * the mbuf built from them. RSS on (key above), VLAN strip on, checksum
 * checks on. */
enum kind { TCP4, UDP4, UDP4_BAD_IP, UDP4_BAD_L4, UDP4_NOCSUM, UDP6, ARP, OTHER, VLAN, QINQ };

struct rx_case {
	const char *name;
	enum kind kind;
	uint32_t rss_type, l3, l4, vlan_bit, qinq_bit, ip_chk, l4_chk, stat;
	uint16_t tci;
	uint32_t ptype;
	uint64_t flags;
};

static const struct rx_case rx_cases[] = {
	{ "ipv4/tcp", TCP4, 4, 0, 0, 0, 0, 1, 1, 1u << 3, 0,
	  RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_TCP,
	  RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_RSS_HASH },
	{ "ipv4/udp", UDP4, 6, 0, 1, 0, 0, 1, 1, 1u << 3, 0,
	  RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP,
	  RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_RSS_HASH },
	{ "ipv4 bad header csum", UDP4_BAD_IP, 6, 0, 1, 0, 0, 1, 1, (1u << 1) | (1u << 3), 0,
	  RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP,
	  RTE_MBUF_F_RX_IP_CKSUM_BAD | RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_RSS_HASH },
	{ "udp bad csum", UDP4_BAD_L4, 6, 0, 1, 0, 0, 1, 1, (1u << 2) | (1u << 3), 0,
	  RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP,
	  RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_BAD | RTE_MBUF_F_RX_RSS_HASH },
	{ "udp no csum", UDP4_NOCSUM, 6, 0, 1, 0, 0, 1, 1, 1u << 3, 0,
	  RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP,
	  RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_RSS_HASH },
	{ "ipv6/udp", UDP6, 7, 1, 1, 0, 0, 0, 1, 1u << 3, 0,
	  RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6 | RTE_PTYPE_L4_UDP,
	  RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_RSS_HASH },
	{ "arp", ARP, 0, 3, 7, 0, 0, 0, 0, 0, 0, RTE_PTYPE_L2_ETHER_ARP, 0 },
	{ "other ethertype", OTHER, 0, 2, 7, 0, 0, 0, 0, 0, 0, RTE_PTYPE_L2_ETHER, 0 },
	{ "802.1q", VLAN, 6, 0, 1, 1, 0, 1, 1, 1u << 3, 0xa00c,
	  RTE_PTYPE_L2_ETHER_VLAN | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP,
	  RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED | RTE_MBUF_F_RX_IP_CKSUM_GOOD |
	  RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_RSS_HASH },
	{ "qinq", QINQ, 6, 0, 1, 1, 1, 1, 1, 1u << 3, 0x0014,
	  RTE_PTYPE_L2_ETHER_QINQ | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP,
	  RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED | RTE_MBUF_F_RX_IP_CKSUM_GOOD |
	  RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_RSS_HASH },
};

static uint32_t
insert_tag(uint8_t *f, uint32_t len, uint16_t tpid, uint16_t tci)
{
	memmove(f + 16, f + 12, len - 12);
	f[12] = tpid >> 8;
	f[13] = tpid & 0xff;
	f[14] = tci >> 8;
	f[15] = tci & 0xff;
	return len + 4;
}

/* Frame for a case; *strip_len: the bytes the host should get. *tuple/ntuple:
 * the RSS input (docs/ref/aqc.md §6.1: addresses, then ports). */
static uint32_t
build(enum kind k, uint8_t *f, uint8_t *host, uint32_t *host_len, uint8_t *tuple,
      unsigned int *ntuple)
{
	uint32_t len = 0, l3 = 14;

	switch (k) {
	case TCP4:
		len = aqc_test_tcp4(f, 50, 1234, 80, 1);
		break;
	case UDP4: case VLAN: case QINQ:
		len = aqc_test_udp4(f, 50, 5000, 53, 2);
		break;
	case UDP4_BAD_IP:
		len = aqc_test_udp4(f, 50, 5001, 53, 3);
		f[24] ^= 0x55;
		break;
	case UDP4_BAD_L4:
		len = aqc_test_udp4(f, 50, 5002, 53, 4);
		f[len - 1] ^= 0x01;
		break;
	case UDP4_NOCSUM:
		len = aqc_test_udp4(f, 50, 5003, 53, 5);
		f[40] = f[41] = 0;
		break;
	case UDP6:
		len = aqc_test_udp6(f, 50, 6000, 53, 6);
		break;
	case ARP:
		len = aqc_test_udp4(f, 28, 0, 0, 7);
		f[12] = 0x08;
		f[13] = 0x06;
		len = 42;
		break;
	case OTHER:
		len = aqc_test_udp4(f, 40, 0, 0, 8);
		f[12] = 0x88;
		f[13] = 0xb5;
		break;
	}
	memcpy(host, f, len);
	*host_len = len;
	*ntuple = 0;
	if (k == UDP6) {
		memcpy(tuple, f + 22, 32);
		memcpy(tuple + 32, f + 54, 4);
		*ntuple = 36;
	} else if (k != ARP && k != OTHER) {
		memcpy(tuple, f + l3 + 12, 8);
		memcpy(tuple + 8, f + 34, 4);
		*ntuple = 12;
	}
	if (k == VLAN) {
		len = insert_tag(f, len, 0x8100, 0xa00c);
	} else if (k == QINQ) {
		len = insert_tag(f, len, 0x8100, 0x012c);
		len = insert_tag(f, len, 0x88a8, 0x0014);
		/* strip takes the outer tag only (docs/ref/aqc.md §6.6) */
		memcpy(host, f, 12);
		memcpy(host + 12, f + 16, len - 16);
		*host_len = len - 4;
	}
	return len;
}

static void
test_rx_descriptors(void **state)
{
	struct rte_mempool *mp = tp_test_pool_create("desc_rx", 256, 0);
	unsigned int start = tp_test_pool_in_use(mp);
	struct aqc_test_port p;

	(void)state;
	aqc_test_port(&p, "net_aqc_sim1");
	aqc_test_start(&p, 1, 64, mp,
		       RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
		       RTE_ETH_RX_OFFLOAD_UDP_CKSUM | RTE_ETH_RX_OFFLOAD_VLAN_STRIP,
		       0, true, key);
	for (unsigned int i = 0; i < RTE_DIM(rx_cases); i++) {
		const struct rx_case *c = &rx_cases[i];
		uint8_t f[256], host[256], tuple[64];
		uint32_t len, host_len, dw[4], hash;
		unsigned int ntuple, slot = i;
		struct rte_mbuf *m;

		len = build(c->kind, f, host, &host_len, tuple, &ntuple);
		hash = ntuple ? aqc_test_toeplitz(key, tuple, ntuple) : 0;
		print_message("case %s\n", c->name);
		check_posted(&p, slot, mp);
		assert_int_equal(aqc_model_inject(p.model, f, len), 0);
		aqc_test_rx_desc(&p, 0, slot, dw);
		assert_int_equal(BITS(dw[0], 3, 0), c->rss_type);
		assert_int_equal(BITS(dw[0], 5, 4), c->l3);
		if (c->l3 < 2)
			assert_int_equal(BITS(dw[0], 8, 6), c->l4);
		assert_int_equal(BITS(dw[0], 9, 9), c->vlan_bit);
		assert_int_equal(BITS(dw[0], 10, 10), c->qinq_bit);
		assert_int_equal(BITS(dw[0], 12, 12), 0);
		assert_int_equal(BITS(dw[0], 18, 13), 0);
		assert_int_equal(BITS(dw[0], 19, 19), c->ip_chk);
		assert_int_equal(BITS(dw[0], 20, 20), c->l4_chk);
		assert_int_equal(BITS(dw[0], 31, 21), 0);
		assert_int_equal(dw[1], hash);
		assert_int_equal(BITS(dw[2], 1, 0), 3);          /* DD + EOP */
		assert_int_equal(BITS(dw[2], 5, 2), c->stat);
		assert_int_equal(BITS(dw[2], 15, 6), 0);
		assert_int_equal(BITS(dw[2], 31, 16), host_len);
		assert_int_equal(BITS(dw[3], 15, 0), 0);
		assert_int_equal(BITS(dw[3], 31, 16), c->tci);
		assert_int_equal(aqc_test_reg(&p, DOC_RXD_HEAD(0)), slot + 1);

		assert_int_equal(rte_eth_rx_burst(p.id, 0, &m, 1), 1);
		tp_test_assert_mbuf_bytes(m, host, host_len);
		assert_int_equal(m->packet_type, c->ptype);
		assert_int_equal(m->ol_flags, c->flags);
		if (c->flags & RTE_MBUF_F_RX_RSS_HASH)
			assert_int_equal(m->hash.rss, hash);
		if (c->flags & RTE_MBUF_F_RX_VLAN)
			assert_int_equal(m->vlan_tci, c->tci);
		rte_pktmbuf_free(m);
	}
	/* §5.4 "packet error = RX_STAT bit 2": dropped, counted in ierrors,
	 * its buffer reused; also when the frame spans several descriptors */
	{
		static uint8_t f[4000];
		struct rte_eth_stats st;
		struct rte_mbuf *m;
		unsigned int slot = RTE_DIM(rx_cases);
		uint32_t len, dw[4];

		assert_int_equal(rte_eth_stats_reset(p.id), 0);
		len = aqc_test_udp4(f, 100, 1, 1, 1);
		assert_int_equal(aqc_model_inject_bad(p.model, f, len), 0);
		aqc_test_rx_desc(&p, 0, slot, dw);
		assert_int_equal(BITS(dw[2], 2, 0), 7);     /* DD, EOP, MAC error */
		assert_int_equal(rte_eth_rx_burst(p.id, 0, &m, 1), 0);
		len = aqc_test_udp4(f, 3000, 2, 2, 2);      /* two 2 KiB buffers */
		assert_int_equal(aqc_model_inject_bad(p.model, f, len), 0);
		assert_int_equal(rte_eth_rx_burst(p.id, 0, &m, 1), 0);
		len = aqc_test_udp4(f, 60, 3, 3, 3);
		assert_int_equal(aqc_model_inject(p.model, f, len), 0);
		assert_int_equal(rte_eth_rx_burst(p.id, 0, &m, 1), 1);
		tp_test_assert_mbuf_bytes(m, f, len);
		rte_pktmbuf_free(m);
		assert_int_equal(rte_eth_stats_get(p.id, &st), 0);
		assert_int_equal(st.ierrors, 2);
		assert_int_equal(st.ipackets, 1);   /* DMA counts good packets */
		assert_int_equal(st.q_errors[0], 2);
		assert_int_equal(st.q_ipackets[0], 1);
	}
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tx_descriptors),
		cmocka_unit_test(test_tso),
		cmocka_unit_test(test_rx_descriptors),
	};

	aqc_test_model_from_args(argc, argv);

	return cmocka_run_group_tests(tests, setup, NULL);
}
