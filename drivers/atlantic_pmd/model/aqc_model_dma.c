/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AQC chip model DMA engine: TX descriptor processing (docs/ref/aqc.md §5.1,
 * §5.2, §4.2, §4.3) and RX delivery in the write-back format (docs/ref/aqc.md
 * §5.4, §4.1), with the L2 filters (§6.4), RSS (§6.1), VLAN strip (§6.6) and
 * checksum offloads (§6.3).
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_thash.h>

#include "aqc_model_priv.h"

/* ---- frame parsing (bounds-checked: never reads past len) ---- */

enum { L3_IPV4 = 0, L3_IPV6 = 1, L3_OTHER = 2, L3_ARP = 3 };
enum { L4_TCP = 0, L4_UDP = 1, L4_SCTP = 2, L4_ICMP = 3, L4_OTHER = 7 };

struct aqm_pkt {
	unsigned int ntags;       /* VLAN tags in front of the EtherType */
	uint16_t tci;             /* outermost tag's TCI */
	unsigned int l3, l4;
	uint32_t l3_off, l3_hlen, l3_end, l4_off;
	bool frag;
	bool l3_sane;             /* header and lengths inside the frame */
};

static inline uint16_t
be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void
parse(const struct aqc_model *m, const uint8_t *f, uint32_t len, struct aqm_pkt *p)
{
	uint32_t tpid = aqm_rd(m, AQC_R_RPF_VLAN_TPID);
	uint16_t inner = AQC_FGET(VLAN_TPID_INNER, tpid);
	uint16_t outer = AQC_FGET(VLAN_TPID_OUTER, tpid);
	uint32_t off = 12;
	uint16_t et;

	memset(p, 0, sizeof(*p));
	p->l3 = L3_OTHER;
	p->l4 = L4_OTHER;
	if (len < 14)
		return;
	et = be16(f + 12);
	while ((et == inner || et == outer) && p->ntags < 2 && len >= off + 8) {
		if (p->ntags == 0)
			p->tci = be16(f + off + 2);
		p->ntags++;
		off += 4;
		et = be16(f + off);
	}
	off += 2;
	p->l3_off = off;
	if (et == 0x0806) {
		p->l3 = L3_ARP;
	} else if (et == 0x0800 && len >= off + 20 && (f[off] >> 4) == 4) {
		uint32_t ihl = (f[off] & 0xfu) * 4u, tot = be16(f + off + 2);
		uint8_t proto = f[off + 9];

		p->l3 = L3_IPV4;
		p->l3_hlen = ihl;
		p->l3_sane = ihl >= 20 && tot >= ihl && off + tot <= len;
		p->l3_end = off + tot;
		p->l4_off = off + ihl;
		p->frag = (be16(f + off + 6) & 0x3fff) != 0;
		p->l4 = proto == 6 ? L4_TCP : proto == 17 ? L4_UDP :
			proto == 132 ? L4_SCTP : proto == 1 ? L4_ICMP : L4_OTHER;
	} else if (et == 0x86dd && len >= off + 40 && (f[off] >> 4) == 6) {
		uint8_t nh = f[off + 6];

		p->l3 = L3_IPV6;
		p->l3_hlen = 40;
		p->l3_end = off + 40 + be16(f + off + 4);
		p->l3_sane = p->l3_end <= len;
		p->l4_off = off + 40;
		p->l4 = nh == 6 ? L4_TCP : nh == 17 ? L4_UDP :
			nh == 132 ? L4_SCTP : nh == 58 ? L4_ICMP : L4_OTHER;
	}
	/* the L4 header must be inside the packet for anything to use it */
	if (p->l4 == L4_TCP && (!p->l3_sane || p->l3_end < p->l4_off + 20 || p->frag))
		p->l4 = L4_OTHER;
	if (p->l4 == L4_UDP && (!p->l3_sane || p->l3_end < p->l4_off + 8 || p->frag))
		p->l4 = L4_OTHER;
}

/* ---- Internet checksum ---- */

static uint32_t
pseudo_sum(const uint8_t *f, const struct aqm_pkt *p)
{
	uint32_t l4len = p->l3_end - p->l4_off;
	uint8_t proto = p->l4 == L4_TCP ? 6 : 17;

	if (p->l3 == L3_IPV4)
		return aqm_sum16(f + p->l3_off + 12, 8, 0) + proto + l4len;
	return aqm_sum16(f + p->l3_off + 8, 32, 0) + proto + (l4len >> 16) + (l4len & 0xffff);
}

static uint32_t
l4_csum_off(const struct aqm_pkt *p)
{
	return p->l4_off + (p->l4 == L4_TCP ? 16 : 6);
}

/* ---- TX ---- */

