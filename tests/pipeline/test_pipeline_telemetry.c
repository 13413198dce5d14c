/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rte_telemetry endpoints, read through the telemetry socket as
 * dpdk-telemetry.py does. This test starts its own EAL (the harness turns
 * telemetry off): the same options as tp_test_eal_init but telemetry on.
 */
#include <stdio.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_eal.h>

#include "pl_test.h"

static struct rte_mempool *mp;

static int
setup(void **state)
{
	char prefix[64];
	char *argv[] = { "tp_test", "--no-huge", "--no-shconf", "--no-pci", "-l", "0",
			 "-m", "256", "--log-level=lib.eal:error", prefix, NULL };

	(void)state;
	snprintf(prefix, sizeof(prefix), "--file-prefix=tp_tel_%d", (int)getpid());
	assert_true(rte_eal_init(RTE_DIM(argv) - 1, argv) >= 0);
	mp = tp_test_pool_create("plt", 64, 0);
	return 0;
}

/* Send cmd, return the JSON reply in buf. */
static void
query(const char *cmd, char *buf, size_t len)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char hello[1024];
	ssize_t n;
	int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);

	assert_true(fd >= 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	assert_int_equal(connect(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	assert_true(read(fd, hello, sizeof(hello)) > 0); /* version banner */
	assert_int_equal(write(fd, cmd, strlen(cmd)), (ssize_t)strlen(cmd));
	n = read(fd, buf, len - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	close(fd);
}

static void
test_endpoints(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_pipeline_conf c;
	struct tp_pipeline *pl = NULL;
	struct rte_mbuf *m[4];
	char err[256], reply[16384];

	(void)state;
	assert_int_equal(tp_telemetry_register(), 0);
	tp_pipeline_conf_init(&c);
	c.port[0].enabled = true;
	c.gro.mode = TP_GRO_OFF;
	c.prog_spec = "drop";
	c.name = "tel0";
	assert_int_equal(tp_pipeline_create(&c, &pl, err, sizeof(err)), 0);
	for (unsigned int i = 0; i < 3; i++) {
		struct pl_spec s;

		pl_default_spec(&s);
		m[i] = pl_mbuf(mp, &s);
	}
	assert_int_equal(tp_pipeline_rx_burst(pl, 0, 0, m, 3), 0);

	query("/tagpipe/pipelines", reply, sizeof(reply));
	assert_string_equal(reply, "{\"/tagpipe/pipelines\":[\"tel0\"]}");
	query("/tagpipe/stats", reply, sizeof(reply));
	assert_non_null(strstr(reply, "\"rx\":3,"));
	assert_non_null(strstr(reply, "\"drop\":3,"));
	assert_non_null(strstr(reply, "\"verdict_drop\":3,"));
	assert_non_null(strstr(reply, "\"held_in_gro\":0,"));
	query("/tagpipe/stats,tel0", reply, sizeof(reply));
	assert_non_null(strstr(reply, "\"rx\":3,"));
	query("/tagpipe/stats,nosuch", reply, sizeof(reply));
	assert_null(strstr(reply, "\"rx\""));
	query("/tagpipe/drops", reply, sizeof(reply));
	assert_non_null(strstr(reply, "\"verdict_drop\":3"));
	assert_non_null(strstr(reply, "\"tx_full\":0"));
	assert_non_null(strstr(reply, "\"dsa_too_short\":0"));
	query("/tagpipe/stages", reply, sizeof(reply));
	assert_non_null(strstr(reply, "\"verdict\":{\"calls\":1,\"in\":3,\"out\":3"));
	query("/tagpipe/ports", reply, sizeof(reply));
	assert_non_null(strstr(reply, "\"0\":{\"rx\":3,\"tx\":0,\"tx_full\":0"));
	/* a built-in program: its kind only (XDP objects: tests/bpf) */
	query("/tagpipe/verdict", reply, sizeof(reply));
	assert_string_equal(reply, "{\"/tagpipe/verdict\":{\"pipeline\":\"tel0\","
			    "\"program\":\"drop\"}}");
	query("/tagpipe/verdict,nosuch", reply, sizeof(reply));
	assert_string_equal(reply, "{\"/tagpipe/verdict\":{\"error\":\"no such pipeline\"}}");
	tp_pipeline_destroy(pl);
	query("/tagpipe/pipelines", reply, sizeof(reply));
	assert_string_equal(reply, "{\"/tagpipe/pipelines\":[]}");
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_endpoints, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
