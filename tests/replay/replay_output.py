#!/usr/bin/python3
"""tagpipe-replay's outputs as a tcpdump and DPDK user reads them: JSON on
stdout that parses, captures that keep their timestamps and carry the DSA
link type of their tags, link types named as libpcap names them, and errors
of a --via-port that say what the driver said (issue 14).

usage: replay_output.py REPLAY_BINARY CASE
Expected frames come from pcaps/pipeline (built by tests/gen/gen_pipeline.py
from the wire formats) and from hand-made timestamps, never from our output.
"""
import functools
import json
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "gen"))
import tpgen  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
import cases  # noqa: E402

SRC = os.environ.get("TP_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
DEMO = os.path.join(SRC, "pcaps", "demo.pcap")
EDSA = os.path.join(SRC, "pcaps", "pipeline", "edsa_4ports.pcap")
EDSA_TX = os.path.join(SRC, "pcaps", "pipeline", "edsa_4ports_tx.pcap")
REPLAY = os.path.abspath(sys.argv[1])
IDENTITY = ["--gro", "off", "--vlan", "keep"]
LINKTYPE_DSA_TAG_EDSA = 285  # tcpdump.org link-type registry
LINKTYPE_RAW = 101
MAGIC_US, MAGIC_NS = 0xA1B2C3D4, 0xA1B23C4D


def errors(stderr):
    """The program's error lines (not the EAL's hugepage note)."""
    return "\n".join(l for l in stderr.splitlines() if l.startswith("tagpipe-replay: error:"))


# run(args, expect_rc=0, cwd=None): tagpipe-replay, exit status checked
run = functools.partial(cases.run_tool, REPLAY)


def write_pcap_ts(path, frames, stamps_ns, linktype, nsec):
    """A classic pcap with the given per-frame timestamps (ns since the
    epoch), written in microseconds or nanoseconds."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", MAGIC_NS if nsec else MAGIC_US, 2, 4, 0, 0,
                            65535, linktype))
        for fr, ts in zip(frames, stamps_ns):
            sub = ts % 1_000_000_000 if nsec else ts % 1_000_000_000 // 1000
            f.write(struct.pack("<IIII", ts // 1_000_000_000, sub, len(fr), len(fr)))
            f.write(fr)


def read_pcap_ts(path):
    """(magic, linktype, [(ts_ns, bytes)]) of a little-endian classic pcap."""
    with open(path, "rb") as f:
        magic, _, _, _, _, _, lt = struct.unpack("<IHHiIII", f.read(24))
        assert magic in (MAGIC_US, MAGIC_NS), hex(magic)
        mult = 1 if magic == MAGIC_NS else 1000
        out = []
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                break
            sec, sub, caplen, _ = struct.unpack("<IIII", rec)
            out.append((sec * 1_000_000_000 + sub * mult, f.read(caplen)))
    return magic, lt, out


def read_pcapng(path):
    """(linktype, tsresol, [(ts_ns, bytes)]) of a one-interface
    little-endian pcapng, by the blocks of draft-ietf-opsawg-pcapng."""
    data = open(path, "rb").read()
    off, lt, res, out = 0, None, None, []
    while off < len(data):
        btype, blen = struct.unpack_from("<II", data, off)
        body = data[off + 8:off + blen - 4]
        assert struct.unpack_from("<I", data, off + blen - 4)[0] == blen, "trailer"
        if btype == 0x0A0D0D0A:
            assert struct.unpack_from("<IHH", body)[0:3] == (0x1A2B3C4D, 1, 0)
        elif btype == 1:
            lt = struct.unpack_from("<H", body)[0]
            o = 8
            while o < len(body):
                code, ln = struct.unpack_from("<HH", body, o)
                if code == 9:
                    res = body[o + 4]
                o += 4 + ln + (-ln % 4)
                if code == 0:
                    break
        elif btype == 6:
            _, hi, lo, cap, orig = struct.unpack_from("<IIIII", body)
            assert cap == orig
            out.append(((hi << 32 | lo), body[20:20 + cap]))
        off += blen
    return lt, res, out


def need(*paths):
    for p in paths:
        if not os.path.exists(p):
            sys.exit(77)


# --- 1. machine-readable output -------------------------------------------

def pcap_times_ns(path):
    """Capture timestamps of a classic pcap's records, in ns."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    end = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    nsec = struct.unpack(end + "I", data[:4])[0] == 0xA1B23C4D
    out, off = [], 24
    while off + 16 <= len(data):
        sec, frac, caplen, _ = struct.unpack(end + "IIII", data[off:off + 16])
        out.append(sec * 10**9 + (frac if nsec else frac * 1000))
        off += 16 + caplen
    return out

def case_stdout_json(tmp):
    """'-' means stdout, which then holds exactly one JSON document (or
    JSON lines for --meta), and the human summary goes to stderr."""
    _, frames = tpgen.read_pcap(DEMO)
    p = run(["-i", DEMO, "--stats", "-"] + IDENTITY)
    st = json.loads(p.stdout)
    assert st["rx"] == len(frames) and st["pass"] == len(frames), st
    assert "Mpps" in p.stderr and "verdicts (packets):" in p.stderr, p.stderr
    p = run(["-i", DEMO, "--json", "-"] + IDENTITY)
    doc = json.loads(p.stdout)
    assert doc["tagpipe"]["packets"] == len(frames), doc["tagpipe"]
    assert "Mpps" in p.stderr, p.stderr
    # --meta -: one object per frame on stdout, no file named '-'.
    p = run(["-i", DEMO, "--meta", "-"] + IDENTITY, cwd=tmp)
    rows = [json.loads(l) for l in p.stdout.splitlines()]
    assert [r["len"] for r in rows] == [len(f) for f in frames], rows[:3]
    assert all(r["verdict"] == "pass" for r in rows)
    # Each line names its input frame and that frame's capture time
    # (issue 26): the record headers read here, independently.
    assert [r["frame"] for r in rows] == list(range(len(frames))), rows[:3]
    assert [r["ts_ns"] for r in rows] == pcap_times_ns(DEMO), rows[:3]
    # Merged (GRO on): a packet names the first frame it was made of.
    p = run(["-i", DEMO, "--meta", "-"], cwd=tmp)
    rows = [json.loads(l) for l in p.stdout.splitlines()]
    merged = [r for r in rows if r["gso_segs"] > 1]
    # ...a data segment (longer than its payload), each packet its own.
    assert merged and all(len(frames[r["frame"]]) > r["gso_size"] for r in merged), merged[:3]
    assert len(set(r["frame"] for r in rows)) == len(rows)
    assert sum(r["gso_segs"] for r in rows) == len(frames), rows[:3]
    assert os.listdir(tmp) == [], os.listdir(tmp)
    assert "Mpps" in p.stderr, p.stderr
    # --quiet: no summary anywhere, the document alone.
    p = run(["-i", DEMO, "--stats", "-", "--quiet"] + IDENTITY)
    assert json.loads(p.stdout)["rx"] == len(frames)
    assert "Mpps" not in p.stderr and "Mpps" not in p.stdout, p.stderr
    # Without any '-', the summary stays on stdout.
    p = run(["-i", DEMO] + IDENTITY)
    assert "Mpps" in p.stdout and "Mpps" not in p.stderr, p.stdout
    # Two documents cannot share stdout.
    for a, b in (("--meta", "--stats"), ("--stats", "--json"), ("--meta", "--json")):
        p = run(["-i", DEMO, a, "-", b, "-"], expect_rc=2, cwd=tmp)
        assert errors(p.stderr) == (f"tagpipe-replay: error: {a} - and {b} - both want "
                                    "stdout; give one a FILE"), p.stderr
        assert p.stdout == "" and os.listdir(tmp) == []


# --- 2. captures as tcpdump expects ----------------------------------------

def edsa_input(tmp, nsec):
    """pcaps/pipeline/edsa_4ports.pcap's frames with link type DSA_TAG_EDSA
    and hand-made timestamps: frame i at 1700000000 s + i * 1001 us + 7 ns
    (the 7 ns only in nanosecond files)."""
    need(EDSA, EDSA_TX)
    _, frames = tpgen.read_pcap(EDSA)
    stamps = [1_700_000_000 * 10**9 + i * 1_001_000 + (7 if nsec else 0)
              for i in range(len(frames))]
    path = os.path.join(tmp, "edsa_lt.pcap")
    write_pcap_ts(path, frames, stamps, LINKTYPE_DSA_TAG_EDSA, nsec)
    return path, frames, stamps


def tcpdump(path):
    if shutil.which("tcpdump") is None:
        sys.exit("tcpdump is not installed (apt-get install tcpdump)")
    p = subprocess.run(["tcpdump", "-nn", "-e", "-tt", "--time-stamp-precision=nano",
                        "-r", path], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stderr, p.stdout.splitlines()


def case_dsa_linktype_tx(tmp):
    """A DSA_TAG_EDSA capture picks the edsa tagger without --tagger; TX
    output carries FROM_CPU tags, is written as DSA_TAG_EDSA (tcpdump decodes
    the tag), in nanoseconds, each frame with its input timestamp."""
    src, frames, stamps = edsa_input(tmp, nsec=True)
    out = os.path.join(tmp, "tx.pcap")
    run(["-i", src, "--gro", "off", "--verdict", "tx", "--write", "tx=" + out])
    _, want = tpgen.read_pcap(EDSA_TX)
    magic, lt, got = read_pcap_ts(out)
    assert (magic, lt) == (MAGIC_NS, LINKTYPE_DSA_TAG_EDSA), (hex(magic), lt)
    assert [g[1] for g in got] == want, "tx frames differ from edsa_4ports_tx.pcap"
    assert [g[0] for g in got] == stamps, ([g[0] for g in got][:3], stamps[:3])
    info, lines = tcpdump(out)
    assert "link-type DSA_TAG_EDSA (Marvell EDSA)" in info, info
    assert len(lines) == len(want), lines
    # tcpdump's EDSA printer decodes the tag (as EN10MB it would print
    # "ethertype Unknown (0xdada)" and nothing of the tag); input frame i
    # came from switch port i % 4 and goes back to it.
    for i, l in enumerate(lines):
        ts = stamps[i]
        assert l.startswith(f"{ts // 10**9}.{ts % 10**9:09d} "), (i, l)
        assert f"Marvell EDSA ethertype 0xdada (Unknown), rsvd 0 0, mode From CPU, " \
               f"target dev 0, port {i % 4}, untagged, VID 0" in l, (i, l)


def case_pcapng_out(tmp):
    """--write FILE.pcapng (or --write-format pcapng): pcapng with the DSA
    link type and nanosecond timestamps; --write-format pcap overrides the
    suffix."""
    src, frames, stamps = edsa_input(tmp, nsec=False)
    out = os.path.join(tmp, "tx.pcapng")
    run(["-i", src, "--gro", "off", "--verdict", "tx", "--write", "tx=" + out])
    _, want = tpgen.read_pcap(EDSA_TX)
    lt, res, got = read_pcapng(out)
    assert (lt, res) == (LINKTYPE_DSA_TAG_EDSA, 9), (lt, res)
    assert [g[1] for g in got] == want
    assert [g[0] for g in got] == stamps
    info, lines = tcpdump(out)
    assert "link-type DSA_TAG_EDSA (Marvell EDSA)" in info, info
    assert len(lines) == len(want) and "mode From CPU" in lines[0], lines[:1]
    assert lines[1].startswith("1700000000.001001000 "), lines[1]
    other = os.path.join(tmp, "x.out")
    run(["-i", src, "--gro", "off", "--write-format", "pcapng", "--write", "pass=" + other])
    lt, _, got = read_pcapng(other)
    assert lt == 1 and [g[1] for g in got] == [f[:12] + f[20:] for f in frames]
    classic = os.path.join(tmp, "c.pcapng")
    run(["-i", src, "--gro", "off", "--write-format", "pcap", "--write", "pass=" + classic])
    assert read_pcap_ts(classic)[0] == MAGIC_US
    p = run(["-i", src, "--write-format", "pcapx"], expect_rc=2)
    assert errors(p.stderr) == \
        "tagpipe-replay: error: --write-format: 'pcapx' is not pcap or pcapng", p.stderr


def case_dsa_linktype_pass(tmp):
    """PASS leaves untagged: Ethernet link type, the frames without their
    8-byte EDSA tag, microseconds kept from a microsecond input."""
    src, frames, stamps = edsa_input(tmp, nsec=False)
    out = os.path.join(tmp, "pass.pcap")
    p = run(["-i", src, "--gro", "off", "--write", "pass=" + out, "--stats", "-"])
    magic, lt, got = read_pcap_ts(out)
    assert (magic, lt) == (MAGIC_US, 1), (hex(magic), lt)
    assert [g[1] for g in got] == [f[:12] + f[20:] for f in frames]
    assert [g[0] for g in got] == stamps
    assert json.loads(p.stdout)["pass"] == len(frames)


def case_dsa_linktype_gro(tmp):
    """Merged packets keep their first segment's timestamp; the segments GSO
    makes of them on TX keep their packet's. Port p's first segment is input
    frame p (round robin over 4 ports)."""
    src, frames, stamps = edsa_input(tmp, nsec=True)
    out, txo = os.path.join(tmp, "pass.pcap"), os.path.join(tmp, "tx.pcap")
    run(["-i", src, "--write", "pass=" + out])
    _, _, got = read_pcap_ts(out)
    assert len(got) == 4, len(got)
    # The merged packet of port p comes from 192.0.2.(10 + p).
    assert sorted((g[1][29] - 10, g[0]) for g in got) == \
        [(p, stamps[p]) for p in range(4)], [(g[1][26:30], g[0]) for g in got]
    run(["-i", src, "--verdict", "tx", "--write", "tx=" + txo])
    _, lt, got = read_pcap_ts(txo)
    assert lt == LINKTYPE_DSA_TAG_EDSA and len(got) == len(frames), (lt, len(got))
    # FROM_CPU tag byte 17 holds the target switch port << 3.
    assert sorted((g[1][17] >> 3, g[0]) for g in got) == \
        sorted((p, stamps[p]) for p in range(4) for _ in range(4)), got[:2]
    _, want = tpgen.read_pcap(EDSA_TX)
    assert sorted(g[1] for g in got) == sorted(want)


def case_counters_packets(tmp):
    """Verdicts in packets and in frames, both labelled; the merge-size
    histogram for PASS, TX and REDIRECT alike. The edsa input is 4 flows of
    4 segments that GRO merges into 4 packets (by construction)."""
    src, frames, _ = edsa_input(tmp, nsec=False)
    hist = {"1": 0, "2": 0, "3-4": 4, "5-8": 0, "9-16": 0, "17-32": 0, "33-64": 0,
            "65+": 0}
    for verdict, extra in (("pass", []), ("tx", []),
                           ("redirect:7", ["--redirect", "7=port:0"])):
        key = verdict.split(":")[0]
        p = run(["-i", src, "--verdict", verdict, "--json", "-"] + extra)
        tp = json.loads(p.stdout)["tagpipe"]
        assert tp["gro"]["hist"] == hist and tp["gro"]["hist_of"] == "pass,tx,redirect", \
            (verdict, tp["gro"])
        assert tp["verdict_packets"][key] == 4 and tp["verdicts"][key] == len(frames), tp
        lines = p.stderr.splitlines()
        for label, n in (("verdicts (packets):", 4), ("  in input frames:", 16)):
            want = {"pass": 0, "tx": 0, "redirect": 0, key: n}
            assert (label + " pass %(pass)d, tx %(tx)d, redirect %(redirect)d, "
                    "drop 0, aborted 0" % want) in lines, (label, lines)
        assert "  merge sizes tagpipe  1:0 2:0 3-4:4 5-8:0 9-16:0 17-32:0 33-64:0 65+:0" \
            in lines, lines


def case_dsa_linktype_conflict(tmp):
    """--tagger naming another tag than the link type: refused, by name."""
    src, _, _ = edsa_input(tmp, nsec=False)
    out = os.path.join(tmp, "o.pcap")
    p = run(["-i", src, "--tagger", "dsa", "--write", "pass=" + out], expect_rc=2)
    assert errors(p.stderr) == (
        "tagpipe-replay: error: --tagger dsa: the input's link type is Marvell EDSA "
        "(LINKTYPE_DSA_TAG_EDSA), whose frames carry the 'edsa' tag (leave out --tagger, "
        "or give --tagger edsa)"), p.stderr
    assert not os.path.exists(out) and not os.path.exists(out + ".part")
    # Agreeing is fine.
    run(["-i", src, "--tagger", "edsa", "--write", "pass=" + out])


def case_linktype_name(tmp):
    """A Raw IP capture is refused with libpcap's name for its link type."""
    raw = os.path.join(tmp, "raw.pcap")
    ip = bytes.fromhex("450000140001000040ff0000c0000201c6336401")
    write_pcap_ts(raw, [ip], [1_700_000_000 * 10**9], LINKTYPE_RAW, False)
    p = run(["-i", raw], expect_rc=2)
    assert errors(p.stderr) == (f"tagpipe-replay: error: {raw}: link type Raw IP "
                                "(LINKTYPE_RAW) is not Ethernet"), p.stderr
    # Inputs of different link types cannot be one replay.
    src, _, _ = edsa_input(tmp, nsec=False)
    p = run(["-i", src, "-i", DEMO], expect_rc=2)
    assert errors(p.stderr) == (
        f"tagpipe-replay: error: {DEMO}: link type Ethernet (LINKTYPE_EN10MB) differs "
        "from the inputs before it (Marvell EDSA (LINKTYPE_DSA_TAG_EDSA))"), p.stderr


def case_timestamps_demo(tmp):
    """An identity replay of the demo: every timestamp as captured."""
    out = os.path.join(tmp, "o.pcap")
    run(["-i", DEMO, "--write", "pass=" + out] + IDENTITY)
    m_in, lt_in, want = read_pcap_ts(DEMO)
    magic, lt, got = read_pcap_ts(out)
    assert (magic, lt) == (m_in, lt_in) == (MAGIC_US, 1), (magic, lt)
    assert got == want, "frames or timestamps differ"


def case_timestamps_via_port(tmp):
    """Through the AQC model on a loopback wire: the frames the driver
    delivers carry their capture timestamps too; merged packets counted
    once each in the histogram (sum = packets out of GRO)."""
    out = os.path.join(tmp, "o.pcap")
    run(["-i", DEMO, "--via-port", "net_aqc_sim0,wire=loop", "--write", "pass=" + out]
        + IDENTITY)
    _, _, want = read_pcap_ts(DEMO)
    _, _, got = read_pcap_ts(out)
    assert got == want, "frames or timestamps differ"
    src, frames, stamps = edsa_input(tmp, nsec=True)
    txo = os.path.join(tmp, "tx.pcap")
    p = run(["-i", src, "--via-port", "net_ring0", "--verdict", "tx", "--write", "tx=" + txo,
             "--json", "-"])
    tp = json.loads(p.stdout)["tagpipe"]
    assert tp["gro"]["hist"]["3-4"] == 4 and sum(tp["gro"]["hist"].values()) == 4, tp["gro"]
    _, _, got = read_pcap_ts(txo)
    assert sorted((g[1][17] >> 3, g[0]) for g in got) == \
        sorted((p, stamps[p]) for p in range(4) for _ in range(4)), got[:2]


# --- 3. --via-port errors ---------------------------------------------------

def case_via_port_driver_error(tmp):
    """A vdev that fails to probe: the driver's own reason, one line."""
    out = os.path.join(tmp, "o.pcap")
    p = run(["-i", DEMO, "--via-port", "net_aqc_sim0,wire=bogus", "--write",
             "pass=" + out], expect_rc=2)
    assert errors(p.stderr) == (
        "tagpipe-replay: error: --via-port: cannot create device 'net_aqc_sim0,wire=bogus': "
        "net_aqc_sim0: bad devarg wire=bogus: expected loop, pcap, peer or none"), p.stderr
    assert os.listdir(tmp) == []
    # A cable with one end (issue 14: was accepted silently).
    p = run(["-i", DEMO, "--via-port", "net_aqc_sim0,wire=peer"], expect_rc=2)
    assert errors(p.stderr) == (
        "tagpipe-replay: error: --via-port: cannot create device 'net_aqc_sim0,wire=peer': "
        "net_aqc_sim0: bad devarg wire=peer: needs peer=NAME, the other net_aqc_sim port "
        "(wire is one of loop, pcap, peer, none)"), p.stderr
    p = run(["-i", DEMO, "--via-port", "net_nosuch0"], expect_rc=2)
    assert errors(p.stderr) == (
        "tagpipe-replay: error: --via-port: cannot create device 'net_nosuch0' (no vdev "
        "driver of that name, or its driver gave no reason)"), p.stderr


def case_via_port_lost(tmp):
    """A port that loses frames makes a failed run: summary, error, exit 1."""
    p = run(["-i", DEMO, "--via-port", "net_aqc_sim0,wire=loop,mode=step", "--stats",
             "-"] + IDENTITY, expect_rc=1)
    st = json.loads(p.stdout)
    _, frames = tpgen.read_pcap(DEMO)
    lost = len(frames) - st["rx"]
    assert lost > 0, st
    assert errors(p.stderr) == (
        f"tagpipe-replay: error: --via-port net_aqc_sim0,wire=loop,mode=step: {lost} of "
        f"{len(frames)} frames sent were lost in the port"), p.stderr


if __name__ == "__main__":
    cases.main(globals())
