/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pipeline configuration, creation, counters (contract: tp_pipeline.h).
 * The datapath is in pipeline_rx.c and egress.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf_dyn.h>

#include "pipeline_priv.h"

RTE_LOG_REGISTER(tp_pipeline_logtype, tagpipe.pipeline, NOTICE);

/* The names and their counters come from the same list (tp_stats.h). */
/* Each library's drop reasons fit its range of slots (tp_stats.h); a
 * library that outgrows its range needs a new layout (an ABI change). */
_Static_assert(TP_DROP_DSA_BASE + TP_DSA_DROP_MAX <= TP_DROP_VLAN_BASE,
	       "lib/dsa_tag's drop reasons outgrew their slots");
_Static_assert(TP_DROP_VLAN_BASE + TP_VLAN_DROP_MAX <= TP_DROP_OWN_BASE,
	       "lib/vlan's drop reasons outgrew their slots");
_Static_assert(TP_DROP_OWN_END_ <= TP_DROP_MAX, "the pipeline's drop reasons outgrew their slots");
_Static_assert(TP_STATS_MAX_PORTS == TP_PIPELINE_MAX_PORTS, "port count");
_Static_assert(TP_NB_VERDICTS == 5, "XDP has five actions");

static unsigned int pl_count;

/* Write the message to err and the log; returns -EINVAL. */
static int __attribute__((format(printf, 3, 4)))
conf_err(char *err, size_t errlen, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s", buf);
	PL_LOG(ERR, "%s", buf);
	return -EINVAL;
}

void
tp_pipeline_conf_init(struct tp_pipeline_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	for (unsigned int p = 0; p < TP_PIPELINE_MAX_PORTS; p++) {
		snprintf(conf->port[p].tagger, sizeof(conf->port[p].tagger), "none");
		conf->port[p].vlan = TP_VLAN_POLICY_STRIP;
		tp_vlan_conf_init(&conf->port[p].vlan_conf);
	}
	conf->gro.mode = TP_GRO_BURST;
	conf->hook = TP_HOOK_AFTER_GRO;
	conf->tx_retries = 4;
	conf->socket_id = SOCKET_ID_ANY;
}

static int
parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *v)
{
	unsigned long long x;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || x < lo || x > hi)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* "4789+8472": 1 to TP_GRO_VXLAN_PORTS_MAX ports, each 1..65535; the rest
 * of ports[] zeroed. */
