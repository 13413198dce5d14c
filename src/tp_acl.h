/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_acl: the rules of the "acl" built-in program (spec "acl:FILE").
 *
 * File format: one rule per line, fields separated by blanks; '#' starts a
 * comment; blank lines are ignored.
 *
 *   VERDICT PROTO SRC DST SPORT DPORT
 *   default VERDICT
 *
 *   VERDICT  pass | drop | tx | aborted | redirect:N   (N: map key, decimal 0..65535)
 *   PROTO    tcp | udp | icmp | icmpv6 | any | 0..255 (IP protocol number)
 *   SRC,DST  any | IPv4 address[/len] | IPv6 address[/len]
 *            (an IPv4 prefix matches IPv4 packets only, IPv6 likewise)
 *   SPORT,   any | N | N-M   (0..65535; checked only for TCP and UDP:
 *   DPORT                     a rule with a port other than "any" never
 *                             matches another protocol)
 *
 * Rules are tried in file order; the first match gives the verdict. No
 * match: the "default" line's verdict (at most one such line; pass when
 * absent). A packet that is not IPv4/IPv6 (after up to two in-frame
 * 802.1Q/802.1ad tags; stripped tags are in the mbuf already) matches only
 * rules whose PROTO, SRC, DST, SPORT and DPORT are all "any". IPv4
 * fragments with a non-zero offset have no ports: they match only rules
 * with "any" ports. IPv6 extension headers are not walked: the protocol is
 * the IPv6 Next Header field.
 *
 * Errors: every bad line is reported as "FILE:LINE: bad FIELD 'VALUE'"
 * (the first bad field of the first bad line); at most TP_ACL_MAX_RULES;
 * a line longer than 1022 bytes or holding a NUL byte is refused naming
 * the line (and the NUL's column).
 *
 * Cost: a linear walk over the rules per packet (first match), fine for
 * tens of rules; not a classifier for thousands.
 */
#ifndef TP_ACL_H
#define TP_ACL_H

/* Declared here = exported: the library is built with -fvisibility=hidden
 * and its version.map lists these names (GCC manual, Visibility Pragmas). */
#pragma GCC visibility push(default)

#include <stddef.h>
#include <stdint.h>

#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TP_ACL_MAX_RULES 4096

struct tp_acl;

/* Load FILE. 0 and *out, -EINVAL (bad line; err names file, line, field and
 * value), -ENOENT/-EACCES (cannot open; err names the path), -ENOMEM. */
int tp_acl_load(const char *path, struct tp_acl **out, char *err, size_t errlen);
void tp_acl_free(struct tp_acl *a);
/* Number of rules (the default line excluded). */
uint32_t tp_acl_rules(const struct tp_acl *a);

/* Verdict for packet m (enum tp_verdict value); *key gets the redirect key
 * when the verdict is TP_REDIRECT. *rule gets the matching rule's index
 * (0-based, file order) or -1 for the default. Never reads past the data. */
uint8_t tp_acl_classify(const struct tp_acl *a, const struct rte_mbuf *m,
			uint32_t *key, int *rule);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* TP_ACL_H */