/* §5.1: IPCSO/TUCSO; the L4 field holds the pseudo-header sum seeded by
 * the stack (docs/ref/aqc.md §5.1 usage facts), the chip adds the rest. */
static void
tx_offloads(struct aqc_model *m, uint8_t *f, uint32_t len, uint32_t cmd)
{
	uint32_t en = aqm_rd(m, AQC_R_TPO_CSUM);
	struct aqm_pkt p;

	parse(m, f, len, &p);
	if ((cmd & AQC_TXD_CMD_IPCSO) && (en & AQC_FMASK(TPO_IP4_CSUM_EN)) &&
	    p.l3 == L3_IPV4 && p.l3_off + p.l3_hlen <= len && p.l3_hlen >= 20) {
		uint16_t c;

		f[p.l3_off + 10] = f[p.l3_off + 11] = 0;
		c = (uint16_t)~aqm_fold(aqm_sum16(f + p.l3_off, p.l3_hlen, 0));
		f[p.l3_off + 10] = c >> 8;
		f[p.l3_off + 11] = c & 0xff;
	}
	if ((cmd & AQC_TXD_CMD_TUCSO) && (en & AQC_FMASK(TPO_L4_CSUM_EN)) &&
	    (p.l4 == L4_TCP || p.l4 == L4_UDP)) {
		uint32_t co = l4_csum_off(&p);
		uint16_t c = (uint16_t)~aqm_fold(aqm_sum16(f + p.l4_off, p.l3_end - p.l4_off, 0));

		if (p.l4 == L4_UDP && c == 0)
			c = 0xffff;
		f[co] = c >> 8;
		f[co + 1] = c & 0xff;
	}
}

static void
count_tx(struct aqc_model *m, const uint8_t *f, uint32_t len)
{
	aqm_add64(m, AQC_R_TX_DMA_PKTS_LO, 1);
	aqm_add64(m, AQC_R_TX_DMA_OCTS_LO, len);
	if ((f[0] & f[1] & f[2] & f[3] & f[4] & f[5]) == 0xff) {
		m->fw.bptc++;
		m->fw.bbtc += len;
	} else if (f[0] & 1) {
		m->fw.mptc++;
		m->fw.mbtc += len;
	} else {
		m->fw.uptc++;
		m->fw.ubtc += len;
	}
	if (m->a2)
		aqm_a2_count(m, false, f, len, false);
	m->cnt.tx_frames++;
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)be16(p) << 16 | be16(p + 2);
}

/* Insert an 802.1Q tag with tci after the MAC addresses. */
static uint32_t
vlan_insert(uint8_t *f, uint32_t len, uint16_t tci)
{
	memmove(f + 16, f + 12, len - 12);
	f[12] = 0x81;
	f[13] = 0x00;
	put16(f + 14, tci);
	return len + 4;
}

static void
emit(struct aqc_model *m, uint8_t *f, uint32_t len, bool vlan, uint16_t tci)
{
	if (vlan)
		len = vlan_insert(f, len, tci);
	count_tx(m, f, len);
	if (aqm_wire_tx(m, f, len) != 0)
		m->cnt.tx_errors++;   /* peer queue overflow inside one LSO burst */
}

/* §5.2 / §6.3: TCP segmentation. Headers (L2 + L3 + L4 lengths from the
 * context) are repeated in front of every MSS-sized piece of payload; IPv4
 * total length and ID (+1 per segment), IPv6 payload length, TCP sequence
 * number, the TCP flags masked by 0x7820 (first / middle) and 0x7824 (last),
 * and the IPv4 and TCP checksums are recomputed per segment. */
