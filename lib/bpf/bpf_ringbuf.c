/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * BPF_MAP_TYPE_RINGBUF for loaded XDP objects (contract: tp_prog.h).
 *
 * The kernel's design (kernel/bpf/ringbuf.c), kept byte for byte where a
 * program or a consumer can see it:
 *   - one ring shared by every lcore, max_entries bytes of data, a power
 *     of 2 multiple of the 4096-byte page (ringbuf_map_alloc);
 *   - memory: one bookkeeping page, the consumer position page, the
 *     producer position page, then the data pages mapped twice in a row,
 *     so a record that wraps is still contiguous for the program and the
 *     consumer (bpf_ringbuf_area_alloc does the same with vmap);
 *   - each record starts with struct bpf_ringbuf_hdr (include/uapi/linux/
 *     bpf.h: BPF_RINGBUF_HDR_SZ = 8): u32 len = payload length |
 *     BPF_RINGBUF_BUSY_BIT while reserved | BPF_RINGBUF_DISCARD_BIT once
 *     discarded, then u32 pg_off = the header's page number counted from
 *     the start of the bookkeeping page (bpf_ringbuf_rec_pg_off); records
 *     take round_up(len + 8, 8) bytes;
 *   - reserve (__bpf_ringbuf_reserve): under the ring's lock, fails when
 *     the producer would get more than size - 1 bytes ahead of the
 *     consumer, or of the oldest record still reserved (pending_pos, the
 *     kernel's fix for CVE-2024-41009); the producer position is
 *     published with release order after the header is written;
 *   - commit (tpb_ringbuf_commit): the header's length word is rewritten
 *     without BUSY (with DISCARD for a discard) in one atomic store, so
 *     the consumer sees either a reserved or a finished record;
 *   - consumption follows libbpf's ringbuf_process_ring (tools/lib/bpf/
 *     ringbuf.c): from consumer_pos up to producer_pos, stop at the first
 *     BUSY record, skip DISCARDed ones, publish consumer_pos after each.
 *   - notification (tpb_ringbuf_commit): a commit wakes the consumer when
 *     the consumer stands at this very record (it has read everything
 *     before it, so it may be asleep), unless BPF_RB_NO_WAKEUP; with
 *     BPF_RB_FORCE_WAKEUP always. The kernel queues an irq_work that
 *     wakes epoll waiters on the ring's fd; here an eventfd is made
 *     readable (tp_prog_bpf_ringbuf_fd), created when a consumer first
 *     asks for it, so a ring nobody waits on costs no system call.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpf_priv.h"

/* x86-64 PAGE_SIZE: the unit of max_entries and of the header's pg_off. */
#define RB_PAGE 4096u
/* ringbuf_map_alloc accepts far more; tagpipe keeps the ring in process
 * memory and stops at 1 GiB. */
#define RB_MAX_SIZE (1u << 30)
/* RINGBUF_MAX_RECORD_SZ in kernel/bpf/ringbuf.c: two bits of len are flags. */
#define RB_MAX_RECORD (UINT32_MAX / 4)

struct bpf_ringbuf {
	uint64_t mask;            /* data size - 1 */
	uint64_t pending_pos;     /* oldest record maybe still BUSY (lock held) */
	size_t map_len;           /* bytes of the whole mapping */
	rte_spinlock_t lock;      /* producers (reserve) */
	rte_spinlock_t consumer;  /* one consumer at a time */
	int efd;                  /* the consumer's eventfd, -1 until asked for */
	uint64_t consumer_pos __attribute__((aligned(RB_PAGE)));
	uint64_t producer_pos __attribute__((aligned(RB_PAGE)));
	uint8_t data[] __attribute__((aligned(RB_PAGE)));
};

_Static_assert(offsetof(struct bpf_ringbuf, data) == 3 * RB_PAGE,
	       "bookkeeping, consumer and producer pages precede the data");

static inline uint32_t
rec_len(uint32_t len)
{
	return ((len & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT)) +
		BPF_RINGBUF_HDR_SZ + 7u) & ~7u;
}

