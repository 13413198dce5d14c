/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port reports and operations in dpdk-testpmd's words, so what a DPDK user
 * types and reads is what testpmd 22.11 gives (app/test-pmd/config.c:
 * port_infos_display, port_summary_display, port_rss_hash_conf_show,
 * pkt_fwd_config_display; testpmd.c: start_port, stop_port,
 * dev_set_link_up/down; util.c: eth_set_promisc_mode). The formats are
 * theirs; the code is ours. What tagpipe adds (a port's DSA tagger and
 * VLAN policy) comes after testpmd's lines.
 */
#include <inttypes.h>
#include <string.h>

#include <rte_bus.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "fwd.h"

/* RSS type names for single bits, as testpmd names them in its
 * rss_type_table (DPDK 22.11 app/test-pmd/config.c), in its order. */
static const struct {
	const char *name;
	uint64_t bit;
} rss_names[] = {
	{ "ipv4", RTE_ETH_RSS_IPV4 }, { "ipv4-frag", RTE_ETH_RSS_FRAG_IPV4 },
	{ "ipv4-tcp", RTE_ETH_RSS_NONFRAG_IPV4_TCP },
	{ "ipv4-udp", RTE_ETH_RSS_NONFRAG_IPV4_UDP },
	{ "ipv4-sctp", RTE_ETH_RSS_NONFRAG_IPV4_SCTP },
	{ "ipv4-other", RTE_ETH_RSS_NONFRAG_IPV4_OTHER },
	{ "ipv6", RTE_ETH_RSS_IPV6 }, { "ipv6-frag", RTE_ETH_RSS_FRAG_IPV6 },
	{ "ipv6-tcp", RTE_ETH_RSS_NONFRAG_IPV6_TCP },
	{ "ipv6-udp", RTE_ETH_RSS_NONFRAG_IPV6_UDP },
	{ "ipv6-sctp", RTE_ETH_RSS_NONFRAG_IPV6_SCTP },
	{ "ipv6-other", RTE_ETH_RSS_NONFRAG_IPV6_OTHER },
	{ "l2-payload", RTE_ETH_RSS_L2_PAYLOAD }, { "ipv6-ex", RTE_ETH_RSS_IPV6_EX },
	{ "ipv6-tcp-ex", RTE_ETH_RSS_IPV6_TCP_EX },
	{ "ipv6-udp-ex", RTE_ETH_RSS_IPV6_UDP_EX }, { "port", RTE_ETH_RSS_PORT },
	{ "vxlan", RTE_ETH_RSS_VXLAN }, { "geneve", RTE_ETH_RSS_GENEVE },
	{ "nvgre", RTE_ETH_RSS_NVGRE }, { "gtpu", RTE_ETH_RSS_GTPU },
	{ "eth", RTE_ETH_RSS_ETH }, { "s-vlan", RTE_ETH_RSS_S_VLAN },
	{ "c-vlan", RTE_ETH_RSS_C_VLAN }, { "esp", RTE_ETH_RSS_ESP },
	{ "ah", RTE_ETH_RSS_AH }, { "l2tpv3", RTE_ETH_RSS_L2TPV3 },
	{ "pfcp", RTE_ETH_RSS_PFCP }, { "pppoe", RTE_ETH_RSS_PPPOE },
	{ "ecpri", RTE_ETH_RSS_ECPRI }, { "mpls", RTE_ETH_RSS_MPLS },
	{ "ipv4-chksum", RTE_ETH_RSS_IPV4_CHKSUM },
	{ "l4-chksum", RTE_ETH_RSS_L4_CHKSUM }, { "l2tpv2", RTE_ETH_RSS_L2TPV2 },
	{ "l3-pre96", RTE_ETH_RSS_L3_PRE96 }, { "l3-pre64", RTE_ETH_RSS_L3_PRE64 },
	{ "l3-pre56", RTE_ETH_RSS_L3_PRE56 }, { "l3-pre48", RTE_ETH_RSS_L3_PRE48 },
	{ "l3-pre40", RTE_ETH_RSS_L3_PRE40 }, { "l3-pre32", RTE_ETH_RSS_L3_PRE32 },
	{ "l2-dst-only", RTE_ETH_RSS_L2_DST_ONLY },
	{ "l2-src-only", RTE_ETH_RSS_L2_SRC_ONLY },
	{ "l4-dst-only", RTE_ETH_RSS_L4_DST_ONLY },
	{ "l4-src-only", RTE_ETH_RSS_L4_SRC_ONLY },
	{ "l3-dst-only", RTE_ETH_RSS_L3_DST_ONLY },
	{ "l3-src-only", RTE_ETH_RSS_L3_SRC_ONLY },
};
#define RSS_LINE 64   /* testpmd's TESTPMD_RSS_TYPES_CHAR_NUM_PER_LINE */

