/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay: what leaves the pipeline, per verdict: --write pcaps,
 * --meta rows, the merge-size histogram. Every output file is written to
 * FILE.part and renamed only when the whole run succeeded.
 */
#include <errno.h>
#include <string.h>

#include <pcap/dlt.h>

#include "replay.h"
#include "tp_dsa_tag.h"
#include "tp_gro.h"

/* The metadata --meta prints for m, from the mbuf as it leaves. */
static void
frame_meta(struct rte_mbuf *m, struct replay_frame_meta *fm)
{
	/* The frame id of a merged packet, and of the segments GSO makes of
	 * it, is its first frame's. */
	fm->frame = replay_nb_input_frames ? replay_frame_id(m) % replay_nb_input_frames : 0;
	fm->ts_ns = replay_timestamp(m);
	fm->switch_port = -1;
	fm->switch_device = 0;
	if (tp_dsa_meta_offset >= 0 && (tp_dsa_meta(m)->flags & TP_DSA_META_F_VALID)) {
		fm->switch_port = tp_dsa_meta(m)->port;
		fm->switch_device = tp_dsa_meta(m)->device;
	}
	fm->nb_vlan = 0;
	if (m->ol_flags & RTE_MBUF_F_RX_QINQ_STRIPPED)
		fm->vlan[fm->nb_vlan++] = m->vlan_tci_outer;
	if (m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED)
		fm->vlan[fm->nb_vlan++] = m->vlan_tci;
	fm->gso_segs = tp_gro_segs(m);
	fm->gso_size = fm->gso_segs > 1 ? m->tso_segsz : 0;
}

void
replay_out_abort(struct replay_out *out)
{
	for (int v = 0; v < REPLAY_NB_VERDICTS; v++)
		replay_writer_abort(out->pcap[v]);
	replay_meta_abort(out->meta);
	memset(out, 0, sizeof(*out));
}

/* The link type of what leaves with verdict v. Without a tagger frames
 * keep what they came with; with one, PASS and DROP leave untagged (a drop
 * at the tagger's own stage too: written as Ethernet, its tag shows as an
 * unknown EtherType) and TX/REDIRECT carry the tagger's re-inserted tag. */
static int
out_linktype(const struct replay_opts *o, const struct replay_input *in, int v)
{
	if (strcmp(o->tagger, "none") == 0)
		return in->dlt;
	if (v == REPLAY_TX || v == REPLAY_REDIRECT)
		return replay_tagger_linktype(o->tagger);
	return DLT_EN10MB;
}

static bool
want_pcapng(const struct replay_opts *o, const char *path)
{
	size_t n = strlen(path);

	if (o->write_format >= 0)
		return o->write_format == 1;
	return n >= 7 && strcmp(path + n - 7, ".pcapng") == 0;
}

int
replay_out_open(const struct replay_opts *o, const struct replay_input *in,
		struct replay_out *out)
{
	memset(out, 0, sizeof(*out));
	for (int v = 0; v < REPLAY_NB_VERDICTS; v++) {
		if (o->write[v] == NULL)
			continue;
		out->pcap[v] = replay_writer_open(o->write[v], out_linktype(o, in, v), in->nsec,
						  want_pcapng(o, o->write[v]));
		if (out->pcap[v] == NULL)
			goto fail;
	}
	if (o->meta != NULL && (out->meta = replay_meta_open(o->meta)) == NULL)
		goto fail;
	return 0;
fail:
	replay_out_abort(out);
	return -EINVAL;
}

void
replay_out_hist_flush(struct replay_out *out)
{
	if (out->hist != NULL && out->seg_run > 0)
		replay_hist_add(out->hist, out->seg_run);
	out->seg_run = 0;
}

int
replay_out_commit(struct replay_out *out)
{
	int rc = 0;

	for (int v = 0; v < REPLAY_NB_VERDICTS; v++)
		if (out->pcap[v] != NULL && replay_writer_commit(out->pcap[v]) < 0)
			rc = -EIO;
	if (out->meta != NULL && replay_meta_commit(out->meta) < 0)
		rc = -EIO;
	memset(out, 0, sizeof(*out));
	return rc;
}

void
replay_out_emit(struct replay_out *out, enum replay_verdict v,
		struct rte_mbuf *const *pkts, uint16_t n, bool merged_hist,
		int out_port, uint16_t out_queue)
{
	struct replay_writer *w = out->pcap[v == REPLAY_ABORTED ? REPLAY_DROP : v];
	bool egress = v == REPLAY_TX || v == REPLAY_REDIRECT;

	for (uint16_t i = 0; i < n; i++) {
		struct replay_frame_meta fm;

		if (out->error)
			return;
		if (out->hist != NULL && merged_hist) {
			replay_hist_add(out->hist, tp_gro_segs(pkts[i]));
		} else if (out->hist != NULL && egress) {
			uint32_t id = replay_frame_id(pkts[i]);

			if (out->seg_run > 0 && id != out->seg_id)
				replay_out_hist_flush(out);
			out->seg_id = id;
			out->seg_run += tp_gro_segs(pkts[i]);
		}
		if (w != NULL) {
			int rc = replay_writer_put(w, pkts[i]);

			if (rc < 0)
				out->error = rc;
		}
		if (out->meta != NULL) {
			frame_meta(pkts[i], &fm);
			fm.out_port = out_port;
			fm.out_queue = out_queue;
			if (replay_meta_put(out->meta, v, pkts[i], &fm) < 0)
				out->error = -EIO;
		}
	}
}
