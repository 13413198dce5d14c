/* SPDX-License-Identifier: BSD-3-Clause */
/* EAL start-up with the hugepage fallback; contract in tp_eal.h. */
#include "tp_eal.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>

#define HUGEPAGES_SYSFS "/sys/kernel/mm/hugepages"

static char runtime_dir[PATH_MAX];
static bool primary;
static bool shared_config;

/* What the EAL of a primary process leaves in its runtime directory once it
 * is gone (DPDK 22.11, lib/eal/linux/eal.c and eal_memory.c: "config" and
 * "hugepage_info"; lib/eal/common/eal_common_memory.c and eal_memalloc.c:
 * "fbarray_memseg-*", "fbarray_memzone"; eal_common_proc.c: "mp_socket*").
 * They exist so that secondary processes can attach; with the primary
 * gone there is nothing left to attach to. */
static bool
eal_leftover(const char *name)
{
	static const char *const prefixes[] = {
		"config", "hugepage_info", "fbarray_", "mp_socket",
	};

	for (unsigned int i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* DPDK makes /var/run/dpdk/<prefix> even with --no-shconf and leaves it
 * behind, with its shared config when hugepages were used. A primary
 * process removes the EAL's own files from it, then the directory if it
 * is then empty (anything else in it stays, and so does the directory).
 * Registered with atexit() before rte_eal_init(), so it runs after the
 * telemetry library's own exit handler has unlinked its socket from that
 * directory. */
static void
remove_runtime_dir(void)
{
	DIR *dir;
	struct dirent *d;

	if (runtime_dir[0] == '\0')
		return;
	if (primary && (dir = opendir(runtime_dir)) != NULL) {
		while ((d = readdir(dir)) != NULL)
			if (d->d_type != DT_DIR && eal_leftover(d->d_name))
				unlinkat(dirfd(dir), d->d_name, 0);
		closedir(dir);
	}
	rmdir(runtime_dir);
}

unsigned long
tp_eal_free_hugepages(void)
{
	unsigned long total = 0;
	struct dirent *d;
	DIR *dir = opendir(HUGEPAGES_SYSFS);

	if (dir == NULL)
		return 0;
	while ((d = readdir(dir)) != NULL) {
		char path[512];
		unsigned long n;
		FILE *f;

		if (strncmp(d->d_name, "hugepages-", 10) != 0)
			continue;
		snprintf(path, sizeof(path), HUGEPAGES_SYSFS "/%s/free_hugepages", d->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fscanf(f, "%lu", &n) == 1)
			total += n;
		fclose(f);
	}
	closedir(dir);
	return total;
}

/* Is option opt ("--no-huge", "-m") among v[0..n), alone or as opt=VALUE? */
static bool
has_opt(char *const *v, int n, const char *opt)
{
	size_t l = strlen(opt);

	for (int i = 0; i < n; i++)
		if (strncmp(v[i], opt, l) == 0 && (v[i][l] == '\0' || v[i][l] == '='))
			return true;
	return false;
}

/* The EAL's options in DPDK 22.11 (lib/eal/common/eal_common_options.c:
 * eal_short_options and eal_long_options): 0 no argument, 1 required, 2
 * optional (only as --opt=VALUE, as getopt_long takes it). Listed here
 * because the EAL does not export them and getopt would only stop at the
 * first one it does not know, with no word of what it was. */
static const struct eal_opt {
	const char *name;
	int arg;
} eal_long[] = {
	{ "allow", 1 }, { "base-virtaddr", 1 }, { "block", 1 },
	{ "create-uio-dev", 0 }, { "file-prefix", 1 },
	{ "force-max-simd-bitwidth", 1 }, { "help", 0 }, { "huge-dir", 1 },
	{ "huge-unlink", 2 }, { "huge-worker-stack", 2 }, { "in-memory", 0 },
	{ "iova-mode", 1 }, { "lcores", 1 }, { "legacy-mem", 0 },
	{ "log-level", 1 }, { "main-lcore", 1 }, { "match-allocations", 0 },
	{ "mbuf-pool-ops-name", 1 }, { "no-hpet", 0 }, { "no-huge", 0 },
	{ "no-pci", 0 }, { "no-shconf", 0 }, { "no-telemetry", 0 },
	{ "proc-type", 1 }, { "single-file-segments", 0 }, { "socket-limit", 1 },
	{ "socket-mem", 1 }, { "syslog", 1 }, { "telemetry", 0 }, { "trace", 1 },
	{ "trace-bufsz", 1 }, { "trace-dir", 1 }, { "trace-mode", 1 },
	{ "vdev", 1 }, { "vfio-intr", 1 }, { "vfio-vf-token", 1 },
	{ "vmware-tsc-map", 0 },
};
/* Short ones: a letter followed by ':' takes an argument. */
static const char eal_short[] = "a:b:c:s:d:hl:S:m:n:r:v";

/* How many words the EAL option at v[0] takes with its argument (v has n
 * words): 1 or 2; 0 when v[0] is not an EAL option, -1 when it is one
 * whose value is missing (or given to one that takes none). */
static int
eal_opt_words(char *const *v, int n)
{
	const char *a = v[0];

	if (a[0] != '-' || a[1] == '\0')
		return 0;
	if (a[1] == '-') {
		const char *name = a + 2, *eq = strchr(name, '=');
		size_t l = eq != NULL ? (size_t)(eq - name) : strlen(name);

		for (size_t i = 0; i < sizeof(eal_long) / sizeof(eal_long[0]); i++) {
			if (strlen(eal_long[i].name) != l ||
			    strncmp(eal_long[i].name, name, l) != 0)
				continue;
			if (eal_long[i].arg == 0)
				return eq == NULL ? 1 : -1;
			if (eal_long[i].arg == 2 || eq != NULL)
				return 1;
			return n > 1 ? 2 : -1;
		}
		return 0;
	}
	const char *s = strchr(eal_short, a[1]);

	if (s == NULL || a[1] == ':')
		return 0;
	if (s[1] != ':')
		return a[2] == '\0' ? 1 : 0;
	if (a[2] != '\0')
		return 1;        /* -l0-1 */
	return n > 1 ? 2 : -1;
}

/* Options an application and the EAL both have: an application's own
 * -h/--help and -v go to the application. */
static bool
app_first_word(const char *a)
{
	return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0 || strcmp(a, "-v") == 0;
}

int
tp_eal_app_args(int argc, char *const *argv, char *err, size_t errlen)
{
	int dashdash = -1, end;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			dashdash = i;
			break;
		}
	}
	if (dashdash < 0 && (argc < 2 || app_first_word(argv[1]) ||
			     eal_opt_words(argv + 1, argc - 1) == 0)) {
		/* The application's arguments alone (the EAL gets the
		 * caller's defaults): an EAL long option among them would be
		 * lost, so it is an error (short ones may be the app's own). */
		for (int i = 1; i < argc; i++) {
			if (strncmp(argv[i], "--", 2) == 0 && strcmp(argv[i], "--help") != 0 &&
			    eal_opt_words(argv + i, argc - i) != 0) {
				snprintf(err, errlen, "EAL option '%s' among the application's "
					 "options: give EAL options first, then '--', then the "
					 "application's", argv[i]);
				return -EINVAL;
			}
		}
		return 1;
	}
	/* EAL options first (testpmd's form): up to "--", or all of them. */
	end = dashdash >= 0 ? dashdash : argc;
	for (int i = 1; i < end;) {
		int w = eal_opt_words(argv + i, end - i);

		if (w < 0) {
			snprintf(err, errlen, "EAL option '%s': %s", argv[i],
				 strchr(argv[i], '=') != NULL && argv[i][1] == '-' ?
				 "takes no value" : "needs a value");
			return -EINVAL;
		}
		if (w == 0) {
			snprintf(err, errlen, "'%s' is not an EAL option of DPDK 22.11%s",
				 argv[i], dashdash < 0 ? ": the application's options go "
				 "after '--' (EAL options -- application options)" : "");
			return -EINVAL;
		}
		i += w;
	}
	return dashdash >= 0 ? dashdash + 1 : argc;
}

