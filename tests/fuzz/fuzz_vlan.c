/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: VLAN strip, then insert.
 *
 * Input: [mode] then a burst (fuzz.h). mode bit 0: the default TPID set
 * (partition and counters checked); else only 0x8100, inserted back as
 * 0x8100 in both positions, so insert(strip(f)) must give f byte for byte
 * (tp_vlan.h: TPIDs are not kept, insert writes its configured ones).
 * mode bit 1: the NIC is said to have stripped one tag already (vlan_tci
 * taken from the input), which strip must respect.
 */
#include <string.h>

#include "fuzz.h"
#include "tp_vlan.h"

static uint8_t before[FUZZ_MAX_BURST][FUZZ_MAX_FRAME + 64];
static uint8_t after[FUZZ_MAX_FRAME + 64];

static uint64_t
counted(const struct tp_vlan_stats *st)
{
	uint64_t d = 0;

	for (int r = 0; r < TP_VLAN_DROP_MAX; r++)
		d += st->drop[r];
	return d;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rte_mbuf *pkts[FUZZ_MAX_BURST], *orig[FUZZ_MAX_BURST], *drops[FUZZ_MAX_BURST];
	struct tp_vlan_stats st = { 0 }, tx = { 0 };
	struct tp_vlan_conf c;
	uint32_t len[FUZZ_MAX_BURST];
	uint16_t n, kept, kept2, nic_tci;
	uint8_t mode;

	if (size < 3)
		return 0;
	mode = data[0];
	nic_tci = (uint16_t)(data[1] << 8 | data[2]);
	data += 3;
	size -= 3;
	fuzz_pool();
	FUZZ_CHECK(tp_vlan_conf_init(&c) == 0);
	if (!(mode & 1)) {
		static const uint16_t only = 0x8100;

		FUZZ_CHECK(tp_vlan_conf_set_tpids(&c, &only, 1) == 0);
		c.tx_outer_tpid = c.tx_inner_tpid = 0x8100;
	}
	n = fuzz_burst(&data, &size, pkts, FUZZ_MAX_BURST);
	for (uint16_t i = 0; i < n; i++) {
		if (mode & 2) {
			pkts[i]->vlan_tci = nic_tci;
			pkts[i]->ol_flags |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
		}
		orig[i] = pkts[i];
		len[i] = fuzz_bytes(pkts[i], before[i], sizeof(after));
	}
	kept = tp_vlan_strip_burst(&c, pkts, n, drops, &st);
	FUZZ_CHECK(st.in == n && st.out == kept && counted(&st) == (uint64_t)(n - kept));
	rte_pktmbuf_free_bulk(drops, n - kept);
	for (uint16_t k = 0, i = 0; k < kept; k++, i++) {
		while (orig[i] != pkts[k])
			i++; /* kept mbufs stay in order; the ones skipped were dropped */
		FUZZ_CHECK(pkts[k]->pkt_len <= len[i]);
		FUZZ_CHECK(pkts[k]->pkt_len + 8 >= len[i]);
		orig[k] = orig[i];
		len[k] = len[i];
		if (k != i)
			memcpy(before[k], before[i], len[i]);
	}
	kept2 = tp_vlan_insert_burst(&c, pkts, kept, drops, &tx);
	FUZZ_CHECK(counted(&tx) == (uint64_t)(kept - kept2));
	rte_pktmbuf_free_bulk(drops, kept - kept2);
	for (uint16_t k = 0, i = 0; k < kept2; k++, i++) {
		uint32_t l;

		while (orig[i] != pkts[k])
			i++;
		l = fuzz_bytes(pkts[k], after, sizeof(after));
		if (mode & 1)
			continue;
		/* A NIC-stripped tag comes back in front of the frame. */
		if (mode & 2) {
			FUZZ_CHECK(l == len[i] + 4);
			FUZZ_CHECK(memcmp(after, before[i], 12) == 0);
			FUZZ_CHECK(after[12] == 0x81 && after[13] == 0x00);
			FUZZ_CHECK(after[14] == (nic_tci >> 8) && after[15] == (nic_tci & 0xFF));
			FUZZ_CHECK(memcmp(after + 16, before[i] + 12, len[i] - 12) == 0);
		} else {
			FUZZ_CHECK(l == len[i] && memcmp(after, before[i], l) == 0);
		}
	}
	rte_pktmbuf_free_bulk(pkts, kept2);
	fuzz_check_pool();
	return 0;
}
