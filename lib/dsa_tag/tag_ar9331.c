/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "ar9331": 2 bytes before the DA, a LITTLE-endian word (net/dsa/tag_ar9331.c,
 * docs/ref/dsa-tags.md §3.15, §4.2). Bits: 15:14 version (1), 13:12 priority,
 * 10:8 type, 7 broadcast, 6 from-CPU, 5:4 reserved (0b11), 3:0 port (an index).
 *   RX  version must be 1 and from-CPU 0 (the only checks the kernel makes).
 *   TX  0x4000 | 0x0040 | 0x0030 | port, written low byte first.
 * The switch-side decode is the RX one with from-CPU set.
 */
#include "tag_impl.h"

#define AR9331_LEN 2
#define AR9331_VERSION 1
#define AR9331_FROM_CPU 0x0040

static __rte_always_inline int
ar9331_dec(const uint8_t *t, struct tp_dsa_meta *md, uint16_t from_cpu)
{
	uint16_t w = (uint16_t)(t[0] | t[1] << 8);

	if ((w >> 14) != AR9331_VERSION)
		return TAG_ERR(TP_DSA_DROP_BAD_VERSION);
	if ((w & AR9331_FROM_CPU) != from_cpu)
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE);
	md->port = w & 0x0F;
	md->prio = (w >> 12) & 3;
	if (from_cpu)
		md->frame_type = TP_DSA_FT_FROM_CPU;
	return AR9331_LEN;
}

TAG_DECODER(ar9331_rx)
{
	return ar9331_dec(t, md, 0);
}

TAG_DECODER(ar9331_sw)
{
	return ar9331_dec(t, md, AR9331_FROM_CPU);
}

TAG_ENCODER(ar9331_tx)
{
	uint16_t w = (uint16_t)(AR9331_VERSION << 14 | AR9331_FROM_CPU | 0x0030 | port);
	uint8_t *t;
	int r = tag_tx_open(m, TP_DSA_POS_BEFORE_DA, AR9331_LEN, 0, &t);

	if (r < 0)
		return r;
	t[0] = (uint8_t)w;
	t[1] = (uint8_t)(w >> 8);
	return 0;
}

TP_DSA_TAGGER_DEFINE(tp_tagger_ar9331, "ar9331", TP_DSA_PROTO_AR9331, TP_DSA_POS_BEFORE_DA,
		     AR9331_LEN, AR9331_LEN, 16, 16, 1, 0, ar9331_rx, ar9331_sw, ar9331_tx);
TP_DSA_TAGGER_REGISTER(tp_tagger_ar9331)