int
tp_eal_init(int argc, char **argv, const char *const *defaults, bool *fell_back)
{
	char prefix[64], err[256];
	char **eargv, **user;
	int app, nuser, eargc = 0, rc;
	bool fallback, own;

	if (fell_back != NULL)
		*fell_back = false;
	app = tp_eal_app_args(argc, argv, err, sizeof(err));
	if (app < 0) {
		fprintf(stderr, "%s: error: %s\n", argv[0], err);
		rte_errno = EINVAL;
		return app;
	}
	/* The EAL options: the caller's (before "--", or all of them), else
	 * the defaults. */
	own = app > 1;
	user = argv + 1;
	nuser = own && strcmp(argv[app - 1], "--") == 0 ? app - 2 : app - 1;
	eargv = calloc(32 + (size_t)argc, sizeof(*eargv));
	if (eargv == NULL)
		return -ENOMEM;
	eargv[eargc++] = argv[0];
	if (!own) {
		for (; defaults != NULL && *defaults != NULL && eargc < 24; defaults++)
			eargv[eargc++] = (char *)*defaults;
		user = eargv + 1;
		nuser = eargc - 1;
	}
	fallback = !has_opt(user, nuser, "--no-huge") && tp_eal_free_hugepages() == 0;
	if (own) {
		for (int i = 0; i < nuser; i++) {
			/* DPDK 22.11 refuses --in-memory with --no-huge, which
			 * implies the legacy memory layout. */
			if (fallback && strcmp(user[i], "--in-memory") == 0)
				continue;
			eargv[eargc++] = user[i];
		}
	}
	if (fallback) {
		fprintf(stderr, "%s: warning: no free hugepages configured; running with "
			"--no-huge --no-shconf (slower; no secondary process such as "
			"dpdk-dumpcap, dpdk-pdump or dpdk-proc-info can attach; see README: "
			"Hugepages)\n", argv[0]);
		eargv[eargc++] = (char *)"--no-huge";
		if (!has_opt(user, nuser, "--no-shconf"))
			eargv[eargc++] = (char *)"--no-shconf";
		if (!has_opt(user, nuser, "-m") && !has_opt(user, nuser, "--socket-mem")) {
			eargv[eargc++] = (char *)"-m";
			eargv[eargc++] = (char *)"1024";
		}
		if (fell_back != NULL)
			*fell_back = true;
	} else if (!own) {
		eargv[eargc++] = (char *)"--in-memory";
	}
	if (!has_opt(user, nuser, "--file-prefix")) {
		snprintf(prefix, sizeof(prefix), "--file-prefix=tagpipe_%d", (int)getpid());
		eargv[eargc++] = prefix;
	}
	eargv[eargc] = NULL;
	/* --in-memory implies --no-shconf (DPDK 22.11,
	 * eal_common_options.c: "in-memory is a superset of noshconf"). */
	shared_config = !has_opt(eargv, eargc, "--no-shconf") &&
			!has_opt(eargv, eargc, "--in-memory");
	atexit(remove_runtime_dir);
	rc = rte_eal_init(eargc, eargv);
	free(eargv);
	if (rc < 0)
		return -rte_errno;
	snprintf(runtime_dir, sizeof(runtime_dir), "%s", rte_eal_get_runtime_dir());
	primary = rte_eal_process_type() == RTE_PROC_PRIMARY;
	return app;
}

bool
tp_eal_shared_config(void)
{
	return shared_config;
}

int
tp_eal_cleanup(void)
{
	int rc = rte_eal_cleanup();

	remove_runtime_dir();
	return rc;
}