static bool
tx_lso(struct aqc_model *m, const struct aqm_tx_ctx *c, uint32_t len, bool vlan,
       uint16_t tci)
{
	uint32_t l2 = (c->ctl >> AQC_TXC_L2LEN_SHIFT) & 0x7f;
	uint32_t l3 = (c->ctl >> 31) | ((c->ctl2 & 0xff) << 1);
	uint32_t l4 = (c->ctl2 >> AQC_TXC_L4LEN_SHIFT) & 0xff;
	uint32_t mss = c->ctl2 >> AQC_TXC_MSS_SHIFT;
	bool ipv6 = (c->ctl & AQC_TXC_CMD_IPV6) != 0;
	uint32_t hdr = l2 + l3 + l4, payload, nseg, seq, m1, m2, m3;
	uint16_t id, flags;
	const uint8_t *f = m->frame;

	if (mss == 0 || l4 < 20 || l3 < (ipv6 ? 40u : 20u) || l2 < 14 || hdr >= len ||
	    hdr + mss > AQC_MAX_FRAME)
		return false;
	payload = len - hdr;
	nseg = (payload + mss - 1) / mss;
	seq = be32(f + l2 + l3 + 4);
	id = be16(f + l2 + 4);
	flags = be16(f + l2 + l3 + 12);
	m1 = aqm_rd(m, AQC_R_TPO_LSO_FLAGS1) & 0xfff;
	m2 = (aqm_rd(m, AQC_R_TPO_LSO_FLAGS1) >> 16) & 0xfff;
	m3 = aqm_rd(m, AQC_R_TPO_LSO_FLAGS2) & 0xfff;
	for (uint32_t k = 0; k < nseg; k++) {
		uint32_t n = RTE_MIN(mss, payload - k * mss), tlen = l4 + n, s;
		uint8_t *o = m->seg, *ip = o + l2, *tcp = o + l2 + l3;
		uint32_t mask = k == 0 ? m1 : m2;
		uint16_t csum;

		if (k == nseg - 1)
			mask = (k == 0 ? m1 : 0xfff) & m3;
		memcpy(o, f, hdr);
		memcpy(o + hdr, f + hdr + k * mss, n);
		put16(tcp + 12, (uint16_t)((flags & 0xf000) | (flags & mask)));
		put16(tcp + 4, (uint16_t)((seq + k * mss) >> 16));
		put16(tcp + 6, (uint16_t)(seq + k * mss));
		if (ipv6) {
			put16(ip + 4, (uint16_t)(l3 - 40 + tlen));
			s = aqm_sum16(ip + 8, 32, 0) + 6 + tlen;
		} else {
			put16(ip + 2, (uint16_t)(l3 + tlen));
			put16(ip + 4, (uint16_t)(id + k));
			ip[10] = ip[11] = 0;
			csum = (uint16_t)~aqm_fold(aqm_sum16(ip, l3, 0));
			put16(ip + 10, csum);
			s = aqm_sum16(ip + 12, 8, 0) + 6 + tlen;
		}
		tcp[16] = tcp[17] = 0;
		csum = (uint16_t)~aqm_fold(aqm_sum16(tcp, tlen, s));
		put16(tcp + 16, csum);
		emit(m, o, hdr + n, vlan, tci);
	}
	return true;
}

/* One TX ring: packets in [head, tail) whose EOP has been posted. */
static unsigned int
tx_ring(struct aqc_model *m, unsigned int n, unsigned int budget)
{
	uint32_t ctl = aqm_rd(m, AQC_RI(TXD_CTL, n));
	uint32_t size = AQC_FGET(TXD_LEN, ctl) * 8u;
	uint64_t base = ((uint64_t)aqm_rd(m, AQC_RI(TXD_BASE_HI, n)) << 32) |
			aqm_rd(m, AQC_RI(TXD_BASE_LO, n));
	struct aqc_tx_desc *d;
	uint32_t head, tail;
	unsigned int moved = 0;

	if (!(ctl & AQC_FMASK(TXD_EN)) || size == 0 || base == 0)
		return 0;
	head = AQC_FGET(TXD_HEAD_PTR, aqm_rd(m, AQC_RI(TXD_HEAD, n)));
	tail = aqm_rd(m, AQC_RI(TXD_TAIL, n));
	if (tail >= size || head >= size)
		return 0;
	while (head != tail && moved < budget && aqm_wire_tx_ready(m)) {
		uint32_t i = head, len = 0, cmd = 0, ctl2 = 0;
		bool eop = false, ok = true, first = true;

		while (i != tail && !eop) {
			uint64_t addr;
			uint32_t dctl, dctl2;

			d = aqm_dma_ptr(m, base + 16u * i, 16);
			if (d == NULL) {
				/* the ring itself is not in host memory: the
				 * engine stops on this ring (a fault, counted) */
				m->cnt.dma_faults++;
				return moved;
			}
			addr = __atomic_load_n(&d->addr, __ATOMIC_ACQUIRE);
			dctl = __atomic_load_n(&d->ctl, __ATOMIC_ACQUIRE);
			dctl2 = __atomic_load_n(&d->ctl2, __ATOMIC_ACQUIRE);

			if ((dctl & AQC_TXD_TYPE_MASK) == AQC_TXD_TYPE_CTX) {
				struct aqm_tx_ctx *c = &m->tx_ctx[n][(dctl & AQC_TXC_CTX_ID) ? 1 : 0];

				c->ctl = dctl;
				c->ctl2 = dctl2;
			} else if ((dctl & AQC_TXD_TYPE_MASK) == AQC_TXD_TYPE_DATA) {
				uint32_t blen = (dctl & AQC_TXD_BLEN_MASK) >> AQC_TXD_BLEN_SHIFT;

				if (first) {
					cmd = dctl;
					ctl2 = dctl2;
					first = false;
				}
				if (len + blen > ((cmd & AQC_TXD_CMD_LSO) ? AQM_GATHER_MAX - 4 :
						  AQC_MAX_FRAME) || (addr == 0 && blen != 0))
					ok = false;
				else if (ok)
					ok = aqm_dma_read(m, m->frame + len, addr, blen);
				len += ok ? blen : 0;
				eop = (dctl & AQC_TXD_EOP) != 0;
			} else {
				ok = false;
			}
			if (++i == size)
				i = 0;
		}
		if (!eop)
			break;   /* the rest of the packet is not posted yet */
		/* §5.1: DD into the descriptors that asked for write-back */
		for (uint32_t j = head; j != i; j = j + 1 == size ? 0 : j + 1) {
			uint32_t dctl;

			d = aqm_dma_ptr(m, base + 16u * j, 16);   /* found above */
			dctl = d->ctl;
			if ((dctl & AQC_TXD_TYPE_MASK) == AQC_TXD_TYPE_DATA &&
			    (dctl & AQC_TXD_CMD_WB))
				__atomic_store_n(&d->ctl, dctl | AQC_TXD_DD,
						 __ATOMIC_RELEASE);
		}
		if (ok && len >= 14) {
			const struct aqm_tx_ctx *c = &m->tx_ctx[n][(ctl2 & AQC_TXD_CT_IDX) ? 1 : 0];
			bool ctx = (ctl2 & AQC_TXD_CT_EN) != 0;
			bool vlan = ctx && (cmd & AQC_TXD_CMD_VLAN);
			uint16_t tci = (c->ctl & AQC_TXC_VLAN_MASK) >> AQC_TXC_VLAN_SHIFT;

			if (ctx && (cmd & AQC_TXD_CMD_LSO)) {
				if (!tx_lso(m, c, len, vlan, tci))
					m->cnt.tx_errors++;
			} else if (len <= AQC_MAX_FRAME) {
				if (vlan)
					len = vlan_insert(m->frame, len, tci);
				tx_offloads(m, m->frame, len, cmd);
				count_tx(m, m->frame, len);
				aqm_wire_tx(m, m->frame, len);
			} else {
				m->cnt.tx_errors++;
			}
		} else {
			m->cnt.tx_errors++;
		}
		head = i;
		aqm_wr(m, AQC_RI(TXD_HEAD, n), head);
		moved++;
	}
	return moved;
}

