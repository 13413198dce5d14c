/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Host interfaces, private to lib/pipeline (contract: tp_host_if.h).
 * host_if.c: life cycle, TAP set-up, link sync, counters, telemetry;
 * host_if_tx.c: to the host (writev of PASS packets);
 * host_if_rx.c: from the host (readv, checks, segmentation, tag, TX).
 */
#ifndef TP_HOST_IF_PRIV_H
#define TP_HOST_IF_PRIV_H

#include <stdbool.h>
#include <sys/uio.h>

#include <rte_ether.h>
#include <rte_telemetry.h>

#include "tp_dsa_tag.h"
#include "tp_host_if.h"
#include "tp_vlan.h"

/* Largest iovec one writev takes (UIO_MAXIOV, include/uapi/linux/uio.h). */
#define HIF_IOV_MAX 1024
/* An interface that had nothing to read is skipped for 1, 2, 4 ... up to
 * this many polls (reset by the first packet): an empty read is a system
 * call, and a forwarding lcore polls millions of times a second. */
#define HIF_IDLE_MAX 32
/* Frames gathered before one tag insert and one TX burst. */
#define HIF_OUT_MAX (2 * TP_HOST_IF_MAX_SEGS)

/* The virtio-net header as the TAP reads and writes it (struct
 * virtio_net_hdr_mrg_rxbuf, include/uapi/linux/virtio_net.h; the last
 * field only with a 12-byte header). Native byte order: without
 * TUNSETVNETLE/BE the TAP uses the legacy, native one (drivers/net/tun.c,
 * tun_is_little_endian). */
struct hif_vnet_hdr {
	uint8_t flags;
	uint8_t gso_type;
	uint16_t hdr_len;
	uint16_t gso_size;
	uint16_t csum_start;
	uint16_t csum_offset;
	uint16_t num_buffers;
};

#define HIF_VNET_F_NEEDS_CSUM 1
#define HIF_VNET_GSO_NONE 0
#define HIF_VNET_GSO_TCPV4 1
#define HIF_VNET_GSO_TCPV6 4
#define HIF_VNET_GSO_ECN 0x80

/* One queue of one interface: its TAP descriptor, the mbufs reads land
 * in, and the counters its lcore writes. */
struct hif_queue {
	int fd;
	uint16_t nb_stash;
	uint16_t idle;                    /* polls to skip: backoff while empty */
	uint16_t backoff;                 /* the last backoff, doubled per empty poll */
	struct rte_mbuf **stash;          /* room for hp->iov_mbufs */
	struct tp_host_if_stats st;
} __rte_cache_aligned;

struct tp_host_if {
	char name[16];                    /* as created (the kernel may rename) */
	uint8_t sp;                       /* switch port */
	struct tp_dsa_conf dsa;           /* the conduit's, TX to sp */
	/* last values applied from the conduit (sync) */
	bool synced;
	int carrier;
	uint16_t mtu;
	struct rte_ether_addr mac;
	struct hif_queue q[];             /* hp->nb_queues */
};

/* Per datapath queue: scratch of the from-host path (one lcore). */
struct hif_scratch {
	struct rte_mbuf *out[HIF_OUT_MAX];
	struct rte_mbuf *drops[HIF_OUT_MAX];
	struct rte_mbuf *orig[HIF_OUT_MAX];   /* before tag insert (TSO l2_len) */
	uint32_t len[HIF_OUT_MAX];            /* pkt_len before tag insert */
	uint16_t w[HIF_OUT_MAX];              /* frames per mbuf (TSO: segments) */
	uint32_t hdr[HIF_OUT_MAX];            /* TSO: header bytes per segment */
	uint8_t why[HIF_OUT_MAX];
	struct iovec iov[HIF_IOV_MAX];
	struct tp_dsa_stats dsa_tx;
} __rte_cache_aligned;

struct tp_host_port {
	uint16_t port;                    /* conduit */
	uint16_t nb_queues;
	uint16_t burst;
	uint16_t vnet_sz;
	uint16_t tx_retries;
	uint16_t room;                    /* data bytes per mbuf past the headroom */
	uint16_t iov_mbufs;               /* mbufs one read offers the kernel */
	bool tso;                         /* GSO from the host to the NIC's TSO */
	const struct tp_dsa_tagger *tagger;
	struct tp_dsa_conf dsa;
	struct tp_vlan_conf vlan;
	struct rte_mempool *pool;
	int socket_id;
	unsigned int nb_ifs;
	struct tp_host_if *ifs[TP_HOST_PORT_MAX_IFS]; /* in order of creation */
	struct tp_host_if *by_sp[256];
	struct hif_scratch *scratch[TP_HOST_IF_MAX_QUEUES];
	struct tp_host_port *next;        /* registry (telemetry) */
};

/* A counter written by its queue's lcore, read by any thread whole. */
static inline void
hif_cnt_add(uint64_t *c, uint64_t v)
{
	__atomic_store_n(c, *c + v, __ATOMIC_RELAXED);
}

/* The telemetry endpoint /tagpipe/host_ifs (telemetry.c registers it). */
int hif_telemetry(const char *cmd, const char *params, struct rte_tel_data *d);

#endif /* TP_HOST_IF_PRIV_H */
