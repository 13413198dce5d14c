/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The net_aqc_sim vdev's log type, pmd.net.aqc.sim: devargs errors and
 * probe refusals (registered in aqc_sim_devargs.c, the part every user of
 * the vdev code links: the plugin and the devargs fuzz target).
 */
#ifndef AQC_SIM_LOG_H
#define AQC_SIM_LOG_H

#include <rte_log.h>

extern int aqc_sim_logtype;

#define AQC_SIM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, aqc_sim_logtype, "net_aqc_sim: %s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

#endif /* AQC_SIM_LOG_H */
