/* SPDX-License-Identifier: BSD-3-Clause */
/* AQC chip model internals shared by its files (contract in aqc_model.h). */
#ifndef AQC_MODEL_PRIV_H
#define AQC_MODEL_PRIV_H

#include <pthread.h>
#include <stdatomic.h>

#include <pcap/pcap.h>

#include "aqc_model.h"
#include "aqc2_regs.h"
#include "aqc_model_rsc.h"

/* MCP memory the firmware exposes through the MIF (docs/ref/aqc.md §3.1); the addresses
 * it publishes are model choices. */
#define AQM_MCP_SIZE      0x4000u
#define AQM_MCP_MBOX      0x1000u
#define AQM_MCP_EFUSE     0x2000u
#define AQM_MCP_RPC       0x3000u
#define AQM_BOOT_EXIT_OK  0x0001u     /* any code but 0, 0xDEAD, 0xF1A7 */
#define AQM_RESET_NS      1000000ull  /* reset bit self-clears after 1 ms */
#define AQM_BOOT_NS       2000000ull  /* firmware up 2 ms later */
#define AQM_AUTONEG_NS    20000000ull /* link up 20 ms after it is requested */
#define AQM_RINGS         32u
#define AQM_FRAME_MAX     (AQC_MAX_FRAME + 8u)  /* + a VLAN tag and slack */
#define AQM_PEER_SLOTS    128u
#define AQM_IDLE_FAST     256u        /* idle passes before the long naps */
#define AQM_IOVA_CACHE    8u          /* memory segments remembered */
#define AQM_GATHER_MAX    (262144u + 1024u)    /* §6.3: LSO payload <= 262089 */

enum aqm_phase { AQM_READY, AQM_IN_RESET, AQM_BOOTING };

struct aqm_peer_slot {
	uint32_t len;
	uint8_t data[AQM_FRAME_MAX];
};

/* Single-producer (the peer's DMA engine) single-consumer queue of frames. */
struct aqm_peer_queue {
	_Atomic uint32_t head;   /* consumer */
	_Atomic uint32_t tail;   /* producer */
	struct aqm_peer_slot slot[AQM_PEER_SLOTS];
};

/* One EAL memory segment: IOVA range and where the process sees it. */
struct aqm_iova_seg {
	uint64_t iova, len;
	uint8_t *va;
};

struct aqm_tx_ctx {
	uint32_t ctl, ctl2;
};

/* A write-back dword 2 (DD, EOP, length) held back by the rx_late fault. */
#define AQM_LATE_MAX 64u
struct aqm_late_wb {
	uint32_t *dw2;
	uint32_t value;
	unsigned int ring;
};

/* The random fault injector's state (aqc_model_fault.c); times are
 * CLOCK_MONOTONIC ns, 0 = that fault is not running. */
struct aqm_random_faults {
	uint64_t rng;
	uint64_t tx_stall_until;
	uint64_t cable_back_at;
	uint64_t peer_stall_until;
	uint32_t mac_err_left;         /* next frames to arrive damaged */
};

/* In one memzone with the register file (aqc_model.c), so that a
 * secondary process can read the registers and counters; its thread,
 * captures and peer queue stay the primary's. */
