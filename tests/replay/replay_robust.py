#!/usr/bin/python3
"""tagpipe-replay on the edges issue 16 found: merges past 64 KiB, jumbo
frames, TX tail tags on full-size frames, and captures carrying an FCS.

usage: replay_robust.py REPLAY_BINARY CASE
Inputs are built here with scapy and struct; every expected output is built
from the input by hand (MACs swapped, the tagger's documented TX tag
appended), never recorded from tagpipe-replay.
"""
import functools
import json
import os
import struct
import sys
import tempfile

from scapy.all import IP, IPv6, TCP, Ether, Raw  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402

REPLAY = sys.argv[1]
SNAPLEN = 262144  # what output pcaps must declare (apps/replay/replay.h)
MAC_A = "02:00:00:00:00:01"
MAC_B = "02:00:00:00:00:02"
# The pcap link-type field's FCS bits (libpcap pcap/pcap.h LT_FCS_*):
# bit 26 says "FCS length present", bits 28-31 give it in 16-bit words.
LT_FCS_PRESENT = 0x04000000


def write_pcap(path, frames, linktype=1, snaplen=SNAPLEN):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, snaplen, linktype))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1_700_000_000, i, len(fr), len(fr)))
            f.write(fr)


def read_pcap(path):
    """(snaplen, linktype, frames); every record must be whole."""
    with open(path, "rb") as f:
        magic, _, _, _, _, snaplen, linktype = struct.unpack("<IHHiIII", f.read(24))
        assert magic == 0xA1B2C3D4, hex(magic)
        frames = []
        while True:
            rec = f.read(16)
            if not rec:
                break
            _, _, caplen, wirelen = struct.unpack("<IIII", rec)
            assert caplen == wirelen, (caplen, wirelen)
            frames.append(f.read(caplen))
            assert len(frames[-1]) == caplen
    return snaplen, linktype, frames


# run(args, expect_rc=0, cwd=None): tagpipe-replay, exit status checked
run = functools.partial(cases.run_tool, REPLAY)


def replay(tmp, frames, args, verdict="pass", linktype=1):
    """Run frames through tagpipe-replay; returns (stats, output frames)."""
    src = os.path.join(tmp, "in.pcap")
    out = os.path.join(tmp, "out.pcap")
    write_pcap(src, frames, linktype)
    p = run(["-i", src, "--write", f"{verdict}={out}", "--stats", "-"] + args)
    st = json.loads(next(l for l in p.stdout.splitlines() if l.startswith("{")))
    snaplen, lt, got = read_pcap(out)
    assert snaplen == SNAPLEN and lt == 1, (snaplen, lt)
    assert st["mbufs_in_use_end"] == 0 and st["held_in_gro"] == 0, st
    assert st["drop"] == 0 and st["aborted"] == 0, st
    return st, got, out


def tcp4_stream(nseg, mss, last=None):
    """nseg in-order IPv4 TCP frames of one flow, payload mss (last: last)."""
    frames, seq = [], 1000
    for i in range(nseg):
        n = last if (last is not None and i == nseg - 1) else mss
        pay = bytes((seq + k) & 0xFF for k in range(n))
        frames.append(bytes(Ether(dst=MAC_B, src=MAC_A) /
                            IP(src="10.0.0.1", dst="10.0.0.2", id=100 + i, flags="DF") /
                            TCP(sport=5000, dport=80, seq=seq, ack=1, flags="A", window=512) /
                            Raw(pay)))
        seq += n
    return frames


def tcp6_stream(nseg, mss, last):
    frames, seq = [], 7000
    for i in range(nseg):
        n = last if i == nseg - 1 else mss
        pay = bytes((seq * 7 + k) & 0xFF for k in range(n))
        frames.append(bytes(Ether(dst=MAC_B, src=MAC_A) /
                            IPv6(src="fd00::1", dst="fd00::2") /
                            TCP(sport=5001, dport=80, seq=seq, ack=1, flags="A", window=512) /
                            Raw(pay)))
        seq += n
    return frames


def payload(frames):
    out = b""
    for fr in frames:
        pkt = Ether(fr)
        tcp = pkt[TCP]
        if IP in pkt:
            plen = pkt[IP].len - pkt[IP].ihl * 4 - tcp.dataofs * 4
        else:
            plen = pkt[IPv6].plen - tcp.dataofs * 4
        out += bytes(tcp.payload)[:plen]
    return out


def swap_macs(fr):
    return fr[6:12] + fr[0:6] + fr[12:]


def check_big_merge(tmp, frames, want_len, l3len):
    # pass: one merged record past 64 KiB, written whole and declared so.
    # One burst holds the whole stream: GRO "burst" flushes at its end.
    st, got, out = replay(tmp, frames, ["--burst", "64"])
    assert st["rx"] == len(frames) and st["pass"] == len(frames), st
    assert st["gro"]["out"] == 1, st
    assert [len(g) for g in got] == [want_len], [len(g) for g in got]
    pkt = Ether(got[0])
    assert (pkt[IP].len if IP in pkt else pkt[IPv6].plen) == l3len, pkt.summary()
    assert payload(got) == payload(frames), "merged payload differs"
    # Our own output reads back, byte for byte.
    back = os.path.join(tmp, "back.pcap")
    run(["-i", out, "--gro", "off", "--vlan", "keep", "--write", "pass=" + back])
    assert read_pcap(back)[2] == got, "re-read output differs"
    # tx: the merge is re-segmented into exactly the input frames.
    st, got, _ = replay(tmp, frames, ["--verdict", "tx"], verdict="tx")
    assert got == [swap_macs(f) for f in frames], "re-segmented frames differ"


