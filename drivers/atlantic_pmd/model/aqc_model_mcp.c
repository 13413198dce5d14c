/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC chip model, A1 firmware services beyond link and statistics: the B1
 * upload mailbox into the RPC buffer, the RPC handshake, the SMBus (SFP
 * module EEPROM) requests, and the sleep-proxy / WoL arming bits.
 *
 * Protocol as DPDK 22.11 drivers/net/atlantic/hw_atl/hw_atl_utils.c
 * (hw_atl_utils_fw_upload_dwords, hw_atl_utils_fw_rpc_call/_wait) and
 * hw_atl_utils_fw2x.c (aq_fw2x_get_eeprom/_set_eeprom, _set_sleep_proxy,
 * _set_wol_params) and the Linux driver's hw_atl/hw_atl_utils.c use it:
 *  - upload (B1): the host writes a dword to 0x328, then 0x32C = area code
 *    in bits 31:28 (8 = the RPC buffer) | byte offset in bits 15:0, then
 *    sets 0x404 bit 1 ("uP force interrupt"); the firmware stores the dword
 *    and the host waits until 0x32C bits 31:28 are no longer 8. The
 *    firmware's exact answer is not documented: the model clears bits
 *    31:28 and the interrupt bit (INFERRED). The offset is relative to the
 *    area, not an MCP address.
 *  - RPC: the host uploads a message, then writes 0x338 = transaction id
 *    (15:0) | length (31:16); the firmware answers 0x33C with the same id
 *    and its reply length (0xFFFF = "send again"). The model records the
 *    message and answers an empty reply (length 0): WoL, sleep proxy and
 *    the other messages are taken, not acted on.
 *  - SMBus (offered in caps_lo bits 13/14): a 16-byte request (msg_id, device, offset, length) at the RPC
 *    buffer, then MPI_CTL bit 13 (read) or 14 (write) toggled; the
 *    firmware echoes the bit in MPI_STATE when done, with a status dword at
 *    +4 (0 = done) and read data from +8; write data is taken from +16.
 *    Nonzero status codes are not documented: the model answers 1 for a
 *    missing module, an unknown device or a range past 256 bytes.
 *  - MPI_CTL2 bits 23 (sleep proxy) and 24 (WoL) are echoed in MPI_STATE2
 *    once the firmware has armed them (the host polls for the echo).
 * Byte data in the RPC buffer is stored host-endian (little-endian x86):
 * the MIF returns dwords, which the host stores as they come.
 */
#include <string.h>

#include <rte_common.h>

#include "aqc_model_priv.h"

#define AQM_RPC_SIZE (AQM_MCP_SIZE - AQM_MCP_RPC)

static uint8_t *
rpc_bytes(struct aqc_model *m)
{
	return (uint8_t *)m->mcp + AQM_MCP_RPC;
}

static uint32_t
rpc_dword(struct aqc_model *m, uint32_t off)
{
	uint32_t v;

	memcpy(&v, rpc_bytes(m) + off, 4);
	return v;
}

static bool
mcp_upload(struct aqc_model *m)
{
	uint32_t mcp = aqm_rd(m, AQC_R_MCP_CTL), ctl, off;

	if (!(mcp & AQC_FMASK(MCP_UP_FORCE_INTR)))
		return false;
	ctl = aqm_rd(m, AQC_R_MCP_UP_CTL);
	off = AQC_FGET(MCP_UP_OFFSET, ctl);
	if (AQC_FGET(MCP_UP_AREA, ctl) == AQC_MCP_AREA_RPC) {
		if (off % 4 == 0 && off + 4 <= AQM_RPC_SIZE) {
			uint32_t v = aqm_rd(m, AQC_R_MCP_UP_DATA);

			memcpy(rpc_bytes(m) + off, &v, 4);
			m->fwlog.uploads++;
		} else {
			m->fwlog.upload_errors++;
		}
		aqm_wr(m, AQC_R_MCP_UP_CTL, ctl & ~AQC_FMASK(MCP_UP_AREA));
	}
	aqm_wr(m, AQC_R_MCP_CTL, mcp & ~AQC_FMASK(MCP_UP_FORCE_INTR));
	return true;
}