/* "  name" per type, wrapped before a line would pass RSS_LINE columns;
 * a bit without a name is "user-defined-N" (port info) or left out. */
static void
print_rss_types(uint64_t types, bool user_defined)
{
	unsigned int col = 0;

	for (unsigned int b = 0; b < 64; b++) {
		uint64_t bit = UINT64_C(1) << b;
		const char *name = NULL;
		char other[32];
		unsigned int len;

		if (!(types & bit))
			continue;
		for (unsigned int i = 0; i < RTE_DIM(rss_names); i++)
			if (rss_names[i].bit == bit)
				name = rss_names[i].name;
		if (name == NULL) {
			if (!user_defined)
				continue;
			snprintf(other, sizeof(other), "user-defined-%u", b);
			name = other;
		}
		len = (unsigned int)strlen(name) + 2;
		if (user_defined ? col + len >= RSS_LINE : col + len > RSS_LINE) {
			printf("\n");
			col = 0;
		}
		printf("  %s", name);
		col += len;
	}
	printf("\n");
}

/* testpmd prints an unknown socket (SOCKET_ID_ANY) as 0. */
static unsigned int
socket_of(uint16_t port)
{
	int s = rte_eth_dev_socket_id(port);

	return s < 0 ? 0u : (unsigned int)s;
}

static bool
valid_port(uint16_t port)
{
	if (rte_eth_dev_is_valid_port(port))
		return true;
	fprintf(stderr, "Invalid port %u\n", port);
	return false;
}

