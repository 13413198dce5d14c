/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-fwd's host interfaces (--host-if, "show host-if"): one Linux
 * interface per switch port of a conduit port (lib/pipeline's tp_host_if.h),
 * fed by the pipeline engine's PASS path and polled by the lcore that
 * receives on the conduit.
 */
#ifndef FWD_HOST_IF_H
#define FWD_HOST_IF_H

#include <stddef.h>
#include <stdint.h>

#include <cmdline_parse.h>

#include "fwd.h"

/* --host-if PORT:SWITCH_PORT=NAME[,PORT:SWITCH_PORT=NAME...] (repeatable):
 * syntax and duplicates; 0 or -EINVAL with err naming the bad entry. */
int fwd_host_if_parse(struct fwd_options *o, const char *s, char *err, size_t len);

/* With the EAL up: every named port exists and has a --port-tagger that
 * can address the switch port. 0 or -EINVAL with err. */
int fwd_host_if_check(const struct fwd_options *o, uint16_t nb_ports, char *err,
		      size_t len);

/* TX offloads port_setup asks for on a conduit with host interfaces (TSO
 * and the checksums it needs, where the device offers them); 0 else. */
uint64_t fwd_host_if_tx_offloads(uint16_t port_index, uint64_t capa);

/* After the ports and streams: make the interfaces, raise each conduit's
 * MTU by its tag (as the kernel's DSA does), start following the
 * conduits' link, MAC and MTU. 0 or -errno (reported). */
int fwd_host_if_setup(void);

/* Forwarding stopped: close every interface, give back every mbuf. */
void fwd_host_if_release(void);

/* PASS packets of stream fs: those for a host interface are written to
 * it; the rest is compacted and its count returned. */
uint16_t fwd_host_if_to_host(struct fwd_stream *fs, struct rte_mbuf **pkts, uint16_t n);

/* Read what the host sent on the interfaces of fs's RX port (fs's RX
 * queue is the interface queue) and send it out of that port. */
void fwd_host_if_poll(struct fwd_stream *fs);

/* "show host-if": each interface's counters. */
void fwd_host_if_show(void);

/* The prompt's "show host-if" command (prompt.c lists it). */
extern cmdline_parse_inst_t fwd_cmd_show_host_if;

#endif /* FWD_HOST_IF_H */
