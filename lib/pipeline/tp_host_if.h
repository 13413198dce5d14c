/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_host_if: one Linux network interface per switch port of a conduit,
 * fed whole merged packets -- what the kernel's DSA gives each user port
 * (net/dsa/user.c), for a conduit tagpipe owns.
 *
 * Model
 * -----
 * A "host port" (struct tp_host_port) stands for one conduit: an ethdev
 * port whose frames carry a switch tag (lib/dsa_tag). Interfaces are added
 * to it, one per switch port, each a TAP device (drivers/net/tun.c) opened
 * on /dev/net/tun with IFF_TAP | IFF_NO_PI | IFF_VNET_HDR, a virtio-net
 * header of 12 bytes (struct virtio_net_hdr_mrg_rxbuf) or 10, and
 * TUNSETOFFLOAD TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6, as QEMU opens its tap
 * backend without vhost-net. The interface can be renamed, moved to
 * another network namespace or bridged like any other; it lives as long
 * as the host port (the devices are not persistent).
 *
 * To the host (tp_host_port_to_host): PASS packets of the pipeline that
 * came in on the conduit (mbuf port) and whose switch-tag metadata (struct
 * tp_dsa_meta, TP_DSA_META_F_VALID, device 0) names a port with an
 * interface are written to it, one writev each:
 *   - a merged packet (RTE_MBUF_F_RX_LRO with tso_segsz and l2/l3/l4_len,
 *     lib/gro's output format, tp_gro.h) as ONE packet with gso_type
 *     VIRTIO_NET_HDR_GSO_TCPV4 / _TCPV6 (| _ECN when CWR is set, as Linux's
 *     tcp_gro_complete sets SKB_GSO_TCP_ECN), gso_size = tso_segsz,
 *     hdr_len = its headers, VIRTIO_NET_HDR_F_NEEDS_CSUM with csum_start /
 *     csum_offset at the TCP checksum, which is rewritten to the
 *     pseudo-header sum including the TCP length (CHECKSUM_PARTIAL's
 *     convention, include/linux/skbuff.h); the kernel then holds one skb of
 *     up to 64 KiB instead of one per frame. The payload is not copied: the
 *     iovec points into the mbuf chain.
 *   - any other packet as it is, with no checksum claim (flags 0: the
 *     kernel verifies what it needs).
 *   - VLAN tags the pipeline stripped (RTE_MBUF_F_RX_VLAN_STRIPPED,
 *     _QINQ_STRIPPED) are put back in the frame (conf.vlan's TX TPIDs),
 *     again by iovec, so VLAN sub-interfaces of the host interface work.
 * Every packet handed over is freed (written or dropped); the others are
 * compacted to the front of the array and returned to the caller.
 *
 * From the host (tp_host_port_from_host): packets the host sends on an
 * interface are read (non-blocking readv straight into mbufs: a 64 KiB GSO
 * packet lands in a chain of them; mbufs come from a per-queue stash
 * refilled in bulk, nothing else is allocated), their virtio-net header is
 * checked, and they leave through the conduit with the switch tag of the
 * interface's port (tp_dsa_insert_burst, TP_DSA_CONF_F_TX_PORT):
 *   - GSO TCP packets: the NIC's TSO (conf.tx_caps TP_PORT_TX_TSO, not for
 *     tail taggers) or tp_gro_segment() (lib/gro) into frames with complete
 *     IPv4 header and TCP checksums;
 *   - other packets asking for a checksum (NEEDS_CSUM): completed in
 *     software over csum_start..end (skb_checksum_help's rule, a result of
 *     0 sent as 0xFFFF);
 *   - in-frame VLAN tags the host wrote stay where they are.
 * An empty read costs a system call: an interface found empty is read
 * again only after 1, 2, 4 ... up to 32 further calls (the first packet
 * resets it), which delays a packet after a quiet spell by at most that
 * many polls of the lcore.
 * Bad host input is a counted drop (TP_HOST_IF_DROP_REASONS), never a
 * read past the data: a header shorter than an Ethernet header, an unknown
 * gso_type, a checksum offset outside the frame, GSO headers that do not
 * parse as the gso_type says, more than TP_HOST_IF_MAX_SEGS segments, a
 * frame longer than TP_HOST_IF_MAX_FRAME.
 *
 * Link and addresses (tp_host_port_sync, control plane): the carrier of
 * every interface follows the conduit's link (TUNSETCARRIER), its MAC the
 * conduit's MAC (SIOCSIFHWADDR on the TAP descriptor) and its MTU the
 * conduit's MTU less the tag's length (SIOCSIFMTU, in the interface's
 * namespace), as the kernel's DSA user ports inherit them from their
 * conduit. Each is applied when the conduit's value changes (and at the
 * first call); an operator's own setting stands until then.
 *
 * Queues and lcores: conf.nb_queues datapath lcores may use one host port
 * at once, each with its own queue index q (with more than one, every
 * interface is a multi-queue TAP, IFF_MULTI_QUEUE, one descriptor per
 * queue; the kernel spreads what the host sends over them by flow). A
 * queue is used by one lcore only; no lock on the datapath. Counters are
 * per queue, written by its lcore with relaxed atomic stores and summed by
 * tp_host_if_stats_get from any thread (each value whole, never going
 * back).
 *
 * What it does NOT do: vhost-net or io_uring (one system call per packet
 * each way); per-VLAN interfaces (put a VLAN sub-interface on the host
 * interface instead); switch devices other than 0 of a cascade; UDP GSO;
 * TSO with ECN (TUN_F_TSO_ECN is not offered, so the kernel segments such
 * packets before they reach us); a merged packet's fixed IPv4 IDs
 * (virtio-net has no flag for them: if the host segments the packet again
 * the IDs increment).
 */
