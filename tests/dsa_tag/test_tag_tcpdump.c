/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tcpdump captures (pcaps/tags/tcpdump/, copied from tcpdump's tests/)
 * against the facts tcpdump's own expected outputs print (the -e .out files,
 * parsed here line by line):
 *   - switch-to-CPU frames ("Forward", "EG"): RX strip gives the printed
 *     port, device, VID, FPri/TC and frame type, and the frame minus its tag;
 *   - CPU-to-switch frames ("From CPU", "IG"): RX strip drops them as the
 *     kernel does ("bad_type"); the switch-side decode gives the printed
 *     fields, and inserting a tag with those fields into the decoded frame
 *     rebuilds the captured bytes exactly (padding included).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp_test.h"
#include "tp_dsa_tag.h"

static struct rte_mempool *mp;

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	assert_int_equal(tp_dsa_meta_register(), 0);
	mp = tp_test_pool_create("tcpdump", 256, 0);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	rte_mempool_free(mp);
	return 0;
}

/* One decoded line of a .out file. */
struct fact {
	int to_cpu;          /* 1: Forward / EG (RX); 0: From CPU / IG (TX) */
	unsigned int dev, port, vid, prio;
};

/* Parse "Marvell [E]DSA ... mode Forward, dev D, port P, untagged, VID V, FPri F"
 * or "mode From CPU, target dev D, port P, untagged, VID V, FPri F". */
static int
parse_dsa(const char *line, struct fact *f)
{
	const char *p = strstr(line, " mode ");
	char tagged[16];

	if (p == NULL)
		return -1;
	p += 6;
	if (strncmp(p, "Forward, ", 9) == 0) {
		f->to_cpu = 1;
		return sscanf(p, "Forward, dev %u, port %u, %15[a-z], VID %u, FPri %u",
			      &f->dev, &f->port, tagged, &f->vid, &f->prio) == 5 ? 0 : -1;
	}
	if (strncmp(p, "From CPU, ", 10) == 0) {
		f->to_cpu = 0;
		return sscanf(p, "From CPU, target dev %u, port %u, %15[a-z], VID %u, FPri %u",
			      &f->dev, &f->port, tagged, &f->vid, &f->prio) == 5 ? 0 : -1;
	}
	return -1;
}

/* "BRCM tag OP: EG, CID: c, RC: [..], TC: t, port: p" or
 * "BRCM tag OP: IG, TC: t, TE: None, TS: 0, DST map: [port p]". */
static int
parse_brcm(const char *line, struct fact *f)
{
	const char *p = strstr(line, "BRCM tag OP: ");
	const char *q;

	if (p == NULL)
		return -1;
	p += 13;
	f->dev = 0;
	f->vid = 0;
	if (strncmp(p, "EG, ", 4) == 0) {
		f->to_cpu = 1;
		q = strstr(p, "TC: ");
		if (q == NULL || sscanf(q, "TC: %u, port: %u", &f->prio, &f->port) != 2)
			return -1;
		return 0;
	}
	if (strncmp(p, "IG, ", 4) == 0) {
		f->to_cpu = 0;
		q = strstr(p, "DST map: [port ");
		if (q == NULL || sscanf(p, "IG, TC: %u", &f->prio) != 1 ||
		    sscanf(q, "DST map: [port %u]", &f->port) != 1)
			return -1;
		return 0;
	}
	return -1;
}

static unsigned int
read_facts(const char *rel, int brcm, struct fact *facts, unsigned int max)
{
	FILE *fp = fopen(tp_test_src_path(rel), "r");
	char line[2048];
	unsigned int n = 0;

	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL) {
		assert_true(n < max);
		if ((brcm ? parse_brcm(line, &facts[n]) : parse_dsa(line, &facts[n])) != 0) {
			fprintf(stderr, "%s: cannot parse: %s", rel, line);
			fail();
		}
		n++;
	}
	fclose(fp);
	return n;
}

struct capture {
	const char *pcap, *out, *tagger;
	int linktype;
	unsigned int n_rx, n_tx; /* frames of each direction, counted from the .out */
};

