/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay --workers: the input split into one share per worker as a
 * NIC's RSS would spread it over RX queues, so that every flow's frames
 * stay in one share, in their order.
 *
 * The hash is Toeplitz with the Microsoft default 40-byte key (Microsoft,
 * "Verifying the RSS Hash Calculation"; the same key and test vectors are in
 * the Intel 82599 datasheet, 7.1.2.8.3), computed by DPDK's rte_softrss over
 * what a NIC hashes: source and destination address, then source and
 * destination port for TCP and UDP (the port-less 2-tuple for other IP
 * protocols and for IPv4 fragments, whose ports only the first fragment
 * has). As on the 82599 (7.1.2.8.1), the hash's 7 low bits index a
 * 128-entry redirection table, filled round-robin: entry i is queue i % N.
 *
 * What a NIC's parser does not recognise is not hashed and goes to queue 0:
 * non-IP frames, and frames whose EtherType is a switch tag (a NIC whose
 * RSS knows no DSA tag sees an unknown EtherType). Up to two VLAN tags
 * (802.1Q 0x8100, 802.1ad 0x88a8) are skipped, as NICs do. IPv6 extension
 * headers are not walked: a TCP or UDP header must follow the fixed header
 * for the ports to count (else the 2-tuple).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_thash.h>

#include "replay.h"

static const uint8_t rss_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

#define RETA_SIZE 128u

static uint16_t
be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t
be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The ports of a TCP or UDP header at l4 (len bytes there) as the
 * tuple's last word, source port high; false when the protocol has none or
 * the header is cut short. */
static bool
tuple_ports(uint8_t proto, const uint8_t *l4, uint32_t len, uint32_t *word)
{
	if ((proto != IPPROTO_TCP && proto != IPPROTO_UDP) || len < 4)
		return false;
	*word = (uint32_t)be16_at(l4) << 16 | be16_at(l4 + 2);
	return true;
}

/* The tuple is built as the words rte_softrss reads (CPU order, as
 * struct rte_ipv4_tuple / rte_ipv6_tuple lay them out: addresses, then
 * the ports), in a plain uint32_t array: no access through another type. */
int
replay_rss_hash(const uint8_t *f, uint32_t len, uint32_t *hash)
{
	uint32_t t[RTE_THASH_V6_L4_LEN];
	uint32_t off = 2 * RTE_ETHER_ADDR_LEN, words;
	uint16_t type;

	RTE_BUILD_BUG_ON(RTE_THASH_V4_L4_LEN != 3 || RTE_THASH_V6_L4_LEN != 9);
	if (len < off + 2)
		return -EINVAL;
	type = be16_at(f + off);
	off += 2;
	for (int tags = 0; tags < 2 && (type == RTE_ETHER_TYPE_VLAN ||
					type == RTE_ETHER_TYPE_QINQ); tags++) {
		if (len < off + 4)
			return -EINVAL;
		type = be16_at(f + off + 2);
		off += 4;
	}
	if (type == RTE_ETHER_TYPE_IPV4) {
		const uint8_t *ip = f + off;
		uint32_t ihl;

		if (len < off + sizeof(struct rte_ipv4_hdr) || ip[0] >> 4 != 4)
			return -EINVAL;
		ihl = (uint32_t)(ip[0] & 0xf) * 4;
		if (ihl < sizeof(struct rte_ipv4_hdr) || len < off + ihl)
			return -EINVAL;
		t[0] = be32_at(ip + 12);
		t[1] = be32_at(ip + 16);
		words = RTE_THASH_V4_L3_LEN;
		/* MF set or an offset: a fragment, hashed on addresses only */
		if ((be16_at(ip + 6) & 0x3fff) == 0 &&
		    tuple_ports(ip[9], ip + ihl, len - off - ihl, &t[2]))
			words = RTE_THASH_V4_L4_LEN;
	} else if (type == RTE_ETHER_TYPE_IPV6) {
		const uint8_t *ip6 = f + off;
		uint32_t l4 = off + (uint32_t)sizeof(struct rte_ipv6_hdr);

		if (len < l4 || ip6[0] >> 4 != 6)
			return -EINVAL;
		for (int w = 0; w < 8; w++)   /* source, then destination */
			t[w] = be32_at(ip6 + 8 + 4 * w);
		words = RTE_THASH_V6_L3_LEN;
		if (tuple_ports(ip6[6], f + l4, len - l4, &t[8]))
			words = RTE_THASH_V6_L4_LEN;
	} else {
		return -EINVAL;
	}
	*hash = rte_softrss(t, words, rss_key);
	return 0;
}

unsigned int
replay_rss_queue(uint32_t hash, unsigned int n)
{
	return (hash % RETA_SIZE) % n;
}

int
replay_split(const struct replay_input *in, unsigned int n, struct replay_input *shares)
{
	unsigned int *which = malloc(RTE_MAX(in->nb_frames, 1u) * sizeof(*which));
	int rc = 0;

	memset(shares, 0, n * sizeof(*shares));
	if (which == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < in->nb_frames; i++) {
		uint32_t h;

		which[i] = replay_rss_hash(in->frames[i].data, in->frames[i].len, &h) == 0 ?
			   replay_rss_queue(h, n) : 0;
		shares[which[i]].nb_frames++;
	}
	for (unsigned int s = 0; s < n && rc == 0; s++) {
		shares[s].frames = calloc(RTE_MAX(shares[s].nb_frames, 1u),
					  sizeof(*shares[s].frames));
		if (shares[s].frames == NULL)
			rc = -ENOMEM;
		shares[s].nb_frames = 0;
		shares[s].dlt = in->dlt;
		shares[s].nsec = in->nsec;
	}
	/* In input order: a flow's frames keep their order in its share. The
	 * frames' bytes stay the input's (read-only, shared). */
	for (uint32_t i = 0; i < in->nb_frames && rc == 0; i++) {
		struct replay_input *s = &shares[which[i]];

		s->frames[s->nb_frames++] = in->frames[i];
		s->bytes += in->frames[i].len;
	}
	free(which);
	if (rc < 0)
		replay_split_free(shares, n);
	return rc;
}

void
replay_split_free(struct replay_input *shares, unsigned int n)
{
	for (unsigned int s = 0; s < n; s++) {
		free(shares[s].frames);
		memset(&shares[s], 0, sizeof(shares[s]));
	}
}
