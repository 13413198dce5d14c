/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A warning for net_af_packet ports whose kernel interface still has TX
 * checksum offload on: locally generated TCP segments then reach the packet
 * socket with their checksum not filled in (CHECKSUM_PARTIAL, reported as
 * TP_STATUS_CSUMNOTREADY by the kernel's net/packet/af_packet.c), the PMD
 * passes them on unchanged and the receiver drops them (deploy/README.md).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>
#include <rte_kvargs.h>

#include "fwd.h"

/* 1: TX checksum offload on, 0: off, -errno: cannot tell. */
static int
tx_csum_on(const char *iface)
{
	struct ethtool_value ev = { .cmd = ETHTOOL_GTXCSUM };
	struct ifreq ifr;
	int fd, rc;

	memset(&ifr, 0, sizeof(ifr));
	if (strlen(iface) >= sizeof(ifr.ifr_name))
		return -EINVAL;
	strcpy(ifr.ifr_name, iface);
	ifr.ifr_data = (void *)&ev;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -errno;
	rc = ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : ev.data != 0;
	close(fd);
	return rc;
}

void
fwd_port_check_af_packet(uint16_t port)
{
	struct rte_eth_dev_info info;
	const struct rte_devargs *da;
	struct rte_kvargs *kv;
	const char *iface;

	if (rte_eth_dev_info_get(port, &info) != 0 || info.driver_name == NULL ||
	    strcmp(info.driver_name, "net_af_packet") != 0 || info.device == NULL)
		return;
	da = rte_dev_devargs(info.device);
	if (da == NULL || da->args == NULL)
		return;
	kv = rte_kvargs_parse(da->args, NULL);
	if (kv == NULL)
		return;
	iface = rte_kvargs_get(kv, "iface");
	if (iface != NULL && tx_csum_on(iface) == 1)
		FWD_LOG(WARNING, "port %u: af_packet interface %s has TX checksum offload on: "
			"locally sent TCP may reach the port with checksums not filled in; run "
			"'ethtool -K %s tx off' (and on its peer), see deploy/README.md",
			port, iface, iface);
	rte_kvargs_free(kv);
}
