/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Host interfaces: life cycle, the TAP devices, link/MAC/MTU from the
 * conduit, counters and the telemetry endpoint (contract: tp_host_if.h).
 * The datapath is in host_if_tx.c (to the host) and host_if_rx.c (from it).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_tun.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_spinlock.h>

#include "host_if_priv.h"
#include "pipeline_priv.h"

/* Live host ports, for the telemetry endpoint. */
static rte_spinlock_t reg_lock = RTE_SPINLOCK_INITIALIZER;
static struct tp_host_port *reg_head;

static const char *const drop_names[TP_HOST_IF_DROP_MAX] = {
#define TP_HOST_IF_X_NAME(e, s) [TP_HOST_IF_DROP_##e] = s,
	TP_HOST_IF_DROP_REASONS(TP_HOST_IF_X_NAME)
#undef TP_HOST_IF_X_NAME
};

const char *
tp_host_if_drop_name(unsigned int reason)
{
	return reason < TP_HOST_IF_DROP_MAX ? drop_names[reason] : NULL;
}

static int
fail(char *err, size_t len, int rc, const char *fmt, ...) __rte_format_printf(4, 5);

static int
fail(char *err, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && len > 0) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
		PL_LOG(ERR, "%s", err);
	}
	return rc;
}

int
tp_host_port_create(const struct tp_host_port_conf *conf,
		    struct tp_host_port **out, char *err, size_t errlen)
{
	const struct tp_dsa_tagger *t;
	struct tp_host_port *hp;
	uint32_t room;

	if (conf == NULL || out == NULL)
		return fail(err, errlen, -EINVAL, "host port: NULL conf");
	*out = NULL;
	if (!rte_eth_dev_is_valid_port(conf->port))
		return fail(err, errlen, -EINVAL, "host port: no ethdev port %u", conf->port);
	if (conf->tagger == NULL || strcmp(conf->tagger, "none") == 0 ||
	    conf->tagger[0] == '\0')
		return fail(err, errlen, -EINVAL,
			    "host port %u: tagger '%s': host interfaces need a switch tag "
			    "to address the port", conf->port,
			    conf->tagger ? conf->tagger : "(null)");
	t = tp_dsa_tagger_find(conf->tagger);
	if (t == NULL)
		return fail(err, errlen, -EINVAL, "host port %u: unknown tagger '%s'",
			    conf->port, conf->tagger);
	if (tp_dsa_conf_check(t, &conf->dsa) != 0)
		return fail(err, errlen, -EINVAL,
			    "host port %u: tagger %s refuses the DSA conf (see the log)",
			    conf->port, conf->tagger);
	if (conf->nb_queues > TP_HOST_IF_MAX_QUEUES)
		return fail(err, errlen, -EINVAL, "host port %u: nb_queues %u (1..%d)",
			    conf->port, conf->nb_queues, TP_HOST_IF_MAX_QUEUES);
	if (conf->burst > 256)
		return fail(err, errlen, -EINVAL, "host port %u: burst %u (1..256)",
			    conf->port, conf->burst);
	if (conf->vnet_hdr_size != 0 && conf->vnet_hdr_size != 10 &&
	    conf->vnet_hdr_size != 12)
		return fail(err, errlen, -EINVAL,
			    "host port %u: vnet_hdr_size %u (10 or 12)", conf->port,
			    conf->vnet_hdr_size);
	if (conf->pool == NULL)
		return fail(err, errlen, -EINVAL, "host port %u: no mempool", conf->port);
	room = rte_pktmbuf_data_room_size(conf->pool);
	room = room > RTE_PKTMBUF_HEADROOM ? room - RTE_PKTMBUF_HEADROOM : 0;
	/* A whole standard frame in the first mbuf: headers and checksum
	 * fields are read there (RTE_ETHER_MAX_LEN + two VLAN tags). */
	if (room < RTE_ETHER_MAX_LEN + 8)
		return fail(err, errlen, -EINVAL,
			    "host port %u: mempool %s: %u data bytes per mbuf past the "
			    "headroom, want at least %u", conf->port, conf->pool->name,
			    room, RTE_ETHER_MAX_LEN + 8);
	hp = rte_zmalloc_socket("tp_host_port", sizeof(*hp), RTE_CACHE_LINE_SIZE,
				conf->socket_id);
	if (hp == NULL)
		return -ENOMEM;
	hp->port = conf->port;
	hp->nb_queues = conf->nb_queues ? conf->nb_queues : 1;
	hp->burst = conf->burst ? conf->burst : 32;
	hp->vnet_sz = conf->vnet_hdr_size ? conf->vnet_hdr_size : 12;
	hp->tx_retries = conf->tx_retries;
	hp->room = (uint16_t)RTE_MIN(room, UINT16_MAX);
	/* One byte more than the largest frame: a read that fills every
	 * mbuf was cut short (the TAP truncates to what it is offered). */
	hp->iov_mbufs = (uint16_t)((TP_HOST_IF_MAX_FRAME + 1 + hp->room - 1) / hp->room);
	/* The NIC copies the headers in front of every segment: a tag at
	 * the end of the frame would end only the last one. */
	hp->tso = (conf->tx_caps & TP_PORT_TX_TSO) && t->position != TP_DSA_POS_TAIL;
	hp->tagger = t;
	hp->dsa = conf->dsa;
	hp->vlan = conf->vlan;
	if (hp->vlan.tx_inner_tpid == 0 && hp->vlan.tx_outer_tpid == 0)
		tp_vlan_conf_init(&hp->vlan);
	hp->pool = conf->pool;
	hp->socket_id = conf->socket_id;
	for (uint16_t q = 0; q < hp->nb_queues; q++) {
		hp->scratch[q] = rte_zmalloc_socket("tp_host_scratch", sizeof(struct hif_scratch),
						    RTE_CACHE_LINE_SIZE, conf->socket_id);
		if (hp->scratch[q] == NULL) {
			tp_host_port_destroy(hp);
			return -ENOMEM;
		}
	}
	rte_spinlock_lock(&reg_lock);
	hp->next = reg_head;
	reg_head = hp;
	rte_spinlock_unlock(&reg_lock);
	*out = hp;
	return 0;
}

