/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The AQC chip model: a software A1 AQC (AQC107 class, B1 silicon, firmware
 * 3.x) behind a BAR0-sized register file in memory.
 *
 * What it does
 *  - Register file: AQC_BAR0_SIZE bytes; every register of AQC_REGS
 *    (aqc_regs.h) starts at its reset value. The driver writes it with
 *    rte_write32 exactly as it writes a real BAR0.
 *  - Control plane (always run by the model thread): global soft reset
 *    (0x0000 bit 15) self-clears after ~1 ms and reboots the firmware, which
 *    publishes its version, boot exit code, mailbox/RPC/eFuse addresses after
 *    ~2 ms more; MIF reads of MCP memory (B1 auto-increment); link from the
 *    requested rates (0x0368), LINK_DROP and the cable state, up ~20 ms after
 *    it is requested (autonegotiation); statistics and
 *    temperature toggles (0x036C -> 0x0374) with the mailbox updated; RSS key
 *    and RETA write strobes; the descriptor-cache handshake 0x5A00 -> 0x5A10,
 *    answered only after the DMA work in flight has finished; a ring's head
 *    returns to 0 when the ring is disabled (INFERRED from how drivers
 *    restart rings).
 *  - DMA engine (model thread, or aqc_model_step() in step mode): TX rings
 *    [head, tail): context and data descriptors gathered into frames, VLAN
 *    insertion, IPv4 and TCP/UDP checksum insertion, DD written into the WB
 *    descriptors, head advanced, TX DMA counters; TCP segmentation (LSO)
 *    from the context descriptor (docs/ref/aqc.md §5.2, §6.3 flag masks).
 *    RX: L2 filters (station MAC filters, broadcast, all-multicast,
 *    promiscuous), RSS (Toeplitz, 64 entry RETA, hash types of 0x5040) or
 *    queue 0, VLAN strip per ring, packet type, IPv4/L4 checksum check,
 *    write-back descriptors exactly as §5.4, frames longer than the ring's
 *    buffer over consecutive descriptors (DD on each, EOP on the last). A ring without room for a
 *    whole frame drops it and counts it in 0x6818, as the chip does.
 *  - Wire: loop (TX comes back on RX), pcap (rx_pcap fed when the RX ring
 *    has room -- paced, lossless -- from the moment rx_start says; tx_pcap
 *    written, flushed whenever a TX
 *    ring is disabled and closed on destroy), peer (TX goes to another model
 *    port's receive side through a bounded queue; a full queue stalls TX),
 *    none (TX is counted and discarded).
 *
 *  - L2 filters also: the 16 VLAN filters and VLAN promiscuous (§6.6,
 *    0x5290 / 0x5280), multicast frames against the exact MAC filters 1..32.
 *    The MAC counters (mailbox uprc/mprc/bprc...) count every frame the
 *    cable brings, before the filters; the DMA counters what reached a ring.
 *  - Firmware: negotiated pause echoed in 0x0374 bits 3/4 while the link is
 *    up. Interrupts: only the link cause (general map 3) latching its status
 *    bit in 0x2000, cleared through 0x2050; no interrupt is ever delivered.
 *
 *  - Firmware services (aqc_model_mcp.c): the B1 upload mailbox into the
 *    RPC buffer, RPC transactions (recorded, acknowledged with an empty
 *    reply), SMBus reads and writes of an optional SFP module's EEPROM,
 *    sleep-proxy and WoL arming echoed.
 *
 *  - LRO (aqc_model_rsc.c): in-order TCP segments of one flow coalesced
 *    per ring as an RSC engine does, chained by next-descriptor pointers.
 *
 * What it does not do: header split, interrupt delivery and the other
 * causes, pause frames on the wire, the 0x5250 multicast filters, acting on
 * RPC messages (WoL, sleep proxy), FLB boot, the FW 4.x interface (only
 * the version number changes).
 *
 * A1 with a 1.x fw_version (e.g. 0x0105003a): the FW 1.x interface instead
 * of 2.x/3.x (aqc_model_fw1x.c): MPI state machine in 0x0368/0x036C, eFuse
 * address in 0x0374, mailbox statistics kept current, a mailbox heartbeat.
 *
 * The A2 variant (gen AQC_MODEL_AQC113, devarg model=aqc113; the contract
 * of its control plane is at the top of aqc_model_a2.c): MIF ID 0x203, MCP
 * reboot through 0x3040, the firmware's shared IN/OUT buffers with version,
 * link, MAC, filter caps, 64-bit statistics and the 0x0E00/0x0E04 request
 * handshake, the action resolver table (ART) deciding drop/queue/TC for
 * every received frame once the new filter engine (0x5104 bit 11) is on,
 * A2 RSS hash types (0x54C8) and redirection table (0x6200). Firmware
 * faults can be injected (aqc_model_set_fw_fault) to test the driver's
 * timeouts. The A1 firmware can be made mute (AQC_FW_MUTE).
 * DMA faults (aqc_model_set_dma_faults): RX write-back errors, corrupted
 * lengths, late and out-of-order write-back, a TX engine that stalls.
 * Random faults (config fault_every, devargs faults= and fault_seed=) start
 * those, frames that arrive damaged, link flaps and (wire=peer) a stalled
 * cable on their own, so a whole application can be soaked under them.
 *
 * Addresses in descriptors are IOVAs. With dma = AQC_DMA_DIRECT (IOVA as
 * VA) the model dereferences them; with AQC_DMA_TRANSLATE (IOVA as PA, the
 * hugepage deployment) it looks each one up in the EAL memory segment lists,
 * as the bus does for a device that sees physical addresses. An address in
 * no segment is a DMA fault: TX drops the packet (tx_errors), RX writes the
 * write-back with the DMA error bit (§5.4 dword 0 bit 12); both count
 * dma_faults.
 *
 * Threads: one model thread per model (a plain pthread, not an lcore); when
 * idle it naps 20 us, and 200 us once idle for a few milliseconds. In step
 * mode it runs only the control plane and aqc_model_step() runs the DMA
 * engine in the caller's thread, so datapath tests are deterministic.
 */
#ifndef AQC_MODEL_H
#define AQC_MODEL_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "aqc_regs.h"

enum aqc_wire {
	AQC_WIRE_LOOP,
	AQC_WIRE_PCAP,
	AQC_WIRE_PEER,
	AQC_WIRE_NONE,
};

#define AQC_MODEL_NAME_LEN 64

enum aqc_model_gen {
	AQC_MODEL_AQC107,    /* A1, B1 silicon, FW 2.x/3.x mailbox */
	AQC_MODEL_AQC113,    /* A2, FW 1.x shared buffers */
};

/* What the A2 firmware does wrong (tests of the driver's error paths). */
enum aqc_model_fw_fault {
	AQC_FW_OK,
	AQC_FW_BOOT_HANG,    /* 0x3040 never shows BOOT_STARTED after a reboot */
	AQC_FW_INIT_FAIL,    /* boot ends with FW_INIT_FAILED (bit 29) */
	AQC_FW_HOSTBOOT,     /* no flash FW: 0x0F00 bit 0 host-boot request */
	AQC_FW_NO_ACK,       /* 0x0E04 bit 0 stays 1: requests never taken */
	AQC_FW_TORN,         /* OUT transaction counters A != B forever */
	AQC_FW_ART_SEM_BUSY, /* semaphore 3 (0x03AC) never granted */
	AQC_FW_MUTE,         /* A1 only: the firmware boots and publishes its
			      * addresses, then answers nothing - MIF reads
			      * never complete, link and statistics requests
			      * in 0x0368/0x036C are not taken (a hung MCP) */
};

/* How the DMA engine reads the addresses in descriptors (aqc_model_iova.c). */
enum aqc_dma_mode {
	AQC_DMA_DIRECT,      /* IOVA as VA: the address is a pointer */
	AQC_DMA_TRANSLATE,   /* IOVA as PA (or any IOVA): looked up in the EAL
			      * memory segment lists; unknown = DMA fault */
};

/* When the receive side of a pcap wire starts to deliver rx_pcap frames
 * (aqc_model_wire.c). A real link partner sends whenever it likes and a NIC
 * drops what arrives before its filters are set; a capture replay stands for
 * a traffic generator that the operator starts once the receiver is ready. */
enum aqc_rx_start {
	AQC_RX_START_POLL,   /* rx_delay_ms after the link is up and the
			      * application has polled an RX queue once */
	AQC_RX_START_LINK,   /* rx_delay_ms after the link is up */
	AQC_RX_START_NOW,    /* as soon as a ring can take a frame */
};

#define AQC_RX_DELAY_MS_DEFAULT 100u
#define AQC_RX_DELAY_MS_MAX 60000u
#define AQC_FAULT_EVERY_MAX 1000000000u

struct aqc_model_config {
	enum aqc_model_gen gen;
	char name[AQC_MODEL_NAME_LEN];     /* e.g. the vdev name "net_aqc_sim0" */
	enum aqc_wire wire;
	char rx_pcap[PATH_MAX];            /* "" = none */
	char tx_pcap[PATH_MAX];            /* "" = none */
	char peer[AQC_MODEL_NAME_LEN];     /* wire=peer: the other model */
	uint8_t mac[6];                    /* permanent MAC in the eFuse block */
	uint32_t rates;                    /* supported AQC_RATE_* bits */
	uint32_t fw_version;               /* A1: 0x0018 after boot; A2: OUT
					    * bundle version (major<<24|minor<<16|build) */
	enum aqc_model_fw_fault fw_fault;  /* A2 only */
	bool step_mode;
	enum aqc_dma_mode dma;             /* default AQC_DMA_DIRECT */
	enum aqc_rx_start rx_start;        /* wire=pcap; default POLL */
	uint32_t rx_delay_ms;              /* default AQC_RX_DELAY_MS_DEFAULT */
	uint32_t rx_loops;                 /* wire=pcap: plays of rx_pcap, one
					    * after another; 0 = without end
					    * (until the port is closed); default 1 */
	/* Random faults (aqc_model_fault.c): on average one fault starts per
	 * fault_every frames the wire delivers (0 = none, the default), the
	 * kinds and their lengths drawn from a generator seeded with
	 * fault_seed, so a seed repeats its run's faults in kind and order. */
	uint32_t fault_every;
	uint64_t fault_seed;
	/* A1: an SFP module on the firmware's SMBus: sfp[0..255] is its
	 * SFF-8472 A0h page (device 0x50), sfp[256..511] the A2h page
	 * (0x51). Absent (default): every SMBus request fails. */
	bool sfp_present;
	uint8_t sfp[512];
};

/* What the A1 firmware was asked through its RPC buffer
 * (aqc_model_mcp.c). */
struct aqc_model_fw_log {
	uint32_t uploads;        /* dwords stored through the B1 upload mailbox */
	uint32_t upload_errors;  /* offsets outside the RPC buffer */
	uint32_t rpc_calls;      /* RPC transactions acknowledged */
	uint32_t rpc_msg_id;     /* the last message: its first dword */
	uint32_t rpc_len;        /* and its length as given in 0x338 */
	uint8_t rpc_msg[128];    /* and its first bytes (0 past the length) */
	uint32_t smbus_reads, smbus_writes, smbus_errors;
};

/* Counters the wire side keeps (the chip's own are in its registers). */
struct aqc_model_counters {
	uint64_t tx_frames;      /* frames put on the wire */
	uint64_t rx_frames;      /* frames written to an RX ring */
	uint64_t rx_ring_full;   /* dropped: not enough descriptors (0x6818) */
	uint64_t rx_filtered;    /* dropped by the L2 filters */
	uint64_t rx_disabled;    /* dropped: RX packet buffer or ring disabled */
	uint64_t tx_errors;      /* malformed TX descriptor chains */
	uint64_t pcap_in;        /* rx_pcap records taken: put on the wire
				  * (or skipped as no frame: caplen 0 or
				  * above the MAC's maximum) */
	uint64_t dma_faults;     /* DMA addresses in no host memory segment */
	uint64_t faults_injected; /* frames hit by aqc_model_set_dma_faults() */
	uint64_t rsc_merged;     /* LRO: segments appended to an open session */
	uint64_t rsc_aggregates; /* LRO: sessions closed with >= 2 segments */
	/* started by the random injector (config fault_every); its DMA
	 * faults are counted in faults_injected as they hit a frame */
	uint64_t random_faults;  /* faults started, every kind */
	uint64_t fault_mac_err;  /* frames delivered damaged (bad FCS) */
	uint64_t fault_tx_stalls;
	uint64_t fault_link_flaps;
	uint64_t fault_peer_stalls;
};

/* DMA faults injected into the engine (tests, soak). The rx_* counts are
 * frames still to hit, each taken once per frame written to a ring:
 *  rx_dma_err  the buffer write fails as a PCIe write error would: data
 *              not written, every descriptor of the frame written back
 *              with the DMA error bit (docs/ref/aqc.md §5.4 dword 0 bit 12);
 *  rx_bad_len  the write-back's length is corrupted (alternately 0 and
 *              one byte more than the frame's buffers hold), DD and EOP
 *              set - what a bit error in the write-back looks like;
 *  rx_late     the frame's write-back dword 2 (DD, EOP, length) is held
 *              back until the next DMA pass (aqc_model_step, or the
 *              thread's next pass): frames written after it in the same
 *              pass complete first - write-back late and out of order.
 *  tx_stall    while set, the TX engine fetches nothing: heads stay, no
 *              DD is written, no frame leaves (a hung TX DMA).
 */
struct aqc_model_dma_faults {
	uint32_t rx_dma_err;
	uint32_t rx_bad_len;
	uint32_t rx_late;
	bool tx_stall;
};

struct aqc_model;

/* Fill cfg with defaults: AQC107, wire loop, 10G, FW 3.1.58, MAC
 * 02:00:ac:00:00:00. */
void aqc_model_config_default(struct aqc_model_config *cfg, const char *name);
/* The A2 defaults where they differ: rates down to 10M, FW 1.3.34. */
void aqc_model_config_a2(struct aqc_model_config *cfg);

/* Create a model, power it on (firmware ready) and start its thread.
 * Returns NULL with *err = -errno (pcap open failure: -EIO, with a log). */
struct aqc_model *aqc_model_create(const struct aqc_model_config *cfg, int *err);

/* Stop the thread, close the captures, unlink a peer, free everything. */
void aqc_model_destroy(struct aqc_model *m);

/* The BAR0 register file (AQC_BAR0_SIZE bytes). */
uint8_t *aqc_model_bar(struct aqc_model *m);

/* The model registered under name (the vdev name), or NULL. */
struct aqc_model *aqc_model_lookup(const char *name);

/* In a secondary process: the model the primary created under name, or
 * NULL. Its register file and state live in a memzone (the same address
 * in every process); its thread, captures and cable stay in the primary,
 * so a secondary may call aqc_model_bar(), aqc_model_get_counters() and
 * aqc_model_rx_polled() on it, and nothing else. */
struct aqc_model *aqc_model_lookup_shared(const char *name);

/* Step mode: run the DMA engine until idle or budget frames moved (TX
 * frames sent + frames received from the wire). Returns frames moved.
 * In thread mode it returns 0 and does nothing. */
unsigned int aqc_model_step(struct aqc_model *m, unsigned int budget);

/* Put a frame on the receive side of the wire as if it arrived from the
 * cable. Returns 0 (written to a ring), -ENOBUFS (ring full, counted in
 * 0x6818), -EPERM (filtered), -ENETDOWN (RX disabled or link down),
 * -EINVAL (bad length). */
int aqc_model_inject(struct aqc_model *m, const void *frame, uint32_t len);

/* The same, for a frame the MAC received damaged (bad FCS): written to the
 * ring with RX_STAT MAC error set (§5.4), as the chip reports it. */
int aqc_model_inject_bad(struct aqc_model *m, const void *frame, uint32_t len);

/* Plug or unplug the cable (link follows through the firmware). */
void aqc_model_set_cable(struct aqc_model *m, bool up);

/* The application polled one of the port's RX queues (the driver calls it
 * on the first burst after a queue start): the pcap wire's POLL start. */
void aqc_model_rx_polled(struct aqc_model *m);

void aqc_model_get_counters(struct aqc_model *m, struct aqc_model_counters *c);
void aqc_model_get_fw_log(struct aqc_model *m, struct aqc_model_fw_log *log);

/* Replace the pending DMA faults (struct above). */
void aqc_model_set_dma_faults(struct aqc_model *m, const struct aqc_model_dma_faults *f);

/* A stalled cable (wire=peer; tests, soak): while stall is set the port
 * neither takes in what its peer sent (the frames wait in the cable's
 * bounded queue; once it is full the peer's TX ring stops moving) nor puts
 * its own TX frames on the cable (they stay in the TX ring, which fills).
 * Nothing is lost while stalled; when the stall ends the queued frames
 * arrive at once and those the RX ring has no room for are dropped and
 * counted (0x6818, rx_ring_full), as a burst from a real cable would be.
 * 0, or -EINVAL when the port's wire is not peer. */
int aqc_model_set_peer_stall(struct aqc_model *m, bool stall);

/* A global soft reset (0x0000 bit 15) requested from outside the driver,
 * as another function or the firmware can (A1 only): ~1 ms later every
 * register takes its reset value - rings and packet buffers off, the DMA
 * counters at 0 - and the firmware reboots; descriptors and buffers in
 * host memory stay as they were. 0, or -ENOTSUP on the A2 model. */
int aqc_model_global_reset(struct aqc_model *m);

/* Switch the firmware's misbehaviour at run time (boot faults act at the
 * next reboot, the others at once). -EINVAL for a fault the model's
 * generation has not: A1 knows only AQC_FW_OK and AQC_FW_MUTE, A2 all
 * but AQC_FW_MUTE. */
int aqc_model_set_fw_fault(struct aqc_model *m, enum aqc_model_fw_fault f);
/* A2: add v to FW statistics counter idx (enum aqc2_fw_stat), e.g. to show
 * that the driver reads all 64 bits. -EINVAL on A1 or a bad index. */
int aqc_model_a2_add_stat(struct aqc_model *m, unsigned int idx, uint64_t v);

/* Observe frames put on the wire (tests): called in the DMA engine's thread
 * for every transmitted frame, after the wire itself. NULL to remove. */
typedef void (*aqc_model_tx_tap_t)(void *arg, const uint8_t *frame, uint32_t len);
void aqc_model_set_tx_tap(struct aqc_model *m, aqc_model_tx_tap_t fn, void *arg);

#endif /* AQC_MODEL_H */
