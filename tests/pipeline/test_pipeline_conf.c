/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Configuration: every bad value is refused with -EINVAL and a message
 * naming it; the option parsers; program registry; counters reset;
 * telemetry registration; max_burst and stage timing.
 */
#include <stdlib.h>

#include <rte_log.h>

#include "pl_test.h"

static struct rte_mempool *mp;

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	if (mp == NULL)
		mp = tp_test_pool_create("plc", 64, 0);
	return 0;
}

struct conf_case {
	const char *name;
	void (*edit)(struct tp_pipeline_conf *c);
	const char *msg;   /* substring of the error */
};

static void
e_tagger(struct tp_pipeline_conf *c)
{
	snprintf(c->port[2].tagger, sizeof(c->port[2].tagger), "edsa2");
}

static void
e_tso_trailer(struct tp_pipeline_conf *c)
{
	snprintf(c->port[0].tagger, sizeof(c->port[0].tagger), "trailer");
	c->port[0].tx_caps = TP_PORT_TX_TSO;
}

static void
e_caps(struct tp_pipeline_conf *c)
{
	c->port[0].tx_caps = 0x80;
}

static void
e_tpid(struct tp_pipeline_conf *c)
{
	c->port[0].vlan_conf.tpid[0] = 0x05DC;
}

static void
e_age(struct tp_pipeline_conf *c)
{
	c->gro.mode = TP_GRO_AGE;
	c->gro.age_usec = 0;
}

static void
e_flows(struct tp_pipeline_conf *c)
{
	c->gro.max_flows = 70000;
}

static void
e_segs(struct tp_pipeline_conf *c)
{
	c->gro.max_segs = 1;
}

static void
e_prog(struct tp_pipeline_conf *c)
{
	c->prog_spec = "nope";
}

static void
e_redirect_key(struct tp_pipeline_conf *c)
{
	c->prog_spec = "redirect:abc";
}

static void
e_redirect_key_range(struct tp_pipeline_conf *c)
{
	c->prog_spec = "redirect:65536";
}

static void
e_pass_arg(struct tp_pipeline_conf *c)
{
	c->prog_spec = "pass:1";
}

static void
e_acl_nofile(struct tp_pipeline_conf *c)
{
	c->prog_spec = "acl";
}

static void
e_hook(struct tp_pipeline_conf *c)
{
	c->hook = (enum tp_verdict_hook)7;
}

static void
e_vlan_policy(struct tp_pipeline_conf *c)
{
	c->port[0].vlan = (enum tp_vlan_policy)9;
}

static void
e_max_burst(struct tp_pipeline_conf *c)
{
	c->max_burst = TP_PIPELINE_MAX_BURST + 1;
}

static const struct conf_case cases[] = {
	{ "max_burst", e_max_burst, "max_burst: bad value 257 (0..256)" },
	{ "tagger", e_tagger, "port 2: unknown tagger 'edsa2' (known: " },
	{ "tso+trailer", e_tso_trailer, "port 0: TSO with tail tagger 'trailer'" },
	{ "caps", e_caps, "port 0: bad tx_caps 0x80" },
	{ "tpid", e_tpid, "port 0: bad TPID 0x05dc" },
	{ "age", e_age, "gro: bad age_usec 0 (1..1000000)" },
	{ "flows", e_flows, "gro: bad max_flows 70000" },
	{ "segs", e_segs, "gro: bad max_segs 1" },
	{ "prog", e_prog, "program: unknown program 'nope' (known: acl, bpf, bpf-interp, by-switch-port, drop, pass" },
	{ "redirect key", e_redirect_key, "program redirect: bad map key 'abc' (0..65535)" },
	{ "redirect key range", e_redirect_key_range,
	  "program redirect: bad map key '65536' (0..65535)" },
	{ "pass arg", e_pass_arg, "program: 'pass' takes no argument (got '1')" },
	{ "acl no file", e_acl_nofile, "program acl: needs a rules file (acl:FILE)" },
	{ "hook", e_hook, "hook: bad value 7" },
	{ "vlan policy", e_vlan_policy, "port 0: bad VLAN policy 9" },
};

