/* SPDX-License-Identifier: BSD-3-Clause */
/* Option values shared by tagpipe-replay and tagpipe-fwd (cli_syntax.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_version.h>

#include "cli_syntax.h"
#include "tp_dsa_tag.h"
#include "tp_version.h"

void
cli_print_version(const char *prog)
{
	const char *base = strrchr(prog, '/');

	printf("%s %s (%s)\n", base != NULL ? base + 1 : prog, TAGPIPE_VERSION,
	       rte_version());
}

/* A decimal number s[0..len) in 0..max, nothing else. */
static bool
number(const char *s, size_t len, unsigned long max, unsigned long *out)
{
	char buf[24], *end;

	if (len == 0 || len >= sizeof(buf) || s[0] < '0' || s[0] > '9')
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtoul(buf, &end, 10);
	return *end == '\0' && errno == 0 && *out <= max;
}

#define REDIRECT_FORM "KEY=port:P[,queue:Q][,switch_port:S]"

static int
bad_redirect(const char *val, unsigned int max_port, char *err, size_t errlen)
{
	snprintf(err, errlen, "bad value '%s' (expected " REDIRECT_FORM
		 ": KEY 0..%u, P 0..%u, Q 0..65535, S 0..%u)", val, CLI_REDIRECT_KEY_MAX,
		 max_port, CLI_SWITCH_PORT_MAX);
	return -EINVAL;
}

void
cli_redirect_form(const struct cli_redirect *r, char *buf, size_t size)
{
	if (r->switch_port >= 0)
		snprintf(buf, size, "%u=port:%u,switch_port:%d", r->key, r->port,
			 r->switch_port);
	else
		snprintf(buf, size, "%u=port:%u", r->key, r->port);
}

/* KEY:PORT[:SWITCH_PORT], tagpipe-fwd's first spelling. */
static int
redirect_old(const char *val, unsigned int max_port, struct cli_redirect *r,
	     char *err, size_t errlen)
{
	const char *f[3] = { val, NULL, NULL };
	size_t len[3];
	unsigned long v[3] = { 0 };
	int nf = 1;

	for (const char *s = val; *s != '\0'; s++)
		if (*s == ':') {
			if (nf == 3)
				goto bad;
			f[nf++] = s + 1;
		}
	for (int i = 0; i < nf; i++)
		len[i] = i + 1 < nf ? (size_t)(f[i + 1] - f[i] - 1) : strlen(f[i]);
	if (nf < 2 || !number(f[0], len[0], CLI_REDIRECT_KEY_MAX, &v[0]) ||
	    !number(f[1], len[1], max_port, &v[1]) ||
	    (nf == 3 && !number(f[2], len[2], CLI_SWITCH_PORT_MAX, &v[2])))
		goto bad;
	r->key = (uint32_t)v[0];
	r->port = (uint16_t)v[1];
	r->switch_port = nf == 3 ? (int)v[2] : -1;
	r->old_syntax = true;
	return 0;
bad:
	return bad_redirect(val, max_port, err, errlen);
}

int
cli_parse_redirect(const char *val, unsigned int max_port, struct cli_redirect *r,
		   char *err, size_t errlen)
{
	const char *eq = strchr(val, '=');
	unsigned long v;
	bool have_port = false;

	memset(r, 0, sizeof(*r));
	r->switch_port = -1;
	if (eq == NULL)
		return redirect_old(val, max_port, r, err, errlen);
	if (!number(val, (size_t)(eq - val), CLI_REDIRECT_KEY_MAX, &v))
		goto bad;
	r->key = (uint32_t)v;
	for (const char *s = eq + 1; *s != '\0';) {
		size_t flen = strcspn(s, ",");
		const char *colon = memchr(s, ':', flen);
		size_t klen = colon ? (size_t)(colon - s) : flen;
		size_t nlen = colon ? flen - klen - 1 : 0;
		unsigned long lim;

		if (colon == NULL)
			goto bad_field;
		if (klen == 4 && strncmp(s, "port", 4) == 0)
			lim = max_port;
		else if (klen == 5 && strncmp(s, "queue", 5) == 0)
			lim = 65535;
		else if (klen == 11 && strncmp(s, "switch_port", 11) == 0)
			lim = CLI_SWITCH_PORT_MAX;
		else
			goto bad_field;
		if (!number(colon + 1, nlen, lim, &v))
			goto bad_field;
		if (s[0] == 'p') {
			r->port = (uint16_t)v;
			have_port = true;
		} else if (s[0] == 'q') {
			r->queue = (uint16_t)v;
			r->queue_given = true;
		} else {
			r->switch_port = (int)v;
		}
		s += flen;
		if (*s == ',')
			s++;
		continue;
bad_field:
		snprintf(err, errlen, "bad field '%.*s' in '%s' (port:0..%u, queue:0..65535, "
			 "switch_port:0..%u)", (int)flen, s, val, max_port, CLI_SWITCH_PORT_MAX);
		return -EINVAL;
	}
	if (have_port)
		return 0;
	snprintf(err, errlen, "'%s' names no port:P (expected " REDIRECT_FORM ")", val);
	return -EINVAL;
bad:
	return bad_redirect(val, max_port, err, errlen);
}

