/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "acl" built-in: 5-tuple rules from a file, first match wins
 * (file format and contract: tp_prog.h, "ACL rules").
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>

#include "prog_priv.h"

#define ACL_ANY_PROTO 0xFFFF
#define ACL_LINE_MAX 1022        /* bytes of a rule line, its newline excluded */

struct acl_rule {
	uint8_t verdict;
	uint8_t family;          /* 0 any, 4, 6: family the prefixes require */
	uint16_t proto;          /* ACL_ANY_PROTO or 0..255 */
	uint8_t src[16], dst[16];/* network bytes, masked */
	uint8_t src_len, dst_len;/* prefix bits; 0 = any */
	uint8_t words;           /* 32-bit words compared: 1 (IPv4) or 4 */
	uint32_t srcw[4], dstw[4];   /* src/dst as loaded words (memcpy) */
	uint32_t srcm[4], dstm[4];   /* their masks, same byte order */
	uint16_t sport_lo, sport_hi, dport_lo, dport_hi;
	uint8_t ports_any;       /* both port ranges are 0..65535 */
	uint32_t key;            /* redirect key */
};

struct tp_acl {
	uint32_t n;
	uint8_t def_verdict;
	uint32_t def_key;
	struct acl_rule rule[];
};

/* ---- parsing ---------------------------------------------------------- */

static int
parse_verdict(const char *s, uint8_t *v, uint32_t *key)
{
	static const struct { const char *name; uint8_t v; } names[] = {
		{ "pass", TP_PASS }, { "drop", TP_DROP }, { "tx", TP_TX },
		{ "aborted", TP_ABORTED },
	};
	unsigned long long k;
	char *end;

	for (unsigned int i = 0; i < RTE_DIM(names); i++)
		if (strcmp(s, names[i].name) == 0) {
			*v = names[i].v;
			*key = 0;
			return 0;
		}
	if (strncmp(s, "redirect:", 9) != 0 || s[9] < '0' || s[9] > '9')
		return -1;
	errno = 0;
	k = strtoull(s + 9, &end, 10);
	if (errno != 0 || *end != '\0' || k >= TP_REDIRECT_MAP_MAX)
		return -1;
	*v = TP_REDIRECT;
	*key = (uint32_t)k;
	return 0;
}

static int
parse_proto(const char *s, uint16_t *p)
{
	unsigned long v;
	char *end;

	if (strcmp(s, "any") == 0)
		*p = ACL_ANY_PROTO;
	else if (strcmp(s, "tcp") == 0)
		*p = IPPROTO_TCP;
	else if (strcmp(s, "udp") == 0)
		*p = IPPROTO_UDP;
	else if (strcmp(s, "icmp") == 0)
		*p = IPPROTO_ICMP;
	else if (strcmp(s, "icmpv6") == 0)
		*p = IPPROTO_ICMPV6;
	else {
		if (s[0] < '0' || s[0] > '9')
			return -1;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno != 0 || *end != '\0' || v > 255)
			return -1;
		*p = (uint16_t)v;
	}
	return 0;
}

/* "any", "a.b.c.d[/n]", "v6[/n]". family: 0 (any), 4 or 6. */
static int
parse_prefix(const char *s, uint8_t *addr, uint8_t *len, uint8_t *family)
{
	char buf[64];
	const char *slash;
	unsigned long l;
	unsigned int max;
	char *end;

	memset(addr, 0, 16);
	if (strcmp(s, "any") == 0) {
		*len = 0;
		*family = 0;
		return 0;
	}
	slash = strchr(s, '/');
	if ((slash ? (size_t)(slash - s) : strlen(s)) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%.*s",
		 (int)(slash ? (size_t)(slash - s) : strlen(s)), s);
	if (inet_pton(AF_INET, buf, addr) == 1) {
		*family = 4;
		max = 32;
	} else if (inet_pton(AF_INET6, buf, addr) == 1) {
		*family = 6;
		max = 128;
	} else {
		return -1;
	}
	l = max;
	if (slash) {
		if (slash[1] < '0' || slash[1] > '9')
			return -1;
		errno = 0;
		l = strtoul(slash + 1, &end, 10);
		if (errno != 0 || *end != '\0' || l > max)
			return -1;
	}
	*len = (uint8_t)l;
	/* Mask host bits so the match is a plain compare. */
	for (unsigned int b = (unsigned int)l; b < 128; b++)
		addr[b / 8] &= (uint8_t)~(0x80u >> (b % 8));
	return 0;
}

