/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers for the net_aqc tests: port setup on net_aqc_sim ports, access to
 * the chip model behind a port, frame builders with checksums computed by
 * DPDK's rte_ip.h (not by the code under test), and the bit positions of
 * docs/ref/aqc.md written out again here, so that descriptor
 * checks compare the driver and the model against the document rather than
 * against the driver's own header.
 */
#ifndef AQC_TEST_H
#define AQC_TEST_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "tp_test.h"
#include "aqc_model.h"

/* docs/ref/aqc.md §4.1 / §4.2 ring registers */
#define DOC_RXD_BASE_LO(n) (0x5b00u + 0x20u * (n))
#define DOC_RXD_BASE_HI(n) (0x5b04u + 0x20u * (n))
#define DOC_RXD_CTL(n)     (0x5b08u + 0x20u * (n))
#define DOC_RXD_HEAD(n)    (0x5b0cu + 0x20u * (n))
#define DOC_RXD_TAIL(n)    (0x5b10u + 0x20u * (n))
#define DOC_RXD_BUFSZ(n)   (0x5b18u + 0x20u * (n))
#define DOC_TXD_BASE_LO(n) (0x7c00u + 0x40u * (n))
#define DOC_TXD_BASE_HI(n) (0x7c04u + 0x40u * (n))
#define DOC_TXD_CTL(n)     (0x7c08u + 0x40u * (n))
#define DOC_TXD_HEAD(n)    (0x7c0cu + 0x40u * (n))
#define DOC_TXD_TAIL(n)    (0x7c10u + 0x40u * (n))

/* doc field extraction: bits hi:lo of v */
#define BITS(v, hi, lo) (((uint64_t)(v) >> (lo)) & ((1ull << ((hi) - (lo) + 1)) - 1))

/* The chip generation every test of this run uses: argv[1] of the test
 * binary, "aqc107" (A1, the default) or "aqc113" (A2); meson runs each test
 * once per model. Fails on anything else. */
void aqc_test_model_from_args(int argc, char **argv);
bool aqc_test_a2(void);
const char *aqc_test_model(void);

/* tp_test_eal_init() with ",model=<the run's model>" added to each vdev. */
int aqc_test_eal_init(const char *const *vdevs);

struct aqc_test_port {
	uint16_t id;
	struct aqc_model *model;
	const char *name;
};

/* Port and model of a vdev created at EAL init. */
void aqc_test_port(struct aqc_test_port *p, const char *name);

/* Configure nq queue pairs of nb_desc descriptors from mp, start, wait for
 * the link (up to 2 s), enable promiscuous mode. Fails the test on error. */
void aqc_test_start(const struct aqc_test_port *p, uint16_t nq, uint16_t nb_desc,
		    struct rte_mempool *mp, uint64_t rx_offloads, uint64_t tx_offloads,
		    bool rss, const uint8_t *rss_key);

/* The same with promiscuous mode on or off (set before the start). */
void aqc_test_start_promisc(const struct aqc_test_port *p, uint16_t nq, uint16_t nb_desc,
			    struct rte_mempool *mp, uint64_t rx_offloads,
			    uint64_t tx_offloads, bool rss, const uint8_t *rss_key,
			    bool promisc);

/* Wait up to 3 s for the link to be want (RTE_ETH_LINK_UP/DOWN). */
void aqc_test_wait_link(uint16_t port, int want);

/* Stop and close-free: stop only (queues stay for a restart). */
void aqc_test_stop(const struct aqc_test_port *p);

uint32_t aqc_test_reg(const struct aqc_test_port *p, uint32_t off);

/* 16-byte descriptor n of RX/TX ring q, as four little-endian dwords. */
void aqc_test_rx_desc(const struct aqc_test_port *p, unsigned int q, unsigned int n,
		      uint32_t dw[4]);
void aqc_test_tx_desc(const struct aqc_test_port *p, unsigned int q, unsigned int n,
		      uint32_t dw[4]);

/* Frames. All return the frame length. dst/src: 6 bytes each. */
uint32_t aqc_test_udp4(uint8_t *f, uint32_t payload, uint16_t sport, uint16_t dport,
		       uint32_t seed);
uint32_t aqc_test_tcp4(uint8_t *f, uint32_t payload, uint16_t sport, uint16_t dport,
		       uint32_t seed);
uint32_t aqc_test_udp6(uint8_t *f, uint32_t payload, uint16_t sport, uint16_t dport,
		       uint32_t seed);

/* Segment k of an IPv4/TCP frame f (14 + 20 + 20 header bytes, payload
 * bytes after) cut at mss, as §6.3 segmentation makes it: lengths, IP ID
 * + k, sequence, flags masked, checksums. Returns its length. */
uint32_t aqc_test_tso_segment(uint8_t *out, const uint8_t *f, uint32_t payload,
			      uint32_t mss, uint32_t k);

/* CLOCK_MONOTONIC in seconds (bounds on how long a timeout takes). */
double aqc_test_now_s(void);

/* Capture the DPDK log from now. aqc_test_log_end() stops capturing and
 * says whether the captured log names s; aqc_test_log_expect() stops and
 * fails the test unless it names want. */
void aqc_test_log_capture(void);
bool aqc_test_log_end(const char *s);
void aqc_test_log_expect(const char *want);

/* Receive exactly n packets from (port, queue) within 2 s (thread mode) or
 * right away (step mode, after aqc_model_step). Fails the test otherwise. */
uint16_t aqc_test_rx_all(uint16_t port, uint16_t q, struct rte_mbuf **pkts, uint16_t n);

/* Reference Toeplitz hash (docs/ref/aqc.md §6.1 uses the standard algorithm). */
uint32_t aqc_test_toeplitz(const uint8_t key[40], const uint8_t *in, unsigned int len);

extern const uint8_t aqc_test_dst_mac[6];
extern const uint8_t aqc_test_src_mac[6];

/* Benchmarks: n mbufs from mp, each a len-byte frame whose first 64
 * bytes (the headers) are f's; the rest of the payload is left as is. */
void aqc_test_bench_frames(struct rte_mempool *mp, struct rte_mbuf **pkts,
			   unsigned int n, const uint8_t *f, uint32_t len);

#endif /* AQC_TEST_H */
