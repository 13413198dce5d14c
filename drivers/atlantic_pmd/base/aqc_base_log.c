/* SPDX-License-Identifier: BSD-3-Clause */
/* The hardware layer's log types (aqc_base_log.h). */
#include "aqc_base_log.h"

RTE_LOG_REGISTER_SUFFIX(aqc_logtype_hw, hw, NOTICE);
RTE_LOG_REGISTER_SUFFIX(aqc_logtype_fw, fw, NOTICE);
