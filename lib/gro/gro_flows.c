/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Flow entries of a tp_gro table: the free stack, the bucket slots and the
 * age list (invariants in gro_priv.h). Used by merging (gro_merge.c),
 * completion (gro_complete.c) and the table's destruction (gro_table.c),
 * and depends on none of them.
 */
#include "gro_priv.h"

uint16_t
gro_flow_alloc(struct tp_gro *g)
{
	return g->free_stack[--g->nb_free];
}

void
gro_flow_link(struct tp_gro *g, uint16_t idx, uint32_t bucket, uint8_t slot)
{
	struct gro_flow *f = &g->flows[idx];
	struct gro_bucket *b = &g->buckets[bucket];

	b->hash[slot] = f->hash;
	b->flow[slot] = idx;
	b->used |= (uint8_t)(1u << slot);
	f->bucket = bucket;
	f->slot = slot;
	f->age_next = GRO_NIL;
	f->age_prev = g->age_tail;
	if (g->age_tail != GRO_NIL)
		g->flows[g->age_tail].age_next = idx;
	else
		g->age_head = idx;
	g->age_tail = idx;
	g->held_flows++;
	g->held_segs += f->segs;
}

void
gro_flow_unlink(struct tp_gro *g, uint16_t idx)
{
	struct gro_flow *f = &g->flows[idx];

	g->buckets[f->bucket].used &= (uint8_t)~(1u << f->slot);
	if (f->age_prev != GRO_NIL)
		g->flows[f->age_prev].age_next = f->age_next;
	else
		g->age_head = f->age_next;
	if (f->age_next != GRO_NIL)
		g->flows[f->age_next].age_prev = f->age_prev;
	else
		g->age_tail = f->age_prev;
	g->held_flows--;
	g->held_segs -= f->segs;
	g->free_stack[g->nb_free++] = idx;
	g->ghost = idx;
	if (g->last == idx)
		g->last = GRO_NIL;
}