int
cli_parse_gro(const char *val, enum cli_gro_mode *mode, uint32_t *age_us,
	      char *err, size_t errlen)
{
	unsigned long us;

	*age_us = 0;
	if (strcmp(val, "off") == 0) {
		*mode = CLI_GRO_OFF;
		return 0;
	}
	if (strcmp(val, "burst") == 0 || strcmp(val, "on") == 0) {
		*mode = CLI_GRO_BURST;
		return 0;
	}
	if (strncmp(val, "age:", 4) == 0 &&
	    number(val + 4, strlen(val + 4), CLI_GRO_AGE_MAX_US, &us) && us >= 1) {
		*mode = CLI_GRO_AGE;
		*age_us = (uint32_t)us;
		return 0;
	}
	snprintf(err, errlen, "bad value '%s' (expected off, burst or age:USEC with USEC "
		 "1..%u; on is burst)", val, CLI_GRO_AGE_MAX_US);
	return -EINVAL;
}

int
cli_parse_gro_tunnels(const char *val, uint32_t *bits, uint16_t ports[4], char *err,
		      size_t errlen)
{
	const char *p = val;
	unsigned int np = 0;

	*bits = 0;
	memset(ports, 0, 4 * sizeof(ports[0]));
	if (strcmp(val, "off") == 0)
		return 0;
	if (strcmp(val, "all") == 0) {
		*bits = 0x7;           /* TP_GRO_TUN_VXLAN | _IPIP | _GENEVE */
		return 0;
	}
	while (*p != '\0') {
		size_t n = strcspn(p, ",");

		if (n == 4 && strncmp(p, "ipip", 4) == 0) {
			*bits |= 0x2;
		} else if (n == 6 && strncmp(p, "geneve", 6) == 0) {
			*bits |= 0x4;
		} else if (n >= 5 && strncmp(p, "vxlan", 5) == 0 && (n == 5 || p[5] == ':')) {
			const char *q = p + 6, *end = p + n;

			*bits |= 0x1;
			while (n > 5 && q <= end) {
				size_t k = strcspn(q, "+,");
				unsigned long v;

				if (q + k > end)
					k = (size_t)(end - q);
				if (!number(q, k, 65535, &v) || v == 0 || np == 4) {
					snprintf(err, errlen, "bad VXLAN port list in '%s' (1 to 4 "
						 "ports 1..65535 joined by +)", val);
					return -EINVAL;
				}
				ports[np++] = (uint16_t)v;
				q += k + 1;
			}
		} else {
			snprintf(err, errlen, "bad value '%s' (expected off, all, or a comma "
				 "list of vxlan[:PORT[+PORT]], geneve and ipip)", val);
			return -EINVAL;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

int
cli_check_tagger(const char *name, char *err, size_t errlen)
{
	char names[1024];

	if (tp_dsa_tagger_find(name) != NULL)
		return 0;
	tp_dsa_tagger_names(names, sizeof(names));
	snprintf(err, errlen, "unknown tagger '%s' (valid: %s)", name, names);
	return -EINVAL;
}