/* ---- RX ---- */

/* §6.4: broadcast, all-multicast, promiscuous, exact MAC filters. */
static bool
l2_accept(const struct aqc_model *m, const uint8_t *f)
{
	uint32_t l2 = aqm_rd(m, AQC_R_RPF_L2_CTL);
	uint32_t lo, hi;

	if (l2 & AQC_FMASK(L2_PROMISC))
		return true;
	if ((f[0] & f[1] & f[2] & f[3] & f[4] & f[5]) == 0xff)
		return (l2 & AQC_FMASK(L2_BC_EN)) != 0;
	/* a multicast address also matches the exact filters 1..32 (§6.4:
	 * drivers put their multicast lists there) */
	if ((f[0] & 1) && (aqm_rd(m, AQC_R_RPF_MC_MASK) & AQC_FMASK(MC_ACCEPT_ALL)))
		return true;
	lo = ((uint32_t)f[2] << 24) | ((uint32_t)f[3] << 16) | ((uint32_t)f[4] << 8) | f[5];
	hi = ((uint32_t)f[0] << 8) | f[1];
	for (unsigned int i = 0; i < AQC_UC_FILTERS; i++) {
		uint32_t h = aqm_rd(m, AQC_RI(RPF_UC_HI, i));

		if ((h & AQC_FMASK(UC_EN)) && AQC_FGET(UC_MAC_HI, h) == hi &&
		    aqm_rd(m, AQC_RI(RPF_UC_LO, i)) == lo)
			return true;
	}
	return false;
}

/* §6.6: VLAN promiscuous accepts every frame; otherwise a tagged frame
 * needs an enabled filter (0x5290 + 4i) with its VID and action 1 (host),
 * and an untagged one the accept-untagged bit. The outermost tag decides
 * (INFERRED: the filters hold one VID). */
