/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Host interfaces in tagpipe-fwd (contract: host_if.h). One tp_host_port
 * per conduit port with --host-if entries; its interface queue q belongs
 * to the stream receiving on (conduit, RX queue q), whose lcore both
 * writes that stream's PASS packets to the host and polls what the host
 * sends, transmitting on its own TX queue of the conduit. The main lcore
 * follows the conduits' link, MAC and MTU from an EAL alarm.
 */
#include <inttypes.h>
#include <net/if.h>
#include <string.h>

#include <cmdline_parse_string.h>
#include <rte_alarm.h>
#include <rte_ethdev.h>

#include "host_if.h"
#include "tagpipe.h"

/* How often the interfaces' carrier, MAC and MTU are brought in line
 * with the conduit (the kernel's DSA follows the conduit by netdev
 * events; a poll is what an ethdev without link interrupts allows). */
#define SYNC_PERIOD_US (500 * 1000)

static struct tp_host_port *hps[RTE_MAX_ETHPORTS];
static char sync_err[RTE_MAX_ETHPORTS][160];

/* "P:S=NAME": one entry. */
static int
parse_one(struct fwd_options *o, const char *e, size_t n, char *err, size_t len)
{
	char buf[64], *eq, *colon, *end;
	unsigned long port, sp;
	struct fwd_host_if_opt *h;

	if (n == 0 || n >= sizeof(buf)) {
		snprintf(err, len, "bad entry '%.*s' (expected PORT:SWITCH_PORT=NAME)",
			 (int)RTE_MIN(n, 64u), e);
		return -EINVAL;
	}
	memcpy(buf, e, n);
	buf[n] = '\0';
	colon = strchr(buf, ':');
	eq = strchr(buf, '=');
	if (colon == NULL || eq == NULL || eq < colon || colon == buf || eq == colon + 1 ||
	    eq[1] == '\0') {
		snprintf(err, len, "bad entry '%s' (expected PORT:SWITCH_PORT=NAME)", buf);
		return -EINVAL;
	}
	*colon = '\0';
	*eq = '\0';
	errno = 0;
	port = strtoul(buf, &end, 10);
	if (*end != '\0' || buf[0] == '-' || buf[0] == '+' || errno != 0 ||
	    port >= FWD_MAX_PORTS) {
		snprintf(err, len, "bad port '%s' in '%.*s' (0..%d)", buf, (int)n, e,
			 FWD_MAX_PORTS - 1);
		return -EINVAL;
	}
	sp = strtoul(colon + 1, &end, 10);
	if (*end != '\0' || colon[1] == '-' || colon[1] == '+' || errno != 0 || sp > 255) {
		snprintf(err, len, "bad switch port '%s' in '%.*s' (0..255)", colon + 1,
			 (int)n, e);
		return -EINVAL;
	}
	if (strlen(eq + 1) >= IFNAMSIZ || strpbrk(eq + 1, "/: \t") != NULL ||
	    strcmp(eq + 1, ".") == 0 || strcmp(eq + 1, "..") == 0) {
		snprintf(err, len, "bad interface name '%s' in '%.*s' (1..%d characters, "
			 "no '/', ':' or white space)", eq + 1, (int)n, e, IFNAMSIZ - 1);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < o->nb_host_ifs; i++) {
		const struct fwd_host_if_opt *x = &o->host_if[i];

		if (x->port == port && x->sp == sp) {
			snprintf(err, len, "'%.*s': port %lu switch port %lu already has %s",
				 (int)n, e, port, sp, x->name);
			return -EINVAL;
		}
		if (strcmp(x->name, eq + 1) == 0) {
			snprintf(err, len, "'%.*s': interface name %s given twice", (int)n, e,
				 x->name);
			return -EINVAL;
		}
	}
	if (o->nb_host_ifs == FWD_MAX_HOST_IFS) {
		snprintf(err, len, "'%.*s': more than %d host interfaces", (int)n, e,
			 FWD_MAX_HOST_IFS);
		return -EINVAL;
	}
	h = &o->host_if[o->nb_host_ifs++];
	h->port = (uint16_t)port;
	h->sp = (uint16_t)sp;
	snprintf(h->name, sizeof(h->name), "%s", eq + 1);
	return 0;
}

int
fwd_host_if_parse(struct fwd_options *o, const char *s, char *err, size_t len)
{
	const char *p = s;

	for (;;) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		int rc = parse_one(o, p, n, err, len);

		if (rc != 0)
			return rc;
		if (c == NULL)
			return 0;
		p = c + 1;
	}
}