/* The kernel's rule for interface names (net/core/dev.c, dev_valid_name). */
static bool
name_ok(const char *name)
{
	size_t n = strnlen(name, IFNAMSIZ);

	if (n == 0 || n >= IFNAMSIZ || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (name[i] == '/' || name[i] == ':' || name[i] == ' ' ||
		    name[i] == '\t' || name[i] == '\n' || name[i] == '\r' ||
		    name[i] == '\v' || name[i] == '\f')
			return false;
	return true;
}

/*
 * Open one queue of TAP device name: IFF_TAP | IFF_NO_PI | IFF_VNET_HDR,
 * with IFF_MULTI_QUEUE when mq, IFF_TUN_EXCL for the first queue (never
 * attach to a device someone else made). The name the kernel gave (a
 * "%d" pattern resolved) back in name.
 */
static int
tap_open(char name[IFNAMSIZ], bool mq, bool first, int vnet_sz, char *err, size_t len)
{
	struct ifreq ifr;
	int fd, rc;

	fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return fail(err, len, -errno, "host interface %s: /dev/net/tun: %s", name,
			    strerror(errno));
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, name, IFNAMSIZ);
	ifr.ifr_flags = (short)(IFF_TAP | IFF_NO_PI | IFF_VNET_HDR |
				(mq ? IFF_MULTI_QUEUE : 0) | (first ? IFF_TUN_EXCL : 0));
	if (ioctl(fd, TUNSETIFF, &ifr) != 0) {
		rc = errno;
		close(fd);
		if (rc == EBUSY || (rc == EINVAL && first))
			return fail(err, len, -EEXIST,
				    "host interface %s: the name is taken by another device",
				    name);
		return fail(err, len, -rc, "host interface %s: TUNSETIFF: %s", name,
			    strerror(rc));
	}
	memcpy(name, ifr.ifr_name, IFNAMSIZ);
	name[IFNAMSIZ - 1] = '\0';
	if (ioctl(fd, TUNSETVNETHDRSZ, &vnet_sz) != 0) {
		rc = errno;
		close(fd);
		return fail(err, len, -rc, "host interface %s: TUNSETVNETHDRSZ %d: %s", name,
			    vnet_sz, strerror(rc));
	}
	/* The host may hand us packets with the checksum left to do and TCP
	 * packets of up to 64 KiB to segment (drivers/net/tun.c,
	 * set_offload). */
	if (ioctl(fd, TUNSETOFFLOAD, (unsigned long)(TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6)) != 0) {
		rc = errno;
		close(fd);
		return fail(err, len, -rc, "host interface %s: TUNSETOFFLOAD: %s", name,
			    strerror(rc));
	}
	return fd;
}

