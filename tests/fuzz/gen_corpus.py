#!/usr/bin/python3
"""Write the fuzz targets' seed corpora (tests/fuzz/corpus/<target>/).

usage: gen_corpus.py [OUTDIR]   (default: the corpus/ beside this file)
       gen_corpus.py --check      (exit 1 if the committed corpus differs)
Deterministic: the seeds are the committed captures' frames (pcaps/tags,
pcaps/gro, pcaps/demo.pcap) and a few hand-built edge frames, laid out as
each target reads its input (tests/fuzz/fuzz.h). Rerun after changing a
target's input layout; commit the result.
"""
import glob
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gen"))
import tpgen  # noqa: E402

SRC = os.path.join(HERE, "..", "..")
COMMITTED = os.path.join(HERE, "corpus")
OUT = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "--check" else COMMITTED


def burst(frames, split=None):
    """fuzz.h burst layout: [flags][len_hi][len_lo][bytes] per frame."""
    b = b""
    for i, fr in enumerate(frames):
        flags = 0
        if split is not None and i % 2 == 1:
            flags = 1 | (split << 1)
        b += struct.pack(">BH", flags, len(fr)) + fr
    return b


def frames_of(path, limit=8):
    return tpgen.read_pcap(path)[1][:limit]


def write(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# Edge frames: empty, 1 byte, a bare Ethernet header, a minimum frame.
EDGE = [b"", b"\x01", bytes(range(14)), bytes(60)]


def dsa():
    for path in sorted(glob.glob(os.path.join(SRC, "pcaps", "tags", "*.pcap"))):
        base = os.path.basename(path)[:-5]
        if ".expected" in base:
            continue
        bad = base.startswith("bad_")
        tagger = base[4:] if bad else base
        fr = frames_of(path)
        write("dsa", base, tagger.encode() + b"\0" + bytes([0, 3]) + burst(fr))
        if not bad:
            # Chained, CPU port given, switch-side decode.
            write("dsa", base + "_chain", tagger.encode() + b"\0" + bytes([0x23, 1]) +
                  burst(fr, split=64))
            write("dsa", base + "_sw", tagger.encode() + b"\0" + bytes([1, 2]) + burst(fr[:2]))
    write("dsa", "edge", b"ksz9477\0" + bytes([0, 0]) + burst(EDGE))
    vlan_split()


def vlan_split():
    """Regressions (libFuzzer finds): a frame whose 802.1Q header straddles
    its two segments once the RX tag is gone (16 or 17 bytes in the first).
    dsa, edsa and mtk TX used to rewrite that header into their tag in
    place, which the switch-side decode then refused (tag_not_contiguous):
    the strip(insert(f)) round trip failed."""
    inner = b"\x00\x64\x08\x00" + bytes(46)  # TCI 100, IPv4, payload
    macs = bytes(range(1, 13))
    cases = (("dsa", b"\x00\x08\x00\x00", b"\x81\x00", 17),    # TO_CPU port 1
             ("edsa", b"\xda\xda\x00\x00\x00\x08\x00\x00", b"\x81\x00", 16),
             ("mtk", b"\x00\x01\x00\x00", b"\x88\xa8", 17))     # port 1
    for tagger, tag, tpid, first in cases:
        fr = macs + tag + tpid + inner
        seg = first + len(tag)                      # first segment on RX
        k = next(k for k in range(128) if len(fr) * k // 128 == seg)
        write("dsa", f"regress_{tagger}_vlan_split", tagger.encode() + b"\0" +
              bytes([0, 1]) + struct.pack(">BH", 1 | k << 1, len(fr)) + fr)


def vlan():
    fr = frames_of(os.path.join(SRC, "pcaps", "gro", "vlan_in.pcap"))
    for mode in range(4):
        write("vlan", f"vlan_mode{mode}", bytes([mode, 0x20, 0x05]) + burst(fr))
    qinq = bytes(12) + b"\x88\xa8\x00\x0a\x81\x00\x00\x14\x81\x00\x00\x1e\x08\x00" + bytes(46)
    write("vlan", "three_tags", bytes([0, 0, 1]) + burst([qinq], split=5))
    write("vlan", "edge", bytes([2, 0xff, 0xff]) + burst(EDGE + [bytes(12) + b"\x81\x00"]))


def gro():
    for name in ("bulk4_in", "bulk6_in", "big_in", "vlan_in"):
        path = os.path.join(SRC, "pcaps", "gro", name + ".pcap")
        if os.path.exists(path):
            fr = frames_of(path, 24)
            write("gro", name, bytes([0x08]) + burst(fr))
            write("gro", name + "_kernel_verify", bytes([0x17]) + burst(fr))
    write("gro", "demo", bytes([0x0f]) + burst(frames_of(os.path.join(SRC, "pcaps", "demo.pcap"), 48)))
    write("gro", "edge", bytes([0]) + burst(EDGE))


def pcap():
    for path in (os.path.join(SRC, "pcaps", "demo.pcap"),
                 os.path.join(SRC, "pcaps", "gro", "vlan_in.pcap")):
        fr = frames_of(path, 4)
        write("pcap", os.path.basename(path), pcap_bytes(fr))
    write("pcap", "fcs", pcap_bytes([bytes(64)], linktype=0x24000001))
    write("pcap", "empty", pcap_bytes([]))
    write("pcap", "truncated", pcap_bytes([bytes(60)])[:-10])
    # Timestamps outside pcap-savefile(5): a fraction of 1 s or more is
    # carried into the seconds; 0xFFFFFFFF (-1 as libpcap reads it) refused.
    write("pcap", "ts_fraction_carry", pcap_bytes([bytes(60)], ts=[(1, 2500000)]))
    write("pcap", "ts_all_ones", pcap_bytes([bytes(60)], ts=[(0xFFFFFFFF, 0xFFFFFFFF)]))
    write("pcap", "big_endian", struct.pack(">IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1) +
          struct.pack(">IIII", 0, 0, 20, 20) + bytes(20))


def pcap_bytes(frames, linktype=1, ts=None):
    b = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, linktype)
    for i, fr in enumerate(frames):
        sec, frac = ts[i] if ts else (0, i)
        b += struct.pack("<IIII", sec, frac, len(fr), len(fr)) + fr
    return b


def tree(d):
    out = {}
    for root, _, files in os.walk(d):
        for n in files:
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, d)] = f.read()
    return out


if __name__ == "__main__":
    check = sys.argv[1:] == ["--check"]
    if check:
        import tempfile
        tmp = tempfile.TemporaryDirectory()
        OUT = tmp.name
    dsa()
    vlan()
    gro()
    pcap()
    if check:
        want, have = tree(OUT), tree(COMMITTED)
        diff = sorted(k for k in set(want) | set(have) if want.get(k) != have.get(k))
        if diff:
            sys.exit("corpus out of date (rerun tests/fuzz/gen_corpus.py): " + ", ".join(diff))
        print(f"corpus up to date: {len(want)} seeds")
