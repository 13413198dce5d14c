/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Moving a frame's 12 MAC address bytes forward over a removed tag, shared
 * by the strip loops of lib/dsa_tag and lib/vlan (private to lib/, not
 * installed). Strip moves only these bytes, never the payload.
 */
#ifndef TP_MAC_MOVE_H
#define TP_MAC_MOVE_H

#include <stdint.h>
#include <string.h>

#include <rte_config.h>
#if defined(RTE_ARCH_X86) && defined(__SSE4_1__)
#include <smmintrin.h>
#endif

/* Move the 12 MAC bytes at p to p + delta (delta may be negative), in
 * registers. */
static inline void
tp_mac_move(uint8_t *p, int delta)
{
	uint64_t a;
	uint32_t b;

	memcpy(&a, p, 8);
	memcpy(&b, p + 8, 4);
	memcpy(p + delta, &a, 8);
	memcpy(p + delta + 8, &b, 4);
}

/* Move the 12 MAC bytes at p forward by delta (0..8) with one 16-byte
 * store: the bytes p[12 + delta, 16 + delta) that follow the moved MACs
 * are rewritten with their own value. Needs delta + 16 bytes at p. */
static inline void
tp_mac_move_fwd16(uint8_t *p, unsigned int delta)
{
#if defined(RTE_ARCH_X86) && defined(__SSE4_1__)
	__m128i a = _mm_loadu_si128((const __m128i *)p);
	__m128i b = _mm_loadu_si128((const __m128i *)(p + delta));

	/* 16-bit lanes 0-5 (the MACs) from a, 6-7 from b */
	_mm_storeu_si128((__m128i *)(p + delta), _mm_blend_epi16(a, b, 0xC0));
#else
	tp_mac_move(p, (int)delta);
#endif
}

#endif /* TP_MAC_MOVE_H */
