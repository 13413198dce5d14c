/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the ACL rule parser (tp_acl_load), then classification.
 *
 * Input: [len_hi][len_lo] then len bytes of rule-file text, then a burst
 * (fuzz.h). The text is handed to tp_acl_load as a file (a memfd, so no
 * disk is touched). Properties (tp_prog.h, "ACL rules"):
 *   - refused text: -EINVAL with a message "PATH:LINE: ..." whose LINE is a
 *     line of the text; a "bad FIELD 'VALUE'" message quotes bytes that
 *     are in the text;
 *   - accepted text: the rule count is the number of lines with fields
 *     other than the "default" line;
 *   - every packet gets a verdict in range, a rule index in -1..n-1, a
 *     redirect key below TP_REDIRECT_MAP_MAX, and its bytes unchanged;
 *   - nothing leaks (LeakSanitizer) and the pool is full again.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "tp_pipeline.h"

static uint8_t before[FUZZ_MAX_FRAME + 64];
static uint8_t after[FUZZ_MAX_FRAME + 64];

/* Lines of the text as fgets reads them: a last line without '\n' counts. */
static unsigned int
lines_of(const uint8_t *t, size_t n)
{
	unsigned int l = 0;

	for (size_t i = 0; i < n; i++)
		l += t[i] == '\n';
	return l + (n > 0 && t[n - 1] != '\n');
}

/* Bytes of line l (1-based), its '\n' excluded. */
static size_t
line_len(const uint8_t *t, size_t n, unsigned int l)
{
	size_t i = 0, s;

	for (unsigned int k = 1; k < l && i < n; i++)
		k += t[i] == '\n';
	s = i;
	while (i < n && t[i] != '\n')
		i++;
	return i - s;
}

/* Rules the text holds by the format of tp_prog.h ("ACL rules"): lines with a field
 * outside comments whose first field is not "default". */
static uint32_t
rules_of(const uint8_t *t, size_t n)
{
	uint32_t rules = 0;
	size_t i = 0;

	while (i < n) {
		size_t e = i, f = i;

		while (e < n && t[e] != '\n' && t[e] != '#')
			e++;
		while (f < e && strchr(" \t\r", t[f]) != NULL)
			f++;
		if (f < e && !(e - f >= 7 && memcmp(t + f, "default", 7) == 0 &&
			       (e - f == 7 || strchr(" \t\r", t[f + 7]) != NULL)))
			rules++;
		while (e < n && t[e] != '\n')
			e++;
		i = e + 1;
	}
	return rules;
}

static void
check_error(const char *path, const char *err, const uint8_t *t, size_t n)
{
	size_t pl = strlen(path);
	const char *q;
	unsigned long line;
	char *end;

	FUZZ_CHECK(strncmp(err, path, pl) == 0 && err[pl] == ':');
	line = strtoul(err + pl + 1, &end, 10);
	FUZZ_CHECK(end[0] == ':' && line >= 1 && line <= lines_of(t, n));
	if (strncmp(end, ": line longer than ", 19) == 0) {
		FUZZ_CHECK(line_len(t, n, (unsigned int)line) > strtoul(end + 19, NULL, 10));
		return;
	}
	/* "bad FIELD 'VALUE'": VALUE is bytes of the text (up to a quote) */
	q = strstr(end, ": bad ");
	if (q != NULL) {
		const char *w = q + 6, *v, *ve;
		size_t wl = strcspn(w, " '");

		if (w[wl] != ' ' || w[wl + 1] != '\'')
			return;
		v = w + wl + 2;
		ve = strchr(v, '\'');
		FUZZ_CHECK(ve != NULL);
		FUZZ_CHECK(ve == v || memmem(t, n, v, (size_t)(ve - v)) != NULL);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rte_mbuf *pkts[FUZZ_MAX_BURST];
	struct tp_acl *acl = NULL;
	char path[64], err[2048];
	long tl = fuzz_len16(&data, &size);
	size_t tlen;
	uint16_t n;
	int fd, rc;

	if (tl < 0)
		return 0;
	tlen = (size_t)tl;
	fuzz_pool();
	fd = fuzz_memfd(data, tlen, path, sizeof(path));
	err[0] = '\0';
	rc = tp_acl_load(path, &acl, err, sizeof(err));
	close(fd);
	if (rc != 0) {
		FUZZ_CHECK(rc == -EINVAL);
		check_error(path, err, data, tlen);
		return 0;
	}
	FUZZ_CHECK(tp_acl_rules(acl) == rules_of(data, tlen));
	data += tlen;
	size -= tlen;
	n = fuzz_burst(&data, &size, pkts, FUZZ_MAX_BURST);
	for (uint16_t i = 0; i < n; i++) {
		uint32_t len = fuzz_bytes(pkts[i], before, sizeof(before)), key = UINT32_MAX;
		int rule = -2;
		uint8_t v = tp_acl_classify(acl, pkts[i], &key, &rule);

		FUZZ_CHECK(v < TP_NB_VERDICTS);
		FUZZ_CHECK(rule >= -1 && rule < (int)tp_acl_rules(acl));
		FUZZ_CHECK(v != TP_REDIRECT || key < TP_REDIRECT_MAP_MAX);
		FUZZ_CHECK(fuzz_bytes(pkts[i], after, sizeof(after)) == len &&
			   memcmp(before, after, len) == 0);
	}
	rte_pktmbuf_free_bulk(pkts, n);
	tp_acl_free(acl);
	fuzz_check_pool();
	return 0;
}
