/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC chip model: register file, lifecycle, model thread and the control
 * plane (reset, firmware, MIF, link, statistics, RSS strobes, DMA fence).
 * Section numbers (§) refer to docs/ref/aqc.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_memzone.h>

#include "aqc_model_priv.h"
#include "aqc_model_log.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
/* LeakSanitizer looks for pointers in the heap, stacks and globals, not in
 * DPDK's memory: the state's pointers (captures, buffers, the registry's
 * links) must be searched there too, or live models read as leaks. */
#define AQM_LSAN_ROOT(m) __lsan_register_root_region((m), sizeof(*(m)))
#define AQM_LSAN_UNROOT(m) __lsan_unregister_root_region((m), sizeof(*(m)))
#else
#define AQM_LSAN_ROOT(m) ((void)(m))
#define AQM_LSAN_UNROOT(m) ((void)(m))
#endif

RTE_LOG_REGISTER_SUFFIX(aqm_logtype, model, NOTICE);

pthread_mutex_t aqm_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct aqc_model *registry;

uint64_t
aqm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void
aqc_model_config_default(struct aqc_model_config *cfg, const char *name)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->name, sizeof(cfg->name), "%s", name);
	cfg->wire = AQC_WIRE_LOOP;
	cfg->mac[0] = 0x02;
	cfg->mac[2] = 0xac;
	cfg->rates = AQC_RATE_ALL;
	cfg->fw_version = 0x0301003a;   /* 3.1.58 */
	cfg->rx_start = AQC_RX_START_POLL;
	cfg->rx_delay_ms = AQC_RX_DELAY_MS_DEFAULT;
	cfg->rx_loops = 1;
}

void
aqc_model_config_a2(struct aqc_model_config *cfg)
{
	cfg->gen = AQC_MODEL_AQC113;
	cfg->rates = AQC_RATE_ALL | AQC_RATE_10M;
	cfg->fw_version = 0x01030022;   /* 1.3.34 */
}

/* ---- register file ---- */

/* Every listed register to its reset value; the rest of the BAR to 0. */
void
aqm_regs_reset(struct aqc_model *m)
{
	aqm_late_drop(m, AQM_RINGS);   /* no ring survives a reset */
	aqm_rsc_drop(m, AQM_RINGS);
	memset(m->bar, 0, AQC_BAR0_SIZE);
#define AQM_RESET_ONE(name, off, stride, n, rst) \
	for (unsigned int i = 0; i < (n); i++) \
		aqm_wr(m, (off) + (stride) * i, (rst));
	AQC_REGS(AQM_RESET_ONE)
#undef AQM_RESET_ONE
	memset(m->rss_key, 0, sizeof(m->rss_key));
	memset(m->reta, 0, sizeof(m->reta));
	memset(m->tx_was_on, 0, sizeof(m->tx_was_on));
	memset(m->rx_was_on, 0, sizeof(m->rx_was_on));
	memset(m->tx_ctx, 0, sizeof(m->tx_ctx));
}

static void
mcp_put(struct aqc_model *m, uint32_t addr, uint32_t v)
{
	m->mcp[addr / 4] = v;
}

