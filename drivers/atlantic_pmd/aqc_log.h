/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc's ethdev-layer log types: pmd.net.aqc.init (probe, bring-up) and
 * pmd.net.aqc.driver (device operations, queues), registered in aqc_log.c
 * (22.11 style, rte_log with an explicit trailing newline). The hardware
 * layer logs as pmd.net.aqc.hw and .fw (base/aqc_base_log.h), the chip
 * model as pmd.net.aqc.model, the net_aqc_sim vdev as pmd.net.aqc.sim.
 */
#ifndef AQC_LOG_H
#define AQC_LOG_H

#include <rte_log.h>

extern int aqc_logtype_init;
extern int aqc_logtype_driver;

#define AQC_LOG(level, type, fmt, ...) \
	rte_log(RTE_LOG_##level, aqc_logtype_##type, \
		"net_aqc: %s(): " fmt "\n", __func__, ##__VA_ARGS__)

#define aqc_logtype_INIT aqc_logtype_init
#define aqc_logtype_DRIVER aqc_logtype_driver

#endif /* AQC_LOG_H */