#ifndef TP_HOST_IF_H
#define TP_HOST_IF_H

#pragma GCC visibility push(default)

#include <stdint.h>
#include <stddef.h>

#include <rte_compat.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "tp_dsa_tag.h"
#include "tp_pipeline.h"
#include "tp_vlan.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TP_HOST_IF_MAX_QUEUES 16
#define TP_HOST_PORT_MAX_IFS 64
/* Largest frame read from the host: a 65535-byte IPv6 payload, its
 * header, Ethernet and two VLAN tags. */
#define TP_HOST_IF_MAX_FRAME (65535 + 40 + 14 + 8)
/* Most segments one host GSO packet may become (64 KiB of 128-byte MSS). */
#define TP_HOST_IF_MAX_SEGS 512

/* Why a packet from the host was dropped: X(enum suffix, counter name). */
#define TP_HOST_IF_DROP_REASONS(X) \
	X(SHORT, "short")                /* shorter than header + Ethernet */       \
	X(TOO_BIG, "too_big")            /* longer than TP_HOST_IF_MAX_FRAME */     \
	X(VNET_HDR, "bad_vnet_hdr")      /* gso_type, gso_size, csum fields */      \
	X(HEADERS, "bad_headers")        /* GSO headers do not parse as said */     \
	X(TOO_MANY_SEGS, "too_many_segs")/* over TP_HOST_IF_MAX_SEGS segments */    \
	X(NO_MBUF, "no_mbuf")            /* pool dry while segmenting */

enum tp_host_if_drop {
#define TP_HOST_IF_X_ENUM(e, s) TP_HOST_IF_DROP_##e,
	TP_HOST_IF_DROP_REASONS(TP_HOST_IF_X_ENUM)
#undef TP_HOST_IF_X_ENUM
	TP_HOST_IF_DROP_MAX
};

/* Name of a drop reason, or NULL when out of range. */
__rte_experimental
const char *tp_host_if_drop_name(unsigned int reason);

/*
 * Counters of one interface (summed over its queues). Identities, exact
 * when read with the datapath stopped (or on the one lcore using it):
 *   PASS frames handed over for this port = to_host_frames + to_host_drop_frames
 *   from_host_pkts = Σ from_host_drop[] + (packets made into frames)
 *   from_host_frames = from_host_sent + from_host_tag_drop + from_host_tx_full
 */
struct tp_host_if_stats {
	/* to the host: written to the interface */
	uint64_t to_host_pkts;        /* packets written (a merged one: 1) */
	uint64_t to_host_frames;      /* the wire frames they stand for */
	uint64_t to_host_bytes;       /* bytes written, VLAN tags put back
				       * included, virtio-net header not */
	uint64_t to_host_gso;         /* of to_host_pkts, written as GSO */
	uint64_t to_host_drop_pkts;   /* write refused (errno counted below) */
	uint64_t to_host_drop_frames;
	/* from the host: read from the interface */
	uint64_t from_host_pkts;      /* packets read (a GSO one: 1) */
	uint64_t from_host_bytes;     /* bytes read, virtio-net header not */
	uint64_t from_host_gso;       /* GSO packets made into frames */
	uint64_t from_host_tso;       /* GSO packets handed to the NIC's TSO */
	uint64_t from_host_frames;    /* frames made (TSO: its segments) */
	uint64_t from_host_sent;      /* frames the conduit's TX queue took */
	uint64_t from_host_wire_bytes;/* their bytes on the wire, tags included */
	uint64_t from_host_tag_drop;  /* frames the tagger refused */
	uint64_t from_host_tx_full;   /* frames the TX queue refused */
	uint64_t from_host_drop[TP_HOST_IF_DROP_MAX]; /* packets, by reason */
	uint64_t read_errors;         /* reads failing with other than EAGAIN */
	uint64_t no_mbuf_polls;       /* polls skipped: the stash could not refill */
};

