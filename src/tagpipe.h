/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe: the one header a vRouter includes.
 *
 * Pulls in the public contract of every part: EAL start-up (tp_eal.h), the
 * taggers (tp_dsa_tag.h), VLAN (tp_vlan.h), GRO (tp_gro.h) and the pipeline:
 * tp_pipeline.h (create, burst, flush, stats), tp_prog.h (verdict programs),
 * tp_map.h (array/hash/redirect maps), tp_stats.h (counters), tp_acl.h (the
 * acl program's rules), tp_telemetry.h (rte_telemetry endpoints).
 */
#ifndef TAGPIPE_H
#define TAGPIPE_H

#include "tp_eal.h"
#include "tp_dsa_tag.h"
#include "tp_vlan.h"
#include "tp_gro.h"
#include "tp_stats.h"
#include "tp_pipeline.h"
#include "tp_prog.h"
#include "tp_map.h"
#include "tp_acl.h"
#include "tp_telemetry.h"

#endif /* TAGPIPE_H */
