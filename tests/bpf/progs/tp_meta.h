/* SPDX-License-Identifier: BSD-3-Clause */
/* tagpipe's struct tp_xdp_meta (lib/bpf/tp_bpf.h) as BPF programs see it
 * between data_meta and data. */
#ifndef TP_META_H
#define TP_META_H

#include <linux/types.h>

struct tp_meta {
	__u16 vlan_tci;
	__u16 vlan_tci_outer;
	__s16 switch_port;
	__u8 switch_device;
	__u8 nb_vlan;
};

#endif
