/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "set verbose N": a line per packet, as dpdk-testpmd's verbose mode prints
 * (app/test-pmd/util.c dump_pkt_burst), with tagpipe's metadata. Levels are
 * testpmd's (doc/guides/testpmd_app_ug/testpmd_funcs.rst, "set verbose"):
 * 0 off, 1 received packets, 2 sent packets, 3 both.
 *
 * Received side: in pipeline mode the packets as the verdict program judged
 * them (after untagging and GRO: switch port, VLANs, gso_segs, verdict),
 * from the pipeline's verdict observer; in the other modes the frames as
 * received, from an ethdev RX callback. Sent side: an ethdev TX callback on
 * every (port, forwarding TX queue), the frames offered to the PMD.
 *
 * Off costs nothing per packet: the callbacks are installed only while the
 * level asks for them (ethdev then has no callback to run), and the
 * pipeline's observer is NULL (one branch per program run).
 * Callbacks removed while the lcores run may still be executing, so their
 * memory is freed only once forwarding has stopped (rte_ethdev.h,
 * rte_eth_remove_rx_callback).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "fwd.h"
#include "pipeline_ctl.h"

static unsigned int level;
static const struct rte_eth_rxtx_callback *rx_cb[FWD_MAX_STREAMS];
static const struct rte_eth_rxtx_callback *tx_cb[FWD_MAX_PORTS][FWD_MAX_QUEUES];
/* Removed, to be freed once no lcore can be inside them. */
static const struct rte_eth_rxtx_callback *retired[FWD_MAX_STREAMS +
						   FWD_MAX_PORTS * FWD_MAX_QUEUES];
static unsigned int nb_retired;

static void
dump_one(struct rte_mbuf *m, uint16_t port, uint16_t queue, bool rx, int verdict,
	 uint32_t key)
{
	const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	char src[RTE_ETHER_ADDR_FMT_SIZE], dst[RTE_ETHER_ADDR_FMT_SIZE], flags[1024];
	uint64_t f = m->ol_flags;

	if (m->data_len < sizeof(*eh)) {
		printf("  runt frame - length=%u - nb_segs=%u\n", m->pkt_len, m->nb_segs);
		return;
	}
	rte_ether_format_addr(src, sizeof(src), &eh->src_addr);
	rte_ether_format_addr(dst, sizeof(dst), &eh->dst_addr);
	printf("  src=%s - dst=%s - type=0x%04x - length=%u - nb_segs=%u", src, dst,
	       rte_be_to_cpu_16(eh->ether_type), m->pkt_len, m->nb_segs);
	if (rx) {
		/* The metadata as a verdict program sees it (tp_prog.h). */
		const struct tp_prog_env env = { .port = port, .queue = queue };
		struct tp_xdp_md md;

		tp_xdp_md_fill(&md, &env, m);
		if (md.nb_vlan == 2)
			printf(" - QinQ VLAN tci=0x%x, VLAN tci outer=0x%x", md.vlan_tci,
			       md.vlan_tci_outer);
		else if (md.nb_vlan == 1)
			printf(" - VLAN tci=0x%x", md.vlan_tci);
		/* Only the pipeline's untag stage writes the switch-tag field;
		 * elsewhere it is whatever the mbuf's last use left. */
		if (verdict >= 0 && md.switch_port >= 0)
			printf(" - switch_port=%d", md.switch_port);
	} else {
		if (f & RTE_MBUF_F_TX_QINQ)
			printf(" - QinQ VLAN tci=0x%x, VLAN tci outer=0x%x", m->vlan_tci,
			       m->vlan_tci_outer);
		else if (f & RTE_MBUF_F_TX_VLAN)
			printf(" - VLAN tci=0x%x", m->vlan_tci);
		if (f & RTE_MBUF_F_TX_TCP_SEG)
			printf(" - tso_segsz=%u", m->tso_segsz);
	}
	printf(" - gso_segs=%u", tp_gro_segs(m));
	if (verdict >= 0) {
		const char *v = tp_verdict_name((enum tp_verdict)verdict);

		/* Out of range is acted on as aborted (tp_pipeline.h). */
		printf(" - verdict=%s", v != NULL ? v : "aborted");
		if (verdict == TP_REDIRECT)
			printf(" key=%" PRIu32, key);
	}
	if ((rx ? rte_get_rx_ol_flag_list(f, flags, sizeof(flags)) :
		  rte_get_tx_ol_flag_list(f, flags, sizeof(flags))) != 0)
		snprintf(flags, sizeof(flags), "0x%" PRIx64, f);
	/* The lists end with a space; testpmd prints them as they are. */
	printf("\n  ol_flags: %s\n", flags);
}