static void
test_bad_conf(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < RTE_DIM(cases); i++) {
		struct tp_pipeline_conf c;
		struct tp_pipeline *pl = NULL;
		char err[512] = "";

		tp_pipeline_conf_init(&c);
		c.port[0].enabled = true;
		c.port[2].enabled = true;
		cases[i].edit(&c);
		assert_int_equal(tp_pipeline_create(&c, &pl, err, sizeof(err)), -EINVAL);
		if (strstr(err, cases[i].msg) == NULL)
			fail_msg("%s: got '%s', want '%s'", cases[i].name, err, cases[i].msg);
		assert_null(pl);
	}
}

static void
test_parsers(void **state)
{
	struct tp_pipeline_gro g = { 0 };
	struct tp_pipeline_conf c;
	char err[256];

	(void)state;
	assert_int_equal(tp_pipeline_parse_gro(&g, "age:500,flows=64,segs=8,nocsum",
					       err, sizeof(err)), 0);
	assert_int_equal(g.mode, TP_GRO_AGE);
	assert_int_equal(g.age_usec, 500);
	assert_int_equal(g.max_flows, 64);
	assert_int_equal(g.max_segs, 8);
	assert_true(g.no_sw_csum);
	assert_false(g.kernel_order);
	assert_int_equal(tp_pipeline_parse_gro(&g, "burst,kernel-order", err, sizeof(err)), 0);
	assert_int_equal(g.mode, TP_GRO_BURST);
	assert_true(g.kernel_order);
	assert_int_equal(tp_pipeline_parse_gro(&g, "off", err, sizeof(err)), 0);
	assert_int_equal(g.mode, TP_GRO_OFF);
	assert_int_equal(tp_pipeline_parse_gro(&g, "age:0", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "gro: bad mode 'age:0' (off, burst, age:USEC with USEC 1..1000000)");
	assert_int_equal(tp_pipeline_parse_gro(&g, "burst,flows=70000", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "gro: bad flows '70000' (1..65535)");
	assert_int_equal(tp_pipeline_parse_gro(&g, "burst,fast", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "gro: bad option 'fast' (flows=N, segs=N, nocsum, kernel-order, "
			    "udp, vxlan, vxlan=PORT[+PORT], geneve, ipip)");
	assert_int_equal(g.mode, TP_GRO_OFF); /* unchanged on error */

	/* beyond plain TCP: the same choices as --gro-tunnels / --gro-udp */
	assert_int_equal(g.tunnels, 0);
	assert_false(g.udp);
	assert_int_equal(tp_pipeline_parse_gro(&g, "burst,vxlan=4789+8472,geneve,udp", err,
					       sizeof(err)), 0);
	assert_int_equal(g.tunnels, TP_GRO_TUN_VXLAN | TP_GRO_TUN_GENEVE);
	assert_true(g.udp);
	assert_int_equal(g.vxlan_ports[0], 4789);
	assert_int_equal(g.vxlan_ports[1], 8472);
	assert_int_equal(g.vxlan_ports[2], 0);
	assert_int_equal(tp_pipeline_parse_gro(&g, "age:20,ipip,vxlan", err, sizeof(err)), 0);
	assert_int_equal(g.tunnels, TP_GRO_TUN_ALL);
	assert_int_equal(g.vxlan_ports[0], 4789);   /* kept */
	{
		static const char *const bad[] = {
			"vxlan=", "vxlan=0", "vxlan=65536", "vxlan=1+2+3+4+5", "vxlan=+4789",
			"vxlan=4789+", "vxlan=4789++8472", "vxlan=47x9",
		};
		char in[64], want[160];

		for (unsigned int i = 0; i < RTE_DIM(bad); i++) {
			snprintf(in, sizeof(in), "burst,%s", bad[i]);
			snprintf(want, sizeof(want), "gro: bad VXLAN ports '%s' (1 to 4 ports "
				 "1..65535 joined by +)", bad[i] + 6);
			assert_int_equal(tp_pipeline_parse_gro(&g, in, err, sizeof(err)), -EINVAL);
			assert_string_equal(err, want);
		}
	}
	assert_int_equal(g.vxlan_ports[1], 8472);  /* unchanged on error */

	tp_pipeline_conf_init(&c);
	assert_int_equal(tp_pipeline_parse_vlan(&c.port[0], "keep", err, sizeof(err)), 0);
	assert_int_equal(c.port[0].vlan, TP_VLAN_POLICY_KEEP);
	assert_int_equal(tp_pipeline_parse_vlan(&c.port[0], "strip:8100,9100", err, sizeof(err)), 0);
	assert_int_equal(c.port[0].vlan, TP_VLAN_POLICY_STRIP);
	assert_int_equal(c.port[0].vlan_conf.n_tpid, 2);
	assert_int_equal(c.port[0].vlan_conf.tpid[1], 0x9100);
	assert_int_equal(tp_pipeline_parse_vlan(&c.port[0], "wrap", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "vlan: bad policy 'wrap' (strip, keep)");
	assert_int_equal(tp_pipeline_parse_vlan(&c.port[0], "strip:zz", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "vlan: bad TPID list 'zz'");
}

static inline enum tp_verdict
always_tx(void *priv, struct tp_xdp_md *ctx)
{
	(void)priv;
	(void)ctx;
	return TP_TX;
}
TP_PROG_DEFINE(always_tx_burst, always_tx)

static void
test_registry(void **state)
{
	static const struct tp_prog_ops bad_name = { .name = "Bad Name", .burst = always_tx_burst };
	static const struct tp_prog_ops dup = { .name = "pass", .burst = always_tx_burst };
	static const struct tp_prog_ops ok = { .name = "test-always-tx", .burst = always_tx_burst };
	char names[512];
	int n;

	(void)state;
	assert_int_equal(tp_prog_register(NULL), -EINVAL);
	assert_int_equal(tp_prog_register(&bad_name), -EINVAL);
	assert_int_equal(tp_prog_register(&dup), -EEXIST);
	assert_int_equal(tp_prog_register(&ok), 0);
	assert_ptr_equal(tp_prog_find("test-always-tx"), &ok);
	assert_null(tp_prog_find("test-never"));
	n = tp_prog_names(names, sizeof(names));
	assert_string_equal(names, "acl, bpf, bpf-interp, by-switch-port, drop, pass, "
			    "redirect, test-always-tx, tx");
	assert_int_equal(n, (int)strlen(names));
	/* snprintf semantics: the full length even when cut. */
	assert_int_equal(tp_prog_names(names, 4), n);
	assert_string_equal(names, "acl");
}

/* A program opened once and shared by two instances; reset of counters. */
static void
test_shared_prog_and_reset(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st, sum = { 0 };
	struct tp_pipeline *a = NULL, *b = NULL;
	struct tp_prog *prog = NULL;
	struct rte_mbuf *m[2];
	struct pl_spec s;
	char err[256];

	(void)state;
	assert_int_equal(tp_prog_open("drop", &prog, err, sizeof(err)), 0);
	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	c.prog = prog;
	c.prog_spec = "tx"; /* ignored: prog wins */
	c.name = "plc-a";
	assert_int_equal(tp_pipeline_create(&c, &a, err, sizeof(err)), 0);
	c.name = NULL;
	assert_int_equal(tp_pipeline_create(&c, &b, err, sizeof(err)), 0);
	assert_string_equal(tp_pipeline_name(a), "plc-a");
	assert_non_null(strstr(tp_pipeline_name(b), "pipeline"));
	pl_default_spec(&s);
	m[0] = pl_mbuf(mp, &s);
	assert_int_equal(tp_pipeline_rx_burst(a, 0, 0, m, 1), 0);
	m[0] = pl_mbuf(mp, &s);
	assert_int_equal(tp_pipeline_rx_burst(b, 0, 1, m, 1), 0);
	tp_pipeline_stats_get(a, &st);
	tp_pipeline_stats_add(&sum, &st);
	tp_pipeline_stats_get(b, &st);
	assert_int_equal(st.port[0].rx_queue[1], 1);
	tp_pipeline_stats_add(&sum, &st);
	assert_int_equal(sum.rx, 2);
	assert_int_equal(sum.drop_reason[TP_DROP_VERDICT], 2);
	tp_pipeline_stats_reset(a);
	tp_pipeline_stats_get(a, &st);
	assert_int_equal(st.rx, 0);
	assert_int_equal(st.drop, 0);
	pl_assert_conservation(a);
	assert_int_equal(tp_telemetry_register(), 0);
	assert_int_equal(tp_telemetry_register(), 0);
	tp_pipeline_destroy(a);
	tp_pipeline_destroy(b);
	tp_prog_close(prog);
	assert_int_equal(tp_pipeline_stats_get(NULL, &st), -EINVAL);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* conf.max_burst: a larger burst runs in parts of at most max_burst, every
 * frame PASS in order, none dropped; conf.stage_cycles: cycles stay 0
 * without it, every stage is still counted. */
static void
test_max_burst_and_timing(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct rte_mbuf *m[12], *sent[6];
	struct pl_spec s;
	uint16_t r;

	(void)state;
	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	c.gro.mode = TP_GRO_OFF;
	c.max_burst = 4;
	pl = pl_make(&c);
	pl_default_spec(&s);
	for (int i = 0; i < 6; i++) {
		s.sport = (uint16_t)(1000 + i);
		m[i] = sent[i] = pl_mbuf(mp, &s);
	}
	r = tp_pipeline_rx_burst(pl, 0, 0, m, 6);
	assert_int_equal(r, 6);
	for (int i = 0; i < 6; i++)
		assert_ptr_equal(m[i], sent[i]);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.rx, 6);
	assert_int_equal(st.pass, 6);
	assert_int_equal(st.drop, 0);
	assert_int_equal(st.stage[TP_STAGE_DSA].calls, 2);   /* 4, then 2 */
	assert_int_equal(st.stage[TP_STAGE_DSA].in, 6);
	assert_int_equal(st.stage[TP_STAGE_ACTIONS].in, 6);
	for (int k = 0; k < TP_STAGE_MAX; k++)
		assert_int_equal(st.stage[k].cycles, 0);
	pl_assert_conservation(pl);
	rte_pktmbuf_free_bulk(m, r);
	tp_pipeline_destroy(pl);

	c.stage_cycles = true;
	c.gro.mode = TP_GRO_BURST;
	pl = pl_make(&c);
	for (int i = 0; i < 4; i++) {
		s.sport = (uint16_t)(2000 + i);
		m[i] = pl_mbuf(mp, &s);
	}
	r = tp_pipeline_rx_burst(pl, 0, 0, m, 4);
	assert_int_equal(r, 4);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.pass, 4);
	assert_int_equal(st.stage[TP_STAGE_GRO].in, 4);
	assert_true(st.stage[TP_STAGE_DSA].cycles + st.stage[TP_STAGE_GRO].cycles > 0);
	rte_pktmbuf_free_bulk(m, r);
	tp_pipeline_destroy(pl);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* With pass_cb a burst above max_burst runs in place, in parts, every
 * frame shown to pass_cb once, in order (pkts has room for n only: an
 * overrun is what ASan would report); without one, a burst of more than
 * TP_PIPELINE_MAX_RX_FRAMES frames runs that many and counts the rest as
 * burst_too_large. */
static void
test_big_burst_pass_cb_and_limit(void **state)
{
	const unsigned int nbig = TP_PIPELINE_MAX_RX_FRAMES + 3;
	struct rte_mempool *big = tp_test_pool_create("plc_big", nbig + 64, 256);
	unsigned int start = tp_test_pool_in_use(big);
	struct rte_mbuf **m = calloc(2 * nbig, sizeof(*m)), *sent[10];
	static struct pl_cap cap;
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl;
	struct pl_spec s;
	uint16_t r;

	(void)state;
	assert_non_null(m);
	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	c.gro.mode = TP_GRO_OFF;
	c.max_burst = 4;
	c.pass_cb = pl_cap_pass;
	c.pass_arg = &cap;
	pl = pl_make(&c);
	pl_default_spec(&s);
	s.paylen = 10;
	for (int i = 0; i < 10; i++) {
		s.sport = (uint16_t)(3000 + i);
		sent[i] = pl_mbuf(big, &s);
	}
	memcpy(m, sent, sizeof(sent));
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 10), 0);
	assert_int_equal(cap.n, 10);
	assert_int_equal(cap.calls, 3);   /* 4 + 4 + 2 */
	for (int i = 0; i < 10; i++)
		assert_ptr_equal(cap.m[i], sent[i]);
	pl_cap_free(&cap);
	pl_assert_conservation(pl);
	tp_pipeline_destroy(pl);

	c.pass_cb = NULL;
	c.max_burst = 0;
	pl = pl_make(&c);
	for (unsigned int i = 0; i < nbig; i++) {
		s.sport = (uint16_t)(i & 0xffff);
		m[i] = pl_mbuf(big, &s);
	}
	r = tp_pipeline_rx_burst(pl, 0, 0, m, (uint16_t)nbig);
	assert_int_equal(r, TP_PIPELINE_MAX_RX_FRAMES);
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.rx, nbig);
	assert_int_equal(st.pass, TP_PIPELINE_MAX_RX_FRAMES);
	assert_int_equal(st.drop_reason[TP_DROP_BURST_TOO_LARGE], 3);
	assert_int_equal(st.drop, 3);
	for (unsigned int i = 0; i < r; i++)
		assert_int_equal(rte_be_to_cpu_16(*rte_pktmbuf_mtod_offset(m[i], uint16_t *, 34)),
				 i & 0xffff);
	pl_assert_conservation(pl);
	rte_pktmbuf_free_bulk(m, r);
	tp_pipeline_destroy(pl);
	free(m);
	TP_TEST_ASSERT_POOL_BACK(big, start);
	rte_mempool_free(big);
}

/* Each library logs through its own rte_log type: the message comes out
 * as before, and that type's level (not USER1's, not a plain stderr write)
 * decides whether it does. */
static void
log_dsa(void)
{
	tp_dsa_conf_check(tp_dsa_tagger_find("ocelot"), NULL);
}

static void
log_vlan(void)
{
	struct tp_vlan_conf c;

	tp_vlan_conf_init(&c);
	tp_vlan_conf_parse_tpids(&c, "8100,zz");
}

static void
log_gro(void)
{
	struct tp_gro_conf c = { .max_flows = 70000, .socket_id = SOCKET_ID_ANY };

	assert_null(tp_gro_create(&c));
}

static char *
captured(void (*fn)(void))
{
	FILE *prev = rte_log_get_stream();
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	rte_openlog_stream(mem);
	fn();
	rte_openlog_stream(prev);
	fclose(mem);
	return buf;
}

static void
test_log_types(void **state)
{
	static const struct {
		const char *type;
		void (*fn)(void);
		const char *msg;
	} cases[] = {
		{ "tagpipe.dsa", log_dsa,
		  "tp_dsa_tag: tagger 'ocelot' needs the CPU port number for TX\n" },
		{ "tagpipe.vlan", log_vlan, "tp_vlan: bad TPID 'zz' in '8100,zz'\n" },
		{ "tagpipe.gro", log_gro, "tp_gro: max_flows 70000 out of range 1..65535\n" },
	};

	(void)state;
	for (unsigned int i = 0; i < RTE_DIM(cases); i++) {
		/* Registering a known name again returns its id. */
		int id = rte_log_register(cases[i].type);
		int level = rte_log_get_level(id);
		char *txt;

		assert_true(id >= RTE_LOGTYPE_FIRST_EXT_ID);
		txt = captured(cases[i].fn);
		if (strcmp(txt, cases[i].msg) != 0)
			fail_msg("%s: got '%s', want '%s'", cases[i].type, txt, cases[i].msg);
		free(txt);
		rte_log_set_level(id, RTE_LOG_CRIT);
		rte_log_set_level(RTE_LOGTYPE_USER1, RTE_LOG_DEBUG);
		txt = captured(cases[i].fn);
		if (txt[0] != '\0')
			fail_msg("%s at CRIT still printed '%s'", cases[i].type, txt);
		free(txt);
		rte_log_set_level(id, (uint32_t)level);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_bad_conf, setup),
		cmocka_unit_test_setup(test_parsers, setup),
		cmocka_unit_test_setup(test_registry, setup),
		cmocka_unit_test_setup(test_shared_prog_and_reset, setup),
		cmocka_unit_test_setup(test_max_burst_and_timing, setup),
		cmocka_unit_test_setup(test_big_burst_pass_cb_and_limit, setup),
		cmocka_unit_test_setup(test_log_types, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
