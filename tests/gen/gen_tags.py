#!/usr/bin/python3
"""Generate DSA-tagged test captures and their expected outputs for lib/dsa_tag.

usage: gen_tags.py OUTDIR

Deterministic: fixed timestamps, no randomness, scapy only builds the plain
Ethernet/IP/TCP/UDP/ARP frames. Every switch tag is written here from the
layouts of the Linux kernel's taggers (net/dsa/tag_*.c), and
every expected output is computed here from the plain frames we started
with - never by running tagpipe's C code. The formats are described in
pcaps/tags/README.md.
"""
import json
import os
import struct
import sys

from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import ARP, Dot1AD, Dot1Q, Ether

T0 = 1_700_000_000  # fixed epoch second for every generated capture
LINKTYPE_ETHERNET = 1
MIN_FRAME = 60  # frames as a NIC/switch sends them: padded to ETH_ZLEN


def write_pcap(path, frames):
    """Classic little-endian pcap, usec timestamps, one frame every 10 us."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, LINKTYPE_ETHERNET))
        for i, data in enumerate(frames):
            us = i * 10
            f.write(struct.pack("<IIII", T0 + us // 1_000_000, us % 1_000_000,
                                len(data), len(data)))
            f.write(data)


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")


def write_jsonl(path, rows):
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")


# ---- plain frames --------------------------------------------------------

HOST = "02:00:00:00:00:01"


def peer_mac(port):
    return "02:00:00:00:%02x:%02x" % (port >> 8 & 0xFF, 0x10 + (port & 0xFF))


def l3(kind, i, port):
    src = "192.0.2.%d" % (10 + port)
    if kind == "tcp":
        return IP(src=src, dst="192.0.2.1", id=i + 1) / TCP(
            sport=40000 + i, dport=80, seq=1000 * i, flags="PA") / (b"tag%02d" % i * 3)
    if kind == "udp":
        return IP(src=src, dst="192.0.2.1", id=i + 1) / UDP(sport=5000 + i, dport=9000) / (
            b"u" * (i % 7 + 1))
    return ARP(op=1, hwsrc=peer_mac(port), psrc=src, pdst="192.0.2.1")


def plain(kind, i, port, vlans):
    """The frame as it was before the switch tagged it: vlans = [(tpid, tci)]."""
    pkt = Ether(dst=HOST if kind != "arp" else "ff:ff:ff:ff:ff:ff", src=peer_mac(port))
    for tpid, tci in vlans:
        layer = Dot1AD if tpid == 0x88A8 else Dot1Q
        pkt = pkt / layer(prio=tci >> 13, id=tci >> 12 & 1, vlan=tci & 0xFFF)
    pkt = pkt / l3(kind, i, port)
    raw = bytes(pkt)
    # scapy writes the outer TPID of the first VLAN layer itself; fix it up.
    if vlans:
        raw = raw[:12] + struct.pack(">H", vlans[0][0]) + raw[14:]
    return raw.ljust(MIN_FRAME, b"\0")


# ---- switch tags, RX (switch to CPU) direction ---------------------------

def after_sa(frame, tag):
    return frame[:12] + tag + frame[12:]


def dsa_tag(frame, port, dev, prio):
    """Marvell DSA FORWARD (docs/ref/dsa-tags.md §3.4, §4.3). An 802.1Q frame becomes a 'tagged'
    tag that replaces its 0x8100 (T1 bit 0 = DEI, T2 bit 4 = 0)."""
    if frame[12:14] == b"\x81\x00":
        tci = struct.unpack(">H", frame[14:16])[0]
        t = bytes([0xC0 | 0x20 | dev, port << 3 | (tci >> 12 & 1),
                   (tci >> 8) & 0xEF, tci & 0xFF])
        return frame[:12] + t + frame[16:]
    return after_sa(frame, bytes([0xC0 | dev, port << 3, prio << 5, 0]))


def edsa_tag(frame, port, dev, prio):
    t = dsa_tag(frame, port, dev, prio)
    return t[:12] + b"\xda\xda\x00\x00" + t[12:]


def brcm_bytes(port, prio):
    # T0 opcode 0 (egress), T1 class id 0, T2 reason 0x20 (exception), T3 TC | port
    return bytes([0x00, 0x00, 0x20, prio << 5 | port])


def ocelot_hdr(port, prio, vid):
    # short prefix 88 80 00 0a, then 128 header bits: SRC_PORT 46:43,
    # QOS_CLASS 19:17, VID 11:0 (docs/ref/dsa-tags.md §3.16)
    lo = port << 43 | prio << 17 | vid
    return b"\x88\x80\x00\x0a" + bytes(8) + struct.pack(">Q", lo)


def inner_vid(frame):
    if frame[12:14] in (b"\x81\x00", b"\x88\xa8"):
        return struct.unpack(">H", frame[14:16])[0] & 0xFFF
    return 0


TAGGERS = {
    # name: (function(frame, port, dev, prio) -> tagged frame, ports, devices)
    "dsa": (dsa_tag, 11, 2),
    "edsa": (edsa_tag, 11, 2),
    "brcm": (lambda f, p, d, q: after_sa(f, brcm_bytes(p, q)), 9, 1),
    "brcm-prepend": (lambda f, p, d, q: brcm_bytes(p, q) + f, 9, 1),
    "mtk": (lambda f, p, d, q: after_sa(f, bytes([0, p, 0, 0])), 7, 1),
    "qca": (lambda f, p, d, q: after_sa(f, struct.pack(">H", 0x8000 | q << 11 | p)), 7, 1),
    "ksz9477": (lambda f, p, d, q: f + (b"\x12\x34\x56\x78" + bytes([0x80 | p])
                                         if q & 1 else bytes([p])), 7, 1),
    "ocelot": (lambda f, p, d, q: ocelot_hdr(p, q, inner_vid(f)) + f, 11, 1),
    "sja1105": (lambda f, p, d, q: after_sa(
        f, struct.pack(">HH", 0xDADB, q << 13 | 0xC00 | d << 6 | p)), 11, 2),
    "trailer": (lambda f, p, d, q: f + bytes([0x80, p, 0x10 if q & 1 else 0, 0]), 5, 1),
    "ar9331": (lambda f, p, d, q: struct.pack("<H", 0x4030 | q << 12 | p) + f, 5, 1),
    "rtl8_4": (lambda f, p, d, q: after_sa(
        f, struct.pack(">HHHH", 0x8899, 0x0400, 0x0800 | q << 8, p)), 11, 1),
    "a5psw": (lambda f, p, d, q: after_sa(f, struct.pack(">HHHH", 0xE001, p, 0, 0)), 4, 1),
}

# Which TX prio each tagger carries on RX into the meta (for the JSONL).
KINDS = ["tcp", "udp", "arp"]
VLAN_CASES = [[], [(0x8100, 0x2064)], [(0x88A8, 0x00C8), (0x8100, 0x07D1)], []]


def vlan_fields(vlans):
    """What lib/vlan puts in the mbuf for these tags (DPDK convention)."""
    if len(vlans) == 2:
        return {"vlan": vlans[1][1] & 0xFFF, "vlan_tci": vlans[1][1],
                "vlan_outer": vlans[0][1] & 0xFFF, "vlan_tci_outer": vlans[0][1]}
    if len(vlans) == 1:
        return {"vlan": vlans[0][1] & 0xFFF, "vlan_tci": vlans[0][1],
                "vlan_outer": None, "vlan_tci_outer": None}
    return {"vlan": None, "vlan_tci": None, "vlan_outer": None, "vlan_tci_outer": None}


def strip_vlans(frame, vlans):
    return frame[:12] + frame[12 + 4 * len(vlans):]


def gen_tagger(out, name):
    tag, n_ports, n_devs = TAGGERS[name]
    tagged, untagged, vstripped, meta = [], [], [], []
    for i in range(24):
        port = (i * 5 + 1) % n_ports
        dev = (i // 3) % n_devs
        prio = i % 4
        kind = KINDS[i % 3]
        vlans = VLAN_CASES[(i // 3) % 4]
        f = plain(kind, i, port, vlans)
        tagged.append(tag(f, port, dev, prio))
        untagged.append(f)
        vstripped.append(strip_vlans(f, vlans))
        row = {"index": i, "tagger": name, "switch_port": port, "switch_device": dev,
               "kind": kind, "len": len(f)}
        row.update(vlan_fields(vlans))
        meta.append(row)
    base = os.path.join(out, name)
    write_pcap(base + ".pcap", tagged)
    write_pcap(base + ".expected.pcap", untagged)
    write_pcap(base + ".expected-vlan-strip.pcap", vstripped)
    write_jsonl(base + ".expected.jsonl", meta)


# ---- bad input ----------------------------------------------------------
# Each case: (tagged frame, expected drop reason or None for kept). The
# reasons are lib/dsa_tag's names for the kernel's rcv checks
# (docs/ref/dsa-tags.md §3).

def short(name, n):
    """A frame too short to hold the tag plus an Ethernet header."""
    return bytes(range(n))


def bad_cases(name):
    f = plain("udp", 0, 1, [])
    good = TAGGERS[name][0](f, 1, 0, 0)
    cases = [(good, None), (short(name, 3), "too_short")]
    if name == "dsa" or name == "edsa":
        pre = b"\xda\xda\x00\x00" if name == "edsa" else b""
        cases += [(after_sa(f, pre + bytes([0x40, 0x08, 0, 0])), "bad_type"),   # FROM_CPU
                  (after_sa(f, pre + bytes([0x80, 0x08, 0, 0])), "bad_type"),   # TO_SNIFFER
                  (after_sa(f, pre + bytes([0x00, 0x08, 0x10, 0])), "bad_type"),  # code 1
                  (after_sa(f, pre + bytes([0x00, 0x0E, 0x00, 0])), "bad_type"),  # code 6
                  (after_sa(f, pre + bytes([0x00, 0x0A, 0x00, 0])), None),        # code 2 ok
                  (f[:12] + pre + bytes([0xC0, 0x08]), "too_short")]
    elif name in ("brcm", "brcm-prepend"):
        put = (lambda t: after_sa(f, t)) if name == "brcm" else (lambda t: t + f)
        cases += [(put(bytes([0x20, 0, 0, 0x02])), "bad_type"),   # opcode 1 (to switch)
                  (put(bytes([0x00, 0, 0x40, 0x01])), "bad_type"),  # reserved reason bit
                  (put(bytes([0x00, 0, 0x01, 0x1F])), None)]        # port 31, mirror
    elif name == "qca":
        cases += [(after_sa(f, b"\x40\x01"), "bad_version"),
                  (after_sa(f, b"\x80\x41"), "mgmt_frame"),   # type 1: MIB
                  (after_sa(f, b"\x80\x81"), "mgmt_frame")]   # type 2: register ack
    elif name == "trailer":
        cases += [(f + b"\x81\x01\x00\x00", "bad_marker"),
                  (f + b"\x80\x09\x00\x00", "bad_marker"),
                  (f + b"\x80\x01\x00\x02", "bad_marker")]
    elif name == "ar9331":
        cases += [(struct.pack("<H", 0x8031) + f, "bad_version"),
                  (struct.pack("<H", 0x4071) + f, "bad_type")]  # from-CPU bit set
    elif name == "rtl8_4":
        cases += [(after_sa(f, struct.pack(">HHHH", 0x8898, 0x0400, 0, 1)), "bad_marker"),
                  (after_sa(f, struct.pack(">HHHH", 0x8899, 0x0500, 0, 1)), "bad_version")]
    elif name == "a5psw":
        cases += [(after_sa(f, struct.pack(">HHHH", 0xE002, 1, 0, 0)), "bad_marker")]
    elif name == "sja1105":
        cases += [(after_sa(f, struct.pack(">HH", 0xDADB, 0xC11)), "bridge_vid"),
                  (after_sa(f, struct.pack(">HH", 0x88A8, 0xC01)), "bad_marker"),
                  (f, "bad_marker")]  # untagged, not link-local
    return cases


def gen_bad(out, name):
    cases = bad_cases(name)
    drops = {}
    kept = []
    for i, (_, reason) in enumerate(cases):
        if reason is None:
            kept.append(i)
        else:
            drops[reason] = drops.get(reason, 0) + 1
    write_pcap(os.path.join(out, "bad_%s.pcap" % name), [c[0] for c in cases])
    write_json(os.path.join(out, "bad_%s.json" % name),
               {"tagger": name, "frames": len(cases), "kept": len(kept),
                "kept_index": kept, "drops": drops})


def gen_bad_vlan(out):
    """VLAN strip on an untagged conduit (tagger none): cut tags are drops."""
    f = plain("tcp", 1, 2, [(0x88A8, 0x0064), (0x8100, 0x0065)])
    cases = [(f, None),
             (f[:17], "too_short"),   # outer TCI cut
             (f[:21], "too_short"),   # inner EtherType cut
             (plain("arp", 2, 2, []), None)]
    drops = {}
    for _, r in cases:
        if r is not None:
            drops[r] = drops.get(r, 0) + 1
    write_pcap(os.path.join(out, "bad_vlan.pcap"), [c[0] for c in cases])
    write_json(os.path.join(out, "bad_vlan.json"),
               {"tagger": "none", "frames": len(cases),
                "kept": sum(1 for c in cases if c[1] is None),
                "kept_index": [i for i, c in enumerate(cases) if c[1] is None],
                "vlan_drops": drops})


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen_tags.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name in sorted(TAGGERS):
        gen_tagger(out, name)
    for name in ("dsa", "edsa", "brcm", "brcm-prepend", "qca", "trailer", "ar9331",
                 "rtl8_4", "a5psw", "sja1105", "mtk", "ksz9477", "ocelot"):
        gen_bad(out, name)
    gen_bad_vlan(out)


if __name__ == "__main__":
    main()
