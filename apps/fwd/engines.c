/* SPDX-License-Identifier: BSD-3-Clause */
/* The table of forwarding engines; each lives in its own engine_<name>.c. */
#include <string.h>

#include "fwd.h"

extern const struct fwd_engine fwd_engine_io;
extern const struct fwd_engine fwd_engine_mac;
extern const struct fwd_engine fwd_engine_macswap;
extern const struct fwd_engine fwd_engine_rxonly;
extern const struct fwd_engine fwd_engine_txonly;
extern const struct fwd_engine fwd_engine_pipeline;

/* The first entry is the default mode. */
const struct fwd_engine *const fwd_engines[] = {
	&fwd_engine_pipeline,
	&fwd_engine_io,
	&fwd_engine_mac,
	&fwd_engine_macswap,
	&fwd_engine_rxonly,
	&fwd_engine_txonly,
	NULL,
};

const struct fwd_engine *
fwd_engine_find(const char *name)
{
	for (unsigned int i = 0; fwd_engines[i] != NULL; i++)
		if (strcmp(fwd_engines[i]->name, name) == 0)
			return fwd_engines[i];
	return NULL;
}

char *
fwd_engine_list(char *buf, size_t len, char sep)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; fwd_engines[i] != NULL && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%s", i ? (char[]){sep, 0} : "",
				 fwd_engines[i]->name);
		if (w < 0)
			break;
		off += (size_t)w;
	}
	return buf;
}
