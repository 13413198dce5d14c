/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC chip model: how its DMA engine reaches host memory.
 *
 * Descriptor and buffer addresses are IOVAs (docs/ref/aqc.md §5.1, §5.3: "buffer DMA
 * address"). A device without an IOMMU in front of it sees physical
 * addresses, which is what the EAL hands out as IOVAs in IOVA-as-PA mode
 * (hugepage deployments without vfio). The model then does what the bus
 * does for such a device: it finds the host page behind the address, here by
 * looking the IOVA up in the EAL's memory segment lists (the same lists
 * rte_mem_iova2virt() walks). An address that is in no segment is a DMA
 * fault: counted, never dereferenced.
 *
 * In direct mode (IOVA as VA) the address is the process virtual address.
 *
 * Lookups are cached (a few segments, round robin); the cache is emptied
 * whenever a ring is enabled or disabled, so a segment freed between two
 * ring sessions is never used from the cache.
 */
#include <string.h>

#include <rte_memory.h>

#include "aqc_model_priv.h"

struct seg_query {
	uint64_t iova;
	struct aqm_iova_seg found;
};

static int
find_seg(const struct rte_memseg_list *msl, const struct rte_memseg *ms, void *arg)
{
	struct seg_query *q = arg;

	(void)msl;
	if (ms->iova == RTE_BAD_IOVA || ms->addr == NULL)
		return 0;
	if (q->iova >= ms->iova && q->iova - ms->iova < ms->len) {
		q->found.iova = ms->iova;
		q->found.len = ms->len;
		q->found.va = ms->addr;
		return 1;
	}
	return 0;
}

void
aqm_iova_flush(struct aqc_model *m)
{
	memset(m->iova_cache, 0, sizeof(m->iova_cache));
}

/* The segment holding iova, or NULL. */
static const struct aqm_iova_seg *
lookup(struct aqc_model *m, uint64_t iova)
{
	struct seg_query q = { .iova = iova };
	struct aqm_iova_seg *s;

	for (unsigned int i = 0; i < AQM_IOVA_CACHE; i++) {
		s = &m->iova_cache[i];
		if (s->len != 0 && iova >= s->iova && iova - s->iova < s->len)
			return s;
	}
	if (rte_memseg_walk(find_seg, &q) != 1)
		return NULL;
	s = &m->iova_cache[m->iova_next];
	m->iova_next = (m->iova_next + 1) % AQM_IOVA_CACHE;
	*s = q.found;
	return s;
}

void *
aqm_dma_ptr(struct aqc_model *m, uint64_t iova, uint32_t len)
{
	const struct aqm_iova_seg *s;

	if (iova == 0)
		return NULL;
	if (m->cfg.dma == AQC_DMA_DIRECT)
		return (void *)(uintptr_t)iova;
	s = lookup(m, iova);
	if (s == NULL || s->len - (iova - s->iova) < len)
		return NULL;
	return s->va + (iova - s->iova);
}

/* A buffer may cross segments (IOVA-contiguous pages need not be
 * VA-contiguous): copy segment by segment. */
static bool
dma_copy(struct aqc_model *m, uint64_t iova, uint8_t *host, uint32_t len, bool to_dev)
{
	if (len > 0 && iova == 0)
		return false;
	while (len > 0) {
		const struct aqm_iova_seg *s;
		uint32_t n;
		uint8_t *p;

		if (m->cfg.dma == AQC_DMA_DIRECT) {
			p = (uint8_t *)(uintptr_t)iova;
			n = len;
		} else {
			s = lookup(m, iova);
			if (s == NULL)
				return false;
			p = s->va + (iova - s->iova);
			n = (uint32_t)RTE_MIN((uint64_t)len, s->len - (iova - s->iova));
		}
		if (p == NULL)
			return false;
		if (to_dev)
			memcpy(host, p, n);
		else
			memcpy(p, host, n);
		host += n;
		iova += n;
		len -= n;
	}
	return true;
}

bool
aqm_dma_read(struct aqc_model *m, void *dst, uint64_t iova, uint32_t len)
{
	if (!dma_copy(m, iova, dst, len, true)) {
		m->cnt.dma_faults++;
		return false;
	}
	return true;
}

bool
aqm_dma_write(struct aqc_model *m, uint64_t iova, const void *src, uint32_t len)
{
	if (!dma_copy(m, iova, (uint8_t *)(uintptr_t)src, len, false)) {
		m->cnt.dma_faults++;
		return false;
	}
	return true;
}
