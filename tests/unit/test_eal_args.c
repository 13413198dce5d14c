/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_eal_app_args: where an app's own arguments start, and the errors that
 * name an argument on the wrong side of "--" (issue 26: a user's EAL
 * option was silently replaced by the app's defaults). No EAL is started.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "tp_eal.h"

#define ARGS(...) ((char *const[]){ "prog", __VA_ARGS__ })
#define N(...) ((int)(sizeof((char *const[]){ "prog", __VA_ARGS__ }) / sizeof(char *)))
#define APP(...) tp_eal_app_args(N(__VA_ARGS__), ARGS(__VA_ARGS__), err, sizeof(err))

static void
dashdash_splits(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(APP("-l", "0-1", "--vdev", "net_null0", "--", "-i"), 6);
	assert_int_equal(APP("--", "-i"), 2);
	assert_int_equal(APP("-l0-1", "--no-pci", "--file-prefix=x", "--"), 5);
}

static void
eal_options_alone_need_no_dashdash(void **state)
{
	char err[256];

	(void)state;
	/* testpmd's habit: every argument is the EAL's, the app gets none */
	assert_int_equal(APP("-l", "0-1", "--vdev", "net_pcap0,iface=lo", "--no-pci"), 6);
	assert_int_equal(APP("--huge-unlink", "-m", "512", "--in-memory"), 5);
	assert_int_equal(APP("-d", "/opt/x.so", "--log-level=pmd:debug"), 4);
}

static void
app_options_alone_keep_the_defaults(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(tp_eal_app_args(1, ARGS(NULL), err, sizeof(err)), 1);
	assert_int_equal(APP("-i", "pcaps/demo.pcap", "--loops", "3"), 1);
	/* the app's own --help and -v, though the EAL has them too */
	assert_int_equal(APP("--help"), 1);
	assert_int_equal(APP("-v", "x"), 1);
}

static void
app_option_among_eal_options_is_named(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(APP("-l", "0-1", "--vdev", "x", "-i"), -EINVAL);
	assert_non_null(strstr(err, "'-i' is not an EAL option"));
	assert_non_null(strstr(err, "after '--'"));
	assert_int_equal(APP("-l", "0-1", "-i", "--", "-x"), -EINVAL);
	assert_non_null(strstr(err, "'-i' is not an EAL option"));
	assert_int_equal(APP("-l"), -EINVAL);
	assert_string_equal(err, "EAL option '-l': needs a value");
	assert_int_equal(APP("--no-pci=1"), -EINVAL);
	assert_string_equal(err, "EAL option '--no-pci=1': takes no value");
}

static void
eal_option_among_app_options_is_named(void **state)
{
	char err[256];

	(void)state;
	/* without "--" the defaults would have replaced it: refused */
	assert_int_equal(APP("-i", "x.pcap", "--vdev", "net_null0"), -EINVAL);
	assert_non_null(strstr(err, "EAL option '--vdev' among the application's options"));
	assert_int_equal(APP("500", "--no-pci"), -EINVAL);
	assert_non_null(strstr(err, "'--no-pci'"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dashdash_splits),
		cmocka_unit_test(eal_options_alone_need_no_dashdash),
		cmocka_unit_test(app_options_alone_keep_the_defaults),
		cmocka_unit_test(app_option_among_eal_options_is_named),
		cmocka_unit_test(eal_option_among_app_options_is_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
