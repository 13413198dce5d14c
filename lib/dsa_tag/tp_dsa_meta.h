/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_dsa_meta: the switch-tag metadata mbuf dynamic field, the one contract
 * between lib/dsa_tag (which writes it on strip, reads it on insert) and
 * lib/gro (which keys flows on its source port). Both include this header,
 * so the layout exists once, and both register the field through
 * tp_dsa_meta_field_register(): rte_mbuf_dynfield_register() returns the
 * same offset for the same name, size and alignment however many times and
 * in whatever order it is called (lib/mbuf/rte_mbuf_dyn.c), so neither
 * library depends on the other having run first.
 */
#ifndef TP_DSA_META_H
#define TP_DSA_META_H

#include <stdint.h>

#include <rte_errno.h>
#include <rte_mbuf_dyn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Name of the dynamic field. */
#define TP_DSA_META_FIELD "tp_dsa_meta"

/* Metadata a tag carries, stored in a registered mbuf dynamic field (8 bytes). */
struct tp_dsa_meta {
	uint16_t tag_vid;    /* VLAN ID carried inside the tag (dsa/edsa; ocelot classified VID), else 0 */
	uint8_t  port;       /* source switch port on RX, destination port on TX */
	uint8_t  device;     /* switch/device index in a cascade, 0 when none */
	uint8_t  prio;       /* priority / traffic class from the tag (0 when none) */
	uint8_t  frame_type; /* enum tp_dsa_frame_type */
	uint8_t  flags;      /* TP_DSA_META_F_* */
	uint8_t  proto;      /* tagger protocol id (enum tp_dsa_proto) */
};

#define TP_DSA_META_F_VALID       0x01 /* a tag was stripped into this meta */
#define TP_DSA_META_F_TRUNK       0x02 /* dsa/edsa: source is a trunk; port = trunk id */
#define TP_DSA_META_F_TAG_VLAN    0x04 /* tag says the frame was 802.1Q tagged (dsa/edsa, qca) */
#define TP_DSA_META_F_SWITCH_SIDE 0x08 /* decoded a CPU-to-switch frame: port = destination */

enum tp_dsa_frame_type {
	TP_DSA_FT_NONE = 0,   /* tag carries no frame type */
	TP_DSA_FT_TO_CPU,     /* trapped / sent to the CPU by the switch */
	TP_DSA_FT_FROM_CPU,   /* CPU-to-switch frame (switch-side decode) */
	TP_DSA_FT_TO_SNIFFER, /* mirror copy */
	TP_DSA_FT_FORWARD,    /* forwarded by the switch (kernel sets the fwd mark) */
};

/* Register (or find, when already registered) the field: its offset, or
 * -errno (rte_errno of rte_mbuf_dynfield_register). Needs the EAL. */
static inline int
tp_dsa_meta_field_register(void)
{
	static const struct rte_mbuf_dynfield desc = {
		.name = TP_DSA_META_FIELD,
		.size = sizeof(struct tp_dsa_meta),
		.align = __alignof__(struct tp_dsa_meta),
	};
	int off = rte_mbuf_dynfield_register(&desc);

	return off < 0 ? -rte_errno : off;
}

#ifdef __cplusplus
}
#endif

#endif /* TP_DSA_META_H */