static int
parse_vxlan_ports(const char *s, uint16_t ports[TP_GRO_VXLAN_PORTS_MAX])
{
	char buf[64], *tok, *save = NULL;
	unsigned int n = 0;
	uint32_t v;

	if (*s == '\0' || *s == '+' || strlen(s) >= sizeof(buf) || s[strlen(s) - 1] == '+' ||
	    strstr(s, "++") != NULL)
		return -1;
	snprintf(buf, sizeof(buf), "%s", s);
	memset(ports, 0, TP_GRO_VXLAN_PORTS_MAX * sizeof(ports[0]));
	for (tok = strtok_r(buf, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
		if (n == TP_GRO_VXLAN_PORTS_MAX || parse_u32(tok, 1, 65535, &v) < 0)
			return -1;
		ports[n++] = (uint16_t)v;
	}
	return 0;
}

int
tp_pipeline_parse_gro(struct tp_pipeline_gro *gro, const char *s, char *err,
		      size_t errlen)
{
	char buf[128], *tok, *save = NULL;
	struct tp_pipeline_gro g = *gro;
	uint32_t v;
	int first = 1;

	if (s == NULL || strlen(s) >= sizeof(buf))
		return conf_err(err, errlen, "gro: bad value '%s'", s ? s : "(null)");
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (first) {
			first = 0;
			if (strcmp(tok, "off") == 0) {
				g.mode = TP_GRO_OFF;
			} else if (strcmp(tok, "burst") == 0) {
				g.mode = TP_GRO_BURST;
			} else if (strncmp(tok, "age:", 4) == 0 &&
				   parse_u32(tok + 4, 1, 1000000, &v) == 0) {
				g.mode = TP_GRO_AGE;
				g.age_usec = v;
			} else {
				return conf_err(err, errlen, "gro: bad mode '%s' (off, burst, "
						"age:USEC with USEC 1..1000000)", tok);
			}
		} else if (strncmp(tok, "flows=", 6) == 0) {
			if (parse_u32(tok + 6, 1, 65535, &v) < 0)
				return conf_err(err, errlen, "gro: bad flows '%s' (1..65535)", tok + 6);
			g.max_flows = v;
		} else if (strncmp(tok, "segs=", 5) == 0) {
			if (parse_u32(tok + 5, 2, 65535, &v) < 0)
				return conf_err(err, errlen, "gro: bad segs '%s' (2..65535)", tok + 5);
			g.max_segs = (uint16_t)v;
		} else if (strcmp(tok, "nocsum") == 0) {
			g.no_sw_csum = true;
		} else if (strcmp(tok, "kernel-order") == 0) {
			g.kernel_order = true;
		} else if (strcmp(tok, "udp") == 0) {
			g.udp = true;
		} else if (strcmp(tok, "ipip") == 0) {
			g.tunnels |= TP_GRO_TUN_IPIP;
		} else if (strcmp(tok, "geneve") == 0) {
			g.tunnels |= TP_GRO_TUN_GENEVE;
		} else if (strcmp(tok, "vxlan") == 0) {
			g.tunnels |= TP_GRO_TUN_VXLAN;
		} else if (strncmp(tok, "vxlan=", 6) == 0) {
			if (parse_vxlan_ports(tok + 6, g.vxlan_ports) < 0)
				return conf_err(err, errlen, "gro: bad VXLAN ports '%s' (1 to %d "
						"ports 1..65535 joined by +)", tok + 6,
						TP_GRO_VXLAN_PORTS_MAX);
			g.tunnels |= TP_GRO_TUN_VXLAN;
		} else {
			return conf_err(err, errlen, "gro: bad option '%s' (flows=N, segs=N, nocsum, "
					"kernel-order, udp, vxlan, vxlan=PORT[+PORT], geneve, "
					"ipip)", tok);
		}
	}
	if (first)
		return conf_err(err, errlen, "gro: bad value '%s'", s);
	*gro = g;
	return 0;
}

int
tp_pipeline_parse_vlan(struct tp_port_conf *pc, const char *s, char *err,
		       size_t errlen)
{
	const char *colon;
	size_t n;

	if (s == NULL)
		return conf_err(err, errlen, "vlan: no value");
	colon = strchr(s, ':');
	n = colon ? (size_t)(colon - s) : strlen(s);
	if (n == 5 && strncmp(s, "strip", 5) == 0)
		pc->vlan = TP_VLAN_POLICY_STRIP;
	else if (n == 4 && strncmp(s, "keep", 4) == 0)
		pc->vlan = TP_VLAN_POLICY_KEEP;
	else
		return conf_err(err, errlen, "vlan: bad policy '%.*s' (strip, keep)",
				(int)n, s);
	if (colon != NULL && tp_vlan_conf_parse_tpids(&pc->vlan_conf, colon + 1) < 0)
		return conf_err(err, errlen, "vlan: bad TPID list '%s'", colon + 1);
	return 0;
}

