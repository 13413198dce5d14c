/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc log types: pmd.net.aqc.init, .driver, .fw, .model
 * (RTE_LOG_REGISTER_SUFFIX in aqc_ethdev.c; 22.11 style, rte_log with an
 * explicit trailing newline).
 */
#ifndef AQC_LOG_H
#define AQC_LOG_H

#include <rte_log.h>

extern int aqc_logtype_init;
extern int aqc_logtype_driver;
extern int aqc_logtype_fw;
extern int aqc_logtype_model;

#define AQC_LOG(level, type, fmt, ...) \
	rte_log(RTE_LOG_##level, aqc_logtype_##type, \
		"net_aqc: %s(): " fmt "\n", __func__, ##__VA_ARGS__)

#define aqc_logtype_INIT aqc_logtype_init
#define aqc_logtype_DRIVER aqc_logtype_driver
#define aqc_logtype_FW aqc_logtype_fw
#define aqc_logtype_MODEL aqc_logtype_model

#endif /* AQC_LOG_H */
