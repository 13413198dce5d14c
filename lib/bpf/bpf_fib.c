/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bpf_fib_lookup (helper 69) for XDP objects, against a route table the
 * user configures per program (tp_prog_bpf_route_add; contract in
 * tp_prog.h). What the helper returns and writes follows the kernel's
 * bpf_xdp_fib_lookup, bpf_ipv4_fib_lookup and bpf_ipv6_fib_lookup
 * (net/core/filter.c): the argument checks, the codes for blackhole,
 * unreachable and prohibit routes, the MTU check against the route's MTU
 * with mtu_result, the gateway written into ipv{4,6}_dst, rt_metric and
 * the egress ifindex, the neighbour's MAC into dmac and the egress
 * port's into smac. The kernel's tables are not read: a route carries its
 * next hop's MAC (a static neighbour entry) and the egress port's MAC.
 * Struct layout and codes: include/uapi/linux/bpf.h (struct
 * bpf_fib_lookup, BPF_FIB_LOOKUP_*, BPF_FIB_LKUP_RET_*).
 *
 * Lookups are longest-prefix matches in two LPM_TRIE tables of bpf_map.c
 * (one per family) whose values index the route array. A route is written
 * in full before its index is published, and slots are never reused, so
 * routes may be added while traffic runs.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "bpf_priv.h"
#include "tp_pipeline.h"

#define FIB_MAX_ROUTES 1024
#define FIB_DEFAULT_MTU 1500
#define FIB_RT_TABLE_MAIN 254 /* include/uapi/linux/rtnetlink.h RT_TABLE_MAIN */

enum fib_type { FIB_UNICAST, FIB_BLACKHOLE, FIB_UNREACHABLE, FIB_PROHIBIT };

struct fib_route {
	uint8_t type;       /* enum fib_type */
	uint8_t has_gw, has_src, has_lladdr;
	uint16_t mtu;
	uint32_t ifindex;   /* egress: tagpipe port + 1 */
	uint32_t metric;
	uint8_t gw[16], src[16]; /* network order; IPv4 in the first 4 */
	uint8_t lladdr[6], smac[6];
};

struct bpf_fib {
	struct tp_bpf_map lpm[2]; /* [0] IPv4, [1] IPv6: {prefixlen, addr} -> index */
	struct fib_route route[FIB_MAX_ROUTES];
	uint32_t nb_routes;
};

void
tpb_fib_free(struct tp_bpf *p)
{
	if (p->fib == NULL)
		return;
	tpb_map_fini(&p->fib->lpm[0]);
	tpb_map_fini(&p->fib->lpm[1]);
	free(p->fib);
	p->fib = NULL;
}

static int
fib_create(struct tp_bpf *p, char *err, size_t errlen)
{
	struct bpf_fib *f = calloc(1, sizeof(*f));

	if (f == NULL) {
		snprintf(err, errlen, "route table: out of memory");
		return -ENOMEM;
	}
	for (int v6 = 0; v6 < 2; v6++) {
		struct tp_bpf_map *m = &f->lpm[v6];

		snprintf(m->name, sizeof(m->name), "fib%c", v6 ? '6' : '4');
		m->type = BPF_MAP_TYPE_LPM_TRIE;
		m->key_size = 4 + (v6 ? 16 : 4);
		m->value_size = 4;
		m->max_entries = FIB_MAX_ROUTES;
		if (tpb_map_init(m, 1, err, errlen) < 0) {
			if (v6)
				tpb_map_fini(&f->lpm[0]);
			free(f);
			return -ENOMEM;
		}
	}
	p->fib = f;
	return 0;
}

static int
parse_mac(const char *s, uint8_t *mac)
{
	unsigned int b[6];
	char tail;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &tail) != 6)
		return -1;
	for (int i = 0; i < 6; i++) {
		if (b[i] > 0xFF)
			return -1;
		mac[i] = (uint8_t)b[i];
	}
	return 0;
}

/* An address of family fam (AF_INET/AF_INET6) into a (16 bytes). */
static int
parse_addr(const char *s, int fam, uint8_t *a)
{
	memset(a, 0, 16);
	return inet_pton(fam, s, a) == 1 ? 0 : -1;
}

static int
parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno != 0 || *end != '\0' || *v > max ? -1 : 0;
}

#define FIB_MAX_WORDS 16

