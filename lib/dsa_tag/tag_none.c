/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "none": untagged conduit (net/dsa/tag_none.c). Strip keeps every frame
 * as it is and writes a meta with no flags; insert adds nothing.
 */
#include "tag_impl.h"

static __rte_always_inline int
none_dec(uint8_t *t, uint32_t avail, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	(void)t;
	(void)avail;
	(void)md;
	(void)c;
	return 0;
}

static __rte_always_inline int
none_tx(struct rte_mbuf *m, unsigned int port, unsigned int dev, unsigned int prio,
	const struct tp_dsa_conf *c)
{
	(void)m;
	(void)port;
	(void)dev;
	(void)prio;
	(void)c;
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_none, "none", TP_DSA_PROTO_NONE, TP_DSA_POS_NONE,
		     0, 0, 0, 0, 1, 0, none_dec, none_dec, none_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_none)
