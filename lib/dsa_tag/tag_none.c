/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "none": untagged conduit (net/dsa/tag_none.c, docs/ref/dsa-tags.md §3.1).
 * Strip keeps every frame as it is and writes a meta with no flags; insert
 * adds nothing.
 */
#include "tag_impl.h"

TAG_DECODER(none_dec)
{
	(void)t;
	(void)md;
	return 0;
}

TAG_ENCODER(none_tx)
{
	(void)m;
	(void)port;
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_none, "none", TP_DSA_PROTO_NONE, TP_DSA_POS_NONE,
		     0, 0, 0, 0, 1, 0, none_dec, none_dec, none_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_none)
