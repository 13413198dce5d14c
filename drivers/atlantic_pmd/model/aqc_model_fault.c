/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC chip model: faults from outside the driver (aqc_model.h): a peer
 * cable that stalls, a global reset nobody in the driver asked for. The
 * DMA engine's own faults are set with aqc_model_set_dma_faults
 * (aqc_model.c).
 */
#include <errno.h>

#include "aqc_model_priv.h"

int
aqc_model_set_peer_stall(struct aqc_model *m, bool stall)
{
	if (m->cfg.wire != AQC_WIRE_PEER)
		return -EINVAL;
	/* read by the DMA pass without the lock: a pass sees it or the next */
	atomic_store_explicit(&m->peer_stall, stall, memory_order_relaxed);
	return 0;
}

int
aqc_model_global_reset(struct aqc_model *m)
{
	if (m->a2)
		return -ENOTSUP;
	/* the same request the driver makes (0x0000 bit 15); the control
	 * plane then runs it as for the driver's own (ctl_reset) */
	pthread_mutex_lock(&m->lock);
	aqm_wr(m, AQC_R_GLB_CTL, aqm_rd(m, AQC_R_GLB_CTL) | AQC_FMASK(GLB_SOFT_RESET));
	pthread_mutex_unlock(&m->lock);
	return 0;
}