static void
check_capture(const struct capture *cap)
{
	const struct tp_dsa_tagger *t = tp_dsa_tagger_find(cap->tagger);
	unsigned int start = tp_test_pool_in_use(mp);
	struct fact facts[64];
	unsigned int nf, n, i, n_rx = 0, n_tx = 0;
	uint8_t **frames;
	uint32_t *lens;
	int lt;

	assert_non_null(t);
	nf = read_facts(cap->out, t->proto != TP_DSA_PROTO_DSA && t->proto != TP_DSA_PROTO_EDSA,
			facts, 64);
	n = tp_test_pcap_read(tp_test_src_path(cap->pcap), &frames, &lens, &lt);
	assert_int_equal(lt, cap->linktype);
	assert_int_equal(n, nf);
	for (i = 0; i < n; i++) {
		const struct fact *f = &facts[i];
		struct tp_dsa_stats st = { 0 };
		struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, frames[i], lens[i]);
		struct rte_mbuf *drop = NULL;
		const struct tp_dsa_meta *md;
		uint8_t exp[512];
		uint32_t tl = t->rx_len, el;

		/* Expected untagged frame: the capture minus the tag bytes. */
		if (t->position == TP_DSA_POS_BEFORE_DA) {
			memcpy(exp, frames[i] + tl, lens[i] - tl);
		} else {
			memcpy(exp, frames[i], 12);
			memcpy(exp + 12, frames[i] + 12 + tl, lens[i] - 12 - tl);
		}
		el = lens[i] - tl;
		if (f->to_cpu) {
			n_rx++;
			assert_int_equal(tp_dsa_strip_burst(t, &m, 1, NULL, &drop, &st), 1);
			md = tp_dsa_meta(m);
			assert_int_equal(md->flags, TP_DSA_META_F_VALID);
			assert_int_equal(md->frame_type, t->proto == TP_DSA_PROTO_DSA ||
					 t->proto == TP_DSA_PROTO_EDSA ? TP_DSA_FT_FORWARD :
					 TP_DSA_FT_TO_CPU);
		} else {
			struct tp_dsa_conf c = { .flags = TP_DSA_CONF_F_SWITCH_SIDE };

			n_tx++;
			/* The kernel never accepts a CPU-to-switch frame on RX. */
			assert_int_equal(tp_dsa_strip_burst(t, &m, 1, NULL, &drop, &st), 0);
			assert_int_equal(st.drop[TP_DSA_DROP_BAD_TYPE], 1);
			m = drop;
			tp_test_assert_mbuf_bytes(m, frames[i], lens[i]);
			assert_int_equal(tp_dsa_strip_burst(t, &m, 1, &c, NULL, &st), 1);
			md = tp_dsa_meta(m);
			assert_int_equal(md->flags, TP_DSA_META_F_VALID | TP_DSA_META_F_SWITCH_SIDE);
			assert_int_equal(md->frame_type, TP_DSA_FT_FROM_CPU);
		}
		assert_int_equal(md->port, f->port);
		assert_int_equal(md->device, f->dev);
		assert_int_equal(md->tag_vid, f->vid);
		assert_int_equal(md->prio, f->prio);
		assert_int_equal(md->proto, t->proto);
		tp_test_assert_mbuf_bytes(m, exp, el);
		if (!f->to_cpu) {
			/* Rebuild the capture: insert from the printed fields. */
			struct tp_dsa_conf c = {
				.flags = TP_DSA_CONF_F_TX_PORT, .tx_port = (uint8_t)f->port,
				.tx_device = (uint8_t)f->dev, .tx_prio = (uint8_t)f->prio,
				.tx_vid = (uint16_t)f->vid,
			};

			assert_int_equal(tp_dsa_insert_burst(t, &m, 1, &c, NULL, &st), 1);
			tp_test_assert_mbuf_bytes(m, frames[i], lens[i]);
		}
		rte_pktmbuf_free(m);
	}
	assert_int_equal(n_rx, cap->n_rx);
	assert_int_equal(n_tx, cap->n_tx);
	tp_test_pcap_free(frames, lens, n);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

static const struct capture caps[] = {
	{ "pcaps/tags/tcpdump/dsa.pcap", "pcaps/tags/tcpdump/dsa-e.out", "dsa", 284, 4, 4 },
	{ "pcaps/tags/tcpdump/dsa-high-vid.pcap", "pcaps/tags/tcpdump/dsa-high-vid-e.out",
	  "dsa", 284, 2, 2 },
	{ "pcaps/tags/tcpdump/edsa.pcap", "pcaps/tags/tcpdump/edsa-e.out", "edsa", 285, 5, 5 },
	{ "pcaps/tags/tcpdump/edsa-high-vid.pcap", "pcaps/tags/tcpdump/edsa-high-vid-e.out",
	  "edsa", 285, 2, 2 },
	{ "pcaps/tags/tcpdump/brcm-tag.pcap", "pcaps/tags/tcpdump/brcm-tag-e.out", "brcm", 281,
	  11, 12 },
	{ "pcaps/tags/tcpdump/brcm-tag-prepend.pcap", "pcaps/tags/tcpdump/brcm-tag-prepend.out",
	  "brcm-prepend", 282, 9, 6 },
};

static void test_dsa(void **s) { (void)s; check_capture(&caps[0]); }
static void test_dsa_high_vid(void **s) { (void)s; check_capture(&caps[1]); }
static void test_edsa(void **s) { (void)s; check_capture(&caps[2]); }
static void test_edsa_high_vid(void **s) { (void)s; check_capture(&caps[3]); }
static void test_brcm(void **s) { (void)s; check_capture(&caps[4]); }
static void test_brcm_prepend(void **s) { (void)s; check_capture(&caps[5]); }

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dsa),
		cmocka_unit_test(test_dsa_high_vid),
		cmocka_unit_test(test_edsa),
		cmocka_unit_test(test_edsa_high_vid),
		cmocka_unit_test(test_brcm),
		cmocka_unit_test(test_brcm_prepend),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
