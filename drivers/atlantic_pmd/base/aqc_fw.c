/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC A1 firmware 2.x/3.x interface: MCP memory reads through the MIF
 * (docs/ref/aqc.md §3.1), version check (§2.1), link request/status and
 * statistics (§3.3).
 */
#include <errno.h>

#include <rte_cycles.h>
#include <rte_random.h>

#include "aqc_hw.h"
#include "aqc_base_log.h"

/* §3.1: semaphore 2 guards the MIF; read == 1 means taken (1 us x 10000),
 * forced by writing 1 on timeout. */
static void
mif_lock(struct aqc_hw *hw)
{
	if (aqc_hw_poll(hw, AQC_RI(SEM, 2), 0xffffffff, 1, 1, 10000) != 0) {
		aqc_wr(hw, AQC_RI(SEM, 2), 1);
		(void)aqc_rd(hw, AQC_RI(SEM, 2));
	}
}

static void
mif_unlock(struct aqc_hw *hw)
{
	aqc_wr(hw, AQC_RI(SEM, 2), 1);
}

int
aqc_fw_mif_read(struct aqc_hw *hw, uint32_t addr, uint32_t *out, unsigned int n)
{
	int rc = 0;

	mif_lock(hw);
	aqc_wr(hw, AQC_R_MIF_ADDR, addr);
	for (unsigned int i = 0; i < n; i++, addr += 4) {
		aqc_wr(hw, AQC_R_MIF_CMD, AQC_MIF_CMD_READ);
		if (hw->chip_rev == AQC_MIF_REV_B1)
			/* B1: the address register auto-increments by 4 */
			rc = aqc_hw_poll(hw, AQC_R_MIF_ADDR, 0xffffffff, addr + 4,
					 10, 10000);
		else
			/* B0: command busy bit 8 */
			rc = aqc_hw_poll(hw, AQC_R_MIF_CMD, 0x100, 0, 10, 10000);
		if (rc != 0) {
			AQC_BASE_LOG(ERR, FW, "MIF read at 0x%x timed out", addr);
			break;
		}
		out[i] = aqc_rd(hw, AQC_R_MIF_DATA);
		if (hw->chip_rev != AQC_MIF_REV_B1)
			aqc_wr(hw, AQC_R_MIF_ADDR, addr + 4);
	}
	mif_unlock(hw);
	return rc;
}

/* §2.1: same major, bits 23:0 at least the expected ones. */
static bool
fw_matches(uint32_t ver, uint32_t want)
{
	return (ver >> 24) == (want >> 24) && (ver & 0xffffff) >= (want & 0xffffff);
}

int
aqc_fw_init(struct aqc_hw *hw)
{
	uint32_t ver = aqc_rd(hw, AQC_R_FW_VERSION);
	int rc;

	hw->fw_version = ver;
	if (!fw_matches(ver, AQC_FW_VER_2X) && !fw_matches(ver, AQC_FW_VER_3X)) {
		AQC_BASE_LOG(ERR, FW, "bad FW version %u.%u.%u (0x%08x): need 2.x or 3.x",
			     ver >> 24, (ver >> 16) & 0xff, ver & 0xffff, ver);
		return -EOPNOTSUPP;
	}
	/* §3.3 init: mailbox address 1 ms x 10, RPC address 1 ms x 100 */
	for (unsigned int i = 0; i < 10 && aqc_rd(hw, AQC_R_MBOX_ADDR) == 0; i++)
		rte_delay_us_sleep(1000);
	for (unsigned int i = 0; i < 100 && aqc_rd(hw, AQC_R_RPC_ADDR) == 0; i++)
		rte_delay_us_sleep(1000);
	hw->mbox_addr = aqc_rd(hw, AQC_R_MBOX_ADDR);
	hw->efuse_addr = aqc_rd(hw, AQC_R_EFUSE_ADDR);
	hw->rpc_addr = aqc_rd(hw, AQC_R_RPC_ADDR);
	if (hw->mbox_addr == 0 || aqc_rd(hw, AQC_R_RPC_ADDR) == 0) {
		AQC_BASE_LOG(ERR, FW, "firmware did not publish its mailbox/RPC addresses");
		return -EIO;
	}
	rc = aqc_fw_mif_read(hw, hw->mbox_addr + AQC_MBOX_CAPS_LO, &hw->caps_lo, 1);
	if (rc != 0)
		return rc;
	AQC_BASE_LOG(INFO, FW, "FW %u.%u.%u, caps_lo 0x%08x", ver >> 24,
		     (ver >> 16) & 0xff, ver & 0xffff, hw->caps_lo);
	return 0;
}

