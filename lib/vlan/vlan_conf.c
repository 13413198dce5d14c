/* SPDX-License-Identifier: BSD-3-Clause */
/* VLAN configuration: TPID set and TX TPIDs (contract in tp_vlan.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include "vlan_private.h"
#include "tp_logtype.h"

/* The library's log type (tp_logtype.h). */
TP_LOGTYPE_DEFINE(tp_vlan_logtype, "tagpipe.vlan")

#define VLAN_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, tp_vlan_logtype, "tp_vlan: " fmt "\n", ##__VA_ARGS__)

const struct tp_vlan_conf tp_vlan_default_conf = {
	.tpid = { TP_VLAN_TPID_8021Q, TP_VLAN_TPID_8021AD,
		  TP_VLAN_TPID_8021Q, TP_VLAN_TPID_8021Q },
	.n_tpid = 2,
	.tx_offload = 0,
	.tx_outer_tpid = TP_VLAN_TPID_8021AD,
	.tx_inner_tpid = TP_VLAN_TPID_8021Q,
};

static const char *const drop_names[] = {
#define TP_VLAN_X_NAME(e, s) [TP_VLAN_DROP_##e] = s,
	TP_VLAN_DROP_REASONS(TP_VLAN_X_NAME)
#undef TP_VLAN_X_NAME
};

const char *
tp_vlan_drop_name(unsigned int reason)
{
	return reason < TP_VLAN_DROP_MAX ? drop_names[reason] : NULL;
}

/* The TPID set at debug level: "TPIDs (how): 0x8100 0x88a8". */
static void
log_tpids(const struct tp_vlan_conf *conf, const char *how)
{
	char buf[8 * TP_VLAN_MAX_TPIDS + 1];
	unsigned int i, len = 0;

	for (i = 0; i < conf->n_tpid && i < TP_VLAN_MAX_TPIDS; i++)
		len += (unsigned int)snprintf(buf + len, sizeof(buf) - len, " 0x%04x",
					      conf->tpid[i]);
	buf[len] = '\0';
	VLAN_LOG(DEBUG, "TPIDs (%s):%s", how, buf);
}

int
tp_vlan_conf_init(struct tp_vlan_conf *conf)
{
	static int default_logged;

	if (conf == NULL)
		return -EINVAL;
	*conf = tp_vlan_default_conf;
	/* The defaults never change: said once per process, not once per
	 * port of every pipeline conf made (32 lines a tp_pipeline_conf_init). */
	if (!__atomic_exchange_n(&default_logged, 1, __ATOMIC_RELAXED))
		log_tpids(conf, "default");
	return 0;
}

int
tp_vlan_conf_set_tpids(struct tp_vlan_conf *conf, const uint16_t *tpids,
		       unsigned int n)
{
	unsigned int i;

	if (conf == NULL || tpids == NULL)
		return -EINVAL;
	if (n == 0 || n > TP_VLAN_MAX_TPIDS) {
		VLAN_LOG(ERR, "%u TPIDs given; need 1..%d", n,
			TP_VLAN_MAX_TPIDS);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		/* EtherType values start at 0x0600; below is an 802.3 length. */
		if (tpids[i] < 0x0600) {
			VLAN_LOG(ERR, "TPID 0x%04x is not an EtherType (< 0x0600)",
				tpids[i]);
			return -EINVAL;
		}
	}
	for (i = 0; i < TP_VLAN_MAX_TPIDS; i++)
		conf->tpid[i] = i < n ? tpids[i] : tpids[0];
	conf->n_tpid = (uint8_t)n;
	log_tpids(conf, "set");
	return 0;
}

int
tp_vlan_conf_parse_tpids(struct tp_vlan_conf *conf, const char *list)
{
	uint16_t tpids[TP_VLAN_MAX_TPIDS];
	unsigned int n = 0;
	const char *p = list;

	if (conf == NULL || list == NULL)
		return -EINVAL;
	while (*p != '\0') {
		char *end;
		unsigned long v;

		if (n == TP_VLAN_MAX_TPIDS) {
			VLAN_LOG(ERR, "too many TPIDs in '%s' (max %d)",
				list, TP_VLAN_MAX_TPIDS);
			return -EINVAL;
		}
		errno = 0;
		v = strtoul(p, &end, 16);
		if (end == p || errno != 0 || v > 0xFFFF ||
		    (*end != ',' && *end != '\0')) {
			VLAN_LOG(ERR, "bad TPID '%.*s' in '%s'",
				(int)strcspn(p, ","), p, list);
			return -EINVAL;
		}
		tpids[n++] = (uint16_t)v;
		p = *end == ',' ? end + 1 : end;
	}
	return tp_vlan_conf_set_tpids(conf, tpids, n);
}