static int
parse_port(const char *s, uint16_t *lo, uint16_t *hi)
{
	unsigned long a, b;
	char *end;

	if (strcmp(s, "any") == 0) {
		*lo = 0;
		*hi = 65535;
		return 0;
	}
	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	a = strtoul(s, &end, 10);
	b = a;
	if (*end == '-') {
		const char *t = end + 1;

		if (*t < '0' || *t > '9')
			return -1;
		b = strtoul(t, &end, 10);
	}
	if (errno != 0 || *end != '\0' || a > 65535 || b > 65535 || a > b)
		return -1;
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
}

#define ACL_FIELDS 6

/* A prefix as four 32-bit words and masks in memory byte order, so the
 * match is (word & mask) == net with words loaded the same way. */
static void
prefix_words(const uint8_t *net, uint8_t len, uint32_t *w, uint32_t *m)
{
	uint8_t mask[16] = { 0 };

	for (unsigned int b = 0; b < len; b++)
		mask[b / 8] |= (uint8_t)(0x80u >> (b % 8));
	memcpy(w, net, 16);
	memcpy(m, mask, 16);
}

static int
parse_rule(char **f, struct acl_rule *r, const char **bad_field, const char **bad_val)
{
	uint8_t fs, fd;

	memset(r, 0, sizeof(*r));
#define BAD(i, name) do { *bad_field = name; *bad_val = f[i]; return -1; } while (0)
	if (parse_verdict(f[0], &r->verdict, &r->key) < 0)
		BAD(0, "verdict");
	if (parse_proto(f[1], &r->proto) < 0)
		BAD(1, "protocol");
	if (parse_prefix(f[2], r->src, &r->src_len, &fs) < 0)
		BAD(2, "source address");
	if (parse_prefix(f[3], r->dst, &r->dst_len, &fd) < 0)
		BAD(3, "destination address");
	if (fs != 0 && fd != 0 && fs != fd)
		BAD(3, "destination address (family differs from the source)");
	if (parse_port(f[4], &r->sport_lo, &r->sport_hi) < 0)
		BAD(4, "source port");
	if (parse_port(f[5], &r->dport_lo, &r->dport_hi) < 0)
		BAD(5, "destination port");
#undef BAD
	r->family = fs ? fs : fd;
	r->words = r->family == 6 ? 4 : 1;
	prefix_words(r->src, r->src_len, r->srcw, r->srcm);
	prefix_words(r->dst, r->dst_len, r->dstw, r->dstm);
	r->ports_any = r->sport_lo == 0 && r->sport_hi == 65535 &&
		       r->dport_lo == 0 && r->dport_hi == 65535;
	return 0;
}

