/* SPDX-License-Identifier: BSD-3-Clause */
/* Pipeline mode's private glue between engine_pipeline.c and pipeline_ctl.c. */
#ifndef FWD_PIPELINE_CTL_H
#define FWD_PIPELINE_CTL_H

#include "tp_gro.h"
#include "tp_pipeline.h"
#include "tp_pipeline.h"
#include "tp_prog.h"
#include "tp_vlan.h"

#include "fwd.h"

/* Make the stream's pipeline instance unless it exists; 0 or -errno. */
int fwd_pipeline_stream_init(struct fwd_stream *fs);

/* tp_pass_cb_t of every instance (arg: the stream). */
void fwd_pipeline_pass(void *arg, uint16_t port, uint16_t queue,
		       struct rte_mbuf **pkts, uint16_t n);

#endif /* FWD_PIPELINE_CTL_H */