struct aqc_model {
	const struct rte_memzone *mz;
	uint8_t *bar;
	struct aqc_model_config cfg;
	pthread_mutex_t lock;          /* control pass, DMA pass, inject */
	pthread_t thread;
	_Atomic bool running;
	bool cable_up;
	enum aqm_phase phase;
	uint64_t phase_until;          /* CLOCK_MONOTONIC ns */
	uint64_t autoneg_until;        /* link comes up then (0: not negotiating) */
	uint32_t mcp[AQM_MCP_SIZE / 4];
	uint32_t rss_key[10];          /* as written: address a = key dword 9-a */
	uint16_t reta[12];
	bool tx_was_on[AQM_RINGS];
	bool rx_was_on[AQM_RINGS];
	struct aqm_tx_ctx tx_ctx[AQM_RINGS][2];
	struct aqc_fw_stats fw;        /* cumulative MAC counters */
	uint32_t rpc_ctl_taken;        /* 0x338 as last acknowledged */
	uint64_t fw1x_tid_at;          /* FW 1.x: next mailbox heartbeat */
	struct aqc_model_fw_log fwlog;
	uint8_t sfp[512];              /* the module's EEPROM (writable) */
	/* A2 */
	bool a2;
	enum aqc_model_fw_fault fault;
	uint64_t st64[AQC2_ST_COUNT];  /* FW statistics, "B0" layout */
	bool st_dirty;                 /* st64 changed since last publication */
	uint32_t a2_link_ctl;          /* IN.link_control as last taken */
	uint32_t a2_link_opts;         /* IN.link_options as last taken */
	struct aqc_model_counters cnt;
	struct aqc_model_dma_faults dma_fault;  /* still to inject */
	struct aqm_late_wb late[AQM_LATE_MAX];  /* held-back write-backs */
	unsigned int n_late;
	unsigned int bad_len_seq;      /* rx_bad_len: 0 or too long, in turn */
	struct aqm_rsc rsc;            /* LRO sessions (aqc_model_rsc.c) */
	struct aqm_iova_seg iova_cache[AQM_IOVA_CACHE];
	unsigned int iova_next;
	struct aqm_random_faults rf;   /* config fault_every (aqc_model_fault.c) */
	/* wire */
	_Atomic bool peer_stall;       /* aqc_model_set_peer_stall (aqc_model_fault.c) */
	pcap_t *rx_pcap;
	pcap_t *dead;
	pcap_dumper_t *tx_dump;
	uint8_t *pcap_pending;         /* next rx_pcap frame, not yet delivered */
	uint32_t pcap_pending_len;
	bool pcap_pending_bad;         /* it arrives damaged (a random fault) */
	uint32_t pcap_plays;           /* rx_pcap plays finished */
	uint64_t pcap_play_frames;     /* records taken in the current play */
	_Atomic bool app_polled;       /* aqc_model_rx_polled() was called */
	uint64_t wire_go_at;           /* rx_pcap delivers from then (0: not armed) */
	struct aqc_model *peer;        /* guarded by the registry lock */
	struct aqm_peer_queue *inq;    /* frames from the peer */
	aqc_model_tx_tap_t tap;
	void *tap_arg;
	uint8_t frame[AQM_GATHER_MAX]; /* TX gather buffer (LSO: whole packet) */
	uint8_t seg[AQM_FRAME_MAX];    /* one LSO segment */
	uint8_t rxbuf[AQM_FRAME_MAX];  /* RX working copy (VLAN strip) */
	struct aqc_model *next_model;  /* registry list */
};

static inline uint32_t
aqm_rd(const struct aqc_model *m, uint32_t off)
{
	return __atomic_load_n((const uint32_t *)(const void *)(m->bar + off),
			       __ATOMIC_ACQUIRE);
}

static inline void
aqm_wr(struct aqc_model *m, uint32_t off, uint32_t v)
{
	__atomic_store_n((uint32_t *)(void *)(m->bar + off), v, __ATOMIC_RELEASE);
}

static inline void
aqm_add64(struct aqc_model *m, uint32_t lo, uint64_t v)
{
	uint64_t c = ((uint64_t)aqm_rd(m, lo + 4) << 32) | aqm_rd(m, lo);

	c += v;
	aqm_wr(m, lo, (uint32_t)c);
	aqm_wr(m, lo + 4, (uint32_t)(c >> 32));
}

uint64_t aqm_now_ns(void);

/* Internet checksum (RFC 1071): n bytes at p added to s as big-endian
 * 16-bit words (an odd last byte padded), and the carries folded. */
static inline uint32_t
aqm_sum16(const uint8_t *p, uint32_t n, uint32_t s)
{
	for (; n > 1; n -= 2, p += 2)
		s += (uint32_t)p[0] << 8 | p[1];
	if (n)
		s += (uint32_t)p[0] << 8;
	return s;
}

static inline uint16_t
aqm_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* Guards the model list and peer links (taken after m->lock, never before). */
extern pthread_mutex_t aqm_registry_lock;

/* aqc_model_dma.c: write the held-back write-backs of rings still enabled;
 * drop those of ring `ring` (all rings: AQM_RINGS) without writing. */
void aqm_late_flush(struct aqc_model *m);
void aqm_late_drop(struct aqc_model *m, unsigned int ring);

/* aqc_model.c: every register of AQC_REGS to its reset value, the rest
 * of the BAR to 0 (A2 registers, shared buffers and ART included). */
void aqm_regs_reset(struct aqc_model *m);

