/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: DSA strip of every tagger, then insert + switch-side strip.
 *
 * Input: a tagger name ending in NUL (an unknown one picks a tagger by its
 * first byte), [conf bits][port], then a burst (fuzz.h).
 * Properties: strip keeps or drops every mbuf exactly once, in order, with
 * the drops counted by reason; a kept frame never grows and stays a valid
 * mbuf. Each kept frame is then tagged for a TX port and decoded as the
 * switch would (TP_DSA_CONF_F_SWITCH_SIDE): that gives back the frame's
 * bytes (plus the tagger's zero padding of short frames) and the port -
 * the round trip tp_dsa_tag.h promises - unless insert dropped it, counted.
 * And the fused pass (tp_dsa_vlan_strip_prefix, then the two bursts on what
 * it leaves) gives exactly what the DSA and VLAN bursts give on a second
 * burst built from the same input: kept frames, bytes, lengths, flags,
 * TCIs, meta, drops and both libraries' counters.
 */
#include <string.h>

#include "fuzz.h"
#include "tp_dsa_tag.h"
#include "tp_vlan.h"

static uint8_t before[FUZZ_MAX_BURST][FUZZ_MAX_FRAME + 64];
static uint32_t before_len[FUZZ_MAX_BURST];

static uint64_t
drops_counted(const struct tp_dsa_stats *st)
{
	uint64_t d = 0;

	for (int r = 0; r < TP_DSA_DROP_MAX; r++)
		d += st->drop[r];
	return d;
}

/* kept[] and drops[] partition in[] in order. */
static void
check_partition(struct rte_mbuf *const *in, uint16_t n, struct rte_mbuf *const *kept,
		uint16_t nk, struct rte_mbuf *const *drops, uint16_t nd)
{
	uint16_t k = 0, d = 0;

	FUZZ_CHECK(nk + nd == n);
	for (uint16_t i = 0; i < n; i++) {
		if (k < nk && kept[k] == in[i])
			k++;
		else if (d < nd && drops[d] == in[i])
			d++;
		else
			FUZZ_CHECK(!"an mbuf was lost, duplicated or reordered");
	}
}

static void
round_trip(const struct tp_dsa_tagger *t, struct rte_mbuf **pkts, uint16_t n,
	   const struct tp_dsa_conf *rx, uint8_t port)
{
	struct rte_mbuf *drops[FUZZ_MAX_BURST], *orig[FUZZ_MAX_BURST], *pre[FUZZ_MAX_BURST];
	struct tp_dsa_conf tx = *rx, sw = *rx;
	struct tp_dsa_stats st = { 0 };
	static uint8_t after[FUZZ_MAX_FRAME + 64];
	uint16_t kept, nk2;

	tx.flags |= TP_DSA_CONF_F_TX_PORT;
	tx.tx_port = t->tx_ports ? (uint8_t)(port % t->tx_ports) : 0;
	tx.tx_device = 0;
	tx.tx_prio = 0;
	sw.flags |= TP_DSA_CONF_F_SWITCH_SIDE;
	for (uint16_t i = 0; i < n; i++) {
		before_len[i] = fuzz_bytes(pkts[i], before[i], sizeof(after));
		orig[i] = pre[i] = pkts[i];
	}
	kept = tp_dsa_insert_burst(t, pkts, n, &tx, drops, &st);
	check_partition(orig, n, pkts, kept, drops, (uint16_t)(n - kept));
	FUZZ_CHECK(drops_counted(&st) == (uint64_t)(n - kept));
	rte_pktmbuf_free_bulk(drops, n - kept);
	/* survivors keep their order: pre[] maps them back to before[] */
	memcpy(orig, pkts, kept * sizeof(*orig));
	memset(&st, 0, sizeof(st));
	nk2 = tp_dsa_strip_burst(t, pkts, kept, &sw, drops, &st);
	check_partition(orig, kept, pkts, nk2, drops, (uint16_t)(kept - nk2));
	FUZZ_CHECK(drops_counted(&st) == (uint64_t)(kept - nk2));
	rte_pktmbuf_free_bulk(drops, kept - nk2);
	FUZZ_CHECK(nk2 == kept);
	for (uint16_t k = 0, i = 0; k < nk2; k++, i++) {
		uint32_t len;

		while (pre[i] != pkts[k])
			i++;
		len = fuzz_bytes(pkts[k], after, sizeof(after));
		FUZZ_CHECK(len >= before_len[i]);
		FUZZ_CHECK(memcmp(after, before[i], before_len[i]) == 0);
		for (uint32_t b = before_len[i]; b < len; b++)
			FUZZ_CHECK(after[b] == 0);
		FUZZ_CHECK(len == before_len[i] || len <= t->tx_pad);
		if (tp_dsa_meta(pkts[k])->flags & TP_DSA_META_F_VALID)
			FUZZ_CHECK(tp_dsa_meta(pkts[k])->port == tx.tx_port);
	}
	rte_pktmbuf_free_bulk(pkts, nk2);
}

/* The fields a strip writes, and the meta. */
static void
same_frame(struct rte_mbuf *a, struct rte_mbuf *b)
{
	static uint8_t ba[FUZZ_MAX_FRAME + 64], bb[FUZZ_MAX_FRAME + 64];
	uint32_t la = fuzz_bytes(a, ba, sizeof(ba)), lb = fuzz_bytes(b, bb, sizeof(bb));

	FUZZ_CHECK(la == lb && memcmp(ba, bb, la) == 0);
	FUZZ_CHECK(a->data_off == b->data_off && a->data_len == b->data_len);
	FUZZ_CHECK(a->ol_flags == b->ol_flags && a->vlan_tci == b->vlan_tci &&
		   a->vlan_tci_outer == b->vlan_tci_outer);
	FUZZ_CHECK(memcmp(tp_dsa_meta(a), tp_dsa_meta(b), sizeof(struct tp_dsa_meta)) == 0);
}

static void
fused_same(const struct tp_dsa_tagger *t, const struct tp_dsa_conf *c, const uint8_t *data,
	   size_t size)
{
	struct rte_mbuf *a[FUZZ_MAX_BURST], *b[FUZZ_MAX_BURST];
	struct rte_mbuf *da[FUZZ_MAX_BURST], *db[FUZZ_MAX_BURST];
	struct tp_dsa_stats sa = { 0 }, sb = { 0 };
	struct tp_vlan_stats va = { 0 }, vb = { 0 };
	const uint8_t *d = data;
	size_t s = size;
	uint16_t n = fuzz_burst(&d, &s, a, FUZZ_MAX_BURST), nb, j, k1, ka, kb;

	d = data;
	s = size;
	nb = fuzz_burst(&d, &s, b, FUZZ_MAX_BURST);
	if (nb != n) { /* the pool ran dry for the second copy */
		rte_pktmbuf_free_bulk(a, n);
		rte_pktmbuf_free_bulk(b, nb);
		return;
	}
	j = tp_dsa_vlan_strip_prefix(t, a, n, c, NULL, &sa, &va);
	FUZZ_CHECK(j <= n);
	k1 = (uint16_t)(j + tp_dsa_strip_burst(t, a + j, (uint16_t)(n - j), c, da, &sa));
	ka = (uint16_t)(j + tp_vlan_strip_burst(NULL, a + j, (uint16_t)(k1 - j),
						 da + (n - k1), &va));
	k1 = tp_dsa_strip_burst(t, b, n, c, db, &sb);
	kb = tp_vlan_strip_burst(NULL, b, k1, db + (n - k1), &vb);
	FUZZ_CHECK(ka == kb);
	FUZZ_CHECK(memcmp(&sa, &sb, sizeof(sa)) == 0 && memcmp(&va, &vb, sizeof(va)) == 0);
	for (uint16_t i = 0; i < ka; i++)
		same_frame(a[i], b[i]);
	rte_pktmbuf_free_bulk(a, ka);
	rte_pktmbuf_free_bulk(b, kb);
	rte_pktmbuf_free_bulk(da, n - ka);
	rte_pktmbuf_free_bulk(db, n - kb);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tp_dsa_tagger *list[TP_DSA_PROTO_MAX], *t;
	struct rte_mbuf *pkts[FUZZ_MAX_BURST], *orig[FUZZ_MAX_BURST], *drops[FUZZ_MAX_BURST];
	struct tp_dsa_stats st = { 0 };
	struct tp_dsa_conf c = { 0 };
	uint32_t len_in[FUZZ_MAX_BURST];
	unsigned int nt;
	uint16_t n, kept;
	uint8_t port;

	const uint8_t *nul = memchr(data, 0, RTE_MIN(size, (size_t)32));

	if (nul == NULL || (size_t)(nul - data) + 3 > size)
		return 0;
	fuzz_pool();
	if (tp_dsa_meta_offset < 0)
		FUZZ_CHECK(tp_dsa_meta_register() == 0);
	t = tp_dsa_tagger_find((const char *)data);
	if (t == NULL) {
		nt = RTE_MIN(tp_dsa_tagger_list(list, TP_DSA_PROTO_MAX),
			     (unsigned int)TP_DSA_PROTO_MAX);
		t = list[data[0] % nt];
	}
	size -= (size_t)(nul + 1 - data);
	data = nul + 1;
	if (data[0] & 1)
		c.flags |= TP_DSA_CONF_F_SWITCH_SIDE;
	if (data[0] & 2) {
		c.flags |= TP_DSA_CONF_F_CPU_PORT;
		c.cpu_port = (uint8_t)(data[0] >> 4);
	}
	if (data[0] & 4)
		c.flags |= TP_DSA_CONF_F_NO_TRUNK;
	port = data[1];
	data += 2;
	size -= 2;
	fused_same(t, &c, data, size);

	n = fuzz_burst(&data, &size, pkts, FUZZ_MAX_BURST);
	for (uint16_t i = 0; i < n; i++) {
		orig[i] = pkts[i];
		len_in[i] = pkts[i]->pkt_len;
	}
	kept = tp_dsa_strip_burst(t, pkts, n, &c, drops, &st);
	check_partition(orig, n, pkts, kept, drops, (uint16_t)(n - kept));
	FUZZ_CHECK(drops_counted(&st) == (uint64_t)(n - kept));
	for (uint16_t i = 0, k = 0; i < n && k < kept; i++) {
		if (orig[i] != pkts[k])
			continue;
		FUZZ_CHECK(pkts[k]->pkt_len <= len_in[i]);
		k++;
	}
	rte_pktmbuf_free_bulk(drops, n - kept);
	round_trip(t, pkts, kept, &c, port);
	fuzz_check_pool();
	return 0;
}