void
fwd_port_show_info(uint16_t port)
{
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	struct rte_ether_addr mac;
	const struct rte_devargs *da;
	char name[RTE_ETH_NAME_MAX_LEN], buf[RTE_ETHER_ADDR_FMT_SIZE], fw[64];
	uint16_t mtu;
	int vlan;

	if (!valid_port(port))
		return;
	memset(&link, 0, sizeof(link));
	if (rte_eth_link_get_nowait(port, &link) < 0 || rte_eth_dev_info_get(port, &info) != 0)
		return;
	printf("\n********************* Infos for port %-2u *********************\n", port);
	if (rte_eth_macaddr_get(port, &mac) == 0) {
		rte_ether_format_addr(buf, sizeof(buf), &mac);
		printf("MAC address: %s", buf);
	}
	rte_eth_dev_get_name_by_port(port, name);
	printf("\nDevice name: %s", name);
	printf("\nDriver name: %s", info.driver_name);
	printf("\nFirmware-version: %s",
	       rte_eth_dev_fw_version_get(port, fw, sizeof(fw)) == 0 ? fw : "not available");
	da = rte_dev_devargs(info.device);
	if (da != NULL && da->args != NULL)
		printf("\nDevargs: %s", da->args);
	printf("\nConnect to socket: %u", socket_of(port));
	printf("\nmemory allocation on the socket: %u", socket_of(port));
	printf("\nLink status: %s\n", link.link_status ? "up" : "down");
	printf("Link speed: %s\n", rte_eth_link_speed_to_str(link.link_speed));
	printf("Link duplex: %s\n",
	       link.link_duplex == RTE_ETH_LINK_FULL_DUPLEX ? "full-duplex" : "half-duplex");
	printf("Autoneg status: %s\n", link.link_autoneg == RTE_ETH_LINK_AUTONEG ? "On" : "Off");
	if (rte_eth_dev_get_mtu(port, &mtu) == 0)
		printf("MTU: %u\n", mtu);
	printf("Promiscuous mode: %s\n",
	       rte_eth_promiscuous_get(port) == 1 ? "enabled" : "disabled");
	printf("Allmulticast mode: %s\n",
	       rte_eth_allmulticast_get(port) == 1 ? "enabled" : "disabled");
	printf("Maximum number of MAC addresses: %u\n", info.max_mac_addrs);
	printf("Maximum number of MAC addresses of hash filtering: %u\n",
	       info.max_hash_mac_addrs);
	vlan = rte_eth_dev_get_vlan_offload(port);
	if (vlan >= 0) {
		printf("VLAN offload: \n");
		printf("  strip %s, filter %s, extend %s, qinq strip %s\n",
		       vlan & RTE_ETH_VLAN_STRIP_OFFLOAD ? "on" : "off",
		       vlan & RTE_ETH_VLAN_FILTER_OFFLOAD ? "on" : "off",
		       vlan & RTE_ETH_VLAN_EXTEND_OFFLOAD ? "on" : "off",
		       vlan & RTE_ETH_QINQ_STRIP_OFFLOAD ? "on" : "off");
	}
	if (info.hash_key_size > 0)
		printf("Hash key size in bytes: %u\n", info.hash_key_size);
	if (info.reta_size > 0)
		printf("Redirection table size: %u\n", info.reta_size);
	if (info.flow_type_rss_offloads == 0) {
		printf("No RSS offload flow type is supported.\n");
	} else {
		printf("Supported RSS offload flow types:\n");
		print_rss_types(info.flow_type_rss_offloads, true);
	}
	printf("Minimum size of RX buffer: %u\n", info.min_rx_bufsize);
	printf("Maximum configurable length of RX packet: %u\n", info.max_rx_pktlen);
	printf("Maximum configurable size of LRO aggregated packet: %u\n",
	       info.max_lro_pkt_size);
	if (info.max_vfs)
		printf("Maximum number of VFs: %u\n", info.max_vfs);
	if (info.max_vmdq_pools)
		printf("Maximum number of VMDq pools: %u\n", info.max_vmdq_pools);
	printf("Current number of RX queues: %u\n", info.nb_rx_queues);
	printf("Max possible RX queues: %u\n", info.max_rx_queues);
	printf("Max possible number of RXDs per queue: %u\n", info.rx_desc_lim.nb_max);
	printf("Min possible number of RXDs per queue: %u\n", info.rx_desc_lim.nb_min);
	printf("RXDs number alignment: %u\n", info.rx_desc_lim.nb_align);
	printf("Current number of TX queues: %u\n", info.nb_tx_queues);
	printf("Max possible TX queues: %u\n", info.max_tx_queues);
	printf("Max possible number of TXDs per queue: %u\n", info.tx_desc_lim.nb_max);
	printf("Min possible number of TXDs per queue: %u\n", info.tx_desc_lim.nb_min);
	printf("TXDs number alignment: %u\n", info.tx_desc_lim.nb_align);
	printf("Max segment number per packet: %u\n", info.tx_desc_lim.nb_seg_max);
	printf("Max segment number per MTU/TSO: %u\n", info.tx_desc_lim.nb_mtu_seg_max);
	printf("Device capabilities: 0x%" PRIx64 "(", info.dev_capa);
	for (unsigned int b = 0; b < 64; b++)
		if (info.dev_capa & (UINT64_C(1) << b))
			printf(" %s", rte_eth_dev_capability_name(UINT64_C(1) << b));
	printf(" )\n");
	if (info.switch_info.domain_id != RTE_ETH_DEV_SWITCH_DOMAIN_ID_INVALID) {
		if (info.switch_info.name != NULL)
			printf("Switch name: %s\n", info.switch_info.name);
		printf("Switch domain Id: %u\n", info.switch_info.domain_id);
		printf("Switch Port Id: %u\n", info.switch_info.port_id);
		if (info.dev_capa & RTE_ETH_DEV_CAPA_RXQ_SHARE)
			printf("Switch Rx domain: %u\n", info.switch_info.rx_domain);
	}
	printf("Device error handling mode: %s\n",
	       info.err_handle_mode == RTE_ETH_ERROR_HANDLE_MODE_NONE ? "none" :
	       info.err_handle_mode == RTE_ETH_ERROR_HANDLE_MODE_PASSIVE ? "passive" :
	       info.err_handle_mode == RTE_ETH_ERROR_HANDLE_MODE_PROACTIVE ? "proactive" :
	       "unknown");
	/* tagpipe's own, after testpmd's lines. */
	for (uint16_t i = 0; i < fwd.nb_ports; i++)
		if (fwd.port_ids[i] == port)
			printf("DSA tagger: %s  VLAN: %s\n",
			       fwd.opt.port[i].tagger[0] ? fwd.opt.port[i].tagger : "none",
			       fwd.opt.port[i].vlan == FWD_VLAN_STRIP ? "strip" : "keep");
	fflush(stdout);
}

