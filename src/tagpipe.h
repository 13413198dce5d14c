/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe: the one header a vRouter includes.
 *
 * Pulls in the contract of every library in lib/, in dependency order:
 *   tp_vlan.h      802.1Q / QinQ strip and insert        (libtp_vlan)
 *   tp_dsa_tag.h   the switch taggers                    (libtp_dsa_tag)
 *   tp_gro.h       GRO and its inverse                   (libtp_gro)
 *   tp_prog.h      verdict programs, ACL rules, packet edits (libtp_prog)
 *   tp_pipeline.h  the pipeline, redirect map, telemetry (libtp_pipeline)
 *   tp_stats.h     its counters
 *   tp_bpf.h       unmodified XDP objects                (libtp_bpf; only
 *                  when built with it: TP_HAS_BPF in tp_config.h)
 * pkg-config --cflags --libs libtagpipe links all of them.
 */
#ifndef TAGPIPE_H
#define TAGPIPE_H

#include "tp_config.h"
#include "tp_vlan.h"
#include "tp_dsa_tag.h"
#include "tp_gro.h"
#include "tp_prog.h"
#include "tp_stats.h"
#include "tp_pipeline.h"
#include "tp_host_if.h"
#ifdef TP_HAS_BPF
#include "tp_bpf.h"
/* A reference to libtp_bpf from every program that includes this header,
 * so a linker under --as-needed keeps the library even when the program
 * calls none of its functions: its constructor registers the "bpf"
 * program kinds that a spec ("FILE.o") names. */
static const struct tp_prog_ops *const tp_bpf_link_anchor __attribute__((used)) =
	&tp_prog_bpf;
#endif

#endif /* TAGPIPE_H */
