/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC A1 firmware 2.x/3.x SMBus service: the SFP module's EEPROM read through
 * the firmware, as DPDK 22.11 drivers/net/atlantic/hw_atl/hw_atl_utils_fw2x.c
 * (aq_fw2x_get_eeprom) and hw_atl_utils.c (hw_atl_utils_fw_upload_dwords,
 * B1 path) use it: the request goes into the RPC buffer through the B1
 * upload mailbox (0x328 data, 0x32C area 8 | byte offset, 0x404 bit 1),
 * MPI_CTL bit 13 is toggled, the firmware echoes it in MPI_STATE, and the
 * status (+4) and data (+8) are read back with the MIF.
 */
#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "aqc_hw.h"
#include "aqc_base_log.h"

/* B1 upload mailbox: n dwords to the start of the RPC buffer (the offset
 * sent is relative to the buffer). */
static int
rpc_upload(struct aqc_hw *hw, const uint32_t *p, unsigned int n)
{
	int rc = 0;

	if (hw->chip_rev != AQC_MIF_REV_B1) {
		/* B0 silicon uploads with MIF write commands and a busy bit
		 * (Linux hw_atl_utils.c hw_atl_utils_write_b0_mbox). net_aqc
		 * refuses B0 here on purpose: the chip model cannot show that
		 * busy bit, so a B0 path would ship untested (FEATURES.md). */
		AQC_BASE_LOG(ERR, FW, "RPC upload needs B1 silicon (MIF revision 0x%x): "
			     "SMBus reads are not offered on B0", hw->chip_rev);
		return -ENOTSUP;
	}
	for (unsigned int i = 0; i < n && rc == 0; i++) {
		aqc_wr(hw, AQC_R_MCP_UP_DATA, p[i]);
		aqc_wr(hw, AQC_R_MCP_UP_CTL, AQC_FPUT(MCP_UP_AREA, AQC_MCP_AREA_RPC) |
		       AQC_FPUT(MCP_UP_OFFSET, 4 * i));
		AQC_SET_FIELD(hw, MCP_UP_FORCE_INTR, 1);
		/* done once the area code is gone (10 us x 1000, as DPDK) */
		for (unsigned int t = 0; t < 1000; t++) {
			rc = AQC_GET_FIELD(hw, MCP_UP_AREA) == AQC_MCP_AREA_RPC ? -ETIMEDOUT : 0;
			if (rc == 0)
				break;
			rte_delay_us_sleep(10);   /* the model may share this CPU */
		}
	}
	if (rc != 0)
		AQC_BASE_LOG(ERR, FW, "firmware did not take an RPC upload");
	return rc;
}

int
aqc_fw_sfp_read(struct aqc_hw *hw, uint8_t dev, uint32_t off, uint8_t *buf,
		uint32_t len)
{
	uint32_t req[AQC_SMBUS_REQ_LEN / 4] = { 0, dev, off, len };
	uint32_t data[256 / 4], status, want;
	int rc;

	if (!(hw->caps_lo & AQC_CAPS_LO_SMBUS_READ)) {
		AQC_BASE_LOG(INFO, FW, "firmware offers no SMBus reads (caps_lo 0x%08x)",
			     hw->caps_lo);
		return -ENOTSUP;
	}
	if (len == 0 || off >= 256 || len > 256 - off)
		return -EINVAL;
	rc = rpc_upload(hw, req, RTE_DIM(req));
	if (rc != 0)
		return rc;
	want = aqc_rd(hw, AQC_R_MPI_CTL) ^ AQC_FMASK(CTL_SMBUS_READ);
	aqc_wr(hw, AQC_R_MPI_CTL, want);
	rc = aqc_hw_poll(hw, AQC_R_MPI_STATE, AQC_FMASK(CTL_SMBUS_READ),
			 want & AQC_FMASK(CTL_SMBUS_READ), 10, 10000);
	if (rc != 0) {
		AQC_BASE_LOG(ERR, FW, "SMBus read not acknowledged");
		return rc;
	}
	rc = aqc_fw_mif_read(hw, hw->rpc_addr + AQC_SMBUS_RESULT_OFF, &status, 1);
	if (rc != 0)
		return rc;
	if (status != 0) {
		AQC_BASE_LOG(DEBUG, FW, "SMBus read of device 0x%02x failed: status %u",
			     dev, status);
		return -EIO;
	}
	rc = aqc_fw_mif_read(hw, hw->rpc_addr + AQC_SMBUS_DATA_OFF, data, (len + 3) / 4);
	if (rc == 0)
		memcpy(buf, data, len);   /* dwords as stored: bytes in order (LE) */
	return rc;
}
