/* SPDX-License-Identifier: BSD-3-Clause */
/* tagpipe-replay: pcaps into memory, and output pcaps written atomically. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include <rte_errno.h>
#include <rte_mbuf_dyn.h>

#include "replay.h"

/* Does the file at path store nanosecond timestamps? The pcap magic
 * 0xa1b23c4d (either byte order) says so; pcapng gives each interface its
 * own resolution, so its timestamps are kept to the nanosecond too. */
static bool
file_is_nsec(const char *path)
{
	uint8_t m[4] = { 0 };
	FILE *f = fopen(path, "rb");

	if (f == NULL)
		return false;
	if (fread(m, 1, sizeof(m), f) != sizeof(m))
		m[0] = 0;
	fclose(f);
	return (m[0] == 0x4d && m[1] == 0x3c && m[2] == 0xb2 && m[3] == 0xa1) ||
	       (m[0] == 0xa1 && m[1] == 0xb2 && m[2] == 0x3c && m[3] == 0x4d) ||
	       (m[0] == 0x0a && m[1] == 0x0d && m[2] == 0x0d && m[3] == 0x0a);
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

/* The record's time in ns, or -1 to refuse it. libpcap (1.10,
 * sf-pcap.c pcap_next_packet) reads a pcap record's seconds and fraction
 * as signed 32-bit numbers and hands them over unchecked, only scaling the
 * fraction to ns; tcpdump prints such a record's fields as they are. Two
 * cases, both outside what pcap-savefile(5) allows:
 *  - a fraction of 1 s or more (ts_usec >= 10^6, >= 10^9 in a nanosecond
 *    file) is normalised, its whole seconds carried into the seconds: the
 *    time the fields add up to, which a writer can then write validly;
 *  - a time libpcap reads as negative (ts_sec or ts_usec >= 2^31, e.g.
 *    0xFFFFFFFF = -1), or whose carried seconds pass 2^31 - 1
 *    (2038-01-19T03:14:07Z, the last second libpcap reads back from a
 *    pcap record), has no time we could write: refused as bad input. */
static int
ts_to_ns(const struct pcap_pkthdr *h, uint64_t *ns)
{
	uint64_t frac, sec;

	if (h->ts.tv_sec < 0 || h->ts.tv_usec < 0)
		return -1;
	frac = (uint64_t)h->ts.tv_usec;
	sec = (uint64_t)h->ts.tv_sec + frac / 1000000000u;
	if (sec > INT32_MAX)
		return -1;
	*ns = sec * 1000000000u + frac % 1000000000u;
	return 0;
}

static int
load_one(const char *path, struct replay_input *in, uint32_t *cap)
{
	char err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	char name[128], name0[128];
	uint32_t fcs, len;
	pcap_t *p;
	int rc;

	/* Timestamps are read to the nanosecond whatever the file stores. */
	p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
	if (p == NULL) {
		size_t l = strlen(path);

		/* libpcap names the file itself when it cannot open it
		 * ("PATH: No such file or directory"): say it once. */
		if (strncmp(err, path, l) == 0 && err[l] == ':')
			replay_err("%s", err);
		else
			replay_err("%s: %s", path, err);
		return -EINVAL;
	}
	if (!replay_linktype_is_ethernet(pcap_datalink(p))) {
		replay_err("%s: link type %s is not Ethernet", path,
			   replay_linktype_name(pcap_datalink(p), name, sizeof(name)));
		pcap_close(p);
		return -EINVAL;
	}
	if (in->nb_frames > 0 && pcap_datalink(p) != in->dlt) {
		replay_err("%s: link type %s differs from the inputs before it (%s)", path,
			   replay_linktype_name(pcap_datalink(p), name, sizeof(name)),
			   replay_linktype_name(in->dlt, name0, sizeof(name0)));
		pcap_close(p);
		return -EINVAL;
	}
	in->dlt = pcap_datalink(p);
	in->nsec = in->nsec || file_is_nsec(path);
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
		if (ts_to_ns(h, &f->ts_ns) < 0) {
			replay_err("%s: record %u has an invalid timestamp (%lld s + %lld ns "
				   "as libpcap reads it): not between 1970 and 2038-01-19T03:14:07Z",
				   path, in->nb_frames + 1, (long long)h->ts.tv_sec,
				   (long long)h->ts.tv_usec);
			free(f->data);
			pcap_close(p);
			return -EINVAL;
		}
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
	in->dlt = DLT_EN10MB;
	for (unsigned int i = 0; i < n; i++) {
		int rc = load_one(paths[i], in, &cap);

		if (rc < 0) {
			replay_input_free(in);
			return rc;
		}
	}
	replay_nb_input_frames = in->nb_frames;
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

static int ts_offset = -1;
static int id_offset = -1;

int
replay_timestamp_init(void)
{
	static const struct rte_mbuf_dynfield id_desc = {
		.name = "tagpipe_replay_frame_id",
		.size = sizeof(uint32_t),
		.align = __alignof__(uint32_t),
	};
	uint64_t flag;

	id_offset = rte_mbuf_dynfield_register(&id_desc);
	if (id_offset < 0)
		return -rte_errno;
	return rte_mbuf_dyn_rx_timestamp_register(&ts_offset, &flag);
}

void
replay_frame_id_set(struct rte_mbuf *m, uint32_t id)
{
	*RTE_MBUF_DYNFIELD(m, id_offset, uint32_t *) = id;
}

uint32_t
replay_frame_id(const struct rte_mbuf *m)
{
	return *RTE_MBUF_DYNFIELD(m, id_offset, const uint32_t *);
}

uint32_t replay_nb_input_frames;

uint64_t
replay_timestamp(const struct rte_mbuf *m)
{
	return *RTE_MBUF_DYNFIELD(m, ts_offset, const rte_mbuf_timestamp_t *);
}

void
replay_timestamp_set(struct rte_mbuf *m, uint64_t ts_ns)
{
	*RTE_MBUF_DYNFIELD(m, ts_offset, rte_mbuf_timestamp_t *) = ts_ns;
}

struct replay_writer {
	pcap_t *dead;
	pcap_dumper_t *dump;   /* pcap, through libpcap */
	FILE *ng;              /* or pcapng (pcapng.c) */
	char *path;
	char *part;
	bool nsec;
	uint8_t buf[REPLAY_SNAPLEN];
};

struct replay_writer *
replay_writer_open(const char *path, int dlt, bool nsec, bool pcapng)
{
	struct replay_writer *w = calloc(1, sizeof(*w));

	if (w == NULL)
		return NULL;
	w->path = strdup(path);
	w->part = malloc(strlen(path) + 6);
	w->nsec = nsec;
	w->dead = pcap_open_dead_with_tstamp_precision(dlt, (int)REPLAY_SNAPLEN, nsec ?
		PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO);
	if (w->path == NULL || w->part == NULL || w->dead == NULL)
		goto fail;
	sprintf(w->part, "%s.part", path);
	if (pcapng) {
		/* The DLT_ values we write (Ethernet, the DSA ones) are their
		 * LINKTYPE_ numbers too (pcap/dlt.h: the "matching" range). */
		w->ng = fopen(w->part, "wb");
		if (w->ng == NULL || replay_pcapng_header(w->ng, dlt, REPLAY_SNAPLEN) < 0) {
			replay_err("%s: %s", path, strerror(errno));
			if (w->ng != NULL) {
				fclose(w->ng);
				unlink(w->part);
			}
			goto fail;
		}
		return w;
	}
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
	uint64_t ts = *RTE_MBUF_DYNFIELD(m, ts_offset, const rte_mbuf_timestamp_t *);
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
	if (w->ng != NULL)
		return replay_pcapng_packet(w->ng, ts, w->buf, off);
	/* The capture's own timestamp (a merged packet has its first
	 * segment's, a GSO segment its packet's); tv_usec holds nanoseconds
	 * in a nanosecond dump (pcap_open_dead_with_tstamp_precision). */
	h.ts.tv_sec = (time_t)(ts / 1000000000u);
	h.ts.tv_usec = (suseconds_t)(w->nsec ? ts % 1000000000u
				    : ts % 1000000000u / 1000u);
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

	if (w->ng != NULL) {
		if (fclose(w->ng) != 0)
			rc = -errno;
	} else {
		if (pcap_dump_flush(w->dump) != 0)
			rc = -EIO;
		pcap_dump_close(w->dump);
	}
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
	if (w->ng != NULL)
		fclose(w->ng);
	else
		pcap_dump_close(w->dump);
	unlink(w->part);
	writer_free(w);
}
