/* SPDX-License-Identifier: BSD-3-Clause */
/* Built-in programs and the opened-program struct. Private to lib/prog. */
#ifndef TP_PROG_PRIV_H
#define TP_PROG_PRIV_H

#include "tp_prog.h"

struct tp_prog {
	const struct tp_prog_ops *ops;
	void *priv;
};

extern const struct tp_prog_ops tp_prog_pass;
extern const struct tp_prog_ops tp_prog_drop;
extern const struct tp_prog_ops tp_prog_tx;
extern const struct tp_prog_ops tp_prog_redirect;
extern const struct tp_prog_ops tp_prog_by_switch_port;
extern const struct tp_prog_ops tp_prog_acl;

#endif /* TP_PROG_PRIV_H */
