/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Egress for TP_TX and TP_REDIRECT-to-port (contract: tp_pipeline.h):
 *
 *   merged packet -> hardware TSO flags (port has TSO, IP IDs incrementing)
 *                    or tp_gro_segment() back into its frames
 *   -> VLAN insert (lib/vlan: software, or NIC flags when the port offers it)
 *   -> DSA tag insert for the packet's (or the map entry's) switch port
 *   -> rte_eth_tx_burst with bounded retry, or conf->egress_cb
 *
 * Work is done in chunks of at most TP_EGRESS_MAX_SEGS mbufs: one insert
 * call per library and one transmit per chunk.
 *
 * TSO and tags inserted in software: the NIC copies the first l2_len +
 * l3_len + l4_len bytes in front of every segment; the inserts grow l2_len
 * by what they add in front of the IP header (tp_vlan.h, tp_dsa_tag.h).
 * Tail taggers cannot follow TSO and are refused at create.
 */
#include <errno.h>
#include <string.h>

#include <rte_ethdev.h>

#include "pipeline_priv.h"

static void
set_tso(struct rte_mbuf *m)
{
	const uint8_t *ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, m->l2_len);
	uint64_t f = m->ol_flags & ~RTE_MBUF_F_RX_LRO;

	if ((ip[0] >> 4) == 4)
		f |= RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
	else
		f |= RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV6;
	m->ol_flags = f;
}

static uint16_t
insert_tags(struct tp_pipeline *pl, const struct pl_port *op, int switch_port,
	    uint16_t k)
{
	uint16_t kept;

	kept = tp_vlan_insert_burst_reasons(&op->vlan, pl->eg, k, pl->eg_drops,
					    pl->eg_why, &pl->vlan_tx);
	if (kept < k)
		pl_drop_lib(pl, TP_DROP_VLAN_BASE, pl->eg_drops, pl->eg_why, k - kept);
	k = kept;
	if (!op->tag_insert || k == 0)
		return k;

	{
		struct tp_dsa_conf c = op->dsa;

		if (switch_port >= 0) {
			c.flags |= TP_DSA_CONF_F_TX_PORT;
			c.tx_port = (uint8_t)switch_port;
			c.tx_device = 0;
		}
		kept = tp_dsa_insert_burst_reasons(op->tagger, pl->eg, k, &c,
						   pl->eg_drops, pl->eg_why, &pl->dsa_tx);
		if (kept < k)
			pl_drop_lib(pl, TP_DROP_DSA_BASE, pl->eg_drops, pl->eg_why,
				    k - kept);
	}
	return kept;
}

/* rte_eth_tx_burst with conf.tx_retries extra tries; returns the number sent. */
static uint16_t
tx_retry(struct tp_pipeline *pl, uint16_t port, uint16_t queue,
	 struct rte_mbuf **pkts, uint16_t n)
{
	unsigned int tries = 0;
	uint16_t sent = 0;

	while (sent < n) {
		sent += rte_eth_tx_burst(port, queue, pkts + sent, n - sent);
		if (sent == n || tries++ >= pl->conf.tx_retries)
			break;
		pl_cnt_add(&pl->st.tx_retries, 1);
	}
	return sent;
}

/* Re-tag and transmit pl->eg[0..k). */
static void
send_chunk(struct tp_pipeline *pl, enum tp_verdict v, uint16_t port,
	   uint16_t queue, int switch_port, uint16_t k)
{
	const struct pl_port *op = &pl->port[port];
	struct tp_port_stats *ps = &pl->st.port[port];
	uint64_t wsent = 0, wrest = 0;
	uint16_t sent = 0;

	k = insert_tags(pl, op, switch_port, k);
	if (k == 0)
		return;
	/* Weights first: once on a TX ring an mbuf may be freed at any time. */
	for (uint16_t i = 0; i < k; i++)
		pl->eg_w[i] = pl_weight(pl->eg[i]);
	if (pl->conf.egress_cb != NULL) {
		pl->conf.egress_cb(pl->conf.egress_arg, v, port, queue, pl->eg, k);
		sent = k;
	} else {
		sent = tx_retry(pl, port, queue, pl->eg, k);
	}
	for (uint16_t i = 0; i < k; i++) {
		if (i < sent)
			wsent += pl->eg_w[i];
		else
			wrest += pl->eg_w[i];
	}
	if (v == TP_TX)
		pl_cnt_add(&pl->st.tx, wsent);
	else
		pl_cnt_add(&pl->st.redirect, wsent);
	pl_cnt_add(&ps->tx, wsent);
	pl_cnt_add(&ps->tx_wire, sent);
	if (sent < k) {
		pl_cnt_add(&ps->tx_full, wrest);
		pl_drop(pl, TP_DROP_TX_FULL, pl->eg + sent, k - sent);
	}
}

