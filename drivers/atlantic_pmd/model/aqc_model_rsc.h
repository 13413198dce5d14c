/* SPDX-License-Identifier: BSD-3-Clause */
/* AQC chip model: the LRO (RSC) engine's state (aqc_model_rsc.c). */
#ifndef AQC_MODEL_RSC_H
#define AQC_MODEL_RSC_H

#include <stdbool.h>
#include <stdint.h>

/* Up to 16 descriptors per session (LNX hw_atl_b0_internal.h
 * HW_ATL_B0_LRO_RXD_MAX); 2 open sessions per ring in the model. */
#define AQM_RSC_DESC_MAX 16u
#define AQM_RSC_SESSIONS 2u
/* Ethernet + 2 tags + IPv6 (40) + TCP with options (60). */
#define AQM_RSC_HDR_MAX  (14u + 8u + 40u + 60u)

struct aqm_rsc_sess {
	bool open;
	bool v6;
	bool psh;
	uint8_t hdr[AQM_RSC_HDR_MAX];  /* the first segment's headers */
	uint32_t hdr_len, l3_off, l4_off;
	uint32_t next_seq;             /* the next in-order sequence number */
	uint16_t ip_id;                /* the first segment's IPv4 ID */
	bool id_fixed;                 /* IPv4 IDs all equal (else +1 each) */
	uint32_t segs, mss, len;       /* segments, first payload, frame bytes */
	uint32_t fill;                 /* bytes in the current descriptor */
	uint32_t ndesc;
	uint16_t desc[AQM_RSC_DESC_MAX];
	uint64_t buf[AQM_RSC_DESC_MAX];
	uint32_t dw0, hash, status;    /* write-back words of the first */
	uint16_t vlan;
	uint64_t t_start;              /* ns */
};

struct aqm_rsc {
	struct aqm_rsc_sess s[32][AQM_RSC_SESSIONS];   /* per ring (AQM_RINGS) */
};

/* One received frame as the RX DMA sees it (after VLAN strip). */
struct aqm_rsc_frame {
	const uint8_t *data;
	uint32_t len;
	uint32_t l3_off, l4_off, l3_end;
	bool v6, tcp, sane, frag;
	uint32_t dw0, hash, status;    /* write-back words (checksum bits) */
	uint16_t vlan;
};

struct aqc_model;
/* true: the frame went into a session; false: deliver it the normal way
 * (the engine has closed whatever it had to close before it). */
bool aqm_rsc_rx(struct aqc_model *m, unsigned int ring, const struct aqm_rsc_frame *f);
/* Close sessions past their coalescing interval, or of rings whose LRO
 * bit was cleared. */
void aqm_rsc_poll(struct aqc_model *m);
/* A disabled ring (AQM_RINGS: all, at reset): open sessions vanish. */
void aqm_rsc_drop(struct aqc_model *m, unsigned int ring);

#endif /* AQC_MODEL_RSC_H */
