/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private to lib/vlan (not installed): the pieces of the VLAN strip's fast
 * path that lib/vlan (vlan_strip.c) and the fused switch tag + VLAN strip of
 * lib/dsa_tag (tag_marvell.h, which has lib/vlan on its include path) share,
 * so both recognise the same TPIDs and fill the same mbuf fields the same
 * way (the rules: tp_vlan.h). It lives here, beside tp_vlan.h, so that
 * lib/vlan reads nothing from lib/dsa_tag and lib/ above both holds only
 * helpers that include no library header.
 */
#ifndef TP_VLAN_VLAN_FAST_H
#define TP_VLAN_VLAN_FAST_H

#include <string.h>

#include <rte_byteorder.h>
#include <rte_mbuf.h>
#if defined(RTE_ARCH_X86)
#include <tmmintrin.h>
#endif

#include "tp_vlan.h"

/* The flags of one stripped tag, and of two (tp_vlan.h). */
#define TP_VLAN_RX_F_ONE (RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED)
#define TP_VLAN_RX_F_TWO (TP_VLAN_RX_F_ONE | RTE_MBUF_F_RX_QINQ | RTE_MBUF_F_RX_QINQ_STRIPPED)

/* The TPID set of a NULL configuration (tp_vlan_conf_init's defaults). */
#define TP_VLAN_DEFAULT_TPIDS { TP_VLAN_TPID_8021Q, TP_VLAN_TPID_8021AD }
#define TP_VLAN_DEFAULT_N_TPID 2

/* The TPID set as big-endian words, so frames are compared without swaps. */
struct tpid_set {
	uint16_t t[TP_VLAN_MAX_TPIDS];
};

/* Fill s from conf (NULL: the defaults) and return its n_tpid. Only the
 * first n_tpid slots count: the rest become copies of the first, so a
 * four-way compare accepts nothing else. A set with no TPID (0) strips no
 * tag; one over the array's size is read as the whole array. */
static inline unsigned int
tpid_set_init(struct tpid_set *s, const struct tp_vlan_conf *conf)
{
	static const uint16_t dflt[TP_VLAN_MAX_TPIDS] = TP_VLAN_DEFAULT_TPIDS;
	const uint16_t *tp = conf != NULL ? conf->tpid : dflt;
	unsigned int n = conf != NULL ? conf->n_tpid : TP_VLAN_DEFAULT_N_TPID;

	for (unsigned int j = 0; j < TP_VLAN_MAX_TPIDS; j++)
		s->t[j] = rte_cpu_to_be_16(tp[j < n ? j : 0]);
	return n;
}

/* be (big-endian, as in the frame) is one of the set's four slots: the
 * scalar compare, where no vector one is built. */
static inline int
tpid_set_has(const struct tpid_set *s, uint16_t be)
{
	return (be == s->t[0]) | (be == s->t[1]) | (be == s->t[2]) | (be == s->t[3]);
}

#if defined(RTE_ARCH_X86) && defined(__SSSE3__)
/* The set twice (lanes 0-3 and 4-7): both TPID slots of a frame compared
 * at once. */
typedef __m128i tpid_pair_vec;

static inline tpid_pair_vec
tpid_pair_load(const struct tpid_set *s)
{
	__m128i v = _mm_loadl_epi64((const __m128i *)s->t);

	return _mm_unpacklo_epi64(v, v);
}

/* Bit 0: p[0..2) is a TPID of the set; bit 1: p[4..6) is one. */
static inline unsigned int
tpid_pair(tpid_pair_vec v, const uint8_t *p)
{
	const __m128i spread = _mm_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1,
					     4, 5, 4, 5, 4, 5, 4, 5);
	__m128i x = _mm_shuffle_epi8(_mm_loadl_epi64((const __m128i *)p), spread);
	unsigned int mm = (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi16(x, v));

	return ((mm & 0xFF) != 0) | ((mm & 0xFF00) != 0) << 1;
}
#else
typedef struct tpid_set tpid_pair_vec;

static inline tpid_pair_vec
tpid_pair_load(const struct tpid_set *s)
{
	return *s;
}

static inline int
tpid_in(const struct tpid_set *s, const uint8_t *p)
{
	uint16_t be;

	memcpy(&be, p, 2);
	return tpid_set_has(s, be);
}

static inline unsigned int
tpid_pair(tpid_pair_vec v, const uint8_t *p)
{
	return (unsigned int)tpid_in(&v, p) | (unsigned int)tpid_in(&v, p + 4) << 1;
}
#endif

#endif /* TP_VLAN_VLAN_FAST_H */