static int
port_setup(struct tp_pipeline *pl, unsigned int p, const struct tp_port_conf *pc,
	   char *err, size_t errlen)
{
	struct pl_port *pp = &pl->port[p];
	const char *tn = pc->tagger[0] != '\0' ? pc->tagger : "none";
	const struct tp_pipeline_gro *g = &pl->conf.gro;
	struct tp_dsa_conf chk;

	pp->enabled = true;
	if (memchr(pc->tagger, '\0', sizeof(pc->tagger)) == NULL)
		return conf_err(err, errlen, "port %u: tagger name not terminated", p);
	pp->tagger = tp_dsa_tagger_find(tn);
	if (pp->tagger == NULL) {
		char names[1024];

		tp_dsa_tagger_names(names, sizeof(names));
		return conf_err(err, errlen, "port %u: unknown tagger '%s' (known: %s)",
				p, tn, names);
	}
	pp->tag_insert = pp->tagger->proto != TP_DSA_PROTO_NONE;
	pp->dsa = pc->dsa;
	/* The CPU port is needed only to insert a tag (TX, REDIRECT to a
	 * port): without one the port still untags, and each frame sent with
	 * a tag is dropped by the insert as dsa no_config (counted). */
	chk = pp->dsa;
	if (pp->tagger->flags & TP_DSA_TAGGER_F_TX_CPU_PORT)
		chk.flags |= TP_DSA_CONF_F_CPU_PORT;
	if (tp_dsa_conf_check(pp->tagger, &chk) < 0)
		return conf_err(err, errlen, "port %u: tagger '%s' refuses its "
				"configuration (n_ports %u, n_devices %u, cpu_port %u, "
				"flags 0x%x)", p, tn, pc->dsa.n_ports, pc->dsa.n_devices,
				pc->dsa.cpu_port, pc->dsa.flags);
	if (pc->vlan != TP_VLAN_POLICY_STRIP && pc->vlan != TP_VLAN_POLICY_KEEP)
		return conf_err(err, errlen, "port %u: bad VLAN policy %d", p, (int)pc->vlan);
	pp->vlan_strip = pc->vlan == TP_VLAN_POLICY_STRIP;
	pp->vlan = pc->vlan_conf;
	if (pp->vlan.n_tpid == 0 || pp->vlan.n_tpid > TP_VLAN_MAX_TPIDS)
		return conf_err(err, errlen, "port %u: bad TPID count %u (1..%u)", p,
				pp->vlan.n_tpid, TP_VLAN_MAX_TPIDS);
	for (unsigned int i = 0; i < pp->vlan.n_tpid; i++)
		if (pp->vlan.tpid[i] < 0x0600)
			return conf_err(err, errlen, "port %u: bad TPID 0x%04x", p,
					pp->vlan.tpid[i]);
	if (pc->tx_caps & ~(TP_PORT_TX_VLAN_INSERT | TP_PORT_TX_QINQ_INSERT | TP_PORT_TX_TSO))
		return conf_err(err, errlen, "port %u: bad tx_caps 0x%x", p, pc->tx_caps);
	pp->vlan.tx_offload = 0;
	if (pc->tx_caps & TP_PORT_TX_VLAN_INSERT)
		pp->vlan.tx_offload |= TP_VLAN_TX_OFFLOAD_VLAN;
	if (pc->tx_caps & TP_PORT_TX_QINQ_INSERT)
		pp->vlan.tx_offload |= TP_VLAN_TX_OFFLOAD_QINQ;
	if ((pc->tx_caps & TP_PORT_TX_TSO) && pp->tagger->position == TP_DSA_POS_TAIL)
		return conf_err(err, errlen, "port %u: TSO with tail tagger '%s' "
				"(the trailer must end every segment)", p, tn);
	pp->tso = (pc->tx_caps & TP_PORT_TX_TSO) != 0;
	if (g->mode != TP_GRO_OFF) {
		struct tp_gro_conf gc = {
			.max_flows = g->max_flows,
			.max_segs = g->max_segs,
			.mode = g->mode == TP_GRO_AGE ? TP_GRO_MODE_AGE : TP_GRO_MODE_BURST,
			.age_tsc = g->mode == TP_GRO_AGE ? tp_gro_usec_to_tsc(g->age_usec) : 0,
			.no_sw_csum = g->no_sw_csum,
			.socket_id = pl->conf.socket_id,
			.order = g->kernel_order ? TP_GRO_ORDER_KERNEL : TP_GRO_ORDER_FLOW,
			.tunnels = g->tunnels,
			.udp = g->udp,
		};

		RTE_BUILD_BUG_ON(sizeof(gc.vxlan_ports) != sizeof(g->vxlan_ports));
		memcpy(gc.vxlan_ports, g->vxlan_ports, sizeof(gc.vxlan_ports));

		pp->gro_age = g->mode == TP_GRO_AGE;
		pp->gro = tp_gro_create(&gc);
		if (pp->gro == NULL) {
			if (rte_errno == ENOMEM)
				return -ENOMEM;
			return conf_err(err, errlen, "port %u: GRO refuses flows=%u segs=%u",
					p, g->max_flows, g->max_segs);
		}
		RTE_BUILD_BUG_ON(TP_PIPELINE_MAX_PORTS > 32);
		pl->gro_ports |= UINT32_C(1) << p;
	}
	return 0;
}

