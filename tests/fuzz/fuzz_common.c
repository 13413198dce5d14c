/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared set-up for the fuzz targets (fuzz.h). */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_lcore.h>

#include "fuzz.h"

#define FUZZ_POOL_MBUFS 2047
#define FUZZ_DATA_ROOM (FUZZ_MAX_FRAME + 256 + RTE_PKTMBUF_HEADROOM)

static struct rte_mempool *pool;

struct rte_mempool *
fuzz_pool(void)
{
	char prefix[64];
	char *argv[] = {
		(char *)"fuzz", (char *)"--no-huge", (char *)"--no-shconf", (char *)"-m", (char *)"256",
		(char *)"-l", (char *)"0", (char *)"--no-pci", (char *)"--no-telemetry",
		(char *)"--log-level=lib.eal:error", prefix,
	};

	if (pool != NULL)
		return pool;
	snprintf(prefix, sizeof(prefix), "--file-prefix=tp_fuzz_%d", (int)getpid());
	if (rte_eal_init((int)RTE_DIM(argv), argv) < 0) {
		fprintf(stderr, "fuzz: cannot start the EAL\n");
		abort();
	}
	pool = rte_pktmbuf_pool_create("fuzz_pool", FUZZ_POOL_MBUFS, 0, 0,
				       FUZZ_DATA_ROOM, (int)rte_socket_id());
	if (pool == NULL) {
		fprintf(stderr, "fuzz: cannot create the pool\n");
		abort();
	}
	return pool;
}

static struct rte_mbuf *
mbuf_from(struct rte_mempool *mp, const uint8_t *p, uint32_t len, uint32_t split)
{
	struct rte_mbuf *a = rte_pktmbuf_alloc(mp), *b;

	if (a == NULL)
		return NULL;
	if (split == 0 || split >= len) {
		memcpy(rte_pktmbuf_append(a, (uint16_t)len), p, len);
		return a;
	}
	b = rte_pktmbuf_alloc(mp);
	if (b == NULL) {
		rte_pktmbuf_free(a);
		return NULL;
	}
	memcpy(rte_pktmbuf_append(a, (uint16_t)split), p, split);
	memcpy(rte_pktmbuf_append(b, (uint16_t)(len - split)), p + split, len - split);
	FUZZ_CHECK(rte_pktmbuf_chain(a, b) == 0);
	return a;
}

uint16_t
fuzz_burst(const uint8_t **data, size_t *size, struct rte_mbuf **pkts, uint16_t max)
{
	struct rte_mempool *mp = fuzz_pool();
	uint16_t n = 0;

	while (n < max && *size >= 3) {
		uint8_t flags = (*data)[0];
		uint32_t len = (uint32_t)(*data)[1] << 8 | (*data)[2];
		uint32_t split;

		*data += 3;
		*size -= 3;
		if (len > *size)
			len = (uint32_t)*size;
		if (len > FUZZ_MAX_FRAME)
			len = FUZZ_MAX_FRAME;
		split = (flags & 1) ? len * (flags >> 1) / 128 : 0;
		pkts[n] = mbuf_from(mp, *data, len, split);
		if (pkts[n] == NULL)
			break;
		n++;
		*data += len;
		*size -= len;
	}
	return n;
}

uint32_t
fuzz_bytes(const struct rte_mbuf *m, uint8_t *buf, uint32_t cap)
{
	uint32_t off = 0;
	const char *why;

	FUZZ_CHECK(rte_mbuf_check(m, 1, &why) == 0);
	for (const struct rte_mbuf *s = m; s != NULL; s = s->next) {
		FUZZ_CHECK(off + s->data_len <= cap);
		memcpy(buf + off, rte_pktmbuf_mtod(s, const uint8_t *), s->data_len);
		off += s->data_len;
	}
	FUZZ_CHECK(off == m->pkt_len);
	return off;
}

long
fuzz_len16(const uint8_t **data, size_t *size)
{
	size_t len;

	if (*size < 2)
		return -1;
	len = (size_t)(*data)[0] << 8 | (*data)[1];
	*data += 2;
	*size -= 2;
	return (long)(len < *size ? len : *size);
}

int
fuzz_memfd(const uint8_t *p, size_t n, char *path, size_t plen)
{
	int fd = memfd_create("fuzz_input", 0);

	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(write(fd, p, n) == (ssize_t)n);
	snprintf(path, plen, "/proc/self/fd/%d", fd);
	return fd;
}

void
fuzz_check_pool(void)
{
	FUZZ_CHECK(rte_mempool_in_use_count(fuzz_pool()) == 0);
}

/* libFuzzer calls this once before the first input: the EAL and the pool
 * are set up here, so their allocations are not taken for leaks of one
 * input. The corpus runner calls it too. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_pool();
	return 0;
}
