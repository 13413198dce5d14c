/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_telemetry: the pipeline's counters through DPDK's rte_telemetry, so
 * usertools/dpdk-telemetry.py (or any client of the telemetry socket) reads
 * them:
 *   /tagpipe/pipelines          names of the live pipeline instances
 *   /tagpipe/stats[,NAME]       conservation and verdict counters (frames),
 *                               summed over all instances or of NAME
 *   /tagpipe/drops[,NAME]       every drop reason by name
 *   /tagpipe/stages[,NAME]      per stage: calls, in, out, drop, cycles
 *   /tagpipe/ports[,NAME]       per configured port: rx, tx, tx_full, ...
 *   /tagpipe/bpf_map,MAP        the XDP object's map MAP (first pipeline
 *                               whose program has it): type, sizes, and
 *                               "values": {KEY: VALUE} in the hex of
 *                               tp_prog_bpf_map_dump (up to 256 elements)
 *   /tagpipe/verdict[,NAME]     the verdict program of the first pipeline
 *                               (or NAME): "pipeline", "program" (its
 *                               kind: "pass", "bpf", ...) and for an XDP
 *                               object path, section, function, frags and
 *                               verified_by, execution, checks, reason as
 *                               tp_prog_bpf_exec_info gives them
 * Every pipeline made by tp_pipeline_create() is listed until destroyed.
 * A NAME no live pipeline has is answered {"error": "no pipeline named
 * 'NAME' (pipelines: ...)"} with the live names.
 * Values are read without stopping the datapath: each 64-bit counter is
 * whole, the set may straddle a burst.
 */
#ifndef TP_TELEMETRY_H
#define TP_TELEMETRY_H

/* Declared here = exported: the library is built with -fvisibility=hidden
 * and its version.map lists these names (GCC manual, Visibility Pragmas). */
#pragma GCC visibility push(default)

#ifdef __cplusplus
extern "C" {
#endif

/* Register the endpoints (idempotent). Call after rte_eal_init(). Returns 0
 * or the negative errno of rte_telemetry_register_cmd. */
int tp_telemetry_register(void);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* TP_TELEMETRY_H */
