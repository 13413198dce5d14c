/* SPDX-License-Identifier: BSD-3-Clause */
/* VLAN / QinQ insert on egress, in software or by the NIC (tp_vlan.h). */
#include "vlan_private.h"

#define F_RX_STRIPPED (RTE_MBUF_F_RX_VLAN_STRIPPED | RTE_MBUF_F_RX_QINQ_STRIPPED)
#define F_RX_ALL (F_RX_STRIPPED | RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_QINQ)
#define F_TX (RTE_MBUF_F_TX_VLAN | RTE_MBUF_F_TX_QINQ)

/* Make room for `len` tag bytes after the SA and return where they go;
 * a TX offload's l2_len counts them. */
static inline uint8_t *
open_gap(struct rte_mbuf *m, uint16_t len)
{
	uint8_t *old = rte_pktmbuf_mtod(m, uint8_t *);

	m->data_off -= len;
	m->data_len += len;
	m->pkt_len += len;
	tp_mbuf_tx_l2_grow(m, len);
	tp_vlan_move_macs(old, -(int)len);
	return old - len + TP_VLAN_MACS;
}

uint16_t
tp_vlan_insert_burst_reasons(const struct tp_vlan_conf *conf,
			     struct rte_mbuf **pkts, uint16_t n,
			     struct rte_mbuf **drops, uint8_t *reasons,
			     struct tp_vlan_stats *st)
{
	uint16_t i, k = 0, nd = 0;

	if (conf == NULL)
		conf = &tp_vlan_default_conf;
	st->in += n;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint64_t ol = m->ol_flags;
		int qinq = (ol & (RTE_MBUF_F_TX_QINQ | RTE_MBUF_F_RX_QINQ_STRIPPED)) != 0;
		int vlan = (ol & (RTE_MBUF_F_TX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED)) != 0;
		uint16_t len = qinq ? 2 * TP_VLAN_HLEN : TP_VLAN_HLEN;
		uint8_t *tag;

		if (!qinq && !vlan) {
			st->untagged++;
			TP_KEEP(pkts, i, k, m);
			continue;
		}
		if ((qinq && (conf->tx_offload & TP_VLAN_TX_OFFLOAD_QINQ)) ||
		    (!qinq && (conf->tx_offload & TP_VLAN_TX_OFFLOAD_VLAN))) {
			m->ol_flags = (ol & ~F_RX_STRIPPED) | RTE_MBUF_F_TX_VLAN |
				      (qinq ? RTE_MBUF_F_TX_QINQ : 0);
			st->nic++;
			TP_KEEP(pkts, i, k, m);
			continue;
		}
		if (m->data_len < TP_VLAN_MACS) {
			tp_vlan_drop(m, drops, reasons, &nd, st, TP_VLAN_DROP_SEGMENTED);
			continue;
		}
		if (rte_pktmbuf_headroom(m) < len) {
			tp_vlan_drop(m, drops, reasons, &nd, st, TP_VLAN_DROP_NO_HEADROOM);
			continue;
		}
		tag = open_gap(m, len);
		if (qinq) {
			tp_vlan_wr16(tag, conf->tx_outer_tpid);
			tp_vlan_wr16(tag + 2, m->vlan_tci_outer);
			tag += TP_VLAN_HLEN;
			st->qinq++;
		} else {
			st->single++;
		}
		tp_vlan_wr16(tag, conf->tx_inner_tpid);
		tp_vlan_wr16(tag + 2, m->vlan_tci);
		m->ol_flags = ol & ~(F_RX_ALL | F_TX);
		TP_KEEP(pkts, i, k, m);
	}
	st->out += k;
	return k;
}

uint16_t
tp_vlan_insert_burst(const struct tp_vlan_conf *conf, struct rte_mbuf **pkts,
		 uint16_t n, struct rte_mbuf **drops, struct tp_vlan_stats *st)
{
	return tp_vlan_insert_burst_reasons(conf, pkts, n, drops, NULL, st);
}