/* Firmware boot complete: what the driver reads after §2.3 step 4. */
static void
fw_boot(struct aqc_model *m)
{
	const uint8_t *mac = m->cfg.mac;

	memset(m->mcp, 0, sizeof(m->mcp));
	memset(&m->fw, 0, sizeof(m->fw));
	mcp_put(m, AQM_MCP_MBOX + AQC_MBOX_VERSION, m->cfg.fw_version);
	/* §3.3 caps: the rates, and SMBus read/write (aqc_model_mcp.c) */
	mcp_put(m, AQM_MCP_MBOX + AQC_MBOX_CAPS_LO, m->cfg.rates |
		AQC_CAPS_LO_SMBUS_READ | AQC_CAPS_LO_SMBUS_WRITE);
	/* §3.1: MAC at eFuse + 160, two big-endian dwords */
	mcp_put(m, AQM_MCP_EFUSE + AQC_EFUSE_MAC_OFF,
		((uint32_t)mac[0] << 24) | ((uint32_t)mac[1] << 16) |
		((uint32_t)mac[2] << 8) | mac[3]);
	mcp_put(m, AQM_MCP_EFUSE + AQC_EFUSE_MAC_OFF + 4,
		((uint32_t)mac[4] << 24) | ((uint32_t)mac[5] << 16));
	/* docs/ref/aqc.md §2.1: B1 (low nibble 0xA) of the Atlantic family (AQtion
	 * aq_common.h AQ_MIF_ID_ATL_B1 0x10A) */
	aqm_wr(m, AQC_R_MIF_ID, AQC_MIF_ID_A1_B1);
	aqm_wr(m, AQC_RI(SEM, 2), 1);          /* MIF semaphore free */
	aqm_wr(m, AQC_R_DAISY_STATUS, 0);
	aqm_wr(m, AQC_R_MBOX_ADDR, AQM_MCP_MBOX);
	aqm_wr(m, AQC_R_RPC_ADDR, AQM_MCP_RPC);
	aqm_wr(m, AQC_R_EFUSE_ADDR, AQM_MCP_EFUSE);
	aqm_wr(m, AQC_R_BOOT_EXIT, AQM_BOOT_EXIT_OK);
	aqm_wr(m, AQC_R_FW_VERSION, m->cfg.fw_version);
	if (aqm_fw1x(m))
		aqm_fw1x_boot(m);
	m->rpc_ctl_taken = 0;
	m->phase = AQM_READY;
	m->autoneg_until = 0;
}

/* ---- control plane ---- */

static bool
ctl_reset(struct aqc_model *m)
{
	uint64_t now;

	if (m->phase == AQM_READY) {
		if (!(aqm_rd(m, AQC_R_GLB_CTL) & AQC_FMASK(GLB_SOFT_RESET)))
			return false;
		m->phase = AQM_IN_RESET;
		m->phase_until = aqm_now_ns() + AQM_RESET_NS;
		return true;
	}
	now = aqm_now_ns();
	if (now < m->phase_until)
		return false;
	if (m->phase == AQM_IN_RESET) {
		/* §2.2: the reset self-clears; registers take reset values and
		 * the firmware restarts (0x0018 reads 0 while it boots) */
		aqm_wire_flush(m);
		aqm_regs_reset(m);
		m->phase = AQM_BOOTING;
		m->phase_until = now + AQM_BOOT_NS;
		return true;
	}
	fw_boot(m);
	return true;
}

static uint32_t
mcp_get(const struct aqc_model *m, uint32_t addr)
{
	return addr < AQM_MCP_SIZE && addr % 4 == 0 ? m->mcp[addr / 4] : 0xffffffffu;
}

/* §3.1: MIF read command; B1 auto-increments the address. */
static bool
ctl_mif(struct aqc_model *m)
{
	uint32_t addr;

	if (aqm_rd(m, AQC_R_MIF_CMD) != AQC_MIF_CMD_READ)
		return false;
	addr = aqm_rd(m, AQC_R_MIF_ADDR);
	aqm_wr(m, AQC_R_MIF_DATA, mcp_get(m, addr));
	aqm_wr(m, AQC_R_MIF_CMD, 0);
	aqm_wr(m, AQC_R_MIF_ADDR, addr + 4);
	return true;
}

static uint32_t
highest_rate(uint32_t mask)
{
	static const uint32_t order[] = {
		AQC_RATE_10G, AQC_RATE_5G, AQC_RATE_2G5, AQC_RATE_1G, AQC_RATE_100M,
	};

	for (unsigned int i = 0; i < 5; i++)
		if (mask & order[i])
			return order[i];
	return 0;
}

/* §6.9: 0x2050 clears the status bits written to it. The model sees the
 * write only on its next pass, so it applies it before latching anything
 * new: a clear the driver wrote earlier must not wipe a later cause. */
static bool
itr_apply_clear(struct aqc_model *m)
{
	uint32_t v = aqm_rd(m, AQC_R_ITR_CLEAR);

	if (v == 0)
		return false;
	aqm_wr(m, AQC_R_ITR_STATUS, aqm_rd(m, AQC_R_ITR_STATUS) & ~v);
	aqm_wr(m, AQC_R_ITR_CLEAR, 0);
	return true;
}

