/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay --write-format pcapng: the three blocks a capture of one
 * interface needs, as the pcapng specification (IETF draft
 * draft-ietf-opsawg-pcapng, sections 4.1 Section Header Block, 4.2
 * Interface Description Block, 4.3 Enhanced Packet Block) lays them out,
 * in host byte order (a reader learns it from the byte-order magic).
 *
 * Our own writer because neither library we use can write this: libpcap
 * 1.10 writes pcap only, and DPDK 22.11's rte_pcapng describes ethdev ports
 * as Ethernet (no DSA link type) and takes TSC timestamps.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "replay.h"

#define BT_SHB 0x0A0D0D0Au
#define BT_IDB 0x00000001u
#define BT_EPB 0x00000006u
#define BYTE_ORDER_MAGIC 0x1A2B3C4Du
#define OPT_END 0
#define OPT_IF_TSRESOL 9   /* one byte: 9 = 10^-9 s units */

static int
put(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : -EIO;
}

int
replay_pcapng_header(FILE *f, int linktype, uint32_t snaplen)
{
	const struct {
		uint32_t type, len, magic;
		uint16_t major, minor;
		int64_t section_len;
		uint32_t len2;
	} __attribute__((packed)) shb = { BT_SHB, 28, BYTE_ORDER_MAGIC, 1, 0, -1, 28 };
	const struct {
		uint32_t type, len;
		uint16_t linktype, reserved;
		uint32_t snaplen;
		uint16_t tsresol_code, tsresol_len;
		uint8_t tsresol, pad[3];
		uint16_t end_code, end_len;
		uint32_t len2;
	} __attribute__((packed)) idb = {
		BT_IDB, 32, (uint16_t)linktype, 0, snaplen, OPT_IF_TSRESOL, 1, 9, { 0 },
		OPT_END, 0, 32,
	};

	_Static_assert(sizeof(shb) == 28 && sizeof(idb) == 32, "block layout");
	if (put(f, &shb, sizeof(shb)) < 0 || put(f, &idb, sizeof(idb)) < 0)
		return -EIO;
	return 0;
}

int
replay_pcapng_packet(FILE *f, uint64_t ts_ns, const uint8_t *data, uint32_t len)
{
	static const uint8_t zero[4];
	uint32_t pad = (4 - (len & 3)) & 3;
	uint32_t total = 32 + len + pad;
	const uint32_t head[7] = {
		BT_EPB, total, 0 /* interface */, (uint32_t)(ts_ns >> 32), (uint32_t)ts_ns,
		len, len,
	};

	if (put(f, head, sizeof(head)) < 0 || put(f, data, len) < 0 ||
	    put(f, zero, pad) < 0 || put(f, &total, sizeof(total)) < 0)
		return -EIO;
	return 0;
}
