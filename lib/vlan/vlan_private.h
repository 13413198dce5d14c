/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the VLAN strip and insert loops; not part of the API. */
#ifndef TP_VLAN_PRIVATE_H
#define TP_VLAN_PRIVATE_H

#include <stddef.h>
#include <string.h>

#include <rte_mbuf.h>

#include "tp_mac_move.h"
#include "vlan_fast.h"

#include "tp_vlan.h"

#define TP_VLAN_HLEN 4     /* TPID + TCI (docs/ref/vlan.md §2, VLAN_HLEN) */
#define TP_VLAN_MACS 12    /* DA + SA */

extern const struct tp_vlan_conf tp_vlan_default_conf;

static inline uint16_t
tp_vlan_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void
tp_vlan_wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Move the 12 MAC bytes at p to p + delta (delta may be negative); only
 * these 12 bytes move, in registers, never the payload. */
static inline void
tp_vlan_move_macs(uint8_t *p, int delta)
{
	tp_mac_move(p, delta);
}

/* Keep pkts[i] as the k-th survivor; no store while nothing was dropped. */
#define TP_KEEP(pkts, i, k, m) do { if ((k) != (i)) (pkts)[k] = (m); (k)++; } while (0)

/* Hand dropped mbufs to the caller, or free them (drops == NULL). */
static inline void
tp_vlan_drop(struct rte_mbuf *m, struct rte_mbuf **drops, uint8_t *reasons,
	     uint16_t *nd, struct tp_vlan_stats *st, unsigned int reason)
{
	st->drop[reason]++;
	if (drops != NULL) {
		if (reasons != NULL)
			reasons[*nd] = (uint8_t)reason;
		drops[(*nd)++] = m;
	} else {
		rte_pktmbuf_free(m);
	}
}

#endif /* TP_VLAN_PRIVATE_H */
