/* SPDX-License-Identifier: BSD-3-Clause */
/* A free word with suggestions (prompt_word.h). */
#include <stdio.h>
#include <string.h>

#include "prompt_word.h"

static int
word_parse(cmdline_parse_token_hdr_t *tk, const char *buf, void *res,
	   unsigned int ressize)
{
	unsigned int n = 0;

	(void)tk;
	if (buf == NULL)
		return -1;
	while (!cmdline_isendoftoken(buf[n]))
		n++;
	if (n == 0 || n >= sizeof(cmdline_fixed_string_t))
		return -1;
	if (res != NULL) {
		if (ressize < sizeof(cmdline_fixed_string_t))
			return -1;
		memcpy(res, buf, n);
		((char *)res)[n] = '\0';
	}
	return (int)n;
}

/* The idx-th word of the list: its start, and its length in *len. */
static const char *
word_at(const char *list, int idx, size_t *len)
{
	const char *s = list;

	for (; idx > 0 && s != NULL; idx--) {
		s = strchr(s, '#');
		if (s != NULL)
			s++;
	}
	if (s == NULL || *s == '\0')
		return NULL;
	*len = strcspn(s, "#");
	return s;
}

static int
word_nb(cmdline_parse_token_hdr_t *tk)
{
	const struct fwd_word_token *w = (const struct fwd_word_token *)tk;
	size_t len;
	int n = 0;

	while (word_at(w->words, n, &len) != NULL)
		n++;
	return n;
}

static int
word_elt(cmdline_parse_token_hdr_t *tk, int idx, char *dst, unsigned int size)
{
	const struct fwd_word_token *w = (const struct fwd_word_token *)tk;
	size_t len;
	const char *s = word_at(w->words, idx, &len);

	if (s == NULL || len + 1 > size)
		return -1;
	memcpy(dst, s, len);
	dst[len] = '\0';
	return 0;
}

static int
word_help(cmdline_parse_token_hdr_t *tk, char *dst, unsigned int size)
{
	const struct fwd_word_token *w = (const struct fwd_word_token *)tk;

	if (size == 0)
		return -1;
	snprintf(dst, size, "%s", w->help);
	return 0;
}

struct cmdline_token_ops fwd_word_token_ops = {
	.parse = word_parse,
	.complete_get_nb = word_nb,
	.complete_get_elt = word_elt,
	.get_help = word_help,
};