def case_merge_v4_65543(tmp):
    """43 IPv4 frames of 1,577 bytes, MSS 1,523: a 65,529-byte datagram in
    a 65,543-byte frame."""
    frames = tcp4_stream(43, 1523)
    assert all(len(f) == 1577 for f in frames)
    check_big_merge(tmp, frames, 14 + 20 + 20 + 43 * 1523, 20 + 20 + 43 * 1523)


def case_merge_v6_65549(tmp):
    """IPv6 at GRO's cap, a 65,535-byte datagram (tp_gro.h max_ip_len):
    payload length 65,495 from 45 segments of MSS 1,440 and one of 675, in
    a 65,549-byte frame."""
    frames = tcp6_stream(46, 1440, 675)
    assert 40 + 20 + 45 * 1440 + 675 == 65535
    check_big_merge(tmp, frames, 14 + 65535, 65495)


def case_jumbo_70000(tmp):
    """A 70,000-byte frame (local experimental EtherType 0x88B5, IEEE 802
    section 9.2): through every default stage and back, unchanged."""
    fr = bytes(Ether(dst=MAC_B, src=MAC_A, type=0x88B5) /
               Raw(bytes(k * 13 & 0xFF for k in range(70000 - 14))))
    st, got, out = replay(tmp, [fr], [])
    assert got == [fr] and st["rx_bytes"] == 70000, (st, [len(g) for g in got])
    back = os.path.join(tmp, "back.pcap")
    run(["-i", out, "--gro", "off", "--vlan", "keep", "--write", "pass=" + back])
    assert read_pcap(back)[2] == got
    # tx: MACs swapped, otherwise the same 70,000 bytes.
    st, got, _ = replay(tmp, [fr], ["--verdict", "tx"], verdict="tx")
    assert got == [swap_macs(fr)], [len(g) for g in got]


def ksz_tx_tag(tagger, port):
    """The 2-byte big-endian TX tail tag, net/dsa/tag_ksz.c, priority 0 and
    no override bit for a unicast DA: ksz9477 BIT(port) in bits 6:0;
    lan937x the same with its valid bit 13 (LAN937X_TAIL_TAG_VALID)."""
    return struct.pack(">H", (0x2000 if tagger == "lan937x" else 0) | 1 << port)


def check_tail_tag(tmp, tagger, frames, args):
    port = 3
    tagged = [f + bytes([port]) for f in frames]  # RX tag: source port, 2:0
    st, got, _ = replay(tmp, tagged, ["--tagger", tagger, "--verdict", "tx"] + args,
                        verdict="tx")
    assert st["tx"] == len(frames), st
    want = [swap_macs(f) + ksz_tx_tag(tagger, port) for f in frames]
    assert got == want, f"{tagger}: {len(got)} frames, lengths {[len(g) for g in got][:4]}"


def case_tail_tag_full_size(tmp):
    """The capture's largest frame keeps room for the 2-byte TX tag."""
    for tagger in ("ksz9477", "lan937x"):
        frames = tcp4_stream(3, 1400) + tcp4_stream(1, 8960)
        check_tail_tag(tmp, tagger, frames, ["--gro", "off"])


def case_tail_tag_jumbo_merge(tmp):
    """Jumbo frames (MSS 8,960) merged by GRO, then re-segmented on TX:
    every segment gets its tag."""
    for tagger in ("ksz9477", "lan937x"):
        check_tail_tag(tmp, tagger, tcp4_stream(7, 8960), [])


def fcs32(fr):
    import zlib
    return struct.pack("<I", zlib.crc32(fr) & 0xFFFFFFFF)


def case_fcs_stripped(tmp):
    """Link type 1 with FCS length 2 words (4 bytes): the FCS is removed,
    the frames come out as a CRC-stripping NIC delivers them."""
    frames = tcp4_stream(3, 200) + [bytes(Ether(dst=MAC_B, src=MAC_A, type=0x88B5) /
                                          Raw(b"\x00" * 46))]
    st, got, _ = replay(tmp, [f + fcs32(f) for f in frames], ["--gro", "off", "--vlan", "keep"],
                        linktype=LT_FCS_PRESENT | (2 << 28) | 1)
    assert got == frames, [len(g) for g in got]
    assert st["rx_bytes"] == sum(len(f) for f in frames), st
    # Without the bits the same records are frames with a 4-byte trailer.
    st, got, _ = replay(tmp, [f + fcs32(f) for f in frames], ["--gro", "off", "--vlan", "keep"])
    assert got == [f + fcs32(f) for f in frames]


def case_fcs_short_record(tmp):
    """A record shorter than the declared FCS: exit 2, one line naming it."""
    src = os.path.join(tmp, "in.pcap")
    write_pcap(src, [b"\x01\x02\x03"], LT_FCS_PRESENT | (2 << 28) | 1)
    p = run(["-i", src], expect_rc=2)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and "record 1" in lines[0] and "FCS" in lines[0], p.stderr


def main():
    case = globals().get("case_" + sys.argv[2])
    if case is None:
        sys.exit(f"unknown case {sys.argv[2]}")
    with tempfile.TemporaryDirectory() as tmp:
        case(tmp)
    print(f"{sys.argv[2]}: ok")


if __name__ == "__main__":
    main()
