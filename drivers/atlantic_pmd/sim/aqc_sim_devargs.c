/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc_sim devargs: the "k=v,k=v" text of the vdev into a chip model
 * configuration (aqc_sim_devargs.h). Apart from the probe so that it can
 * be fuzzed on its own (tests/fuzz/fuzz_devargs.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "aqc2_regs.h"
#include "aqc_sim_devargs.h"
#include "aqc_sim_log.h"

RTE_LOG_REGISTER_SUFFIX(aqc_sim_logtype, sim, NOTICE);

#define AQC_SIM_KEYS "model, wire, rx_pcap, tx_pcap, peer, mac, link_speed, fw, mode, dma, " \
	"rx_start, rx_delay_ms, rx_loops, faults, fault_seed, fw_fault, sfp"

static int
bad(const char *dev, const char *key, const char *val, const char *why)
{
	AQC_SIM_LOG(ERR, "%s: bad devarg %s=%s: %s", dev, key, val, why);
	return -EINVAL;
}

static int
parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char end;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5], &end) != 6)
		return -1;
	for (int i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -1;
		mac[i] = (uint8_t)b[i];
	}
	return (mac[0] & 1) || (mac[0] | mac[1] | mac[2] | mac[3] | mac[4] | mac[5]) == 0 ?
	       -1 : 0;
}

static int
parse_speed(const char *s, uint32_t *rates)
{
	static const struct { const char *name; uint32_t rates; } t[] = {
		{ "10M", AQC_RATE_10M },
		{ "100M", AQC_RATE_100M },
		{ "1G", AQC_RATE_100M | AQC_RATE_1G },
		{ "2.5G", AQC_RATE_100M | AQC_RATE_1G | AQC_RATE_2G5 },
		{ "5G", AQC_RATE_100M | AQC_RATE_1G | AQC_RATE_2G5 | AQC_RATE_5G },
		{ "10G", AQC_RATE_ALL },
	};

	for (unsigned int i = 0; i < RTE_DIM(t); i++) {
		if (strcmp(s, t[i].name) == 0) {
			*rates = t[i].rates;
			return 0;
		}
	}
	return -1;
}

static int
parse_fw(const char *s, uint32_t *ver)
{
	unsigned int maj, min, build;
	char end;

	if (strcmp(s, "3.x") == 0) {
		*ver = 0x0301003a;
		return 0;
	}
	if (strcmp(s, "2.x") == 0) {
		*ver = 0x020f0017;
		return 0;
	}
	if (sscanf(s, "%u.%u.%u%c", &maj, &min, &build, &end) != 3 ||
	    maj == 0 || maj > 0xff || min > 0xff || build > 0xffff)
		return -1;
	*ver = maj << 24 | min << 16 | build;
	return 0;
}

static int
set_path(char *dst, size_t size, const char *dev, const char *key, const char *val)
{
	if (val[0] == '\0' || strlen(val) >= size)
		return bad(dev, key, val, "empty or too long path");
	memcpy(dst, val, strlen(val) + 1);
	return 0;
}

/* sfp=FILE: the plugged module's EEPROM as "ethtool -m DEV raw on" dumps
 * it: 256 bytes (the A0h page) or 512 (A0h then the A2h page). */
static int
load_sfp(struct aqc_model_config *c, const char *dev, const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (f == NULL)
		return bad(dev, "sfp", path, strerror(errno));
	memset(c->sfp, 0xff, sizeof(c->sfp));   /* an absent A2h page reads as erased */
	n = fread(c->sfp, 1, sizeof(c->sfp), f);
	if (n == sizeof(c->sfp) && fgetc(f) != EOF)
		n++;
	fclose(f);
	if (n != 256 && n != 512)
		return bad(dev, "sfp", path, "expected a 256- or 512-byte module EEPROM image");
	c->sfp_present = true;
	return 0;
}

/* A decimal number in 0..max, nothing else (no sign, no space, no suffix). */
static int
parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || x > max)
		return -EINVAL;
	*v = x;
	return 0;
}

static const char *const fault_names[] = {
	[AQC_FW_OK] = "none", [AQC_FW_BOOT_HANG] = "boot_hang",
	[AQC_FW_INIT_FAIL] = "init_fail", [AQC_FW_HOSTBOOT] = "hostboot",
	[AQC_FW_NO_ACK] = "no_ack", [AQC_FW_TORN] = "torn",
	[AQC_FW_ART_SEM_BUSY] = "art_sem", [AQC_FW_MUTE] = "mute",
};

