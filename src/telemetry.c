/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_telemetry endpoints for the pipeline counters (contract:
 * tp_telemetry.h) and the list of live pipelines they read.
 */
#include <errno.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_spinlock.h>
#include <rte_telemetry.h>

#include "pipeline_priv.h"
#include "tp_telemetry.h"

static TAILQ_HEAD(, tp_pipeline) pl_list = TAILQ_HEAD_INITIALIZER(pl_list);
static rte_spinlock_t pl_lock = RTE_SPINLOCK_INITIALIZER;

void
pl_registry_add(struct tp_pipeline *pl)
{
	rte_spinlock_lock(&pl_lock);
	TAILQ_INSERT_TAIL(&pl_list, pl, next);
	rte_spinlock_unlock(&pl_lock);
}

void
pl_registry_del(struct tp_pipeline *pl)
{
	rte_spinlock_lock(&pl_lock);
	TAILQ_REMOVE(&pl_list, pl, next);
	rte_spinlock_unlock(&pl_lock);
}

/* Sum of all pipelines, or the one named by params. -ENOENT if none. */
static int
collect(const char *params, struct tp_pipeline_stats *sum,
	bool enabled[TP_PIPELINE_MAX_PORTS])
{
	struct tp_pipeline *pl;
	int found = 0;

	memset(sum, 0, sizeof(*sum));
	memset(enabled, 0, TP_PIPELINE_MAX_PORTS * sizeof(bool));
	rte_spinlock_lock(&pl_lock);
	TAILQ_FOREACH(pl, &pl_list, next) {
		struct tp_pipeline_stats st;

		if (params != NULL && *params != '\0' && strcmp(params, pl->name) != 0)
			continue;
		tp_pipeline_stats_get(pl, &st);
		tp_pipeline_stats_add(sum, &st);
		for (unsigned int p = 0; p < TP_PIPELINE_MAX_PORTS; p++)
			enabled[p] |= pl->port[p].enabled;
		found = 1;
	}
	rte_spinlock_unlock(&pl_lock);
	return found || params == NULL || *params == '\0' ? 0 : -ENOENT;
}

/* Every counter endpoint: collect the counters, answer with a dict. */
static int
start_dict(const char *params, struct rte_tel_data *d, struct tp_pipeline_stats *s,
	   bool enabled[TP_PIPELINE_MAX_PORTS])
{
	if (collect(params, s, enabled) < 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	return 0;
}

static int
h_pipelines(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_pipeline *pl;

	(void)cmd;
	(void)params;
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	rte_spinlock_lock(&pl_lock);
	TAILQ_FOREACH(pl, &pl_list, next)
		rte_tel_data_add_array_string(d, pl->name);
	rte_spinlock_unlock(&pl_lock);
	return 0;
}

static int
h_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_pipeline_stats s;
	bool en[TP_PIPELINE_MAX_PORTS];

	(void)cmd;
	if (start_dict(params, d, &s, en) < 0)
		return -EINVAL;
	rte_tel_data_add_dict_u64(d, "rx", s.rx);
	rte_tel_data_add_dict_u64(d, "pass", s.pass);
	rte_tel_data_add_dict_u64(d, "tx", s.tx);
	rte_tel_data_add_dict_u64(d, "redirect", s.redirect);
	rte_tel_data_add_dict_u64(d, "drop", s.drop);
	rte_tel_data_add_dict_u64(d, "aborted", s.aborted);
	rte_tel_data_add_dict_u64(d, "held_in_gro", s.held_in_gro);
	for (unsigned int v = 0; v < TP_NB_VERDICTS; v++) {
		char k[40];

		snprintf(k, sizeof(k), "verdict_%s", tp_verdict_name(v));
		rte_tel_data_add_dict_u64(d, k, s.verdict[v]);
		snprintf(k, sizeof(k), "verdict_%s_pkts", tp_verdict_name(v));
		rte_tel_data_add_dict_u64(d, k, s.verdict_pkts[v]);
	}
	rte_tel_data_add_dict_u64(d, "bad_verdict", s.bad_verdict);
	rte_tel_data_add_dict_u64(d, "tso", s.tso);
	rte_tel_data_add_dict_u64(d, "segmented", s.segmented);
	rte_tel_data_add_dict_u64(d, "tx_retries", s.tx_retries);
	return 0;
}

