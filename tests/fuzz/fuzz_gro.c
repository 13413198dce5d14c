/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: GRO merge + flush, then segment every merged packet.
 *
 * Input: [conf bits][conf bits 2: tunnels, UDP, VXLAN port] then a burst
 * (fuzz.h), given to GRO in two halves. The second byte turns on the
 * parsers beyond plain TCP (outer IPv4/IPv6, UDP, VXLAN, inner Ethernet,
 * IP in IP): truncated outer headers, wrong lengths and nested tunnels
 * must pass through untouched or merge into packets that re-segment.
 * Properties: GRO never drops (every input frame leaves, inside exactly one
 * output packet: the output's segment counts add up to the input count);
 * nothing is held after the final flush; every merged packet re-segments
 * into exactly tp_gro_segs() valid frames whose TCP payload bytes add up to
 * the merged packet's; the pool is whole at the end.
 */
#include <string.h>

#include <rte_ip.h>
#include <rte_tcp.h>

#include "fuzz.h"
#include "tp_gro.h"

#define OUT_MAX (4 * FUZZ_MAX_BURST)

static uint8_t buf[UINT16_MAX + 1024]; /* a merged packet */
static struct tp_gro *tables[256 * 8];

/* L4 payload bytes of a frame as GRO left it (l2/l3/l4_len set, and the
 * outer lengths of a tunnel). */
static uint32_t
payload_len(const struct rte_mbuf *m)
{
	uint32_t hdr = (uint32_t)m->l2_len + m->l3_len + m->l4_len;

	if (m->ol_flags & RTE_MBUF_F_TX_TUNNEL_MASK)
		hdr += (uint32_t)m->outer_l2_len + m->outer_l3_len;
	return m->pkt_len > hdr ? m->pkt_len - hdr : 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rte_mbuf *pkts[FUZZ_MAX_BURST], *out[OUT_MAX], *segs[FUZZ_MAX_BURST];
	struct tp_gro_conf conf = { 0 };
	struct tp_gro *g;
	uint32_t frames_out = 0;
	uint16_t n, half, nout = 0;
	uint8_t conf_byte, conf2;
	int rc;

	if (size < 2)
		return 0;
	fuzz_pool();
	conf_byte = data[0];
	conf.max_flows = 1u + (data[0] & 7);     /* small tables: evictions */
	conf.no_sw_csum = (data[0] >> 3) & 1;  /* fuzzed checksums merge too */
	conf.order = (data[0] >> 4) & 1 ? TP_GRO_ORDER_KERNEL : TP_GRO_ORDER_FLOW;
	conf.max_segs = (data[0] >> 5) ? (uint16_t)(1u + (data[0] >> 5)) : 0;
	conf.socket_id = SOCKET_ID_ANY;
	conf2 = data[1] & 7;
	conf.tunnels = conf2 & TP_GRO_TUN_ALL;
	conf.udp = (conf2 >> 2) & 1;
	conf.vxlan_ports[0] = 4789;
	conf.vxlan_ports[1] = 8472;
	data += 2;
	size -= 2;
	/* One table per configuration, made once: creating one per input
	 * would cost most of the run. Each input starts from an empty table. */
	g = tables[conf_byte | conf2 << 8];
	if (g == NULL)
		g = tables[conf_byte | conf2 << 8] = tp_gro_create(&conf);
	FUZZ_CHECK(g != NULL && tp_gro_held(g) == 0);
	n = fuzz_burst(&data, &size, pkts, FUZZ_MAX_BURST);
	half = n / 2;
	rc = tp_gro_merge_burst(g, pkts, half, out, OUT_MAX, 0);
	FUZZ_CHECK(rc >= 0);
	nout = (uint16_t)rc;
	rc = tp_gro_merge_burst(g, pkts + half, (uint16_t)(n - half), out + nout,
				(uint16_t)(OUT_MAX - nout), 0);
	FUZZ_CHECK(rc >= 0);
	nout = (uint16_t)(nout + rc);
	while (tp_gro_held_flows(g) > 0) {
		uint16_t k = tp_gro_flush_all(g, out + nout, (uint16_t)(OUT_MAX - nout));

		FUZZ_CHECK(k > 0);
		nout = (uint16_t)(nout + k);
	}
	FUZZ_CHECK(tp_gro_held(g) == 0);
	for (uint16_t i = 0; i < nout; i++)
		frames_out += tp_gro_segs(out[i]);
	FUZZ_CHECK(frames_out == n);

	for (uint16_t i = 0; i < nout; i++) {
		struct rte_mbuf *m = out[i];
		uint16_t want = tp_gro_segs(m);
		uint32_t merged_payload = 0, seg_payload = 0;

		fuzz_bytes(m, buf, sizeof(buf));
		if (want < 2) {
			rte_pktmbuf_free(m);
			continue;
		}
		merged_payload = payload_len(m);
		rc = tp_gro_segment(m, segs, FUZZ_MAX_BURST, fuzz_pool());
		FUZZ_CHECK(rc == want);
		for (int s = 0; s < rc; s++) {
			fuzz_bytes(segs[s], buf, sizeof(buf));
			seg_payload += payload_len(segs[s]);
		}
		FUZZ_CHECK(seg_payload == merged_payload);
		rte_pktmbuf_free_bulk(segs, (unsigned int)rc);
	}
	fuzz_check_pool();
	return 0;
}
