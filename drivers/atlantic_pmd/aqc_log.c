/* SPDX-License-Identifier: BSD-3-Clause */
/* net_aqc's ethdev-layer log types (aqc_log.h). */
#include "aqc_log.h"

RTE_LOG_REGISTER_SUFFIX(aqc_logtype_init, init, NOTICE);
RTE_LOG_REGISTER_SUFFIX(aqc_logtype_driver, driver, NOTICE);
