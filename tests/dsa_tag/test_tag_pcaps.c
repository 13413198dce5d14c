/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generated captures (pcaps/tags/, written by tests/gen/gen_tags.py from
 * first principles) through lib/dsa_tag + lib/vlan directly:
 *   <t>.pcap --strip--> <t>.expected.pcap, meta = <t>.expected.jsonl
 *            --vlan--> <t>.expected-vlan-strip.pcap, TCIs = the JSONL
 *            --vlan insert--> <t>.expected.pcap again
 *   bad_<t>.pcap --> exactly the drop counts and kept frames of bad_<t>.json
 * mempool in-use back to start after each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp_test.h"
#include "tp_dsa_tag.h"
#include "tp_vlan.h"

static struct rte_mempool *mp;

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	assert_int_equal(tp_dsa_meta_register(), 0);
	mp = tp_test_pool_create("tagpcaps", 256, 0);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	rte_mempool_free(mp);
	return 0;
}

static char *
slurp(const char *rel)
{
	FILE *fp = fopen(tp_test_src_path(rel), "r");
	char *buf;
	long n;

	if (fp == NULL)
		fprintf(stderr, "cannot open %s\n", rel);
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	return buf;
}

/* Integer value of "key": in s, or -1 when it is null/absent. */
static long
json_int(const char *s, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(s, pat);
	if (p == NULL)
		return -1;
	p += strlen(pat);
	while (*p == ' ' || *p == '\n')
		p++;
	if (strncmp(p, "null", 4) == 0)
		return -1;
	return strtol(p, NULL, 10);
}

static void
load(const char *rel, uint8_t ***fr, uint32_t **ln, unsigned int *n)
{
	int lt;

	*n = tp_test_pcap_read(tp_test_src_path(rel), fr, ln, &lt);
	assert_int_equal(lt, 1);
}