void
aqm_link_cause(struct aqc_model *m)
{
	uint32_t map = aqm_rd(m, AQC_RI(ITR_GEN_MAP, 3));

	itr_apply_clear(m);
	if (map & 0x80u)
		aqm_wr(m, AQC_R_ITR_STATUS, aqm_rd(m, AQC_R_ITR_STATUS) | 1u << (map & 0x1fu));
}

/* §3.3: link = highest rate both requested and supported, unless LINK_DROP
 * or no cable; statistics/temperature toggles echoed into 0x0374. */
static bool
ctl_fw(struct aqc_model *m)
{
	uint32_t ctl = aqm_rd(m, AQC_R_MPI_CTL), ctl2 = aqm_rd(m, AQC_R_MPI_CTL2);
	uint32_t st2 = aqm_rd(m, AQC_R_MPI_STATE2), rate = 0, toggles;
	bool work = false;

	if (m->cable_up && !(ctl2 & AQC_FMASK(CTL2_LINK_DROP)))
		rate = highest_rate(ctl & m->cfg.rates);
	if (rate == 0 || (aqm_rd(m, AQC_R_MPI_STATE) & AQC_RATE_ALL) != 0) {
		m->autoneg_until = 0;
	} else if (m->autoneg_until == 0) {
		/* a link coming up autonegotiates first */
		m->autoneg_until = aqm_now_ns() + AQM_AUTONEG_NS;
		rate = 0;
	} else if (aqm_now_ns() < m->autoneg_until) {
		rate = 0;
	}
	if ((aqm_rd(m, AQC_R_MPI_STATE) & AQC_RATE_ALL) != rate) {
		/* the other bits are request echoes (aqc_model_mcp.c) */
		aqm_wr(m, AQC_R_MPI_STATE,
		       (aqm_rd(m, AQC_R_MPI_STATE) & ~AQC_RATE_ALL) | rate);
		aqm_link_cause(m);
		work = true;
	}
	/* §3.3: the negotiated pause shows in 0x0374 bits 3/4 while the link
	 * is up; the model's link partner grants what was asked */
	{
		uint32_t pause = AQC_FMASK(STATE2_PAUSE_RX) | AQC_FMASK(STATE2_PAUSE_TX);
		uint32_t want = (st2 & ~pause) | (rate != 0 ? ctl2 & pause : 0);

		if (want != st2) {
			aqm_wr(m, AQC_R_MPI_STATE2, want);
			st2 = want;
			work = true;
		}
	}
	toggles = AQC_FMASK(CTL2_STATISTICS) | (1u << 18);
	if ((ctl2 ^ st2) & toggles) {
		const uint32_t *s = (const uint32_t *)&m->fw;

		for (unsigned int i = 0; i < sizeof(m->fw) / 4; i++)
			mcp_put(m, AQM_MCP_MBOX + AQC_MBOX_STATS + 4 * i, s[i]);
		/* info +8: PHY temperature 40 degrees C in 1/256 units */
		mcp_put(m, AQM_MCP_MBOX + 0x48 + 8, 40u * 256u);
		mcp_put(m, AQM_MCP_MBOX + AQC_MBOX_TID,
			mcp_get(m, AQM_MCP_MBOX + AQC_MBOX_TID) + 1);
		aqm_wr(m, AQC_R_MPI_STATE2, (st2 & ~toggles) | (ctl2 & toggles));
		work = true;
	}
	return work;
}

/* §6.1: key and RETA write strobes self-clear once latched. */
static bool
ctl_rss(struct aqc_model *m)
{
	uint32_t ka = aqm_rd(m, AQC_R_RSS_KEY_ADDR), ra = aqm_rd(m, AQC_R_RSS_RETA_ADDR);
	bool work = false;

	if (ka & AQC_FMASK(RSS_KEY_WEN)) {
		unsigned int a = AQC_FGET(RSS_KEY_WADDR, ka);

		if (a < 10)
			m->rss_key[a] = aqm_rd(m, AQC_R_RSS_KEY_DATA);
		aqm_wr(m, AQC_R_RSS_KEY_ADDR, ka & ~AQC_FMASK(RSS_KEY_WEN));
		work = true;
	}
	if (ra & AQC_FMASK(RSS_RETA_WEN)) {
		unsigned int a = AQC_FGET(RSS_RETA_WADDR, ra);

		if (a < 12)
			m->reta[a] = (uint16_t)aqm_rd(m, AQC_R_RSS_RETA_DATA);
		aqm_wr(m, AQC_R_RSS_RETA_ADDR, ra & ~AQC_FMASK(RSS_RETA_WEN));
		work = true;
	}
	return work;
}

