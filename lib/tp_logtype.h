/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each library's own rte_log type, defined the same way in each (private
 * to lib/, not installed): TP_LOGTYPE_DEFINE(var, "tagpipe.x") makes
 * `int var` the id of log type "tagpipe.x" (EAL option
 * --log-level=tagpipe.x:debug), level NOTICE unless the EAL options say
 * otherwise.
 *
 * Registered at RTE_PRIORITY_CLASS: after the EAL's own log set-up
 * (RTE_PRIORITY_LOG) and before the constructors of RTE_INIT's default,
 * last priority (lib/dsa_tag's taggers register there and may log). If
 * registration fails, messages go to RTE_LOGTYPE_USER1 rather than being
 * lost.
 */
#ifndef TP_LOGTYPE_H
#define TP_LOGTYPE_H

#include <rte_common.h>
#include <rte_log.h>

#define TP_LOGTYPE_DEFINE(var, name)                                            \
	int var = RTE_LOGTYPE_USER1;                                            \
	RTE_INIT_PRIO(var##_init, CLASS)                                        \
	{                                                                       \
		int t = rte_log_register_type_and_pick_level(name, RTE_LOG_NOTICE); \
									        \
		if (t >= 0)                                                     \
			var = t;                                                \
	}

#endif /* TP_LOGTYPE_H */