void
pl_egress(struct tp_pipeline *pl, enum tp_verdict v, uint16_t port,
	  uint16_t queue, int switch_port, struct rte_mbuf **pkts, uint16_t n)
{
	const struct pl_port *op;
	uint16_t k = 0;

	if (port >= TP_PIPELINE_MAX_PORTS || !pl->port[port].enabled) {
		pl_drop(pl, TP_DROP_NO_PORT, pkts, n);
		return;
	}
	op = &pl->port[port];
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint16_t segs = tp_gro_segs(m);
		int rc;

		/* fixedid_flag is resolved at create for TSO ports. */
		/* Plain TCP TSO only: tunnel and UDP aggregates are split in
		 * software (tp_gro_plain_tcp). */
		if (segs <= 1 || (op->tso && !(m->ol_flags & pl->fixedid_flag) &&
				  tp_gro_plain_tcp(m))) {
			if (k == TP_EGRESS_MAX_SEGS) {
				send_chunk(pl, v, port, queue, switch_port, k);
				k = 0;
			}
			if (segs > 1) {
				/* Hardware TSO increments IP IDs: fixed-ID
				 * aggregates take the software path instead. */
				set_tso(m);
				pl_cnt_add(&pl->st.tso, 1);
			}
			pl->eg[k++] = m;
			continue;
		}
		if (segs > TP_EGRESS_MAX_SEGS) {
			pl_drop(pl, TP_DROP_TOO_MANY_SEGS, &pkts[i], 1);
			continue;
		}
		if (k + segs > TP_EGRESS_MAX_SEGS) {
			send_chunk(pl, v, port, queue, switch_port, k);
			k = 0;
		}
		rc = tp_gro_segment(m, pl->eg + k, TP_EGRESS_MAX_SEGS - k,
				    pl->conf.seg_pool);
		if (rc < 0) {
			pl_drop(pl, rc == -ENOMEM ? TP_DROP_NO_MBUF :
				    rc == -ENOSPC ? TP_DROP_TOO_MANY_SEGS :
				    TP_DROP_SEGMENT, &pkts[i], 1);
			continue;
		}
		pl_cnt_add(&pl->st.segmented, 1);
		k += (uint16_t)rc;
	}
	if (k > 0)
		send_chunk(pl, v, port, queue, switch_port, k);
}

uint16_t
tp_pipeline_pass_tx(struct tp_pipeline *pl, uint16_t port, uint16_t queue,
		    struct rte_mbuf **pkts, uint16_t n)
{
	struct tp_port_stats *ps;
	uint64_t w = 0, wrest = 0;
	uint16_t sent;

	if (port >= TP_PIPELINE_MAX_PORTS || n == 0)
		return 0;
	ps = &pl->st.port[port];
	/* Weights first: once on a TX ring an mbuf may be freed at any time. */
	for (uint16_t i = 0; i < n; i++)
		w += pl_weight(pkts[i]);
	sent = tx_retry(pl, port, queue, pkts, n);
	for (uint16_t i = sent; i < n; i++)
		wrest += pl_weight(pkts[i]);
	pl_cnt_add(&ps->tx, w - wrest);
	pl_cnt_add(&ps->tx_wire, sent);
	pl_cnt_add(&ps->tx_full, wrest);
	return sent;
}

void
pl_pass_to_app(struct tp_pipeline *pl, uint16_t port, uint16_t queue,
	       struct rte_mbuf **pkts, uint16_t n, uint64_t w)
{
	pl->in_pass_cb = true;
	pl->pass_dropped = 0;
	pl->conf.pass_cb(pl->conf.pass_arg, port, queue, pkts, n);
	pl->in_pass_cb = false;
	/* Counted after the callback, so pass never goes back down: what
	 * the application gave back is a drop (tp_pipeline_pass_drop), not a
	 * pass. (More frames than given: segments it split differently.) */
	pl_cnt_add(&pl->st.pass, w - RTE_MIN(w, pl->pass_dropped));
}

int
tp_pipeline_pass_drop(struct tp_pipeline *pl, enum tp_drop_reason reason,
		      struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t w = 0;

	if (pl == NULL || !pl->in_pass_cb || (unsigned int)reason >= TP_DROP_MAX)
		return -EINVAL;
	for (uint16_t i = 0; i < n; i++)
		w += pl_weight(pkts[i]);
	pl->pass_dropped += w;
	pl_drop_w(pl, reason, pkts, n, w);
	return 0;
}

int
tp_pipeline_pass_segment(struct tp_pipeline *pl, struct rte_mbuf *m,
			 struct rte_mbuf **out, uint16_t max)
{
	int r;

	if (pl == NULL || !pl->in_pass_cb)
		return -EINVAL;
	if (!(m->ol_flags & RTE_MBUF_F_RX_LRO) || m->tso_segsz == 0) {
		if (max == 0)
			return -ENOSPC;
		out[0] = m;
		return 1;
	}
	r = tp_gro_segment(m, out, max, pl->conf.seg_pool);
	if (r == -ENOSPC)
		return r;
	if (r < 0) {
		tp_pipeline_pass_drop(pl, r == -ENOMEM ? TP_DROP_NO_MBUF : TP_DROP_SEGMENT,
				      &m, 1);
		return r;
	}
	pl_cnt_add(&pl->st.segmented, 1);
	return r;
}
