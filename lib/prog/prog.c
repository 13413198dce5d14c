/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Program registry and opening "NAME[:ARG]" specs (contract: tp_prog.h).
 * Built-ins sit in a const table; user programs, and the kinds other
 * libraries add (lib/bpf), in a small array filled by tp_prog_register().
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog_priv.h"

#define PROG_MAX_USER 64
#define PROG_NAME_MAX 63

static const struct tp_prog_ops *const builtins[] = {
	&tp_prog_acl, &tp_prog_by_switch_port, &tp_prog_drop,
	&tp_prog_pass, &tp_prog_redirect, &tp_prog_tx,
};
#define NB_BUILTINS (sizeof(builtins) / sizeof(builtins[0]))

/* Verdict names from the one X-macro list (tp_prog.h). */
static const char *const verdict_names[TP_NB_VERDICTS] = {
#define X(U, l, v) [v] = #l,
	TP_VERDICTS(X)
#undef X
};

const char *
tp_verdict_name(enum tp_verdict v)
{
	return (unsigned int)v < TP_NB_VERDICTS ? verdict_names[v] : NULL;
}

static const struct tp_prog_ops *user[PROG_MAX_USER];
static unsigned int nb_user;

static int
name_ok(const char *s)
{
	size_t n = 0;

	for (; s[n] != '\0'; n++) {
		char c = s[n];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return 0;
	}
	return n > 0 && n <= PROG_NAME_MAX;
}

const struct tp_prog_ops *
tp_prog_find(const char *name)
{
	if (name == NULL)
		return NULL;
	for (unsigned int i = 0; i < NB_BUILTINS; i++)
		if (strcmp(builtins[i]->name, name) == 0)
			return builtins[i];
	for (unsigned int i = 0; i < nb_user; i++)
		if (strcmp(user[i]->name, name) == 0)
			return user[i];
	return NULL;
}

int
tp_prog_register(const struct tp_prog_ops *ops)
{
	if (ops == NULL || ops->name == NULL || ops->burst == NULL ||
	    !name_ok(ops->name))
		return -EINVAL;
	if (tp_prog_find(ops->name) != NULL)
		return -EEXIST;
	if (nb_user == PROG_MAX_USER)
		return -ENOSPC;
	user[nb_user++] = ops;
	return 0;
}

int
tp_prog_names(char *buf, size_t len)
{
	const char *names[NB_BUILTINS + PROG_MAX_USER];
	unsigned int n = 0;
	size_t used = 0;

	for (unsigned int i = 0; i < NB_BUILTINS; i++)
		names[n++] = builtins[i]->name;
	for (unsigned int i = 0; i < nb_user; i++)
		names[n++] = user[i]->name;
	/* Insertion sort: a few dozen names, control plane only. */
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			const char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	if (len > 0)
		buf[0] = '\0';
	for (unsigned int i = 0; i < n; i++) {
		int w = snprintf(len > used ? buf + used : NULL,
				 len > used ? len - used : 0, "%s%s",
				 i ? ", " : "", names[i]);
		used += (size_t)w;
	}
	return (int)used;
}

/* The kind whose file_suffix ends spec's file name ("x.o", "x.o:SEL";
 * tp_prog.h), or NULL. */
static const struct tp_prog_ops *
kind_by_suffix(const char *spec)
{
	for (unsigned int i = 0; i < nb_user; i++) {
		const char *suf = user[i]->file_suffix;
		size_t sl = suf != NULL ? strlen(suf) : 0;

		if (sl == 0)
			continue;
		for (const char *d = strstr(spec, suf); d != NULL; d = strstr(d + 1, suf))
			if (d[sl] == '\0' || d[sl] == ':')
				return user[i];
	}
	return NULL;
}

int
tp_prog_open(const char *spec, struct tp_prog **out, char *err, size_t errlen)
{
	char name[PROG_NAME_MAX + 1];
	const char *colon, *arg = NULL;
	const struct tp_prog_ops *ops;
	struct tp_prog *p;
	size_t nlen;
	int rc;

	if (spec == NULL || out == NULL) {
		snprintf(err, errlen, "program: no spec given");
		return -EINVAL;
	}
	colon = strchr(spec, ':');
	nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	if (colon)
		arg = colon + 1;
	if (nlen > 0 && nlen <= PROG_NAME_MAX) {
		memcpy(name, spec, nlen);
		name[nlen] = '\0';
		ops = tp_prog_find(name);
	} else {
		ops = NULL;
	}
	if (ops == NULL && (ops = kind_by_suffix(spec)) != NULL) {
		/* "FILE.o[:SEL]": the whole spec is the kind's argument */
		snprintf(name, sizeof(name), "%s", ops->name);
		arg = spec;
	}
	if (ops == NULL && (nlen == 0 || nlen > PROG_NAME_MAX)) {
		snprintf(err, errlen, "program: bad name in '%s'", spec);
		return -EINVAL;
	}
	if (ops == NULL) {
		char names[512];

		tp_prog_names(names, sizeof(names));
		snprintf(err, errlen, "program: unknown program '%s' (known: %s)",
			 name, names);
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		snprintf(err, errlen, "program: out of memory");
		return -ENOMEM;
	}
	p->ops = ops;
	if (ops->init != NULL) {
		rc = ops->init(arg, &p->priv, err, errlen);
		if (rc < 0) {
			free(p);
			return rc;
		}
	} else if (arg != NULL) {
		snprintf(err, errlen, "program: '%s' takes no argument (got '%s')",
			 name, arg);
		free(p);
		return -EINVAL;
	}
	*out = p;
	return 0;
}

void
tp_prog_close(struct tp_prog *p)
{
	if (p == NULL)
		return;
	if (p->ops->fini != NULL)
		p->ops->fini(p->priv);
	free(p);
}

const struct tp_prog_ops *
tp_prog_ops_of(const struct tp_prog *p)
{
	return p->ops;
}

void *
tp_prog_priv(const struct tp_prog *p)
{
	return p->priv;
}

bool
tp_prog_frames_only(const struct tp_prog *p)
{
	return p->ops->frames_only != NULL && p->ops->frames_only(p->priv);
}

unsigned int
tp_prog_redirect_targets(const struct tp_prog *p, uint32_t key, uint16_t ingress_port,
			 uint32_t *pos, uint32_t *keys, unsigned int max)
{
	if (p == NULL || p->ops->redirect_targets == NULL)
		return 0;
	return p->ops->redirect_targets(p->priv, key, ingress_port, pos, keys, max);
}

void
tp_prog_telemetry(const struct tp_prog *p, struct rte_tel_data *d)
{
	if (p != NULL && p->ops->telemetry != NULL)
		p->ops->telemetry(p->priv, d);
}
