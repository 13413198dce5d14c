/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The list of live pipelines (registry.c), private to lib/pipeline. tp_pipeline_create
 * adds an instance, tp_pipeline_destroy removes it; readers such as the
 * telemetry endpoints walk it through pl_registry_foreach and see each
 * instance only through the public API (tp_pipeline.h) and its port mask.
 */
#ifndef TP_REGISTRY_H
#define TP_REGISTRY_H

#include <stdint.h>

struct tp_pipeline;

void pl_registry_add(struct tp_pipeline *pl);
void pl_registry_del(struct tp_pipeline *pl);

/* Called for one live instance; ports: bit p set = port p configured. */
typedef void (*pl_registry_fn)(const struct tp_pipeline *pl, uint32_t ports,
			       void *arg);

/* Call fn for every live instance (name NULL or "") or the one named name,
 * under the list's lock (fn must not create or destroy a pipeline).
 * Returns the number of instances fn was called for. */
unsigned int pl_registry_foreach(const char *name, pl_registry_fn fn, void *arg);

#endif /* TP_REGISTRY_H */