static int
parse_one(struct aqc_model_config *c, const char *dev, const char *key,
	  const char *val, bool *dma_auto)
{
	if (strcmp(key, "model") == 0) {
		if (strcmp(val, "aqc107") == 0)
			c->gen = AQC_MODEL_AQC107;
		else if (strcmp(val, "aqc113") == 0)
			c->gen = AQC_MODEL_AQC113;
		else
			return bad(dev, key, val, "expected aqc107 (A1) or aqc113 (A2)");
	} else if (strcmp(key, "fw_fault") == 0) {
		unsigned int i;

		for (i = 0; i < RTE_DIM(fault_names) && strcmp(val, fault_names[i]) != 0; i++)
			;
		if (i == RTE_DIM(fault_names))
			return bad(dev, key, val, "expected none, boot_hang, init_fail, hostboot, "
				   "no_ack, torn, art_sem (aqc113) or mute (aqc107)");
		c->fw_fault = (enum aqc_model_fw_fault)i;
	} else if (strcmp(key, "wire") == 0) {
		if (strcmp(val, "loop") == 0)
			c->wire = AQC_WIRE_LOOP;
		else if (strcmp(val, "pcap") == 0)
			c->wire = AQC_WIRE_PCAP;
		else if (strcmp(val, "peer") == 0)
			c->wire = AQC_WIRE_PEER;
		else if (strcmp(val, "none") == 0)
			c->wire = AQC_WIRE_NONE;
		else
			return bad(dev, key, val, "expected loop, pcap, peer or none");
	} else if (strcmp(key, "rx_pcap") == 0) {
		return set_path(c->rx_pcap, sizeof(c->rx_pcap), dev, key, val);
	} else if (strcmp(key, "tx_pcap") == 0) {
		return set_path(c->tx_pcap, sizeof(c->tx_pcap), dev, key, val);
	} else if (strcmp(key, "peer") == 0) {
		if (val[0] == '\0' || strlen(val) >= sizeof(c->peer) || strcmp(val, dev) == 0)
			return bad(dev, key, val, "expected the name of another net_aqc_sim port");
		memcpy(c->peer, val, strlen(val) + 1);
	} else if (strcmp(key, "mac") == 0) {
		if (parse_mac(val, c->mac) != 0)
			return bad(dev, key, val, "expected a unicast XX:XX:XX:XX:XX:XX");
	} else if (strcmp(key, "link_speed") == 0) {
		if (parse_speed(val, &c->rates) != 0)
			return bad(dev, key, val, "expected 10M, 100M, 1G, 2.5G, 5G or 10G");
	} else if (strcmp(key, "fw") == 0) {
		if (parse_fw(val, &c->fw_version) != 0)
			return bad(dev, key, val, "expected 2.x, 3.x or MAJOR.MINOR.BUILD");
	} else if (strcmp(key, "dma") == 0) {
		*dma_auto = strcmp(val, "auto") == 0;
		if (strcmp(val, "direct") == 0)
			c->dma = AQC_DMA_DIRECT;
		else if (strcmp(val, "translate") == 0)
			c->dma = AQC_DMA_TRANSLATE;
		else if (!*dma_auto)
			return bad(dev, key, val, "expected auto, direct or translate");
	} else if (strcmp(key, "rx_start") == 0) {
		if (strcmp(val, "poll") == 0)
			c->rx_start = AQC_RX_START_POLL;
		else if (strcmp(val, "link") == 0)
			c->rx_start = AQC_RX_START_LINK;
		else if (strcmp(val, "now") == 0)
			c->rx_start = AQC_RX_START_NOW;
		else
			return bad(dev, key, val, "expected poll, link or now");
	} else if (strcmp(key, "rx_delay_ms") == 0) {
		uint64_t v;

		if (parse_u64(val, AQC_RX_DELAY_MS_MAX, &v) != 0)
			return bad(dev, key, val, "expected milliseconds, 0..60000");
		c->rx_delay_ms = (uint32_t)v;
	} else if (strcmp(key, "rx_loops") == 0) {
		uint64_t v;

		if (parse_u64(val, UINT32_MAX, &v) != 0)
			return bad(dev, key, val, "expected the plays of rx_pcap, 1..4294967295, "
				   "or 0 (without end)");
		c->rx_loops = (uint32_t)v;
	} else if (strcmp(key, "faults") == 0) {
		uint64_t v;

		if (parse_u64(val, AQC_FAULT_EVERY_MAX, &v) != 0)
			return bad(dev, key, val, "expected the mean frames between random faults, "
				   "1..1000000000, or 0 (none)");
		c->fault_every = (uint32_t)v;
	} else if (strcmp(key, "fault_seed") == 0) {
		if (parse_u64(val, UINT64_MAX, &c->fault_seed) != 0)
			return bad(dev, key, val, "expected an unsigned 64-bit seed");
	} else if (strcmp(key, "sfp") == 0) {
		return load_sfp(c, dev, val);
	} else if (strcmp(key, "mode") == 0) {
		if (strcmp(val, "thread") == 0)
			c->step_mode = false;
		else if (strcmp(val, "step") == 0)
			c->step_mode = true;
		else
			return bad(dev, key, val, "expected thread or step");
	} else {
		AQC_SIM_LOG(ERR, "%s: unknown devarg '%s' (known: " AQC_SIM_KEYS ")",
			    dev, key);
		return -EINVAL;
	}
	return 0;
}

