/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc_sim devargs (the keys and values: aqc_sim.c's header comment and
 * FEATURES.md).
 */
#ifndef AQC_SIM_DEVARGS_H
#define AQC_SIM_DEVARGS_H

#include <stdbool.h>

#include "aqc_model.h"

/* Apply "k=v,k=v" (args; NULL or "" leaves c as it is) for vdev dev over
 * c, which holds aqc_model_config_default(). Every key known, every value
 * valid, combinations coherent; afterwards c->rates and c->fw_version are
 * set. *dma_auto: dma=auto was given or dma= was not (the probe then picks
 * direct or translate); the caller sets it true beforehand. Returns 0,
 * -ENOMEM, or -EINVAL after logging (type pmd.net.aqc.sim) one ERR line
 * naming the device, the key and the bad value. */
int aqc_sim_parse_devargs(struct aqc_model_config *c, const char *dev, const char *args,
			  bool *dma_auto);

#endif /* AQC_SIM_DEVARGS_H */
