/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Log types of the hardware layer (base/), apart from the ethdev layer's:
 *   pmd.net.aqc.hw  reset, generation detection, datapath block setup
 *   pmd.net.aqc.fw  the firmware interfaces (A1 mailbox/RPC/SMBus, A2
 *                   shared buffers)
 * Registered in aqc_base_log.c. Included by the .c files of base/ only,
 * never by a header, so the driver and the model keep their own.
 */
#ifndef AQC_BASE_LOG_H
#define AQC_BASE_LOG_H

#include <rte_log.h>

extern int aqc_logtype_hw;
extern int aqc_logtype_fw;

#define AQC_BASE_LOG(level, type, fmt, ...) \
	rte_log(RTE_LOG_##level, aqc_logtype_##type, \
		"net_aqc: %s(): " fmt "\n", __func__, ##__VA_ARGS__)

#define aqc_logtype_HW aqc_logtype_hw
#define aqc_logtype_FW aqc_logtype_fw

#endif /* AQC_BASE_LOG_H */
