#!/usr/bin/python3
"""tagpipe-replay --workers N: the RSS split and the per-lcore pipelines.

usage: replay_workers.py REPLAY_BINARY CASE

The expected split is computed here, independently of the C code: a Toeplitz
hash written from its definition (checked first against the Microsoft RSS
verification vectors), over the addresses and TCP/UDP ports a NIC hashes,
then queue = (hash % 128) % N. Each worker must have replayed exactly its
share: its counters equal a plain single-lcore run (no --workers) over that
share written as a pcap. The workers' sums equal a --workers 1 run and a
plain run of the whole input for what does not depend on how frames meet
in bursts (frames, bytes, verdicts per frame, frames into GRO, drops);
merges do depend on it (a worker's burst holds only its share's flows),
which is why GRO output is compared share by share. Every mbuf returns to
the pool.
"""
import functools
import json
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gen"))
import tpgen  # noqa: E402

SRC = os.environ.get("TP_SOURCE_ROOT", os.path.join(HERE, "..", ".."))
DEMO = os.path.join(SRC, "pcaps", "demo.pcap")
GEN_FLOWS = os.path.join(SRC, "tests", "bench", "gen_flows.py")
sys.path.insert(0, HERE)
import cases  # noqa: E402

REPLAY = sys.argv[1]

# Microsoft's RSS key, and its verification vectors ("Verifying the RSS
# Hash Calculation"; Intel 82599 datasheet 7.1.2.8.3): (src, sport, dst,
# dport, 2-tuple hash, 4-tuple hash).
KEY = bytes.fromhex("6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c"
                    "6a42b73bbeac01fa")
VECTORS = [
    ("66.9.149.187", 2794, "161.142.100.80", 1766, 0x323e8fc2, 0x51ccc178),
    ("199.92.111.2", 14230, "65.69.140.83", 4739, 0xd718262a, 0xc626b0ea),
    ("153.39.163.191", 44251, "202.188.127.2", 1303, 0x5d1809c5, 0x10e828a2),
    ("3ffe:2501:200:1fff::7", 2794, "3ffe:2501:200:3::1", 1766, 0x2cc18cd5, 0x40207d3d),
    ("3ffe:501:8::260:97ff:fe40:efab", 14230, "ff02::1", 4739, 0x0f0c461c, 0xdde51bbf),
]


