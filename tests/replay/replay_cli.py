#!/usr/bin/python3
"""tagpipe-replay's command-line contract, one case per meson test.

usage: replay_cli.py REPLAY_BINARY CASE
Every case asserts exact frames or exact counters; bad-input cases assert exit
status 2, a one-line error naming the problem, and no output file left behind.
"""
import functools
import json
import struct
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "gen"))
import tpgen  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
import cases  # noqa: E402

SRC = os.environ.get("TP_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
DEMO = os.path.join(SRC, "pcaps", "demo.pcap")
REPLAY = sys.argv[1]
# The demo is bulk TCP: with the default stages (VLAN strip, GRO burst) it
# comes out merged. The identity cases turn the stages off.
IDENTITY = ["--gro", "off", "--vlan", "keep"]


# run(args, expect_rc=0, cwd=None): tagpipe-replay, exit status checked
run = functools.partial(cases.run_tool, REPLAY)


def stats_from_stdout(out):
    """--stats -: stdout is that one document (the summary is on stderr)."""
    return json.loads(out)


def check_conservation(st):
    out = st["pass"] + st["tx"] + st["redirect"] + st["drop"] + st["aborted"]
    assert st["held_in_gro"] == 0, st
    assert st["rx"] == out, f"rx {st['rx']} != out {out}: {st}"
    assert st["drop"] == sum(st["drop_reasons"].values()), st
    assert st["mbufs_in_use_end"] == 0, st


def case_identity(tmp):
    """Frames come out identical to the input; counters add up."""
    out = os.path.join(tmp, "out.pcap")
    p = run(["-i", DEMO, "--write", "pass=" + out, "--stats", "-"] + IDENTITY)
    _, want = tpgen.read_pcap(DEMO)
    _, got = tpgen.read_pcap(out)
    assert got == want, f"{len(got)} frames out, {len(want)} in, or bytes differ"
    st = stats_from_stdout(p.stdout)
    assert st["rx"] == len(want) and st["pass"] == len(want), st
    assert st["rx_bytes"] == sum(len(f) for f in want), st
    check_conservation(st)
    assert "Mpps" in p.stderr and "cycles/packet" in p.stderr, p.stderr


def case_loops_burst(tmp):
    """--loops N replays N times, whatever the burst size."""
    _, want = tpgen.read_pcap(DEMO)
    for burst in ("1", "7", "32", "256"):
        out = os.path.join(tmp, f"out{burst}.pcap")
        stats = os.path.join(tmp, f"st{burst}.json")
        run(["-i", DEMO, "--burst", burst, "--loops", "3", "--write", "pass=" + out,
             "--stats", stats] + IDENTITY)
        _, got = tpgen.read_pcap(out)
        assert got == want * 3, f"burst {burst}: {len(got)} frames"
        with open(stats) as f:
            st = json.load(f)
        assert st["rx"] == 3 * len(want), st
        check_conservation(st)


def case_two_inputs(tmp):
    """Several -i inputs are replayed in order."""
    out = os.path.join(tmp, "out.pcap")
    run(["-i", DEMO, "-i", DEMO, "--write", "pass=" + out] + IDENTITY)
    _, want = tpgen.read_pcap(DEMO)
    _, got = tpgen.read_pcap(out)
    assert got == want + want


def case_meta(tmp):
    """--meta writes one JSON object per output frame, in order."""
    meta = os.path.join(tmp, "m.jsonl")
    run(["-i", DEMO, "--meta", meta] + IDENTITY)
    _, want = tpgen.read_pcap(DEMO)
    with open(meta) as f:
        rows = [json.loads(l) for l in f]
    assert len(rows) == len(want)
    # frame: the input frame's index; ts_ns: its capture time, read from
    # the record headers here (classic pcap, microseconds or nanoseconds)
    with open(DEMO, "rb") as f:
        data = f.read()
    end = "<" if struct.unpack("<I", data[:4])[0] in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    nsec = struct.unpack(end + "I", data[:4])[0] == 0xA1B23C4D
    times, off = [], 24
    while off + 16 <= len(data):
        sec, frac, caplen, _ = struct.unpack(end + "IIII", data[off:off + 16])
        times.append(sec * 10**9 + (frac if nsec else frac * 1000))
        off += 16 + caplen
    for i, (r, fr) in enumerate(zip(rows, want)):
        assert r == {"frame": i, "ts_ns": times[i], "verdict": "pass", "len": len(fr),
                     "switch_port": None, "switch_device": None, "vlan": [],
                     "gso_segs": 1, "gso_size": 0}, r


def case_explicit_eal(tmp):
    """EAL options before -- are used as given."""
    p = run(["--no-huge", "--no-shconf", "-m", "512", "-l", "0", "--no-pci",
             "--file-prefix=tp_cli_%d" % os.getpid(), "--", "-i", DEMO, "--stats", "-"])
    assert stats_from_stdout(p.stdout)["rx"] == 326


def case_fallback_note(tmp):
    """Without EAL options and without hugepages: a one-line warning."""
    p = run(["-i", DEMO])
    free = 0
    base = "/sys/kernel/mm/hugepages"
    for d in os.listdir(base) if os.path.isdir(base) else []:
        with open(os.path.join(base, d, "free_hugepages")) as f:
            free += int(f.read())
    warned = [l for l in p.stderr.splitlines() if "no free hugepages" in l]
    assert len(warned) == (1 if free == 0 else 0), p.stderr


def bad(tmp, args, words):
    """Exit 2, one line naming the problem, no output file left."""
    outs = [os.path.join(tmp, n) for n in ("o.pcap", "m.jsonl", "s.json")]
    full = args + ["--write", "pass=" + outs[0], "--meta", outs[1], "--stats", outs[2]]
    p = run(full, expect_rc=2)
    # The EAL's one-line hugepage fallback note may precede errors found
    # once DPDK runs (a vdev that cannot be created).
    lines = [l for l in p.stderr.splitlines()
             if l.strip() and "no free hugepages" not in l]
    assert len(lines) == 1, f"expected one error line, got: {p.stderr!r}"
    for w in words:
        assert w in lines[0], f"{w!r} not in {lines[0]!r}"
    left = [n for n in os.listdir(tmp)]
    assert not left, f"files left behind: {left}"


def case_bad_missing(tmp):
    bad(tmp, ["-i", "/nonexistent/x.pcap"], ["/nonexistent/x.pcap", "No such file"])


def case_bad_not_pcap(tmp):
    other = tempfile.NamedTemporaryFile(suffix=".pcap", delete=False)
    other.write(b"this is not a capture at all\n" * 4)
    other.close()
    try:
        bad(tmp, ["-i", other.name], [other.name, "format"])
    finally:
        os.unlink(other.name)


def case_bad_truncated(tmp):
    data = open(DEMO, "rb").read()
    cut = tempfile.NamedTemporaryFile(suffix=".pcap", delete=False)
    cut.write(data[:24 + 16 + 1514 + 16 + 100])  # second record cut short
    cut.close()
    try:
        bad(tmp, ["-i", cut.name], [cut.name, "truncated"])
    finally:
        os.unlink(cut.name)


def ts_pcap(records, frame):
    """A little-endian microsecond pcap whose records carry the raw
    (ts_sec, ts_usec) fields given, each with the same frame."""
    import struct
    b = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    for sec, usec in records:
        b += struct.pack("<IIII", sec, usec, len(frame), len(frame)) + frame
    f = tempfile.NamedTemporaryFile(suffix=".pcap", delete=False)
    f.write(b)
    f.close()
    return f.name


def case_bad_timestamp(tmp):
    """A record libpcap reads as before 1970 (ts_sec = ts_usec = 0xFFFFFFFF,
    -1 s and -1 us as signed 32-bit fields) is refused, naming the record."""
    path = ts_pcap([(5, 0), (0xFFFFFFFF, 0xFFFFFFFF)], bytes(60))
    try:
        bad(tmp, ["-i", path], [path, "record 2", "invalid timestamp", "-1 s"])
    finally:
        os.unlink(path)


def case_timestamp_carry(tmp):
    """ts_usec >= 10^6 (read by libpcap and tcpdump as it is): its whole
    seconds carry into ts_sec, so the output records are valid."""
    import struct
    frame = bytes.fromhex("020000000002020000000001" "0800") + bytes(46)
    path = ts_pcap([(1, 2500000), (7, 999999), (0x7FFFFFFF - 4, 4999999)], frame)
    out = os.path.join(tmp, "out.pcap")
    try:
        run(["-i", path, "--write", "pass=" + out] + IDENTITY)
    finally:
        os.unlink(path)
    data = open(out, "rb").read()
    got = [struct.unpack_from("<II", data, 24 + i * (16 + len(frame))) for i in range(3)]
    assert got == [(3, 500000), (7, 999999), (0x7FFFFFFF, 999999)], got
    assert len(data) == 24 + 3 * (16 + len(frame)), len(data)
    # One second more than the last libpcap reads back: refused.
    path = ts_pcap([(0x7FFFFFFF - 4, 5000000)], frame)
    os.unlink(out)
    try:
        bad(tmp, ["-i", path], [path, "record 1", "invalid timestamp"])
    finally:
        os.unlink(path)


def case_bad_option(tmp):
    bad(tmp, ["-i", DEMO, "--frobnicate"], ["--frobnicate"])


def case_bad_number(tmp):
    bad(tmp, ["-i", DEMO, "--burst", "12x"], ["--burst", "12x"])
    bad(tmp, ["-i", DEMO, "--loops", "0"], ["--loops", "'0'"])
    # The pipeline takes at most TP_PIPELINE_MAX_BURST (256) frames a call.
    bad(tmp, ["-i", DEMO, "--burst", "257"], ["--burst", "'257'", "256"])


def case_bad_write(tmp):
    bad(tmp, ["-i", DEMO, "--write", "sideways=x.pcap"], ["sideways"])


def case_bad_outputs(tmp):
    """An output that cannot be written is found before the run."""
    for opt in ("--stats", "--json", "--meta"):
        p = run(["-i", DEMO, "--write", "pass=" + os.path.join(tmp, "o.pcap"),
                 opt, "/nonexistent/dir/x"], expect_rc=2)
        lines = [l for l in p.stderr.splitlines()
                 if l.strip() and "no free hugepages" not in l]
        assert len(lines) == 1 and "/nonexistent/dir/x" in lines[0], p.stderr
        assert not os.listdir(tmp), os.listdir(tmp)


def case_bad_no_input(tmp):
    bad(tmp, [], ["-i"])


def case_vlan_tpid(tmp):
    """--vlan-tpid: a 0x9100 tag is stripped only when 0x9100 is in the set;
    the default set (8100, 88a8) leaves it in the frame."""
    import struct
    plain = (bytes.fromhex("020000000002" "020000000001") + b"\x08\x00" +
             bytes.fromhex("4500001c0001000040110000c0000201c0000202") + bytes(8))
    tci = [0x2005, 0x0fff, 0x0001]
    tagged = [plain[:12] + struct.pack(">HH", 0x9100, t) + plain[12:] for t in tci]
    pin = os.path.join(os.path.dirname(tmp), "q.pcap")
    tpgen.write_pcap(pin, tagged)
    out, meta = os.path.join(tmp, "o.pcap"), os.path.join(tmp, "m.jsonl")
    for tpids, want, vlans in ((None, tagged, [[], [], []]),
                               ("8100,9100", [plain] * 3, [[t] for t in tci])):
        extra = ["--vlan-tpid", tpids] if tpids else []
        run(["-i", pin, "--gro", "off", "--write", "pass=" + out, "--meta", meta] + extra)
        assert tpgen.read_pcap(out)[1] == want, tpids
        assert [json.loads(l)["vlan"] for l in open(meta)] == vlans, tpids
        os.unlink(out)
        os.unlink(meta)


def case_bad_tagger(tmp):
    """Unknown tagger: the error lists the valid names."""
    bad(tmp, ["-i", DEMO, "--tagger", "nosuch"], ["--tagger", "'nosuch'", "edsa", "brcm-prepend"])
    # A tagger whose TX tag names the CPU port needs it only to insert a
    # tag: without it the run goes on (one note), every frame the verdict
    # sends is dropped as dsa_no_config and nothing is sent with a bad tag.
    for verdict in ("pass", "tx"):
        s = os.path.join(tmp, "cpu.json")
        p = run(["-i", DEMO, "--tagger", "ocelot", "--verdict", verdict, "--gro", "off",
                 "--stats", s, "-q"])
        notes = [l for l in p.stderr.splitlines() if l.startswith("tagpipe-replay:")]
        assert notes == ["tagpipe-replay: note: --tagger ocelot without --switch-cpu-port: "
                         "frames sent with a tag (tx, redirect to a port) are dropped "
                         "(dsa_no_config)"], notes
        st = json.load(open(s))
        os.unlink(s)
        sent = st["verdict_packets"]["tx"]
        # Every frame the verdict sent is a DSA insert drop (those whose
        # untagged garbage names a port out of range fail that check first).
        assert st["tx"] == 0, st
        assert sum(v for k, v in st["drop_reasons"].items() if k.startswith("dsa_")) == sent, st
        assert (st["drop_reasons"].get("dsa_no_config", 0) > 0) == (verdict == "tx"), st
        assert (sent > 0) == (verdict == "tx"), st
    bad(tmp, ["-i", DEMO, "--tagger", "ocelot", "--switch-cpu-port", "256"],
        ["--switch-cpu-port", "'256'"])


def case_bad_vlan(tmp):
    bad(tmp, ["-i", DEMO, "--vlan", "sideways"], ["--vlan", "'sideways'"])
    bad(tmp, ["-i", DEMO, "--vlan-tpid", "8100,zz"], ["--vlan-tpid", "'zz'"])
    bad(tmp, ["-i", DEMO, "--vlan-tpid", "05ff"], ["--vlan-tpid", "'05ff'"])
    bad(tmp, ["-i", DEMO, "--vlan-tpid", "8100,88a8,9100,9200,8100"], ["--vlan-tpid", "more than"])


def case_bad_gro(tmp):
    bad(tmp, ["-i", DEMO, "--gro", "sometimes"], ["--gro", "'sometimes'"])
    bad(tmp, ["-i", DEMO, "--gro", "age:0"], ["--gro", "'age:0'"])
    bad(tmp, ["-i", DEMO, "--gro", "age:"], ["--gro", "'age:'"])
    bad(tmp, ["-i", DEMO, "--gro-flows", "70000"], ["--gro-flows", "'70000'"])


def case_bad_verdict(tmp):
    """Unknown program (lists the built-ins); bad ACL file (names it)."""
    bad(tmp, ["-i", DEMO, "--verdict", "nosuch"], ["--verdict", "'nosuch'", "by-switch-port", "acl"])
    bad(tmp, ["-i", DEMO, "--verdict", "acl:/nonexistent/rules.acl"], ["/nonexistent/rules.acl"])
    rules = os.path.join(os.path.dirname(tmp), "bad.acl")
    with open(rules, "w") as f:
        f.write("# one good rule, then a bad one\ndrop tcp any any any 80\ndrop tcp any any any 99999\n")
    bad(tmp, ["-i", DEMO, "--verdict", "acl:" + rules], ["bad.acl", "3", "99999"])


def case_bad_redirect(tmp):
    bad(tmp, ["-i", DEMO, "--redirect", "1=port:99"], ["--redirect", "'port:99'"])
    bad(tmp, ["-i", DEMO, "--redirect", "x=port:1"], ["--redirect", "'x=port:1'"])
    bad(tmp, ["-i", DEMO, "--redirect", "1=queue:2"], ["--redirect", "no port"])
    bad(tmp, ["-i", DEMO, "--redirect", "1=port:1,color:red"], ["--redirect", "'color:red'"])


def case_bad_compare(tmp):
    bad(tmp, ["-i", DEMO, "--compare", "kernel"], ["--compare", "'kernel'"])
    p = run(["-i", DEMO, "--json", "-", "--stats", "-"], expect_rc=2)
    assert "stdout" in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr


def case_bad_via_port(tmp):
    """A vdev DPDK cannot create: exit 2 after the EAL, nothing written."""
    bad(tmp, ["-i", DEMO, "--via-port", "net_nosuch0"], ["--via-port", "net_nosuch0"])


def tcp_streams(frames):
    """Per TCP flow (addresses, ports): the payload bytes in order, and
    per flow the count of frames/packets that carried them."""
    from scapy.all import IP, IPv6, TCP, Ether
    streams = {}
    for fr in frames:
        pkt = Ether(fr)
        l3 = pkt.getlayer(IP) or pkt.getlayer(IPv6)
        if l3 is None or TCP not in pkt:
            streams.setdefault("non-tcp", []).append(fr)
            continue
        tcp = pkt[TCP]
        if IP in pkt:
            plen = pkt[IP].len - pkt[IP].ihl * 4 - tcp.dataofs * 4
        else:
            plen = pkt[IPv6].plen - tcp.dataofs * 4
        key = (l3.src, l3.dst, tcp.sport, tcp.dport)
        streams.setdefault(key, []).append(bytes(tcp.payload)[:plen])
    return {k: (b"".join(v) if k != "non-tcp" else sorted(v)) for k, v in streams.items()}


def swap_macs(fr):
    return fr[6:12] + fr[0:6] + fr[12:]


def case_demo_gro(tmp):
    """Default stages: the demo's bulk TCP comes out merged, every flow's
    bytes intact and in order, gso_segs adding up to the frames in."""
    out = os.path.join(tmp, "out.pcap")
    meta = os.path.join(tmp, "m.jsonl")
    p = run(["-i", DEMO, "--write", "pass=" + out, "--meta", meta, "--stats", "-"])
    st = stats_from_stdout(p.stdout)
    _, want = tpgen.read_pcap(DEMO)
    _, got = tpgen.read_pcap(out)
    rows = [json.loads(l) for l in open(meta)]
    check_conservation(st)
    assert st["rx"] == len(want) and st["pass"] == len(want), st
    assert st["gro"]["in"] == len(want) and st["gro"]["out"] == len(got), st
    assert len(got) < len(want) // 4, f"{len(got)} packets out of {len(want)} frames"
    assert len(rows) == len(got)
    assert sum(r["gso_segs"] for r in rows) == len(want), "gso_segs do not add up"
    for r, fr in zip(rows, got):
        assert r["len"] == len(fr), r
        if r["gso_segs"] > 1:
            assert r["gso_size"] == 1448, r  # the demo's MSS (gen_demo.py)
        else:
            assert r["gso_size"] == 0, r
    assert tcp_streams(got) == tcp_streams(want), "TCP payload differs after GRO"


def case_verdict_tx(tmp):
    """tx: every frame leaves on the ingress port with MACs swapped, merged
    packets re-segmented into exactly the frames that came in."""
    out = os.path.join(tmp, "tx.pcap")
    meta = os.path.join(tmp, "m.jsonl")
    p = run(["-i", DEMO, "--verdict", "tx", "--write", "tx=" + out, "--meta", meta,
             "--stats", "-"])
    st = stats_from_stdout(p.stdout)
    check_conservation(st)
    _, want = tpgen.read_pcap(DEMO)
    _, got = tpgen.read_pcap(out)
    assert st["tx"] == len(want), st
    assert sorted(got) == sorted(swap_macs(f) for f in want), "TX frames differ"
    rows = [json.loads(l) for l in open(meta)]
    assert len(rows) == len(got)
    assert all(r["verdict"] == "tx" and r["out_port"] == 0 and r["gso_segs"] == 1
               for r in rows), rows[:3]


def case_verdict_drop(tmp):
    """drop: everything freed and counted as verdict_drop."""
    out = os.path.join(tmp, "drop.pcap")
    p = run(["-i", DEMO, "--verdict", "drop", "--write", "drop=" + out, "--stats", "-"]
            + IDENTITY)
    st = stats_from_stdout(p.stdout)
    check_conservation(st)
    _, want = tpgen.read_pcap(DEMO)
    _, got = tpgen.read_pcap(out)
    assert st["drop"] == len(want) and st["drop_reasons"] == {"verdict_drop": len(want)}, st
    assert got == want


def case_redirect(tmp):
    """redirect:N through map entry N: every frame leaves on its port/queue."""
    out = os.path.join(tmp, "r.pcap")
    meta = os.path.join(tmp, "m.jsonl")
    p = run(["-i", DEMO, "--verdict", "redirect:5", "--redirect", "5=port:3,queue:2",
             "--write", "redirect=" + out, "--meta", meta, "--stats", "-"])
    st = stats_from_stdout(p.stdout)
    check_conservation(st)
    _, want = tpgen.read_pcap(DEMO)
    _, got = tpgen.read_pcap(out)
    assert st["redirect"] == len(want), st
    assert sorted(got) == sorted(want)
    rows = [json.loads(l) for l in open(meta)]
    assert all(r["verdict"] == "redirect" and r["out_port"] == 3 and r["out_queue"] == 2
               for r in rows)
    # An entry that is not in the map: counted drops, named.
    p = run(["-i", DEMO, "--verdict", "redirect:6", "--redirect", "5=port:3", "--stats", "-"]
            + IDENTITY)
    st = stats_from_stdout(p.stdout)
    check_conservation(st)
    assert st["drop_reasons"] == {"redirect_no_target": len(want)}, st


def case_via_port(tmp):
    """--via-port net_ring0: frames go out and back through an ethdev first."""
    out = os.path.join(tmp, "out.pcap")
    p = run(["-i", DEMO, "--via-port", "net_ring0", "--write", "pass=" + out,
             "--stats", "-"] + IDENTITY)
    _, want = tpgen.read_pcap(DEMO)
    _, got = tpgen.read_pcap(out)
    assert got == want
    st = stats_from_stdout(p.stdout)
    check_conservation(st)
    assert "through port net_ring0" in p.stderr, p.stderr


def case_via_port_aqc(tmp):
    """--via-port through the AQC chip model on a loopback wire: the real
    driver's TX and RX descriptors carry every frame (in promiscuous mode,
    as the capture's frames are for other MACs) back unchanged."""
    out = os.path.join(tmp, "out.pcap")
    p = run(["-i", DEMO, "--via-port", "net_aqc_sim0,wire=loop", "--write", "pass=" + out,
             "--stats", "-"] + IDENTITY)
    _, want = tpgen.read_pcap(DEMO)
    _, got = tpgen.read_pcap(out)
    assert got == want, f"{len(got)} of {len(want)} frames came back, or bytes differ"
    st = stats_from_stdout(p.stdout)
    check_conservation(st)
    assert "0 frames lost in the port" in p.stderr, p.stderr


def dpdk_kinds(frames):
    """What DPDK 22.11's librte_gro can do with each (untagged) frame, by our
    own parse of the bytes: tcp4 it merges, everything else it passes. Also
    the TCP/IPv4 flows (addresses and ports)."""
    kinds, flows = {}, set()
    for f in frames:
        et, off = int.from_bytes(f[12:14], "big"), 14
        while et in (0x8100, 0x88A8):
            et, off = int.from_bytes(f[off + 2:off + 4], "big"), off + 4
        if et == 0x0800:
            proto, l4 = f[off + 9], off + (f[off] & 0x0F) * 4
            k = {6: "tcp4", 17: "udp4"}.get(proto, "other_ip4")
            if k == "tcp4":
                flows.add((f[off + 12:off + 20], f[l4:l4 + 4]))
        elif et == 0x86DD:
            k = {6: "tcp6", 17: "udp6"}.get(f[off + 6], "other_ip6")
        else:
            k = "not_ip"
        kinds[k] = kinds.get(k, 0) + 1
    return kinds, len(flows)


def check_compare_doc(doc, frames, loops, merged_per_loop=None):
    """The --json figures of a --compare run: exact counts on both sides."""
    tp, dp = doc["tagpipe"], doc["dpdk_gro"]
    n = len(frames)
    kinds, flows = dpdk_kinds(frames)
    assert tp["packets"] == loops * n and dp["frames"] == loops * n, doc
    assert tp["gro"]["in"] == loops * n and dp["gro"]["in"] == loops * n, doc
    tcp4 = kinds.pop("tcp4", 0)
    assert dp["mergeable"] == {"tcp4": tcp4}, dp
    # The like-for-like row: both engines alone on the TCP/IPv4 frames.
    alone = dp["gro_alone_tcp4"]
    assert alone["frames"] == tcp4, alone
    for e in ("tagpipe", "dpdk"):
        s = alone[e]["cycles_per_packet"]
        assert s["loops"] == loops and 0 < s["min"] <= s["median"] <= s["max"], alone
        assert 0 < alone[e]["packets_out"] < tcp4, alone
    if merged_per_loop is not None:
        assert alone["tagpipe"]["packets_out"] == alone["dpdk"]["packets_out"] == \
            merged_per_loop, alone
    assert dp["cannot_merge"] == kinds, (dp["cannot_merge"], kinds)
    assert dp["config"] == {"mode": "context", "flows": flows, "max_flow_num": max(2 * flows, 2),
                            "max_item_per_flow": 4, "flush_timeout_us": 0,
                            "untag": "tagpipe", "checksums": "none"}, dp["config"]
    assert dp["cpu_only"] is True, dp
    for e in (tp, dp):
        assert 0 < e["gro"]["out"] < e["gro"]["in"], e
        assert sum(e["gro"]["hist"].values()) == e["gro"]["out"], e
        assert e["cycles_per_packet"] > 0 and e["mpps"] > 0, e
        assert e["best_loop"]["frames"] == n, e
        assert 0 < e["best_loop"]["cycles_per_packet"], e
        for s in e["per_loop"].values():
            assert s["loops"] == loops and s["min"] <= s["median"] <= s["max"], e
    if merged_per_loop is not None:
        assert tp["gro"]["out"] == dp["gro"]["out"] == loops * merged_per_loop, doc
    assert set(tp["stage_cycles_per_packet"]) == {"dsa", "vlan", "gro", "verdict", "actions"}, tp
    assert tp["verdicts"]["pass"] == loops * n and tp["mbufs_in_use_end"] == 0, tp
    assert tp["verdict_packets"]["pass"] == tp["gro"]["out"], tp
    assert set(tp["best_loop"]["stage_cycles_per_packet"]) == set(tp["stage_cycles_per_packet"])


def case_compare(tmp):
    """--compare dpdk-gro --json on the demo: both engines on the same frames,
    what librte_gro cannot merge counted by type, its table sized for the
    input's flows, checksums trusted on both sides by default."""
    js = os.path.join(tmp, "b.json")
    p = run(["-i", DEMO, "--loops", "2", "--compare", "dpdk-gro", "--json", js])
    doc = json.load(open(js))
    _, want = tpgen.read_pcap(DEMO)
    check_compare_doc(doc, want, 2)
    assert doc["config"]["gro_csum"] == "trust", doc["config"]
    out = p.stdout
    for s in ("after tagpipe's untag stages", "max_item_per_flow 4", "csum: same",
              "CPU only", "median [min-max] of the loops", "RTE_GRO_TCP_IPV6",
              "dpdk: untag+parse+gro", "gro, tcp4 only", "like with like"):
        assert s in out, (s, out)
    line = next(l for l in out.splitlines() if "cannot merge" in l)
    kinds, _ = dpdk_kinds(want)
    for k, v in kinds.items():
        if k != "tcp4":
            assert f" {v} {k}" in line, (k, v, line)
    print(out)


def case_compare_csum(tmp):
    """--gro-csum verify with --compare: the policies differ and the row says so."""
    js = os.path.join(tmp, "b.json")
    p = run(["-i", DEMO, "--compare", "dpdk-gro", "--gro-csum", "verify", "--json", js])
    doc = json.load(open(js))
    assert doc["config"]["gro_csum"] == "verify", doc["config"]
    row = next(l for l in p.stdout.splitlines() if l.lstrip().startswith("gro "))
    assert "csum DIFFERS" in row, row
    # Without --compare the default stays verify.
    js2 = os.path.join(tmp, "c.json")
    run(["-i", DEMO, "--json", js2])
    assert json.load(open(js2))["config"]["gro_csum"] == "verify"


def case_compare_tagged(tmp):
    """edsa-tagged input: librte_gro gets the frames after tagpipe's untag
    stages, so it merges what tagpipe merges (4 flows of 4 segments)."""
    src = os.path.join(SRC, "pcaps", "pipeline", "edsa_4ports.pcap")
    if not os.path.exists(src):
        sys.exit(77)
    js = os.path.join(tmp, "b.json")
    run(["-i", src, "--tagger", "edsa", "--loops", "3", "--compare", "dpdk-gro", "--json", js])
    doc = json.load(open(js))
    _, frames = tpgen.read_pcap(src)
    # Drop the 8-byte edsa tag after the source MAC for our own parse.
    bare = [f[:12] + f[20:] for f in frames]
    check_compare_doc(doc, bare, 3, merged_per_loop=4)


if __name__ == "__main__":
    cases.main(globals())
