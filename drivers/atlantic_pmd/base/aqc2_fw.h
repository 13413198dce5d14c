/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC A2 hardware layer (aqc2_hw.c: boot, datapath blocks, action resolver,
 * RSS) and firmware interface (aqc2_fw.c: shared IN/OUT buffers), used only
 * through the A2 operations table aqc_a2_ops. 0 or a negative errno.
 */
#ifndef AQC2_FW_H
#define AQC2_FW_H

#include "aqc_hw.h"
#include "aqc2_regs.h"

/* docs/ref/aqc.md §3.4: consistent read of n dwords of OUT at byte offset off. */
int aqc2_fw_read_out(struct aqc_hw *hw, uint32_t off, uint32_t *dst, unsigned int n);
/* §3.4: 0x0E00 = 1, wait until 0x0E04 bit 0 reads 0; what names the request
 * in the timeout error. */
int aqc2_fw_request(struct aqc_hw *hw, unsigned int timeout_us, const char *what);
/* §3.4 init: version, filter caps, link caps, mode ACTIVE, MTU, policy. */
int aqc2_fw_init(struct aqc_hw *hw);
int aqc2_fw_get_mac(struct aqc_hw *hw, uint8_t mac[6]);
int aqc2_fw_set_link(struct aqc_hw *hw, uint32_t rates, bool up);
uint32_t aqc2_fw_link_speed(struct aqc_hw *hw);
/* AQC2_ST_COUNT cumulative 64-bit counters ("B0" layout). */
int aqc2_fw_stats_read(struct aqc_hw *hw, uint64_t *now);

/* §6.5: write ART record idx (absolute) under semaphore 3. */
int aqc2_art_set(struct aqc_hw *hw, unsigned int idx, uint32_t tag, uint32_t mask,
		 uint32_t action);

#endif /* AQC2_FW_H */