def toeplitz(data):
    """For every set bit of the input, left to right, XOR in the 32 key bits
    starting at that bit's position."""
    k = int.from_bytes(KEY, "big")
    kbits = len(KEY) * 8
    h = 0
    for i in range(len(data) * 8):
        if data[i // 8] >> (7 - i % 8) & 1:
            h ^= (k >> (kbits - 32 - i)) & 0xFFFFFFFF
    return h


def addr(a):
    import ipaddress
    return ipaddress.ip_address(a).packed


def check_vectors():
    for src, sp, dst, dp, h2, h4 in VECTORS:
        two = addr(src) + addr(dst)
        assert toeplitz(two) == h2, (src, hex(toeplitz(two)))
        assert toeplitz(two + struct.pack("!HH", sp, dp)) == h4, src


def rss_input(f):
    """What a NIC hashes in frame f, or None (not hashed: queue 0)."""
    off = 12
    if len(f) < 14:
        return None
    et = struct.unpack("!H", f[12:14])[0]
    off = 14
    for _ in range(2):
        if et not in (0x8100, 0x88A8):
            break
        if len(f) < off + 4:
            return None
        et = struct.unpack("!H", f[off + 2:off + 4])[0]
        off += 4
    if et == 0x0800:
        if len(f) < off + 20 or f[off] >> 4 != 4:
            return None
        ihl = (f[off] & 15) * 4
        if ihl < 20 or len(f) < off + ihl:
            return None
        key = f[off + 12:off + 20]
        frag = struct.unpack("!H", f[off + 6:off + 8])[0] & 0x3FFF
        l4, proto = off + ihl, f[off + 9]
    elif et == 0x86DD:
        if len(f) < off + 40 or f[off] >> 4 != 6:
            return None
        key = f[off + 8:off + 40]
        frag, l4, proto = 0, off + 40, f[off + 6]
    else:
        return None
    if frag == 0 and proto in (6, 17) and len(f) >= l4 + 4:
        key += f[l4:l4 + 4]
    return key


def share_of(f, n):
    k = rss_input(f)
    return 0 if k is None else (toeplitz(k) % 128) % n


def split(frames, n):
    shares = [[] for _ in range(n)]
    for f in frames:
        shares[share_of(f, n)].append(f)
    return shares


_runs = [0]


def eal(lcores=("-l", "0-1")):
    _runs[0] += 1
    return ["--no-huge", "--no-shconf", "-m", "512", *lcores, "--no-pci", "--no-telemetry",
            "--log-level=lib.eal:error",
            "--file-prefix=tp_workers_scale_%d_%d" % (os.getpid(), _runs[0]), "--"]


# run(args, expect_rc=0, cwd=None): tagpipe-replay, exit status checked
run = functools.partial(cases.run_tool, REPLAY)


def replay_json(args, lcores=("-l", "0-1")):
    return json.loads(run(eal(lcores) + args + ["--json", "-", "-q"]).stdout)


def figures(tp):
    """A plain run's counters, in the per-worker entries' terms."""
    return {"frames": tp["packets"], "bytes": tp["bytes"],
            "gro": {"in": tp["gro"]["in"], "out": tp["gro"]["out"], "hist": tp["gro"]["hist"]},
            "verdicts": tp["verdicts"], "verdict_packets": tp["verdict_packets"],
            "drop_reasons": tp["drop_reasons"]}


def worker_figures(w):
    return {k: w[k] for k in ("frames", "bytes", "gro", "verdicts", "verdict_packets",
                              "drop_reasons")}


# What the split cannot change: per input frame.
PER_FRAME = ("packets", "bytes", "verdicts", "drop_reasons")


def check_workers(tmp, pcap, n, opts, lcores=("-l", "0-1"), loops=1):
    """--workers n on pcap: each worker equals a plain run of its share;
    the sums equal --workers 1 and a plain run for the per-frame counters."""
    _, frames = tpgen.read_pcap(pcap)
    opts = opts + ["--loops", str(loops)]
    shares = split(frames, n)
    got = replay_json(["-i", pcap, "--workers", str(n)] + opts, lcores)
    ws = got["workers"]
    assert ws["n"] == n and len(ws["workers"]) == n, ws
    for i, share in enumerate(shares):
        w = ws["workers"][i]
        assert w["frames"] == loops * len(share), (i, w["frames"], len(share))
        assert w["bytes"] == loops * sum(len(f) for f in share), i
        assert w["held_in_gro"] == 0, w
        if not share:
            assert w["gro"]["in"] == 0 and w["verdicts"]["pass"] == 0, w
            continue
        sp = os.path.join(tmp, "share%d.pcap" % i)
        tpgen.write_pcap(sp, share)
        alone = replay_json(["-i", sp] + opts)
        assert alone["workers"] is None
        want = figures(alone["tagpipe"])
        assert worker_figures(w) == want, f"worker {i}:\n{worker_figures(w)}\n!= {want}"
    tp = got["tagpipe"]
    assert tp["mbufs_in_use_end"] == 0, tp
    # the sums
    assert tp["packets"] == sum(w["frames"] for w in ws["workers"]) == loops * len(frames)
    assert ws["frames"] == loops * len(frames)
    for k in ("in", "out"):
        assert tp["gro"][k] == sum(w["gro"][k] for w in ws["workers"]), k
    one = replay_json(["-i", pcap, "--workers", "1"] + opts)
    plain = replay_json(["-i", pcap] + opts)
    assert one["workers"]["n"] == 1
    assert one["workers"]["workers"][0]["frames"] == loops * len(frames)
    assert one["tagpipe"]["mbufs_in_use_end"] == 0 and plain["tagpipe"]["mbufs_in_use_end"] == 0
    for k in PER_FRAME:
        assert tp[k] == one["tagpipe"][k] == plain["tagpipe"][k], \
            (k, tp[k], one["tagpipe"][k], plain["tagpipe"][k])
    assert tp["gro"]["in"] == one["tagpipe"]["gro"]["in"] == plain["tagpipe"]["gro"]["in"]
    # --workers 1 is the plain replay on one share: merges too
    assert one["tagpipe"]["gro"] == plain["tagpipe"]["gro"], (one["tagpipe"]["gro"],
                                                            plain["tagpipe"]["gro"])
    assert one["tagpipe"]["verdict_packets"] == plain["tagpipe"]["verdict_packets"]
    return got, one, shares


def mixed_frames():
    """One of each kind a NIC hashes differently, several flows each."""
    from scapy.all import ARP, IP, IPv6, TCP, UDP, ICMP, Dot1Q, Dot1AD, Ether, Raw, conf
    conf.verb = 0
    eth = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")
    kinds = []
    for i in range(6):
        kinds.append(eth / IP(src="10.0.%d.1" % i, dst="10.9.9.9") / TCP(sport=1000 + i, dport=80))
        kinds.append(eth / IP(src="10.1.%d.1" % i, dst="10.9.9.9") / UDP(sport=2000 + i, dport=53))
        kinds.append(eth / IPv6(src="2001:db8::%x" % (i + 1), dst="2001:db8:1::1") /
                     TCP(sport=3000 + i, dport=443))
        kinds.append(eth / IPv6(src="2001:db8::%x" % (i + 1), dst="2001:db8:1::1") /
                     UDP(sport=4000 + i, dport=4789))
    for i in range(3):
        kinds.append(eth / IP(src="10.2.%d.1" % i, dst="10.9.9.9") / ICMP())
        # fragments, the first (MF) and a later one (offset): addresses only
        kinds.append(eth / IP(src="10.3.%d.1" % i, dst="10.9.9.9", flags="MF") /
                     UDP(sport=5000 + i, dport=53))
        kinds.append(eth / IP(src="10.3.%d.1" % i, dst="10.9.9.9", frag=3, proto=17) /
                     Raw(b"x" * 8))
        kinds.append(eth / Dot1Q(vlan=10 + i) / IP(src="10.4.%d.1" % i, dst="10.9.9.9") /
                     TCP(sport=6000 + i, dport=80))
        kinds.append(eth / Dot1AD(vlan=20) / Dot1Q(vlan=30 + i) /
                     IP(src="10.5.%d.1" % i, dst="10.9.9.9") / TCP(sport=7000 + i, dport=80))
    kinds.append(eth / ARP(psrc="10.0.0.1", pdst="10.0.0.2"))
    kinds.append(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02", type=0x88B5) /
                 Raw(b"local experimental"))
    return [bytes(k) for k in kinds]


def case_rss_split(tmp):
    """Mixed traffic, 2 and 3 workers: which frame goes where, exactly.
    The frames go in groups of 8; frame j of a group is padded (Ethernet
    padding, not hashed) to BASE + 2^j bytes, so a worker's byte count
    less BASE per frame is the bit mask of the group's frames it got."""
    base, frames = 130, mixed_frames()
    assert max(len(f) for f in frames) <= base
    assert sum(rss_input(f) is None for f in frames) == 2   # ARP, 0x88b5
    opts = ["--gro", "off", "--vlan", "keep"]
    for n, lcores in ((2, ("-l", "0-1")), (3, ("--lcores", "0@0,1@1,2@0"))):
        used = [0] * n
        for g in range(0, len(frames), 8):
            group = [f + bytes(base + (1 << j) - len(f)) for j, f in enumerate(frames[g:g + 8])]
            pcap = os.path.join(tmp, "mixed.pcap")
            tpgen.write_pcap(pcap, group)
            got = replay_json(["-i", pcap, "--workers", str(n)] + opts, lcores)
            assert got["tagpipe"]["mbufs_in_use_end"] == 0
            for i in range(n):
                w = got["workers"]["workers"][i]
                want = sum(1 << j for j, f in enumerate(group) if share_of(f, n) == i)
                mask = w["bytes"] - base * w["frames"]
                assert mask == want and w["frames"] == bin(want).count("1"), \
                    (n, g, i, bin(mask), bin(want))
                assert w["verdicts"]["pass"] == w["frames"], w
                used[i] += w["frames"]
        assert all(used), (n, used)   # every worker got frames


def gen_flows(tmp, flows, frames, v6_share=0):
    pcap = os.path.join(tmp, "flows%d.pcap" % flows)
    subprocess.run(["/usr/bin/python3", GEN_FLOWS, pcap, str(flows), str(frames),
                    "--v6-share", str(v6_share)], check=True, timeout=300)
    return pcap


def case_demo(tmp):
    """pcaps/demo.pcap, default stages (GRO within bursts)."""
    got, one, shares = check_workers(tmp, DEMO, 2, [], loops=2)
    assert all(shares), [len(s) for s in shares]


def case_flows32(tmp):
    """32 bulk TCP flows (a quarter IPv6), GRO within bursts and GRO off."""
    pcap = gen_flows(tmp, 32, 2048, v6_share=25)
    got, one, shares = check_workers(tmp, pcap, 2, ["--gro", "burst"])
    assert all(shares), [len(s) for s in shares]
    # A worker's bursts hold only its share's flows: they merge more than
    # the single lcore's bursts of all 32 interleaved flows.
    assert got["tagpipe"]["gro"]["out"] < one["tagpipe"]["gro"]["out"], \
        (got["tagpipe"]["gro"], one["tagpipe"]["gro"])
    got, one, _ = check_workers(tmp, pcap, 2, ["--gro", "off"])
    # without merges every counter is per frame
    assert got["tagpipe"]["verdict_packets"] == one["tagpipe"]["verdict_packets"]
    assert got["tagpipe"]["gro"]["out"] == one["tagpipe"]["gro"]["out"]
    # Age mode (the benchmark's): what merges depends on the TSC, so only
    # the per-frame counters are exact; nothing is left held or in use.
    age = ["-i", pcap, "--gro", "age:1000", "--loops", "3"]
    got = replay_json(age + ["--workers", "2"])
    one = replay_json(age + ["--workers", "1"])
    for k in PER_FRAME:
        assert got["tagpipe"][k] == one["tagpipe"][k], (k, got["tagpipe"][k], one["tagpipe"][k])
    assert got["tagpipe"]["packets"] == 3 * 2048
    assert got["tagpipe"]["mbufs_in_use_end"] == one["tagpipe"]["mbufs_in_use_end"] == 0
    assert all(w["held_in_gro"] == 0 for w in got["workers"]["workers"])


def case_bad_workers(tmp):
    """A bad --workers is one line naming the value, exit 2."""
    def bad(args, words):
        p = run(args, expect_rc=2)
        lines = [l for l in p.stderr.splitlines()
                 if l.strip() and "no free hugepages" not in l]
        assert len(lines) == 1, f"expected one error line, got: {p.stderr!r}"
        for w in words:
            assert w in lines[0], f"{w!r} not in {lines[0]!r}"
    bad(eal() + ["-i", DEMO, "--workers", "3"], ["--workers 3", "2 lcores", "-l 0-2"])
    bad(eal(("-l", "0")) + ["-i", DEMO, "--workers", "2"], ["--workers 2", "1 lcore"])
    for v in ("0", "129", "two", "-1", ""):
        bad(["-i", DEMO, "--workers", v], ["--workers", "'%s'" % v, "1..128"])
    ncpu = len(os.sched_getaffinity(0))
    bad(["-i", DEMO, "--workers", str(ncpu + 1)],
        ["--workers %d" % (ncpu + 1), "%d CPUs" % ncpu])
    out = os.path.join(tmp, "o.pcap")
    for extra, name in ((["--write", "pass=" + out], "--write"),
                        (["--meta", out], "--meta"),
                        (["--compare", "dpdk-gro"], "--compare"),
                        (["--via-port", "net_ring0"], "--via-port")):
        bad(["-i", DEMO, "--workers", "2"] + extra, ["--workers 2", name])
    assert not os.listdir(tmp), os.listdir(tmp)


def main():
    check_vectors()
    case = sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        globals()["case_" + case](tmp)
    print("ok", case)


if __name__ == "__main__":
    main()
