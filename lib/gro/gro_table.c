/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tp_gro table: creation and destruction, the flush calls and the
 * counters. The flow entries' bookkeeping is gro_flows.c's.
 */
#include <errno.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cpuflags.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf_dyn.h>
#include <rte_vect.h>

#include "gro_priv.h"
#include "gro_dsa.h"
#include "tp_logtype.h"

#define X_NAME(e, s) s,
const char *const tp_gro_flush_reason_names[TP_GRO_FLUSH_MAX] = {
	TP_GRO_FLUSH_REASONS(X_NAME)
};
const char *const tp_gro_pass_reason_names[TP_GRO_PASS_MAX] = {
	TP_GRO_PASS_REASONS(X_NAME)
};
#undef X_NAME

/* The library's log type (tp_logtype.h). */
TP_LOGTYPE_DEFINE(tp_gro_logtype, "tagpipe.gro")

#define GRO_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, tp_gro_logtype, "tp_gro: " fmt "\n", ##__VA_ARGS__)

uint64_t
tp_gro_usec_to_tsc(uint64_t usec)
{
	return usec * rte_get_tsc_hz() / 1000000;
}

uint64_t
gro_ofixedid_flag(void)
{
	static const struct rte_mbuf_dynflag desc = { .name = TP_GRO_DYNFLAG_FIXEDID_OUTER };
	int bit = rte_mbuf_dynflag_lookup(TP_GRO_DYNFLAG_FIXEDID_OUTER, NULL);

	if (bit < 0)
		bit = rte_mbuf_dynflag_register(&desc);
	return bit < 0 ? 0 : RTE_BIT64(bit);
}

uint64_t
gro_fixedid_flag(void)
{
	static const struct rte_mbuf_dynflag desc = { .name = TP_GRO_DYNFLAG_FIXEDID };
	int bit = rte_mbuf_dynflag_lookup(TP_GRO_DYNFLAG_FIXEDID, NULL);

	if (bit < 0)
		bit = rte_mbuf_dynflag_register(&desc);
	return bit < 0 ? 0 : RTE_BIT64(bit);
}

static int fast_avx2_allowed = 1;

void
gro_fast_select_avx2(int on)
{
	fast_avx2_allowed = on;
}

/* AVX2 for the fast path's compare: the CPU has it and the EAL allows
 * 256-bit vectors (--force-max-simd-bitwidth, DPDK's knob for every
 * vector path). */
static uint8_t
fast_wide_ok(void)
{
#ifdef GRO_HAVE_WIDE
	return fast_avx2_allowed && rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX2) > 0 &&
	       rte_vect_get_max_simd_bitwidth() >= RTE_VECT_SIMD_256;
#else
	return 0;
#endif
}

