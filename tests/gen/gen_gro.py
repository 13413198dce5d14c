#!/usr/bin/python3
"""Generate pcaps/gro/: GRO input captures and the merged output Linux's GRO
rules give for them, computed here in Python (not by lib/gro).

usage: gen_gro.py OUTDIR   (writes OUTDIR/<scenario>_in.pcap,
                            OUTDIR/<scenario>_out.pcap and OUTDIR/README.md)

The expected output follows Linux GRO's rules (net/core/gro.c, tcp_offload.c) (same-flow keys,
flush rules, header rewrite on completion) plus tagpipe's documented
ordering rule (lib/gro/tp_gro.h): a frame that cannot be merged completes
its own flow's held aggregate first. It is the output of a GRO table that
never flushes by age, is big enough for every flow, and is flushed once at
the end of the capture (oldest aggregate first), so burst boundaries do not
matter. The model below is written from the facts doc; it shares no code
with lib/gro.
"""
import os
import random
import struct
import sys

from scapy.all import (ARP, ICMP, IP, IPv6, TCP, UDP, Dot1AD, Dot1Q, Ether,
                       IPOption_EOL, IPOption_NOP,
                       IPv6ExtHdrDestOpt, IPv6ExtHdrFragment, PadN, Raw, conf)

import tpgen

conf.verb = 0

MAC_A = "02:00:00:00:00:0a"
MAC_B = "02:00:00:00:00:0b"
MAX_IP_LEN = 65535          # gro_max_size 65536 (docs/ref/gro.md §1.3)


# --------------------------------------------------------------------------
# checksums (RFC 1071)

def csum_sum(data, s=0):
    if len(data) % 2:
        data += b"\0"
    for (w,) in struct.iter_unpack("!H", data):
        s += w
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def tcp_ok(ip_hdr, v6, seg):
    if v6:
        ph = ip_hdr[8:40] + struct.pack("!IxxxB", len(seg), 6)
    else:
        ph = ip_hdr[12:20] + struct.pack("!xBH", 6, len(seg))
    return csum_sum(ph + seg) == 0xFFFF


def tso_pseudo(ip_hdr, v6):
    """Pseudo-header sum without the length, not complemented (DPDK TSO)."""
    addrs = ip_hdr[8:40] if v6 else ip_hdr[12:20]
    return csum_sum(addrs, 6)


# --------------------------------------------------------------------------
# the model: parse a frame as GRO sees it

class Seg:
    pass


def parse(fr):
    """A Seg with .key (None if the frame has no TCP flow) and .hold
    (True if it may be held/merged)."""
    s = Seg()
    s.frame = fr
    s.key = None
    s.hold = False
    off = 12
    et = struct.unpack_from("!H", fr, off)[0]
    tags = 0
    while et in (0x8100, 0x88A8) and tags < 2:
        off += 4
        tags += 1
        et = struct.unpack_from("!H", fr, off)[0]
    l2 = off + 2
    s.l2 = l2
    ip = fr[l2:]
    if et == 0x0800:
        s.v6 = False
        ihl = (ip[0] & 0xF) * 4
        tot = struct.unpack_from("!H", ip, 2)[0]
        frag = struct.unpack_from("!H", ip, 6)[0]
        if ip[9] != 6 or frag & 0x1FFF or tot > len(ip):
            return s
        s.l3 = ihl
        s.ip_len = tot
        s.ip_id = struct.unpack_from("!H", ip, 4)[0]
        s.l3cmp = (ip[8], ip[1], (frag >> 14) & 1)        # TTL, TOS, DF
        addr = ip[12:20]
        extkey = b""
        own_flush = ihl != 20 or frag & 0xA000 or csum_sum(ip[:ihl]) != 0xFFFF
    elif et == 0x86DD:
        s.v6 = True
        pl = struct.unpack_from("!H", ip, 4)[0]
        if 40 + pl > len(ip):
            return s
        nh = ip[6]
        o = 40
        last = None
        while nh in (0, 43, 60):
            last = o
            nh, o = ip[o], o + (ip[o + 1] + 1) * 8
        frag_hdr = nh == 44
        ext = bytearray(ip[40:o])
        if frag_hdr:
            nh = ip[o]
            if ip[o + 2] << 8 | (ip[o + 3] & 0xF8):
                return s                  # not a first fragment: no TCP header
            if last is not None:
                ext[last - 40] = 6        # the key as if no fragment header
        if nh != 6:
            return s
        s.l3 = o
        s.ip_len = 40 + pl
        s.ip_id = 0
        s.l3cmp = ((struct.unpack_from("!I", ip, 0)[0] >> 20) & 0xFF, ip[7])
        w0 = struct.unpack_from("!I", ip, 0)[0] & 0xF00FFFFF
        addr = ip[8:40] + struct.pack("!I", w0)
        extkey = bytes([6 if (frag_hdr and o == 40) else ip[6]]) + bytes(ext)
        if frag_hdr:
            # the key as if the fragment header were absent
            s.l3 = o + 8
            own_flush = True
        else:
            own_flush = False
    else:
        return s
    # bytes after the datagram: padding of a short frame is trimmed, any
    # other trailer makes the IP length disagree with the frame (docs/ref/gro.md §1.2)
    if len(ip) > s.ip_len and l2 + s.ip_len >= 60:
        own_flush = True
    th = ip[s.l3:]
    doff = (th[12] >> 4) * 4
    s.l4 = doff
    s.key = (fr[:l2], addr, extkey, th[0:4])
    s.seq, s.ack = struct.unpack_from("!II", th, 4)
    s.flags = th[13]
    s.word = struct.unpack_from("!I", th, 12)[0]
    s.opts = th[20:doff]
    s.pay = s.ip_len - s.l3 - doff
    s.payload = ip[s.l3 + doff:s.ip_len]
    if own_flush:
        return s
    if not tcp_ok(ip[:40] if s.v6 else ip[:20], s.v6, ip[s.l3:s.ip_len]):
        return s
    if s.flags & 0x26 or s.pay == 0:      # URG RST SYN, pure ACK
        return s
    s.hold = True
    return s


