/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "ocelot" and "seville": the Microchip/NXP Felix 20-byte tag before the DA
 * (net/dsa/tag_ocelot.c, include/linux/dsa/ocelot.h; docs/ref/dsa-tags.md
 * §3.16): a 4-byte prefix (88 80 00 0A ocelot, 88 80 00 05 seville; not
 * checked on RX) and a 16-byte header, bits 127..0 with bit 127 the MSB of
 * its first byte. One row each below; they differ in the prefix and the
 * width of DEST.
 *   RX extraction: SRC_PORT 46:43, QOS_CLASS 19:17, TAG_TYPE 16, PCP 15:13,
 *      DEI 12, VID 11:0 (classified VLAN).
 *   TX injection: BYPASS 127, DEST BIT(port) at 67:56 (ocelot, 12 bits) or
 *      67:57 (seville, 11 bits), SRC_PORT 46:43 = CPU port, QOS_CLASS 19:17;
 *      VLAN fields 0 (standalone port).
 * TX needs TP_DSA_CONF_F_CPU_PORT (SRC_PORT = CPU port number).
 */
#include <rte_byteorder.h>

#include "tag_impl.h"

#define OCELOT_PREFIX_LEN 4
#define OCELOT_LEN 20
#define OCELOT_ETYPE 0x8880

static inline uint64_t
oc_ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return rte_be_to_cpu_64(v);
}

static inline void
oc_st64(uint8_t *p, uint64_t v)
{
	v = rte_cpu_to_be_64(v);
	memcpy(p, &v, 8);
}

static __rte_always_inline int
oc_rx(const uint8_t *t, struct tp_dsa_meta *md, const struct tp_dsa_conf *c)
{
	uint64_t lo = oc_ld64(t + OCELOT_PREFIX_LEN + 8); /* header bits 63..0 */

	md->port = (lo >> 43) & 0x0F;
	md->prio = (lo >> 17) & 7;
	md->tag_vid = lo & 0x0FFF;
	/* Frames from the CPU port itself are not from a user port. */
	if ((c->flags & TP_DSA_CONF_F_CPU_PORT) && md->port == c->cpu_port)
		return TAG_ERR(TP_DSA_DROP_PORT_RANGE);
	return OCELOT_LEN;
}

static __rte_always_inline int
oc_sw(const uint8_t *t, struct tp_dsa_meta *md, uint16_t prefix2, unsigned int dest_lo,
      unsigned int dest_bits)
{
	uint64_t hi = oc_ld64(t + OCELOT_PREFIX_LEN);
	uint64_t lo = oc_ld64(t + OCELOT_PREFIX_LEN + 8);
	uint32_t dest;
	int r;

	if (tag_rd16(t) != OCELOT_ETYPE || tag_rd16(t + 2) != prefix2)
		return TAG_ERR(TP_DSA_DROP_BAD_MARKER);
	if (!(hi >> 63))
		return TAG_ERR(TP_DSA_DROP_BAD_TYPE); /* not BYPASS */
	dest = (uint32_t)((hi << (64 - dest_lo)) | (lo >> dest_lo)) & ((1u << dest_bits) - 1);
	r = tag_sw_map(md, dest, OCELOT_LEN);
	if (r >= 0)
		md->prio = (lo >> 17) & 7;
	return r;
}

static __rte_always_inline int
oc_tx(struct rte_mbuf *m, unsigned int port, unsigned int prio, const struct tp_dsa_conf *c,
      uint16_t prefix2, unsigned int dest_lo)
{
	uint64_t dest = 1ull << port;
	uint8_t *t;
	int r;

	if (!(c->flags & TP_DSA_CONF_F_CPU_PORT) || c->cpu_port > 15)
		return TAG_ERR(TP_DSA_DROP_NO_CONFIG);
	r = tag_tx_open(m, TP_DSA_POS_BEFORE_DA, OCELOT_LEN, 0, &t);
	if (r < 0)
		return r;
	tag_wr16(t, OCELOT_ETYPE);
	tag_wr16(t + 2, prefix2);
	oc_st64(t + OCELOT_PREFIX_LEN, 1ull << 63 | dest >> (64 - dest_lo));
	oc_st64(t + OCELOT_PREFIX_LEN + 8, dest << dest_lo |
		(uint64_t)c->cpu_port << 43 | (uint64_t)(prio & 7) << 17);
	return 0;
}

/* One Felix tagger: the prefix's second word, DEST's lowest bit and width. */
#define OCELOT_TAGGER(var, NAME, PROTO, PREFIX2, DEST_LO, DEST_BITS)             \
	TAG_DECODER(var##_rx) { return oc_rx(t, md, c); }                        \
	TAG_DECODER(var##_sw) { return oc_sw(t, md, PREFIX2, DEST_LO, DEST_BITS); } \
	TAG_ENCODER(var##_tx) { return oc_tx(m, port, prio, c, PREFIX2, DEST_LO); } \
	TP_DSA_TAGGER_DEFINE_FLAGS(tp_tagger_##var, NAME, PROTO, TP_DSA_POS_BEFORE_DA, \
				   OCELOT_LEN, OCELOT_LEN, 16, DEST_BITS, 1, 0,    \
				   TP_DSA_TAGGER_F_TX_CPU_PORT, var##_rx,          \
				   var##_sw, var##_tx);                            \
	TP_DSA_TAGGER_REGISTER(tp_tagger_##var)

/*            var      name       proto                 prefix  DEST lo  bits */
OCELOT_TAGGER(ocelot,  "ocelot",  TP_DSA_PROTO_OCELOT,  0x000A, 56,      12)
OCELOT_TAGGER(seville, "seville", TP_DSA_PROTO_SEVILLE, 0x0005, 57,      11)
