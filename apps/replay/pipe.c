/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay: tagpipe's side. One pipeline instance (tp_pipeline.h) per
 * lcore that replays (one, or one per --workers worker); frames enter on port o->in_port (0, or the --via-port's id),
 * queue 0. Nothing is transmitted for real: the egress callback gets what
 * TX and REDIRECT would have sent (re-tagged, VLANs re-inserted, merged packets re-segmented in
 * software, since the replay ports offer no TSO), the pass callback gets
 * what the application would get, the drop callback sees what is freed.
 * Each callback hands its frames to replay_out, and the time spent in the
 * callbacks is taken out of tagpipe's cycles.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>

#include "replay.h"
#include "tp_pipeline.h"
#include "tp_stats.h"

/* replay_verdict and tp_verdict are both XDP's numbering. */
_Static_assert((int)REPLAY_ABORTED == TP_ABORTED && (int)REPLAY_DROP == TP_DROP &&
	       (int)REPLAY_PASS == TP_PASS && (int)REPLAY_TX == TP_TX &&
	       (int)REPLAY_REDIRECT == TP_REDIRECT, "verdict numbering");

struct replay_tp {
	struct tp_pipeline *pl;
	struct tp_redirect_map *redirect;
	struct replay_out *out;
	uint16_t in_port;
	uint64_t cycles;     /* in the pipeline, callbacks excluded */
	uint64_t cb_cycles;  /* in our callbacks during the current call */
	uint64_t cb_total;   /* in our callbacks, all calls */
	/* At the end of the previous loop: */
	uint64_t loop_cycles;
	uint64_t loop_cb;
	uint64_t loop_stage[TP_STAGE_MAX];
};

static void
on_pass(void *arg, uint16_t port, uint16_t queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct replay_tp *t = arg;
	uint64_t t0 = rte_rdtsc();

	RTE_SET_USED(port);
	RTE_SET_USED(queue);
	replay_out_emit(t->out, REPLAY_PASS, pkts, n, true, -1, 0);
	rte_pktmbuf_free_bulk(pkts, n);
	t->cb_cycles += rte_rdtsc() - t0;
}

static void
on_egress(void *arg, enum tp_verdict v, uint16_t out_port, uint16_t out_queue,
	  struct rte_mbuf **pkts, uint16_t n)
{
	struct replay_tp *t = arg;
	uint64_t t0 = rte_rdtsc();

	replay_out_emit(t->out, v == TP_TX ? REPLAY_TX : REPLAY_REDIRECT, pkts, n,
			false, out_port, out_queue);
	rte_pktmbuf_free_bulk(pkts, n);
	t->cb_cycles += rte_rdtsc() - t0;
}

static void
on_drop(void *arg, enum tp_verdict v, struct rte_mbuf *const *pkts, uint16_t n)
{
	struct replay_tp *t = arg;
	uint64_t t0 = rte_rdtsc();

	/* Not in the merge histogram: the callback cannot tell a verdict's
	 * drop from a stage's drop of a frame that never reached GRO. */
	replay_out_emit(t->out, v == TP_ABORTED ? REPLAY_ABORTED : REPLAY_DROP,
			pkts, n, false, -1, 0);
	t->cb_cycles += rte_rdtsc() - t0;
}

/* The ingress port's configuration from the options; every port a
 * redirect entry names gets the same (it re-tags for the same switch). */
void
replay_port_conf(const struct replay_opts *o, struct tp_port_conf *pc)
{
	pc->enabled = true;
	snprintf(pc->tagger, sizeof(pc->tagger), "%s", o->tagger);
	pc->vlan = strcmp(o->vlan, "keep") == 0 ? TP_VLAN_POLICY_KEEP : TP_VLAN_POLICY_STRIP;
	if (o->nb_tpids > 0)
		tp_vlan_conf_set_tpids(&pc->vlan_conf, o->tpids, o->nb_tpids);
	pc->tx_caps = 0;
	if (o->switch_cpu_port >= 0) {
		pc->dsa.flags |= TP_DSA_CONF_F_CPU_PORT;
		pc->dsa.cpu_port = (uint8_t)o->switch_cpu_port;
	}
}

static int
redirect_setup(const struct replay_opts *o, struct replay_tp *t,
	       struct tp_pipeline_conf *conf)
{
	uint32_t n = 0;

	for (unsigned int i = 0; i < o->nb_redirects; i++)
		n = RTE_MAX(n, o->redirects[i].key + 1);
	if (n == 0)
		return 0;
	t->redirect = tp_redirect_map_create(n);
	if (t->redirect == NULL)
		return -ENOMEM;
	for (unsigned int i = 0; i < o->nb_redirects; i++) {
		const struct replay_redirect *r = &o->redirects[i];

		if (tp_redirect_map_set_port(t->redirect, r->key, r->port, r->queue,
					     r->switch_port) < 0) {
			replay_err("--redirect: entry %u: bad target", r->key);
			return -EINVAL;
		}
		replay_port_conf(o, &conf->port[r->port]);
	}
	conf->redirect = t->redirect;
	return 0;
}

/* tp_pipeline_create, with what the libraries print on stderr while they
 * check the configuration held back: err says the same in one line, and the
 * replay's contract is one line per error. */
static int
create_quiet(const struct tp_pipeline_conf *conf, struct tp_pipeline **pl,
	     char *err, size_t errlen)
{
	int saved = replay_stderr_mute();
	int rc = tp_pipeline_create(conf, pl, err, errlen);

	replay_stderr_restore(saved);
	return rc;
}

struct replay_tp *
replay_tp_create(const struct replay_opts *o, struct rte_mempool *mp,
		 struct replay_out *out, int socket_id, int *rc)
{
	struct tp_pipeline_conf conf;
	struct replay_tp *t = calloc(1, sizeof(*t));
	char err[256] = "";

	if (t == NULL) {
		*rc = -ENOMEM;
		return NULL;
	}
	t->out = out;
	t->in_port = o->in_port;
	tp_pipeline_conf_init(&conf);
	conf.name = "replay";
	*rc = redirect_setup(o, t, &conf);
	if (*rc < 0)
		goto fail;
	replay_port_conf(o, &conf.port[t->in_port]);
	conf.gro = o->gro_conf;
	/* The summary prints cycles per stage; bursts are never larger. */
	conf.stage_cycles = true;
	conf.max_burst = (uint16_t)o->burst;
	conf.prog = o->prog;
	conf.prog_spec = o->verdict;
	conf.seg_pool = mp;
	conf.pass_cb = on_pass;
	conf.pass_arg = t;
	conf.egress_cb = on_egress;
	conf.egress_arg = t;
	conf.drop_cb = on_drop;
	conf.drop_arg = t;
	conf.socket_id = socket_id;   /* the memory of the lcore that runs it */
	*rc = create_quiet(&conf, &t->pl, err, sizeof(err));
	if (*rc < 0) {
		replay_err("%s", err[0] ? err : strerror(-*rc));
		goto fail;
	}
	return t;
fail:
	tp_redirect_map_free(t->redirect);
	free(t);
	return NULL;
}

int
replay_tp_burst(struct replay_tp *t, struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t t0;

	t->cb_cycles = 0;
	t0 = rte_rdtsc_precise();
	tp_pipeline_rx_burst(t->pl, t->in_port, 0, pkts, n);
	t->cycles += rte_rdtsc_precise() - t0 - t->cb_cycles;
	t->cb_total += t->cb_cycles;
	return t->out->error;
}

int
replay_tp_drain(struct replay_tp *t)
{
	uint64_t t0;

	t->cb_cycles = 0;
	t0 = rte_rdtsc_precise();
	while (tp_pipeline_held(t->pl) > 0)
		tp_pipeline_flush(t->pl, true, NULL, 0);
	t->cycles += rte_rdtsc_precise() - t0 - t->cb_cycles;
	t->cb_total += t->cb_cycles;
	return t->out->error;
}

void
replay_tp_loop_end(struct replay_tp *t, uint64_t frames, struct replay_counters *c)
{
	struct tp_pipeline_stats st;
	uint64_t cb = t->cb_total - t->loop_cb, d[TP_STAGE_MAX];
	uint64_t cyc = t->cycles - t->loop_cycles;

	if (tp_pipeline_stats_get(t->pl, &st) < 0)
		return;
	for (unsigned int s = 0; s < TP_STAGE_MAX; s++) {
		d[s] = st.stage[s].cycles - t->loop_stage[s];
		/* Our callbacks ran inside the actions stage. */
		if (s == TP_STAGE_ACTIONS)
			d[s] = d[s] > cb ? d[s] - cb : 0;
	}
	if (frames > 0 &&
	    (replay_series_add(&c->tp.loop_cpp, (double)cyc / (double)frames) < 0 ||
	     replay_series_add(&c->tp.loop_gro, (double)d[TP_STAGE_GRO] / (double)frames) < 0))
		t->out->error = -ENOMEM;
	if (replay_best_loop(&c->tp, cyc, 0, frames))
		for (unsigned int s = 0; s < TP_STAGE_MAX && s < REPLAY_MAX_NAMED; s++)
			c->best_stage_cycles[s] = d[s];
	t->loop_cycles = t->cycles;
	t->loop_cb = t->cb_total;
	for (unsigned int s = 0; s < TP_STAGE_MAX; s++)
		t->loop_stage[s] = st.stage[s].cycles;
}

void
replay_tp_counters(struct replay_tp *t, struct replay_counters *c)
{
	struct tp_pipeline_stats st;

	if (tp_pipeline_stats_get(t->pl, &st) < 0)
		return;
	c->verdict[REPLAY_PASS] = st.pass;
	c->verdict[REPLAY_TX] = st.tx;
	c->verdict[REPLAY_REDIRECT] = st.redirect;
	c->verdict[REPLAY_DROP] = st.drop;
	c->verdict[REPLAY_ABORTED] = st.aborted;
	/* What the program said, in packets (tp_stats.h: index = XDP code,
	 * the same order as REPLAY_VERDICTS). */
	for (int v = 0; v < REPLAY_NB_VERDICTS; v++)
		c->verdict_pkts[v] = st.verdict_pkts[v];
	c->nb_drop_reasons = 0;
	for (unsigned int r = 0; r < TP_DROP_MAX && c->nb_drop_reasons < REPLAY_MAX_NAMED; r++) {
		if (tp_drop_reason_name(r) == NULL)
			continue;      /* a spare slot (tp_stats.h) */
		c->drop_reasons[c->nb_drop_reasons].name = tp_drop_reason_name(r);
		c->drop_reasons[c->nb_drop_reasons++].value = st.drop_reason[r];
	}
	c->nb_stages = 0;
	for (unsigned int s = 0; s < TP_STAGE_MAX && s < REPLAY_MAX_NAMED; s++) {
		uint64_t cyc = st.stage[s].cycles;

		/* The actions stage calls our callbacks: their time is ours. */
		if (s == TP_STAGE_ACTIONS)
			cyc = cyc > t->cb_total ? cyc - t->cb_total : 0;
		c->stage_cycles[c->nb_stages].name = tp_stage_name(s);
		c->stage_cycles[c->nb_stages++].value = cyc;
	}
	c->gro_in = st.stage[TP_STAGE_GRO].in;
	c->gro_out = st.stage[TP_STAGE_GRO].out;
	c->tp.in = c->gro_in;
	c->tp.out = c->gro_out;
	c->held_in_gro = st.held_in_gro;
	c->copies = st.copies;
	c->cycles = t->cycles;
}

void
replay_tp_destroy(struct replay_tp *t)
{
	if (t == NULL)
		return;
	tp_pipeline_destroy(t->pl);
	tp_redirect_map_free(t->redirect);
	free(t);
}
