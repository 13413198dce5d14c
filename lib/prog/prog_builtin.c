/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built-in C programs: pass, drop, tx, redirect:N, by-switch-port
 * (contract: tp_prog.h). Each is a static inline per-packet function made
 * into a burst function by TP_PROG_DEFINE; the constant programs skip the
 * context entirely.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ether.h>

#include "prog_priv.h"

/* pass / drop: the verdict does not depend on the packet. */
static void
burst_pass(const struct tp_prog_env *env, struct rte_mbuf **pkts, uint16_t n,
	   uint8_t *verdict, uint32_t *key)
{
	(void)env;
	(void)pkts;
	(void)key;
	memset(verdict, TP_PASS, n);
}

static void
burst_drop(const struct tp_prog_env *env, struct rte_mbuf **pkts, uint16_t n,
	   uint8_t *verdict, uint32_t *key)
{
	(void)env;
	(void)pkts;
	(void)key;
	memset(verdict, TP_DROP, n);
}

const struct tp_prog_ops tp_prog_pass = {
	.name = "pass",
	.usage = "pass  every packet to the application",
	.burst = burst_pass,
};

const struct tp_prog_ops tp_prog_drop = {
	.name = "drop",
	.usage = "drop  every packet dropped",
	.burst = burst_drop,
};

/* tx: swap the MAC addresses and send back out of the ingress port. */
static inline enum tp_verdict
prog_tx(void *priv, struct tp_xdp_md *ctx)
{
	struct rte_ether_addr a;
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)ctx->data;

	(void)priv;
	if (ctx->data + sizeof(*eh) > ctx->data_end)
		return TP_ABORTED;
	rte_ether_addr_copy(&eh->dst_addr, &a);
	rte_ether_addr_copy(&eh->src_addr, &eh->dst_addr);
	rte_ether_addr_copy(&a, &eh->src_addr);
	return TP_TX;
}
TP_PROG_DEFINE(burst_tx, prog_tx)

const struct tp_prog_ops tp_prog_tx = {
	.name = "tx",
	.usage = "tx  swap MAC addresses, send back out of the ingress port",
	.burst = burst_tx,
};

/* redirect:N */
static int
redirect_init(const char *arg, void **priv, char *err, size_t errlen)
{
	unsigned long long v;
	uint32_t *key;
	char *end;

	if (arg == NULL || *arg == '\0') {
		snprintf(err, errlen, "program redirect: needs a map key (redirect:N)");
		return -EINVAL;
	}
	errno = 0;
	v = strtoull(arg, &end, 10);
	/* A key past the largest map could never name an entry. */
	if (errno != 0 || *end != '\0' || arg[0] < '0' || arg[0] > '9' ||
	    v >= TP_REDIRECT_MAP_MAX) {
		snprintf(err, errlen, "program redirect: bad map key '%s' (0..%u)",
			 arg, TP_REDIRECT_MAP_MAX - 1);
		return -EINVAL;
	}
	key = malloc(sizeof(*key));
	if (key == NULL)
		return -ENOMEM;
	*key = (uint32_t)v;
	*priv = key;
	return 0;
}

static void
burst_redirect(const struct tp_prog_env *env, struct rte_mbuf **pkts,
	       uint16_t n, uint8_t *verdict, uint32_t *key)
{
	uint32_t k = *(const uint32_t *)env->priv;

	(void)pkts;
	memset(verdict, TP_REDIRECT, n);
	for (uint16_t i = 0; i < n; i++)
		key[i] = k;
}

const struct tp_prog_ops tp_prog_redirect = {
	.name = "redirect",
	.usage = "redirect:N  every packet to redirect-map entry N",
	.init = redirect_init,
	.fini = free,
	.burst = burst_redirect,
};

/* by-switch-port: the source switch port is the map key. */
static inline enum tp_verdict
prog_by_switch_port(void *priv, struct tp_xdp_md *ctx)
{
	(void)priv;
	if (ctx->switch_port < 0)
		return TP_PASS;
	ctx->redirect_key = (uint32_t)ctx->switch_port;
	return TP_REDIRECT;
}
TP_PROG_DEFINE(burst_by_switch_port, prog_by_switch_port)

const struct tp_prog_ops tp_prog_by_switch_port = {
	.name = "by-switch-port",
	.usage = "by-switch-port  redirect to the entry of the source switch port "
		 "(untagged: pass)",
	.burst = burst_by_switch_port,
};