int
tp_acl_load(const char *path, struct tp_acl **out, char *err, size_t errlen)
{
	struct tp_acl *a;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned int lineno = 0;
	int have_default = 0;
	FILE *fp;
	int rc = 0;

	fp = fopen(path, "r");
	if (fp == NULL) {
		rc = -errno;
		snprintf(err, errlen, "acl: cannot open '%s': %s", path, strerror(errno));
		return rc;
	}
	a = calloc(1, sizeof(*a) + TP_ACL_MAX_RULES * sizeof(struct acl_rule));
	if (a == NULL) {
		fclose(fp);
		snprintf(err, errlen, "acl: out of memory");
		return -ENOMEM;
	}
	a->def_verdict = TP_PASS;
	/* getline, not fgets: a NUL byte must not pass for the end of the line */
	while ((len = getline(&line, &cap, fp)) >= 0) {
		char *f[ACL_FIELDS + 1], *save = NULL, *tok, *hash;
		const char *bf, *bv, *nul;
		unsigned int nf = 0;

		lineno++;
		if (len - (len > 0 && line[len - 1] == '\n') > ACL_LINE_MAX) {
			snprintf(err, errlen, "%s:%u: line longer than %u bytes",
				 path, lineno, ACL_LINE_MAX);
			rc = -EINVAL;
			break;
		}
		nul = memchr(line, '\0', (size_t)len);
		if (nul != NULL) {
			snprintf(err, errlen, "%s:%u: bad byte 0x00 at column %zu (a text file "
				 "has no NUL)", path, lineno, (size_t)(nul - line) + 1);
			rc = -EINVAL;
			break;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		for (tok = strtok_r(line, " \t\r\n", &save); tok != NULL;
		     tok = strtok_r(NULL, " \t\r\n", &save)) {
			if (nf == ACL_FIELDS) {
				snprintf(err, errlen, "%s:%u: bad field count: unexpected '%s' "
					 "(want VERDICT PROTO SRC DST SPORT DPORT)",
					 path, lineno, tok);
				rc = -EINVAL;
				goto out;
			}
			f[nf++] = tok;
		}
		if (nf == 0)
			continue;
		if (strcmp(f[0], "default") == 0) {
			if (nf != 2) {
				snprintf(err, errlen, "%s:%u: bad default line (want 'default VERDICT')",
					 path, lineno);
				rc = -EINVAL;
				break;
			}
			if (have_default) {
				snprintf(err, errlen, "%s:%u: bad default: second 'default' line",
					 path, lineno);
				rc = -EINVAL;
				break;
			}
			if (parse_verdict(f[1], &a->def_verdict, &a->def_key) < 0) {
				snprintf(err, errlen, "%s:%u: bad verdict '%s' (pass, drop, tx, "
					 "aborted, redirect:N with N 0..%u)", path, lineno,
					 f[1], TP_REDIRECT_MAP_MAX - 1);
				rc = -EINVAL;
				break;
			}
			have_default = 1;
			continue;
		}
		if (nf != ACL_FIELDS) {
			snprintf(err, errlen, "%s:%u: bad field count: %u fields "
				 "(want VERDICT PROTO SRC DST SPORT DPORT)", path, lineno, nf);
			rc = -EINVAL;
			break;
		}
		if (a->n == TP_ACL_MAX_RULES) {
			snprintf(err, errlen, "%s:%u: too many rules (max %u)", path,
				 lineno, TP_ACL_MAX_RULES);
			rc = -EINVAL;
			break;
		}
		if (parse_rule(f, &a->rule[a->n], &bf, &bv) < 0) {
			snprintf(err, errlen, "%s:%u: bad %s '%s'", path, lineno, bf, bv);
			rc = -EINVAL;
			break;
		}
		a->n++;
	}
out:
	free(line);
	fclose(fp);
	if (rc < 0) {
		free(a);
		return rc;
	}
	*out = a;
	return 0;
}

void
tp_acl_free(struct tp_acl *a)
{
	free(a);
}

uint32_t
tp_acl_rules(const struct tp_acl *a)
{
	return a->n;
}

/* ---- matching -------------------------------------------------------- */

/* The packet's 5-tuple as the rules see it. */
struct acl_pkt {
	uint8_t family;          /* 0: not IP */
	uint8_t proto;
	uint8_t has_ports;
	uint16_t sport, dport;
	uint32_t src[4], dst[4];  /* addresses as words (IPv4: word 0) */
};

static inline void
acl_parse(const struct rte_mbuf *m, struct acl_pkt *p)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t len = m->data_len, off = 12, l4;
	uint16_t et;

	p->family = 0;
	p->proto = 0;
	p->has_ports = 0;
	p->sport = p->dport = 0;
	memset(p->src, 0, sizeof(p->src));
	memset(p->dst, 0, sizeof(p->dst));
	if (len < 14)
		return;
	et = (uint16_t)(d[off] << 8 | d[off + 1]);
	/* Up to two in-frame tags (VLAN policy "keep"). */
	for (int t = 0; t < 2 && (et == RTE_ETHER_TYPE_VLAN || et == RTE_ETHER_TYPE_QINQ); t++) {
		off += 4;
		if (off + 2 > len)
			return;
		et = (uint16_t)(d[off] << 8 | d[off + 1]);
	}
	off += 2;
	if (et == RTE_ETHER_TYPE_IPV4) {
		uint32_t ihl;

		if (off + 20 > len || (d[off] >> 4) != 4)
			return;
		ihl = (uint32_t)(d[off] & 0x0F) * 4;
		if (ihl < 20)
			return;
		p->family = 4;
		p->proto = d[off + 9];
		memcpy(p->src, d + off + 12, 4);
		memcpy(p->dst, d + off + 16, 4);
		/* Only the first fragment carries ports (offset 0). */
		if ((((uint16_t)d[off + 6] << 8 | d[off + 7]) & RTE_IPV4_HDR_OFFSET_MASK) != 0)
			return;
		l4 = off + ihl;
	} else if (et == RTE_ETHER_TYPE_IPV6) {
		if (off + 40 > len || (d[off] >> 4) != 6)
			return;
		p->family = 6;
		p->proto = d[off + 6];
		memcpy(p->src, d + off + 8, 16);
		memcpy(p->dst, d + off + 24, 16);
		l4 = off + 40;
	} else {
		return;
	}
	if ((p->proto == IPPROTO_TCP || p->proto == IPPROTO_UDP) && l4 + 4 <= len) {
		p->has_ports = 1;
		p->sport = (uint16_t)(d[l4] << 8 | d[l4 + 1]);
		p->dport = (uint16_t)(d[l4 + 2] << 8 | d[l4 + 3]);
	}
}

