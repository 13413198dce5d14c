/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A multi-lcore vRouter on libtagpipe, built only from the installed
 * library (Makefile: make vrouter-mq):
 *
 *   ./vrouter-mq -l 0-1 [EAL options] -- IN_PORT OUT_PORT [IDLE_MS]
 *
 * The shape the headers describe for many queues:
 *  - IN_PORT has one RX queue per EAL lcore (the main one forwards too),
 *    spread by RSS (IP and TCP/UDP ports), so the frames of one flow always
 *    reach the same queue;
 *  - each lcore owns one RX queue of IN_PORT and one TX queue of
 *    OUT_PORT and runs its own pipeline instance on them: share-nothing,
 *    no lock, no queue with two writers;
 *  - the verdict program and its map are made once and shared read-only by
 *    every instance: the program passes IPv4/IPv6 packets whose IP protocol
 *    the array map allows (TCP, UDP here) and drops the rest;
 *  - PASS packets leave on OUT_PORT through the lcore's own TX queue with
 *    tp_pipeline_pass_tx (counted in the instance's port counters);
 *  - each instance's counters are read per lcore at the end and summed with
 *    tp_pipeline_stats_add.
 * It stops once IN_PORT delivered no frame for IDLE_MS milliseconds
 * (default 500) after the first, then prints one line per lcore and the
 * sum, and exits non-zero if the counters do not add up or an mbuf is
 * still in use.
 */
/* tp_pipeline_pass_tx is experimental (tp_pipeline.h), as DPDK marks its
 * new APIs: a program that uses one says so. */
#define ALLOW_EXPERIMENTAL_API
#include <inttypes.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <tagpipe.h>

#define BURST 32
#define NB_MBUFS 8191
#define MAX_WORKERS 16
#define NB_DESC 512

/* One worker: its queue pair, its pipeline, what it saw. */
struct worker {
	unsigned int lcore;
	uint16_t queue;          /* RX queue of in_port = TX queue of out_port */
	struct tp_pipeline *pl;
	uint64_t rx;             /* frames received (written by the worker) */
	uint64_t unsent;         /* PASS frames the TX queue refused (freed) */
} __rte_cache_aligned;

static uint16_t in_port, out_port;
static uint64_t idle_tsc;
static struct worker workers[MAX_WORKERS];
static unsigned int nb_workers;

/* ---- the shared, read-only verdict program and map --------------------- */

/* IP protocol -> pass (true) or drop; read-only once the workers run, so
 * every lcore may read it without a lock. */
static bool allowed[256];

static inline enum tp_verdict
allowed_proto(void *priv, struct tp_xdp_md *ctx)
{
	const uint8_t *p = ctx->data;
	uint16_t type;
	uint8_t proto;

	(void)priv;
	if (p + sizeof(struct rte_ether_hdr) > (const uint8_t *)ctx->data_end)
		return TP_DROP;
	type = rte_be_to_cpu_16(((const struct rte_ether_hdr *)p)->ether_type);
	p += sizeof(struct rte_ether_hdr);
	if (type == RTE_ETHER_TYPE_IPV4 &&
	    p + sizeof(struct rte_ipv4_hdr) <= (const uint8_t *)ctx->data_end)
		proto = ((const struct rte_ipv4_hdr *)p)->next_proto_id;
	else if (type == RTE_ETHER_TYPE_IPV6 &&
		 p + sizeof(struct rte_ipv6_hdr) <= (const uint8_t *)ctx->data_end)
		proto = ((const struct rte_ipv6_hdr *)p)->proto;
	else
		return TP_DROP;
	return allowed[proto] ? TP_PASS : TP_DROP;
}

TP_PROG_DEFINE(allowed_proto_burst, allowed_proto)

static const struct tp_prog_ops allowed_proto_prog = {
	.name = "vrouter-mq-proto",
	.usage = "vrouter-mq-proto  pass IP packets whose protocol the map allows",
	.burst = allowed_proto_burst,
};

/* ---- per lcore --------------------------------------------------------- */

/* tp_pass_cb_t: PASS packets leave on out_port, on this lcore's queue. */
static void
forward(void *arg, uint16_t port, uint16_t queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct worker *w = arg;
	uint16_t sent;

	(void)port;
	(void)queue;
	sent = tp_pipeline_pass_tx(w->pl, out_port, w->queue, pkts, n);
	if (sent < n) {
		w->unsent += n - sent;
		rte_pktmbuf_free_bulk(&pkts[sent], n - sent);
	}
}

static int
worker_main(void *arg)
{
	struct worker *w = arg;
	uint64_t last = 0, start = rte_get_timer_cycles();

	for (;;) {
		struct rte_mbuf *pkts[BURST];
		uint16_t n = rte_eth_rx_burst(in_port, w->queue, pkts, BURST);
		uint64_t now = rte_get_timer_cycles();

		if (n > 0) {
			w->rx += n;
			last = now;
			tp_pipeline_rx_burst(w->pl, in_port, w->queue, pkts, n);
		}
		/* Idle for IDLE_MS after traffic, or 10 s without any. */
		if ((last != 0 && now - last > idle_tsc) ||
		    (last == 0 && now - start > 10 * rte_get_timer_hz()))
			break;
	}
	tp_pipeline_flush(w->pl, true, NULL, 0);
	return 0;
}

/* ---- set-up ------------------------------------------------------------ */

static int
port_init(uint16_t port, uint16_t nb_q, struct rte_mempool *mp, bool rss)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	if (rte_eth_dev_info_get(port, &info) != 0)
		return -1;
	if (rss) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP |
						    RTE_ETH_RSS_UDP) & info.flow_type_rss_offloads;
		if (conf.rx_adv_conf.rss_conf.rss_hf == 0 && nb_q > 1) {
			fprintf(stderr, "vrouter-mq: port %u has no IP/TCP/UDP RSS\n", port);
			return -1;
		}
	}
	if (nb_q > info.max_rx_queues || nb_q > info.max_tx_queues) {
		fprintf(stderr, "vrouter-mq: port %u has at most %u RX / %u TX queues\n",
			port, info.max_rx_queues, info.max_tx_queues);
		return -1;
	}
	if (rte_eth_dev_configure(port, nb_q, nb_q, &conf) != 0)
		return -1;
	for (uint16_t q = 0; q < nb_q; q++)
		if (rte_eth_rx_queue_setup(port, q, NB_DESC, rte_eth_dev_socket_id(port),
					   NULL, mp) != 0 ||
		    rte_eth_tx_queue_setup(port, q, NB_DESC, rte_eth_dev_socket_id(port),
					   NULL) != 0)
			return -1;
	/* A router receives frames for other MACs too (and a capture has them). */
	rte_eth_promiscuous_enable(port);
	return rte_eth_dev_start(port);
}