/* aqc_model_a2.c: power-on, control plane, RX steering, counters. */
void aqm_a2_power_on(struct aqc_model *m);
bool aqm_a2_ctl_boot(struct aqc_model *m);
bool aqm_a2_ctl_fw(struct aqc_model *m);
/* ART decision for a received frame: queue (>= 0) or -1 = drop. */
int aqm_a2_steer(const struct aqc_model *m, const uint8_t *f, unsigned int ntags,
		 uint16_t tci, bool hashed, uint32_t hash);
void aqm_a2_count(struct aqc_model *m, bool rx, const uint8_t *f, uint32_t len,
		  bool error);

/* An A1 model whose firmware speaks the 1.x interface (aqc_model_fw1x.c). */
static inline bool
aqm_fw1x(const struct aqc_model *m)
{
	return !m->a2 && (m->cfg.fw_version >> 24) == 1;
}

static inline bool
aqm_link_up(const struct aqc_model *m)
{
	if (m->a2)
		return (aqm_rd(m, AQC2_FW_OUT + AQC2_OUT_LINK_STATUS) & AQC2_LINK_RATE_MASK) != 0;
	if (aqm_fw1x(m))
		return (aqm_rd(m, AQC_R_MPI_CTL2) >> 16) != 0;   /* 0x036C 31:16 */
	return (aqm_rd(m, AQC_R_MPI_STATE) & AQC_RATE_ALL) != 0;
}

/* aqc_model_fw1x.c: boot-time addresses and the control pass of FW 1.x. */
void aqm_fw1x_boot(struct aqc_model *m);
bool aqm_fw1x_pass(struct aqc_model *m);

/* aqc_model.c, §6.9: a routed link cause (general map 3: bit 7 enable,
 * bits 4:0 vector) latches its vector's status bit when the link changes,
 * after any pending 0x2050 clear (the same interrupt block on A2, §10.2). */
void aqm_link_cause(struct aqc_model *m);

/* aqc_model_mcp.c: upload mailbox, RPC, SMBus, arming echoes (A1). */
bool aqm_mcp_pass(struct aqc_model *m);

/* aqc_model_dma.c: one pass over the TX rings and the wire inputs.
 * Returns frames moved. Caller holds m->lock. */
unsigned int aqm_dma_pass(struct aqc_model *m, unsigned int budget);
/* Deliver a frame to the RX side. pace: do not drop for lack of room or a
 * disabled ring, return -EAGAIN instead. mac_err: the MAC saw it damaged.
 * Caller holds m->lock. */
int aqm_rx_frame(struct aqc_model *m, const uint8_t *frame, uint32_t len, bool pace,
		 bool mac_err);

/* aqc_model_iova.c: host memory behind a DMA address. aqm_dma_ptr: len
 * bytes at iova inside one segment, or NULL. read/write: false (and
 * dma_faults counted) when some byte is in no segment. */
void *aqm_dma_ptr(struct aqc_model *m, uint64_t iova, uint32_t len);
bool aqm_dma_read(struct aqc_model *m, void *dst, uint64_t iova, uint32_t len);
bool aqm_dma_write(struct aqc_model *m, uint64_t iova, const void *src, uint32_t len);
void aqm_iova_flush(struct aqc_model *m);

/* aqc_model_fault.c, the random injector (config fault_every). init:
 * seed it. on_frame: the wire is about to deliver a frame (once per frame,
 * however often a paced frame is offered); maybe start a fault; true when
 * this frame is to arrive damaged. pass: end the timed faults whose time
 * is up (every DMA pass). Caller holds m->lock for on_frame and pass. */
void aqm_random_faults_init(struct aqc_model *m);
bool aqm_random_fault_on_frame(struct aqc_model *m);
void aqm_random_faults_pass(struct aqc_model *m);

/* aqc_model_wire.c */
int aqm_wire_open(struct aqc_model *m);
void aqm_wire_close(struct aqc_model *m);
/* The wire side of a transmitted frame; -EAGAIN = wire busy, retry later. */
int aqm_wire_tx(struct aqc_model *m, const uint8_t *frame, uint32_t len);
/* Check, without sending, whether aqm_wire_tx would accept a frame now. */
bool aqm_wire_tx_ready(struct aqc_model *m);
/* Feed the RX side from the wire (pcap, peer queue). Returns frames. */
unsigned int aqm_wire_rx(struct aqc_model *m, unsigned int budget);
void aqm_wire_flush(struct aqc_model *m);
/* Link model ports named as peers of each other (registry lock held). */
void aqm_peer_link(struct aqc_model *m, struct aqc_model *list);
void aqm_peer_unlink(struct aqc_model *m);

#endif /* AQC_MODEL_PRIV_H */