static inline int
rule_match(const struct acl_rule *r, const struct acl_pkt *p)
{
	if (r->family != 0 && r->family != p->family)
		return 0;
	if (r->proto != ACL_ANY_PROTO && (p->family == 0 || r->proto != p->proto))
		return 0;
	if (r->src_len || r->dst_len) {
		uint32_t diff = 0;

		/* family matched above, so words fits the packet's addresses */
		for (unsigned int i = 0; i < r->words; i++)
			diff |= ((p->src[i] & r->srcm[i]) ^ r->srcw[i]) |
				((p->dst[i] & r->dstm[i]) ^ r->dstw[i]);
		if (diff != 0)
			return 0;
	}
	if (r->ports_any)
		return 1;
	if (!p->has_ports)
		return 0;
	return p->sport >= r->sport_lo && p->sport <= r->sport_hi &&
	       p->dport >= r->dport_lo && p->dport <= r->dport_hi;
}

uint8_t
tp_acl_classify(const struct tp_acl *a, const struct rte_mbuf *m,
		uint32_t *key, int *rule)
{
	struct acl_pkt p;

	acl_parse(m, &p);
	for (uint32_t i = 0; i < a->n; i++) {
		if (rule_match(&a->rule[i], &p)) {
			*key = a->rule[i].key;
			*rule = (int)i;
			return a->rule[i].verdict;
		}
	}
	*key = a->def_key;
	*rule = -1;
	return a->def_verdict;
}

/* ---- the program ------------------------------------------------------ */

static int
acl_init(const char *arg, void **priv, char *err, size_t errlen)
{
	struct tp_acl *a;
	int rc;

	if (arg == NULL || *arg == '\0') {
		snprintf(err, errlen, "program acl: needs a rules file (acl:FILE)");
		return -EINVAL;
	}
	rc = tp_acl_load(arg, &a, err, errlen);
	if (rc < 0)
		return rc;
	*priv = a;
	return 0;
}

static void
acl_fini(void *priv)
{
	tp_acl_free(priv);
}

static inline enum tp_verdict
prog_acl(void *priv, struct tp_xdp_md *ctx)
{
	int rule;

	return (enum tp_verdict)tp_acl_classify(priv, ctx->mbuf, &ctx->redirect_key,
						&rule);
}
TP_PROG_DEFINE(burst_acl, prog_acl)

const struct tp_prog_ops tp_prog_acl = {
	.name = "acl",
	.usage = "acl:FILE  5-tuple rules, first match (format: tp_prog.h)",
	.init = acl_init,
	.fini = acl_fini,
	.burst = burst_acl,
};