static bool
vlan_accept(const struct aqc_model *m, const struct aqm_pkt *p)
{
	uint32_t ctl = aqm_rd(m, AQC_R_RPF_VLAN_CTL);

	if (ctl & AQC_FMASK(VLAN_PROMISC))
		return true;   /* DPDK sets only this bit and gets untagged frames */
	if (p->ntags == 0)
		return (ctl & AQC_FMASK(VLAN_ACCEPT_UNTAG)) != 0;
	for (unsigned int i = 0; i < AQC_VLAN_FILTERS; i++) {
		uint32_t f = aqm_rd(m, AQC_RI(RPF_VLAN_FLT, i));

		if ((f & AQC_FMASK(VLANF_EN)) && AQC_FGET(VLANF_ACTION, f) == 1 &&
		    AQC_FGET(VLANF_ID, f) == (p->tci & 0xfffu))
			return true;
	}
	return false;
}

/* docs/ref/aqc.md §6.1: Toeplitz over the hash types enabled in 0x5040. Returns the
 * write-back RSS type; *hash gets the hash. UDP uses its IP version's TCP
 * bit unless bit 0 ("don't use UDP") is set -- a model reading of §6.1. */
static uint32_t
rss_hash(const struct aqc_model *m, const uint8_t *f, const struct aqm_pkt *p,
	 uint32_t *hash)
{
	uint32_t types = aqm_rd(m, AQC_R_RPF_RSS_TYPES), tuple[9], n = 0, t;
	uint8_t key[AQC_RSS_KEY_LEN];
	bool l4 = p->l4 == L4_TCP || (p->l4 == L4_UDP && !(types & 1));
	bool l4_v4 = l4 && (types & (1u << 3)), l3_v4 = types & (1u << 4);
	bool l4_v6 = l4 && (types & (1u << 1)), l3_v6 = types & (1u << 2);

	if (m->a2) {
		/* docs/ref/aqc.md §6.1 A2: one 0x54C8 bit per flow type */
		uint32_t t2 = aqm_rd(m, AQC_R_A2_RSS_TYPES);

		l4 = p->l4 == L4_TCP || p->l4 == L4_UDP;
		l4_v4 = p->l4 == L4_TCP ? (t2 & AQC2_RSS_IPV4_TCP) : (t2 & AQC2_RSS_IPV4_UDP);
		l4_v6 = p->l4 == L4_TCP ? (t2 & AQC2_RSS_IPV6_TCP) : (t2 & AQC2_RSS_IPV6_UDP);
		l4_v4 = l4 && l4_v4;
		l4_v6 = l4 && l4_v6;
		l3_v4 = t2 & AQC2_RSS_IPV4;
		l3_v6 = t2 & AQC2_RSS_IPV6;
	}
	*hash = 0;
	if (p->l3 == L3_IPV4 && p->l3_sane) {
		if (l4_v4)
			t = p->l4 == L4_TCP ? AQC_RSS_TYPE_IPV4_TCP : AQC_RSS_TYPE_IPV4_UDP;
		else if (l3_v4)
			t = AQC_RSS_TYPE_IPV4, l4 = false;
		else
			return AQC_RSS_TYPE_NONE;
		for (unsigned int i = 0; i < 2; i++)
			tuple[n++] = (uint32_t)be16(f + p->l3_off + 12 + 4 * i) << 16 |
				     be16(f + p->l3_off + 14 + 4 * i);
	} else if (p->l3 == L3_IPV6 && p->l3_sane) {
		if (l4_v6)
			t = p->l4 == L4_TCP ? AQC_RSS_TYPE_IPV6_TCP : AQC_RSS_TYPE_IPV6_UDP;
		else if (l3_v6)
			t = AQC_RSS_TYPE_IPV6, l4 = false;
		else
			return AQC_RSS_TYPE_NONE;
		for (unsigned int i = 0; i < 8; i++)
			tuple[n++] = (uint32_t)be16(f + p->l3_off + 8 + 4 * i) << 16 |
				     be16(f + p->l3_off + 10 + 4 * i);
	} else {
		return AQC_RSS_TYPE_NONE;
	}
	if (l4)
		tuple[n++] = (uint32_t)be16(f + p->l4_off) << 16 | be16(f + p->l4_off + 2);
	for (unsigned int d = 0; d < 10; d++) {
		uint32_t w = m->rss_key[9 - d];

		key[4 * d] = w >> 24;
		key[4 * d + 1] = w >> 16;
		key[4 * d + 2] = w >> 8;
		key[4 * d + 3] = w;
	}
	*hash = rte_softrss(tuple, n, key);
	return t;
}

static unsigned int
reta_queue(const struct aqc_model *m, uint32_t hash)
{
	unsigned int bit = 3 * (hash & 63);
	uint32_t w = m->reta[bit / 16] | (bit / 16 < 11 ? (uint32_t)m->reta[bit / 16 + 1] << 16 : 0);

	return (w >> (bit % 16)) & 7;
}

