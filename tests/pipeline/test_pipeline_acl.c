/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The acl program: rule-file errors (line number, field and value named),
 * first-match classification of IPv4/IPv6/non-IP frames, and the program
 * inside a pipeline.
 */
#include <stdlib.h>
#include <unistd.h>

#include "pl_test.h"

static struct rte_mempool *mp;

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	if (mp == NULL)
		mp = tp_test_pool_create("pla", 256, 0);
	return 0;
}

/* Write text to a fresh temp file; path into buf. */
static void
rules_file(char *buf, size_t len, const char *text)
{
	int fd;

	snprintf(buf, len, "/tmp/tp_acl_XXXXXX");
	fd = mkstemp(buf);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

struct bad_case {
	const char *text;
	const char *msg;   /* expected after "PATH:" */
};

static const struct bad_case bad[] = {
	{ "drop tcpx any any any any\n", "1: bad protocol 'tcpx'" },
	{ "pass tcp 10.0.0.0/33 any any any\n", "1: bad source address '10.0.0.0/33'" },
	{ "\n# comment\ndrop tcp any 300.1.1.1 any any\n",
	  "3: bad destination address '300.1.1.1'" },
	{ "drop udp any any 80-70 any\n", "1: bad source port '80-70'" },
	{ "drop udp any any any 70000\n", "1: bad destination port '70000'" },
	{ "redirect:x any any any any any\n", "1: bad verdict 'redirect:x'" },
	{ "drop 256 any any any any\n", "1: bad protocol '256'" },
	{ "pass tcp any any any\n", "1: bad field count: 5 fields "
	  "(want VERDICT PROTO SRC DST SPORT DPORT)" },
	{ "pass tcp any any any any extra\n", "1: bad field count: unexpected 'extra' "
	  "(want VERDICT PROTO SRC DST SPORT DPORT)" },
	{ "default drop\ndefault pass\n", "2: bad default: second 'default' line" },
	{ "default nope\n", "1: bad verdict 'nope' (pass, drop, tx, aborted, redirect:N with N 0..65535)" },
	{ "redirect:65536 any any any any any\n", "1: bad verdict 'redirect:65536'" },
	{ "drop tcp 10.0.0.1 2001:db8::1 any any\n",
	  "1: bad destination address (family differs from the source) '2001:db8::1'" },
};

static void
test_parse_errors(void **state)
{
	char path[64], err[256], want[320];
	struct tp_acl *a = NULL;

	(void)state;
	for (unsigned int i = 0; i < RTE_DIM(bad); i++) {
		rules_file(path, sizeof(path), bad[i].text);
		err[0] = '\0';
		assert_int_equal(tp_acl_load(path, &a, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "%s:%s", path, bad[i].msg);
		assert_string_equal(err, want);
		unlink(path);
	}
	assert_int_equal(tp_acl_load("/nonexistent/rules", &a, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "acl: cannot open '/nonexistent/rules': "
			    "No such file or directory");
}

static const char rules[] =
	"# tagpipe acl test rules\n"
	"drop tcp 192.0.2.0/24 any any 22      # ssh from the test net\n"
	"redirect:3 udp any 198.51.100.7 any 53\n"
	"tx tcp any any 1000-2000 any\n"
	"pass icmp any any any any\n"
	"aborted any 2001:db8::/32 any any any\n"
	"\n"
	"default drop\n";

/* IPv6/UDP frame from src (16 bytes) to ::1. */
static struct rte_mbuf *
v6_frame(const uint8_t *src)
{
	uint8_t b[14 + 40 + 8] = {
		0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x86, 0xdd,
		0x60, 0, 0, 0, 0, 8, 17, 64,
	};

	memcpy(b + 22, src, 16);
	b[14 + 40 - 1] = 1;
	b[54] = 0x13; b[55] = 0x88; b[56] = 0x00; b[57] = 0x35; b[59] = 8;
	return tp_test_mbuf_from_bytes(mp, b, sizeof(b));
}

static void
test_classify(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	const uint8_t in_db8[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9 };
	const uint8_t out_db8[16] = { 0x20, 0x01, 0x0d, 0xb9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9 };
	const uint8_t arp[60] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 2, 0x08, 0x06 };
	char path[64], err[256] = "";
	struct tp_acl *a = NULL;
	struct rte_mbuf *m;
	struct pl_spec s;
	uint32_t key;
	int rule;

	(void)state;
	rules_file(path, sizeof(path), rules);
	assert_int_equal(tp_acl_load(path, &a, err, sizeof(err)), 0);
	assert_int_equal(tp_acl_rules(a), 5);

	/* ssh from 192.0.2.2 -> rule 0 drop */
	pl_default_spec(&s);
	s.dport = 22;
	m = pl_mbuf(mp, &s);
	assert_int_equal(tp_acl_classify(a, m, &key, &rule), TP_DROP);
	assert_int_equal(rule, 0);
	rte_pktmbuf_free(m);
	/* ssh from 192.0.3.2: not the /24 -> default */
	s.sip = 0xC0000302;
	m = pl_mbuf(mp, &s);
	assert_int_equal(tp_acl_classify(a, m, &key, &rule), TP_DROP);
	assert_int_equal(rule, -1);
	rte_pktmbuf_free(m);
	/* sport 1500 -> rule 2 tx (ports range inclusive) */
	pl_default_spec(&s);
	s.sport = 2000;
	m = pl_mbuf(mp, &s);
	assert_int_equal(tp_acl_classify(a, m, &key, &rule), TP_TX);
	assert_int_equal(rule, 2);
	rte_pktmbuf_free(m);
	/* udp to 198.51.100.7:53 -> redirect key 3 */
	pl_default_spec(&s);
	s.proto = 17;
	s.dip = 0xC6336407;
	s.dport = 53;
	m = pl_mbuf(mp, &s);
	assert_int_equal(tp_acl_classify(a, m, &key, &rule), TP_REDIRECT);
	assert_int_equal(key, 3);
	assert_int_equal(rule, 1);
	rte_pktmbuf_free(m);
	/* udp to :54 -> default */
	s.dport = 54;
	m = pl_mbuf(mp, &s);
	assert_int_equal(tp_acl_classify(a, m, &key, &rule), TP_DROP);
	assert_int_equal(rule, -1);
	rte_pktmbuf_free(m);
	/* ICMP (protocol 1) -> rule 3 pass, ports not looked at */
	s.proto = 1;
	m = pl_mbuf(mp, &s);
	assert_int_equal(tp_acl_classify(a, m, &key, &rule), TP_PASS);
	assert_int_equal(rule, 3);
	rte_pktmbuf_free(m);
	/* IPv6 from 2001:db8::9 -> rule 4 aborted; 2001:db9::9 -> default */
	m = v6_frame(in_db8);
	assert_int_equal(tp_acl_classify(a, m, &key, &rule), TP_ABORTED);
	assert_int_equal(rule, 4);
	rte_pktmbuf_free(m);
	m = v6_frame(out_db8);
	assert_int_equal(tp_acl_classify(a, m, &key, &rule), TP_DROP);
	assert_int_equal(rule, -1);
	rte_pktmbuf_free(m);
	/* ARP: no IP, no rule with all "any" -> default */
	m = tp_test_mbuf_from_bytes(mp, arp, sizeof(arp));
	assert_int_equal(tp_acl_classify(a, m, &key, &rule), TP_DROP);
	assert_int_equal(rule, -1);
	rte_pktmbuf_free(m);
	/* A frame cut inside the IP header: default, no read past the end. */
	pl_default_spec(&s);
	s.dport = 22;
	{
		uint8_t b[PL_MAX_FRAME];

		pl_build(b, &s);
		m = tp_test_mbuf_from_bytes(mp, b, 14 + 10);
	}
	assert_int_equal(tp_acl_classify(a, m, &key, &rule), TP_DROP);
	assert_int_equal(rule, -1);
	rte_pktmbuf_free(m);
	tp_acl_free(a);
	unlink(path);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* In a pipeline ("acl:FILE"): ssh dropped, the rest passes by default. */
static void
test_acl_pipeline(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_pipeline_conf c;
	struct tp_pipeline_stats st;
	struct tp_pipeline *pl = NULL;
	struct rte_mbuf *m[8];
	char path[64], spec[80], err[256] = "";
	uint16_t r;

	(void)state;
	rules_file(path, sizeof(path), "drop tcp any any any 22\n");
	snprintf(spec, sizeof(spec), "acl:%s", path);
	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	c.gro.mode = TP_GRO_OFF;
	c.prog_spec = spec;
	assert_int_equal(tp_pipeline_create(&c, &pl, err, sizeof(err)), 0);
	for (unsigned int i = 0; i < 6; i++) {
		struct pl_spec s;

		pl_default_spec(&s);
		s.dport = (uint16_t)(i % 2 ? 22 : 80);
		s.sport = (uint16_t)(3000 + i);
		m[i] = pl_mbuf(mp, &s);
	}
	r = tp_pipeline_rx_burst(pl, 0, 0, m, 6);
	assert_int_equal(r, 3);
	for (unsigned int i = 0; i < r; i++) {
		struct pl_spec s;

		pl_default_spec(&s);
		s.sport = (uint16_t)(3000 + 2 * i);
		pl_assert_frame(m[i], &s);
		rte_pktmbuf_free(m[i]);
	}
	tp_pipeline_stats_get(pl, &st);
	assert_int_equal(st.drop_reason[TP_DROP_VERDICT], 3);
	assert_int_equal(st.pass, 3);
	pl_assert_conservation(pl);
	tp_pipeline_destroy(pl);
	unlink(path);

	/* A bad file makes create fail with the file's message. */
	rules_file(path, sizeof(path), "pass tcp any any any 99999\n");
	snprintf(spec, sizeof(spec), "acl:%s", path);
	c.prog_spec = spec;
	assert_int_equal(tp_pipeline_create(&c, &pl, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":1: bad destination port '99999'"));
	unlink(path);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_parse_errors, setup),
		cmocka_unit_test_setup(test_classify, setup),
		cmocka_unit_test_setup(test_acl_pipeline, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
