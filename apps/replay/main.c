/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay: replay pcaps through the pipeline.
 *
 * Frames are loaded into memory first, so every bad input is reported before
 * DPDK starts and before any output file exists. Each burst is copied into
 * mbufs (not timed), handed to the pipeline (timed with the TSC), and what
 * comes out is written per verdict and freed.
 *
 * The pipeline stages are not wired in yet: every frame leaves with PASS,
 * unchanged. Options for absent stages accept only their 'off' value.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "replay.h"
#include "tp_eal.h"

#define REPLAY_POOL_SIZE 16383

struct replay_out {
	struct replay_writer *pcap[REPLAY_NB_VERDICTS];
	struct replay_meta *meta;
};

/* Copy one frame into a (possibly chained) mbuf. */
static struct rte_mbuf *
frame_to_mbuf(struct rte_mempool *mp, const struct replay_frame *f)
{
	struct rte_mbuf *head = NULL, *tail = NULL;
	uint32_t off = 0;

	do {
		struct rte_mbuf *seg = rte_pktmbuf_alloc(mp);
		uint32_t n;

		if (seg == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
		n = RTE_MIN(f->len - off, (uint32_t)rte_pktmbuf_tailroom(seg));
		memcpy(rte_pktmbuf_append(seg, (uint16_t)n), f->data + off, n);
		off += n;
		if (head == NULL) {
			head = tail = seg;
		} else {
			tail->next = seg;
			tail = seg;
			head->nb_segs++;
			head->pkt_len += n;
		}
	} while (off < f->len);
	return head;
}

static void
frame_meta(const struct rte_mbuf *m, struct replay_frame_meta *fm)
{
	fm->switch_port = -1;
	fm->nb_vlan = 0;
	if (m->ol_flags & RTE_MBUF_F_RX_QINQ_STRIPPED)
		fm->vlan[fm->nb_vlan++] = m->vlan_tci_outer;
	if (m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED)
		fm->vlan[fm->nb_vlan++] = m->vlan_tci;
	fm->gso_segs = 1;
	fm->gso_size = 0;
}

/* Record and release what left the pipeline with verdict v. */
static int
emit(struct replay_out *out, enum replay_verdict v, struct rte_mbuf **pkts,
     uint16_t n, struct replay_counters *c)
{
	for (uint16_t i = 0; i < n; i++) {
		struct replay_frame_meta fm;

		if (out->pcap[v] != NULL && replay_writer_put(out->pcap[v], pkts[i]) < 0)
			return -EIO;
		if (out->meta != NULL) {
			frame_meta(pkts[i], &fm);
			if (replay_meta_put(out->meta, v, pkts[i], &fm) < 0)
				return -EIO;
		}
	}
	c->verdict[v] += n;
	rte_pktmbuf_free_bulk(pkts, n);
	return 0;
}

static int
run(const struct replay_opts *o, const struct replay_input *in,
    struct rte_mempool *mp, struct replay_out *out, struct replay_counters *c)
{
	struct rte_mbuf **pkts = calloc(o->burst, sizeof(*pkts));

	if (pkts == NULL)
		return -ENOMEM;
	for (unsigned long loop = 0; loop < o->loops; loop++) {
		for (uint32_t i = 0; i < in->nb_frames; i += o->burst) {
			uint16_t n = (uint16_t)RTE_MIN((uint32_t)o->burst, in->nb_frames - i);
			uint64_t t0;

			for (uint16_t k = 0; k < n; k++) {
				pkts[k] = frame_to_mbuf(mp, &in->frames[i + k]);
				if (pkts[k] == NULL) {
					rte_pktmbuf_free_bulk(pkts, k);
					free(pkts);
					replay_err("mbuf pool exhausted");
					return -ENOMEM;
				}
				c->rx_bytes += in->frames[i + k].len;
			}
			c->rx += n;
			t0 = rte_rdtsc_precise();
			/* Identity pipeline: every frame is passed unchanged. */
			c->cycles += rte_rdtsc_precise() - t0;
			if (emit(out, REPLAY_PASS, pkts, n, c) < 0) {
				free(pkts);
				replay_err("writing output failed");
				return -EIO;
			}
		}
	}
	free(pkts);
	return 0;
}

static void
outputs_abort(struct replay_out *out)
{
	for (int v = 0; v < REPLAY_NB_VERDICTS; v++)
		replay_writer_abort(out->pcap[v]);
	replay_meta_abort(out->meta);
	memset(out, 0, sizeof(*out));
}

static int
outputs_open(const struct replay_opts *o, struct replay_out *out)
{
	memset(out, 0, sizeof(*out));
	for (int v = 0; v < REPLAY_NB_VERDICTS; v++) {
		if (o->write[v] == NULL)
			continue;
		out->pcap[v] = replay_writer_open(o->write[v]);
		if (out->pcap[v] == NULL)
			goto fail;
	}
	if (o->meta != NULL && (out->meta = replay_meta_open(o->meta)) == NULL)
		goto fail;
	return 0;
fail:
	outputs_abort(out);
	return -EINVAL;
}

static int
outputs_commit(struct replay_out *out)
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

int
main(int argc, char **argv)
{
	static const char *const eal_defaults[] = {
		"-l", "0", "--no-pci", "--no-telemetry", "--log-level=lib.eal:error", NULL,
	};
	struct replay_counters c = { 0 };
	struct replay_input in;
	struct replay_opts o;
	struct replay_out out;
	struct rte_mempool *mp;
	int app = 1, rc;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			app = i + 1;
			break;
		}
	/* Parse and load everything before the EAL starts: bad input is
	 * reported without DPDK's noise and before any file is created. */
	argv[app - 1] = argv[0];
	rc = replay_parse_args(argc - app + 1, argv + app - 1, &o);
	if (rc < 0)
		return REPLAY_EXIT_USAGE;
	if (replay_load(o.inputs, o.nb_inputs, &in) < 0)
		return REPLAY_EXIT_USAGE;
	if (app > 1)
		argv[app - 1] = (char *)"--";

	if (tp_eal_init(app > 1 ? argc : 1, argv, eal_defaults, NULL) < 0) {
		replay_err("cannot start DPDK's EAL");
		return 1;
	}
	mp = rte_pktmbuf_pool_create("replay_pool", REPLAY_POOL_SIZE, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (mp == NULL) {
		replay_err("cannot create the mbuf pool: %s", rte_strerror(rte_errno));
		return 1;
	}
	if (outputs_open(&o, &out) < 0)
		return REPLAY_EXIT_USAGE;
	rc = run(&o, &in, mp, &out, &c);
	c.mbufs_in_use_end = rte_mempool_in_use_count(mp);
	if (rc < 0) {
		outputs_abort(&out);
		return 1;
	}
	if (outputs_commit(&out) < 0)
		return 1;
	if (o.stats != NULL && replay_stats_write(o.stats, &c) < 0)
		return 1;
	replay_summary(stdout, &c, rte_get_tsc_hz());
	replay_input_free(&in);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return 0;
}