/* docs/ref/aqc.md §5.4 checksum status of a received frame. */
static void
rx_csum(const struct aqc_model *m, const uint8_t *f, const struct aqm_pkt *p,
	uint32_t *type, uint32_t *status)
{
	uint32_t en = aqm_rd(m, AQC_R_RPO_CSUM);

	if ((en & AQC_FMASK(RPO_IP4_CSUM_EN)) && p->l3 == L3_IPV4 && p->l3_sane) {
		*type |= AQC_RXD_CNTL_IP4_CHK;
		if (aqm_fold(aqm_sum16(f + p->l3_off, p->l3_hlen, 0)) != 0xffff)
			*status |= AQC_RXD_STAT_IP4_ERR;
	}
	if ((en & AQC_FMASK(RPO_L4_CSUM_EN)) && (p->l4 == L4_TCP || p->l4 == L4_UDP)) {
		bool good;

		*type |= AQC_RXD_CNTL_L4_CHK;
		if (p->l4 == L4_UDP && p->l3 == L3_IPV4 && be16(f + l4_csum_off(p)) == 0)
			good = true;   /* IPv4 UDP without checksum */
		else
			good = aqm_fold(aqm_sum16(f + p->l4_off, p->l3_end - p->l4_off,
					  pseudo_sum(f, p))) == 0xffff;
		/* Bit 5 is "checksum computed", set for a bad checksum too, with
		 * bit 4 for the error. INFERRED from the drivers: DPDK's
		 * (drivers/net/atlantic/atl_rxtx.c) reads bit 5 as "computed"
		 * and bit 4 as "bad" and was proven on silicon; Linux's
		 * (hw_atl/hw_atl_b0.c) and FreeBSD's call a checksum good only
		 * with bit 4 clear and bit 5 set. This is the one layout all
		 * three read right; bit 4 alone would be "not checked" to DPDK. */
		*status |= AQC_RXD_STAT_L4_VALID | (good ? 0 : AQC_RXD_STAT_L4_ERR);
	}
}

/* docs/ref/aqc.md §8: the RX DMA counters count what reached a ring. */
static void
count_rx(struct aqc_model *m, uint32_t len)
{
	aqm_add64(m, AQC_R_RX_DMA_PKTS_LO, 1);
	aqm_add64(m, AQC_R_RX_DMA_OCTS_LO, len);
	m->cnt.rx_frames++;
}

/* §3.1 MAC statistics: the MAC counts every frame it receives from the
 * cable, before the L2 filters and the packet buffer decide (INFERRED: the
 * MAC sits in front of both), so frames the filters drop still appear in
 * uprc/mprc/bprc and only the DMA counters lack them. */
static void
count_mac(struct aqc_model *m, const uint8_t *f, uint32_t len, bool mac_err)
{
	if (mac_err)
		m->fw.erpr++;
	else if ((f[0] & f[1] & f[2] & f[3] & f[4] & f[5]) == 0xff) {
		m->fw.bprc++;
		m->fw.bbrc += len;
	} else if (f[0] & 1) {
		m->fw.mprc++;
		m->fw.mbrc += len;
	} else {
		m->fw.uprc++;
		m->fw.ubrc += len;
	}
	if (m->a2)
		aqm_a2_count(m, true, f, len, mac_err);
}

static void
count_drop(struct aqc_model *m)
{
	aqm_wr(m, AQC_R_RX_DMA_DROPS, aqm_rd(m, AQC_R_RX_DMA_DROPS) + 1);
	m->fw.dpc++;
	m->cnt.rx_ring_full++;
}