static void
check_tagger(const char *name)
{
	const struct tp_dsa_tagger *t = tp_dsa_tagger_find(name);
	unsigned int start = tp_test_pool_in_use(mp);
	uint8_t **in, **ex, **vx;
	uint32_t *inl, *exl, *vxl;
	unsigned int n, n2, n3, i;
	struct rte_mbuf *m[64];
	struct tp_dsa_stats st = { 0 };
	struct tp_vlan_stats vs = { 0 };
	char path[256], *jsonl, *line;

	assert_non_null(t);
	snprintf(path, sizeof(path), "pcaps/tags/%s.pcap", name);
	load(path, &in, &inl, &n);
	snprintf(path, sizeof(path), "pcaps/tags/%s.expected.pcap", name);
	load(path, &ex, &exl, &n2);
	snprintf(path, sizeof(path), "pcaps/tags/%s.expected-vlan-strip.pcap", name);
	load(path, &vx, &vxl, &n3);
	snprintf(path, sizeof(path), "pcaps/tags/%s.expected.jsonl", name);
	jsonl = slurp(path);
	assert_int_equal(n, n2);
	assert_int_equal(n, n3);
	assert_true(n > 0 && n <= 64);
	for (i = 0; i < n; i++)
		m[i] = tp_test_mbuf_from_bytes(mp, in[i], inl[i]);
	assert_int_equal(tp_dsa_strip_burst(t, m, (uint16_t)n, NULL, NULL, &st), n);
	line = jsonl;
	for (i = 0; i < n; i++) {
		char *nl = strchr(line, '\n');

		assert_non_null(nl);
		*nl = '\0';
		assert_int_equal(json_int(line, "index"), i);
		tp_test_assert_mbuf_bytes(m[i], ex[i], exl[i]);
		assert_int_equal(tp_dsa_meta(m[i])->flags & TP_DSA_META_F_VALID, TP_DSA_META_F_VALID);
		assert_int_equal(tp_dsa_meta(m[i])->port, json_int(line, "switch_port"));
		assert_int_equal(tp_dsa_meta(m[i])->device, json_int(line, "switch_device"));
		*nl = '\n';
		line = nl + 1;
	}
	assert_int_equal(tp_vlan_strip_burst(NULL, m, (uint16_t)n, NULL, &vs), n);
	line = jsonl;
	for (i = 0; i < n; i++) {
		char *nl = strchr(line, '\n');
		long tci, otci;

		*nl = '\0';
		tci = json_int(line, "vlan_tci");
		otci = json_int(line, "vlan_tci_outer");
		tp_test_assert_mbuf_bytes(m[i], vx[i], vxl[i]);
		if (tci < 0) {
			assert_int_equal(m[i]->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED, 0);
		} else {
			assert_int_equal(m[i]->vlan_tci, tci);
			assert_int_equal(m[i]->vlan_tci & 0xFFF, json_int(line, "vlan"));
		}
		if (otci < 0) {
			assert_int_equal(m[i]->ol_flags & RTE_MBUF_F_RX_QINQ_STRIPPED, 0);
		} else {
			assert_int_equal(m[i]->vlan_tci_outer, otci);
			assert_int_equal(m[i]->vlan_tci_outer & 0xFFF, json_int(line, "vlan_outer"));
		}
		line = nl + 1;
	}
	/* Egress: VLAN insert (default TPIDs 88a8 outer, 8100 inner) gives the
	 * frames with their VLAN tags back, byte for byte. */
	assert_int_equal(tp_vlan_insert_burst(NULL, m, (uint16_t)n, NULL, &vs), n);
	for (i = 0; i < n; i++)
		tp_test_assert_mbuf_bytes(m[i], ex[i], exl[i]);
	rte_pktmbuf_free_bulk(m, n);
	free(jsonl);
	tp_test_pcap_free(in, inl, n);
	tp_test_pcap_free(ex, exl, n);
	tp_test_pcap_free(vx, vxl, n);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* bad_<name>.pcap: kept indexes and per-reason drop counts of the JSON. */
static void
check_bad(const char *name)
{
	unsigned int start = tp_test_pool_in_use(mp);
	const struct tp_dsa_tagger *t;
	struct tp_dsa_stats st = { 0 };
	struct tp_vlan_stats vs = { 0 };
	struct rte_mbuf *m[64], *orig[64];
	uint8_t **in;
	uint32_t *inl;
	unsigned int n, i, k, r;
	char path[256], *js, *kept;
	int vlan;

	snprintf(path, sizeof(path), "pcaps/tags/bad_%s.json", name);
	js = slurp(path);
	vlan = strstr(js, "\"vlan_drops\"") != NULL;
	t = tp_dsa_tagger_find(vlan ? "none" : name);
	assert_non_null(t);
	snprintf(path, sizeof(path), "pcaps/tags/bad_%s.pcap", name);
	load(path, &in, &inl, &n);
	assert_int_equal(json_int(js, "frames"), n);
	for (i = 0; i < n; i++)
		m[i] = orig[i] = tp_test_mbuf_from_bytes(mp, in[i], inl[i]);
	k = tp_dsa_strip_burst(t, m, (uint16_t)n, NULL, NULL, &st);
	if (vlan)
		k = tp_vlan_strip_burst(NULL, m, (uint16_t)k, NULL, &vs);
	assert_int_equal(k, json_int(js, "kept"));
	/* kept_index lists the surviving frames in order */
	kept = strstr(js, "\"kept_index\"");
	assert_non_null(kept);
	kept = strchr(kept, '[') + 1;
	for (i = 0; i < k; i++) {
		long idx = strtol(kept, &kept, 10);

		assert_ptr_equal(m[i], orig[idx]);
		kept = strpbrk(kept, ",]") + 1;
	}
	if (vlan) {
		for (r = 0; r < TP_VLAN_DROP_MAX; r++) {
			long want = json_int(js, tp_vlan_drop_name(r));

			assert_int_equal(vs.drop[r], want < 0 ? 0 : want);
		}
	} else {
		for (r = 0; r < TP_DSA_DROP_MAX; r++) {
			long want = json_int(js, tp_dsa_drop_name(r));

			if (want < 0)
				want = 0;
			if (st.drop[r] != (uint64_t)want)
				fprintf(stderr, "%s: %s %lu, expected %ld\n", name,
					tp_dsa_drop_name(r), (unsigned long)st.drop[r], want);
			assert_int_equal(st.drop[r], want);
		}
	}
	rte_pktmbuf_free_bulk(m, k);
	free(js);
	tp_test_pcap_free(in, inl, n);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

static const char *const taggers[] = {
	"a5psw", "ar9331", "brcm", "brcm-prepend", "dsa", "edsa", "ksz9477", "mtk",
	"ocelot", "qca", "rtl8_4", "sja1105", "trailer",
};
static const char *const bads[] = {
	"dsa", "edsa", "brcm", "brcm-prepend", "qca", "trailer", "ar9331", "rtl8_4",
	"a5psw", "sja1105", "mtk", "ksz9477", "ocelot", "vlan",
};

static void
test_generated(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(taggers) / sizeof(taggers[0]); i++) {
		fprintf(stderr, "generated: %s\n", taggers[i]);
		check_tagger(taggers[i]);
	}
}

static void
test_bad(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		fprintf(stderr, "bad: %s\n", bads[i]);
		check_bad(bads[i]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