static void
if_free(struct tp_host_port *hp, struct tp_host_if *hif)
{
	for (uint16_t q = 0; q < hp->nb_queues; q++) {
		struct hif_queue *hq = &hif->q[q];

		if (hq->fd >= 0)
			close(hq->fd);
		if (hq->stash != NULL) {
			rte_pktmbuf_free_bulk(hq->stash, hq->nb_stash);
			rte_free(hq->stash);
		}
	}
	rte_free(hif);
}

/* Checks common to add and attach; 0 or -EINVAL with err. */
static int
if_check(const struct tp_host_port *hp, unsigned int sp, const char *name,
	 char *err, size_t errlen)
{
	unsigned int max_sp = hp->tagger->tx_ports;

	if (hp->dsa.n_ports != 0 && hp->dsa.n_ports < max_sp)
		max_sp = hp->dsa.n_ports;
	if (max_sp > 256)
		max_sp = 256;
	if (sp >= max_sp)
		return fail(err, errlen, -EINVAL,
			    "host interface %u:%u: switch port %u: tagger %s addresses ports "
			    "0..%u", hp->port, sp, sp, hp->tagger->name, max_sp - 1);
	if (name == NULL || !name_ok(name))
		return fail(err, errlen, -EINVAL,
			    "host interface %u:%u: bad interface name '%s' (1..%d characters, "
			    "no '/', ':' or white space)", hp->port, sp, name ? name : "",
			    IFNAMSIZ - 1);
	if (hp->by_sp[sp] != NULL)
		return fail(err, errlen, -EINVAL,
			    "host interface %u:%u=%s: switch port %u already has %s", hp->port,
			    sp, name, sp, hp->by_sp[sp]->name);
	if (hp->nb_ifs == TP_HOST_PORT_MAX_IFS)
		return fail(err, errlen, -EINVAL,
			    "host interface %u:%u=%s: more than %d interfaces on one conduit",
			    hp->port, sp, name, TP_HOST_PORT_MAX_IFS);
	return 0;
}

static struct tp_host_if *
if_alloc(const struct tp_host_port *hp)
{
	struct tp_host_if *hif;

	hif = rte_zmalloc_socket("tp_host_if", sizeof(*hif) +
				 hp->nb_queues * sizeof(struct hif_queue),
				 RTE_CACHE_LINE_SIZE, hp->socket_id);
	if (hif == NULL)
		return NULL;
	for (uint16_t q = 0; q < hp->nb_queues; q++) {
		hif->q[q].fd = -1;
		hif->q[q].stash = rte_zmalloc_socket("tp_host_stash",
						     hp->iov_mbufs * sizeof(struct rte_mbuf *),
						     0, hp->socket_id);
		if (hif->q[q].stash == NULL) {
			for (uint16_t r = 0; r < q; r++)
				rte_free(hif->q[r].stash);
			rte_free(hif);
			return NULL;
		}
	}
	return hif;
}

static void
if_publish(struct tp_host_port *hp, struct tp_host_if *hif, unsigned int sp,
	   const char *name)
{
	snprintf(hif->name, sizeof(hif->name), "%s", name);
	hif->sp = (uint8_t)sp;
	hif->dsa = hp->dsa;
	hif->dsa.flags |= TP_DSA_CONF_F_TX_PORT;
	hif->dsa.tx_port = (uint8_t)sp;
	hif->dsa.tx_device = 0;
	hif->dsa.tx_prio = 0;
	hp->ifs[hp->nb_ifs++] = hif;
	/* Last, whole: the telemetry thread may be walking by_sp. */
	__atomic_store_n(&hp->by_sp[sp], hif, __ATOMIC_RELEASE);
}