/* The combinations: rates and firmware from the generation, paths and a
 * peer only with their wire. loops: rx_loops's value as given, or NULL. */
static int
check_coherent(struct aqc_model_config *c, const char *dev, const char *loops)
{
	if (c->gen == AQC_MODEL_AQC107) {
		struct aqc_model_config d;

		aqc_model_config_default(&d, dev);
		if (c->rates & AQC_RATE_10M)
			return bad(dev, "link_speed", "10M", "the aqc107 (A1) has no 10M rate");
		if (c->fw_fault != AQC_FW_OK && c->fw_fault != AQC_FW_MUTE)
			return bad(dev, "fw_fault", fault_names[c->fw_fault],
				   "this firmware fault exists on model=aqc113 only");
		c->rates = c->rates ? c->rates : d.rates;
		c->fw_version = c->fw_version ? c->fw_version : d.fw_version;
	} else {
		struct aqc_model_config d = *c;

		if (c->fw_fault == AQC_FW_MUTE)
			return bad(dev, "fw_fault", "mute",
				   "exists on model=aqc107 only (aqc113: no_ack)");
		aqc_model_config_a2(&d);
		/* link_speed names the highest rate; A2 also has 10M below */
		c->rates = c->rates ? c->rates | AQC_RATE_10M : d.rates;
		c->fw_version = c->fw_version ? c->fw_version : d.fw_version;
	}
	if ((c->rx_pcap[0] || c->tx_pcap[0]) && c->wire != AQC_WIRE_PCAP)
		return bad(dev, c->rx_pcap[0] ? "rx_pcap" : "tx_pcap",
			   c->rx_pcap[0] ? c->rx_pcap : c->tx_pcap, "needs wire=pcap");
	if (c->rx_loops != 1 && !c->rx_pcap[0])
		return bad(dev, "rx_loops", loops, "needs wire=pcap and rx_pcap=FILE");
	if (c->peer[0] && c->wire != AQC_WIRE_PEER)
		return bad(dev, "peer", c->peer, "needs wire=peer");
	/* Both ends name each other: a cable with a missing end (a typo in the
	 * other port's name, or that port never created) would otherwise pass
	 * for a port that simply receives nothing. */
	if (c->wire == AQC_WIRE_PEER && !c->peer[0])
		return bad(dev, "wire", "peer", "needs peer=NAME, the other net_aqc_sim port "
			   "(wire is one of loop, pcap, peer, none)");
	if (c->sfp_present && c->gen != AQC_MODEL_AQC107)
		return bad(dev, "model", "aqc113", "sfp= needs model=aqc107: the A2 model has no SMBus service");
	return 0;
}

/* "k=v,k=v": every key known, every value valid, combinations coherent. */
int
aqc_sim_parse_devargs(struct aqc_model_config *c, const char *dev, const char *args,
	      bool *dma_auto)
{
	char *copy, *save = NULL, *tok;
	const char *loops = NULL;
	int rc = 0;

	if (args == NULL || args[0] == '\0')
		return 0;
	/* 0 = not given: the generation's default is filled in below */
	c->rates = 0;
	c->fw_version = 0;
	copy = strdup(args);
	if (copy == NULL)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok != NULL && rc == 0;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (eq == NULL) {
			AQC_SIM_LOG(ERR, "%s: devarg '%s' has no value (key=value)", dev, tok);
			rc = -EINVAL;
			break;
		}
		*eq = '\0';
		rc = parse_one(c, dev, tok, eq + 1, dma_auto);
		if (strcmp(tok, "rx_loops") == 0)
			loops = eq + 1;
	}
	if (rc == 0)
		rc = check_coherent(c, dev, loops);
	free(copy);
	return rc;
}
