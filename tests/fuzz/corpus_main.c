/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Replay a fuzz target's corpus: every file of every directory (or file)
 * given, in name order, through LLVMFuzzerTestOneInput - the deterministic
 * form of a fuzz target that the test suite runs (fuzz.h). Prints
 * "N inputs" and exits 0; a failed property aborts naming the input first.
 */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int
run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "corpus: %s: %s\n", path, strerror(errno));
		if (f != NULL)
			fclose(f);
		return -1;
	}
	buf = malloc(len ? (size_t)len : 1);
	if (buf == NULL || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "corpus: %s: cannot read\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	fprintf(stderr, "corpus: %s\n", path);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	return 0;
}

static int
by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int
main(int argc, char **argv)
{
	unsigned int inputs = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
		return 2;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct dirent **ents;
		struct stat st;
		int n;

		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "corpus: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (run_file(argv[i]) < 0)
				return 2;
			inputs++;
			continue;
		}
		n = scandir(argv[i], &ents, NULL, by_name);
		if (n < 0) {
			fprintf(stderr, "corpus: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		for (int k = 0; k < n; k++) {
			char path[4096];

			if (ents[k]->d_name[0] != '.') {
				snprintf(path, sizeof(path), "%s/%s", argv[i], ents[k]->d_name);
				if (run_file(path) < 0)
					return 2;
				inputs++;
			}
			free(ents[k]);
		}
		free(ents);
	}
	if (inputs == 0) {
		fprintf(stderr, "corpus: no inputs\n");
		return 1;
	}
	printf("%u inputs\n", inputs);
	return 0;
}