int
tp_host_port_add_if(struct tp_host_port *hp, unsigned int sp, const char *name,
		    char *err, size_t errlen)
{
	struct tp_host_if *hif;
	char actual[IFNAMSIZ];
	int rc = if_check(hp, sp, name, err, errlen);

	if (rc != 0)
		return rc;
	hif = if_alloc(hp);
	if (hif == NULL)
		return -ENOMEM;
	memset(actual, 0, sizeof(actual));
	snprintf(actual, sizeof(actual), "%s", name);
	for (uint16_t q = 0; q < hp->nb_queues; q++) {
		int fd = tap_open(actual, hp->nb_queues > 1, q == 0, hp->vnet_sz, err, errlen);

		if (fd < 0) {
			if_free(hp, hif);
			return fd;
		}
		hif->q[q].fd = fd;
	}
	if_publish(hp, hif, sp, actual);
	return 0;
}

int
tp_host_port_attach_if(struct tp_host_port *hp, unsigned int sp, const char *name,
		       const int *fds, char *err, size_t errlen)
{
	struct tp_host_if *hif;
	int rc = if_check(hp, sp, name, err, errlen);

	if (rc == 0 && fds == NULL)
		rc = fail(err, errlen, -EINVAL, "host interface %s: no descriptors", name);
	hif = rc == 0 ? if_alloc(hp) : NULL;
	if (rc == 0 && hif == NULL)
		rc = -ENOMEM;
	for (uint16_t q = 0; fds != NULL && q < hp->nb_queues; q++) {
		int fl = fcntl(fds[q], F_GETFL);

		if (hif != NULL)
			hif->q[q].fd = fds[q];
		else
			close(fds[q]);
		if (rc == 0 && (fl < 0 || fcntl(fds[q], F_SETFL, fl | O_NONBLOCK) != 0))
			rc = fail(err, errlen, -errno, "host interface %s: queue %u: %s", name,
				  q, strerror(errno));
	}
	if (rc != 0) {
		if (hif != NULL)
			if_free(hp, hif);
		return rc;
	}
	if_publish(hp, hif, sp, name);
	return 0;
}

void
tp_host_port_destroy(struct tp_host_port *hp)
{
	if (hp == NULL)
		return;
	rte_spinlock_lock(&reg_lock);
	for (struct tp_host_port **pp = &reg_head; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == hp) {
			*pp = hp->next;
			break;
		}
	}
	rte_spinlock_unlock(&reg_lock);
	for (unsigned int i = 0; i < hp->nb_ifs; i++)
		if_free(hp, hp->ifs[i]);
	for (uint16_t q = 0; q < TP_HOST_IF_MAX_QUEUES; q++)
		rte_free(hp->scratch[q]);
	rte_free(hp);
}

/* ---- link, MAC, MTU --------------------------------------------------- */

struct mtu_job {
	int tun_fd;
	int mtu;
	int rc;
};

/*
 * SIOCSIFMTU names the device, and names are per network namespace: the
 * interface may have been moved out of ours (ip link set ... netns). So
 * the ioctl runs on a thread of its own that first joins the device's
 * namespace (TUNGETDEVNETNS, drivers/net/tun.c; setns(2) changes only the
 * calling thread), with the device's current name (TUNGETIFF).
 */
static void *
mtu_thread(void *arg)
{
	struct mtu_job *j = arg;
	struct ifreq ifr;
	int ns, s;

	memset(&ifr, 0, sizeof(ifr));
	if (ioctl(j->tun_fd, TUNGETIFF, &ifr) != 0) {
		j->rc = -errno;
		return NULL;
	}
	ns = ioctl(j->tun_fd, TUNGETDEVNETNS);
	if (ns >= 0) {
		if (setns(ns, CLONE_NEWNET) != 0) {
			j->rc = -errno;
			close(ns);
			return NULL;
		}
		close(ns);
	}
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0) {
		j->rc = -errno;
		return NULL;
	}
	ifr.ifr_mtu = j->mtu;
	j->rc = ioctl(s, SIOCSIFMTU, &ifr) == 0 ? 0 : -errno;
	close(s);
	return NULL;
}