int
fwd_host_if_check(const struct fwd_options *o, uint16_t nb_ports, char *err, size_t len)
{
	for (unsigned int i = 0; i < o->nb_host_ifs; i++) {
		const struct fwd_host_if_opt *h = &o->host_if[i];
		const char *t = o->port[h->port].tagger;
		const struct tp_dsa_tagger *tg;

		if (h->port >= nb_ports) {
			snprintf(err, len, "--host-if %u:%u=%s: no such port %u (there are %u)",
				 h->port, h->sp, h->name, h->port, nb_ports);
			return -EINVAL;
		}
		if (t[0] == '\0' || strcmp(t, "none") == 0) {
			snprintf(err, len, "--host-if %u:%u=%s: port %u has no switch tag "
				 "(give it one with --port-tagger %u:NAME)", h->port, h->sp,
				 h->name, h->port, h->port);
			return -EINVAL;
		}
		tg = tp_dsa_tagger_find(t);
		if (tg != NULL && h->sp >= tg->tx_ports) {
			snprintf(err, len, "--host-if %u:%u=%s: tagger %s addresses switch "
				 "ports 0..%u", h->port, h->sp, h->name, t, tg->tx_ports - 1);
			return -EINVAL;
		}
	}
	return 0;
}

static bool
is_conduit(uint16_t port_index)
{
	for (unsigned int i = 0; i < fwd.opt.nb_host_ifs; i++)
		if (fwd.opt.host_if[i].port == port_index)
			return true;
	return false;
}

uint64_t
fwd_host_if_tx_offloads(uint16_t port_index, uint64_t capa)
{
	const uint64_t tso = RTE_ETH_TX_OFFLOAD_TCP_TSO | RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
			     RTE_ETH_TX_OFFLOAD_TCP_CKSUM;

	if (!is_conduit(port_index) || (capa & tso) != tso)
		return 0;
	return tso;
}

static void
sync_all(void *arg)
{
	RTE_SET_USED(arg);
	for (uint16_t i = 0; i < fwd.nb_ports; i++) {
		uint16_t port = fwd.port_ids[i];
		char err[160] = "";

		if (hps[port] == NULL)
			continue;
		/* Log a failure once, not every period. */
		if (tp_host_port_sync(hps[port], err, sizeof(err)) != 0 &&
		    strcmp(err, sync_err[port]) != 0)
			FWD_LOG(WARNING, "host interfaces of port %u: %s", port, err);
		snprintf(sync_err[port], sizeof(sync_err[port]), "%s", err);
	}
	rte_eal_alarm_set(SYNC_PERIOD_US, sync_all, NULL);
}

/* The kernel sets a conduit's MTU to a user port's 1500 plus the tag
 * (net/dsa/conduit.c, dsa_conduit_setup), and keeps going if it cannot. */
static void
raise_conduit_mtu(uint16_t port, const struct tp_dsa_tagger *t)
{
	uint16_t mtu, want = (uint16_t)(RTE_ETHER_MTU + t->tx_len);
	int rc;

	if (rte_eth_dev_get_mtu(port, &mtu) != 0 || mtu >= want)
		return;
	rc = rte_eth_dev_set_mtu(port, want);
	if (rc != 0)
		FWD_LOG(WARNING, "port %u: MTU %u for %s tags: %s; host interfaces get %u",
			port, want, t->name, rte_strerror(-rc), mtu - t->tx_len);
}

int
fwd_host_if_setup(void)
{
	for (unsigned int i = 0; i < fwd.opt.nb_host_ifs; i++) {
		const struct fwd_host_if_opt *h = &fwd.opt.host_if[i];
		uint16_t port = fwd.port_ids[h->port];
		char err[256];
		int rc;

		if (hps[port] == NULL) {
			struct tp_host_port_conf c;
			struct rte_eth_conf ec;

			memset(&c, 0, sizeof(c));
			c.port = port;
			c.tagger = fwd.opt.port[h->port].tagger;
			tp_vlan_conf_init(&c.vlan);
			if (rte_eth_dev_conf_get(port, &ec) == 0 &&
			    (ec.txmode.offloads & RTE_ETH_TX_OFFLOAD_TCP_TSO))
				c.tx_caps = TP_PORT_TX_TSO;
			c.nb_queues = fwd.opt.nb_rxq;
			c.burst = fwd.opt.burst;
			c.tx_retries = 4;
			c.pool = fwd.pool;
			c.socket_id = rte_eth_dev_socket_id(port);
			rc = tp_host_port_create(&c, &hps[port], err, sizeof(err));
			if (rc != 0) {
				fwd_err("--host-if: %s", err);
				fwd_host_if_release();
				return rc;
			}
			raise_conduit_mtu(port, tp_dsa_tagger_find(c.tagger));
		}
		rc = tp_host_port_add_if(hps[port], h->sp, h->name, err, sizeof(err));
		if (rc != 0) {
			fwd_err("--host-if %u:%u=%s: %s", h->port, h->sp, h->name, err);
			fwd_host_if_release();
			return rc;
		}
		{
			char name[IFNAMSIZ];

			tp_host_if_name(hps[port], h->sp, name);
			printf("Host interface %s: port %u switch port %u\n", name, port, h->sp);
		}
	}
	if (fwd.opt.nb_host_ifs > 0)
		sync_all(NULL);
	fflush(stdout);
	return 0;
}

