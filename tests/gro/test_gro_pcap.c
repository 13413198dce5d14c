/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Generated captures (tests/gen/gen_gro.py, pcaps/gro/README.md): every
 * <scenario>_in.pcap through tp_gro gives exactly <scenario>_out.pcap, whose
 * frames the script computed from the kernel rules on its own. Run in bursts
 * of 32 with aggregates held across bursts, and as one burst in burst mode.
 */
#include "tp_test.h"
#include "tp_gro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct rte_mempool *mp;

static const char *const scenarios[] = { "bulk4", "bulk6", "vlan", "rules", "big" };

static void
run(const char *name, int one_burst)
{
	static uint8_t buf[70000];
	char path[512];
	uint8_t **fin, **fout;
	uint32_t *lin, *lout;
	unsigned int nin, nout, i, got = 0, start = tp_test_pool_in_use(mp);
	struct tp_gro_conf conf = {
		.mode = one_burst ? TP_GRO_MODE_BURST : TP_GRO_MODE_AGE,
		.age_tsc = 1, .socket_id = SOCKET_ID_ANY,
	};
	struct tp_gro *g = tp_gro_create(&conf);
	struct rte_mbuf **in, **out;
	struct tp_gro_stats st;
	int lt;

	assert_non_null(g);
	snprintf(path, sizeof(path), "pcaps/gro/%s_in.pcap", name);
	nin = tp_test_pcap_read(tp_test_src_path(path), &fin, &lin, &lt);
	assert_int_equal(lt, 1);
	snprintf(path, sizeof(path), "pcaps/gro/%s_out.pcap", name);
	nout = tp_test_pcap_read(tp_test_src_path(path), &fout, &lout, &lt);
	in = calloc(nin, sizeof(*in));
	out = calloc(2 * nin + 1, sizeof(*out));
	for (i = 0; i < nin; i++)
		in[i] = tp_test_mbuf_from_bytes(mp, fin[i], lin[i]);

	for (i = 0; i < nin;) {
		uint16_t k = (uint16_t)(one_burst ? nin : RTE_MIN(32u, nin - i));
		int no = tp_gro_merge_burst(g, in + i, k, out + got,
					    (uint16_t)RTE_MIN(2u * nin + 1 - got, 65535u), 0);

		assert_true(no >= 0);
		got += (unsigned int)no;
		i += k;
	}
	got += tp_gro_flush_all(g, out + got, (uint16_t)(2 * nin + 1 - got));
	assert_int_equal(tp_gro_held(g), 0);
	if (got != nout)
		fprintf(stderr, "%s: %u packets out, expected %u\n", name, got, nout);
	assert_int_equal(got, nout);
	for (i = 0; i < got; i++) {
		uint32_t len = tp_test_mbuf_to_bytes(out[i], buf, sizeof(buf));

		if (len != lout[i] || memcmp(buf, fout[i], len) != 0) {
			fprintf(stderr, "%s: output %u differs\n", name, i);
			tp_test_assert_mbuf_bytes(out[i], fout[i], lout[i]);
		}
		rte_pktmbuf_free(out[i]);
	}
	tp_gro_stats_get(g, &st);
	assert_int_equal(st.pkts_in, nin);
	assert_int_equal(st.pkts_out, nout);
	printf("%s (%s): %u frames -> %u packets, %lu merged packets of %lu segments\n",
	       name, one_burst ? "one burst" : "bursts of 32", nin, nout,
	       (unsigned long)st.merged_out, (unsigned long)st.segs_merged);
	tp_gro_destroy(g);
	free(in);
	free(out);
	tp_test_pcap_free(fin, lin, nin);
	tp_test_pcap_free(fout, lout, nout);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

static void
test_scenarios(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(scenarios); i++) {
		run(scenarios[i], 0);
		run(scenarios[i], 1);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scenarios),
	};

	tp_test_eal_init(NULL);
	mp = tp_test_pool_create("gro_pcap", 2048, 9216);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