void
fwd_port_show_summary_header(void)
{
	printf("Number of available ports: %i\n", (int)rte_eth_dev_count_avail());
	printf("%-4s %-17s %-12s %-14s %-8s %s\n", "Port", "MAC Address", "Name",
	       "Driver", "Status", "Link");
}

void
fwd_port_show_summary(uint16_t port)
{
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	struct rte_ether_addr mac;
	char name[RTE_ETH_NAME_MAX_LEN], buf[RTE_ETHER_ADDR_FMT_SIZE];

	if (!valid_port(port))
		return;
	memset(&link, 0, sizeof(link));
	if (rte_eth_link_get_nowait(port, &link) < 0 || rte_eth_dev_info_get(port, &info) != 0 ||
	    rte_eth_macaddr_get(port, &mac) != 0)
		return;
	rte_eth_dev_get_name_by_port(port, name);
	rte_ether_format_addr(buf, sizeof(buf), &mac);
	printf("%-4u %s %-12s %-14s %-8s %s\n", port, buf, name, info.driver_name,
	       link.link_status ? "up" : "down", rte_eth_link_speed_to_str(link.link_speed));
	fflush(stdout);
}

void
fwd_port_show_rss_hash(uint16_t port)
{
	struct rte_eth_rss_conf rss = { 0 };
	struct rte_eth_dev_info info;
	int rc;

	if (!valid_port(port) || rte_eth_dev_info_get(port, &info) != 0)
		return;
	if (info.hash_key_size == 0 || info.hash_key_size > 64) {
		fprintf(stderr, "dev_info did not provide a valid hash key size\n");
		return;
	}
	rss.rss_key_len = info.hash_key_size;
	rc = rte_eth_dev_rss_hash_conf_get(port, &rss);
	if (rc != 0) {
		if (rc == -ENOTSUP)
			fprintf(stderr, "operation not supported by device\n");
		else
			fprintf(stderr, "operation failed - diag=%d\n", rc);
		return;
	}
	if (rss.rss_hf == 0) {
		printf("RSS disabled\n");
	} else {
		printf("RSS functions:\n");
		print_rss_types(rss.rss_hf, false);
	}
	fflush(stdout);
}

