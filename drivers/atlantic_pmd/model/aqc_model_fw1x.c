/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC chip model, A1 firmware 1.x interface (a model whose fw_version has
 * major 1), as DPDK 22.11 drivers/net/atlantic/hw_atl/hw_atl_utils.c
 * (aq_fw_1x_ops: hw_atl_utils_mpi_create, _mpi_set_state, _mpi_set_speed,
 * _mpi_get_link_status, _mpi_read_stats, _get_mac_permanent) and the Linux
 * driver's hw_atl/hw_atl_utils.c use it (docs/ref/aqc.md §3.1, §3.2):
 *  - 0x0368 (host): bits 7:0 requested state (0 DEINIT, 1 RESET, 2 INIT,
 *    4 POWER), bits 23:16 requested rates (bit 0 10G, 1 5G, 2 5G-SR,
 *    3 2.5G, 4 1G, 5 100M);
 *  - 0x036C (firmware): bits 7:0 the state taken, bits 31:16 the link rate,
 *    one bit, 0 = down;
 *  - eFuse block address in 0x0374 (0x0370 is the host's UCP seed);
 *  - the mailbox statistics are kept current without a request, and the
 *    mailbox transaction id moves on every millisecond: the host waits for
 *    it to change after a reset (set_state(MPI_RESET)). The period is the
 *    model's choice (INFERRED: the drivers only need it to move within
 *    100 ms).
 * The link comes up in state INIT with a requested rate the PHY offers
 * and the cable in, after the autonegotiation delay, at the highest such
 * rate. Upload mailbox and RPC are shared with 2.x (aqc_model_mcp.c);
 * SMBus and the 2.x toggles do not exist here.
 */
#include <rte_common.h>

#include "aqc_model_priv.h"

#define FW1X_STATE_MASK 0xffu
#define FW1X_STATE_INIT 2u
#define FW1X_RATE_SHIFT 16
#define FW1X_TID_NS 1000000ull

/* §3.2 rate bit for each AQC_RATE_* (§3.3 caps), fastest first */
static const struct {
	uint32_t caps, fw1x;
} fw1x_rates[] = {
	{ AQC_RATE_10G, 1u << 0 }, { AQC_RATE_5G, 1u << 1 }, { AQC_RATE_2G5, 1u << 3 },
	{ AQC_RATE_1G, 1u << 4 }, { AQC_RATE_100M, 1u << 5 },
};

void
aqm_fw1x_boot(struct aqc_model *m)
{
	aqm_wr(m, AQC_R_EFUSE_ADDR, 0);
	aqm_wr(m, AQC_R_MPI_STATE2, AQM_MCP_EFUSE);   /* 0x0374 */
	m->fw1x_tid_at = 0;
}

static uint32_t
fw1x_link_rate(struct aqc_model *m, uint32_t ctl)
{
	uint32_t want = (ctl >> FW1X_RATE_SHIFT) & 0xffu;

	if (!m->cable_up || (ctl & FW1X_STATE_MASK) != FW1X_STATE_INIT)
		return 0;
	for (unsigned int i = 0; i < RTE_DIM(fw1x_rates); i++)
		if ((m->cfg.rates & fw1x_rates[i].caps) && (want & fw1x_rates[i].fw1x))
			return fw1x_rates[i].fw1x;
	return 0;
}

bool
aqm_fw1x_pass(struct aqc_model *m)
{
	uint32_t ctl = aqm_rd(m, AQC_R_MPI_CTL), st = aqm_rd(m, AQC_R_MPI_CTL2);
	uint32_t rate = fw1x_link_rate(m, ctl), want;
	uint64_t now = aqm_now_ns();
	const uint32_t *s = (const uint32_t *)&m->fw;
	bool work = false;

	if (rate == 0 || (st >> FW1X_RATE_SHIFT) != 0) {
		m->autoneg_until = 0;
	} else if (m->autoneg_until == 0) {
		m->autoneg_until = now + AQM_AUTONEG_NS;
		rate = 0;
	} else if (now < m->autoneg_until) {
		rate = 0;
	}
	want = (ctl & FW1X_STATE_MASK) | rate << FW1X_RATE_SHIFT;
	if (want != st) {
		aqm_wr(m, AQC_R_MPI_CTL2, want);
		if ((want >> FW1X_RATE_SHIFT) != (st >> FW1X_RATE_SHIFT))
			aqm_link_cause(m);
		work = true;
	}
	/* statistics always current; the transaction id as a heartbeat */
	for (unsigned int i = 0; i < sizeof(m->fw) / 4; i++)
		m->mcp[(AQM_MCP_MBOX + AQC_MBOX_STATS) / 4 + i] = s[i];
	if (now >= m->fw1x_tid_at) {
		m->mcp[(AQM_MCP_MBOX + AQC_MBOX_TID) / 4]++;
		m->fw1x_tid_at = now + FW1X_TID_NS;
	}
	return work;
}
