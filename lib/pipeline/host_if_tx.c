/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * To the host: PASS packets written to the interface of their switch port,
 * one writev per packet, a merged packet as one GSO packet (contract:
 * tp_host_if.h). The iovec points into the mbuf chain; only the
 * virtio-net header and re-inserted VLAN tags live on the stack.
 */
#include <errno.h>
#include <string.h>
#include <sys/uio.h>

#include <rte_byteorder.h>

#include "host_if_priv.h"
#include "tp_gro.h"

/* One's complement sum of two 16-bit words in memory order, folded. */
static inline uint16_t
csum_add16(uint16_t a, uint16_t b)
{
	uint32_t s = (uint32_t)a + b;

	return (uint16_t)((s & 0xFFFF) + (s >> 16));
}

/*
 * Fill the virtio-net header of merged packet m (tp_gro.h's output format)
 * and turn its TCP checksum field into what CHECKSUM_PARTIAL wants: lib/gro
 * leaves the pseudo-header sum without the length (DPDK's TSO convention),
 * the kernel's skb_checksum_help and GSO add the rest from csum_start on
 * a field that holds the pseudo-header sum with the TCP length
 * (tcp_v4_send_check / __tcp_v6_send_check). vlan: bytes of tags put
 * back in front of the IP header. Returns 0, or -1 when the headers are
 * not where the metadata says (the packet is then dropped: without its
 * GSO header it is neither a valid frame nor a valid checksum).
 */
static int
gso_header(struct rte_mbuf *m, uint32_t vlan, struct hif_vnet_hdr *vh)
{
	uint32_t l2 = m->l2_len, l3 = m->l3_len, l4 = m->l4_len;
	uint8_t *ip, *th;
	uint16_t f, len;
	int v4;

	if (l2 < RTE_ETHER_HDR_LEN || l3 < 20 || l4 < 20 ||
	    m->data_len < l2 + l3 + l4 || m->pkt_len <= l2 + l3 + l4)
		return -1;
	ip = rte_pktmbuf_mtod_offset(m, uint8_t *, l2);
	th = ip + l3;
	v4 = (ip[0] >> 4) == 4;
	if (!v4 && (ip[0] >> 4) != 6)
		return -1;
	len = (uint16_t)(m->pkt_len - l2 - l3);
	memcpy(&f, th + 16, 2);
	f = csum_add16(f, rte_cpu_to_be_16(len));
	memcpy(th + 16, &f, 2);
	vh->flags = HIF_VNET_F_NEEDS_CSUM;
	vh->gso_type = v4 ? HIF_VNET_GSO_TCPV4 : HIF_VNET_GSO_TCPV6;
	/* Linux's tcp_gro_complete marks an aggregate with CWR SKB_GSO_TCP_ECN. */
	if (th[13] & 0x80)
		vh->gso_type |= HIF_VNET_GSO_ECN;
	vh->gso_size = m->tso_segsz;
	vh->hdr_len = (uint16_t)(l2 + vlan + l3 + l4);
	vh->csum_start = (uint16_t)(l2 + vlan + l3);
	vh->csum_offset = 16;
	return 0;
}

/* Write m to hq (one packet); returns true when the kernel took it whole. */
static bool
write_one(const struct tp_host_port *hp, struct hif_queue *hq, struct iovec *iov,
	  struct rte_mbuf *m, uint32_t segs)
{
	struct hif_vnet_hdr vh;
	uint8_t tags[8];
	uint32_t vlan = 0, nv = 0, total;
	const struct rte_mbuf *s;
	ssize_t w;

	memset(&vh, 0, sizeof(vh));
	if (m->ol_flags & RTE_MBUF_F_RX_QINQ_STRIPPED) {
		uint16_t v[4] = {
			rte_cpu_to_be_16(hp->vlan.tx_outer_tpid), rte_cpu_to_be_16(m->vlan_tci_outer),
			rte_cpu_to_be_16(hp->vlan.tx_inner_tpid), rte_cpu_to_be_16(m->vlan_tci),
		};

		memcpy(tags, v, 8);
		vlan = 8;
	} else if (m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED) {
		uint16_t v[2] = {
			rte_cpu_to_be_16(hp->vlan.tx_inner_tpid), rte_cpu_to_be_16(m->vlan_tci),
		};

		memcpy(tags, v, 4);
		vlan = 4;
	}
	if (m->nb_segs + 3u > HIF_IOV_MAX || (vlan && m->data_len < 2 * RTE_ETHER_ADDR_LEN))
		return false;
	if (segs > 1 && gso_header(m, vlan, &vh) != 0)
		return false;
	iov[nv].iov_base = &vh;
	iov[nv++].iov_len = hp->vnet_sz;
	s = m;
	if (vlan) {
		iov[nv].iov_base = rte_pktmbuf_mtod(m, void *);
		iov[nv++].iov_len = 2 * RTE_ETHER_ADDR_LEN;
		iov[nv].iov_base = tags;
		iov[nv++].iov_len = vlan;
		iov[nv].iov_base = rte_pktmbuf_mtod_offset(m, void *, 2 * RTE_ETHER_ADDR_LEN);
		iov[nv++].iov_len = m->data_len - 2 * RTE_ETHER_ADDR_LEN;
		s = m->next;
	}
	for (; s != NULL; s = s->next) {
		iov[nv].iov_base = rte_pktmbuf_mtod(s, void *);
		iov[nv++].iov_len = s->data_len;
	}
	total = hp->vnet_sz + m->pkt_len + vlan;
	do
		w = writev(hq->fd, iov, (int)nv);
	while (w < 0 && errno == EINTR);
	if (w != (ssize_t)total)
		return false;
	hif_cnt_add(&hq->st.to_host_pkts, 1);
	if (segs > 1)
		hif_cnt_add(&hq->st.to_host_gso, 1);
	hif_cnt_add(&hq->st.to_host_frames, segs);
	hif_cnt_add(&hq->st.to_host_bytes, total - hp->vnet_sz);
	return true;
}

uint16_t
tp_host_port_to_host(struct tp_host_port *hp, uint16_t q, struct rte_mbuf **pkts,
		     uint16_t n)
{
	struct iovec *iov;
	uint16_t k = 0;

	if (q >= hp->nb_queues || tp_dsa_meta_offset < 0)
		return n;
	iov = hp->scratch[q]->iov;
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const struct tp_dsa_meta *md = tp_dsa_meta(m);
		struct tp_host_if *hif;
		struct hif_queue *hq;
		uint32_t segs;

		if (m->port != hp->port || !(md->flags & TP_DSA_META_F_VALID) ||
		    md->device != 0 || (hif = hp->by_sp[md->port]) == NULL) {
			pkts[k++] = m;
			continue;
		}
		hq = &hif->q[q];
		segs = tp_gro_segs(m);
		if (!write_one(hp, hq, iov, m, segs)) {
			hif_cnt_add(&hq->st.to_host_drop_pkts, 1);
			hif_cnt_add(&hq->st.to_host_drop_frames, segs);
		}
		rte_pktmbuf_free(m);
	}
	return k;
}
