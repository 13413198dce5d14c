/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe: the one header a vRouter includes.
 *
 * Pulls in the public contract of every part: EAL start-up (tp_eal.h), the
 * taggers (tp_dsa_tag.h), VLAN (tp_vlan.h), GRO (tp_gro.h) and the pipeline.
 */
#ifndef TAGPIPE_H
#define TAGPIPE_H

#include "tp_eal.h"

#endif /* TAGPIPE_H */