static int
set_mtu(int tun_fd, int mtu)
{
	struct mtu_job j = { .tun_fd = tun_fd, .mtu = mtu, .rc = 0 };
	pthread_t t;
	int rc = pthread_create(&t, NULL, mtu_thread, &j);

	if (rc != 0)
		return -rc;
	pthread_join(t, NULL);
	return j.rc;
}

int
tp_host_port_sync(struct tp_host_port *hp, char *err, size_t errlen)
{
	struct rte_eth_link link;
	struct rte_ether_addr mac;
	uint16_t cmtu;
	int carrier, mtu, first = 0;

	if (rte_eth_link_get_nowait(hp->port, &link) != 0)
		link.link_status = RTE_ETH_LINK_DOWN;
	carrier = link.link_status == RTE_ETH_LINK_UP;
	if (rte_eth_macaddr_get(hp->port, &mac) != 0)
		memset(&mac, 0, sizeof(mac));
	if (rte_eth_dev_get_mtu(hp->port, &cmtu) != 0)
		cmtu = RTE_ETHER_MTU + hp->tagger->tx_len;
	/* The kernel raises a conduit's MTU by the tag's length so that its
	 * user ports keep theirs (net/dsa/conduit.c, dsa_conduit_setup);
	 * the inverse here. At least IPv4's minimum (RFC 791: 68). */
	mtu = (int)cmtu - hp->tagger->tx_len;
	if (mtu < 68)
		mtu = 68;
	for (unsigned int i = 0; i < hp->nb_ifs; i++) {
		struct tp_host_if *hif = hp->ifs[i];
		int fd = hif->q[0].fd, rc;

		if (!hif->synced || hif->carrier != carrier) {
			if (ioctl(fd, TUNSETCARRIER, &carrier) != 0) {
				rc = -errno;
				if (first == 0)
					first = fail(err, errlen, rc, "%s: TUNSETCARRIER: %s",
						     hif->name, strerror(-rc));
			} else {
				hif->carrier = carrier;
			}
		}
		if ((!hif->synced || !rte_is_same_ether_addr(&hif->mac, &mac)) &&
		    !rte_is_zero_ether_addr(&mac)) {
			struct ifreq ifr;

			memset(&ifr, 0, sizeof(ifr));
			ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
			memcpy(ifr.ifr_hwaddr.sa_data, mac.addr_bytes, RTE_ETHER_ADDR_LEN);
			if (ioctl(fd, SIOCSIFHWADDR, &ifr) != 0) {
				rc = -errno;
				if (first == 0)
					first = fail(err, errlen, rc, "%s: SIOCSIFHWADDR: %s",
						     hif->name, strerror(-rc));
			} else {
				hif->mac = mac;
			}
		}
		if (!hif->synced || hif->mtu != mtu) {
			rc = set_mtu(fd, mtu);
			if (rc != 0) {
				if (first == 0)
					first = fail(err, errlen, rc, "%s: MTU %d: %s", hif->name,
						     mtu, strerror(-rc));
			} else {
				hif->mtu = (uint16_t)mtu;
			}
		}
		hif->synced = true;
	}
	return first;
}

/* ---- queries ------------------------------------------------------------ */

unsigned int
tp_host_port_ifs(const struct tp_host_port *hp, uint8_t *ports, unsigned int max)
{
	unsigned int n = 0;

	for (unsigned int sp = 0; sp < 256; sp++) {
		if (hp->by_sp[sp] == NULL)
			continue;
		if (n < max)
			ports[n] = (uint8_t)sp;
		n++;
	}
	return n;
}

uint16_t
tp_host_port_conduit(const struct tp_host_port *hp)
{
	return hp->port;
}

int
tp_host_if_name(const struct tp_host_port *hp, unsigned int sp, char *name)
{
	const struct tp_host_if *hif = sp < 256 ? hp->by_sp[sp] : NULL;
	struct ifreq ifr;

	if (hif == NULL)
		return -ENOENT;
	memset(&ifr, 0, sizeof(ifr));
	if (ioctl(hif->q[0].fd, TUNGETIFF, &ifr) == 0)
		snprintf(name, IFNAMSIZ, "%.*s", IFNAMSIZ - 1, ifr.ifr_name);
	else
		snprintf(name, IFNAMSIZ, "%s", hif->name);
	return 0;
}

