/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The chip model's DMA with IOVAs that are not virtual addresses (what a
 * device sees in IOVA-as-PA mode, model/aqc_model_iova.c).
 *
 * Without hugepages the EAL cannot run IOVA as PA, so the test builds the
 * same situation by hand: an external malloc heap whose pages are given
 * IOVAs far from their virtual addresses, with the two halves of the region
 * swapped (IOVA order is not VA order, as with physical pages). Rings and
 * mbufs come from that heap, so every address the driver writes into a
 * descriptor or a base register is such an IOVA; the model must translate
 * each one (dma=translate) or the frames could not come back byte for byte.
 * A buffer address in no memory segment is a counted DMA fault.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_ether.h>
#include <rte_malloc.h>

#include "aqc_test.h"

static const char *const vdevs[] = {
	"net_aqc_sim0,mode=step,dma=translate",
	NULL,
};

#define HEAP_NAME  "aqc_fake_pa"
#define HEAP_LEN   (32u << 20)
#define FAKE_IOVA  0x3f0000000000ull   /* far from any user-space VA */

static void *heap_va;
static size_t page_sz;
static int heap_socket;

/* IOVA of byte off of the region: halves swapped. */
static uint64_t
fake_iova(size_t off)
{
	size_t half = HEAP_LEN / 2;

	return FAKE_IOVA + (off < half ? off + half : off - half);
}

static int
setup(void **state)
{
	size_t n;
	rte_iova_t *iova;

	(void)state;
	aqc_test_eal_init(vdevs);
	page_sz = (size_t)sysconf(_SC_PAGESIZE);
	n = HEAP_LEN / page_sz;
	heap_va = mmap(NULL, HEAP_LEN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(heap_va != MAP_FAILED);
	iova = calloc(n, sizeof(*iova));
	assert_non_null(iova);
	for (size_t i = 0; i < n; i++)
		iova[i] = fake_iova(i * page_sz);
	assert_int_equal(rte_malloc_heap_create(HEAP_NAME), 0);
	assert_int_equal(rte_malloc_heap_memory_add(HEAP_NAME, heap_va, HEAP_LEN, iova,
						    (unsigned int)n, page_sz), 0);
	free(iova);
	heap_socket = rte_malloc_heap_get_socket(HEAP_NAME);
	assert_true(heap_socket >= 0);
	return 0;
}

static bool
in_fake_range(uint64_t a)
{
	return a >= FAKE_IOVA && a < FAKE_IOVA + HEAP_LEN;
}

static void
start_on_heap(const struct aqc_test_port *p, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	struct rte_eth_rxconf rxc = { .rx_free_thresh = 0 };
	struct rte_eth_txconf txc = { .tx_free_thresh = 0 };

	memset(&conf, 0, sizeof(conf));
	assert_int_equal(rte_eth_dev_configure(p->id, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(p->id, 0, 256, heap_socket, &rxc, mp), 0);
	assert_int_equal(rte_eth_tx_queue_setup(p->id, 0, 256, heap_socket, &txc), 0);
	assert_int_equal(rte_eth_promiscuous_enable(p->id), 0);
	assert_int_equal(rte_eth_dev_start(p->id), 0);
	aqc_test_wait_link(p->id, RTE_ETH_LINK_UP);
}

/* 200 frames of 60..1514 bytes out and back over the loop wire. */
static void
test_translated_loop(void **state)
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create("iova_pool", 1023, 0, 0,
							 RTE_MBUF_DEFAULT_BUF_SIZE,
							 heap_socket);
	struct aqc_model_counters c;
	struct aqc_test_port p;
	struct rte_mbuf *m, *rx[32];
	uint8_t f[1600];
	unsigned int start, got = 0;
	uint32_t dw[4];

	(void)state;
	assert_non_null(mp);
	start = tp_test_pool_in_use(mp);
	aqc_test_port(&p, "net_aqc_sim0");
	start_on_heap(&p, mp);
	/* docs/ref/aqc.md §4.1/§4.2: base registers hold IOVAs of the fake range */
	assert_true(in_fake_range((uint64_t)aqc_test_reg(&p, DOC_RXD_BASE_HI(0)) << 32 |
				  aqc_test_reg(&p, DOC_RXD_BASE_LO(0))));
	assert_true(in_fake_range((uint64_t)aqc_test_reg(&p, DOC_TXD_BASE_HI(0)) << 32 |
				  aqc_test_reg(&p, DOC_TXD_BASE_LO(0))));
	for (uint32_t i = 0; i < 200; i++) {
		uint32_t len = aqc_test_udp4(f, (i * 53u) % 1455u + 18u, (uint16_t)i, 9, i);

		m = tp_test_mbuf_from_bytes(mp, f, len);
		assert_true(in_fake_range(rte_mbuf_data_iova(m)));
		assert_int_equal(rte_eth_tx_burst(p.id, 0, &m, 1), 1);
		assert_int_equal(aqc_model_step(p.model, 16), 1);
		assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 32), 1);
		tp_test_assert_mbuf_bytes(rx[0], f, len);
		rte_pktmbuf_free(rx[0]);
		got++;
	}
	assert_int_equal(got, 200);
	aqc_model_get_counters(p.model, &c);
	assert_int_equal(c.dma_faults, 0);
	assert_int_equal(c.tx_errors, 0);
	/* §5.1: the TX descriptor holds the buffer IOVA, not its VA */
	{
		uint64_t base = (uint64_t)aqc_test_reg(&p, DOC_TXD_BASE_HI(0)) << 32 |
				aqc_test_reg(&p, DOC_TXD_BASE_LO(0));
		/* the halves swap back: the ring's VA, computed independently */
		const uint8_t *va = (const uint8_t *)heap_va +
				    (base - FAKE_IOVA + HEAP_LEN / 2) % HEAP_LEN;

		memcpy(dw, va, 16);
	}
	assert_true(in_fake_range((uint64_t)dw[1] << 32 | dw[0]));
	aqc_test_stop(&p);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

