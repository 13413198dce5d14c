/* SPDX-License-Identifier: BSD-3-Clause */
/* tagpipe-replay: per-frame JSONL, final stats JSON, human summary. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay.h"

struct replay_meta {
	FILE *f;
	char *path;
	char *part;
};

struct replay_meta *
replay_meta_open(const char *path)
{
	struct replay_meta *mf = calloc(1, sizeof(*mf));

	if (mf == NULL)
		return NULL;
	/* "-": JSON lines on stdout as they are made (nothing to rename). */
	if (strcmp(path, "-") == 0) {
		mf->f = stdout;
		return mf;
	}
	mf->path = strdup(path);
	mf->part = malloc(strlen(path) + 6);
	if (mf->path == NULL || mf->part == NULL)
		goto fail;
	sprintf(mf->part, "%s.part", path);
	mf->f = fopen(mf->part, "w");
	if (mf->f == NULL) {
		replay_err("%s: %s", path, strerror(errno));
		goto fail;
	}
	return mf;
fail:
	free(mf->path);
	free(mf->part);
	free(mf);
	return NULL;
}

int
replay_meta_put(struct replay_meta *mf, enum replay_verdict v,
		const struct rte_mbuf *m, const struct replay_frame_meta *fm)
{
	FILE *f = mf->f;

	fprintf(f, "{\"frame\":%" PRIu32 ",\"ts_ns\":%" PRIu64 ",\"verdict\":\"%s\","
		"\"len\":%u,\"switch_port\":", fm->frame, fm->ts_ns,
		replay_verdict_names[v], rte_pktmbuf_pkt_len(m));
	if (fm->switch_port < 0)
		fputs("null,\"switch_device\":null", f);
	else
		fprintf(f, "%d,\"switch_device\":%u", fm->switch_port, fm->switch_device);
	fputs(",\"vlan\":[", f);
	for (unsigned int i = 0; i < fm->nb_vlan; i++)
		fprintf(f, "%s%u", i ? "," : "", fm->vlan[i]);
	fprintf(f, "],\"gso_segs\":%u,\"gso_size\":%u", fm->gso_segs, fm->gso_size);
	if (fm->out_port >= 0)
		fprintf(f, ",\"out_port\":%d,\"out_queue\":%u", fm->out_port, fm->out_queue);
	fputs("}\n", f);
	return ferror(f) ? -EIO : 0;
}

static void
meta_free(struct replay_meta *mf)
{
	free(mf->path);
	free(mf->part);
	free(mf);
}

int
replay_meta_commit(struct replay_meta *mf)
{
	int rc = 0;

	if (mf->path == NULL) {
		rc = fflush(mf->f) == 0 ? 0 : -EIO;
		if (rc < 0)
			replay_err("--meta -: cannot write stdout: %s", strerror(-rc));
		meta_free(mf);
		return rc;
	}
	if (fclose(mf->f) != 0)
		rc = -errno;
	if (rc == 0 && rename(mf->part, mf->path) != 0)
		rc = -errno;
	if (rc < 0) {
		replay_err("%s: cannot write: %s", mf->path, strerror(-rc));
		unlink(mf->part);
	}
	meta_free(mf);
	return rc;
}

void
replay_meta_abort(struct replay_meta *mf)
{
	if (mf == NULL)
		return;
	if (mf->path == NULL) {
		fflush(mf->f);
		meta_free(mf);
		return;
	}
	fclose(mf->f);
	unlink(mf->part);
	meta_free(mf);
}

/* s as a JSON string (RFC 8259 section 7: quote, backslash and control
 * characters escaped). */
static void
json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s != NULL && *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* "verdict": the program, and for an XDP object how it runs
 * (tp_prog_bpf_exec_info). */
