/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One implementation for both kinds of program (lib/prog/xdp_edit.c): C
 * programs written with tp_xdp_vlan_push / vlan_pop / adjust_tail give the
 * same verdicts and the same bytes as t_adjust.o's xdp_vlan_push, xdp_pop
 * and xdp_trim (bpf_xdp_adjust_head / adjust_tail) on the frames of
 * gen_bpf_frames.py, and both match the scapy-built expected captures. On
 * a merged packet both keep l2_len in step with a head edit.
 */
#include <errno.h>
#include <linux/bpf.h>

#include "bpf_test.h"
#include "tagpipe.h"

static inline enum tp_verdict
c_push(void *priv, struct tp_xdp_md *ctx)
{
	(void)priv;
	return tp_xdp_vlan_push(ctx, 0x8100, 100) == 0 ? TP_TX : TP_ABORTED;
}
TP_PROG_DEFINE(burst_c_push, c_push)

/* xdp_pop passes everything, popping an 802.1Q tag where there is one. */
static inline enum tp_verdict
c_pop(void *priv, struct tp_xdp_md *ctx)
{
	const uint8_t *d = ctx->data;

	(void)priv;
	if (ctx->data_end - d >= 18 && d[12] == 0x81 && d[13] == 0x00 &&
	    tp_xdp_vlan_pop(ctx) < 0)
		return TP_ABORTED;
	return TP_PASS;
}
TP_PROG_DEFINE(burst_c_pop, c_pop)

/* xdp_trim: longer than 60 bytes -> the first 60, else 4 bytes more. */
static inline enum tp_verdict
c_trim(void *priv, struct tp_xdp_md *ctx)
{
	int32_t len = (int32_t)(ctx->data_end - ctx->data);

	(void)priv;
	return tp_xdp_adjust_tail(ctx, len > 60 ? 60 - len : 4) == 0 ?
	       TP_TX : TP_ABORTED;
}
TP_PROG_DEFINE(burst_c_trim, c_trim)

static void
run_burst(tp_prog_burst_fn fn, void *priv, struct rte_mbuf **m, uint8_t *v)
{
	const struct tp_prog_env env = { .priv = priv, .port = 0, .queue = 0 };
	uint32_t k[NF];

	fn(&env, m, NF, v, k);
}

static void
expect_pcap(const char *pcap, struct rte_mbuf **m)
{
	uint8_t **ef;
	uint32_t *el;

	assert_int_equal(tp_test_pcap_read(tp_test_build_path(pcap), &ef, &el, NULL), NF);
	for (unsigned int i = 0; i < NF; i++)
		tp_test_assert_mbuf_bytes(m[i], ef[i], el[i]);
	tp_test_pcap_free(ef, el, NF);
}

static struct tp_prog *
open_adjust(const char *sel)
{
	char spec[600], err[256] = "";
	struct tp_prog *p = NULL;

	snprintf(spec, sizeof(spec), "bpf-interp:%s:%s", obj("t_adjust.o"), sel);
	if (tp_prog_open(spec, &p, err, sizeof(err)) != 0)
		fail_msg("open %s: %s", spec, err);
	return p;
}

static void
same_as_object(tp_prog_burst_fn c_fn, const char *sel, const char *pcap)
{
	struct tp_prog *p = open_adjust(sel);
	struct rte_mbuf *mc[NF], *mb[NF];
	uint8_t vc[NF], vb[NF];

	for (unsigned int i = 0; i < NF; i++) {
		mc[i] = tp_test_mbuf_from_bytes(mp, in_f[i], in_l[i]);
		mb[i] = tp_test_mbuf_from_bytes(mp, in_f[i], in_l[i]);
	}
	run_burst(c_fn, NULL, mc, vc);
	run_burst(tp_prog_ops_of(p)->burst, tp_prog_priv(p), mb, vb);
	for (unsigned int i = 0; i < NF; i++)
		if (vc[i] != vb[i])
			fail_msg("%s frame %u: C verdict %u, object %u", sel, i,
				 vc[i], vb[i]);
	expect_pcap(pcap, mc);
	expect_pcap(pcap, mb);
	for (unsigned int i = 0; i < NF; i++) {
		rte_pktmbuf_free(mc[i]);
		rte_pktmbuf_free(mb[i]);
	}
	tp_prog_close(p);
}

static void
test_push_same(void **state)
{
	(void)state;
	same_as_object(burst_c_push, "xdp_vlan_push", "tests/bpf/push_out.pcap");
}

static void
test_pop_same(void **state)
{
	(void)state;
	same_as_object(burst_c_pop, "xdp_pop", "tests/bpf/pop_out.pcap");
}

static void
test_trim_same(void **state)
{
	(void)state;
	same_as_object(burst_c_trim, "prog_trim", "tests/bpf/trim_out.pcap");
}

/* A merged packet (RX_LRO, l2_len 14): the object's adjust_head push
 * moves l2_len to 18 as tp_xdp_vlan_push does; its adjust_tail trim is
 * refused (XDP_ABORTED) and the packet is left as it was. */
static void
test_merged_same(void **state)
{
	struct tp_prog *push = open_adjust("xdp_vlan_push");
	struct tp_prog *trim = open_adjust("prog_trim");
	struct rte_mbuf *m[NF];
	uint8_t v[NF];

	(void)state;
	for (unsigned int i = 0; i < NF; i++) {
		m[i] = tp_test_mbuf_from_bytes(mp, in_f[0], in_l[0]);
		m[i]->ol_flags |= RTE_MBUF_F_RX_LRO;
		m[i]->l2_len = 14;
	}
	run_burst(tp_prog_ops_of(trim)->burst, tp_prog_priv(trim), m, v);
	for (unsigned int i = 0; i < NF; i++) {
		assert_int_equal(v[i], XDP_ABORTED);
		tp_test_assert_mbuf_bytes(m[i], in_f[0], in_l[0]);
	}
	run_burst(tp_prog_ops_of(push)->burst, tp_prog_priv(push), m, v);
	for (unsigned int i = 0; i < NF; i++) {
		assert_int_equal(v[i], XDP_TX);
		assert_int_equal(m[i]->l2_len, 18);
		assert_int_equal(m[i]->pkt_len, in_l[0] + 4);
		rte_pktmbuf_free(m[i]);
	}
	tp_prog_close(push);
	tp_prog_close(trim);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_push_same),
		cmocka_unit_test(test_pop_same),
		cmocka_unit_test(test_trim_same),
		cmocka_unit_test(test_merged_same),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