/* A buffer address outside every memory segment: the model does not touch
 * it; the packet is dropped as a TX error and counted as a DMA fault. */
static void
test_dma_fault(void **state)
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create("iova_fault", 511, 0, 0,
							 RTE_MBUF_DEFAULT_BUF_SIZE,
							 heap_socket);
	struct aqc_model_counters before, after;
	struct aqc_test_port p;
	struct rte_mbuf *m, *rx[4];
	uint8_t f[128];
	uint32_t len;
	rte_iova_t good;
	unsigned int start;

	(void)state;
	assert_non_null(mp);
	start = tp_test_pool_in_use(mp);
	aqc_test_port(&p, "net_aqc_sim0");
	start_on_heap(&p, mp);
	aqc_model_get_counters(p.model, &before);
	len = aqc_test_udp4(f, 40, 1, 2, 3);
	m = tp_test_mbuf_from_bytes(mp, f, len);
	good = m->buf_iova;
	/* the TX path frees the mbuf; restore its IOVA when it is back */
	m->buf_iova = FAKE_IOVA + 2ull * HEAP_LEN;
	assert_int_equal(rte_eth_tx_burst(p.id, 0, &m, 1), 1);
	assert_int_equal(aqc_model_step(p.model, 16), 1);
	aqc_model_get_counters(p.model, &after);
	assert_int_equal(after.dma_faults - before.dma_faults, 1);
	assert_int_equal(after.tx_errors - before.tx_errors, 1);
	assert_int_equal(after.tx_frames - before.tx_frames, 0);
	assert_int_equal(rte_eth_rx_burst(p.id, 0, rx, 4), 0);
	aqc_test_stop(&p);
	m->buf_iova = good;
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	rte_mempool_free(mp);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_translated_loop),
		cmocka_unit_test(test_dma_fault),
	};

	aqc_test_model_from_args(argc, argv);

	return cmocka_run_group_tests(tests, setup, NULL);
}
