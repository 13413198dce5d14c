/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_aqc RSS (docs/ref/aqc.md §6.1): 40-byte Toeplitz key, 64-entry
 * redirection table of queue numbers, hash types in 0x5040. The configuration lives in the
 * adapter and is written to the chip at every start (a start resets it) and
 * at once by the update ops while the port runs.
 *
 * The ethdev hash types reach the hardware layer as its AQC_RSS_T_* flow
 * types; what each generation can tell apart (A1 hashes UDP ports only
 * together with TCP) is the generation table's business (base/aqc_gen.c,
 * base/aqc2_hw.c).
 */
#include <errno.h>
#include <string.h>

#include "aqc_ethdev.h"
#include "aqc_log.h"

/* Default key (any 40 bytes do; this is the widely published Microsoft
 * verification key). */
static const uint8_t aqc_default_rss_key[AQC_RSS_KEY_LEN] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

void
aqc_rss_init(struct aqc_adapter *ad)
{
	memcpy(ad->rss_key, aqc_default_rss_key, sizeof(ad->rss_key));
	ad->rss_hf = 0;
}

/* The ethdev hash types as the hardware layer's flow types (aqc_hw.h);
 * each generation's table writes them its own way (aqc_gen.c, aqc2_hw.c). */
static uint32_t
hw_types(uint64_t hf)
{
	uint32_t t = 0;

	if (hf & RTE_ETH_RSS_IPV4)
		t |= AQC_RSS_T_IPV4;
	if (hf & RTE_ETH_RSS_NONFRAG_IPV4_TCP)
		t |= AQC_RSS_T_IPV4_TCP;
	if (hf & RTE_ETH_RSS_NONFRAG_IPV4_UDP)
		t |= AQC_RSS_T_IPV4_UDP;
	if (hf & RTE_ETH_RSS_IPV6)
		t |= AQC_RSS_T_IPV6;
	if (hf & RTE_ETH_RSS_NONFRAG_IPV6_TCP)
		t |= AQC_RSS_T_IPV6_TCP;
	if (hf & RTE_ETH_RSS_NONFRAG_IPV6_UDP)
		t |= AQC_RSS_T_IPV6_UDP;
	return t;
}

static int
set_conf(struct aqc_adapter *ad, const struct rte_eth_rss_conf *c)
{
	if (c->rss_hf & ~AQC_RSS_HF) {
		AQC_LOG(ERR, DRIVER, "RSS hash types 0x%" PRIx64 " not supported (supported 0x%" PRIx64 ")",
			c->rss_hf & ~AQC_RSS_HF, (uint64_t)AQC_RSS_HF);
		return -EINVAL;
	}
	if (c->rss_key != NULL) {
		if (c->rss_key_len != AQC_RSS_KEY_LEN) {
			AQC_LOG(ERR, DRIVER, "RSS key length %u: must be %u", c->rss_key_len,
				AQC_RSS_KEY_LEN);
			return -EINVAL;
		}
		memcpy(ad->rss_key, c->rss_key, AQC_RSS_KEY_LEN);
	}
	ad->rss_hf = c->rss_hf;
	return 0;
}

int
aqc_rss_configure(struct rte_eth_dev *dev)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	const struct rte_eth_conf *c = &dev->data->dev_conf;
	uint16_t nq = RTE_MAX(dev->data->nb_rx_queues, 1);

	for (unsigned int i = 0; i < AQC_RSS_RETA_SIZE; i++)
		ad->reta[i] = i % nq;
	if (!(c->rxmode.mq_mode & RTE_ETH_MQ_RX_RSS_FLAG)) {
		ad->rss_hf = 0;
		return 0;
	}
	return set_conf(ad, &c->rx_adv_conf.rss_conf);
}

int
aqc_rss_apply(struct rte_eth_dev *dev)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);

	if (ad->rss_hf == 0) {
		aqc_ops(&ad->hw)->rss_disable(&ad->hw);
		return 0;
	}
	return aqc_ops(&ad->hw)->rss_apply(&ad->hw, hw_types(ad->rss_hf), ad->rss_key, ad->reta);
}

int
aqc_rss_hash_update(struct rte_eth_dev *dev, struct rte_eth_rss_conf *c)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);
	int rc = set_conf(ad, c);

	if (rc == 0 && ad->started)
		rc = aqc_rss_apply(dev);
	return rc;
}

int
aqc_rss_hash_conf_get(struct rte_eth_dev *dev, struct rte_eth_rss_conf *c)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);

	if (c->rss_key != NULL) {
		if (c->rss_key_len < AQC_RSS_KEY_LEN)
			return -EINVAL;
		memcpy(c->rss_key, ad->rss_key, AQC_RSS_KEY_LEN);
	}
	c->rss_key_len = AQC_RSS_KEY_LEN;
	c->rss_hf = ad->rss_hf;
	return 0;
}

int
aqc_rss_reta_update(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *conf,
		    uint16_t size)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);

	if (size != AQC_RSS_RETA_SIZE) {
		AQC_LOG(ERR, DRIVER, "RETA size %u: must be %u", size, AQC_RSS_RETA_SIZE);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < AQC_RSS_RETA_SIZE; i++) {
		if (!(conf[0].mask & (1ull << i)))
			continue;
		if (conf[0].reta[i] >= RTE_MAX(dev->data->nb_rx_queues, 1) ||
		    conf[0].reta[i] >= AQC_MAX_QUEUES) {
			AQC_LOG(ERR, DRIVER, "RETA entry %u: queue %u does not exist", i,
				conf[0].reta[i]);
			return -EINVAL;
		}
	}
	for (unsigned int i = 0; i < AQC_RSS_RETA_SIZE; i++)
		if (conf[0].mask & (1ull << i))
			ad->reta[i] = (uint8_t)conf[0].reta[i];
	return ad->started && ad->rss_hf != 0 ? aqc_rss_apply(dev) : 0;
}

int
aqc_rss_reta_query(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *conf,
		   uint16_t size)
{
	struct aqc_adapter *ad = AQC_ADAPTER(dev);

	if (size != AQC_RSS_RETA_SIZE)
		return -EINVAL;
	for (unsigned int i = 0; i < AQC_RSS_RETA_SIZE; i++)
		if (conf[0].mask & (1ull << i))
			conf[0].reta[i] = ad->reta[i];
	return 0;
}
