/* SPDX-License-Identifier: BSD-3-Clause */
/* tagpipe-replay: pcaps into memory, and output pcaps written atomically. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "replay.h"

/* Link types whose frames start with an Ethernet header (possibly with a
 * switch tag in it): libpcap's DLT_EN10MB and the DSA ones, pcap/dlt.h
 * 281 DSA_TAG_BRCM, 282 DSA_TAG_BRCM_PREPEND, 284 DSA_TAG_DSA, 285 DSA_TAG_EDSA. */
static int
linktype_ok(int dlt)
{
	return dlt == DLT_EN10MB || dlt == 281 || dlt == 282 || dlt == 284 || dlt == 285;
}

/* Bytes of FCS at the end of every record: the pcap file header's link
 * type field carries it in its upper bits (libpcap pcap/pcap.h
 * LT_FCS_LENGTH_PRESENT, LT_FCS_LENGTH in 16-bit words; pcap file format,
 * draft-ietf-opsawg-pcap section 4 "FCS len" and "f" bit). Captures from a
 * NIC told to keep the CRC have it; the pipeline sees frames as a NIC that
 * strips the CRC delivers them, so the loader removes it. */
static uint32_t
fcs_bytes(pcap_t *p)
{
	int ext = pcap_datalink_ext(p);

	return LT_FCS_LENGTH_PRESENT(ext) ? 2u * LT_FCS_LENGTH((uint32_t)ext) : 0;
}

static int
load_one(const char *path, struct replay_input *in, uint32_t *cap)
{
	char err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	uint32_t fcs, len;
	pcap_t *p;
	int rc;

	p = pcap_open_offline(path, err);
	if (p == NULL) {
		replay_err("%s: %s", path, err);
		return -EINVAL;
	}
	if (!linktype_ok(pcap_datalink(p))) {
		replay_err("%s: link type %d is not Ethernet", path, pcap_datalink(p));
		pcap_close(p);
		return -EINVAL;
	}
	fcs = fcs_bytes(p);
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		struct replay_frame *f;

		if (h->caplen != h->len) {
			replay_err("%s: record %u is cut short (%u of %u bytes captured)",
				   path, in->nb_frames + 1, h->caplen, h->len);
			pcap_close(p);
			return -EINVAL;
		}
		if (h->caplen < fcs) {
			replay_err("%s: record %u is shorter (%u bytes) than the %u-byte FCS "
				   "its link type declares", path, in->nb_frames + 1, h->caplen, fcs);
			pcap_close(p);
			return -EINVAL;
		}
		len = h->caplen - fcs;
		if (in->nb_frames == *cap) {
			void *nf;

			*cap = *cap ? *cap * 2 : 1024;
			nf = realloc(in->frames, *cap * sizeof(*in->frames));
			if (nf == NULL)
				goto nomem;
			in->frames = nf;
		}
		f = &in->frames[in->nb_frames];
		f->data = malloc(len ? len : 1);
		if (f->data == NULL)
			goto nomem;
		memcpy(f->data, data, len);
		f->len = len;
		in->nb_frames++;
		in->bytes += len;
	}
	if (rc == PCAP_ERROR) {
		replay_err("%s: %s", path, pcap_geterr(p));
		pcap_close(p);
		return -EINVAL;
	}
	pcap_close(p);
	return 0;
nomem:
	replay_err("%s: out of memory after %u frames", path, in->nb_frames);
	pcap_close(p);
	return -ENOMEM;
}

int
replay_load(const char *const *paths, unsigned int n, struct replay_input *in)
{
	uint32_t cap = 0;

	memset(in, 0, sizeof(*in));
	for (unsigned int i = 0; i < n; i++) {
		int rc = load_one(paths[i], in, &cap);

		if (rc < 0) {
			replay_input_free(in);
			return rc;
		}
	}
	return 0;
}

void
replay_input_free(struct replay_input *in)
{
	for (uint32_t i = 0; i < in->nb_frames; i++)
		free(in->frames[i].data);
	free(in->frames);
	memset(in, 0, sizeof(*in));
}

struct replay_writer {
	pcap_t *dead;
	pcap_dumper_t *dump;
	char *path;
	char *part;
	uint8_t buf[REPLAY_SNAPLEN];
	uint64_t ts_us;
};

struct replay_writer *
replay_writer_open(const char *path)
{
	struct replay_writer *w = calloc(1, sizeof(*w));

	if (w == NULL)
		return NULL;
	w->path = strdup(path);
	w->part = malloc(strlen(path) + 6);
	w->dead = pcap_open_dead(DLT_EN10MB, (int)REPLAY_SNAPLEN);
	if (w->path == NULL || w->part == NULL || w->dead == NULL)
		goto fail;
	sprintf(w->part, "%s.part", path);
	w->dump = pcap_dump_open(w->dead, w->part);
	if (w->dump == NULL) {
		replay_err("%s: %s", path, pcap_geterr(w->dead));
		goto fail;
	}
	return w;
fail:
	if (w->dead != NULL)
		pcap_close(w->dead);
	free(w->path);
	free(w->part);
	free(w);
	return NULL;
}

int
replay_writer_put(struct replay_writer *w, const struct rte_mbuf *m)
{
	struct pcap_pkthdr h;
	uint32_t off = 0;

	if (rte_pktmbuf_pkt_len(m) > sizeof(w->buf)) {
		replay_err("%s: a %u-byte frame is larger than the pcap snaplen %u",
			   w->path, rte_pktmbuf_pkt_len(m), REPLAY_SNAPLEN);
		return -EMSGSIZE;
	}
	for (const struct rte_mbuf *s = m; s != NULL; s = s->next) {
		memcpy(w->buf + off, rte_pktmbuf_mtod(s, const uint8_t *), s->data_len);
		off += s->data_len;
	}
	/* Output timestamps only order the frames: 1 us apart from 0. */
	h.ts.tv_sec = (time_t)(w->ts_us / 1000000);
	h.ts.tv_usec = (suseconds_t)(w->ts_us % 1000000);
	w->ts_us++;
	h.caplen = h.len = off;
	pcap_dump((u_char *)w->dump, &h, w->buf);
	return 0;
}

static void
writer_free(struct replay_writer *w)
{
	pcap_close(w->dead);
	free(w->path);
	free(w->part);
	free(w);
}

int
replay_writer_commit(struct replay_writer *w)
{
	int rc = 0;

	if (pcap_dump_flush(w->dump) != 0)
		rc = -EIO;
	pcap_dump_close(w->dump);
	if (rc == 0 && rename(w->part, w->path) != 0)
		rc = -errno;
	if (rc < 0) {
		replay_err("%s: cannot write: %s", w->path, strerror(-rc));
		unlink(w->part);
	}
	writer_free(w);
	return rc;
}

void
replay_writer_abort(struct replay_writer *w)
{
	if (w == NULL)
		return;
	pcap_dump_close(w->dump);
	unlink(w->part);
	writer_free(w);
}