/* One burst under the stdout lock, so lcores' bursts do not interleave. */
static void
dump_burst(uint16_t port, uint16_t queue, bool rx, struct rte_mbuf *const *pkts,
	   uint16_t n, const uint8_t *verdict, const uint32_t *key)
{
	flockfile(stdout);
	printf("port %u/queue %u: %s %u packets\n", port, queue, rx ? "received" : "sent", n);
	for (uint16_t i = 0; i < n; i++)
		dump_one(pkts[i], port, queue, rx, verdict != NULL ? verdict[i] : -1,
			 key != NULL ? key[i] : 0);
	fflush(stdout);
	funlockfile(stdout);
}

static void
on_verdicts(void *arg, uint16_t port, uint16_t queue, struct rte_mbuf *const *pkts,
	    const uint8_t *verdict, const uint32_t *key, uint16_t n)
{
	RTE_SET_USED(arg);
	dump_burst(port, queue, true, pkts, n, verdict, key);
}

static uint16_t
on_rx(uint16_t port, uint16_t queue, struct rte_mbuf *pkts[], uint16_t n,
      uint16_t max, void *arg)
{
	RTE_SET_USED(max);
	RTE_SET_USED(arg);
	if (n > 0)
		dump_burst(port, queue, true, pkts, n, NULL, NULL);
	return n;
}

static uint16_t
on_tx(uint16_t port, uint16_t queue, struct rte_mbuf *pkts[], uint16_t n, void *arg)
{
	RTE_SET_USED(arg);
	if (n > 0)
		dump_burst(port, queue, false, pkts, n, NULL, NULL);
	return n;
}

static void
retire(const struct rte_eth_rxtx_callback *cb)
{
	if (!fwd.running)
		rte_free((void *)(uintptr_t)cb);
	else if (nb_retired < RTE_DIM(retired))
		retired[nb_retired++] = cb;
}

static void
reap(void)
{
	if (fwd.running)
		return;
	while (nb_retired > 0)
		rte_free((void *)(uintptr_t)retired[--nb_retired]);
}

void
fwd_verbose_apply(void)
{
	bool pipeline = fwd.opt.engine == fwd_engine_find("pipeline");
	bool rx = (level & FWD_VERBOSE_RX) != 0, tx = (level & FWD_VERBOSE_TX) != 0;

	reap();
	FWD_LOG(DEBUG, "verbose %u: %s, TX callbacks %s", level,
		!rx ? "received side off" : pipeline ? "verdict observer on" : "RX callbacks on",
		tx ? "on" : "off");
	for (unsigned int s = 0; s < fwd.nb_streams; s++) {
		struct fwd_stream *fs = &fwd.streams[s];
		bool want_cb = rx && !pipeline;

		if (fs->ctx != NULL)
			tp_pipeline_observe_verdicts(fs->ctx, rx && pipeline ? on_verdicts : NULL,
						     fs);
		if (want_cb && rx_cb[s] == NULL) {
			rx_cb[s] = rte_eth_add_rx_callback(fs->rx_port, fs->rx_queue, on_rx, NULL);
			if (rx_cb[s] == NULL)
				fwd_err("set verbose: port %u queue %u: no RX callback: %s",
					fs->rx_port, fs->rx_queue, rte_strerror(rte_errno));
		} else if (!want_cb && rx_cb[s] != NULL) {
			rte_eth_remove_rx_callback(fs->rx_port, fs->rx_queue, rx_cb[s]);
			retire(rx_cb[s]);
			rx_cb[s] = NULL;
		}
	}
	for (uint16_t i = 0; i < fwd.nb_ports; i++) {
		uint16_t port = fwd.port_ids[i];

		for (uint16_t q = 0; q < fwd.nb_fwd_lcores && q < FWD_MAX_QUEUES; q++) {
			const struct rte_eth_rxtx_callback **cb = &tx_cb[i][q];

			if (tx && *cb == NULL) {
				*cb = rte_eth_add_tx_callback(port, q, on_tx, NULL);
				if (*cb == NULL)
					fwd_err("set verbose: port %u queue %u: no TX callback: %s",
						port, q, rte_strerror(rte_errno));
			} else if (!tx && *cb != NULL) {
				rte_eth_remove_tx_callback(port, q, *cb);
				retire(*cb);
				*cb = NULL;
			}
		}
	}
}

int
fwd_set_verbose(const char *arg)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || v > 3) {
		fwd_err("set verbose: bad level '%s' (0 off, 1 received, 2 sent, 3 both)", arg);
		return -EINVAL;
	}
	printf("Change verbose level from %u to %lu\n", level, v);
	level = (unsigned int)v;
	fwd_verbose_apply();
	return 0;
}

unsigned int
fwd_verbose_level(void)
{
	return level;
}

void
fwd_verbose_release(void)
{
	level = 0;
	fwd_verbose_apply();
	reap();
}
