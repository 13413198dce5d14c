/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay's benchmark figures: per-stage cycles, Mpps, Gbit/s, merge
 * sizes, verdicts, and DPDK's librte_gro beside tagpipe (--compare), as a
 * human table and as JSON (--json).
 */
#include <stdio.h>
#include <string.h>

#include "replay.h"

const uint32_t replay_hist_upper[REPLAY_HIST_BUCKETS] = {
	1, 2, 4, 8, 16, 32, 64, UINT32_MAX,
};

static const char *const hist_label[REPLAY_HIST_BUCKETS] = {
	"1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65+",
};

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
	if (x_via_port)
		fprintf(f, ",\"port_cycles_per_packet\":%.2f,\"port_lost\":%lu",
			c->rx ? (double)c->port_cycles / (double)c->rx : 0.0, c->port_lost);
	fprintf(f, ",\"gro\":{\"in\":%lu,\"out\":%lu,\"merge_ratio\":%.3f,"
		"\"hist_of\":\"pass\",\"hist\":", c->tp.in, c->tp.out, t.ratio);
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

static void
dpdk_json(FILE *f, const struct replay_counters *c, uint64_t tsc_hz)
{
	const struct replay_engine_stats *d = &c->dpdk;
	struct figures g = figures(d->in, c->rx_bytes, d->cycles, d->in, d->out, tsc_hz);
	struct figures p = figures(d->in, c->rx_bytes, d->cycles + d->parse_cycles,
				   d->in, d->out, tsc_hz);

	fprintf(f, "{\"packets\":%lu,\"cycles\":%lu,\"cycles_per_packet\":%.2f,"
		"\"parse_cycles_per_packet\":%.2f,\"with_parse_cycles_per_packet\":%.2f,"
		"\"mpps\":%.4f,\"gbps\":%.4f,\"types\":[\"tcp4\"],"
		"\"gro\":{\"in\":%lu,\"out\":%lu,\"merge_ratio\":%.3f,\"hist\":",
		d->in, d->cycles, g.cpp,
		d->in ? (double)d->parse_cycles / (double)d->in : 0.0, p.cpp,
		g.mpps, g.gbps, d->in, d->out, g.ratio);
	hist_json(f, d->hist);
	fputc('}', f);
	best_json(f, d, tsc_hz, NULL, c);
	fputc('}', f);
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
		dpdk_json(f, x->c, x->tsc_hz);
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

void
replay_summary(FILE *f, const struct replay_opts *o,
	       const struct replay_counters *c, uint64_t tsc_hz)
{
	struct figures t = figures(c->rx, c->rx_bytes, c->cycles, c->tp.in, c->tp.out, tsc_hz);

	fprintf(f, "frames %lu, bytes %lu, %.3f Mpps, %.3f Gbit/s, %.1f cycles/packet\n",
		c->rx, c->rx_bytes, t.mpps, t.gbps, t.cpp);
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
	fprintf(f, "verdicts: pass %lu, tx %lu, redirect %lu, drop %lu, aborted %lu\n",
		c->verdict[REPLAY_PASS], c->verdict[REPLAY_TX], c->verdict[REPLAY_REDIRECT],
		c->verdict[REPLAY_DROP], c->verdict[REPLAY_ABORTED]);
	if (c->tp.out > 0) {
		fprintf(f, "gro: %lu in, %lu out, merge ratio %.2f\n", c->tp.in, c->tp.out,
			t.ratio);
		/* TX and REDIRECT packets leave re-segmented: the sizes are
		 * those of the packets handed to the application (PASS). */
		hist_print(f, "tagpipe", c->tp.hist);
	}
	if (o->compare_dpdk_gro) {
		const struct replay_engine_stats *d = &c->dpdk;
		struct figures g = figures(d->in, c->rx_bytes, d->cycles, d->in, d->out, tsc_hz);
		double parse = d->in ? (double)d->parse_cycles / (double)d->in : 0.0;
		double tp_gro = -1;

		for (unsigned int i = 0; i < c->nb_stages; i++)
			if (strcmp(c->stage_cycles[i].name, "gro") == 0 && c->rx)
				tp_gro = (double)c->stage_cycles[i].value / (double)c->rx;
		fprintf(f, "compare           %12s %12s\n", "tagpipe", "dpdk-gro");
		fprintf(f, "  cycles/packet   %12.1f %12.1f  (dpdk: + %.1f to parse ptype)\n",
			t.cpp, g.cpp, parse);
		if (tp_gro >= 0)
			fprintf(f, "  gro stage c/p   %12.1f %12.1f\n", tp_gro, g.cpp);
		if (o->loops > 1 && c->tp.best_frames > 0 && d->best_frames > 0)
			fprintf(f, "  best loop c/p   %12.1f %12.1f\n",
				(double)c->tp.best_cycles / (double)c->tp.best_frames,
				(double)d->best_cycles / (double)d->best_frames);
		fprintf(f, "  Mpps            %12.3f %12.3f\n", t.mpps, g.mpps);
		fprintf(f, "  Gbit/s          %12.3f %12.3f\n", t.gbps, g.gbps);
		fprintf(f, "  packets out     %12lu %12lu\n", c->tp.out, d->out);
		fprintf(f, "  merge ratio     %12.2f %12.2f\n", t.ratio, g.ratio);
		hist_print(f, "dpdk-gro", d->hist);
		fputs("  (DPDK 22.11 librte_gro merges TCP/IPv4 only: TCP/IPv6 arrived in 23.07;\n"
		      "   it checks no checksum", f);
		if (!o->gro_conf.no_sw_csum)
			fputs(", tagpipe verifies them in software here: --gro-csum trust\n"
			      "   compares like with like", f);
		fputs(")\n", f);
	}
}