static int
h_drops(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_pipeline_stats s;
	bool en[TP_PIPELINE_MAX_PORTS];

	(void)cmd;
	if (start_dict(params, d, &s, en) < 0)
		return -EINVAL;
	for (unsigned int r = 0; r < TP_DROP_MAX; r++)
		rte_tel_data_add_dict_u64(d, tp_drop_reason_name(r), s.drop_reason[r]);
	return 0;
}

static int
h_stages(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_pipeline_stats s;
	bool en[TP_PIPELINE_MAX_PORTS];

	(void)cmd;
	if (start_dict(params, d, &s, en) < 0)
		return -EINVAL;
	for (unsigned int i = 0; i < TP_STAGE_MAX; i++) {
		struct rte_tel_data *c = rte_tel_data_alloc();

		if (c == NULL)
			return -ENOMEM;
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "calls", s.stage[i].calls);
		rte_tel_data_add_dict_u64(c, "in", s.stage[i].in);
		rte_tel_data_add_dict_u64(c, "out", s.stage[i].out);
		rte_tel_data_add_dict_u64(c, "drop", s.stage[i].drop);
		rte_tel_data_add_dict_u64(c, "cycles", s.stage[i].cycles);
		rte_tel_data_add_dict_container(d, tp_stage_name(i), c, 0);
	}
	return 0;
}

static int
h_ports(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_pipeline_stats s;
	bool en[TP_PIPELINE_MAX_PORTS];

	(void)cmd;
	if (start_dict(params, d, &s, en) < 0)
		return -EINVAL;
	for (unsigned int p = 0; p < TP_PIPELINE_MAX_PORTS; p++) {
		struct rte_tel_data *c;
		char name[16];

		if (!en[p])
			continue;
		c = rte_tel_data_alloc();
		if (c == NULL)
			return -ENOMEM;
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "rx", s.port[p].rx);
		rte_tel_data_add_dict_u64(c, "tx", s.port[p].tx);
		rte_tel_data_add_dict_u64(c, "tx_full", s.port[p].tx_full);
		rte_tel_data_add_dict_u64(c, "tx_wire", s.port[p].tx_wire);
		snprintf(name, sizeof(name), "%u", p);
		rte_tel_data_add_dict_container(d, name, c, 0);
	}
	return 0;
}

int
tp_telemetry_register(void)
{
	static const struct {
		const char *cmd;
		telemetry_cb fn;
		const char *help;
	} eps[] = {
		{ "/tagpipe/pipelines", h_pipelines,
		  "Names of the tagpipe pipelines. No parameters" },
		{ "/tagpipe/stats", h_stats,
		  "Conservation and verdict counters (frames). Parameter: pipeline name (optional)" },
		{ "/tagpipe/drops", h_drops,
		  "Drops per reason (frames). Parameter: pipeline name (optional)" },
		{ "/tagpipe/stages", h_stages,
		  "Per stage calls/in/out/drop/cycles. Parameter: pipeline name (optional)" },
		{ "/tagpipe/ports", h_ports,
		  "Per port rx/tx/tx_full/tx_wire. Parameter: pipeline name (optional)" },
	};
	static bool done;

	if (done)
		return 0;
	for (unsigned int i = 0; i < RTE_DIM(eps); i++) {
		int rc = rte_telemetry_register_cmd(eps[i].cmd, eps[i].fn, eps[i].help);

		if (rc < 0 && rc != -EINVAL)
			return rc;
	}
	done = true;
	return 0;
}