void
fwd_host_if_release(void)
{
	rte_eal_alarm_cancel(sync_all, (void *)-1);
	for (unsigned int p = 0; p < RTE_MAX_ETHPORTS; p++) {
		tp_host_port_destroy(hps[p]);
		hps[p] = NULL;
	}
}

uint16_t
fwd_host_if_to_host(struct fwd_stream *fs, struct rte_mbuf **pkts, uint16_t n)
{
	struct tp_host_port *hp = hps[fs->rx_port];

	return hp == NULL ? n : tp_host_port_to_host(hp, fs->rx_queue, pkts, n);
}

void
fwd_host_if_poll(struct fwd_stream *fs)
{
	struct tp_host_port *hp = hps[fs->rx_port];

	if (hp != NULL)
		tp_host_port_from_host(hp, fs->rx_queue, fs->tx_queue);
}

static void
show_one(const struct tp_host_port *hp, unsigned int sp)
{
	struct tp_host_if_stats s;
	char name[IFNAMSIZ];

	if (tp_host_if_name(hp, sp, name) != 0 || tp_host_if_stats_get(hp, sp, &s) != 0)
		return;
	printf("\n  ######## Host interface %s (port %u, switch port %u) ########\n", name,
	       tp_host_port_conduit(hp), sp);
	printf("  To-host-packets: %" PRIu64 "  To-host-frames: %" PRIu64
	       "  To-host-bytes: %" PRIu64 "  To-host-GSO: %" PRIu64 "\n",
	       s.to_host_pkts, s.to_host_frames, s.to_host_bytes, s.to_host_gso);
	printf("  To-host-drop-packets: %" PRIu64 "  To-host-drop-frames: %" PRIu64 "\n",
	       s.to_host_drop_pkts, s.to_host_drop_frames);
	printf("  From-host-packets: %" PRIu64 "  From-host-bytes: %" PRIu64
	       "  From-host-GSO: %" PRIu64 "  From-host-TSO: %" PRIu64 "\n",
	       s.from_host_pkts, s.from_host_bytes, s.from_host_gso, s.from_host_tso);
	printf("  From-host-frames: %" PRIu64 "  From-host-sent: %" PRIu64
	       "  From-host-wire-bytes: %" PRIu64 "  From-host-tag-drop: %" PRIu64
	       "  From-host-tx-full: %" PRIu64 "\n", s.from_host_frames, s.from_host_sent,
	       s.from_host_wire_bytes, s.from_host_tag_drop, s.from_host_tx_full);
	printf("  From-host-drops:");
	for (unsigned int r = 0; r < TP_HOST_IF_DROP_MAX; r++)
		printf(" %s=%" PRIu64, tp_host_if_drop_name(r), s.from_host_drop[r]);
	printf("  Read-errors: %" PRIu64 "  No-mbuf-polls: %" PRIu64 "\n", s.read_errors,
	       s.no_mbuf_polls);
}

void
fwd_host_if_show(void)
{
	unsigned int shown = 0;

	for (unsigned int p = 0; p < RTE_MAX_ETHPORTS; p++) {
		uint8_t sps[256];
		unsigned int n;

		if (hps[p] == NULL)
			continue;
		n = tp_host_port_ifs(hps[p], sps, RTE_DIM(sps));
		for (unsigned int i = 0; i < n; i++, shown++)
			show_one(hps[p], sps[i]);
	}
	if (shown == 0)
		printf("No host interface (--host-if)\n");
	fflush(stdout);
}

/* ---- prompt: show host-if ----------------------------------------------- */

struct show_res {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t what;
};

static cmdline_parse_token_string_t tk_show =
	TOKEN_STRING_INITIALIZER(struct show_res, show, "show");
static cmdline_parse_token_string_t tk_host_if =
	TOKEN_STRING_INITIALIZER(struct show_res, what, "host-if");

static void
do_show(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fwd_host_if_show();
}

cmdline_parse_inst_t fwd_cmd_show_host_if = {
	.f = do_show,
	.data = NULL,
	.help_str = "show host-if: counters of the host interfaces (--host-if)",
	.tokens = { (void *)&tk_show, (void *)&tk_host_if, NULL },
};
