/* SPDX-License-Identifier: BSD-3-Clause */
/* Bulk TCP/IPv4 frames for the GRO benchmarks; see gro_bulk.h. */
#include "gro_bulk.h"
#include "gro_tpkt.h"

#include <string.h>

uint32_t
gro_bulk_isn(unsigned int f)
{
	/* spread as Linux picks them per connection (RFC 6528) */
	return 1000u + f * 2654435761u;
}

uint32_t
gro_bulk_tcp4_frame(unsigned int f, unsigned int k, uint16_t paylen, uint8_t *buf)
{
	/* NOP, NOP, timestamps (RFC 7323 §3): Linux's bulk-TCP option block */
	static const uint8_t ts[12] = { 1, 1, 8, 10, 0, 0, 0x12, 0x34, 0, 0, 0x56, 0x78 };
	struct tpkt t;

	tpkt_init(&t, 0);
	t.pay_char = 0;
	t.paylen = paylen;
	t.optlen = sizeof(ts);
	memcpy(t.opts, ts, sizeof(ts));
	t.sport = (uint16_t)(GRO_BULK_SPORT_BASE + f);
	t.daddr4 = 0x0A000000u + f;
	t.seq = gro_bulk_isn(f) + k * paylen;
	t.ip_id = (uint16_t)(f * 40503u + k);   /* per-connection IP ID base */
	t.ttl = 64;
	t.no_pad = 1;
	return tpkt_build(&t, buf);
}

void
gro_bulk_tcp4_nic_meta(struct rte_mbuf *m)
{
	m->ol_flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	m->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_TCP;
	m->l2_len = 14;
	m->l3_len = 20;
	m->l4_len = 32;
}