struct tp_gro *
tp_gro_create(const struct tp_gro_conf *conf)
{
	struct tp_gro_conf c = { 0 };
	struct tp_gro *g;
	uint32_t nb_buckets, i;
	int socket;

	if (conf != NULL)
		c = *conf;
	else
		c.socket_id = SOCKET_ID_ANY;
	if (c.max_flows == 0)
		c.max_flows = 1024;
	if (c.max_flows > GRO_MAX_FLOWS) {
		GRO_LOG(ERR, "max_flows %u out of range 1..%u", c.max_flows, GRO_MAX_FLOWS);
		rte_errno = EINVAL;
		return NULL;
	}
	if (c.max_segs == 1) {
		GRO_LOG(ERR, "max_segs 1 out of range (0 or 2..65535)");
		rte_errno = EINVAL;
		return NULL;
	}
	if (c.max_ip_len != 0 && (c.max_ip_len < 128 || c.max_ip_len > 65535)) {
		GRO_LOG(ERR, "max_ip_len %u out of range 128..65535", c.max_ip_len);
		rte_errno = EINVAL;
		return NULL;
	}
	if (c.mode != TP_GRO_MODE_BURST && c.mode != TP_GRO_MODE_AGE) {
		GRO_LOG(ERR, "mode %d is neither burst (0) nor age (1)", (int)c.mode);
		rte_errno = EINVAL;
		return NULL;
	}
	if (c.order != TP_GRO_ORDER_FLOW && c.order != TP_GRO_ORDER_KERNEL) {
		GRO_LOG(ERR, "order %d is neither flow (0) nor kernel (1)", (int)c.order);
		rte_errno = EINVAL;
		return NULL;
	}
	if ((c.tunnels & ~TP_GRO_TUN_ALL) != 0) {
		GRO_LOG(ERR, "tunnels 0x%x has unknown bits (known: 0x%x)", c.tunnels,
			TP_GRO_TUN_ALL);
		rte_errno = EINVAL;
		return NULL;
	}
	if (c.udp != 0 && c.udp != 1) {
		GRO_LOG(ERR, "udp %d is neither 0 nor 1", c.udp);
		rte_errno = EINVAL;
		return NULL;
	}
	/* the fast path's lines of a flow (gro_priv.h) */
	RTE_BUILD_BUG_ON(offsetof(struct gro_flow, tmpl) != RTE_CACHE_LINE_MIN_SIZE);
	RTE_BUILD_BUG_ON(offsetof(struct gro_flow, tmpl_hi) != 3 * RTE_CACHE_LINE_MIN_SIZE);
	socket = c.socket_id;
	/* one bucket per flow on average, so 8-slot buckets rarely fill */
	nb_buckets = c.order == TP_GRO_ORDER_KERNEL ? GRO_KERNEL_BUCKETS :
		     rte_align32pow2(c.max_flows);
	g = rte_zmalloc_socket("tp_gro", sizeof(*g), RTE_CACHE_LINE_SIZE, socket);
	if (g == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	g->conf = c;
	g->max_ip_len = c.max_ip_len ? c.max_ip_len : 65535;
	g->max_segs = c.max_segs ? c.max_segs : UINT32_MAX;
	g->bucket_mask = nb_buckets - 1;
	g->nb_flows = c.max_flows;
	g->age_head = g->age_tail = GRO_NIL;
	g->last = GRO_NIL;
	g->ghost = GRO_NIL;
	g->kernel = c.order == TP_GRO_ORDER_KERNEL;
	g->wide = fast_wide_ok();
	g->st.sw_csum_off = c.no_sw_csum != 0;
	g->dsa_off = gro_dsa_offset();
	if (g->dsa_off < 0) {
		int err = -g->dsa_off;

		GRO_LOG(ERR, "cannot register the switch-port metadata field: %s",
			rte_strerror(err));
		rte_free(g);
		rte_errno = err;
		return NULL;
	}
	g->fixedid_flag = gro_fixedid_flag();
	g->ofixedid_flag = gro_ofixedid_flag();
	g->tun_vxlan = (c.tunnels & TP_GRO_TUN_VXLAN) != 0;
	g->tun_ipip = (c.tunnels & TP_GRO_TUN_IPIP) != 0;
	g->udp = c.udp != 0;
	g->tun_geneve = (c.tunnels & TP_GRO_TUN_GENEVE) != 0;
	g->encap = g->tun_vxlan || g->tun_ipip || g->tun_geneve || g->udp;
	for (i = 0; i < TP_GRO_VXLAN_PORTS_MAX; i++) {
		uint32_t j;

		if (c.vxlan_ports[i] == 0)
			continue;
		for (j = 0; j < g->nb_vxlan_ports; j++)
			if (g->vxlan_ports[j] == rte_cpu_to_be_16(c.vxlan_ports[i]))
				break;
		if (j == g->nb_vxlan_ports)
			g->vxlan_ports[g->nb_vxlan_ports++] = rte_cpu_to_be_16(c.vxlan_ports[i]);
	}
	if (g->nb_vxlan_ports == 0)
		g->vxlan_ports[g->nb_vxlan_ports++] = rte_cpu_to_be_16(TP_GRO_VXLAN_PORT_DEFAULT);
	g->buckets = rte_zmalloc_socket("tp_gro_b", sizeof(*g->buckets) * nb_buckets,
					RTE_CACHE_LINE_SIZE, socket);
	g->flows = rte_zmalloc_socket("tp_gro_f", sizeof(*g->flows) * c.max_flows,
				      RTE_CACHE_LINE_SIZE, socket);
	g->free_stack = rte_zmalloc_socket("tp_gro_s", sizeof(uint16_t) * c.max_flows,
					   RTE_CACHE_LINE_SIZE, socket);
	if (g->buckets == NULL || g->flows == NULL || g->free_stack == NULL ||
	    g->fixedid_flag == 0 || g->ofixedid_flag == 0) {
		tp_gro_destroy(g);
		rte_errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < c.max_flows; i++)
		g->free_stack[i] = (uint16_t)(c.max_flows - 1 - i);
	g->nb_free = c.max_flows;
	g->mem = sizeof(*g) + sizeof(*g->buckets) * nb_buckets +
		 sizeof(*g->flows) * c.max_flows + sizeof(uint16_t) * c.max_flows;
	GRO_LOG(DEBUG, "table: %s mode, %s order, %u flows, max_segs %u, %zu bytes, "
		"%s header compare, tunnels 0x%x, udp %d", c.mode == TP_GRO_MODE_AGE ? "age" : "burst",
		g->kernel ? "kernel" : "flow", c.max_flows, c.max_segs, g->mem,
		g->wide ? "AVX2" : "16-byte", c.tunnels, c.udp);
	return g;
}

void
tp_gro_destroy(struct tp_gro *g)
{
	if (g == NULL)
		return;
	if (g->flows != NULL) {
		while (g->age_head != GRO_NIL) {
			uint16_t idx = g->age_head;
			struct rte_mbuf *h = g->flows[idx].head;

			gro_flow_unlink(g, idx);
			/* the chain is linked; head counters not fixed yet */
			h->nb_segs = 1;
			rte_pktmbuf_free(h);
		}
	}
	rte_free(g->free_stack);
	rte_free(g->flows);
	rte_free(g->buckets);
	rte_free(g);
}

size_t
tp_gro_memory(const struct tp_gro *g)
{
	return g->mem;
}

uint16_t
tp_gro_flush(struct tp_gro *g, uint64_t now_tsc, struct rte_mbuf **out, uint16_t max)
{
	uint16_t n = 0;

	while (n < max && g->age_head != GRO_NIL &&
	       g->flows[g->age_head].start_tsc + g->conf.age_tsc <= now_tsc)
		out[n++] = gro_complete(g, g->age_head, TP_GRO_FLUSH_AGE);
	g->st.pkts_out += n;
	return n;
}

uint16_t
tp_gro_flush_all(struct tp_gro *g, struct rte_mbuf **out, uint16_t max)
{
	uint16_t n = 0;

	while (n < max && g->age_head != GRO_NIL)
		out[n++] = gro_complete(g, g->age_head, TP_GRO_FLUSH_ALL);
	g->st.pkts_out += n;
	return n;
}

uint32_t
tp_gro_held(const struct tp_gro *g)
{
	return g->held_segs;
}

uint32_t
tp_gro_held_flows(const struct tp_gro *g)
{
	return g->held_flows;
}

void
tp_gro_stats_get(const struct tp_gro *g, struct tp_gro_stats *st)
{
	*st = g->st;
}

void
tp_gro_stats_reset(struct tp_gro *g)
{
	int off = g->st.sw_csum_off;

	memset(&g->st, 0, sizeof(g->st));
	g->st.sw_csum_off = off;
}