struct tp_host_port_conf {
	uint16_t port;            /* the conduit, an ethdev port id */
	const char *tagger;       /* its lib/dsa_tag tagger; not "none" */
	struct tp_dsa_conf dsa;   /* its DSA conf (cpu_port, tx_vid, ...);
				   * the TX port is the interface's own */
	struct tp_vlan_conf vlan; /* TX TPIDs for tags put back; zeroed:
				   * tp_vlan_conf_init()'s */
	uint32_t tx_caps;         /* TP_PORT_TX_TSO (tp_pipeline.h): GSO
				   * packets from the host go to the NIC's
				   * TSO; else software segmentation */
	uint16_t nb_queues;       /* lcores using it at once, 1..16 (0: 1) */
	uint16_t burst;           /* per interface and poll, packets are read
				   * until this many are read or this many
				   * frames made (a GSO packet is its
				   * segments), 1..256 (0: 32) */
	uint16_t vnet_hdr_size;   /* 10 or 12 (0: 12) */
	uint16_t tx_retries;      /* extra tries of a refusing TX queue (0: none) */
	struct rte_mempool *pool; /* mbufs for host packets and segments; its
				   * data room must hold a full Ethernet frame
				   * of the conduit's MTU past the headroom */
	int socket_id;            /* SOCKET_ID_ANY ok */
};

struct tp_host_port;

/*
 * Create a host port for a conduit. Checks the conf: a tagger that exists
 * and is not "none" (a frame for a port the tag cannot name has nowhere
 * to go), tp_dsa_conf_check, queue count, burst, header size, a pool with
 * room. 0 and *out, or -EINVAL with err naming the bad value, -ENOMEM.
 * Opens nothing yet.
 */
__rte_experimental
int tp_host_port_create(const struct tp_host_port_conf *conf,
			struct tp_host_port **out, char *err, size_t errlen);

/*
 * Create the interface of switch port sp (what the tagger can address:
 * below tagger->tx_ports and conf.dsa.n_ports when set), named name (1..15
 * characters of what the kernel accepts in an interface name, no '/', ':'
 * or white space; "%d" in it is the kernel's pattern). Control plane only,
 * before the datapath uses the host port. 0, or -EINVAL (bad port or
 * name, port taken, too many interfaces), -EEXIST (the name is taken on
 * this host by a device that is not ours), or the TAP's -errno, with err
 * saying which.
 */
__rte_experimental
int tp_host_port_add_if(struct tp_host_port *hp, unsigned int sp,
			const char *name, char *err, size_t errlen);

/*
 * The same with descriptors the caller opened: fds[0..nb_queues) are the
 * queues of one TAP device set up as tp_host_port_add_if does (IFF_TAP |
 * IFF_NO_PI | IFF_VNET_HDR, conf.vnet_hdr_size, TUNSETOFFLOAD), e.g. a
 * persistent device a privileged helper opened, or anything else that
 * reads and writes one virtio-net header and one frame per message (a
 * SOCK_SEQPACKET socket). They are made non-blocking and the host port
 * owns them from here (closes them, also on failure). name is for
 * messages and counters when the descriptor is not a TAP. Errors as
 * tp_host_port_add_if.
 */
__rte_experimental
int tp_host_port_attach_if(struct tp_host_port *hp, unsigned int sp,
			   const char *name, const int *fds, char *err,
			   size_t errlen);

/* Close every interface (they disappear) and free what the host port
 * holds, stashed mbufs included. Datapath stopped. NULL: no-op. */
__rte_experimental
void tp_host_port_destroy(struct tp_host_port *hp);

/* ---- datapath (queue q on one lcore) ------------------------------------ */

/*
 * Hand PASS packets to the host: every packet of pkts[0..n) whose switch
 * port has an interface is written to it and freed (counted written or
 * dropped); the others are compacted to pkts[0..r), in order, and r is
 * returned.
 */
__rte_experimental
uint16_t tp_host_port_to_host(struct tp_host_port *hp, uint16_t q,
			      struct rte_mbuf **pkts, uint16_t n);

/*
 * Read from each interface's queue q (up to conf.burst packets or frames,
 * see the conf) and send
 * them out of the conduit on TX queue tx_queue (which only this lcore
 * uses). Returns the number of packets read.
 */
__rte_experimental
uint32_t tp_host_port_from_host(struct tp_host_port *hp, uint16_t q,
				uint16_t tx_queue);

/* ---- control plane -------------------------------------------------------- */

/*
 * Carrier, MAC and MTU of every interface from the conduit (see the top).
 * Any thread, also while the datapath runs (it touches no datapath
 * state). 0, or the first -errno with the interface's name in err (the
 * others are still tried).
 */
__rte_experimental
int tp_host_port_sync(struct tp_host_port *hp, char *err, size_t errlen);

/* Interfaces of the host port: up to max switch ports, ascending, into
 * ports; returns how many there are. */
__rte_experimental
unsigned int tp_host_port_ifs(const struct tp_host_port *hp, uint8_t *ports,
			      unsigned int max);

/* The conduit's ethdev port. */
__rte_experimental
uint16_t tp_host_port_conduit(const struct tp_host_port *hp);

/* The interface name of switch port sp as the kernel reports it now
 * (TUNGETIFF: after a rename, the new name) into name (16 bytes, IFNAMSIZ).
 * 0 or -ENOENT. */
__rte_experimental
int tp_host_if_name(const struct tp_host_port *hp, unsigned int sp, char *name);

/* Counters of switch port sp's interface. Any thread. 0 or -ENOENT. */
__rte_experimental
int tp_host_if_stats_get(const struct tp_host_port *hp, unsigned int sp,
			 struct tp_host_if_stats *st);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* TP_HOST_IF_H */
