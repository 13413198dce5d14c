/* SPDX-License-Identifier: BSD-3-Clause */
/* Tagger registry, metadata field and configuration checks (tp_dsa_tag.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mbuf_dyn.h>

#include "tag_impl.h"
#include "tp_logtype.h"

#define MAX_TAGGERS 64

/* The library's log type (tp_logtype.h). */
TP_LOGTYPE_DEFINE(tp_dsa_logtype, "tagpipe.dsa")

#define DSA_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, tp_dsa_logtype, "tp_dsa_tag: " fmt "\n", ##__VA_ARGS__)

int tp_dsa_meta_offset = -1;

const struct tp_dsa_conf tp_dsa_default_conf;

/* Filled by constructors before main(); read-only afterwards. */
static const struct tp_dsa_tagger *by_proto[TP_DSA_PROTO_MAX];
static const struct tp_dsa_tagger *all[MAX_TAGGERS];
static unsigned int n_all;
static tp_dsa_burst_fn strip_ref[TP_DSA_PROTO_MAX];
static tp_dsa_vlan_prefix_fn vlan_prefix[TP_DSA_PROTO_MAX];

static const char *const drop_names[] = {
#define TP_DSA_X_NAME(e, s) [TP_DSA_DROP_##e] = s,
	TP_DSA_DROP_REASONS(TP_DSA_X_NAME)
#undef TP_DSA_X_NAME
};

const char *
tp_dsa_drop_name(unsigned int reason)
{
	return reason < TP_DSA_DROP_MAX ? drop_names[reason] : NULL;
}

void
tp_dsa_tagger_register(const struct tp_dsa_tagger *t)
{
	unsigned int i;

	if (t->proto >= TP_DSA_PROTO_MAX || by_proto[t->proto] != NULL ||
	    n_all == MAX_TAGGERS) {
		DSA_LOG(ERR, "cannot register tagger '%s' (proto %u)",
			t->name, t->proto);
		return;
	}
	by_proto[t->proto] = t;
	/* Keep all[] sorted by protocol id. */
	for (i = n_all; i > 0 && all[i - 1]->proto > t->proto; i--)
		all[i] = all[i - 1];
	all[i] = t;
	n_all++;
	DSA_LOG(DEBUG, "tagger '%s' (proto %u, %u-byte TX tag)", t->name, t->proto,
		t->tx_len);
}

void
tp_dsa_strip_ref_set(unsigned int proto, tp_dsa_burst_fn ref)
{
	if (proto < TP_DSA_PROTO_MAX)
		strip_ref[proto] = ref;
}

void
tp_dsa_vlan_prefix_set(unsigned int proto, tp_dsa_vlan_prefix_fn f)
{
	if (proto < TP_DSA_PROTO_MAX)
		vlan_prefix[proto] = f;
}

uint16_t
tp_dsa_vlan_strip_prefix(const struct tp_dsa_tagger *t, struct rte_mbuf **pkts,
			 uint16_t n, const struct tp_dsa_conf *conf,
			 const struct tp_vlan_conf *vconf, struct tp_dsa_stats *stats,
			 struct tp_vlan_stats *vstats)
{
	/* Only the built-in tagger of that protocol has the fused path; the
	 * protocol table holds it (registration refuses a second one). */
	if (t->proto >= TP_DSA_PROTO_MAX || by_proto[t->proto] != t ||
	    vlan_prefix[t->proto] == NULL)
		return 0;
	return vlan_prefix[t->proto](pkts, n, conf, vconf, stats, vstats);
}

tp_dsa_burst_fn
tp_dsa_strip_ref(unsigned int proto)
{
	return proto < TP_DSA_PROTO_MAX ? strip_ref[proto] : NULL;
}

const struct tp_dsa_tagger *
tp_dsa_tagger_find(const char *name)
{
	unsigned int i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < n_all; i++) {
		if (strcmp(all[i]->name, name) == 0) {
			DSA_LOG(DEBUG, "tagger '%s': %u-byte RX tag, %u-byte TX tag, ports 0..%u",
				name, all[i]->rx_len, all[i]->tx_len, all[i]->rx_ports - 1u);
			return all[i];
		}
	}
	DSA_LOG(DEBUG, "no tagger named '%s' (%u registered)", name, n_all);
	return NULL;
}

