/* SPDX-License-Identifier: BSD-3-Clause */
/* EAL start-up with the hugepage fallback; contract in tp_eal.h. */
#include "tp_eal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>

#define HUGEPAGES_SYSFS "/sys/kernel/mm/hugepages"

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

int
tp_eal_init(int argc, char **argv, const char *const *defaults, bool *fell_back)
{
	char prefix[64];
	char **eargv;
	int dashdash = -1, eargc = 0, rc;

	if (fell_back != NULL)
		*fell_back = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			dashdash = i;
			break;
		}
	}
	if (dashdash >= 0) {
		/* Explicit EAL options: used exactly as given. */
		argv[dashdash] = argv[0];
		rc = rte_eal_init(dashdash, argv);
		argv[dashdash] = (char *)"--";
		return rc < 0 ? -rte_errno : dashdash + 1;
	}

	eargv = calloc(32 + (size_t)argc, sizeof(*eargv));
	if (eargv == NULL)
		return -ENOMEM;
	eargv[eargc++] = argv[0];
	for (; defaults != NULL && *defaults != NULL && eargc < 24; defaults++)
		eargv[eargc++] = (char *)*defaults;
	if (tp_eal_free_hugepages() == 0) {
		fprintf(stderr, "%s: warning: no free hugepages configured; running with "
			"--no-huge --no-shconf (slower; see README: Hugepages)\n", argv[0]);
		/* DPDK 22.11 refuses --in-memory with --no-huge, which implies
		 * the legacy memory layout; --no-shconf leaves no files behind. */
		eargv[eargc++] = (char *)"--no-huge";
		eargv[eargc++] = (char *)"--no-shconf";
		eargv[eargc++] = (char *)"-m";
		eargv[eargc++] = (char *)"1024";
		if (fell_back != NULL)
			*fell_back = true;
	} else {
		eargv[eargc++] = (char *)"--in-memory";
	}
	snprintf(prefix, sizeof(prefix), "--file-prefix=tagpipe_%d", (int)getpid());
	eargv[eargc++] = prefix;
	eargv[eargc] = NULL;
	rc = rte_eal_init(eargc, eargv);
	free(eargv);
	return rc < 0 ? -rte_errno : 1;
}