void
fwd_show_config_fwd(void)
{
	printf("%s packet forwarding - ports=%u - cores=%u - streams=%u - "
	       "NUMA support disabled, MP allocation mode: native\n",
	       fwd.opt.engine->name, fwd.nb_ports, fwd.nb_fwd_lcores, fwd.nb_streams);
	for (unsigned int l = 0; l < fwd.nb_fwd_lcores; l++) {
		unsigned int id = fwd.fwd_lcore_id[l], n = 0;

		for (unsigned int s = l; s < fwd.nb_streams; s += fwd.nb_fwd_lcores)
			n++;
		printf("Logical Core %u (socket %u) forwards packets on %u streams:", id,
		       rte_lcore_to_socket_id(id), n);
		for (unsigned int s = l; s < fwd.nb_streams; s += fwd.nb_fwd_lcores) {
			const struct fwd_stream *fs = &fwd.streams[s];
			char buf[RTE_ETHER_ADDR_FMT_SIZE];

			rte_ether_format_addr(buf, sizeof(buf), &fwd.peer_mac[fs->tx_port]);
			printf("\n  RX P=%u/Q=%u (socket %u) -> TX P=%u/Q=%u (socket %u) peer=%s",
			       fs->rx_port, fs->rx_queue,
			       socket_of(fs->rx_port), fs->tx_port,
			       fs->tx_queue, socket_of(fs->tx_port), buf);
		}
		printf("\n");
	}
	printf("\n");
	fflush(stdout);
}

void
fwd_port_set_promisc(uint16_t port, bool on)
{
	int rc;

	if (!valid_port(port))
		return;
	rc = on ? rte_eth_promiscuous_enable(port) : rte_eth_promiscuous_disable(port);
	if (rc != 0)
		fprintf(stderr, "Error during %s promiscuous mode for port %u: %s\n",
			on ? "enabling" : "disabling", port, rte_strerror(-rc));
}

void
fwd_port_set_link(uint16_t port, bool up)
{
	if (!valid_port(port))
		return;
	if ((up ? rte_eth_dev_set_link_up(port) : rte_eth_dev_set_link_down(port)) < 0)
		fprintf(stderr, "\nSet link %s fail.\n", up ? "up" : "down");
}

/* testpmd's check_all_ports_link_status with link-state interrupts on
 * (its default): one look, no per-port lines. */
static void
check_links(void)
{
	printf("Checking link statuses...\n");
}

/* port start|stop PORT|all (all: port = RTE_MAX_ETHPORTS). */
void
fwd_port_start_stop(uint16_t port, bool start)
{
	bool all = port == RTE_MAX_ETHPORTS, any = false, was_started = true;

	if (!all && !valid_port(port))
		return;
	if (!start)
		printf("Stopping ports...\n");
	for (uint16_t i = 0; i < fwd.nb_ports; i++) {
		uint16_t p = fwd.port_ids[i];
		struct rte_ether_addr mac;
		char buf[RTE_ETHER_ADDR_FMT_SIZE];
		int rc;

		if (!all && p != port)
			continue;
		if (!start) {
			if (fwd.running) {
				fprintf(stderr, "Please remove port %u from forwarding "
					"configuration.\n", p);
				continue;
			}
			if (fwd.port_stopped[p])
				continue;
			rc = rte_eth_dev_stop(p);
			if (rc != 0) {
				fprintf(stderr, "rte_eth_dev_stop failed for port %u\n", p);
				continue;
			}
			fwd.port_stopped[p] = true;
			any = true;
			continue;
		}
		if (!fwd.port_stopped[p]) {
			fprintf(stderr, "Port %u is now not stopped\n", p);
			continue;
		}
		was_started = false;
		rc = rte_eth_dev_start(p);
		if (rc != 0) {
			fprintf(stderr, "Fail to start port %u: %s\n", p, rte_strerror(-rc));
			continue;
		}
		fwd.port_stopped[p] = false;
		any = true;
		if (rte_eth_macaddr_get(p, &mac) == 0) {
			rte_ether_format_addr(buf, sizeof(buf), &mac);
			printf("Port %u: %s\n", p, buf);
		}
	}
	if (any)
		check_links();
	else if (start && was_started)
		fprintf(stderr, "Please stop the ports first\n");
	printf("Done\n");
	fflush(stdout);
}
