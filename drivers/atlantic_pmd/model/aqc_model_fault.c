/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC chip model: faults of the world around the chip (aqc_model.h): a
 * peer cable that stalls. The DMA engine's own faults are set with
 * aqc_model_set_dma_faults (aqc_model.c).
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
