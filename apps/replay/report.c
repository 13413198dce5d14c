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

	fprintf(f, "{\"verdict\":\"%s\",\"len\":%u,\"switch_port\":",
		replay_verdict_names[v], rte_pktmbuf_pkt_len(m));
	if (fm->switch_port < 0)
		fputs("null", f);
	else
		fprintf(f, "%d", fm->switch_port);
	fputs(",\"vlan\":[", f);
	for (unsigned int i = 0; i < fm->nb_vlan; i++)
		fprintf(f, "%s%u", i ? "," : "", fm->vlan[i]);
	fprintf(f, "],\"gso_segs\":%u,\"gso_size\":%u}\n", fm->gso_segs, fm->gso_size);
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
	fclose(mf->f);
	unlink(mf->part);
	meta_free(mf);
}

static void
stats_json(FILE *f, const struct replay_counters *c)
{
	fprintf(f, "{\"rx\":%lu,\"rx_bytes\":%lu", c->rx, c->rx_bytes);
	for (int v = 0; v < REPLAY_NB_VERDICTS; v++)
		fprintf(f, ",\"%s\":%lu", replay_verdict_names[v], c->verdict[v]);
	/* No stage can drop yet, so there is no reason to list. */
	fprintf(f, ",\"drop_reasons\":{}");
	fprintf(f, ",\"gro\":{\"in\":%lu,\"out\":%lu}", c->gro_in, c->gro_out);
	fprintf(f, ",\"cycles\":%lu,\"mbufs_in_use_end\":%u}\n", c->cycles,
		c->mbufs_in_use_end);
}

int
replay_stats_write(const char *path, const struct replay_counters *c)
{
	char *part;
	FILE *f;
	int rc = 0;

	if (strcmp(path, "-") == 0) {
		stats_json(stdout, c);
		return 0;
	}
	part = malloc(strlen(path) + 6);
	if (part == NULL)
		return -ENOMEM;
	sprintf(part, "%s.part", path);
	f = fopen(part, "w");
	if (f == NULL) {
		rc = -errno;
	} else {
		stats_json(f, c);
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

void
replay_summary(FILE *f, const struct replay_counters *c, uint64_t tsc_hz)
{
	double secs = tsc_hz ? (double)c->cycles / (double)tsc_hz : 0.0;
	double mpps = secs > 0 ? (double)c->rx / secs / 1e6 : 0.0;
	/* Gbit/s on the wire: frame bytes plus 20 bytes of preamble and IFG,
	 * plus 4 of FCS that the capture does not hold. */
	double gbps = secs > 0 ? ((double)c->rx_bytes + 24.0 * (double)c->rx) * 8 / secs / 1e9 : 0.0;

	fprintf(f, "frames %lu, bytes %lu, %.3f Mpps, %.3f Gbit/s, %.1f cycles/packet\n",
		c->rx, c->rx_bytes, mpps, gbps,
		c->rx ? (double)c->cycles / (double)c->rx : 0.0);
	fprintf(f, "verdicts: pass %lu, tx %lu, redirect %lu, drop %lu, aborted %lu\n",
		c->verdict[REPLAY_PASS], c->verdict[REPLAY_TX], c->verdict[REPLAY_REDIRECT],
		c->verdict[REPLAY_DROP], c->verdict[REPLAY_ABORTED]);
}