static bool
mcp_rpc(struct aqc_model *m)
{
	uint32_t ctl = aqm_rd(m, AQC_R_RPC_CTL), len;

	if (ctl == m->rpc_ctl_taken)
		return false;
	m->rpc_ctl_taken = ctl;
	len = AQC_FGET(RPC_LEN, ctl);
	m->fwlog.rpc_calls++;
	m->fwlog.rpc_len = len;
	m->fwlog.rpc_msg_id = len >= 4 ? rpc_dword(m, 0) : 0;
	memset(m->fwlog.rpc_msg, 0, sizeof(m->fwlog.rpc_msg));
	memcpy(m->fwlog.rpc_msg, rpc_bytes(m),
	       RTE_MIN(len, (uint32_t)sizeof(m->fwlog.rpc_msg)));
	/* same transaction id, empty reply */
	aqm_wr(m, AQC_R_RPC_STATE, AQC_FPUT(RPC_TID, AQC_FGET(RPC_TID, ctl)));
	return true;
}

/* Status of an SMBus request for len bytes at off of device dev; the
 * module's bytes for it in *page. */
static uint32_t
smbus_check(struct aqc_model *m, uint32_t dev, uint32_t off, uint32_t len,
	    uint8_t **page)
{
	if (!m->cfg.sfp_present || off >= 256 || len > 256 - off ||
	    len > AQM_RPC_SIZE - AQC_SMBUS_REQ_LEN)
		return 1;
	if (dev == AQC_SFP_ADDR_A0)
		*page = m->sfp;
	else if (dev == AQC_SFP_ADDR_A2)
		*page = m->sfp + 256;
	else
		return 1;
	return 0;
}

static bool
mcp_smbus(struct aqc_model *m)
{
	uint32_t ctl = aqm_rd(m, AQC_R_MPI_CTL), st = aqm_rd(m, AQC_R_MPI_STATE);
	uint32_t rd = AQC_FMASK(CTL_SMBUS_READ), wr = AQC_FMASK(CTL_SMBUS_WRITE);
	uint32_t dev = rpc_dword(m, 4), off = rpc_dword(m, 8), len = rpc_dword(m, 12);
	uint32_t bit, status;
	uint8_t *page = NULL;

	if ((ctl ^ st) & rd)
		bit = rd;
	else if ((ctl ^ st) & wr)
		bit = wr;
	else
		return false;
	status = smbus_check(m, dev, off, len, &page);
	if (status == 0 && bit == rd) {
		memcpy(rpc_bytes(m) + AQC_SMBUS_DATA_OFF, page + off, len);
		m->fwlog.smbus_reads++;
	} else if (status == 0) {
		memcpy(page + off, rpc_bytes(m) + AQC_SMBUS_REQ_LEN, len);
		m->fwlog.smbus_writes++;
	} else {
		m->fwlog.smbus_errors++;
	}
	memcpy(rpc_bytes(m) + AQC_SMBUS_RESULT_OFF, &status, 4);
	aqm_wr(m, AQC_R_MPI_STATE, (st & ~bit) | (ctl & bit));
	return true;
}

static bool
mcp_arm(struct aqc_model *m)
{
	uint32_t bits = AQC_FMASK(CTL2_SLEEP_PROXY) | AQC_FMASK(CTL2_WOL);
	uint32_t ctl2 = aqm_rd(m, AQC_R_MPI_CTL2), st2 = aqm_rd(m, AQC_R_MPI_STATE2);

	if (!((ctl2 ^ st2) & bits))
		return false;
	aqm_wr(m, AQC_R_MPI_STATE2, (st2 & ~bits) | (ctl2 & bits));
	return true;
}

bool
aqm_mcp_pass(struct aqc_model *m)
{
	bool work = mcp_upload(m);

	work |= mcp_rpc(m);
	if (aqm_fw1x(m))
		return work;   /* no SMBus service nor 2.x option bits */
	work |= mcp_smbus(m);
	work |= mcp_arm(m);
	return work;
}

void
aqc_model_get_fw_log(struct aqc_model *m, struct aqc_model_fw_log *log)
{
	pthread_mutex_lock(&m->lock);
	*log = m->fwlog;
	pthread_mutex_unlock(&m->lock);
}