int
tpb_fib_add(struct tp_bpf *p, const char *spec, char *err, size_t errlen)
{
	char buf[512], *w[FIB_MAX_WORDS], *save = NULL, *slash;
	struct fib_route r = { .type = FIB_UNICAST, .mtu = FIB_DEFAULT_MTU };
	uint8_t key[20] = { 0 };
	unsigned long v;
	unsigned int nw = 0, i = 0;
	uint32_t idx;
	int fam, has_dev = 0, rc;

	if (strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen, "route '%.40s...': too long", spec);
		return -EINVAL;
	}
	strcpy(buf, spec);
	for (char *t = strtok_r(buf, " ,\t", &save); t != NULL; t = strtok_r(NULL, " ,\t", &save)) {
		if (nw == FIB_MAX_WORDS) {
			snprintf(err, errlen, "route '%s': too many words", spec);
			return -EINVAL;
		}
		w[nw++] = t;
	}
	if (nw > 0 && strcmp(w[0], "blackhole") == 0)
		r.type = FIB_BLACKHOLE, i = 1;
	else if (nw > 0 && strcmp(w[0], "unreachable") == 0)
		r.type = FIB_UNREACHABLE, i = 1;
	else if (nw > 0 && strcmp(w[0], "prohibit") == 0)
		r.type = FIB_PROHIBIT, i = 1;
	if (i >= nw) {
		snprintf(err, errlen, "route '%s': no PREFIX/LEN", spec);
		return -EINVAL;
	}
	/* PREFIX/LEN (the length may be left out: a host route) */
	slash = strchr(w[i], '/');
	if (slash != NULL)
		*slash = '\0';
	fam = strchr(w[i], ':') != NULL ? AF_INET6 : AF_INET;
	if (parse_addr(w[i], fam, key + 4) < 0 ||
	    (slash != NULL && parse_uint(slash + 1, fam == AF_INET ? 32 : 128, &v) < 0)) {
		snprintf(err, errlen, "route '%s': bad prefix '%s%s%s'", spec, w[i],
			 slash ? "/" : "", slash ? slash + 1 : "");
		return -EINVAL;
	}
	if (slash == NULL)
		v = fam == AF_INET ? 32 : 128;
	key[0] = (uint8_t)v; /* prefixlen, host order (struct bpf_lpm_trie_key) */
	for (i++; i < nw; i += 2) {
		const char *k = w[i], *a = i + 1 < nw ? w[i + 1] : NULL;

		if (a == NULL) {
			snprintf(err, errlen, "route '%s': '%s' needs a value", spec, k);
			return -EINVAL;
		}
		if (strcmp(k, "via") == 0 && r.type == FIB_UNICAST)
			rc = parse_addr(a, fam, r.gw), r.has_gw = 1;
		else if (strcmp(k, "src") == 0 && r.type == FIB_UNICAST)
			rc = parse_addr(a, fam, r.src), r.has_src = 1;
		else if (strcmp(k, "dev") == 0 && r.type == FIB_UNICAST)
			rc = parse_uint(a, TP_PIPELINE_MAX_PORTS - 1, &v), r.ifindex = (uint32_t)v + 1,
			has_dev = 1;
		else if (strcmp(k, "lladdr") == 0 && r.type == FIB_UNICAST)
			rc = parse_mac(a, r.lladdr), r.has_lladdr = 1;
		else if (strcmp(k, "smac") == 0 && r.type == FIB_UNICAST)
			rc = parse_mac(a, r.smac);
		else if (strcmp(k, "mtu") == 0 && r.type == FIB_UNICAST)
			rc = parse_uint(a, 65535, &v) < 0 || v < 68 ? -1 : 0, r.mtu = (uint16_t)v;
		else if (strcmp(k, "metric") == 0)
			rc = parse_uint(a, UINT32_MAX, &v), r.metric = (uint32_t)v;
		else {
			snprintf(err, errlen, "route '%s': unknown word '%s' (via, dev, src, "
				 "lladdr, smac, mtu, metric%s)", spec, k,
				 r.type == FIB_UNICAST ? "" : "; only metric after blackhole, "
				 "unreachable, prohibit");
			return -EINVAL;
		}
		if (rc < 0) {
			snprintf(err, errlen, "route '%s': bad %s '%s'", spec, k, a);
			return -EINVAL;
		}
	}
	if (r.type == FIB_UNICAST && !has_dev) {
		snprintf(err, errlen, "route '%s': no 'dev PORT' (the egress port)", spec);
		return -EINVAL;
	}
	if (p->fib == NULL && (rc = fib_create(p, err, errlen)) < 0)
		return rc;
	if (p->fib->nb_routes == FIB_MAX_ROUTES) {
		snprintf(err, errlen, "route '%s': table full (%u routes)", spec, FIB_MAX_ROUTES);
		return -ENOSPC;
	}
	idx = p->fib->nb_routes++;
	p->fib->route[idx] = r;
	/* the route is whole before a lookup can find its index */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	rc = tpb_map_update(&p->fib->lpm[fam == AF_INET6], key, &idx, BPF_ANY, 0, true);
	if (rc < 0) {
		snprintf(err, errlen, "route '%s': %s", spec, strerror(-rc));
		return rc;
	}
	return 0;
}

