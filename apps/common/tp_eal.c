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
	primary = rte_eal_process_type() == RTE_PROC_PRIMARY;
	return dashdash >= 0 ? dashdash + 1 : 1;
}

int
tp_eal_cleanup(void)
{
	int rc = rte_eal_cleanup();

	remove_runtime_dir();
	return rc;
}
