/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Switch source port in the flow key (lib/dsa_tag's struct tp_dsa_meta
 * dynfield). When lib/dsa_tag is built, its header gives the layout (else
 * the same 8-byte layout is declared here); the field itself is always
 * found by name ("tp_dsa_meta") so libtp_gro links on its own.
 */
#ifndef TP_GRO_DSA_H
#define TP_GRO_DSA_H

#include <rte_mbuf_dyn.h>

#include "gro_priv.h"

#if defined(__has_include)
#if __has_include("tp_dsa_tag.h")
#define GRO_HAVE_DSA_HDR 1
#endif
#endif

#ifdef GRO_HAVE_DSA_HDR
#include "tp_dsa_tag.h"
#define GRO_DSA_VALID TP_DSA_META_F_VALID
#else
struct tp_dsa_meta {
	uint16_t tag_vid;
	uint8_t port;
	uint8_t device;
	uint8_t prio;
	uint8_t frame_type;
	uint8_t flags;
	uint8_t proto;
};

#define GRO_DSA_VALID 0x01
#endif

/* Found by name so lib/gro links without lib/dsa_tag: the field must be
 * registered (tp_dsa_meta_register) before tp_gro_create(). */
static inline int
gro_dsa_offset(void)
{
	return rte_mbuf_dynfield_lookup("tp_dsa_meta", NULL);
}

/* (port, device) join the key only when a tag was stripped (doc: the
 * kernel's per-user-port netdev, gro-rules.md §5). */
static inline void
gro_dsa_key(struct rte_mbuf *m, int off, struct gro_key *k)
{
	const struct tp_dsa_meta *dm =
		RTE_MBUF_DYNFIELD(m, off, const struct tp_dsa_meta *);

	if (dm->flags & GRO_DSA_VALID) {
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
	k.flags = GRO_DSA_VALID;
	if (dm->flags & GRO_DSA_VALID)
		k.port = k.device = 0xFF;
	RTE_BUILD_BUG_ON(sizeof(k) != sizeof(w));
	memcpy(&w, &k, sizeof(w));
	return w;
}

#endif /* TP_GRO_DSA_H */
