#!/usr/bin/python3
"""Deterministic pseudo-random tunnel and UDP sequences for the kernel GRO oracle.

usage: gen_encap.py [--seed S] [--count N] [--kinds K,K] OUTDIR

Kinds (what the outer headers are; the inner flow is TCP except for udp4/udp6):
  vxlan4, vxlan6   VXLAN (RFC 7348) over UDP/IPv4 or UDP/IPv6, inner Ethernet
                   + IPv4 or IPv6 + TCP (drivers/net/vxlan/vxlan_core.c
                   vxlan_gro_receive, net/ipv4/udp_offload.c udp_gro_receive)
  ipip, sit, ip4ip6, ip6ip6   IP in IP (net/ipv4/af_inet.c ipip_gro_receive,
                   net/ipv6/ip6_offload.c sit/ip4ip6/ip6ip6_gro_receive)
  udp4, udp6       plain UDP datagrams for UDP GRO (udp_gro_receive_segment)

Each sequence (at most 64 frames: one NAPI poll) interleaves 1..4 flows of one
or two kinds, with the steps the kernel decides on: full-size data, short and
longer segments, PSH, out-of-order, retransmits, ACK changes, outer TTL / TOS /
DF / ID (incrementing, fixed, jumps) and traffic class / hop limit changes,
inner TTL and ID changes, bad inner TCP, bad outer UDP and bad outer IPv4
header checksums, zero and non-zero outer UDP checksums (flows of their own),
another VNI, outer IPv4 options, a trailer after the outer datagram, and for
UDP GRO zero checksums and datagrams to a VXLAN port.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gen"))
import tpgen  # noqa: E402

from scapy.all import Ether, Dot1Q, IP, IPv6, TCP, UDP, IPOption_Router_Alert, Raw  # noqa: E402
from scapy.layers.vxlan import VXLAN  # noqa: E402

MAX_FRAMES = 64
SRC_MAC, DST_MAC = "02:00:00:00:20:01", "02:00:00:00:20:02"
KINDS = ("vxlan4", "vxlan6", "ipip", "sit", "ip4ip6", "ip6ip6", "udp4", "udp6")
VXLAN_PORTS = (4789, 8472)     # the oracle's two VXLAN devices
TCP_STEPS = {"data": 50, "short": 4, "psh": 3, "ooo": 3, "retransmit": 3, "ack_change": 2,
             "inner_ttl": 2, "inner_id_jump": 2, "bad_tcp_csum": 3, "outer_ttl": 3, "outer_tos": 2,
             "outer_df": 2, "outer_id_jump": 3, "outer_hlim": 2, "outer_tc": 2,
             "bad_outer_ip_csum": 2, "bad_udp_csum": 3, "outer_ip_options": 2, "trailer": 2,
             "other_vni": 2, "udp_csum_flip": 2}
UDP_STEPS = {"data": 50, "short": 5, "longer": 4, "zero_csum": 3, "bad_udp_csum": 3, "ttl": 2,
             "id_jump": 3, "trailer": 2, "tunnel_port": 2}
OUTER_V4_ONLY = {"outer_ttl", "outer_tos", "outer_df", "outer_id_jump", "bad_outer_ip_csum",
                 "outer_ip_options"}
OUTER_V6_ONLY = {"outer_hlim", "outer_tc"}
VXLAN_ONLY = {"bad_udp_csum", "other_vni", "udp_csum_flip"}


def outer_v6(kind):
    return kind in ("vxlan6", "ip4ip6", "ip6ip6", "udp6")


def inner_v6(kind, rng):
    if kind in ("sit", "ip6ip6"):
        return True
    if kind in ("ipip", "ip4ip6"):
        return False
    return rng.random() < 0.4


class Flow:
    def __init__(self, rng, idx, kind, tags=True):
        self.kind, self.idx = kind, idx
        self.udp = kind in ("udp4", "udp6")
        self.ov6 = outer_v6(kind)
        self.iv6 = False if self.udp else inner_v6(kind, rng)
        self.osrc = "2001:db8:a::%x" % (idx + 1) if self.ov6 else "192.0.2.%d" % (idx + 1)
        self.odst = "2001:db8:b::%x" % (idx + 1) if self.ov6 else "198.51.100.%d" % (idx + 1)
        self.isrc = "2001:db8:c::%x" % (idx + 1) if self.iv6 else "10.2.%d.1" % idx
        self.idst = "2001:db8:d::%x" % (idx + 1) if self.iv6 else "10.3.%d.2" % idx
        self.ottl, self.otos, self.odf = 64, 0, rng.random() < 0.5
        self.oid_fixed = rng.random() < 0.3
        self.oid = rng.randrange(65536)
        self.ohlim, self.otc, self.ofl = 64, 0, rng.randrange(1 << 20)
        self.ittl, self.iid_fixed, self.iid = 64, rng.random() < 0.3, rng.randrange(65536)
        self.sport, self.dport = 40000 + rng.randrange(20000), (80, 443, 5201, 9000)[idx % 4]
        self.usport = 49152 + rng.randrange(16000)
        self.vxport = rng.choice(VXLAN_PORTS)
        self.vni = 100 + idx
        self.ucsum = rng.random() < 0.5          # outer UDP checksum non-zero
        self.mss = rng.choice((100, 300, 536, 1000, 1400))
        # in-frame 802.1Q tags: on the outer frame (vlan_gro_receive before
        # the outer IP), on VXLAN's inner frame (after eth_gro_receive)
        self.otag = rng.choice((None, None, None, None, 100 + idx, 200))
        self.itag = rng.choice((None, None, None, 300 + idx)) if kind.startswith("vxlan") else None
        if not tags:
            self.otag = self.itag = None
        self.seq, self.ack = rng.randrange(1 << 32), rng.randrange(1 << 32)
        self.sent = []

    def next_ids(self):
        if not self.oid_fixed:
            self.oid = (self.oid + 1) & 0xFFFF
        if not self.iid_fixed:
            self.iid = (self.iid + 1) & 0xFFFF
        return self.oid, self.iid

    def frame(self, plen, flags="A", seq=None, vni=None, ucsum=None, oopts=False, dport=None):
        oid, iid = self.next_ids()
        payload = bytes((self.idx * 7 + (self.seq + i)) & 0xFF for i in range(plen))
        if self.udp:
            inner = UDP(sport=self.sport, dport=self.dport if dport is None else dport) / Raw(payload)
        else:
            inner = TCP(sport=self.sport, dport=self.dport, seq=self.seq if seq is None else seq,
                        ack=self.ack, flags=flags, window=502) / Raw(payload)
            iip = IPv6(src=self.isrc, dst=self.idst, hlim=self.ittl) if self.iv6 else \
                IP(src=self.isrc, dst=self.idst, ttl=self.ittl, id=iid, flags="DF")
            inner = iip / inner
        if self.ov6:
            oip = IPv6(src=self.osrc, dst=self.odst, hlim=self.ohlim, tc=self.otc, fl=self.ofl)
        else:
            oip = IP(src=self.osrc, dst=self.odst, ttl=self.ottl, tos=self.otos, id=oid,
                     flags="DF" if self.odf else 0,
                     options=[IPOption_Router_Alert()] if oopts else [])
        eth = Ether(src=SRC_MAC, dst=DST_MAC)
        if self.otag is not None:
            eth = eth / Dot1Q(vlan=self.otag)
        if self.kind.startswith("vxlan"):
            u = UDP(sport=self.usport, dport=self.vxport)
            ieth = Ether(src="02:00:00:00:30:%02x" % self.idx, dst="02:00:00:00:31:%02x" % self.idx)
            if self.itag is not None:
                ieth = ieth / Dot1Q(vlan=self.itag)
            pkt = eth / oip / u / VXLAN(vni=self.vni if vni is None else vni) / ieth / inner
            raw = bytearray(bytes(pkt))
            uoff = 14 + (4 if self.otag is not None else 0) + \
                (40 if self.ov6 else len(bytes(oip)) - len(bytes(oip.payload)))
            if not (self.ucsum if ucsum is None else ucsum):
                raw[uoff + 6:uoff + 8] = b"\0\0"
            return raw
        return bytearray(bytes(eth / oip / inner))


def fix_outer_udp(fr, f):
    """Recompute a non-zero outer UDP checksum after the inner bytes changed."""
    p = Ether(bytes(fr))
    if p.haslayer(UDP) and p[UDP].chksum:
        del p[UDP].chksum
        return bytearray(bytes(p))
    return fr


def corrupt_inner_l4(fr, f):
    p = Ether(bytes(fr))
    if f.udp:
        c = p[UDP].chksum
        tgt = len(fr) - len(bytes(p[UDP]))
        fr[tgt + 6:tgt + 8] = ((c ^ 0x5A) or 1).to_bytes(2, "big")
        return fr
    t = p.getlayer(TCP)
    tgt = len(fr) - len(bytes(t))
    fr[tgt + 16:tgt + 18] = (t.chksum ^ 0x5A).to_bytes(2, "big")
    return fix_outer_udp(fr, f)


def corrupt_outer_udp(fr):
    p = Ether(bytes(fr))
    tgt = len(fr) - len(bytes(p[UDP]))
    c = p[UDP].chksum
    fr[tgt + 6:tgt + 8] = ((c ^ 0x5A) or 1).to_bytes(2, "big")
    return fr


def flow_frames(rng, f, n):
    out = []
    steps = UDP_STEPS if f.udp else TCP_STEPS
    while len(out) < n:
        names = [k for k in steps
                 if not ((k in OUTER_V4_ONLY and f.ov6) or (k in OUTER_V6_ONLY and not f.ov6) or
                         (k in VXLAN_ONLY and not f.kind.startswith("vxlan")) or
                         (k == "bad_udp_csum" and not f.udp and not f.ucsum) or
                         (k in ("inner_id_jump",) and f.iv6))]
        k = rng.choices(names, [steps[x] for x in names])[0]
        if k in ("retransmit",) and not f.sent or k == "ooo" and len(out) + 2 > n:
            k = "data"
        plen = f.mss
        if k == "short":
            plen = rng.randrange(1, f.mss)
        elif k == "longer":
            plen = f.mss + rng.randrange(1, 50)
        if f.udp:
            if k == "ttl":
                f.ottl = 63 if f.ottl == 64 else 64
            elif k == "id_jump" and not f.ov6:
                f.oid = (f.oid + rng.choice((2, 300))) & 0xFFFF
            # a datagram to a VXLAN port is the tunnel's, never UDP GRO's
            fr = f.frame(plen, dport=VXLAN_PORTS[0] if k == "tunnel_port" else None)
            if k == "zero_csum":
                fr[len(fr) - plen - 2:len(fr) - plen] = b"\0\0"
            elif k == "bad_udp_csum":
                fr = corrupt_inner_l4(fr, f)
            elif k == "trailer":
                fr += b"\0\0\0\0"
            out.append((fr, k))
            f.sent.append(bytes(fr))
            continue
        if k == "retransmit":
            out.append((bytearray(rng.choice(f.sent[-3:])), k))
            continue
        if k == "ooo":
            a = f.frame(f.mss, seq=(f.seq + f.mss) & 0xFFFFFFFF)
            b = f.frame(f.mss)
            f.seq = (f.seq + 2 * f.mss) & 0xFFFFFFFF
            out += [(a, "ooo_later_first"), (b, "ooo_earlier_second")]
            f.sent += [bytes(a), bytes(b)]
            continue
        if k == "ack_change":
            f.ack = (f.ack + 1000) & 0xFFFFFFFF
        elif k == "inner_ttl":
            f.ittl = 63 if f.ittl == 64 else 64
        elif k == "inner_id_jump":
            f.iid = (f.iid + rng.choice((2, 500))) & 0xFFFF
        elif k == "outer_ttl":
            f.ottl = 63 if f.ottl == 64 else 64
        elif k == "outer_tos":
            f.otos = 0x10 if f.otos == 0 else 0
        elif k == "outer_df":
            f.odf = not f.odf
        elif k == "outer_id_jump":
            f.oid = (f.oid + rng.choice((2, 300, 30000))) & 0xFFFF
        elif k == "outer_hlim":
            f.ohlim = 63 if f.ohlim == 64 else 64
        elif k == "outer_tc":
            f.otc = 0x20 if f.otc == 0 else 0
        fr = f.frame(plen, flags="PA" if k == "psh" else "A",
                     vni=f.vni + 1 if k == "other_vni" else None,
                     ucsum=(not f.ucsum) if k == "udp_csum_flip" else None,
                     oopts=k == "outer_ip_options")
        if k == "bad_tcp_csum":
            fr = corrupt_inner_l4(fr, f)
        elif k == "bad_udp_csum":
            fr = corrupt_outer_udp(fr)
        elif k == "bad_outer_ip_csum":
            fr[14 + (4 if f.otag is not None else 0) + 10] ^= 0x5A
        elif k == "trailer":
            fr += b"\0\0\0\0"
        if k not in ("other_vni", "udp_csum_flip"):
            f.seq = (f.seq + plen) & 0xFFFFFFFF
        out.append((fr, k))
        f.sent.append(bytes(fr))
    return out


def sequence(seed, i, kinds=KINDS, tags=True):
    """frames, description, per-frame labels of sequence i. tags: some
    flows carry in-frame 802.1Q tags (outer, and VXLAN's inner), which only
    a kernel with VLAN GRO (CONFIG_VLAN_8021Q, vlan_gro_receive) merges."""
    rng = random.Random("%d/%d" % (seed, i))
    ka = rng.choice(kinds)
    kb = rng.choice(kinds) if rng.random() < 0.3 else ka
    nflows = rng.randrange(1, 5)
    flows = [Flow(rng, j, ka if j % 2 == 0 else kb, tags) for j in range(nflows)]
    per = [rng.randrange(4, max(5, MAX_FRAMES // nflows)) for _ in flows]
    lists = [flow_frames(rng, f, n) for f, n in zip(flows, per)]
    frames, labels = [], []
    pos = [0] * nflows
    while any(pos[j] < len(lists[j]) for j in range(nflows)) and len(frames) < MAX_FRAMES:
        j = rng.choice([j for j in range(nflows) if pos[j] < len(lists[j])])
        take = rng.randrange(1, 4)
        for _ in range(take):
            if pos[j] >= len(lists[j]) or len(frames) >= MAX_FRAMES:
                break
            fr, k = lists[j][pos[j]]
            frames.append(bytes(fr))
            labels.append("flow %d %s" % (j, k))
            pos[j] += 1
    desc = ["%d flows: %s" % (nflows, ",".join(f.kind for f in flows))]
    return frames, desc, labels


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("outdir")
    a = ap.parse_args()
    kinds = tuple(a.kinds.split(","))
    os.makedirs(a.outdir, exist_ok=True)
    for i in range(a.count):
        frames, desc, labels = sequence(a.seed, i, kinds)
        base = os.path.join(a.outdir, "encap_%03d" % i)
        tpgen.write_pcap(base + ".pcap", frames)
        with open(base + ".txt", "w") as f:
            f.write("; ".join(desc) + "\n" + "\n".join(labels) + "\n")


if __name__ == "__main__":
    main()
