/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The chip model's log type, pmd.net.aqc.model (registered in
 * aqc_model.c): what the model itself has to say (a capture that cannot be
 * opened, a cable plugged between two ports), apart from the driver's.
 */
#ifndef AQC_MODEL_LOG_H
#define AQC_MODEL_LOG_H

#include <rte_log.h>

extern int aqm_logtype;

#define AQM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, aqm_logtype, "aqc_model: %s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

#endif /* AQC_MODEL_LOG_H */