static int
check_conf(const struct tp_pipeline_conf *c, char *err, size_t errlen)
{
	const struct tp_pipeline_gro *g = &c->gro;

	if (g->mode != TP_GRO_OFF && g->mode != TP_GRO_BURST && g->mode != TP_GRO_AGE)
		return conf_err(err, errlen, "gro: bad mode %d", (int)g->mode);
	if (g->mode == TP_GRO_AGE && (g->age_usec == 0 || g->age_usec > 1000000))
		return conf_err(err, errlen, "gro: bad age_usec %u (1..1000000)", g->age_usec);
	if (g->max_flows > 65535)
		return conf_err(err, errlen, "gro: bad max_flows %u (0..65535)", g->max_flows);
	if (g->max_segs == 1)
		return conf_err(err, errlen, "gro: bad max_segs 1 (0 or 2..65535)");
	if (c->hook != TP_HOOK_AFTER_GRO && c->hook != TP_HOOK_BEFORE_GRO)
		return conf_err(err, errlen, "hook: bad value %d", (int)c->hook);
	if (c->max_burst > TP_PIPELINE_MAX_BURST)
		return conf_err(err, errlen, "max_burst: bad value %u (0..%d)", c->max_burst,
				TP_PIPELINE_MAX_BURST);
	if (c->tx_retries > 1000)
		return conf_err(err, errlen, "tx_retries: bad value %u (0..1000)", c->tx_retries);
	return 0;
}

/* Bytes of scratch for bursts of up to b frames (pipeline_priv.h). */
static size_t
scratch_size(uint16_t b)
{
	size_t e = 2u * b;

	return e * (7 * sizeof(struct rte_mbuf *) + 11 * sizeof(uint32_t) +
		    sizeof(uint64_t) + 3 * sizeof(uint16_t) + 2 * sizeof(uint8_t)) +
	       TP_EGRESS_MAX_SEGS * (2 * sizeof(struct rte_mbuf *) + sizeof(uint32_t) +
				     sizeof(uint8_t));
}

/* Carve the scratch arrays out of p, widest elements first (all stay
 * naturally aligned). */
static void
scratch_carve(struct tp_pipeline *pl, uint8_t *p)
{
	size_t e = 2u * pl->max_burst, g = TP_EGRESS_MAX_SEGS;

#define CARVE(field, count) do { \
		pl->field = (void *)p; \
		p += (count) * sizeof(*pl->field); \
	} while (0)
	CARVE(out, e);
	CARVE(drops, e);
	CARVE(grp, e);
	CARVE(rgrp, e);
	CARVE(bc, e);
	CARVE(bm, e);
	CARVE(bx, e);
	CARVE(gword, e);
	CARVE(eg, g);
	CARVE(eg_drops, g);
	CARVE(wt, e);
	CARVE(gwt, e);
	CARVE(rwt, e);
	CARVE(rkey, e);
	CARVE(key, e);
	CARVE(bcwt, e);
	CARVE(bckey, e);
	CARVE(bmwt, e);
	CARVE(bmkey, e);
	CARVE(bxwt, e);
	CARVE(bxkey, e);
	CARVE(eg_w, g);
	CARVE(gidx, e);
	CARVE(gcount, e);
	CARVE(gof, e);
	CARVE(verdict, e);
	CARVE(why, e);
	CARVE(eg_why, g);