int
aqc_fw_get_mac(struct aqc_hw *hw, uint8_t mac[6])
{
	uint32_t dw[2];
	int rc;

	rc = aqc_fw_mif_read(hw, hw->efuse_addr + AQC_EFUSE_MAC_OFF, dw, 2);
	if (rc != 0)
		return rc;
	/* §3.1: each dword big-endian */
	mac[0] = dw[0] >> 24;
	mac[1] = dw[0] >> 16;
	mac[2] = dw[0] >> 8;
	mac[3] = dw[0];
	mac[4] = dw[1] >> 24;
	mac[5] = dw[1] >> 16;
	aqc_fw_mac_fallback(mac);
	return 0;
}

void
aqc_fw_mac_fallback(uint8_t mac[6])
{
	if ((mac[0] & 1) || (mac[0] | mac[1] | mac[2]) == 0) {
		/* §3.1: drivers fabricate 30:0E:E3:xx:xx:xx */
		uint64_t r = rte_rand();

		mac[0] = 0x30;
		mac[1] = 0x0e;
		mac[2] = 0xe3;
		mac[3] = r;
		mac[4] = r >> 8;
		mac[5] = r >> 16;
		AQC_BASE_LOG(WARNING, FW, "no valid permanent MAC; using a random one");
	}
}

void
aqc_fw_set_link(struct aqc_hw *hw, uint32_t rate_mask)
{
	/* §3.3: keep the SMBus and MACsec request bits 13..15 */
	uint32_t keep = aqc_rd(hw, AQC_R_MPI_CTL) & (7u << 13);

	hw->link_rates = rate_mask;
	aqc_wr(hw, AQC_R_MPI_CTL, keep | (rate_mask & AQC_RATE_ALL));
}

void
aqc_fw_set_state(struct aqc_hw *hw, bool up)
{
	uint32_t v = aqc_rd(hw, AQC_R_MPI_CTL2);

	/* §3.3 set state INIT: pause bits from the flow-control configuration */
	v &= ~(AQC_FMASK(CTL2_PAUSE) | AQC_FMASK(CTL2_ASYM_PAUSE));
	if (up)
		v |= hw->fc_request & (AQC_FMASK(CTL2_PAUSE) | AQC_FMASK(CTL2_ASYM_PAUSE));
	if (up)
		v &= ~AQC_FMASK(CTL2_LINK_DROP);
	else
		v |= AQC_FMASK(CTL2_LINK_DROP);
	aqc_wr(hw, AQC_R_MPI_CTL2, v);
}

uint32_t
aqc_fw_link_speed(struct aqc_hw *hw)
{
	uint32_t st = aqc_rd(hw, AQC_R_MPI_STATE);

	/* §3.3: drivers take the highest set rate */
	if (st & AQC_RATE_10G)
		return 10000;
	if (st & AQC_RATE_5G)
		return 5000;
	if (st & AQC_RATE_2G5)
		return 2500;
	if (st & AQC_RATE_1G)
		return 1000;
	if (st & AQC_RATE_100M)
		return 100;
	return 0;
}

int
aqc_fw_read_stats(struct aqc_hw *hw, struct aqc_fw_stats *s)
{
	const uint32_t bit = AQC_FMASK(CTL2_STATISTICS);
	uint32_t want = (aqc_rd(hw, AQC_R_MPI_STATE2) & bit) ^ bit;
	int rc;

	/* §3.3: flip bit 30, wait for the echo in MPI_STATE2. The request is
	 * the opposite of the firmware's last echo, not of our last request:
	 * after a request that timed out (a firmware that did not answer)
	 * flipping CTL2 again would equal the old echo and "complete" at
	 * once, reading counters the firmware never refreshed. */
	aqc_wr(hw, AQC_R_MPI_CTL2, (aqc_rd(hw, AQC_R_MPI_CTL2) & ~bit) | want);
	rc = aqc_hw_poll(hw, AQC_R_MPI_STATE2, bit, want, 10, 10000);
	if (rc != 0) {
		AQC_BASE_LOG(ERR, FW, "statistics request not acknowledged");
		return rc;
	}
	static_assert(sizeof(*s) % 4 == 0, "dword array");
	return aqc_fw_mif_read(hw, hw->mbox_addr + AQC_MBOX_STATS, (uint32_t *)s,
			       sizeof(*s) / 4);
}
