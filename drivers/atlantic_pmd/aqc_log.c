/* SPDX-License-Identifier: BSD-3-Clause */
/* net_aqc log types (aqc_log.h): on their own so that parts of the driver
 * (the devargs parser, the model) link without the ethdev code. */
#include "aqc_log.h"

RTE_LOG_REGISTER_SUFFIX(aqc_logtype_init, init, NOTICE);
RTE_LOG_REGISTER_SUFFIX(aqc_logtype_driver, driver, NOTICE);
RTE_LOG_REGISTER_SUFFIX(aqc_logtype_fw, fw, NOTICE);
RTE_LOG_REGISTER_SUFFIX(aqc_logtype_model, model, NOTICE);