/* rt6_need_strict (include/net/ip6_route.h): multicast, link-local and
 * loopback addresses are never forwarded. */
static int
v6_strict(const uint8_t *a)
{
	static const uint8_t loop[16] = { [15] = 1 };

	return a[0] == 0xFF || (a[0] == 0xFE && (a[1] & 0xC0) == 0x80) ||
	       memcmp(a, loop, 16) == 0;
}

uint64_t
tpb_h_fib_lookup(struct bpf_run *rs, uint64_t params, uint64_t plen, uint64_t flags)
{
	const uint64_t known = BPF_FIB_LOOKUP_DIRECT | BPF_FIB_LOOKUP_OUTPUT |
			       BPF_FIB_LOOKUP_SKIP_NEIGH | BPF_FIB_LOOKUP_TBID |
			       BPF_FIB_LOOKUP_SRC;
	const struct bpf_fib *fib = rs->prog->fib;
	struct bpf_fib_lookup q;
	const struct fib_route *r;
	const uint32_t *hit;
	uint8_t key[20];
	int v6;
	uint64_t ret = BPF_FIB_LKUP_RET_SUCCESS;

	RTE_BUILD_BUG_ON(sizeof(q) != 64);
	if (!tpb_run_mem_writable(rs, params, sizeof(q)))
		return tpb_run_fault(rs, BPF_CNT_BAD_HELPER_ARG);
	if ((int32_t)plen < (int32_t)sizeof(q) || (flags & ~known) != 0)
		return (uint64_t)-EINVAL;
	memcpy(&q, (const void *)(uintptr_t)params, sizeof(q));
	if (q.family != AF_INET && q.family != AF_INET6)
		return (uint64_t)-EAFNOSUPPORT;
	v6 = q.family == AF_INET6;
	if (v6 && (v6_strict((const uint8_t *)q.ipv6_dst) ||
		   v6_strict((const uint8_t *)q.ipv6_src)))
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	/* the device named must exist; forwarding is on for every port */
	if (q.ifindex == 0 || q.ifindex > TP_PIPELINE_MAX_PORTS)
		return (uint64_t)-ENODEV;
	/* one table, the main one: a direct lookup naming another finds none */
	if ((flags & BPF_FIB_LOOKUP_DIRECT) && (flags & BPF_FIB_LOOKUP_TBID) &&
	    q.tbid != FIB_RT_TABLE_MAIN)
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	if (fib == NULL)
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	memset(key, 0, sizeof(key));
	key[0] = v6 ? 128 : 32;
	memcpy(key + 4, v6 ? (const void *)q.ipv6_dst : (const void *)&q.ipv4_dst, v6 ? 16 : 4);
	hit = tpb_map_lookup((struct tp_bpf_map *)&fib->lpm[v6], key, 0);
	if (hit == NULL)
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	r = &fib->route[__atomic_load_n(hit, __ATOMIC_ACQUIRE)];
	switch (r->type) {
	case FIB_BLACKHOLE: return BPF_FIB_LKUP_RET_BLACKHOLE;
	case FIB_UNREACHABLE: return BPF_FIB_LKUP_RET_UNREACHABLE;
	case FIB_PROHIBIT: return BPF_FIB_LKUP_RET_PROHIBIT;
	default: break;
	}
	if (q.tot_len > r->mtu) {
		q.mtu_result = r->mtu; /* union with tot_len */
		ret = BPF_FIB_LKUP_RET_FRAG_NEEDED;
		goto out;
	}
	q.rt_metric = r->metric;
	q.ifindex = r->ifindex;
	if (flags & BPF_FIB_LOOKUP_SRC) {
		if (!r->has_src) {
			ret = BPF_FIB_LKUP_RET_NO_SRC_ADDR;
			goto out;
		}
		memcpy(v6 ? (void *)q.ipv6_src : (void *)&q.ipv4_src, r->src, v6 ? 16 : 4);
	}
	if (r->has_gw)
		memcpy(v6 ? (void *)q.ipv6_dst : (void *)&q.ipv4_dst, r->gw, v6 ? 16 : 4);
	if (!(flags & BPF_FIB_LOOKUP_SKIP_NEIGH)) {
		if (!r->has_lladdr) {
			ret = BPF_FIB_LKUP_RET_NO_NEIGH;
			goto out;
		}
		memcpy(q.dmac, r->lladdr, 6);
		memcpy(q.smac, r->smac, 6);
	}
	q.h_vlan_TCI = 0;
	q.h_vlan_proto = 0;
	q.mtu_result = r->mtu;
out:
	memcpy((void *)(uintptr_t)params, &q, sizeof(q));
	return ret;
}