const struct tp_dsa_tagger *
tp_dsa_tagger_find_proto(unsigned int proto)
{
	return proto < TP_DSA_PROTO_MAX ? by_proto[proto] : NULL;
}

unsigned int
tp_dsa_tagger_list(const struct tp_dsa_tagger **out, unsigned int max)
{
	unsigned int i;

	for (i = 0; i < n_all && i < max; i++)
		out[i] = all[i];
	return n_all;
}

static int
cmp_name(const void *a, const void *b)
{
	const struct tp_dsa_tagger *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

int
tp_dsa_tagger_names(char *buf, size_t len)
{
	const struct tp_dsa_tagger *sorted[MAX_TAGGERS];
	size_t used = 0;
	unsigned int i;

	memcpy(sorted, all, n_all * sizeof(all[0]));
	qsort(sorted, n_all, sizeof(sorted[0]), cmp_name);
	for (i = 0; i < n_all; i++) {
		const char *parts[2] = { i ? ", " : "", sorted[i]->name };
		unsigned int j;

		for (j = 0; j < 2; j++) {
			size_t pl = strlen(parts[j]);

			/* Copy what fits, always leaving room for the NUL. */
			if (buf != NULL && used + 1 < len)
				memcpy(buf + used, parts[j], RTE_MIN(pl, len - 1 - used));
			used += pl;
		}
	}
	if (buf != NULL && len > 0)
		buf[RTE_MIN(used, len - 1)] = '\0';
	return (int)used;
}

int
tp_dsa_meta_register(void)
{
	int off;

	if (tp_dsa_meta_offset >= 0)
		return 0;
	off = tp_dsa_meta_field_register();
	if (off < 0)
		return off;
	tp_dsa_meta_offset = off;
	return 0;
}

int
tp_dsa_conf_check(const struct tp_dsa_tagger *t, const struct tp_dsa_conf *c)
{
	if (t == NULL) {
		DSA_LOG(ERR, "no tagger");
		return -EINVAL;
	}
	if (c == NULL)
		c = &tp_dsa_default_conf;
	if (t->position == TP_DSA_POS_NONE)
		return 0; /* nothing to configure */
	if ((t->flags & TP_DSA_TAGGER_F_TX_CPU_PORT) && !(c->flags & TP_DSA_CONF_F_CPU_PORT)) {
		DSA_LOG(ERR, "tagger '%s' needs the CPU port number for TX",
			t->name);
		return -EINVAL;
	}
	if (c->n_ports > t->rx_ports && c->n_ports > t->tx_ports) {
		DSA_LOG(ERR, "n_ports %u: tagger '%s' names at most %u ports",
			c->n_ports, t->name, RTE_MAX(t->rx_ports, t->tx_ports));
		return -EINVAL;
	}
	if (c->n_devices > t->devices) {
		DSA_LOG(ERR, "n_devices %u: tagger '%s' names at most %u devices",
			c->n_devices, t->name, t->devices);
		return -EINVAL;
	}
	if (c->flags & TP_DSA_CONF_F_VBID_MAP) {
		unsigned int v;

		for (v = 1; v < RTE_DIM(c->vbid_port); v++) {
			if (c->vbid_port[v] != 0xFF && c->vbid_port[v] >= t->rx_ports) {
				DSA_LOG(ERR, "vbid_port[%u] = %u: tagger '%s' has ports 0..%u",
					v, c->vbid_port[v], t->name, t->rx_ports - 1);
				return -EINVAL;
			}
		}
	}
	if ((c->flags & TP_DSA_CONF_F_TX_PORT) &&
	    (c->tx_port >= t->tx_ports || c->tx_device >= t->devices)) {
		DSA_LOG(ERR, "tx port %u device %u: tagger '%s' "
			"addresses ports 0..%u, devices 0..%u", c->tx_port, c->tx_device,
			t->name, t->tx_ports - 1, t->devices - 1);
		return -EINVAL;
	}
	DSA_LOG(DEBUG, "tagger '%s' configured: ports %u (0: all), devices %u (0: all), "
		"cpu port %s%u, tx port %s%u", t->name, c->n_ports, c->n_devices,
		(c->flags & TP_DSA_CONF_F_CPU_PORT) ? "" : "unset ", c->cpu_port,
		(c->flags & TP_DSA_CONF_F_TX_PORT) ? "" : "unset ", c->tx_port);
	return 0;
}
