/* SPDX-License-Identifier: BSD-3-Clause */
/* The list of live pipelines (contract: registry.h). */
#include <string.h>

#include <rte_spinlock.h>

#include "pipeline_priv.h"
#include "registry.h"

/* The port mask has one bit per port. */
_Static_assert(TP_PIPELINE_MAX_PORTS <= 32, "port mask is a uint32_t");

static TAILQ_HEAD(, tp_pipeline) pl_list = TAILQ_HEAD_INITIALIZER(pl_list);
static rte_spinlock_t pl_lock = RTE_SPINLOCK_INITIALIZER;

void
pl_registry_add(struct tp_pipeline *pl)
{
	rte_spinlock_lock(&pl_lock);
	TAILQ_INSERT_TAIL(&pl_list, pl, next);
	rte_spinlock_unlock(&pl_lock);
}

void
pl_registry_del(struct tp_pipeline *pl)
{
	rte_spinlock_lock(&pl_lock);
	TAILQ_REMOVE(&pl_list, pl, next);
	rte_spinlock_unlock(&pl_lock);
}

unsigned int
pl_registry_foreach(const char *name, pl_registry_fn fn, void *arg)
{
	const struct tp_pipeline *pl;
	unsigned int found = 0;

	rte_spinlock_lock(&pl_lock);
	TAILQ_FOREACH(pl, &pl_list, next) {
		uint32_t ports = 0;

		if (name != NULL && *name != '\0' && strcmp(name, pl->name) != 0)
			continue;
		for (unsigned int p = 0; p < TP_PIPELINE_MAX_PORTS; p++)
			if (pl->port[p].enabled)
				ports |= UINT32_C(1) << p;
		fn(pl, ports, arg);
		found++;
	}
	rte_spinlock_unlock(&pl_lock);
	return found;
}
