/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generated captures of pcaps/pipeline (tests/gen/gen_pipeline.py)
 * through the pipeline, compared with the expected captures the script
 * built independently: by-switch-port over four edsa switch ports (GRO
 * merges, egress re-segments and re-tags), tx with GRO off, and the acl
 * program's kept and dropped frames.
 */
#include "pl_test.h"

static struct rte_mempool *mp;

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	if (mp == NULL)
		mp = tp_test_pool_create("plp", 512, 0);
	return 0;
}

struct capfile {
	uint8_t **f;
	uint32_t *len;
	unsigned int n;
};

static void
load(struct capfile *c, const char *rel)
{
	c->n = tp_test_pcap_read(tp_test_src_path(rel), &c->f, &c->len, NULL);
}

static void
unload(struct capfile *c)
{
	tp_test_pcap_free(c->f, c->len, c->n);
}

/* Run the input through pl in bursts of `burst`; returns PASS packets in
 * pass[] (room 2n). */
static unsigned int
run(struct tp_pipeline *pl, const struct capfile *in, unsigned int burst,
    struct rte_mbuf **pass)
{
	unsigned int np = 0;

	for (unsigned int at = 0; at < in->n; at += burst) {
		struct rte_mbuf *m[2 * 64];
		unsigned int k = RTE_MIN(burst, in->n - at);

		for (unsigned int i = 0; i < k; i++)
			m[i] = tp_test_mbuf_from_bytes(mp, in->f[at + i], in->len[at + i]);
		k = tp_pipeline_rx_burst(pl, 0, 0, m, (uint16_t)k);
		memcpy(pass + np, m, k * sizeof(*m));
		np += k;
	}
	return np;
}

static void
expect(struct rte_mbuf *const *got, unsigned int n, const char *rel)
{
	struct capfile want;

	load(&want, rel);
	assert_int_equal(n, want.n);
	for (unsigned int i = 0; i < n; i++)
		tp_test_assert_mbuf_bytes(got[i], want.f[i], want.len[i]);
	unload(&want);
}

static void
test_by_switch_port(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	static const unsigned int bursts[] = { 32, 5, 1 };
	struct tp_redirect_map *rm = tp_redirect_map_create(4);
	struct capfile in;

	(void)state;
	load(&in, "pcaps/pipeline/edsa_4ports.pcap");
	for (uint16_t p = 0; p < 4; p++)
		assert_int_equal(tp_redirect_map_set_port(rm, p, 0, p, -1), 0);
	for (unsigned int b = 0; b < RTE_DIM(bursts); b++) {
		struct pl_cap cap = { .n = 0 };
		struct tp_pipeline_conf c;
		struct tp_pipeline_stats st;
		struct tp_pipeline *pl = NULL;
		struct rte_mbuf *pass[64], *byq[4][16];
		unsigned int nq[4] = { 0 };
		char err[256];

		tp_pipeline_conf_init(&c);
		c.port[0].enabled = true;
		snprintf(c.port[0].tagger, sizeof(c.port[0].tagger), "edsa");
		c.prog_spec = "by-switch-port";
		c.redirect = rm;
		c.egress_cb = pl_cap_egress;
		c.egress_arg = &cap;
		assert_int_equal(tp_pipeline_create(&c, &pl, err, sizeof(err)), 0);
		assert_int_equal(run(pl, &in, bursts[b], pass), 0);
		for (unsigned int i = 0; i < cap.n; i++) {
			assert_true(cap.queue[i] < 4);
			byq[cap.queue[i]][nq[cap.queue[i]]++] = cap.m[i];
		}
		expect(byq[0], nq[0], "pcaps/pipeline/edsa_4ports_redirect_0.pcap");
		expect(byq[1], nq[1], "pcaps/pipeline/edsa_4ports_redirect_1.pcap");
		expect(byq[2], nq[2], "pcaps/pipeline/edsa_4ports_redirect_2.pcap");
		expect(byq[3], nq[3], "pcaps/pipeline/edsa_4ports_redirect_3.pcap");
		tp_pipeline_stats_get(pl, &st);
		assert_int_equal(st.rx, 16);
		assert_int_equal(st.redirect, 16);
		/* Burst 32: the four flows merge to 4 packets; burst 5 cuts
		 * them to 4 + 4 + 4 + 1 packets; burst 1: no merging. */
		assert_int_equal(st.verdict_pkts[TP_REDIRECT],
				 bursts[b] == 32 ? 4 : bursts[b] == 5 ? 13 : 16);
		pl_assert_conservation(pl);
		pl_cap_free(&cap);
		tp_pipeline_destroy(pl);
	}
	unload(&in);
	tp_redirect_map_free(rm);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

static void
test_tx_gro_off(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct pl_cap cap = { .n = 0 };
	struct tp_pipeline_conf c;
	struct tp_pipeline *pl = NULL;
	struct rte_mbuf *pass[64];
	struct capfile in;
	char err[256];

	(void)state;
	load(&in, "pcaps/pipeline/edsa_4ports.pcap");
	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	snprintf(c.port[0].tagger, sizeof(c.port[0].tagger), "edsa");
	c.gro.mode = TP_GRO_OFF;
	c.prog_spec = "tx";
	c.egress_cb = pl_cap_egress;
	c.egress_arg = &cap;
	assert_int_equal(tp_pipeline_create(&c, &pl, err, sizeof(err)), 0);
	assert_int_equal(run(pl, &in, 32, pass), 0);
	expect(cap.m, cap.n, "pcaps/pipeline/edsa_4ports_tx.pcap");
	pl_assert_conservation(pl);
	pl_cap_free(&cap);
	tp_pipeline_destroy(pl);
	unload(&in);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

static struct rte_mbuf *dropped[64];
static unsigned int ndropped;

/* Keep a copy of what is dropped (the pipeline frees the originals). */
static void
copy_drops(void *arg, enum tp_verdict v, struct rte_mbuf *const *pkts, uint16_t n)
{
	(void)arg;
	(void)v;
	for (uint16_t i = 0; i < n; i++)
		dropped[ndropped++] = rte_pktmbuf_copy(pkts[i], mp, 0, UINT32_MAX);
}

static void
test_acl(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl = NULL;
	struct rte_mbuf *pass[64];
	struct capfile in;
	char spec[512], err[256];
	unsigned int np;

	(void)state;
	load(&in, "pcaps/pipeline/acl_input.pcap");
	snprintf(spec, sizeof(spec), "acl:%s",
		 tp_test_src_path("pcaps/pipeline/acl_rules.txt"));
	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	c.gro.mode = TP_GRO_OFF;
	c.prog_spec = spec;
	c.drop_cb = copy_drops;
	assert_int_equal(tp_pipeline_create(&c, &pl, err, sizeof(err)), 0);
	ndropped = 0;
	np = run(pl, &in, 32, pass);
	expect(pass, np, "pcaps/pipeline/acl_expected_pass.pcap");
	expect(dropped, ndropped, "pcaps/pipeline/acl_expected_drop.pcap");
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.drop_reason[TP_DROP_VERDICT], ndropped);
	pl_assert_conservation(pl);
	rte_pktmbuf_free_bulk(pass, np);
	rte_pktmbuf_free_bulk(dropped, ndropped);
	tp_pipeline_destroy(pl);
	unload(&in);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_by_switch_port, setup),
		cmocka_unit_test_setup(test_tx_gro_off, setup),
		cmocka_unit_test_setup(test_acl, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
