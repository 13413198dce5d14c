/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pipeline: frames go through libtagpipe (DSA untag -> VLAN untag -> GRO ->
 * verdict -> actions). The pipeline carries out TX, REDIRECT and DROP
 * itself; PASS packets come back to us (fwd_pipeline_pass) and go to the
 * stream's TX port like io mode does, after egress work:
 *   - a merged packet is split back into its segments (tp_gro_segment, GSO
 *     in software) unless --gso off; where the TX port offers TCP checksum
 *     offload the NIC completes the segments' TCP checksums, as with
 *     librte_gso in testpmd's csum engine;
 *   - VLAN tags the pipeline stripped are put back (tp_vlan_insert_burst);
 *   - the switch tag is not: a PASS frame leaves the switch domain.
 *
 * One pipeline instance per stream, made on the main lcore before start and
 * used only by the stream's lcore; its TX queue is that lcore's.
 * Counters: the pipeline's own are the truth (tp_stats.h): what this file
 * cannot forward goes back to it with tp_pipeline_pass_drop (TX ring full:
 * tx_full; VLAN insert: that library's reason; GSO failures are counted by
 * tp_pipeline_pass_segment, which also counts the merged packets split
 * here in "segmented"), so its drop reasons, telemetry and the forward
 * statistics (run.c reads them) agree. fs->passed counts PASS packets (a
 * merged packet counts once) and fs->passed_frames the frames they were
 * made of; fs->rx_pkts, fs->tx_pkts and fs->dropped are kept as in the
 * other modes. PASS frames are sent with tp_pipeline_pass_tx, so the
 * instance's port counters (tx, tx_wire, tx_full) cover them as they
 * cover TX/REDIRECT.
 */
#include <rte_ethdev.h>

#include "fwd.h"
#include "host_if.h"
#include "pipeline_ctl.h"

/* Segments one merged packet may need: 64 KiB IP packet of 536-byte MSS
 * (RFC 879 default) is 123; room for a burst beside it. */
#define PASS_SEG_ROOM 128
#define PASS_OUT_MAX (FWD_MAX_BURST + PASS_SEG_ROOM)

static void
pass_flush(struct fwd_stream *fs, struct rte_mbuf **out, uint16_t k)
{
	struct rte_mbuf *drops[PASS_OUT_MAX];
	uint8_t why[PASS_OUT_MAX];
	struct tp_vlan_stats vs = { 0 };
	uint16_t kept, sent;

	if (k == 0)
		return;
	/* a segment whose checksum the NIC completes keeps its l2_len true
	 * behind the tags inserted here (tp_vlan.h) */
	kept = tp_vlan_insert_burst_reasons(NULL, out, k, drops, why, &vs);
	for (uint16_t i = 0; i < k - kept; i++)
		tp_pipeline_pass_drop(fs->ctx, TP_DROP_VLAN_BASE + why[i], &drops[i], 1);
	fs->dropped += k - kept;
	/* Through the pipeline, so its per-port TX counters (telemetry's
	 * /tagpipe/ports) count the PASS frames that left as well. */
	sent = tp_pipeline_pass_tx(fs->ctx, fs->tx_port, fs->tx_queue, out, kept);
	if (sent < kept) {
		tp_pipeline_pass_drop(fs->ctx, TP_DROP_TX_FULL, &out[sent], kept - sent);
		fs->dropped += kept - sent;
	}
	fs->tx_pkts += sent;
}

/* tp_pass_cb_t: forward PASS packets to the stream's TX port. */
void
fwd_pipeline_pass(void *arg, uint16_t port, uint16_t queue,
		  struct rte_mbuf **pkts, uint16_t n)
{
	struct fwd_stream *fs = arg;
	struct rte_mbuf *out[PASS_OUT_MAX];
	uint16_t k = 0;

	/* the TX port completes TCP checksums of the segments (ports.c) */
	const bool offload = fwd.tx_tcp_csum[fs->tx_port];

	RTE_SET_USED(port);
	RTE_SET_USED(queue);
	fs->passed += n;
	for (uint16_t i = 0; i < n; i++)
		fs->passed_frames += tp_gro_segs(pkts[i]);
	/* Packets of switch ports with a host interface go to it whole. */
	n = fwd_host_if_to_host(fs, pkts, n);
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t segs = tp_gro_segs(m);
		int r;

		if (!fwd.opt.gso || !(m->ol_flags & RTE_MBUF_F_RX_LRO)) {
			out[k++] = m;
		} else {
			if (offload && tp_gro_plain_tcp(m)) {
				const uint8_t *ip = rte_pktmbuf_mtod_offset(m, const uint8_t *,
									    m->l2_len);

				m->ol_flags |= RTE_MBUF_F_TX_TCP_CKSUM |
					       ((ip[0] >> 4) == 4 ? RTE_MBUF_F_TX_IPV4 :
								    RTE_MBUF_F_TX_IPV6);
			}
			r = tp_pipeline_pass_segment(fs->ctx, m, &out[k], PASS_OUT_MAX - k);
			if (r == -ENOSPC && k > 0) {
				pass_flush(fs, out, k);
				k = 0;
				r = tp_pipeline_pass_segment(fs->ctx, m, out, PASS_OUT_MAX);
			}
			if (r == -ENOSPC)   /* more segments than we have room for */
				tp_pipeline_pass_drop(fs->ctx, TP_DROP_TOO_MANY_SEGS, &m, 1);
			if (r < 0) {        /* freed and counted by the pipeline */
				fs->dropped += segs;
				continue;
			}
			fs->segmented++;
			k += (uint16_t)r;
		}
		/* Keep room for the next packet's segments. */
		if (PASS_OUT_MAX - k < PASS_SEG_ROOM) {
			pass_flush(fs, out, k);
			k = 0;
		}
	}
	pass_flush(fs, out, k);
}

static void
pipeline_fwd(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	uint64_t begin;
	uint16_t n;

	/* What the host sent on this port's interfaces, out first. */
	fwd_host_if_poll(fs);
	begin = fwd_busy_begin();
	n = rte_eth_rx_burst(fs->rx_port, fs->rx_queue, pkts, fwd.opt.burst);
	fwd_rx_burst_seen(fs, n);
	/* An empty burst still completes aged aggregates (--gro age:USEC):
	 * just the aged flush, and busy only when it released something, as
	 * testpmd's csum engine counts an empty burst of its GRO context. */
	if (n == 0) {
		uint32_t held;

		if (fwd.opt.gro.age_usec == 0 || (held = tp_pipeline_held(fs->ctx)) == 0)
			return;
		tp_pipeline_flush(fs->ctx, false, NULL, 0);
		if (tp_pipeline_held(fs->ctx) != held)
			fwd_busy_end(fs, begin);
		return;
	}
	fs->rx_pkts += n;
	/* With pass_cb set, nothing comes back in pkts[]. */
	tp_pipeline_rx_burst(fs->ctx, fs->rx_port, fs->rx_queue, pkts, n);
	fwd_busy_end(fs, begin);
}

static void
pipeline_drain(struct fwd_stream *fs)
{
	while (tp_pipeline_held(fs->ctx) > 0)
		tp_pipeline_flush(fs->ctx, true, NULL, 0);
}

const struct fwd_engine fwd_engine_pipeline = {
	.name = "pipeline",
	.help = "untag, GRO, verdict, actions (libtagpipe); PASS forwarded",
	.stream_init = fwd_pipeline_stream_init,
	.stream_drain = pipeline_drain,
	.packet_fwd = pipeline_fwd,
};
