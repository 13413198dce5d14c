/* SPDX-License-Identifier: BSD-3-Clause */
/* A legacy map definition: struct bpf_map_def in section "maps", as
 * iproute2 and older samples write it (libbpf >= 1.0 refuses to open it;
 * tagpipe reads it itself, lib/bpf/bpf_load.c). */
#ifndef LEGACY_MAP_H
#define LEGACY_MAP_H

struct legacy_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

#endif