int
tpb_ringbuf_create(struct tp_bpf_map *m, char *err, size_t errlen)
{
	size_t size = m->max_entries, head = offsetof(struct bpf_ringbuf, data);
	struct bpf_ringbuf *rb;
	uint8_t *base;
	int fd;

	if (m->key_size != 0 || m->value_size != 0) {
		snprintf(err, errlen, "map '%s': ringbuf key and value sizes must be 0 "
			 "(key %u, value %u)", m->name, m->key_size, m->value_size);
		return -EINVAL;
	}
	if (size < RB_PAGE || size > RB_MAX_SIZE || (size & (size - 1)) != 0) {
		snprintf(err, errlen, "map '%s': ringbuf max_entries %u is not a power "
			 "of 2 multiple of %u bytes up to %u", m->name, m->max_entries,
			 RB_PAGE, RB_MAX_SIZE);
		return -EINVAL;
	}
	if (sysconf(_SC_PAGESIZE) != RB_PAGE) {
		snprintf(err, errlen, "map '%s': ringbuf needs %u-byte pages", m->name,
			 RB_PAGE);
		return -ENOTSUP;
	}
	fd = memfd_create("tagpipe-ringbuf", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)(head + size)) < 0)
		goto nomem;
	/* reserve the span, then map the data pages twice into it */
	base = mmap(NULL, head + 2 * size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		goto nomem;
	if (mmap(base, head + size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 fd, 0) == MAP_FAILED ||
	    mmap(base + head + size, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 fd, (off_t)head) == MAP_FAILED) {
		munmap(base, head + 2 * size);
		goto nomem;
	}
	close(fd);
	rb = (struct bpf_ringbuf *)base;
	rb->mask = size - 1;
	rb->map_len = head + 2 * size;
	rte_spinlock_init(&rb->lock);
	rte_spinlock_init(&rb->consumer);
	rb->efd = -1;
	m->rb = rb;
	return 0;
nomem:
	if (fd >= 0)
		close(fd);
	snprintf(err, errlen, "map '%s': cannot map a %zu-byte ringbuf", m->name, size);
	return -ENOMEM;
}

void
tpb_ringbuf_destroy(struct tp_bpf_map *m)
{
	if (m->rb != NULL) {
		if (m->rb->efd >= 0)
			close(m->rb->efd);
		munmap(m->rb, m->rb->map_len);
	}
	m->rb = NULL;
}

void *
tpb_ringbuf_reserve(struct bpf_ringbuf *rb, uint64_t size)
{
	uint64_t cons, prod, pend, next;
	uint8_t *hdr;
	uint32_t len, w[2];

	if (size > RB_MAX_RECORD || (len = rec_len((uint32_t)size)) > rb->mask + 1)
		return NULL;
	cons = __atomic_load_n(&rb->consumer_pos, __ATOMIC_ACQUIRE);
	rte_spinlock_lock(&rb->lock);
	prod = rb->producer_pos;
	pend = rb->pending_pos;
	/* move past records committed since (kernel: the same walk) */
	while (pend < prod) {
		uint32_t l = __atomic_load_n((uint32_t *)(rb->data + (pend & rb->mask)),
					     __ATOMIC_ACQUIRE);

		if (l & BPF_RINGBUF_BUSY_BIT)
			break;
		pend += rec_len(l);
	}
	rb->pending_pos = pend;
	next = prod + len;
	if (next - cons > rb->mask || next - pend > rb->mask) {
		rte_spinlock_unlock(&rb->lock);
		return NULL;
	}
	hdr = rb->data + (prod & rb->mask);
	w[0] = (uint32_t)size | BPF_RINGBUF_BUSY_BIT;
	w[1] = (uint32_t)((hdr - (uint8_t *)rb) / RB_PAGE);
	memcpy(hdr, w, sizeof(w));
	__atomic_store_n(&rb->producer_pos, next, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&rb->lock);
	return hdr + BPF_RINGBUF_HDR_SZ;
}

