/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay --via-port VDEV: replay through an ethdev instead of
 * handing mbufs to the pipeline directly. Each burst is transmitted on the
 * port and received back from it (the port must loop its TX to its RX:
 * net_ring without arguments does, net_aqc_sim does with wire=loop), so the
 * pipeline sees frames as a driver delivers them, with whatever metadata
 * (RSS hash, stripped VLAN, checksum flags) the port sets. The TX + RX cost
 * is timed and reported apart from the pipeline's.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_dev.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_log.h>

#include "replay.h"

#define PORT_RING_SIZE 1024
/* A loopback port may deliver a burst a little later than it took it (a
 * model thread, a ring): wait this long without progress before counting
 * the missing frames as lost. */
#define PORT_IDLE_MS 200
/* Time a port may take to bring its link up after start. */
#define PORT_LINK_MS 2000

struct replay_port {
	char name[RTE_DEV_NAME_MAX_LEN];
	uint16_t port_id;
};

/* The driver's own reason from what was logged during a failed probe: its
 * last line that is not the EAL's generic report, with the "func(): "
 * prefix of the PMD's log macro cut. Empty when the driver said nothing. */
static void
driver_reason(char *log, char *out, size_t size)
{
	char *save = NULL, *line, *fn;

	out[0] = '\0';
	for (line = strtok_r(log, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "EAL:", 4) == 0 || line[0] == '\0')
			continue;
		fn = strstr(line, "(): ");
		snprintf(out, size, "%s", fn != NULL ? fn + 4 : line);
	}
}

/* rte_dev_probe with the log caught in memory: the EAL's lines about a
 * bad device string are noise, the driver's reason is the error. */
static int
probe_logged(const char *vdev, char *reason, size_t size)
{
	FILE *prev = rte_log_get_stream();
	char *log = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&log, &len);
	int rc;

	if (mem != NULL)
		rte_openlog_stream(mem);
	rc = rte_dev_probe(vdev);
	rte_openlog_stream(prev);
	reason[0] = '\0';
	if (mem != NULL) {
		fclose(mem);
		if (rc < 0 && log != NULL)
			driver_reason(log, reason, size);
		free(log);
	}
	return rc;
}

static void
wait_link(uint16_t port_id)
{
	uint64_t end = rte_get_tsc_cycles() + rte_get_tsc_hz() / 1000 * PORT_LINK_MS;
	struct rte_eth_link link;

	do {
		if (rte_eth_link_get_nowait(port_id, &link) == 0 &&
		    link.link_status == RTE_ETH_LINK_UP)
			return;
		rte_delay_ms(1);
	} while (rte_get_tsc_cycles() < end);
	/* Not fatal: a port without link status (or a slow one) is still
	 * tried; lost frames are counted and reported. */
}

struct replay_port *
replay_port_open(const char *vdev, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	struct replay_port *p = calloc(1, sizeof(*p));
	const char *comma = strchr(vdev, ',');
	size_t nlen = comma ? (size_t)(comma - vdev) : strlen(vdev);
	char reason[256];
	int rc;

	if (p == NULL)
		return NULL;
	if (nlen == 0 || nlen >= sizeof(p->name)) {
		replay_err("--via-port: bad device '%s'", vdev);
		goto fail;
	}
	memcpy(p->name, vdev, nlen);
	rc = probe_logged(vdev, reason, sizeof(reason));
	if (rc < 0 && reason[0] != '\0') {
		replay_err("--via-port: cannot create device '%s': %s", vdev, reason);
		goto fail;
	}
	if (rc < 0) {
		replay_err("--via-port: cannot create device '%s' (no vdev driver of that"
			   " name, or its driver gave no reason)", vdev);
		goto fail;
	}
	if (rte_eth_dev_get_port_by_name(p->name, &p->port_id) != 0) {
		replay_err("--via-port: '%s' is not an ethdev", vdev);
		goto fail;
	}
	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_configure(p->port_id, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(p->port_id, 0, PORT_RING_SIZE,
					    (unsigned int)rte_eth_dev_socket_id(p->port_id),
					    NULL, mp);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(p->port_id, 0, PORT_RING_SIZE,
					    (unsigned int)rte_eth_dev_socket_id(p->port_id),
					    NULL);
	/* The capture's frames are addressed to other hosts: a port with L2
	 * filtering (a real NIC, the AQC model) would keep only broadcasts.
	 * Ports without the notion (net_ring) answer -ENOTSUP, which is fine. */
	if (rc == 0) {
		rc = rte_eth_promiscuous_enable(p->port_id);
		if (rc == -ENOTSUP)
			rc = 0;
	}
	if (rc == 0)
		rc = rte_eth_dev_start(p->port_id);
	if (rc < 0) {
		replay_err("--via-port: cannot start '%s': %s", vdev, strerror(-rc));
		goto fail_vdev;
	}
	wait_link(p->port_id);
	return p;
fail_vdev:
	rte_eth_dev_close(p->port_id);
fail:
	free(p);
	return NULL;
}

int
replay_port_roundtrip(struct replay_port *p, struct rte_mbuf **pkts, uint16_t *n,
		      struct replay_counters *c)
{
	uint64_t t0 = rte_rdtsc_precise();
	uint64_t idle_tsc = rte_get_tsc_hz() / 1000 * PORT_IDLE_MS;
	uint64_t last = t0;
	uint16_t sent = 0, got = 0;

	/* TX all, and receive while sending: a ring-backed loopback may be
	 * smaller than the burst. */
	while (got < *n) {
		uint16_t k = 0, r;

		if (sent < *n) {
			k = rte_eth_tx_burst(p->port_id, 0, pkts + sent, (uint16_t)(*n - sent));
			sent += k;
		}
		/* Received frames go to the front; the unsent ones were moved
		 * past them already by the TX above (pkts[got..sent) are in
		 * flight, so pkts[got..] may be overwritten). */
		r = rte_eth_rx_burst(p->port_id, 0, pkts + got, (uint16_t)(sent - got));
		got += r;
		if (k != 0 || r != 0) {
			last = rte_rdtsc();
		} else if (rte_rdtsc() - last > idle_tsc) {
			break;
		} else {
			/* A software port (the AQC chip model's thread) may share
			 * this lcore's CPU: let it run. */
			sched_yield();
		}
	}
	if (sent < *n) {
		/* The port never took them: ours to free, and lost. Their
		 * pointers are still at pkts[sent..n) unless RX overwrote them:
		 * RX writes at most up to index sent - 1, so they are intact. */
		rte_pktmbuf_free_bulk(pkts + sent, (unsigned int)(*n - sent));
	}
	c->port_lost += (uint64_t)(*n - got);
	c->port_cycles += rte_rdtsc_precise() - t0;
	*n = got;
	return 0;
}

void
replay_port_close(struct replay_port *p)
{
	struct rte_mbuf *left[32];
	uint16_t k;

	if (p == NULL)
		return;
	/* Whatever the port still delivers late is freed, never leaked. */
	while ((k = rte_eth_rx_burst(p->port_id, 0, left, RTE_DIM(left))) > 0)
		rte_pktmbuf_free_bulk(left, k);
	rte_eth_dev_stop(p->port_id);
	rte_eth_dev_close(p->port_id);
	free(p);
}

uint16_t
replay_port_id(const struct replay_port *p)
{
	return p->port_id;
}