static void
verdict_json(FILE *f, const struct replay_counters *c)
{
	fputs(",\"verdict\":{\"program\":", f);
	json_str(f, c->verdict_spec);
#ifdef TP_HAS_BPF
	const struct tp_bpf_exec_info *x = &c->xdp_info;

	if (c->xdp) {
		fputs(",\"path\":", f);
		json_str(f, x->path);
		fputs(",\"section\":", f);
		json_str(f, x->section);
		fputs(",\"function\":", f);
		json_str(f, x->function);
		fprintf(f, ",\"frags\":%s,\"verified_by\":", x->frags ? "true" : "false");
		json_str(f, x->verified_by);
		fputs(",\"execution\":", f);
		json_str(f, x->execution);
		fputs(",\"checks\":", f);
		json_str(f, x->checks);
		fputs(",\"reason\":", f);
		json_str(f, x->reason);
	}
#endif
	fputc('}', f);
}

static void
stats_json(FILE *f, const void *arg)
{
	const struct replay_counters *c = arg;

	fprintf(f, "{\"rx\":%lu,\"rx_bytes\":%lu", c->rx, c->rx_bytes);
	for (int v = 0; v < REPLAY_NB_VERDICTS; v++)
		fprintf(f, ",\"%s\":%lu", replay_verdict_names[v], c->verdict[v]);
	/* The keys above count input frames (rx = their sum); the program's
	 * verdicts are per packet, a merged one counting once. */
	fputs(",\"verdict_packets\":{", f);
	for (int v = 0; v < REPLAY_NB_VERDICTS; v++)
		fprintf(f, "%s\"%s\":%lu", v ? "," : "", replay_verdict_names[v],
			c->verdict_pkts[v]);
	fputc('}', f);
	fputs(",\"drop_reasons\":", f);
	replay_json_named(f, c->drop_reasons, c->nb_drop_reasons, true);
	fprintf(f, ",\"gro\":{\"in\":%lu,\"out\":%lu}", c->gro_in, c->gro_out);
	fprintf(f, ",\"held_in_gro\":%lu", c->held_in_gro);
	fprintf(f, ",\"copies\":%lu", c->copies);
	verdict_json(f, c);
	fprintf(f, ",\"cycles\":%lu,\"mbufs_in_use_end\":%u}\n", c->cycles,
		c->mbufs_in_use_end);
}

void
replay_json_named(FILE *f, const struct replay_named *v, unsigned int n,
		  bool skip_zero)
{
	bool first = true;

	fputc('{', f);
	for (unsigned int i = 0; i < n; i++) {
		if (skip_zero && v[i].value == 0)
			continue;
		fprintf(f, "%s\"%s\":%lu", first ? "" : ",", v[i].name, v[i].value);
		first = false;
	}
	fputc('}', f);
}

int
replay_json_probe(const char *path)
{
	char *part;
	FILE *f;
	int rc = 0;

	if (strcmp(path, "-") == 0)
		return 0;
	part = malloc(strlen(path) + 6);
	if (part == NULL)
		return -ENOMEM;
	sprintf(part, "%s.part", path);
	f = fopen(part, "w");
	if (f == NULL) {
		rc = -errno;
		replay_err("%s: %s", path, strerror(-rc));
	} else {
		fclose(f);
		unlink(part);
	}
	free(part);
	return rc;
}

int
replay_write_json(const char *path, void (*fill)(FILE *f, const void *arg),
		  const void *arg)
{
	char *part;
	FILE *f;
	int rc = 0;

	if (strcmp(path, "-") == 0) {
		fill(stdout, arg);
		return fflush(stdout) == 0 ? 0 : -EIO;
	}
	part = malloc(strlen(path) + 6);
	if (part == NULL)
		return -ENOMEM;
	sprintf(part, "%s.part", path);
	f = fopen(part, "w");
	if (f == NULL) {
		rc = -errno;
	} else {
		fill(f, arg);
		if (fclose(f) != 0 || rename(part, path) != 0)
			rc = -errno;
	}
	if (rc < 0) {
		replay_err("%s: cannot write: %s", path, strerror(-rc));
		unlink(part);
	}
	free(part);
	return rc;
}

int
replay_stats_write(const char *path, const struct replay_counters *c)
{
	return replay_write_json(path, stats_json, c);
}