static uint64_t
ld(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

int
tp_host_if_stats_get(const struct tp_host_port *hp, unsigned int sp,
		     struct tp_host_if_stats *st)
{
	const struct tp_host_if *hif = sp < 256 ? hp->by_sp[sp] : NULL;

	if (hif == NULL || st == NULL)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	for (uint16_t q = 0; q < hp->nb_queues; q++) {
		const uint64_t *a = (const uint64_t *)&hif->q[q].st;
		uint64_t *s = (uint64_t *)st;

		/* every field is a uint64_t counter */
		for (size_t i = 0; i < sizeof(*st) / sizeof(uint64_t); i++)
			s[i] += ld(&a[i]);
	}
	return 0;
}

/* ---- telemetry ------------------------------------------------------------ */

static int
add_if(struct rte_tel_data *d, const struct tp_host_port *hp, unsigned int sp)
{
	struct tp_host_if_stats s;
	struct rte_tel_data *c = rte_tel_data_alloc();
	char name[IFNAMSIZ];

	if (c == NULL)
		return -ENOMEM;
	tp_host_if_name(hp, sp, name);
	tp_host_if_stats_get(hp, sp, &s);
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_u64(c, "conduit", hp->port);
	rte_tel_data_add_dict_u64(c, "switch_port", sp);
	rte_tel_data_add_dict_u64(c, "to_host_pkts", s.to_host_pkts);
	rte_tel_data_add_dict_u64(c, "to_host_frames", s.to_host_frames);
	rte_tel_data_add_dict_u64(c, "to_host_bytes", s.to_host_bytes);
	rte_tel_data_add_dict_u64(c, "to_host_gso", s.to_host_gso);
	rte_tel_data_add_dict_u64(c, "to_host_drop_pkts", s.to_host_drop_pkts);
	rte_tel_data_add_dict_u64(c, "to_host_drop_frames", s.to_host_drop_frames);
	rte_tel_data_add_dict_u64(c, "from_host_pkts", s.from_host_pkts);
	rte_tel_data_add_dict_u64(c, "from_host_bytes", s.from_host_bytes);
	rte_tel_data_add_dict_u64(c, "from_host_gso", s.from_host_gso);
	rte_tel_data_add_dict_u64(c, "from_host_tso", s.from_host_tso);
	rte_tel_data_add_dict_u64(c, "from_host_frames", s.from_host_frames);
	rte_tel_data_add_dict_u64(c, "from_host_sent", s.from_host_sent);
	rte_tel_data_add_dict_u64(c, "from_host_wire_bytes", s.from_host_wire_bytes);
	rte_tel_data_add_dict_u64(c, "from_host_tag_drop", s.from_host_tag_drop);
	rte_tel_data_add_dict_u64(c, "from_host_tx_full", s.from_host_tx_full);
	for (unsigned int r = 0; r < TP_HOST_IF_DROP_MAX; r++) {
		char key[48];

		snprintf(key, sizeof(key), "from_host_drop_%s", drop_names[r]);
		rte_tel_data_add_dict_u64(c, key, s.from_host_drop[r]);
	}
	rte_tel_data_add_dict_u64(c, "read_errors", s.read_errors);
	rte_tel_data_add_dict_u64(c, "no_mbuf_polls", s.no_mbuf_polls);
	return rte_tel_data_add_dict_container(d, name, c, 0);
}

int
hif_telemetry(const char *cmd, const char *params, struct rte_tel_data *d)
{
	int rc = 0;

	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	rte_spinlock_lock(&reg_lock);
	for (const struct tp_host_port *hp = reg_head; hp != NULL && rc == 0; hp = hp->next)
		for (unsigned int sp = 0; sp < 256 && rc == 0; sp++)
			if (hp->by_sp[sp] != NULL)
				rc = add_if(d, hp, sp);
	rte_spinlock_unlock(&reg_lock);
	return rc;
}
