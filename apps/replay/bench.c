/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay's benchmark figures: per-stage cycles, Mpps, Gbit/s, merge
 * sizes, verdicts, and DPDK's librte_gro beside tagpipe (--compare), as a
 * human table and as JSON (--json).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

const uint32_t replay_hist_upper[REPLAY_HIST_BUCKETS] = {
	1, 2, 4, 8, 16, 32, 64, UINT32_MAX,
};

static const char *const hist_label[REPLAY_HIST_BUCKETS] = {
	"1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65+",
};

int
replay_series_add(struct replay_series *s, double v)
{
	if (s->n == s->cap) {
		unsigned long cap = s->cap ? 2 * s->cap : 16;
		double *nv = realloc(s->v, cap * sizeof(*nv));

		if (nv == NULL)
			return -ENOMEM;
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
replay_series_spread(const struct replay_series *s, double *med, double *min,
		     double *max)
{
	double *v;

	*med = *min = *max = 0;
	if (s->n == 0)
		return;
	v = malloc(s->n * sizeof(*v));
	if (v == NULL) {
		/* No room to sort: the spread still holds. */
		*min = *max = *med = s->v[0];
		for (unsigned long i = 1; i < s->n; i++) {
			*min = s->v[i] < *min ? s->v[i] : *min;
			*max = s->v[i] > *max ? s->v[i] : *max;
		}
		return;
	}
	memcpy(v, s->v, s->n * sizeof(*v));
	qsort(v, s->n, sizeof(*v), cmp_double);
	*med = s->n % 2 ? v[s->n / 2] : (v[s->n / 2 - 1] + v[s->n / 2]) / 2;
	*min = v[0];
	*max = v[s->n - 1];
	free(v);
}

void
replay_series_free(struct replay_series *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* {"median":..,"min":..,"max":..,"loops":N} */
static void
series_json(FILE *f, const char *name, const struct replay_series *s)
{
	double med, lo, hi;

	replay_series_spread(s, &med, &lo, &hi);
	fprintf(f, "\"%s\":{\"median\":%.2f,\"min\":%.2f,\"max\":%.2f,\"loops\":%lu}",
		name, med, lo, hi, s->n);
}

struct figures {
	double cpp;     /* cycles per input packet */
	double mpps;
	double gbps;
	double ratio;   /* packets in / packets out of GRO */
};

/* Wire rate: frame bytes plus 24 per frame (preamble 8 + IFG 12 + FCS 4,
 * which a capture does not hold). */
static struct figures
figures(uint64_t pkts, uint64_t bytes, uint64_t cycles, uint64_t in, uint64_t out,
	uint64_t tsc_hz)
{
	struct figures f = { 0 };
	double secs = tsc_hz ? (double)cycles / (double)tsc_hz : 0.0;

	if (pkts > 0)
		f.cpp = (double)cycles / (double)pkts;
	if (secs > 0) {
		f.mpps = (double)pkts / secs / 1e6;
		f.gbps = ((double)bytes + 24.0 * (double)pkts) * 8 / secs / 1e9;
	}
	if (out > 0)
		f.ratio = (double)in / (double)out;
	return f;
}

static void
hist_json(FILE *f, const uint64_t *hist)
{
	fputc('{', f);
	for (int b = 0; b < REPLAY_HIST_BUCKETS; b++)
		fprintf(f, "%s\"%s\":%lu", b ? "," : "", hist_label[b], hist[b]);
	fputc('}', f);
}

static void
hist_print(FILE *f, const char *who, const uint64_t *hist)
{
	fprintf(f, "  merge sizes %-8s", who);
	for (int b = 0; b < REPLAY_HIST_BUCKETS; b++)
		fprintf(f, " %s:%lu", hist_label[b], hist[b]);
	fputc('\n', f);
}

/* ,"best_loop":{...}: the cheapest of the --loops, per input frame. */
static void
best_json(FILE *f, const struct replay_engine_stats *e, uint64_t tsc_hz,
	  const uint64_t *stages, const struct replay_counters *c)
{
	double fr = (double)e->best_frames;
	struct figures b;

	if (e->best_frames == 0)
		return;
	/* Bytes of that loop: the input's share (every loop replays it all). */
	b = figures(e->best_frames, c->rx ? (uint64_t)((double)c->rx_bytes * fr / (double)c->rx) : 0,
		    e->best_cycles, 0, 0, tsc_hz);
	fprintf(f, ",\"best_loop\":{\"frames\":%lu,\"cycles_per_packet\":%.2f,"
		"\"mpps\":%.4f,\"gbps\":%.4f", e->best_frames, b.cpp, b.mpps, b.gbps);
	if (stages != NULL) {
		fputs(",\"stage_cycles_per_packet\":{", f);
		for (unsigned int i = 0; i < c->nb_stages; i++)
			fprintf(f, "%s\"%s\":%.2f", i ? "," : "", c->stage_cycles[i].name,
				(double)stages[i] / fr);
		fputc('}', f);
	} else {
		fprintf(f, ",\"with_parse_cycles_per_packet\":%.2f",
			(double)(e->best_cycles + e->best_parse_cycles) / fr);
	}
	fputc('}', f);
}

struct json_ctx {
	const struct replay_opts *o;
	const struct replay_counters *c;
	uint64_t tsc_hz;
};

static void
tagpipe_json(FILE *f, const struct replay_counters *c, uint64_t tsc_hz, bool x_via_port)
{
	struct figures t = figures(c->rx, c->rx_bytes, c->cycles, c->tp.in, c->tp.out, tsc_hz);

	fprintf(f, "{\"packets\":%lu,\"bytes\":%lu,\"cycles\":%lu,"
		"\"cycles_per_packet\":%.2f,\"mpps\":%.4f,\"gbps\":%.4f",
		c->rx, c->rx_bytes, c->cycles, t.cpp, t.mpps, t.gbps);
	fputs(",\"stage_cycles_per_packet\":{", f);
	for (unsigned int i = 0; i < c->nb_stages; i++)
		fprintf(f, "%s\"%s\":%.2f", i ? "," : "", c->stage_cycles[i].name,
			c->rx ? (double)c->stage_cycles[i].value / (double)c->rx : 0.0);
	fputc('}', f);
	best_json(f, &c->tp, tsc_hz, c->best_stage_cycles, c);
	fputs(",\"per_loop\":{", f);
	series_json(f, "cycles_per_packet", &c->tp.loop_cpp);
	fputc(',', f);
	series_json(f, "gro_cycles_per_packet", &c->tp.loop_gro);
	fputc('}', f);
	if (x_via_port)
		fprintf(f, ",\"port_cycles_per_packet\":%.2f,\"port_lost\":%lu",
			c->rx ? (double)c->port_cycles / (double)c->rx : 0.0, c->port_lost);
	fprintf(f, ",\"gro\":{\"in\":%lu,\"out\":%lu,\"merge_ratio\":%.3f,"
		"\"hist_of\":\"pass,tx,redirect\",\"hist\":", c->tp.in, c->tp.out, t.ratio);
	hist_json(f, c->tp.hist);
	fputs("},\"verdicts\":{", f);
	for (int v = 0; v < REPLAY_NB_VERDICTS; v++)
		fprintf(f, "%s\"%s\":%lu", v ? "," : "", replay_verdict_names[v], c->verdict[v]);
	fputs("},\"verdict_packets\":{", f);
	for (int v = 0; v < REPLAY_NB_VERDICTS; v++)
		fprintf(f, "%s\"%s\":%lu", v ? "," : "", replay_verdict_names[v],
			c->verdict_pkts[v]);
	fputs("},\"drop_reasons\":", f);
	replay_json_named(f, c->drop_reasons, c->nb_drop_reasons, true);
	fprintf(f, ",\"mbufs_in_use_end\":%u}", c->mbufs_in_use_end);
}

/* librte_gro's flush, as configured for the comparison. */
static void
dpdk_flush_text(char *buf, size_t len, const struct replay_opts *o)
{
	if (o->gro_age_us == 0)
		snprintf(buf, len, "full flush after every burst (as tagpipe's burst mode)");
	else
		snprintf(buf, len, "timeout flush of %lu us after every burst (as tagpipe's age)",
			 (unsigned long)o->gro_age_us);
}

/* ,"gro_alone_tcp4":{...}: both engines alone on the TCP/IPv4 frames. */
static void
alone_json(FILE *f, const struct replay_alone *a)
{
	fprintf(f, ",\"gro_alone_tcp4\":{\"frames\":%lu", a->frames);
	if (a->tp.n > 0 && a->dpdk.n > 0) {
		fprintf(f, ",\"tagpipe\":{\"packets_out\":%lu,", a->tp_out);
		series_json(f, "cycles_per_packet", &a->tp);
		fprintf(f, "},\"dpdk\":{\"packets_out\":%lu,", a->dpdk_out);
		series_json(f, "cycles_per_packet", &a->dpdk);
		fputc('}', f);
	}
	fputc('}', f);
}

static void
dpdk_json(FILE *f, const struct replay_opts *o, const struct replay_counters *c,
	  uint64_t tsc_hz)
{
	const struct replay_engine_stats *d = &c->dpdk;
	uint64_t all = d->cycles + d->parse_cycles + d->untag_cycles;
	struct figures g = figures(d->in, c->rx_bytes, d->cycles, d->in, d->out, tsc_hz);
	struct figures p = figures(d->frames, c->rx_bytes, all, d->in, d->out, tsc_hz);
	double fr = d->frames ? (double)d->frames : 1.0;
	bool first = true;

	fprintf(f, "{\"frames\":%lu,\"packets\":%lu,\"cycles\":%lu,\"cycles_per_packet\":%.2f,"
		"\"untag_cycles_per_packet\":%.2f,\"parse_cycles_per_packet\":%.2f,"
		"\"with_parse_cycles_per_packet\":%.2f,\"pipeline_cycles_per_packet\":%.2f,"
		"\"mpps\":%.4f,\"gbps\":%.4f,\"cpu_only\":true,\"types\":[\"tcp4\"],",
		d->frames, d->in, d->cycles, g.cpp, (double)d->untag_cycles / fr,
		d->in ? (double)d->parse_cycles / (double)d->in : 0.0,
		d->in ? (double)(d->cycles + d->parse_cycles) / (double)d->in : 0.0,
		p.cpp, p.mpps, p.gbps);
	fprintf(f, "\"config\":{\"mode\":\"context\",\"flows\":%u,\"max_flow_num\":%u,"
		"\"max_item_per_flow\":%d,\"flush_timeout_us\":%lu,\"untag\":\"tagpipe\","
		"\"checksums\":\"none\"},",
		d->flows, d->max_flow_num, REPLAY_DGRO_ITEMS, (unsigned long)o->gro_age_us);
	fputs("\"cannot_merge\":{", f);
	for (int k = 0; k < REPLAY_DGRO_NB_KINDS; k++) {
		if (k == REPLAY_DGRO_TCP4 || d->kinds[k] == 0)
			continue;
		fprintf(f, "%s\"%s\":%lu", first ? "" : ",", replay_dgro_kind_names[k],
			d->kinds[k]);
		first = false;
	}
	fprintf(f, "},\"mergeable\":{\"tcp4\":%lu},", d->kinds[REPLAY_DGRO_TCP4]);
	fprintf(f, "\"gro\":{\"in\":%lu,\"out\":%lu,\"merge_ratio\":%.3f,\"hist\":",
		d->in, d->out, g.ratio);
	hist_json(f, d->hist);
	fputc('}', f);
	best_json(f, d, tsc_hz, NULL, c);
	fputs(",\"per_loop\":{", f);
	series_json(f, "cycles_per_packet", &d->loop_gro);
	fputc(',', f);
	series_json(f, "pipeline_cycles_per_packet", &d->loop_cpp);
	fputc('}', f);
	alone_json(f, &c->alone);
	fputc('}', f);
}

static void
verdicts_json(FILE *f, const char *name, const uint64_t *v)
{
	fprintf(f, "\"%s\":{", name);
	for (int i = 0; i < REPLAY_NB_VERDICTS; i++)
		fprintf(f, "%s\"%s\":%lu", i ? "," : "", replay_verdict_names[i], v[i]);
	fputc('}', f);
}

static double
per_sec(uint64_t n, uint64_t cycles, uint64_t tsc_hz)
{
	return cycles ? (double)n * (double)tsc_hz / (double)cycles / 1e6 : 0.0;
}

/* "workers":{...}: --workers, each worker's own figures and the wall clock
 * from the common start to the last worker's end. */
static void
workers_json(FILE *f, const struct replay_counters *c, uint64_t tsc_hz)
{
	const struct replay_workers *ws = c->workers;

	fprintf(f, "{\"n\":%u,\"split\":\"rss-toeplitz-5tuple\",\"frames\":%lu,"
		"\"wall_cycles\":%lu,\"wall_ms\":%.3f,\"wall_mpps\":%.4f,\"workers\":[",
		ws->n, c->rx, ws->wall_cycles,
		tsc_hz ? (double)ws->wall_cycles * 1e3 / (double)tsc_hz : 0.0,
		per_sec(c->rx, ws->wall_cycles, tsc_hz));
	for (unsigned int i = 0; i < ws->n; i++) {
		const struct replay_worker_result *r = &ws->w[i];
		const struct replay_counters *w = &r->c;

		fprintf(f, "%s{\"worker\":%u,\"lcore\":%u,\"frames\":%lu,\"bytes\":%lu,"
			"\"cycles\":%lu,\"cycles_per_packet\":%.2f,\"mpps\":%.4f,"
			"\"wall_cycles\":%lu,\"wall_mpps\":%.4f,", i ? "," : "", i, r->lcore,
			w->rx, w->rx_bytes, w->cycles,
			w->rx ? (double)w->cycles / (double)w->rx : 0.0,
			per_sec(w->rx, w->cycles, tsc_hz), r->wall_cycles,
			per_sec(w->rx, r->wall_cycles, tsc_hz));
		series_json(f, "per_loop_cycles_per_packet", &w->tp.loop_cpp);
		fprintf(f, ",\"gro\":{\"in\":%lu,\"out\":%lu,\"hist\":", w->tp.in, w->tp.out);
		hist_json(f, w->tp.hist);
		fputs("},", f);
		verdicts_json(f, "verdicts", w->verdict);
		fputc(',', f);
		verdicts_json(f, "verdict_packets", w->verdict_pkts);
		fputs(",\"drop_reasons\":", f);
		replay_json_named(f, w->drop_reasons, w->nb_drop_reasons, true);
		fprintf(f, ",\"held_in_gro\":%lu}", w->held_in_gro);
	}
	fputs("]}", f);
}

static void
bench_json(FILE *f, const void *arg)
{
	const struct json_ctx *x = arg;
	const struct replay_opts *o = x->o;

	fputs("{\"tool\":\"tagpipe-replay\",\"inputs\":[", f);
	for (unsigned int i = 0; i < o->nb_inputs; i++) {
		fputs(i ? ",\"" : "\"", f);
		for (const char *s = o->inputs[i]; *s; s++) {
			if (*s == '"' || *s == '\\')
				fputc('\\', f);
			fputc(*s, f);
		}
		fputc('"', f);
	}
	fprintf(f, "],\"burst\":%u,\"loops\":%lu,\"tsc_hz\":%lu,", o->burst, o->loops,
		x->tsc_hz);
	fprintf(f, "\"config\":{\"tagger\":\"%s\",\"vlan\":\"%s\",\"gro\":\"%s\","
		"\"gro_flows\":%u,\"gro_csum\":\"%s\",\"verdict\":\"%s\",\"via_port\":",
		o->tagger, o->vlan, o->gro, o->gro_flows,
		o->gro_conf.no_sw_csum ? "trust" : "verify", o->verdict);
	if (o->via_port != NULL)
		fprintf(f, "\"%s\"", o->via_port);
	else
		fputs("null", f);
	fputs("},\"tagpipe\":", f);
	tagpipe_json(f, x->c, x->tsc_hz, o->via_port != NULL);
	fputs(",\"dpdk_gro\":", f);
	if (o->compare_dpdk_gro)
		dpdk_json(f, o, x->c, x->tsc_hz);
	else
		fputs("null", f);
	fputs(",\"workers\":", f);
	if (x->c->workers != NULL)
		workers_json(f, x->c, x->tsc_hz);
	else
		fputs("null", f);
	fputs("}\n", f);
}

int
replay_json_write(const char *path, const struct replay_opts *o,
		  const struct replay_counters *c, uint64_t tsc_hz)
{
	struct json_ctx x = { .o = o, .c = c, .tsc_hz = tsc_hz };

	return replay_write_json(path, bench_json, &x);
}

/* "  NAME   tagpipe   dpdk   NOTE": per-loop medians and spreads with
 * --loops, else the run's figure. */
static void
compare_row(FILE *f, const char *name, const struct replay_series *a,
	    const struct replay_series *b, double a1, double b1, const char *note)
{
	double am, al, ah, bm, bl, bh;

	if (a->n > 1 && b->n > 1) {
		replay_series_spread(a, &am, &al, &ah);
		replay_series_spread(b, &bm, &bl, &bh);
		fprintf(f, "  %-18s %9.1f [%7.1f-%7.1f] %9.1f [%7.1f-%7.1f]  %s\n", name, am, al,
			ah, bm, bl, bh, note);
	} else {
		fprintf(f, "  %-18s %27.1f %27.1f  %s\n", name, a1, b1, note);
	}
}

static void
compare_print(FILE *f, const struct replay_opts *o, const struct replay_counters *c,
	      uint64_t tsc_hz)
{
	const struct replay_engine_stats *d = &c->dpdk;
	uint64_t dall = d->cycles + d->parse_cycles + d->untag_cycles;
	struct figures t = figures(c->rx, c->rx_bytes, c->cycles, c->tp.in, c->tp.out, tsc_hz);
	struct figures g = figures(d->in, c->rx_bytes, d->cycles, d->in, d->out, tsc_hz);
	struct figures p = figures(d->frames, c->rx_bytes, dall, d->in, d->out, tsc_hz);
	double tp_gro = 0;
	char flush[96], csum[160];
	bool any = false;

	for (unsigned int i = 0; i < c->nb_stages; i++)
		if (strcmp(c->stage_cycles[i].name, "gro") == 0 && c->rx)
			tp_gro = (double)c->stage_cycles[i].value / (double)c->rx;
	dpdk_flush_text(flush, sizeof(flush), o);
	if (o->gro_conf.no_sw_csum)
		snprintf(csum, sizeof(csum), "csum: same (tagpipe trusts, librte_gro checks none)");
	else
		snprintf(csum, sizeof(csum), "csum DIFFERS: tagpipe verifies unchecked ones in "
			 "software, librte_gro checks none");
	fprintf(f, "compare: tagpipe against DPDK 22.11 librte_gro, same frames and bursts, "
		"cycles per input frame%s\n", o->loops > 1 ? ", median [min-max] of the loops" : "");
	fprintf(f, "  dpdk-gro gets the frames after tagpipe's untag stages (tagger %s, vlan %s):\n"
		"    a DPDK application would have to strip switch and VLAN tags itself first\n",
		o->tagger, o->vlan);
	fprintf(f, "  dpdk-gro config: context mode, max_flow_num %u (2 x %u TCP/IPv4 flows in the "
		"input), max_item_per_flow %d,\n    %s\n", d->max_flow_num, d->flows,
		REPLAY_DGRO_ITEMS, flush);
	fprintf(f, "  %-18s %27s %27s\n", "", "tagpipe", "dpdk-gro");
	compare_row(f, "gro", &c->tp.loop_gro, &d->loop_gro, tp_gro, g.cpp, csum);
	compare_row(f, "pipeline", &c->tp.loop_cpp, &d->loop_cpp, t.cpp, p.cpp,
		    "tagpipe: dsa+vlan+gro+verdict+actions; dpdk: untag+parse+gro");
	if (c->alone.tp.n > 0 && c->alone.dpdk.n > 0) {
		const struct replay_alone *a = &c->alone;
		char note[160];

		snprintf(note, sizeof(note), "like with like: both alone on the %lu TCP/IPv4 "
			 "frames; packets out %lu vs %lu", a->frames, a->tp_out, a->dpdk_out);
		compare_row(f, "gro, tcp4 only", &a->tp, &a->dpdk, a->tp.v[0], a->dpdk.v[0], note);
	}
	if (o->loops > 1 && c->tp.loop_cpp.n > 1 && d->loop_cpp.n > 1) {
		/* From the median loops: one preempted loop must not set the
		 * rate. Bytes per frame: the input's average. */
		double tm, dm, lo, hi, fb = c->rx ? (double)(c->rx_bytes + 24 * c->rx) / c->rx : 0;

		replay_series_spread(&c->tp.loop_cpp, &tm, &lo, &hi);
		replay_series_spread(&d->loop_cpp, &dm, &lo, &hi);
		t.mpps = tm > 0 ? (double)tsc_hz / tm / 1e6 : 0;
		p.mpps = dm > 0 ? (double)tsc_hz / dm / 1e6 : 0;
		t.gbps = t.mpps * fb * 8 / 1e3;
		p.gbps = p.mpps * fb * 8 / 1e3;
	}
	fprintf(f, "  %-18s %27.3f %27.3f  (pipeline%s, CPU only: no I/O)\n", "Mpps", t.mpps,
		p.mpps, o->loops > 1 ? ", median loop" : "");
	fprintf(f, "  %-18s %27.3f %27.3f  (pipeline%s, CPU only: no I/O)\n", "Gbit/s", t.gbps,
		p.gbps, o->loops > 1 ? ", median loop" : "");
	fprintf(f, "  %-18s %27lu %27lu\n", "packets out", c->tp.out, d->out);
	fprintf(f, "  %-18s %27.2f %27.2f\n", "merge ratio", t.ratio, g.ratio);
	fprintf(f, "  dpdk-gro steps: untag %.1f, ptype parse %.1f (a NIC may give it), gro %.1f "
		"cycles/frame\n", d->frames ? (double)d->untag_cycles / (double)d->frames : 0.0,
		d->in ? (double)d->parse_cycles / (double)d->in : 0.0, g.cpp);
	hist_print(f, "dpdk-gro", d->hist);
	fputs("  dpdk-gro cannot merge (per pass of the input):", f);
	for (int k = 0; k < REPLAY_DGRO_NB_KINDS; k++) {
		if (k == REPLAY_DGRO_TCP4 || d->kinds[k] == 0)
			continue;
		fprintf(f, "%s %lu %s", any ? "," : "", d->kinds[k], replay_dgro_kind_names[k]);
		any = true;
	}
	fprintf(f, "%s\n", any ? "" : " nothing");
	if (d->kinds[REPLAY_DGRO_TCP6] > 0)
		fputs("    (tcp6: RTE_GRO_TCP_IPV6 arrived in DPDK 23.07; 22.11 merges TCP/IPv4 only)\n",
		      f);
}

static void
verdicts_print(FILE *f, const char *label, const uint64_t *v)
{
	fprintf(f, "%s pass %lu, tx %lu, redirect %lu, drop %lu, aborted %lu\n", label,
		v[REPLAY_PASS], v[REPLAY_TX], v[REPLAY_REDIRECT], v[REPLAY_DROP],
		v[REPLAY_ABORTED]);
}

/* --workers: a row per worker, then the wall-clock total. */
static void
workers_print(FILE *f, const struct replay_counters *c, uint64_t tsc_hz)
{
	const struct replay_workers *ws = c->workers;

	fprintf(f, "workers %u: one pipeline per lcore, frames split by RSS (Toeplitz, "
		"5-tuple), started together\n", ws->n);
	fprintf(f, "  %-6s %5s %10s %13s %22s %15s %10s\n", "worker", "lcore", "frames",
		"cycles/packet", "per loop med [min-max]", "Mpps (pipeline)", "gro out");
	for (unsigned int i = 0; i < ws->n; i++) {
		const struct replay_counters *w = &ws->w[i].c;
		double med, lo, hi;

		replay_series_spread(&w->tp.loop_cpp, &med, &lo, &hi);
		fprintf(f, "  %-6u %5u %10lu %13.1f %7.1f [%5.1f-%6.1f] %15.3f %10lu\n", i,
			ws->w[i].lcore, w->rx, w->rx ? (double)w->cycles / (double)w->rx : 0.0,
			med, lo, hi, per_sec(w->rx, w->cycles, tsc_hz), w->tp.out);
	}
	fprintf(f, "  total: %lu frames in %.3f ms from the common start to the last worker's "
		"end: %.3f Mpps wall clock\n    (that includes copying frames into mbufs, "
		"which the cycles/packet leave out)\n", c->rx,
		tsc_hz ? (double)ws->wall_cycles * 1e3 / (double)tsc_hz : 0.0,
		per_sec(c->rx, ws->wall_cycles, tsc_hz));
}

void
replay_summary(FILE *f, const struct replay_opts *o,
	       const struct replay_counters *c, uint64_t tsc_hz)
{
	struct figures t = figures(c->rx, c->rx_bytes, c->cycles, c->tp.in, c->tp.out, tsc_hz);

	if (c->workers != NULL) {
		/* Summed cycles make no rate: the workers' rows and the wall
		 * clock say it. */
		fprintf(f, "frames %lu, bytes %lu, %.1f cycles/packet (all workers' pipeline "
			"cycles over all frames)\n", c->rx, c->rx_bytes, t.cpp);
		workers_print(f, c, tsc_hz);
	} else {
		fprintf(f, "frames %lu, bytes %lu, %.3f Mpps, %.3f Gbit/s (CPU only, no I/O), "
			"%.1f cycles/packet\n",
			c->rx, c->rx_bytes, t.mpps, t.gbps, t.cpp);
	}
	if (c->nb_stages > 0) {
		fputs("  cycles/packet by stage:", f);
		for (unsigned int i = 0; i < c->nb_stages; i++)
			fprintf(f, " %s %.1f", c->stage_cycles[i].name,
				c->rx ? (double)c->stage_cycles[i].value / (double)c->rx : 0.0);
		fputc('\n', f);
	}
	if (o->loops > 1 && c->tp.best_frames > 0) {
		fprintf(f, "  best of %lu loops: %.1f cycles/packet:", o->loops,
			(double)c->tp.best_cycles / (double)c->tp.best_frames);
		for (unsigned int i = 0; i < c->nb_stages; i++)
			fprintf(f, " %s %.1f", c->stage_cycles[i].name,
				(double)c->best_stage_cycles[i] / (double)c->tp.best_frames);
		fputc('\n', f);
	}
	if (o->via_port != NULL)
		fprintf(f, "  through port %s: %.1f cycles/packet (TX + RX, not in the figure above),"
			" %lu frames lost in the port\n", o->via_port,
			c->rx ? (double)c->port_cycles / (double)c->rx : 0.0, c->port_lost);
	/* The program gives a verdict per packet (a merged one counts once);
	 * the frames they were made of are shown too when GRO merged any. */
	verdicts_print(f, "verdicts (packets):", c->verdict_pkts);
	if (memcmp(c->verdict_pkts, c->verdict, sizeof(c->verdict)) != 0)
		verdicts_print(f, "  in input frames:", c->verdict);
	if (c->tp.out > 0) {
		fprintf(f, "gro: %lu in, %lu out, merge ratio %.2f\n", c->tp.in, c->tp.out,
			t.ratio);
		/* TX and REDIRECT packets leave re-segmented: the sizes are
		 * those of the packets handed to the application (PASS). */
		hist_print(f, "tagpipe", c->tp.hist);
	}
	if (o->compare_dpdk_gro)
		compare_print(f, o, c, tsc_hz);
}