#undef CARVE
}

/* lib/gro's fixed-IP-ID flag matters only where hardware TSO could be
 * used; resolved here so that egress never looks it up. Registering it
 * with lib/gro's own description gives lib/gro's bit (rte_mbuf_dyn.h:
 * the same name and parameters return the existing flag). */
static int
resolve_fixedid(struct tp_pipeline *pl)
{
	static const struct rte_mbuf_dynflag desc = { .name = TP_GRO_DYNFLAG_FIXEDID };
	bool tso = false;
	int bit;

	for (unsigned int p = 0; p < TP_PIPELINE_MAX_PORTS; p++)
		tso |= pl->port[p].enabled && pl->port[p].tso;
	if (!tso)
		return 0;
	bit = rte_mbuf_dynflag_register(&desc);
	if (bit < 0)
		return -rte_errno;
	pl->fixedid_flag = 1ULL << bit;
	return 0;
}

int
tp_pipeline_create(const struct tp_pipeline_conf *conf, struct tp_pipeline **out,
		   char *err, size_t errlen)
{
	struct tp_pipeline *pl;
	uint16_t max_burst;
	int rc;

	if (conf == NULL || out == NULL)
		return conf_err(err, errlen, "pipeline: NULL configuration or result");
	rc = check_conf(conf, err, errlen);
	if (rc < 0)
		return rc;
	rc = tp_dsa_meta_register();
	if (rc < 0)
		return conf_err(err, errlen, "pipeline: cannot register the switch-tag "
				"mbuf field (%s)", strerror(-rc));
	max_burst = conf->max_burst != 0 ? conf->max_burst : TP_PIPELINE_MAX_BURST;
	pl = rte_zmalloc_socket("tp_pipeline", sizeof(*pl) + scratch_size(max_burst),
				RTE_CACHE_LINE_SIZE, conf->socket_id);
	if (pl == NULL)
		return -ENOMEM;
	pl->conf = *conf;
	pl->conf.max_burst = pl->max_burst = max_burst;
	pl->time_stages = conf->stage_cycles;
	scratch_carve(pl, (uint8_t *)(pl + 1));
	if (conf->name != NULL)
		snprintf(pl->name, sizeof(pl->name), "%s", conf->name);
	else
		snprintf(pl->name, sizeof(pl->name), "pipeline%u",
			 __atomic_fetch_add(&pl_count, 1, __ATOMIC_RELAXED));
	pl->conf.name = pl->name;
	for (unsigned int p = 0; p < TP_PIPELINE_MAX_PORTS; p++) {
		if (!conf->port[p].enabled)
			continue;
		rc = port_setup(pl, p, &conf->port[p], err, errlen);
		if (rc < 0)
			goto fail;
	}
	rc = resolve_fixedid(pl);
	if (rc < 0) {
		conf_err(err, errlen, "pipeline: cannot register the mbuf flag '%s' (%s)",
			 TP_GRO_DYNFLAG_FIXEDID, strerror(-rc));
		goto fail;
	}
	if (conf->prog != NULL) {
		pl->prog = conf->prog;
	} else {
		rc = tp_prog_open(conf->prog_spec ? conf->prog_spec : "pass", &pl->prog,
				  err, errlen);
		if (rc < 0) {
			if (rc == -EINVAL && err != NULL)
				PL_LOG(ERR, "%s", err);
			goto fail;
		}
		pl->own_prog = true;
	}
	/* A plain XDP object (not xdp.frags) never sees a merged packet, as in
	 * the kernel, where XDP runs on each frame before GRO: its verdicts
	 * are taken per frame and only the frames it passes go on to GRO. */
	if (pl->conf.hook == TP_HOOK_AFTER_GRO && pl->conf.gro.mode != TP_GRO_OFF &&
	    tp_prog_frames_only(pl->prog)) {
		pl->conf.hook = TP_HOOK_BEFORE_GRO;
		PL_LOG(INFO, "pipeline %s: the XDP program is not xdp.frags: its verdicts "
		       "are taken per frame, before GRO", pl->name);
	}
	pl->prog_burst = tp_prog_ops_of(pl->prog)->burst;
	pl->prog_priv = tp_prog_priv(pl->prog);
	/* the built-in "pass" (names are unique in the registry, and the
	 * built-ins are registered first): its verdicts need no call */
	pl->prog_all_pass = strcmp(tp_prog_ops_of(pl->prog)->name, "pass") == 0;
	pl->rmap = conf->redirect;
	if (pl->rmap != NULL) {
		pl->rd_stamp = rte_zmalloc_socket("tp_rd_stamp",
						  pl->rmap->n * sizeof(uint32_t), 0,
						  conf->socket_id);
		pl->rd_group = rte_zmalloc_socket("tp_rd_group",
						  pl->rmap->n * sizeof(uint16_t), 0,
						  conf->socket_id);
		if (pl->rd_stamp == NULL || pl->rd_group == NULL) {
			rc = -ENOMEM;
			goto fail;
		}
	}
	pl_registry_add(pl);
	for (unsigned int p = 0; p < TP_PIPELINE_MAX_PORTS; p++)
		if (conf->port[p].enabled)
			PL_LOG(DEBUG, "pipeline %s: port %u tagger %s, VLAN %s, TX caps 0x%x",
			       pl->name, p, conf->port[p].tagger[0] ? conf->port[p].tagger : "none",
			       conf->port[p].vlan == TP_VLAN_POLICY_KEEP ? "keep" : "strip",
			       conf->port[p].tx_caps);
	PL_LOG(DEBUG, "pipeline %s: program %s, verdict %s GRO, GRO %s (age %u us), "
	       "max_burst %u, TX queue %u, redirect map %u entries", pl->name,
	       tp_prog_ops_of(pl->prog)->name, pl->conf.hook == TP_HOOK_BEFORE_GRO ? "before" : "after",
	       conf->gro.mode == TP_GRO_OFF ? "off" : conf->gro.mode == TP_GRO_AGE ? "age" :
	       "burst", conf->gro.age_usec, pl->max_burst, conf->tx_queue,
	       pl->rmap != NULL ? pl->rmap->n : 0);
	*out = pl;
	return 0;
fail:
	pl->conf.name = NULL;
	tp_pipeline_destroy(pl);
	return rc;
}

