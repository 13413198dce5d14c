/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_telemetry endpoints for the pipeline counters (contract:
 * tp_pipeline.h, "Telemetry"), read from the list of live pipelines (registry.h)
 * through the public API only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_telemetry.h>

#include "host_if_priv.h"
#include "registry.h"
#include "tp_pipeline.h"

struct collect_arg {
	struct tp_pipeline_stats *sum;
	uint32_t ports;
};

static void
add_one(const struct tp_pipeline *pl, uint32_t ports, void *arg)
{
	struct collect_arg *c = arg;
	struct tp_pipeline_stats st;

	tp_pipeline_stats_get(pl, &st);
	tp_pipeline_stats_add(c->sum, &st);
	c->ports |= ports;
}

struct names_arg {
	char *buf;
	size_t size, len;
};

static void
add_name(const struct tp_pipeline *pl, uint32_t ports, void *arg)
{
	struct names_arg *a = arg;
	int n;

	(void)ports;
	if (a->len >= a->size)
		return;
	n = snprintf(a->buf + a->len, a->size - a->len, "%s%s",
		     a->len > 0 ? ", " : "", tp_pipeline_name(pl));
	a->len += n > 0 ? (size_t)n : 0;
}

/*
 * Start the reply of a counter endpoint: the sum of all pipelines, or of the
 * one named by params, in *s and the configured ports in *ports. A name no
 * pipeline has gets a dict {"error": "..."} naming it and the live names
 * (rte_telemetry answers a failing callback with a bare null); returns 1
 * then, else 0.
 */
static int
start_dict(const char *params, struct rte_tel_data *d, struct tp_pipeline_stats *s,
	   uint32_t *ports)
{
	struct collect_arg c = { .sum = s, .ports = 0 };
	char names[RTE_TEL_MAX_STRING_LEN], msg[RTE_TEL_MAX_STRING_LEN];
	struct names_arg na = { .buf = names, .size = sizeof(names), .len = 0 };
	bool named = params != NULL && *params != '\0';

	memset(s, 0, sizeof(*s));
	rte_tel_data_start_dict(d);
	if (pl_registry_foreach(params, add_one, &c) == 0 && named) {
		names[0] = '\0';
		pl_registry_foreach(NULL, add_name, &na);
		snprintf(msg, sizeof(msg), "no pipeline named '%s' (pipelines: %s)",
			 params, na.len > 0 ? names : "none");
		rte_tel_data_add_dict_string(d, "error", msg);
		return 1;
	}
	*ports = c.ports;
	return 0;
}

static void
list_name(const struct tp_pipeline *pl, uint32_t ports, void *arg)
{
	(void)ports;
	rte_tel_data_add_array_string(arg, tp_pipeline_name(pl));
}

static int
h_pipelines(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	(void)params;
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	pl_registry_foreach(NULL, list_name, d);
	return 0;
}

static int
h_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_pipeline_stats s;
	uint32_t ports;

	(void)cmd;
	if (start_dict(params, d, &s, &ports) != 0)
		return 0;
	rte_tel_data_add_dict_u64(d, "rx", s.rx);
	rte_tel_data_add_dict_u64(d, "pass", s.pass);
	rte_tel_data_add_dict_u64(d, "tx", s.tx);
	rte_tel_data_add_dict_u64(d, "redirect", s.redirect);
	rte_tel_data_add_dict_u64(d, "drop", s.drop);
	rte_tel_data_add_dict_u64(d, "aborted", s.aborted);
	rte_tel_data_add_dict_u64(d, "held_in_gro", s.held_in_gro);
	rte_tel_data_add_dict_u64(d, "copies", s.copies);
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
	uint32_t ports;

	(void)cmd;
	if (start_dict(params, d, &s, &ports) != 0)
		return 0;
	for (unsigned int r = 0; r < TP_DROP_MAX; r++)
		if (tp_drop_reason_name(r) != NULL)
			rte_tel_data_add_dict_u64(d, tp_drop_reason_name(r), s.drop_reason[r]);
	return 0;
}

static int
h_stages(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tp_pipeline_stats s;
	uint32_t ports;

	(void)cmd;
	if (start_dict(params, d, &s, &ports) != 0)
		return 0;
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
	uint32_t ports;

	(void)cmd;
	if (start_dict(params, d, &s, &ports) != 0)
		return 0;
	for (unsigned int p = 0; p < TP_PIPELINE_MAX_PORTS; p++) {
		struct rte_tel_data *c;
		char name[16];

		if (!(ports & UINT32_C(1) << p))
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

/* "/tagpipe/verdict[,NAME]": the verdict program of the first pipeline (or
 * of NAME): its kind, and what the kind adds about how it runs
 * (tp_prog_telemetry: an XDP object's verified_by, execution, checks...).
 * Under the registry's lock: a pipeline leaves the list before its program
 * can be closed. */
struct verdict_arg {
	struct rte_tel_data *d;
	bool done;
};

static void
put_verdict(const struct tp_pipeline *pl, uint32_t ports, void *arg)
{
	struct verdict_arg *a = arg;
	const struct tp_prog *prog = tp_pipeline_prog(pl);

	(void)ports;
	if (a->done)
		return;
	a->done = true;
	rte_tel_data_add_dict_string(a->d, "pipeline", tp_pipeline_name(pl));
	rte_tel_data_add_dict_string(a->d, "program", tp_prog_ops_of(prog)->name);
	tp_prog_telemetry(prog, a->d);
}

static int
h_verdict(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct verdict_arg a = { .d = d };

	(void)cmd;
	rte_tel_data_start_dict(d);
	pl_registry_foreach(params != NULL && *params != '\0' ? params : NULL, put_verdict,
			    &a);
	if (!a.done)
		rte_tel_data_add_dict_string(d, "error", params != NULL && *params != '\0' ?
					     "no such pipeline" : "no pipeline");
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
		{ "/tagpipe/host_ifs", hif_telemetry,
		  "Host interfaces (one per switch port) and their counters. No parameters" },
		{ "/tagpipe/verdict", h_verdict,
		  "The verdict program; for an XDP object how it runs. Parameter: pipeline "
		  "name (optional)" },
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