/* *at_mac: the frame got past the cable (link up), so the MAC saw it. */
static int
rx_frame(struct aqc_model *m, const uint8_t *frame, uint32_t len, bool pace,
	 bool mac_err, bool *at_mac)
{
	uint32_t type, status = AQC_RXD_DD, hash, ctl, size, bufsz, head, tail, avail;
	uint32_t ndesc, off = 0;
	struct aqm_pkt p;
	uint64_t base;
	bool dma_err = false, art, late, fault_err, bad_len;
	unsigned int q = 0;
	const uint8_t *data = frame;
	uint16_t vlan = 0;

	if (len < 14 || len > AQC_MAX_FRAME)
		return -EINVAL;
	if (m->phase != AQM_READY || !aqm_link_up(m)) {
		if (pace)
			return -EAGAIN;
		m->cnt.rx_disabled++;
		return -ENETDOWN;
	}
	*at_mac = true;
	if (!(aqm_rd(m, AQC_R_RPB_CTL) & AQC_FMASK(RPB_EN))) {
		if (pace)
			return -EAGAIN;
		m->cnt.rx_disabled++;
		return -ENETDOWN;
	}
	parse(m, frame, len, &p);
	art = m->a2 && (aqm_rd(m, AQC_R_A2_RPF_NEW_EN) & AQC2_RPF_NEW_EN_BIT);
	/* on A2 the resolver alone decides, VLAN included */
	if (!art && !vlan_accept(m, &p)) {
		m->cnt.rx_filtered++;
		return -EPERM;
	}
	/* RSS type and hash are reported only while RSS is enabled */
	type = AQC_RSS_TYPE_NONE;
	hash = 0;
	if (aqm_rd(m, AQC_R_RSS_CTL1) & AQC_FMASK(RSS_EN))
		type = rss_hash(m, frame, &p, &hash);
	if (art) {
		/* A2 with the new filter engine: the action resolver decides */
		int r = aqm_a2_steer(m, frame, p.ntags, p.tci, type != AQC_RSS_TYPE_NONE, hash);

		if (r < 0) {
			m->cnt.rx_filtered++;
			return -EPERM;
		}
		q = (unsigned int)r % AQM_RINGS;
	} else {
		if (!l2_accept(m, frame)) {
			m->cnt.rx_filtered++;
			return -EPERM;
		}
		if (type != AQC_RSS_TYPE_NONE)
			q = reta_queue(m, hash);
	}
	type |= ((uint32_t)p.l3 << 4) | ((uint32_t)p.l4 << 6);
	if (p.ntags > 0)
		type |= AQC_RXD_PKT_VLAN | (p.ntags > 1 ? AQC_RXD_PKT_QINQ : 0);
	rx_csum(m, frame, &p, &type, &status);
	if (mac_err)
		status |= AQC_RXD_STAT_MAC_ERR;   /* e.g. a bad FCS (§5.4) */
	late = m->dma_fault.rx_late > 0 && m->n_late < AQM_LATE_MAX;
	ctl = aqm_rd(m, AQC_RI(RXD_CTL, q));
	size = AQC_FGET(RXD_LEN, ctl) * 8u;
	bufsz = AQC_FGET(RXD_DATA_SIZE, aqm_rd(m, AQC_RI(RXD_BUF_SIZE, q))) * AQC_RX_BUF_UNIT;
	if (!(ctl & AQC_FMASK(RXD_EN)) || size == 0 || bufsz == 0) {
		if (pace)
			return -EAGAIN;
		m->cnt.rx_disabled++;
		aqm_wr(m, AQC_R_RX_DMA_DROPS, aqm_rd(m, AQC_R_RX_DMA_DROPS) + 1);
		return -ENETDOWN;
	}
	if (p.ntags > 0) {
		vlan = p.tci;
		if (ctl & AQC_FMASK(RXD_VLAN_STRIP)) {
			/* §6.6: the outer tag leaves the data, its TCI goes
			 * into the descriptor */
			memcpy(m->rxbuf, frame, 12);
			memcpy(m->rxbuf + 12, frame + 16, len - 16);
			data = m->rxbuf;
			len -= 4;
		}
	}
	/* LRO (aqc_model_rsc.c): frames hit by an injected fault or a MAC
	 * error take the normal path */
	if ((aqm_rd(m, AQC_R_RPO_LRO_EN) & (1u << q)) && !mac_err && !late &&
	    m->dma_fault.rx_dma_err == 0 && m->dma_fault.rx_bad_len == 0) {
		uint32_t cut = data != frame ? 4 : 0;
		struct aqm_rsc_frame rf = {
			.data = data, .len = len, .l3_off = p.l3_off - cut,
			.l4_off = p.l4_off - cut, .l3_end = p.l3_end - cut,
			.v6 = p.l3 == L3_IPV6, .tcp = p.l4 == L4_TCP, .sane = p.l3_sane,
			.frag = p.frag, .dw0 = type, .hash = hash, .status = status,
			.vlan = vlan,
		};

		if (aqm_rsc_rx(m, q, &rf))
			return 0;
	}
	base = ((uint64_t)aqm_rd(m, AQC_RI(RXD_BASE_HI, q)) << 32) |
	       aqm_rd(m, AQC_RI(RXD_BASE_LO, q));
	head = AQC_FGET(RXD_HEAD_PTR, aqm_rd(m, AQC_RI(RXD_HEAD, q)));
	tail = aqm_rd(m, AQC_RI(RXD_TAIL, q));
	if (tail >= size || head >= size)
		return -EINVAL;
	avail = (tail + size - head) % size;
	ndesc = (len + bufsz - 1) / bufsz;
	if (ndesc > avail) {
		if (pace)
			return -EAGAIN;
		count_drop(m);
		return -ENOBUFS;
	}
	/* injected faults: one per frame written, in this order of precedence */
	fault_err = m->dma_fault.rx_dma_err > 0;
	bad_len = !fault_err && m->dma_fault.rx_bad_len > 0;
	late = late && !fault_err && !bad_len && ndesc <= AQM_LATE_MAX - m->n_late;
	if (fault_err) {
		m->dma_fault.rx_dma_err--;
		dma_err = true;
	} else if (bad_len) {
		m->dma_fault.rx_bad_len--;
	} else if (late) {
		m->dma_fault.rx_late--;
	}
	if (fault_err || bad_len || late)
		m->cnt.faults_injected++;
	for (uint32_t k = 0; k < ndesc; k++) {
		union aqc_rx_desc *d = aqm_dma_ptr(m, base + 16u * head, 16);
		uint64_t buf;
		uint32_t chunk = RTE_MIN(bufsz, len - off);
		uint32_t st = status | (k + 1 == ndesc ? AQC_RXD_EOP : 0);
		uint32_t dw0 = type | (dma_err ? AQC_RXD_DMA_ERR : 0), wb_len;

		if (d == NULL) {
			/* the ring is not in host memory: nothing can be
			 * written back; the frame is lost (a fault, counted) */
			m->cnt.dma_faults++;
			return -EFAULT;
		}
		buf = __atomic_load_n(&d->read.buf_addr, __ATOMIC_ACQUIRE);
		/* §5.4 dword 0 bit 12: a buffer the DMA cannot reach (or,
		 * injected, a write that failed) */
		if (fault_err || !aqm_dma_write(m, buf, data + off, chunk)) {
			dw0 |= AQC_RXD_DMA_ERR;
			dma_err = true;
		}
		off += chunk;
		wb_len = len;
		if (bad_len)
			wb_len = m->bad_len_seq++ % 2 ? 0 : ndesc * bufsz + 1;
		/* §5.4: everything but bytes 8-11 first, then DD/EOP/length */
		__atomic_store_n(&d->dw[0], dw0, __ATOMIC_RELAXED);
		__atomic_store_n(&d->dw[1], hash, __ATOMIC_RELAXED);
		__atomic_store_n(&d->dw[3], (uint32_t)vlan << 16, __ATOMIC_RELAXED);
		if (late)
			m->late[m->n_late++] = (struct aqm_late_wb){
				.dw2 = &d->dw[2], .value = st | (wb_len & 0xffffu) << 16, .ring = q,
			};
		else
			__atomic_store_n(&d->dw[2], st | (wb_len & 0xffffu) << 16,
					 __ATOMIC_RELEASE);
		if (++head == size)
			head = 0;
	}
	aqm_wr(m, AQC_RI(RXD_HEAD, q), head);
	if (!mac_err && !dma_err && !bad_len)
		count_rx(m, len);      /* only good packets for the DMA counters */
	return 0;
}