static int
make_pipeline(struct worker *w, struct tp_prog *prog)
{
	struct tp_pipeline_conf conf;
	char name[32], err[256];

	tp_pipeline_conf_init(&conf);
	snprintf(name, sizeof(name), "vrouter-mq-q%u", w->queue);
	conf.name = name;
	conf.prog = prog;                  /* shared, read-only */
	conf.gro.mode = TP_GRO_OFF;        /* frames leave as they came */
	conf.port[in_port].enabled = true;
	conf.port[out_port].enabled = true;
	conf.tx_queue = w->queue;
	conf.pass_cb = forward;
	conf.pass_arg = w;
	conf.socket_id = (int)rte_lcore_to_socket_id(w->lcore);
	if (tp_pipeline_create(&conf, &w->pl, err, sizeof(err)) != 0) {
		fprintf(stderr, "vrouter-mq: %s\n", err);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct tp_pipeline_stats sum, st;
	struct rte_mempool *mp;
	struct tp_prog *prog;
	uint64_t idle_ms = 500;
	unsigned int lcore;
	char err[256];
	int first, bad = 0;

	/* EAL options first, then ours after "--" (argv[first]...). */
	first = rte_eal_init(argc, argv);
	if (first < 0) {
		fprintf(stderr, "%s: EAL: %s\n", argv[0], rte_strerror(rte_errno));
		return 1;
	}
	first++;
	if (argc - first < 2) {
		fprintf(stderr, "usage: %s [EAL options] -- IN_PORT OUT_PORT [IDLE_MS]\n", argv[0]);
		return 2;
	}
	in_port = (uint16_t)strtoul(argv[first], NULL, 10);
	out_port = (uint16_t)strtoul(argv[first + 1], NULL, 10);
	if (argc - first > 2)
		idle_ms = strtoull(argv[first + 2], NULL, 10);
	idle_tsc = idle_ms * rte_get_timer_hz() / 1000;
	/* Every EAL lcore forwards, the main one included (-l 0-1: two). */
	RTE_LCORE_FOREACH(lcore) {
		if (nb_workers == MAX_WORKERS)
			break;
		workers[nb_workers].lcore = lcore;
		workers[nb_workers].queue = (uint16_t)nb_workers;
		nb_workers++;
	}
	if (!rte_eth_dev_is_valid_port(in_port) ||
	    !rte_eth_dev_is_valid_port(out_port) || in_port == out_port ||
	    in_port >= TP_PIPELINE_MAX_PORTS || out_port >= TP_PIPELINE_MAX_PORTS) {
		fprintf(stderr, "vrouter-mq: need two distinct ports\n");
		return 2;
	}

	mp = rte_pktmbuf_pool_create("vrouter_mq", NB_MBUFS, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (mp == NULL || tp_prog_register(&allowed_proto_prog) != 0)
		return 1;
	allowed[IPPROTO_TCP] = true;
	allowed[IPPROTO_UDP] = true;
	if (tp_prog_open("vrouter-mq-proto", &prog, err, sizeof(err)) != 0) {
		fprintf(stderr, "vrouter-mq: %s\n", err);
		return 1;
	}
	if (port_init(in_port, (uint16_t)nb_workers, mp, true) != 0 ||
	    port_init(out_port, (uint16_t)nb_workers, mp, false) != 0) {
		fprintf(stderr, "vrouter-mq: port set-up failed\n");
		return 1;
	}
	for (unsigned int i = 0; i < nb_workers; i++)
		if (make_pipeline(&workers[i], prog) != 0)
			return 1;

	for (unsigned int i = 0; i < nb_workers; i++)
		if (workers[i].lcore != rte_get_main_lcore())
			rte_eal_remote_launch(worker_main, &workers[i], workers[i].lcore);
	for (unsigned int i = 0; i < nb_workers; i++)
		if (workers[i].lcore == rte_get_main_lcore())
			worker_main(&workers[i]);
	rte_eal_mp_wait_lcore();

	/* Per lcore, then the sum; conservation must hold for each. */
	memset(&sum, 0, sizeof(sum));
	for (unsigned int i = 0; i < nb_workers; i++) {
		const struct worker *w = &workers[i];

		tp_pipeline_stats_get(w->pl, &st);
		printf("vrouter-mq: lcore %u queue %u: rx %" PRIu64 " pass %" PRIu64 " drop %"
		       PRIu64 " sent %" PRIu64 " unsent %" PRIu64 "\n", w->lcore, w->queue,
		       st.rx, st.pass, st.drop, st.port[out_port].tx, w->unsent);
		if (st.rx != w->rx ||
		    st.rx + st.copies != st.pass + st.tx + st.redirect + st.drop + st.aborted +
					 st.held_in_gro ||
		    st.pass != st.port[out_port].tx + w->unsent)
			bad = 1;
		tp_pipeline_stats_add(&sum, &st);
	}
	printf("vrouter-mq: all %u lcores: rx %" PRIu64 " pass %" PRIu64 " drop %" PRIu64
	       " sent %" PRIu64 "\n", nb_workers, sum.rx, sum.pass, sum.drop,
	       sum.port[out_port].tx);

	for (unsigned int i = 0; i < nb_workers; i++)
		tp_pipeline_destroy(workers[i].pl);
	tp_prog_close(prog);
	rte_eth_dev_stop(in_port);
	rte_eth_dev_stop(out_port);
	rte_eth_dev_close(in_port);
	rte_eth_dev_close(out_port);
	printf("vrouter-mq: mbufs in use %u\n", rte_mempool_in_use_count(mp));
	bad |= rte_mempool_in_use_count(mp) != 0;
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return bad;
}
