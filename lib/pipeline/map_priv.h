/* SPDX-License-Identifier: BSD-3-Clause */
/* Redirect entry word packing (layout documented in map.c). Private. */
#ifndef TP_MAP_PRIV_H
#define TP_MAP_PRIV_H

#include <stdint.h>

#include "tp_pipeline.h"

#define RD_F_SWPORT 0x01u

static inline uint64_t
rd_word(unsigned int kind, unsigned int flags, uint16_t port, uint16_t queue,
	uint8_t swport)
{
	return (uint64_t)kind | (uint64_t)flags << 8 | (uint64_t)port << 16 |
	       (uint64_t)queue << 32 | (uint64_t)swport << 48;
}

static inline unsigned int rd_kind(uint64_t w) { return w & 0xFF; }
static inline unsigned int rd_flags(uint64_t w) { return (w >> 8) & 0xFF; }
static inline uint16_t rd_port(uint64_t w) { return (uint16_t)(w >> 16); }
static inline uint16_t rd_queue(uint64_t w) { return (uint16_t)(w >> 32); }
static inline uint8_t rd_swport(uint64_t w) { return (uint8_t)(w >> 48); }

#endif /* TP_MAP_PRIV_H */
