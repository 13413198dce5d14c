#!/usr/bin/python3
"""tagpipe-replay --verdict FILE.o[:SECTION]: an XDP object decides the
verdicts of a capture; exact counters and bytes.

usage: replay_bpf.py REPLAY_BINARY BPF_BUILD_DIR CASE
Frames and expected bytes: gen_bpf_frames.py (scapy). Verdicts of t_parse.o
by construction (tests/bpf/progs/t_parse.c): frame 0 DROP, 2 TX (MACs
swapped), 5 ABORTED (runt), the other five PASS.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "gen"))
import tpgen  # noqa: E402

REPLAY, BUILD, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
IN = os.path.join(BUILD, "in.pcap")


def run(args, expect_rc=0):
    p = subprocess.run([REPLAY] + args, capture_output=True, text=True, timeout=120)
    if p.returncode != expect_rc:
        sys.exit(f"exit {p.returncode}, expected {expect_rc}: {args}\n"
                 f"stdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p


def case_parse(tmp):
    tx = os.path.join(tmp, "tx.pcap")
    p = run(["-i", IN, "--gro", "off", "--vlan", "keep", "--verdict",
             os.path.join(BUILD, "t_parse.o:xdp"), "--write", "tx=" + tx,
             "--stats", "-"])
    st = json.loads(next(l for l in p.stdout.splitlines() if l.startswith("{")))
    got = (st["rx"], st["pass"], st["tx"], st["drop"], st["aborted"])
    assert got == (8, 5, 1, 1, 1), st
    _, want = tpgen.read_pcap(os.path.join(BUILD, "parse_out.pcap"))
    _, out = tpgen.read_pcap(tx)
    assert out == [want[2]], (out, want[2])


def stats_of(args):
    p = run(["-i", IN, "--gro", "off", "--vlan", "keep", "--stats", "-"] + args)
    st = json.loads(next(l for l in p.stdout.splitlines() if l.startswith("{")))
    return (st["rx"], st["pass"], st["tx"], st["drop"], st["aborted"])


def case_maps(tmp):
    """--bpf-map fills maps before the run: an LPM route 192.168.1.0/24 ->
    XDP_TX (key: prefixlen 24 as a little-endian u32, then the address in
    network order) sends frames 0-3 back; a PROG_ARRAY slot set by
    function name sends t_tail.o's non-IPv4 frames to tail_udp (TX; the
    10-byte runt has no Ethernet header: ABORTED); map-in-map slots."""
    lpm = os.path.join(BUILD, "t_maps.o:xdp_lpm")
    got = stats_of(["--verdict", lpm, "--bpf-map", "routes:18000000c0a80100=03000000"])
    assert got == (8, 4, 4, 0, 0), got
    tail = os.path.join(BUILD, "t_tail.o:xdp")
    got = stats_of(["--verdict", tail, "--bpf-map", "jmp:03000000=tail_udp"])
    assert got == (8, 0, 5, 2, 1), got
    p = run(["-i", IN, "--verdict", lpm, "--bpf-map", "routes:18000000c0a801=03000000"], 2)
    assert "key '18000000c0a801' is not 8 hex bytes" in p.stderr, p.stderr
    p = run(["-i", IN, "--verdict", tail, "--bpf-map", "jmp:03000000=nope"], 2)
    assert "no program 'nope' in the object" in p.stderr, p.stderr
    p = run(["-i", IN, "--bpf-map", "jmp:03000000=nope"], 2)
    assert "not an XDP object" in p.stderr, p.stderr
    # map-in-map (t_mim.o): outer slot 0 holds inner_a from the object, so
    # every frame of port 0 is TX; a slot set by inner map name must be of
    # the inner shape
    mim = os.path.join(BUILD, "t_mim.o")
    got = stats_of(["--verdict", mim, "--bpf-map", "outer_h:00000000=inner_b"])
    assert got == (8, 0, 8, 0, 0), got
    p = run(["-i", IN, "--verdict", mim, "--bpf-map", "outer:01000000=other"], 2)
    assert "map 'other' (type 2, key 4, value 4, max_entries 4) is not of map " \
        "'outer''s inner shape" in p.stderr, p.stderr


def case_routes(tmp):
    """--bpf-route fills the route table of bpf_fib_lookup (t_fib.o, a
    router): frames 0-2 go to 192.168.1.0/24 (REDIRECT to ifindex 3, key
    2, sent by port 0) with the gateway's MAC, the route's smac and TTL 63
    (checked byte for byte on frame 0); frame 3 is blackholed (DROP);
    IPv6, ARP, the runt and the VLAN frame PASS. Bad routes name the bad
    word; a route without an XDP object is refused."""
    fib = os.path.join(BUILD, "t_fib.o:xdp_fib")
    out = os.path.join(tmp, "redir.pcap")
    p = run(["-i", IN, "--gro", "off", "--vlan", "keep", "--verdict", fib,
             "--bpf-route", "192.168.1.0/24 via 10.1.0.1 dev 2 lladdr 02:00:00:00:00:99 "
             "smac 02:00:00:00:00:aa metric 7", "--bpf-route", "blackhole 192.168.1.7",
             "--redirect", "2=port:0", "--write", "redirect=" + out, "--stats", "-"])
    st = json.loads(next(l for l in p.stdout.splitlines() if l.startswith("{")))
    got = (st["rx"], st["pass"], st["redirect"], st["drop"], st["aborted"])
    assert got == (8, 4, 3, 1, 0), st
    _, want = tpgen.read_pcap(os.path.join(BUILD, "fib_out.pcap"))
    _, sent = tpgen.read_pcap(out)
    assert len(sent) == 3 and sent[0] == want[0] and sent[1] == want[1], sent
    p = run(["-i", IN, "--verdict", fib, "--bpf-route", "10.0.0.0/8 dev 1 colour red"], 2)
    assert "unknown word 'colour'" in p.stderr, p.stderr
    p = run(["-i", IN, "--verdict", fib, "--bpf-route", "10.0.0.0/8 via 10.0.0.1"], 2)
    assert "no 'dev PORT'" in p.stderr, p.stderr
    p = run(["-i", IN, "--bpf-route", "10.0.0.0/8 dev 1"], 2)
    assert "no XDP object" in p.stderr, p.stderr


def case_refused(tmp):
    p = run(["-i", IN, "--verdict", os.path.join(BUILD, "t_loop.o:xdp/forever")], 2)
    assert "infinite loop: no path from here reaches an exit" in p.stderr, p.stderr
    p = run(["-i", IN, "--verdict", os.path.join(tmp, "none.o")], 2)
    assert "none.o: No such file" in p.stderr, p.stderr


def case_unverified(tmp):
    """t_bad.o reads data[200] unchecked: the kernel verifier (where it can
    be asked) refuses it; --bpf-unverified runs it and tagpipe's run-time
    check aborts every frame (all shorter than 201 bytes)."""
    obj = os.path.join(BUILD, "t_bad.o:xdp")
    p = subprocess.run([REPLAY, "-i", IN, "--verdict", obj], capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        assert p.returncode == 2 and "the kernel verifier rejects it" in p.stderr, p.stderr
    p = run(["-i", IN, "--gro", "off", "--vlan", "keep", "--verdict", obj,
             "--bpf-unverified", "--stats", "-"])
    st = json.loads(next(l for l in p.stdout.splitlines() if l.startswith("{")))
    assert (st["rx"], st["aborted"]) == (8, 8), st


def case_kernel_frame(tmp):
    """An XDP object gets frames laid out as the kernel's (256 bytes of
    headroom, 3520 of frame): t_grow.o grows every frame to exactly 3520
    bytes (zeros, then 0xab as the last byte) and not to 3521. The stats
    say how the object runs, in tp_prog_bpf_exec_info's words."""
    obj = os.path.join(BUILD, "t_grow.o:xdp_grow")
    tx = os.path.join(tmp, "tx.pcap")
    args = ["-i", IN, "--gro", "off", "--vlan", "keep", "--verdict", obj,
            "--bpf-unverified", "--stats", "-"]
    p = run(args + ["--bpf-map", "cfg:00000000=c00d0000", "--write", "tx=" + tx])
    st = json.loads(next(l for l in p.stdout.splitlines() if l.startswith("{")))
    assert (st["rx"], st["tx"]) == (8, 8), st
    _, want = tpgen.read_pcap(IN)
    _, out = tpgen.read_pcap(tx)
    assert [len(f) for f in out] == [3520] * 8, [len(f) for f in out]
    for f, w in zip(out, want):
        assert f == w + bytes(3520 - len(w) - 1) + b"\xab", (f[:64], w)
    assert st["verdict"] == {
        "program": obj, "path": obj.rsplit(":", 1)[0], "section": "xdp",
        "function": "xdp_grow", "frags": False, "verified_by": "tagpipe",
        "execution": "jit", "checks": "checked",
        "reason": "kernel verifier not asked; every memory access is checked at "
                  "run time"}, st["verdict"]
    p = run(args + ["--bpf-map", "cfg:00000000=c10d0000"])
    st = json.loads(next(l for l in p.stdout.splitlines() if l.startswith("{")))
    assert (st["rx"], st["drop"]) == (8, 8), st
    p = run(["-i", IN, "--gro", "off", "--stats", "-"])
    st = json.loads(next(l for l in p.stdout.splitlines() if l.startswith("{")))
    assert st["verdict"] == {"program": "pass"}, st["verdict"]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        globals()["case_" + CASE](tmp)


if __name__ == "__main__":
    main()
