/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc_sim: the net_aqc driver on the AQC chip model.
 *
 * The vdev creates a chip model (model/aqc_model.h) from its devargs, points
 * the adapter's BAR0 at the model's register file and runs the very same
 * aqc_dev_init() the PCI probe runs. Descriptor addresses are IOVAs; the
 * model dereferences them in IOVA-as-VA mode and translates them through the
 * EAL memory segments in IOVA-as-PA mode (dma=auto), so both work.
 *
 * Devargs: model=aqc107|aqc113 (chip generation A1 or A2, default aqc107),
 * wire=loop|pcap|peer|none, rx_pcap=FILE, tx_pcap=FILE (wire=pcap),
 * peer=NAME (required with wire=peer; both ends name each other),
 * mac=XX:XX:XX:XX:XX:XX,
 * link_speed=10M|100M|1G|2.5G|5G|10G (the highest rate; 10M only on aqc113),
 * fw=2.x|3.x|MAJOR.MINOR.BUILD, mode=thread|step, dma=auto|direct|translate,
 * rx_start=poll|link|now and rx_delay_ms=0..60000 (wire=pcap: when rx_pcap
 * starts; FEATURES.md says what each means),
 * fw_fault=none|boot_hang|init_fail|hostboot|no_ack|torn|art_sem (aqc113),
 * none|mute (aqc107).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bus_vdev_driver.h>
#include <ethdev_vdev.h>
#include <rte_eal.h>

#include "aqc_ethdev.h"
#include "aqc_log.h"
#include "model/aqc_model.h"
#include "aqc2_regs.h"

#define AQC_SIM_KEYS "model, wire, rx_pcap, tx_pcap, peer, mac, link_speed, fw, mode, dma, " \
	"rx_start, rx_delay_ms, fw_fault, sfp"

static int
bad(const char *dev, const char *key, const char *val, const char *why)
{
	AQC_LOG(ERR, INIT, "%s: bad devarg %s=%s: %s", dev, key, val, why);
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
		char *end;
		unsigned long v = strtoul(val, &end, 10);

		if (val[0] < '0' || val[0] > '9' || *end != '\0' || v > AQC_RX_DELAY_MS_MAX)
			return bad(dev, key, val, "expected milliseconds, 0..60000");
		c->rx_delay_ms = (uint32_t)v;
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
		AQC_LOG(ERR, INIT, "%s: unknown devarg '%s' (known: " AQC_SIM_KEYS ")",
			dev, key);
		return -EINVAL;
	}
	return 0;
}

/* "k=v,k=v": every key known, every value valid, combinations coherent. */
static int
parse_devargs(struct aqc_model_config *c, const char *dev, const char *args,
	      bool *dma_auto)
{
	char *copy, *save = NULL, *tok;
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
			AQC_LOG(ERR, INIT, "%s: devarg '%s' has no value (key=value)", dev, tok);
			rc = -EINVAL;
			break;
		}
		*eq = '\0';
		rc = parse_one(c, dev, tok, eq + 1, dma_auto);
	}
	free(copy);
	if (rc != 0)
		return rc;
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

static void
close_model(void *arg)
{
	aqc_model_destroy(arg);
}

/* The model's own counts of frames the wire offered that never reached a
 * ring, and of DMA faults: what a user needs to see why a capture did not
 * come out (the chip itself shows filtered frames only as MAC counters above
 * the DMA ones, doc 3.1 / 8). */
