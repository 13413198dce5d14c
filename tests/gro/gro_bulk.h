/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bulk TCP/IPv4 for the GRO benchmarks: frame k of flow f as a Linux sender
 * makes it (MSS 1448 with the timestamp option: 1514-byte frames, DF, IP ID
 * per connection, every connection its own initial sequence number), and the
 * mbuf fields a NIC with checksum and packet-type offloads (and testpmd's
 * csum engine, which fills the header lengths before GRO) set on it.
 */
#ifndef GRO_BULK_H
#define GRO_BULK_H

#include <stdint.h>

#include <rte_mbuf.h>

#define GRO_BULK_MSS 1448
#define GRO_BULK_HDR 66          /* Ethernet 14 + IPv4 20 + TCP 20 + options 12 */
#define GRO_BULK_SPORT_BASE 10000 /* flow f sends from port 10000 + f */

/* Initial sequence number of flow f. */
uint32_t gro_bulk_isn(unsigned int f);

/* Build segment k of flow f with paylen payload bytes into buf (TPKT_MAX
 * bytes); returns the frame length. */
uint32_t gro_bulk_tcp4_frame(unsigned int f, unsigned int k, uint16_t paylen,
			     uint8_t *buf);

/* What the NIC and testpmd's csum engine set before GRO: IPv4 and TCP
 * checksums GOOD, packet_type L2_ETHER | L3_IPV4 | L4_TCP, l2/l3/l4_len. */
void gro_bulk_tcp4_nic_meta(struct rte_mbuf *m);

#endif /* GRO_BULK_H */