int
tpb_ringbuf_fd(struct bpf_ringbuf *rb)
{
	int fd = __atomic_load_n(&rb->efd, __ATOMIC_ACQUIRE), nfd;

	if (fd >= 0)
		return fd;
	nfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (nfd < 0)
		return -errno;
	if (!__atomic_compare_exchange_n(&rb->efd, &fd, nfd, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		close(nfd); /* another consumer made it first: fd is that one */
		return fd;
	}
	/* a record committed before the fd existed woke nobody */
	if (tpb_ringbuf_query(rb, BPF_RB_AVAIL_DATA) != 0)
		tpb_ringbuf_wake(rb);
	return nfd;
}

void
tpb_ringbuf_wake(struct bpf_ringbuf *rb)
{
	int fd = __atomic_load_n(&rb->efd, __ATOMIC_ACQUIRE);
	uint64_t one = 1;

	/* the counter only grows until the consumer reads it; a full
	 * counter (EAGAIN) is readable already */
	if (fd >= 0 && write(fd, &one, sizeof(one)) < 0)
		return;
}

void
tpb_ringbuf_commit(void *sample, uint32_t size, bool discard, uint64_t flags)
{
	uint8_t *hdr = (uint8_t *)sample - BPF_RINGBUF_HDR_SZ;
	struct bpf_ringbuf *rb;
	uint32_t pg_off;

	/* programs cannot reach the header (bpf_exec.c allows only the
	 * records a run holds), so the reserved length is the header's */
	memcpy(&pg_off, hdr + 4, 4);
	__atomic_store_n((uint32_t *)hdr, size | (discard ? BPF_RINGBUF_DISCARD_BIT : 0),
			 __ATOMIC_RELEASE);
	/* the ring from the record, as bpf_ringbuf_restore_from_rec does */
	rb = (struct bpf_ringbuf *)(uintptr_t)(((uintptr_t)hdr & ~(uintptr_t)(RB_PAGE - 1)) -
					       (uintptr_t)pg_off * RB_PAGE);
	if (flags & BPF_RB_FORCE_WAKEUP)
		tpb_ringbuf_wake(rb);
	else if (!(flags & BPF_RB_NO_WAKEUP) &&
		 (__atomic_load_n(&rb->consumer_pos, __ATOMIC_ACQUIRE) & rb->mask) ==
		 (uint64_t)(hdr - rb->data))
		tpb_ringbuf_wake(rb);
}

uint64_t
tpb_ringbuf_query(const struct bpf_ringbuf *rb, uint64_t flags)
{
	uint64_t cons = __atomic_load_n(&rb->consumer_pos, __ATOMIC_ACQUIRE);
	uint64_t prod = __atomic_load_n(&rb->producer_pos, __ATOMIC_ACQUIRE);

	switch (flags) {
	case BPF_RB_AVAIL_DATA: return prod - cons;
	case BPF_RB_RING_SIZE: return rb->mask + 1;
	case BPF_RB_CONS_POS: return cons;
	case BPF_RB_PROD_POS: return prod;
	default: return 0;
	}
}

/* Records from cons up to prod (one pass: a producer that keeps writing
 * cannot hold the caller), consumer lock held. */
static int
consume_to(struct bpf_ringbuf *rb, uint64_t cons, uint64_t prod,
	   tp_bpf_ringbuf_fn fn, void *ctx)
{
	int n = 0;

	while (cons < prod) {
		const uint8_t *hdr = rb->data + (cons & rb->mask);
		uint32_t l = __atomic_load_n((const uint32_t *)hdr, __ATOMIC_ACQUIRE);
		int rc = 0;

		if (l & BPF_RINGBUF_BUSY_BIT)
			break;
		cons += rec_len(l);
		if (!(l & BPF_RINGBUF_DISCARD_BIT)) {
			rc = fn(ctx, hdr + BPF_RINGBUF_HDR_SZ, l & ~BPF_RINGBUF_DISCARD_BIT);
			n++;
		}
		__atomic_store_n(&rb->consumer_pos, cons, __ATOMIC_RELEASE);
		if (rc < 0)
			return rc;
	}
	return n;
}

int
tpb_ringbuf_consume(struct bpf_ringbuf *rb, tp_bpf_ringbuf_fn fn, void *ctx)
{
	uint64_t cons, prod;
	int n;

	rte_spinlock_lock(&rb->consumer);
	if (rb->efd >= 0) {
		uint64_t c;

		/* cleared before reading: a wake during the pass stays */
		if (read(rb->efd, &c, sizeof(c)) < 0 && errno != EAGAIN)
			c = 0;
	}
	cons = __atomic_load_n(&rb->consumer_pos, __ATOMIC_ACQUIRE);
	prod = __atomic_load_n(&rb->producer_pos, __ATOMIC_ACQUIRE);
	n = consume_to(rb, cons, prod, fn, ctx);
	rte_spinlock_unlock(&rb->consumer);
	return n;
}

/* ---- the helpers (IDs 130-134) ----------------------------------------- */

static struct bpf_ringbuf *
ring_of(struct bpf_run *rs, uint64_t map)
{
	struct tp_bpf_map *m = tpb_run_map(rs, map);

	return m != NULL && m->type == BPF_MAP_TYPE_RINGBUF ? m->rb : NULL;
}

/* tpb_ringbuf_reserve: NULL when flags are set, the ring is full, or the
 * run already holds BPF_RB_MAX_OPEN reservations (a tagpipe limit). */
uint64_t
tpb_h_ringbuf_reserve(struct bpf_run *rs, uint64_t map, uint64_t size, uint64_t flags)
{
	struct bpf_ringbuf *rb = ring_of(rs, map);
	void *s;

	if (rb == NULL)
		return tpb_run_fault(rs, BPF_CNT_BAD_HELPER_ARG);
	if (flags != 0 || rs->rb_open == BPF_RB_MAX_OPEN ||
	    (s = tpb_ringbuf_reserve(rb, size)) == NULL)
		return 0;
	rs->rb_rec[rs->rb_open].sample = s;
	rs->rb_rec[rs->rb_open].size = (uint32_t)size;
	rs->rb_open++;
	return (uintptr_t)s;
}

/* bpf_ringbuf_submit / discard: sample must be one this run reserved and
 * has not released (the kernel's verifier proves it; here it is checked). */
uint64_t
tpb_h_ringbuf_commit(struct bpf_run *rs, uint64_t sample, uint64_t flags, bool discard)
{
	for (uint32_t k = 0; k < rs->rb_open; k++) {
		if ((uintptr_t)rs->rb_rec[k].sample != sample)
			continue;
		tpb_ringbuf_commit(rs->rb_rec[k].sample, rs->rb_rec[k].size, discard, flags);
		rs->rb_rec[k] = rs->rb_rec[--rs->rb_open];
		return 0;
	}
	return tpb_run_fault(rs, BPF_CNT_BAD_HELPER_ARG);
}

/* bpf_ringbuf_output: -EINVAL for flags other than the wakeup ones,
 * -EAGAIN when it does not fit (kernel/bpf/ringbuf.c bpf_ringbuf_output). */
uint64_t
tpb_h_ringbuf_output(struct bpf_run *rs, uint64_t map, uint64_t data, uint64_t size,
		     uint64_t flags)
{
	struct bpf_ringbuf *rb = ring_of(rs, map);
	void *s;

	if (rb == NULL || size > RB_MAX_RECORD ||
	    (size > 0 && !tpb_run_mem_ok(rs, data, (uint32_t)size)))
		return tpb_run_fault(rs, BPF_CNT_BAD_HELPER_ARG);
	if (flags & ~(uint64_t)(BPF_RB_NO_WAKEUP | BPF_RB_FORCE_WAKEUP))
		return (uint64_t)-EINVAL;
	s = tpb_ringbuf_reserve(rb, size);
	if (s == NULL)
		return (uint64_t)-EAGAIN;
	memcpy(s, (const void *)(uintptr_t)data, size);
	tpb_ringbuf_commit(s, (uint32_t)size, false, flags);
	return 0;
}

uint64_t
tpb_h_ringbuf_query(struct bpf_run *rs, uint64_t map, uint64_t flags)
{
	struct bpf_ringbuf *rb = ring_of(rs, map);

	return rb == NULL ? tpb_run_fault(rs, BPF_CNT_BAD_HELPER_ARG) :
	       tpb_ringbuf_query(rb, flags);
}

void
tpb_ringbuf_abandon(struct bpf_run *rs)
{
	while (rs->rb_open > 0) {
		rs->rb_open--;
		tpb_ringbuf_commit(rs->rb_rec[rs->rb_open].sample,
				   rs->rb_rec[rs->rb_open].size, true, 0);
	}
	if (!rs->fault) /* a run stopped for another reason keeps it */
		tpb_run_fault(rs, BPF_CNT_BAD_HELPER_ARG);
}