void
tp_pipeline_destroy(struct tp_pipeline *pl)
{
	if (pl == NULL)
		return;
	if (pl->conf.name != NULL) {
		pl_registry_del(pl);
		PL_LOG(DEBUG, "pipeline %s: destroyed (%u held in GRO freed)", pl->name,
		       tp_pipeline_held(pl));
	}
	for (unsigned int p = 0; p < TP_PIPELINE_MAX_PORTS; p++)
		tp_gro_destroy(pl->port[p].gro);
	if (pl->own_prog)
		tp_prog_close(pl->prog);
	rte_free(pl->rd_stamp);
	rte_free(pl->rd_group);
	rte_free(pl);
}

const char *
tp_pipeline_name(const struct tp_pipeline *pl)
{
	return pl->name;
}

const struct tp_prog *
tp_pipeline_prog(const struct tp_pipeline *pl)
{
	return pl->prog;
}

void
tp_pipeline_observe_verdicts(struct tp_pipeline *pl, tp_verdict_obs_t fn, void *arg)
{
	if (pl == NULL)
		return;
	/* The lcore reads fn with acquire, then arg: arg must be there first. */
	if (fn != NULL)
		pl->verdict_obs_arg = arg;
	__atomic_store_n(&pl->verdict_obs, fn, __ATOMIC_RELEASE);
}