/* Block resets (§2.2: RX 0x5000 bit 31, TX 0x7000 bit 31) self-clear; a TX
 * ring turned off completes the capture written so far; the descriptor
 * cache "done" bit follows "init" once the DMA pass before it is over. */
static bool
ctl_misc(struct aqc_model *m)
{
	bool work = false, flush = false;
	uint32_t v;

	for (unsigned int i = 0; i < 2; i++) {
		uint32_t off = i ? AQC_R_TX_CTL : AQC_R_RX_CTL;

		v = aqm_rd(m, off);
		if (v & (1u << 31)) {
			aqm_wr(m, off, v & ~(1u << 31));
			work = true;
		}
	}
	for (unsigned int n = 0; n < AQM_RINGS; n++) {
		bool on = aqm_rd(m, AQC_RI(TXD_CTL, n)) & AQC_FMASK(TXD_EN);
		bool rx_on = aqm_rd(m, AQC_RI(RXD_CTL, n)) & AQC_FMASK(RXD_EN);

		/* a disabled ring's head returns to 0 (INFERRED: drivers
		 * restart rings at index 0 without any head reset) */
		if (m->tx_was_on[n] && !on) {
			flush = true;
			aqm_wr(m, AQC_RI(TXD_HEAD, n), 0);
		}
		if (m->rx_was_on[n] && !rx_on) {
			aqm_wr(m, AQC_RI(RXD_HEAD, n), 0);
			aqm_late_drop(m, n);
			aqm_rsc_drop(m, n);
		}
		if (m->tx_was_on[n] != on || m->rx_was_on[n] != rx_on)
			aqm_iova_flush(m);   /* a new ring session: look up anew */
		m->tx_was_on[n] = on;
		m->rx_was_on[n] = rx_on;
	}
	if (flush)
		aqm_wire_flush(m);
	work |= itr_apply_clear(m);
	v = aqm_rd(m, AQC_R_RDM_CACHE_INIT) & 1;
	if ((aqm_rd(m, AQC_R_RDM_CACHE_DONE) & 1) != v) {
		aqm_wr(m, AQC_R_RDM_CACHE_DONE, v);
		work = true;
	}
	return work;
}

static bool
control_pass(struct aqc_model *m)
{
	bool work = m->a2 ? aqm_a2_ctl_boot(m) : ctl_reset(m);

	if (m->phase != AQM_READY)
		return work;
	if (m->a2) {
		work |= aqm_a2_ctl_fw(m);
	} else if (m->fault != AQC_FW_MUTE) {
		work |= ctl_mif(m);
		work |= aqm_fw1x(m) ? aqm_fw1x_pass(m) : ctl_fw(m);
		work |= aqm_mcp_pass(m);
	}
	work |= ctl_rss(m);
	work |= ctl_misc(m);
	return work;
}