void
aqm_late_flush(struct aqc_model *m)
{
	for (unsigned int i = 0; i < m->n_late; i++) {
		const struct aqm_late_wb *w = &m->late[i];

		/* a ring disabled since has no write-back to finish */
		if (aqm_rd(m, AQC_RI(RXD_CTL, w->ring)) & AQC_FMASK(RXD_EN))
			__atomic_store_n(w->dw2, w->value, __ATOMIC_RELEASE);
	}
	m->n_late = 0;
}

void
aqm_late_drop(struct aqc_model *m, unsigned int ring)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < m->n_late; i++)
		if (ring != AQM_RINGS && m->late[i].ring != ring)
			m->late[k++] = m->late[i];
	m->n_late = k;
}

int
aqm_rx_frame(struct aqc_model *m, const uint8_t *frame, uint32_t len, bool pace,
	     bool mac_err)
{
	bool at_mac = false;
	int rc = rx_frame(m, frame, len, pace, mac_err, &at_mac);

	/* a paced frame that must wait is offered again: count it once */
	if (at_mac && rc != -EAGAIN)
		count_mac(m, frame, len, mac_err);
	return rc;
}

unsigned int
aqm_dma_pass(struct aqc_model *m, unsigned int budget)
{
	unsigned int moved = 0;

	if (m->n_late > 0)
		aqm_late_flush(m);   /* held back one pass (fault rx_late) */
	aqm_random_faults_pass(m);
	if (m->phase != AQM_READY || budget == 0)
		return 0;
	aqm_rsc_poll(m);
	if ((aqm_rd(m, AQC_R_TPB_CTL) & AQC_FMASK(TPB_EN)) && !m->dma_fault.tx_stall)
		for (unsigned int n = 0; n < AQM_RINGS && moved < budget; n++)
			moved += tx_ring(m, n, budget - moved);
	if (moved < budget)
		moved += aqm_wire_rx(m, budget - moved);
	return moved;
}