uint32_t
tp_pipeline_held(const struct tp_pipeline *pl)
{
	uint32_t held = 0;

	/* asked on every empty poll of an age-mode loop: only GRO ports */
	for (uint32_t ports = pl->gro_ports; ports != 0; ports &= ports - 1)
		held += tp_gro_held(pl->port[__builtin_ctz(ports)].gro);
	return held;
}

int
tp_pipeline_stats_get(const struct tp_pipeline *pl, struct tp_pipeline_stats *st)
{
	/* The struct is all uint64_t counters, each written whole by the
	 * instance's lcore (pl_cnt_add): load each one whole too. */
	const uint64_t *s;
	uint64_t *d = (uint64_t *)st;

	if (pl == NULL || st == NULL)
		return -EINVAL;
	s = (const uint64_t *)&pl->st;
	for (size_t i = 0; i < sizeof(*st) / sizeof(uint64_t); i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
	st->held_in_gro = tp_pipeline_held(pl);
	return 0;
}

void
tp_pipeline_stats_reset(struct tp_pipeline *pl)
{
	memset(&pl->st, 0, sizeof(pl->st));
	memset(&pl->dsa_rx, 0, sizeof(pl->dsa_rx));
	memset(&pl->dsa_tx, 0, sizeof(pl->dsa_tx));
	memset(&pl->vlan_rx, 0, sizeof(pl->vlan_rx));
	memset(&pl->vlan_tx, 0, sizeof(pl->vlan_tx));
	pl->st.rx = tp_pipeline_held(pl);
}

void
tp_pipeline_stats_add(struct tp_pipeline_stats *acc,
		      const struct tp_pipeline_stats *a)
{
	/* The struct is all uint64_t counters. */
	uint64_t *d = (uint64_t *)acc;
	const uint64_t *s = (const uint64_t *)a;

	_Static_assert(sizeof(*acc) % sizeof(uint64_t) == 0, "counters only");
	for (size_t i = 0; i < sizeof(*acc) / sizeof(uint64_t); i++)
		d[i] += s[i];
}

/* ---- drops ------------------------------------------------------------- */

static void
free_group(struct tp_pipeline *pl, enum tp_verdict v, struct rte_mbuf **pkts,
	   uint16_t n)
{
	if (pl->conf.drop_cb != NULL)
		pl->conf.drop_cb(pl->conf.drop_arg, v, pkts, n);
	rte_pktmbuf_free_bulk(pkts, n);
}

void
pl_drop_w(struct tp_pipeline *pl, enum tp_drop_reason r, struct rte_mbuf **pkts,
	  uint16_t n, uint64_t w)
{
	if (n == 0)
		return;
	pl_cnt_add(&pl->st.drop_reason[r], w);
	pl_cnt_add(&pl->st.drop, w);
	free_group(pl, TP_DROP, pkts, n);
}

void
pl_drop(struct tp_pipeline *pl, enum tp_drop_reason r, struct rte_mbuf **pkts,
	uint16_t n)
{
	uint64_t w = 0;

	for (uint16_t i = 0; i < n; i++)
		w += pl_weight(pkts[i]);
	pl_drop_w(pl, r, pkts, n, w);
}

void
pl_drop_lib(struct tp_pipeline *pl, unsigned int base, struct rte_mbuf **pkts,
	    const uint8_t *why, uint16_t n)
{
	uint64_t w = 0;

	for (uint16_t i = 0; i < n; i++) {
		uint32_t wi = pl_weight(pkts[i]);

		pl_cnt_add(&pl->st.drop_reason[base + why[i]], wi);
		w += wi;
	}
	pl_cnt_add(&pl->st.drop, w);
	free_group(pl, TP_DROP, pkts, n);
}
