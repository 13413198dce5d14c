/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Switch source port in the flow key: lib/dsa_tag's struct tp_dsa_meta
 * dynfield, whose layout and registration both libraries take from
 * tp_dsa_meta.h (header only, so libtp_gro links on its own).
 */
#ifndef TP_GRO_DSA_H
#define TP_GRO_DSA_H

#include <rte_mbuf_dyn.h>

#include "gro_priv.h"
#include "tp_dsa_meta.h"

/* The switch-port key needs the field: tp_gro_create() registers it (or
 * finds it registered by lib/dsa_tag) through the one shared function, so
 * creating GRO before tp_dsa_meta_register() cannot turn the key off. */
static inline int
gro_dsa_offset(void)
{
	return tp_dsa_meta_field_register();
}

/* (port, device) join the key only when a tag was stripped (the
 * kernel's per-user-port netdev, docs/ref/gro.md §5.2). */
static inline void
gro_dsa_key(struct rte_mbuf *m, int off, struct gro_key *k)
{
	const struct tp_dsa_meta *dm =
		RTE_MBUF_DYNFIELD(m, off, const struct tp_dsa_meta *);

	if (dm->flags & TP_DSA_META_F_VALID) {
		k->flags |= GRO_KF_DSA;
		k->dsa_port = dm->port;
		k->dsa_dev = dm->device;
	}
}

/* Which bits of the 8-byte dynfield the key holds for a segment like m:
 * the valid flag always, port and device when it is set (gro_dsa_key). */
static inline uint64_t
gro_dsa_key_mask(const struct rte_mbuf *m, int off)
{
	const struct tp_dsa_meta *dm =
		RTE_MBUF_DYNFIELD(m, off, const struct tp_dsa_meta *);
	struct tp_dsa_meta k;
	uint64_t w;

	memset(&k, 0, sizeof(k));
	k.flags = TP_DSA_META_F_VALID;
	if (dm->flags & TP_DSA_META_F_VALID)
		k.port = k.device = 0xFF;
	RTE_BUILD_BUG_ON(sizeof(k) != sizeof(w));
	memcpy(&w, &k, sizeof(w));
	return w;
}

#endif /* TP_GRO_DSA_H */
