/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe test harness: one EAL per test binary, mbufs built from bytes, and
 * the mempool accounting every test that touches mbufs must end with.
 *
 * Include after <cmocka.h>'s prerequisites; this header includes cmocka.
 *
 * EAL: tp_test_eal_init() starts DPDK with --no-huge --no-shconf --no-pci,
 * one lcore, a --file-prefix unique to the process, and only the vdevs the
 * test asks for (plus --force-max-simd-bitwidth=N when the environment has
 * TP_TEST_SIMD_BITWIDTH=N, to run code's narrower vector instances). It may be called many times; the EAL starts once.
 * (DPDK 22.11 refuses --no-huge together with --in-memory: "--legacy-mem is
 * not compatible with --in-memory"; --no-shconf gives the same isolation.)
 */
#ifndef TP_TEST_H
#define TP_TEST_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

/* Start the EAL once for this process. vdevs: NULL-terminated list of
 * "--vdev" arguments (e.g. "net_ring0"), or NULL. Returns 0 or fails the test. */
int tp_test_eal_init(const char *const *vdevs);

/* For benchmarks: start the EAL in hugepages when the machine has 1 GiB of
 * them free and a hugetlbfs mounted (the deployed configuration: in 4 KiB
 * pages the mbufs of a burst span more pages than the L1 TLB holds, which
 * doubles a strip's cost), else as tp_test_eal_init(NULL) with a warning.
 * TP_TEST_NO_HUGE=1 in the environment asks for 4 KiB pages (valgrind
 * cannot map the EAL's hugepage area). Prints a "memory:" line saying
 * which; returns true for hugepages. */
bool tp_test_eal_init_bench(void);

/* Same as tp_test_eal_init(NULL) in cmocka setup form (group or test). */
int tp_test_eal_setup(void **state);

/* A fresh pktmbuf pool with n mbufs of data room data_room (0: default 2048 +
 * headroom). The name is made unique. Fails the test on error. */
struct rte_mempool *tp_test_pool_create(const char *name, unsigned int n,
					uint16_t data_room);

/* One mbuf holding len bytes of data (single segment). Fails the test when
 * len does not fit or the pool is empty. */
struct rte_mbuf *tp_test_mbuf_from_bytes(struct rte_mempool *mp,
					 const void *data, uint32_t len);

/* A chain holding len bytes split into segments of at most seg_len bytes. */
struct rte_mbuf *tp_test_mbuf_chain_from_bytes(struct rte_mempool *mp,
					       const void *data, uint32_t len,
					       uint16_t seg_len);

/* Copy a (possibly chained) mbuf's data into buf; returns the packet length.
 * Fails the test when buf is too small. */
uint32_t tp_test_mbuf_to_bytes(const struct rte_mbuf *m, void *buf,
			       uint32_t buf_len);

/* Assert the mbuf's data (all segments) equals data[0..len). On mismatch the
 * first differing offset and both byte dumps are printed. */
void tp_test_assert_mbuf_bytes(const struct rte_mbuf *m, const void *data,
			       uint32_t len);

/* Parse a hex string ("00 11 22", "001122", "00:11:22") into buf. Returns
 * the number of bytes; fails the test on a bad digit or overflow. */
size_t tp_test_hex(const char *hex, uint8_t *buf, size_t buf_len);

/* mbufs taken from mp right now. */
static inline unsigned int
tp_test_pool_in_use(const struct rte_mempool *mp)
{
	return rte_mempool_in_use_count(mp);
}

/* Every test that touches mbufs ends with this: the pool is back where the
 * test started, so nothing leaked and nothing was freed twice. */
#define TP_TEST_ASSERT_POOL_BACK(mp, start) \
	assert_int_equal(tp_test_pool_in_use(mp), (start))

/* A path under the source tree (TP_SOURCE_ROOT, set by meson test). */
const char *tp_test_src_path(const char *rel);

/* A path under the build tree (TP_BUILD_ROOT, set by meson test). */
const char *tp_test_build_path(const char *rel);

/* Read a classic pcap file into memory: *frames gets an array of n malloc'd
 * byte buffers and *lens their lengths. Returns n; fails the test on error.
 * Free with tp_test_pcap_free(). *linktype (may be NULL) gets the DLT. */
unsigned int tp_test_pcap_read(const char *path, uint8_t ***frames,
			       uint32_t **lens, int *linktype);
void tp_test_pcap_free(uint8_t **frames, uint32_t *lens, unsigned int n);

#endif /* TP_TEST_H */