class Agg:
    def __init__(self, s):
        self.segs = [s]
        self.first = s
        self.mss = s.pay
        self.next_seq = (s.seq + s.pay) & 0xFFFFFFFF
        self.ip_len = s.ip_len
        self.id_mode = None
        self.psh_fin = 0


def appendable(a, s):
    p = a.first
    if (p.word ^ s.word) & ~0x00090000:   # flag word except PSH, FIN
        return False
    if p.ack != s.ack or p.opts != s.opts or a.next_seq != s.seq:
        return False
    if s.pay > a.mss or p.l3cmp != s.l3cmp:
        return False
    if not s.v6:
        off = (s.ip_id - p.ip_id) & 0xFFFF
        n = len(a.segs)
        if n == 1:
            if off > 1:
                return False
        elif off != (0 if a.id_mode == "fixed" else n):
            return False
    return a.ip_len + s.pay <= MAX_IP_LEN


def complete(a):
    """The merged frame (docs/ref/gro.md §1.5) or the single frame untouched."""
    p = a.first
    if len(a.segs) == 1:
        return p.frame
    hdr = bytearray(p.frame[:p.l2 + p.l3 + p.l4])
    ip = p.l2
    if p.v6:
        struct.pack_into("!H", hdr, ip + 4, a.ip_len - 40)
    else:
        struct.pack_into("!H", hdr, ip + 2, a.ip_len)
        struct.pack_into("!H", hdr, ip + 10, 0)
        struct.pack_into("!H", hdr, ip + 10, 0xFFFF ^ csum_sum(bytes(hdr[ip:ip + 20])))
    th = ip + p.l3
    hdr[th + 13] |= a.psh_fin
    iph = bytes(hdr[ip:ip + 40])
    struct.pack_into("!H", hdr, th + 16, tso_pseudo(iph, p.v6))
    return bytes(hdr) + b"".join(s.payload for s in a.segs)


def gro(frames):
    held = {}       # key -> Agg, insertion order = start order
    out = []

    def done(k):
        out.append(complete(held.pop(k)))

    for fr in frames:
        s = parse(fr)
        if not s.hold:
            if s.key is not None and s.key in held:
                done(s.key)
            out.append(fr)
            continue
        a = held.get(s.key)
        if a is not None:
            if appendable(a, s):
                if len(a.segs) == 1:
                    a.id_mode = "fixed" if s.ip_id == a.first.ip_id and not s.v6 else "inc"
                a.segs.append(s)
                a.next_seq = (a.next_seq + s.pay) & 0xFFFFFFFF
                a.ip_len += s.pay
                a.psh_fin = s.flags & 0x09
                if s.pay < a.mss or a.psh_fin:
                    done(s.key)
                continue
            done(s.key)
        if s.flags & 0x09:
            out.append(fr)          # PSH/FIN with nothing to join: not held
            continue
        held[s.key] = Agg(s)
    for k in list(held):
        done(k)
    return out