static unsigned int
model_xstats(void *arg, struct rte_eth_xstat_name *names, uint64_t *values)
{
	static const char *const n[] = {
		"model_rx_l2_filtered", "model_rx_ring_disabled", "model_rx_ring_full",
		"model_dma_faults", "model_tx_errors", "model_pcap_frames_read",
		"model_faults_injected",
	};
	struct aqc_model_counters c;

	RTE_BUILD_BUG_ON(RTE_DIM(n) > AQC_XSTATS_EXTRA_MAX);
	if (names != NULL)
		for (unsigned int i = 0; i < RTE_DIM(n); i++)
			snprintf(names[i].name, sizeof(names[i].name), "%s", n[i]);
	if (values != NULL) {
		aqc_model_get_counters(arg, &c);
		values[0] = c.rx_filtered;
		values[1] = c.rx_disabled;
		values[2] = c.rx_ring_full;
		values[3] = c.dma_faults;
		values[4] = c.tx_errors;
		values[5] = c.pcap_in;
		values[6] = c.faults_injected;
	}
	return RTE_DIM(n);
}

static void
rx_polled(void *arg)
{
	aqc_model_rx_polled(arg);
}

static int
aqc_sim_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct aqc_model_config cfg;
	struct aqc_model *model;
	struct rte_eth_dev *dev;
	struct aqc_adapter *ad;
	size_t nl = strlen(name);
	bool dma_auto;
	int rc;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		AQC_LOG(ERR, INIT, "%s: the chip model lives in the primary process", name);
		return -ENOTSUP;
	}
	aqc_model_config_default(&cfg, name);
	dma_auto = true;
	/* default MAC 02:00:ac:00:00:<trailing number of the name> */
	while (nl > 0 && name[nl - 1] >= '0' && name[nl - 1] <= '9')
		nl--;
	cfg.mac[5] = (uint8_t)atoi(name + nl);
	rc = parse_devargs(&cfg, name, rte_vdev_device_args(vdev), &dma_auto);
	if (rc != 0)
		return rc;
	/* dma=auto: a device without an IOMMU sees what the EAL hands out as
	 * IOVAs, physical addresses in IOVA-as-PA mode (hugepages, no vfio) */
	if (dma_auto)
		cfg.dma = rte_eal_iova_mode() == RTE_IOVA_PA ? AQC_DMA_TRANSLATE :
							      AQC_DMA_DIRECT;
	model = aqc_model_create(&cfg, &rc);
	if (model == NULL)
		return rc;
	dev = rte_eth_vdev_allocate(vdev, sizeof(struct aqc_adapter));
	if (dev == NULL) {
		aqc_model_destroy(model);
		return -ENOMEM;
	}
	ad = AQC_ADAPTER(dev);
	ad->hw.bar0 = aqc_model_bar(model);
	ad->close_hook = close_model;
	ad->close_arg = model;
	ad->rx_poll_hook = rx_polled;
	ad->xstats_extra = model_xstats;
	rc = aqc_dev_init(dev);
	if (rc != 0) {
		ad->close_hook = NULL;
		rte_eth_dev_release_port(dev);
		aqc_model_destroy(model);
		return rc;
	}
	rte_eth_dev_probing_finish(dev);
	return 0;
}

static int
aqc_sim_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev = rte_eth_dev_allocated(rte_vdev_device_name(vdev));

	if (dev == NULL)
		return 0;
	if (dev->data->dev_started)
		rte_eth_dev_stop(dev->data->port_id);
	return rte_eth_dev_close(dev->data->port_id);
}

static struct rte_vdev_driver aqc_sim_driver = {
	.probe = aqc_sim_probe,
	.remove = aqc_sim_remove,
};

RTE_PMD_REGISTER_VDEV(net_aqc_sim, aqc_sim_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_aqc_sim,
	"model=aqc107|aqc113 wire=loop|pcap|peer|none rx_pcap=<file> tx_pcap=<file> "
	"peer=<name> mac=<xx:xx:xx:xx:xx:xx> link_speed=10M|100M|1G|2.5G|5G|10G "
	"fw=2.x|3.x|<major.minor.build> mode=thread|step dma=auto|direct|translate "
	"rx_start=poll|link|now rx_delay_ms=<0..60000> "
	"fw_fault=none|boot_hang|init_fail|hostboot|no_ack|torn|art_sem|mute");
