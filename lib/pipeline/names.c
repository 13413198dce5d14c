/* SPDX-License-Identifier: BSD-3-Clause */
/* Names of stages and drop reasons, generated from the X-macro lists so a
 * counter can never miss its name (tp_stats.h). */
#include <stddef.h>

#include "tp_pipeline.h"
#include "tp_stats.h"

static const char *const stage_names[TP_STAGE_MAX] = {
#define X(e, s) [TP_STAGE_##e] = s,
	TP_STAGES(X)
#undef X
};

const char *
tp_stage_name(unsigned int stage)
{
	return stage < TP_STAGE_MAX ? stage_names[stage] : NULL;
}

static const char *const drop_names[TP_DROP_MAX] = {
#define X(e, s) [TP_DROP_DSA_##e] = "dsa_" s,
	TP_DSA_DROP_REASONS(X)
#undef X
#define X(e, s) [TP_DROP_VLAN_##e] = "vlan_" s,
	TP_VLAN_DROP_REASONS(X)
#undef X
#define X(e, s) [TP_DROP_##e] = s,
	TP_DROP_REASONS(X)
#undef X
};

const char *
tp_drop_reason_name(unsigned int reason)
{
	return reason < TP_DROP_MAX ? drop_names[reason] : NULL;
}