static void *
model_thread(void *arg)
{
	struct aqc_model *m = arg;
	unsigned int idle = 0;

	while (atomic_load(&m->running)) {
		unsigned int moved = 0;
		bool work;

		pthread_mutex_lock(&m->lock);
		if (!m->cfg.step_mode)
			moved = aqm_dma_pass(m, 64);
		work = control_pass(m);
		pthread_mutex_unlock(&m->lock);
		if (work || moved > 0) {
			idle = 0;
		} else {
			/* idle: 20 us naps, 200 us once idle for a few ms, so
			 * the model does not take a core from the application */
			struct timespec ts = {
				.tv_sec = 0, .tv_nsec = idle < AQM_IDLE_FAST ? 20000 : 200000,
			};

			idle += idle < AQM_IDLE_FAST;
			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

unsigned int
aqc_model_step(struct aqc_model *m, unsigned int budget)
{
	unsigned int total = 0, moved;

	if (!m->cfg.step_mode)
		return 0;
	do {
		pthread_mutex_lock(&m->lock);
		moved = aqm_dma_pass(m, budget - total);
		pthread_mutex_unlock(&m->lock);
		total += moved;
	} while (moved > 0 && total < budget);
	return total;
}

int
aqc_model_inject(struct aqc_model *m, const void *frame, uint32_t len)
{
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = aqm_rx_frame(m, frame, len, false, false);
	pthread_mutex_unlock(&m->lock);
	return rc;
}

int
aqc_model_inject_bad(struct aqc_model *m, const void *frame, uint32_t len)
{
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = aqm_rx_frame(m, frame, len, false, true);
	pthread_mutex_unlock(&m->lock);
	return rc;
}

void
aqc_model_set_cable(struct aqc_model *m, bool up)
{
	pthread_mutex_lock(&m->lock);
	m->cable_up = up;
	pthread_mutex_unlock(&m->lock);
}

void
aqc_model_rx_polled(struct aqc_model *m)
{
	atomic_store(&m->app_polled, true);
}

void
aqc_model_get_counters(struct aqc_model *m, struct aqc_model_counters *c)
{
	pthread_mutex_lock(&m->lock);
	*c = m->cnt;
	pthread_mutex_unlock(&m->lock);
}

void
aqc_model_set_tx_tap(struct aqc_model *m, aqc_model_tx_tap_t fn, void *arg)
{
	pthread_mutex_lock(&m->lock);
	m->tap = fn;
	m->tap_arg = arg;
	pthread_mutex_unlock(&m->lock);
}

void
aqc_model_set_dma_faults(struct aqc_model *m, const struct aqc_model_dma_faults *f)
{
	pthread_mutex_lock(&m->lock);
	m->dma_fault = *f;
	pthread_mutex_unlock(&m->lock);
}

int
aqc_model_set_fw_fault(struct aqc_model *m, enum aqc_model_fw_fault f)
{
	if (!m->a2) {
		if (f != AQC_FW_OK && f != AQC_FW_MUTE)
			return -EINVAL;
		pthread_mutex_lock(&m->lock);
		m->fault = f;
		pthread_mutex_unlock(&m->lock);
		return 0;
	}
	if (f == AQC_FW_MUTE)
		return -EINVAL;
	pthread_mutex_lock(&m->lock);
	m->fault = f;
	/* faults of a running firmware show at once */
	if (f == AQC_FW_NO_ACK)
		aqm_wr(m, AQC_R_A2_MCP_READ_DONE, 1);
	else if (aqm_rd(m, AQC_R_A2_MCP_READ_DONE) != 0)
		aqm_wr(m, AQC_R_A2_MCP_READ_DONE, 0);
	aqm_wr(m, AQC_RI(SEM, AQC2_ART_SEM), f == AQC_FW_ART_SEM_BUSY ? 0 : 1);
	if (f == AQC_FW_TORN)
		aqm_wr(m, AQC2_FW_OUT + AQC2_OUT_TID, 0x00020001u);
	else
		m->st_dirty = true;   /* the next publication makes A == B */
	pthread_mutex_unlock(&m->lock);
	return 0;
}

int
aqc_model_a2_add_stat(struct aqc_model *m, unsigned int idx, uint64_t v)
{
	if (!m->a2 || idx >= AQC2_ST_COUNT)
		return -EINVAL;
	pthread_mutex_lock(&m->lock);
	m->st64[idx] += v;
	m->st_dirty = true;
	pthread_mutex_unlock(&m->lock);
	return 0;
}

uint8_t *
aqc_model_bar(struct aqc_model *m)
{
	return m->bar;
}

struct aqc_model *
aqc_model_lookup(const char *name)
{
	struct aqc_model *m;

	pthread_mutex_lock(&aqm_registry_lock);
	for (m = registry; m != NULL; m = m->next_model)
		if (strcmp(m->cfg.name, name) == 0)
			break;
	pthread_mutex_unlock(&aqm_registry_lock);
	return m;
}

/* The memzone of model name: "aqcm_<name>". */
static int
zone_name(char out[RTE_MEMZONE_NAMESIZE], const char *name)
{
	int n = snprintf(out, RTE_MEMZONE_NAMESIZE, "aqcm_%s", name);

	return n > 0 && n < RTE_MEMZONE_NAMESIZE ? 0 : -ENAMETOOLONG;
}

/* The register file first (page aligned, as a BAR is), the state after
 * it: one memzone, which a secondary process sees at the same address. */
#define AQM_STATE_OFF RTE_ALIGN_CEIL(AQC_BAR0_SIZE, 4096)

struct aqc_model *
aqc_model_lookup_shared(const char *name)
{
	char zn[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;

	if (zone_name(zn, name) != 0 || (mz = rte_memzone_lookup(zn)) == NULL)
		return NULL;
	return (struct aqc_model *)((uint8_t *)mz->addr + AQM_STATE_OFF);
}

struct aqc_model *
aqc_model_create(const struct aqc_model_config *cfg, int *err)
{
	char zn[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;
	pthread_mutexattr_t ma;
	struct aqc_model *m;
	int rc;

	if (aqc_model_lookup(cfg->name) != NULL) {
		AQM_LOG(ERR, "model %s already exists", cfg->name);
		*err = -EEXIST;
		return NULL;
	}
	if (zone_name(zn, cfg->name) != 0) {
		AQM_LOG(ERR, "model name %s: at most %d characters", cfg->name,
			RTE_MEMZONE_NAMESIZE - 6);
		*err = -ENAMETOOLONG;
		return NULL;
	}
	mz = rte_memzone_reserve_aligned(zn, AQM_STATE_OFF + sizeof(*m), SOCKET_ID_ANY, 0, 4096);
	if (mz == NULL) {
		AQM_LOG(ERR, "model %s: no memory for its registers and state (%zu bytes): %s",
			cfg->name, (size_t)AQM_STATE_OFF + sizeof(*m), rte_strerror(rte_errno));
		*err = -ENOMEM;
		return NULL;
	}
	memset(mz->addr, 0, mz->len);
	m = (struct aqc_model *)((uint8_t *)mz->addr + AQM_STATE_OFF);
	AQM_LSAN_ROOT(m);
	m->mz = mz;
	m->bar = mz->addr;
	m->cfg = *cfg;
	memcpy(m->sfp, cfg->sfp, sizeof(m->sfp));
	m->cable_up = true;
	m->a2 = cfg->gen == AQC_MODEL_AQC113;
	m->fault = cfg->fw_fault;
	aqm_random_faults_init(m);
	/* process-shared: a secondary process reads the counters under it */
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&m->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	aqm_regs_reset(m);
	if (m->a2)
		aqm_a2_power_on(m);
	else
		fw_boot(m);
	rc = aqm_wire_open(m);
	if (rc != 0) {
		pthread_mutex_destroy(&m->lock);
		AQM_LSAN_UNROOT(m);
		rte_memzone_free(mz);
		*err = rc;
		return NULL;
	}
	pthread_mutex_lock(&aqm_registry_lock);
	aqm_peer_link(m, registry);
	m->next_model = registry;
	registry = m;
	pthread_mutex_unlock(&aqm_registry_lock);
	atomic_store(&m->running, true);
	rc = pthread_create(&m->thread, NULL, model_thread, m);
	if (rc != 0) {
		atomic_store(&m->running, false);
		aqc_model_destroy(m);
		*err = -rc;
		return NULL;
	}
	pthread_setname_np(m->thread, "aqc-model");
	*err = 0;
	return m;
}

void
aqc_model_destroy(struct aqc_model *m)
{
	struct aqc_model **pp;

	if (m == NULL)
		return;
	if (atomic_exchange(&m->running, false))
		pthread_join(m->thread, NULL);
	pthread_mutex_lock(&aqm_registry_lock);
	for (pp = &registry; *pp != NULL; pp = &(*pp)->next_model) {
		if (*pp == m) {
			*pp = m->next_model;
			break;
		}
	}
	aqm_peer_unlink(m);
	pthread_mutex_unlock(&aqm_registry_lock);
	aqm_wire_close(m);
	pthread_mutex_destroy(&m->lock);
	AQM_LSAN_UNROOT(m);
	rte_memzone_free(m->mz);
}
