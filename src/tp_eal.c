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

/* DPDK makes /var/run/dpdk/<prefix> even with --no-shconf and leaves it
 * behind. rmdir() removes it only when empty, so a primary process's shared
 * config stays for whoever needs it. Registered with atexit() before
 * rte_eal_init(), so it runs after the telemetry library's own exit handler
 * has unlinked its socket from that directory. */
static void
remove_runtime_dir(void)
{
	if (runtime_dir[0] != '\0')
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

int
tp_eal_init(int argc, char **argv, const char *const *defaults, bool *fell_back)
{
	char prefix[64];
	char **eargv, **user;
	int dashdash = -1, nuser, eargc = 0, rc;
	bool fallback;

	if (fell_back != NULL)
		*fell_back = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			dashdash = i;
			break;
		}
	}
	/* The EAL options: the caller's (before "--"), else the defaults. */
	user = argv + 1;
	nuser = dashdash >= 0 ? dashdash - 1 : 0;
	eargv = calloc(32 + (size_t)argc, sizeof(*eargv));
	if (eargv == NULL)
		return -ENOMEM;
	eargv[eargc++] = argv[0];
	if (dashdash < 0) {
		for (; defaults != NULL && *defaults != NULL && eargc < 24; defaults++)
			eargv[eargc++] = (char *)*defaults;
		user = eargv + 1;
		nuser = eargc - 1;
	}
	fallback = !has_opt(user, nuser, "--no-huge") && tp_eal_free_hugepages() == 0;
	if (dashdash >= 0) {
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
			"--no-huge --no-shconf (slower; see README: Hugepages)\n", argv[0]);
		eargv[eargc++] = (char *)"--no-huge";
		if (!has_opt(user, nuser, "--no-shconf"))
			eargv[eargc++] = (char *)"--no-shconf";
		if (!has_opt(user, nuser, "-m") && !has_opt(user, nuser, "--socket-mem")) {
			eargv[eargc++] = (char *)"-m";
			eargv[eargc++] = (char *)"1024";
		}
		if (fell_back != NULL)
			*fell_back = true;
	} else if (dashdash < 0) {
		eargv[eargc++] = (char *)"--in-memory";
	}
	if (!has_opt(user, nuser, "--file-prefix")) {
		snprintf(prefix, sizeof(prefix), "--file-prefix=tagpipe_%d", (int)getpid());
		eargv[eargc++] = prefix;
	}
	eargv[eargc] = NULL;
	atexit(remove_runtime_dir);
	rc = rte_eal_init(eargc, eargv);
	free(eargv);
	if (rc < 0)
		return -rte_errno;
	snprintf(runtime_dir, sizeof(runtime_dir), "%s", rte_eal_get_runtime_dir());
	return dashdash >= 0 ? dashdash + 1 : 1;
}

int
tp_eal_cleanup(void)
{
	int rc = rte_eal_cleanup();

	remove_runtime_dir();
	return rc;
}
