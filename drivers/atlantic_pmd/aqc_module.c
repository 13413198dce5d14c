/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Plugged SFP module: rte_eth_dev_get_module_info / _get_module_eeprom
 * through the firmware's SMBus service (aqc_fw_smbus.c; A1 FW >= 3.1.37).
 *
 * Which map the module offers follows SFF-8472 Rev 12.3 (section 8.1 and
 * table 8-3): byte 94 "SFF-8472 compliance" 0 = the A2h diagnostics page
 * is not defined; byte 92 bit 2 "address change required" = A2h cannot be
 * read at 0x51 as is. Either case: SFF-8079, the 256-byte A0h page alone;
 * otherwise SFF-8472, A0h then A2h (512 bytes), A2h at offsets 256..511.
 */
#include <errno.h>

#include "aqc_ethdev.h"
#include "aqc_log.h"

#define SFF_DIAG_TYPE 92u            /* SFF-8472 A0h byte 92 */
#define SFF_DIAG_ADDR_CHANGE 0x04u   /* its bit 2 */
#define SFF_8472_COMPLIANCE 94u      /* A0h byte 94 */

static int
module_read(struct aqc_hw *hw, uint32_t off, uint8_t *buf, uint32_t len)
{
	if (aqc_ops(hw)->sfp_read == NULL)
		return -ENOTSUP;
	return aqc_ops(hw)->sfp_read(hw, AQC_SFP_ADDR_A0, off, buf, len);
}

int
aqc_get_module_info(struct rte_eth_dev *dev, struct rte_eth_dev_module_info *mi)
{
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;
	uint8_t b[3];
	int rc = module_read(hw, SFF_DIAG_TYPE, b, sizeof(b));

	/* -EIO: the firmware got no answer from 0x50, i.e. no module is
	 * plugged (or a copper port has none). The ethdev callers (testpmd's
	 * "show port N module_eeprom", dpdk-telemetry) read -EIO as a removed
	 * device; a port without a module has nothing to read: -ENOTSUP. */
	if (rc == -EIO) {
		AQC_LOG(INFO, DRIVER, "port %u: no SFP module answers at SMBus 0x%02x",
			dev->data->port_id, AQC_SFP_ADDR_A0);
		return -ENOTSUP;
	}
	if (rc != 0)
		return rc;
	if (b[SFF_8472_COMPLIANCE - SFF_DIAG_TYPE] == 0 ||
	    (b[0] & SFF_DIAG_ADDR_CHANGE) != 0) {
		mi->type = RTE_ETH_MODULE_SFF_8079;
		mi->eeprom_len = RTE_ETH_MODULE_SFF_8079_LEN;
	} else {
		mi->type = RTE_ETH_MODULE_SFF_8472;
		mi->eeprom_len = RTE_ETH_MODULE_SFF_8472_LEN;
	}
	return 0;
}

int
aqc_get_module_eeprom(struct rte_eth_dev *dev, struct rte_dev_eeprom_info *info)
{
	struct aqc_hw *hw = &AQC_ADAPTER(dev)->hw;
	struct rte_eth_dev_module_info mi;
	uint32_t off = info->offset, left = info->length;
	uint8_t *out = info->data;
	int rc = aqc_get_module_info(dev, &mi);

	if (rc != 0)
		return rc;
	if (off >= mi.eeprom_len || left > mi.eeprom_len - off) {
		AQC_LOG(ERR, DRIVER, "module EEPROM: offset %u + length %u past the module's %u bytes",
			info->offset, info->length, mi.eeprom_len);
		return -EINVAL;
	}
	while (left > 0 && rc == 0) {
		/* 0..255 from A0h (0x50), 256..511 from A2h (0x51) */
		uint8_t devaddr = off < 256 ? AQC_SFP_ADDR_A0 : AQC_SFP_ADDR_A2;
		uint32_t in_page = off % 256, n = RTE_MIN(left, 256 - in_page);

		rc = aqc_ops(hw)->sfp_read(hw, devaddr, in_page, out, n);
		off += n;
		out += n;
		left -= n;
	}
	return rc;
}