# --------------------------------------------------------------------------
# scenarios

def payload(seed, n):
    r = random.Random(seed)
    return bytes(r.randrange(256) for _ in range(n))


def bulk(v6, nflows, segs, mss, rnd, ts_every=0, ext=False, label=False):
    flows = []
    for i in range(nflows):
        seq = rnd.randrange(1 << 32)
        ack = rnd.randrange(1 << 32)
        ipid = rnd.randrange(1 << 16)
        pkts = []
        for k in range(segs):
            opts = []
            if ts_every and i % 2 == 0:
                opts = [("NOP", None), ("NOP", None),
                        ("Timestamp", (5000 + k // ts_every, 777))]
            flags = "PA" if k == segs - 1 else "A"
            tcp = TCP(sport=41000 + i, dport=5201, seq=(seq + k * mss) % (1 << 32),
                      ack=ack, flags=flags, window=1024 + i, options=opts)
            if v6:
                l3 = IPv6(src="2001:db8::1", dst="2001:db8::%x" % (0x10 + i), hlim=64,
                          fl=(0x12345 + i) if label else 0)
                if ext and i == 1:
                    l3 = l3 / IPv6ExtHdrDestOpt(options=[PadN(optdata=b"\0\0\0\0")])
            else:
                l3 = IP(src="10.1.0.1", dst="10.1.1.%d" % (i + 1), ttl=64, flags="DF",
                        id=(ipid + k) & 0xFFFF)
            pkts.append(Ether(src=MAC_A, dst=MAC_B) / l3 / tcp /
                        Raw(payload(i * 1000 + k, mss)))
        flows.append(pkts)
    return flows


def interleave(flows, rnd, extra=()):
    """Runs of 1..6 segments from a random flow, in each flow's order."""
    pos = [0] * len(flows)
    extra = list(extra)
    out = []
    while any(p < len(f) for p, f in zip(pos, flows)):
        i = rnd.choice([j for j, f in enumerate(flows) if pos[j] < len(f)])
        n = rnd.randint(1, 6)
        out.extend(flows[i][pos[i]:pos[i] + n])
        pos[i] += n
        if extra and rnd.random() < 0.1:
            out.append(extra.pop(0))
    return out + extra


def others():
    return [
        Ether(src=MAC_A, dst="ff:ff:ff:ff:ff:ff") / ARP(op=1, hwsrc=MAC_A, psrc="10.1.0.1",
                                                       pdst="10.1.0.2"),
        Ether(src=MAC_A, dst=MAC_B) / IP(src="10.1.0.1", dst="10.1.0.2", id=7) /
        ICMP(id=1, seq=1) / Raw(b"tagpipe" * 8),
        Ether(src=MAC_A, dst=MAC_B) / IP(src="10.1.0.1", dst="10.1.1.1", id=9) /
        UDP(sport=41000, dport=5201) / Raw(bytes(100)),
    ]


def sc_bulk4():
    rnd = random.Random(4)
    # flow 0 and 2 carry timestamps that change every 16 segments
    return interleave(bulk(False, 4, 100, 1448, rnd, ts_every=16), rnd, others())


def sc_bulk6():
    rnd = random.Random(6)
    return interleave(bulk(True, 3, 80, 1428, rnd, ext=True, label=True), rnd)


def sc_vlan():
    """One 5-tuple untagged, in VLAN 10, in VLAN 20 and in QinQ 100/10:
    four flows that must not merge with each other."""
    rnd = random.Random(10)
    flows = []
    for tags in ((), (10,), (20,), (100, 10)):
        pkts = []
        for k in range(12):
            l2 = Ether(src=MAC_A, dst=MAC_B)
            if len(tags) == 2:
                l2 = l2 / Dot1AD(vlan=tags[0]) / Dot1Q(vlan=tags[1])
            elif tags:
                l2 = l2 / Dot1Q(vlan=tags[0], prio=3)
            pkts.append(l2 / IP(src="10.2.0.1", dst="10.2.0.2", id=100 + k, flags="DF") /
                        TCP(sport=1234, dport=80, seq=1000 + k * 1000, ack=1, flags="A") /
                        Raw(payload(k, 1000)))
        flows.append(pkts)
    return interleave(flows, rnd)


def sc_rules():
    """One IPv4 flow and one IPv6 flow walking through the flush rules."""
    frames = []
    for v6 in (False, True):
        seq = 1000
        ipid = 500

        def seg(n, flags="A", mod=None, ttl=64, tos=0, window=2000, ack=1, ip_id=None,
                seq_at=None, bad_csum=False, ipopts=None, mf=False, frag=False,
                opts=()):
            nonlocal seq, ipid
            s = seq if seq_at is None else seq_at
            tcp = TCP(sport=7000 + v6, dport=80, seq=s, ack=ack, flags=flags,
                      window=window, options=list(opts))
            if v6:
                l3 = IPv6(src="2001:db8::7", dst="2001:db8::8", hlim=ttl, tc=tos)
                if frag:
                    l3 = l3 / IPv6ExtHdrFragment(offset=0, m=0, id=1)
            else:
                l3 = IP(src="10.7.0.1", dst="10.7.0.2", ttl=ttl, tos=tos,
                        id=ipid if ip_id is None else ip_id,
                        flags="DF+MF" if mf else "DF", options=ipopts or [])
                ipid = (ipid + 1) & 0xFFFF
            p = Ether(src=MAC_A, dst=MAC_B) / l3 / tcp / Raw(payload(s, n))
            if bad_csum:
                raw = bytearray(bytes(p))
                raw[len(raw) - len(bytes(p[TCP])) + 16] ^= 0x5A   # TCP checksum
                p = raw
            if seq_at is None and n and "S" not in flags:
                seq += n
            frames.append(bytes(p))

        for _ in range(3):
            seg(500)
        seg(200)                       # short: merged, ends the aggregate
        seg(500)
        seg(500)
        seg(500, window=2100)          # window differs: flush
        seg(500, window=2100)
        seg(500, window=2100, ttl=63)  # TTL / hop limit differs
        seg(500, window=2100, ttl=63)
        seg(500, window=2100, ttl=63, bad_csum=True)   # passed through
        seg(0, window=2100, ttl=63)    # pure ACK: passed through
        seg(500, window=2100, ttl=63)
        seg(500, window=2100, ttl=63, seq_at=seq - 500)  # retransmit
        seg(500, window=2100, ttl=63)
        seg(500, window=2100, ttl=63, seq_at=seq + 3000)  # gap
        seg(500, window=2100, ttl=63)
        seg(500, window=2100, ttl=63, tos=2)             # ECN differs
        seg(500, window=2100, ttl=63, tos=2, flags="AC")  # CWR differs
        seg(500, window=2100, ttl=63, tos=2, flags="AC")
        seg(500, window=2100, ttl=63, tos=2)
        seg(100, window=2100, ttl=63, tos=2)            # short
        seg(100, window=2100, ttl=63, tos=2)
        seg(400, window=2100, ttl=63, tos=2)            # larger than first: flush
        seg(400, window=2100, ttl=63, tos=2, ack=2)     # ACK differs
        seg(400, window=2100, ttl=63, tos=2, ack=2,
            opts=[("NOP", None), ("NOP", None), ("Timestamp", (1, 2))])
        seg(400, window=2100, ttl=63, tos=2, ack=2,
            opts=[("NOP", None), ("NOP", None), ("Timestamp", (1, 2))])
        if v6:
            seg(400, window=2100, ttl=63, tos=2, ack=2, frag=True)
        else:
            seg(400, window=2100, ttl=63, tos=2, ack=2,
                ipopts=[IPOption_NOP(), IPOption_NOP(), IPOption_NOP(),
                        IPOption_EOL()])     # IP options: passed
            seg(400, window=2100, ttl=63, tos=2, ack=2, mf=True)
            fixed = ipid
            seg(400, window=2100, ttl=63, tos=2, ack=2, ip_id=fixed)
            seg(400, window=2100, ttl=63, tos=2, ack=2, ip_id=fixed)   # fixed IDs
            seg(400, window=2100, ttl=63, tos=2, ack=2, ip_id=fixed)
            seg(400, window=2100, ttl=63, tos=2, ack=2, ip_id=fixed + 5)  # ID jump
            for _ in range(3):
                seg(1, window=2100, ttl=63, tos=2, ack=2)   # 55-byte frames, padded
        seg(400, window=2100, ttl=63, tos=2, ack=2)
        seg(400, window=2100, ttl=63, tos=2, ack=2)
        frames[-1] += b"\xde\xad\xbe\xef"     # a 4-byte trailer (an FCS left on)
        seg(400, window=2100, ttl=63, tos=2, ack=2)
        seg(400, window=2100, ttl=63, tos=2, ack=2, flags="PA")   # PSH ends it
        seg(400, window=2100, ttl=63, tos=2, ack=2, flags="S", seq_at=seq)  # SYN
        seg(400, window=2100, ttl=63, tos=2, ack=2)
        seg(400, window=2100, ttl=63, tos=2, ack=2, flags="FA")   # FIN ends it
    # pad every short frame to 60 bytes as a wire does
    return [f + bytes(60 - len(f)) if len(f) < 60 else f for f in frames]


def sc_big():
    """Full-size 8 KiB segments: the 64 KiB IP length cap ends aggregates."""
    rnd = random.Random(64)
    return interleave(bulk(False, 2, 24, 8000, rnd) + bulk(True, 1, 24, 8000, rnd), rnd)


SCENARIOS = {
    "bulk4": (sc_bulk4, "4 interleaved IPv4 bulk flows, MSS 1448, incrementing IDs, "
              "timestamps changing every 16 segments on 2 flows; ARP/ICMP/UDP mixed in"),
    "bulk6": (sc_bulk6, "3 IPv6 bulk flows, MSS 1428, flow labels, one with a "
              "Destination Options header"),
    "vlan": (sc_vlan, "one 5-tuple untagged, in 802.1Q VLAN 10 and 20 and in QinQ 100/10: "
             "four flows"),
    "rules": (sc_rules, "an IPv4 and an IPv6 flow walking through the flush rules: short "
              "segment, window, TTL, bad checksum, pure ACK, retransmit, gap, ECN, CWR, "
              "larger segment, ACK, options, IP options, fragments, fixed IDs, padded "
              "1-byte segments, a 4-byte trailer, PSH, SYN, FIN"),
    "big": (sc_big, "8000-byte segments (jumbo): aggregates end at the 65535-byte IP "
            "length cap"),
}

README = """# pcaps/gro: GRO inputs and expected merged outputs

Generated by `tests/gen/gen_gro.py` (deterministic: fixed seeds and
timestamps); do not edit. `meson test gen_gro_uptodate` checks these files
are what the script writes today, and `gro_pcap` feeds every `*_in.pcap`
through lib/gro and compares with `*_out.pcap` byte for byte.

Format: classic pcap, little-endian, microsecond timestamps, LINKTYPE_ETHERNET,
frames 10 us apart starting at 1700000000 s, snaplen 65535.

- `<scenario>_in.pcap`: frames as a NIC receives them (no VLAN stripping,
  no switch tags; checksums as noted per scenario).
- `<scenario>_out.pcap`: what GRO hands back, computed by the script's own
  model of Linux GRO (net/core/gro.c, net/ipv4/tcp_offload.c) and tagpipe's ordering
  rule (a frame that cannot be merged completes its flow's held aggregate
  first): every frame passed through untouched or merged. A merged frame has
  the first segment's headers with IPv4 total length and header checksum (or
  IPv6 payload length) rewritten, PSH/FIN of the last segment OR-ed in, the
  TCP checksum field holding the pseudo-header sum without length (DPDK TSO
  convention), then every segment's payload in order; L2 padding is gone.
  The table never flushes by age and is flushed once at the end of the
  capture, oldest aggregate first, so burst boundaries do not change it.

Scenarios:
"""


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "pcaps/gro"
    os.makedirs(outdir, exist_ok=True)
    lines = []
    for name, (fn, what) in SCENARIOS.items():
        frames = [bytes(f) for f in fn()]
        out = gro(frames)
        tpgen.write_pcap(os.path.join(outdir, name + "_in.pcap"), frames)
        tpgen.write_pcap(os.path.join(outdir, name + "_out.pcap"), out)
        lines.append("- `%s`: %s (%d frames in, %d out)\n" % (name, what, len(frames),
                                                             len(out)))
    with open(os.path.join(outdir, "README.md"), "w") as f:
        f.write(README + "".join(lines))


if __name__ == "__main__":
    main()
