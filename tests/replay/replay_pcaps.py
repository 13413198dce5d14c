#!/usr/bin/python3
"""tagpipe-replay on the generated captures, against their expected outputs.

usage: replay_pcaps.py REPLAY_BINARY CASE

The inputs and expected outputs under pcaps/tags, pcaps/gro and
pcaps/pipeline are written by the scapy scripts in tests/gen from the wire
formats (their READMEs say how), never recorded from tagpipe. Every run also
checks conservation (rx = pass + tx + redirect + drop + aborted, nothing held
in GRO at the end), that drops add up to their reasons, and that every mbuf
went back to the pool. A case whose input files are absent is skipped (77).
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gen"))
import tpgen  # noqa: E402

SRC = os.environ.get("TP_SOURCE_ROOT",
                     os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PCAPS = os.path.join(SRC, "pcaps")
REPLAY = sys.argv[1]
SKIP = 77


class Run:
    """One tagpipe-replay run with its outputs read back."""

    def __init__(self, tmp, inputs, args, writes=("pass", "tx", "redirect", "drop")):
        self.paths = {v: os.path.join(tmp, v + ".pcap") for v in writes}
        meta = os.path.join(tmp, "meta.jsonl")
        stats = os.path.join(tmp, "stats.json")
        cmd = [REPLAY]
        for i in inputs:
            cmd += ["-i", i]
        for v, p in self.paths.items():
            cmd += ["--write", f"{v}={p}"]
        cmd += ["--meta", meta, "--stats", stats] + args
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            sys.exit(f"exit {p.returncode}: {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
        self.cmd = " ".join(cmd)
        self.out = {v: tpgen.read_pcap(p)[1] for v, p in self.paths.items()}
        with open(meta) as f:
            self.meta = [json.loads(l) for l in f]
        with open(stats) as f:
            self.st = json.load(f)
        check_conservation(self.st, self.cmd)
        for p in list(self.paths.values()) + [meta, stats]:
            os.unlink(p)

    def rows(self, verdict):
        return [r for r in self.meta if r["verdict"] == verdict]


def check_conservation(st, what):
    out = st["pass"] + st["tx"] + st["redirect"] + st["drop"] + st["aborted"]
    assert st["rx"] == out, f"{what}: rx {st['rx']} != {out}: {st}"
    assert st["held_in_gro"] == 0, f"{what}: {st}"
    assert st["drop"] == sum(st["drop_reasons"].values()), f"{what}: {st}"
    assert st["mbufs_in_use_end"] == 0, f"{what}: mbufs leaked: {st}"


def need(paths):
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        print(f"skipped: missing {missing}")
        sys.exit(SKIP)


def frames(path):
    return tpgen.read_pcap(path)[1]


def tag_names():
    names = sorted(os.path.basename(p)[:-len(".expected.jsonl")]
                   for p in glob.glob(os.path.join(PCAPS, "tags", "*.expected.jsonl")))
    need([os.path.join(PCAPS, "tags")] if names else ["pcaps/tags/*.expected.jsonl"])
    return names


# Taggers whose TX tag needs the switch's CPU port: the pipeline refuses
# them without it, even for RX (tp_dsa_tag.h). 11: the CPU port of an
# 11-port ocelot (ports 0..10 are the ones gen_tags.py uses).
CPU_PORT = {"ocelot": "11", "seville": "11", "mxl862xx": "11"}


def tagger_args(name):
    args = ["--tagger", name]
    if name in CPU_PORT:
        args += ["--switch-cpu-port", CPU_PORT[name]]
    return args


def expected_vlans(row, stripped):
    """--meta's vlan list (TCIs, outer first) for a gen_tags.py row."""
    if not stripped:
        return []
    return [row[k] for k in ("vlan_tci_outer", "vlan_tci") if row[k] is not None]


# ---- pcaps/tags ------------------------------------------------------------

def tags_case(tmp, strip):
    for name in tag_names():
        base = os.path.join(PCAPS, "tags", name)
        want = frames(base + (".expected-vlan-strip.pcap" if strip else ".expected.pcap"))
        with open(base + ".expected.jsonl") as f:
            rows = [json.loads(l) for l in f]
        for burst in ("1", "32"):
            r = Run(tmp, [base + ".pcap"], tagger_args(name) + ["--vlan",
                                           "strip" if strip else "keep",
                                           "--gro", "off", "--burst", burst])
            assert r.out["pass"] == want, f"{name}: frames differ ({r.cmd})"
            assert r.st["pass"] == len(want) and r.st["drop"] == 0, (name, r.st)
            assert len(r.meta) == len(rows), name
            for m, e in zip(r.meta, rows):
                got = (m["switch_port"], m["switch_device"], m["vlan"], m["len"])
                exp = (e["switch_port"], e["switch_device"], expected_vlans(e, strip),
                       len(want[e["index"]]))
                assert got == exp, f"{name} frame {e['index']}: {got} != {exp}"
        print(f"{name}: {len(want)} frames untagged, metadata ok")


def case_tags(tmp):
    """Every tagger's capture comes out untagged (VLAN tags kept in the
    frame) with switch port and device in the metadata."""
    tags_case(tmp, False)


def case_tags_vlan_strip(tmp):
    """The same with the VLAN stage stripping: TCIs in the metadata."""
    tags_case(tmp, True)


def case_tags_bad(tmp):
    """Bad-input captures: exactly the expected drop reasons and counts; the
    dropped frames are the ones named, unchanged."""
    files = sorted(glob.glob(os.path.join(PCAPS, "tags", "bad_*.json")))
    need(files or ["pcaps/tags/bad_*.json"])
    for js in files:
        with open(js) as f:
            exp = json.load(f)
        pcap = js[:-len(".json")] + ".pcap"
        inp = frames(pcap)
        vlan = "strip" if "vlan_drops" in exp else "keep"
        r = Run(tmp, [pcap], tagger_args(exp["tagger"]) + ["--vlan", vlan, "--gro", "off"])
        if "vlan_drops" in exp:
            want = {"vlan_" + k: v for k, v in exp["vlan_drops"].items()}
        else:
            want = {"dsa_" + k: v for k, v in exp["drops"].items()}
        assert r.st["drop_reasons"] == want, f"{js}: {r.st['drop_reasons']} != {want}"
        assert r.st["pass"] == exp["kept"] and r.st["rx"] == exp["frames"], (js, r.st)
        dropped = [f for i, f in enumerate(inp) if i not in exp["kept_index"]]
        assert r.out["drop"] == dropped, f"{js}: dropped frames differ"
        print(f"{os.path.basename(pcap)}: {want}")


# ---- external captures (tcpdump's test suite) -----------------------------

def tcpdump_dir():
    d = os.path.join(PCAPS, "tags", "tcpdump")
    if os.path.exists(os.path.join(d, "dsa.pcap")):
        return d
    print("skipped: no tcpdump captures in pcaps/tags/tcpdump")
    sys.exit(SKIP)


# Lines of tcpdump's expected output: frames the switch sent to the CPU name
# their source port; frames the CPU sent to the switch are what the kernel's
# rcv refuses (dsa/edsa FROM_CPU, brcm opcode 1: "bad_type").
RX_LINE = {
    "dsa": re.compile(r"DSA (?:0x[0-9a-f]+, )?Forward port (\d+)\.(\d+),"),
    "brcm": re.compile(r"BRCM tag OP: EG, .* port: (\d+),"),
}
TX_LINE = {
    "dsa": re.compile(r"DSA (?:0x[0-9a-f]+, )?CPU > port \d+\.\d+,"),
    "brcm": re.compile(r"BRCM tag OP: IG,"),
}


def tcpdump_facts(path, family):
    facts = []
    with open(path) as f:
        for line in f:
            m = RX_LINE[family].search(line)
            if m:
                dev, port = (int(m.group(1)), int(m.group(2))) if family == "dsa" \
                    else (0, int(m.group(1)))
                facts.append(("rx", dev, port))
            elif TX_LINE[family].search(line):
                facts.append(("tx", None, None))
            else:
                raise AssertionError(f"{path}: line not understood: {line}")
    return facts


def case_tcpdump(tmp):
    """tcpdump's DSA/EDSA/Broadcom captures decode to the ports tcpdump
    prints; the CPU-to-switch frames in them are dropped as the kernel does;
    the QinQ capture strips to the TCIs tcpdump prints."""
    d = tcpdump_dir()
    runs = [("dsa", "dsa", "dsa"), ("dsa-high-vid", "dsa", "dsa"), ("edsa", "edsa", "dsa"),
            ("edsa-high-vid", "edsa", "dsa"), ("brcm-tag", "brcm", "brcm"),
            ("brcm-tag-prepend", "brcm-prepend", "brcm")]
    for stem, tagger, family in runs:
        facts = tcpdump_facts(os.path.join(d, stem + ".out"), family)
        r = Run(tmp, [os.path.join(d, stem + ".pcap")],
                ["--tagger", tagger, "--vlan", "keep", "--gro", "off"])
        rx = [(dev, port) for k, dev, port in facts if k == "rx"]
        ntx = sum(1 for k, _, _ in facts if k == "tx")
        got = [(m["switch_device"], m["switch_port"]) for m in r.rows("pass")]
        assert got == rx, f"{stem}: ports {got} != tcpdump's {rx}"
        want_drops = {"dsa_bad_type": ntx} if ntx else {}
        assert r.st["drop_reasons"] == want_drops, (stem, r.st["drop_reasons"])
        print(f"{stem}: {len(rx)} to-CPU frames, ports {sorted(set(rx))}; {ntx} from-CPU dropped")
    # 802.1ad_QinQ.out: "vlan 200, p 0, ... vlan 2001, p 0" on both frames.
    qinq = os.path.join(d, "802.1ad_QinQ.out")
    tcis = []
    with open(qinq) as f:
        for line in f:
            v = [int(p) << 13 | int(vid) for vid, p in re.findall(r"vlan (\d+), p (\d+)", line)]
            tcis.append(v)
    r = Run(tmp, [os.path.join(d, "802.1ad_QinQ.pcap")], ["--vlan", "strip", "--gro", "off"])
    got = [m["vlan"] for m in r.rows("pass")]
    assert got == tcis, f"QinQ: {got} != tcpdump's {tcis}"
    print(f"802.1ad_QinQ: TCIs {got}")


# ---- pcaps/gro ---------------------------------------------------------------

def tcp_payload_len(fr):
    """TCP payload bytes of an Ethernet frame (after up to two VLAN tags), or
    None when it is not TCP."""
    off = 12
    while fr[off:off + 2] in (b"\x81\x00", b"\x88\xa8"):
        off += 4
    et = fr[off:off + 2]
    off += 2
    if et == b"\x08\x00":
        ihl = (fr[off] & 0xF) * 4
        if fr[off + 9] != 6:
            return None
        tot = int.from_bytes(fr[off + 2:off + 4], "big")
        l4 = off + ihl
        return tot - ihl - (fr[l4 + 12] >> 4) * 4
    if et == b"\x86\xdd":
        nh, plen, l4 = fr[off + 6], int.from_bytes(fr[off + 4:off + 6], "big"), off + 40
        while nh in (0, 43, 60):  # hop-by-hop, routing, destination options
            nh, l4 = fr[l4], l4 + (fr[l4 + 1] + 1) * 8
        if nh != 6:
            return None
        return plen - (l4 - off - 40) - (fr[l4 + 12] >> 4) * 4
    return None


def trim_l2_padding(fr):
    """The frame cut at the end of its IP datagram (untagged IPv4/IPv6)."""
    et = fr[12:14]
    if et == b"\x08\x00":
        return fr[:14 + int.from_bytes(fr[16:18], "big")]
    if et == b"\x86\xdd":
        return fr[:14 + 40 + int.from_bytes(fr[18:20], "big")]
    return fr


def gro_scenarios():
    ins = sorted(glob.glob(os.path.join(PCAPS, "gro", "*_in.pcap")))
    need(ins or ["pcaps/gro/*_in.pcap"])
    return ins


def case_gro(tmp):
    """Every GRO scenario: the packets out are exactly the expected merged
    frames. The expected outputs flush once at the end of the capture, so
    GRO runs in age mode with an age no replay reaches, across bursts."""
    for pin in gro_scenarios():
        want = frames(pin.replace("_in.pcap", "_out.pcap"))
        inp = frames(pin)
        for burst in ("1", "32", "256"):
            r = Run(tmp, [pin], ["--vlan", "keep", "--gro", "age:1000000",
                                 "--gro-flows", "1024", "--burst", burst])
            assert r.out["pass"] == want, \
                f"{os.path.basename(pin)} burst {burst}: {len(r.out['pass'])} packets, " \
                f"expected {len(want)}, or bytes differ ({r.cmd})"
            assert r.st["gro"] == {"in": len(inp), "out": len(want)}, r.st
            assert r.st["pass"] == len(inp), r.st
            check_gso_meta(r, len(inp), pin)
        print(f"{os.path.basename(pin)}: {len(inp)} frames -> {len(want)} packets")


def check_gso_meta(r, nin, what):
    """gso_segs of all packets add up to the frames in; a merged packet's
    gso_size divides its payload into gso_segs segments."""
    assert sum(m["gso_segs"] for m in r.meta) == nin, f"{what}: gso_segs do not add up"
    for m, fr in zip(r.meta, r.out["pass"]):
        if m["gso_segs"] == 1:
            assert m["gso_size"] == 0, (what, m)
            continue
        pay = tcp_payload_len(fr)
        assert pay is not None and m["gso_size"] > 0, (what, m)
        assert -(-pay // m["gso_size"]) == m["gso_segs"], (what, m, pay)
        assert pay > (m["gso_segs"] - 1) * m["gso_size"], (what, m, pay)


def case_gro_tx(tmp):
    """GRO then TX: egress re-segments every merged packet, so what leaves
    is the input frames (MACs swapped by the tx program), per flow in order.
    L2 padding of tiny frames is the one thing not restored (tp_gro.h)."""
    for pin in gro_scenarios():
        inp = frames(pin)
        vlan = "keep"
        if os.path.basename(pin).startswith("vlan"):
            # Stripped on RX, merged, re-segmented and the tags put back.
            vlan = "strip"
        r = Run(tmp, [pin], ["--vlan", vlan, "--gro", "burst", "--verdict", "tx"])
        assert r.st["tx"] == len(inp), r.st
        got = sorted(r.out["tx"])
        want = sorted(f[6:12] + f[0:6] + f[12:] for f in inp)
        if os.path.basename(pin).startswith("rules"):
            # Its padded 1-byte segments: compare up to the IP length.
            got = sorted(trim_l2_padding(f) for f in got)
            want = sorted(trim_l2_padding(f) for f in want)
        assert got == want, f"{os.path.basename(pin)}: re-segmented frames differ"
        assert all(m["gso_segs"] == 1 for m in r.meta)
        print(f"{os.path.basename(pin)}: {len(inp)} frames out again after merge")


# ---- pcaps/pipeline ----------------------------------------------------------

def case_pipeline_by_switch_port(tmp):
    """edsa from four switch ports, by-switch-port through a redirect map of
    four entries: each entry's queue gets its port's frames, re-tagged
    FROM_CPU for that port, for several burst sizes, GRO on and off."""
    d = os.path.join(PCAPS, "pipeline")
    inp = os.path.join(d, "edsa_4ports.pcap")
    exp = [os.path.join(d, f"edsa_4ports_redirect_{p}.pcap") for p in range(4)]
    need([inp] + exp)
    want = {p: frames(e) for p, e in enumerate(exp)}
    redirects = []
    for p in range(4):
        redirects += ["--redirect", f"{p}=port:0,queue:{p}"]
    for gro in ("off", "burst"):
        for burst in ("1", "4", "32"):
            r = Run(tmp, [inp], ["--tagger", "edsa", "--verdict", "by-switch-port",
                                 "--gro", gro, "--burst", burst] + redirects)
            assert r.st["redirect"] == 16 and r.st["drop"] == 0, r.st
            rows = r.rows("redirect")
            assert len(rows) == len(r.out["redirect"]) == 16
            got = {p: [] for p in range(4)}
            for m, fr in zip(rows, r.out["redirect"]):
                assert m["out_port"] == 0, m
                got[m["out_queue"]].append(fr)
            assert got == want, f"gro {gro} burst {burst}: redirected frames differ"
    # An entry may name the switch port to tag for (devmap-style): every
    # frame of entry p then leaves with FROM_CPU for port 7 - byte 17 of
    # the edsa frame is port << 3 (docs/ref/dsa-tags.md §4.4; README above).
    fixed = []
    for p in range(4):
        fixed += ["--redirect", f"{p}=port:0,queue:{p},switch_port:7"]
    r = Run(tmp, [inp], ["--tagger", "edsa", "--verdict", "by-switch-port"] + fixed)
    retag = {p: [f[:17] + bytes([7 << 3]) + f[18:] for f in want[p]] for p in range(4)}
    got = {p: [] for p in range(4)}
    for m, fr in zip(r.rows("redirect"), r.out["redirect"]):
        got[m["out_queue"]].append(fr)
    assert got == retag, "frames not re-tagged for the entry's switch port"
    print("edsa_4ports: 4 x 4 frames on their redirect entries, re-tagged")


def case_pipeline_tx(tmp):
    """edsa, tx, GRO off: every frame back out in order, MACs swapped,
    FROM_CPU tag for its own port."""
    d = os.path.join(PCAPS, "pipeline")
    need([os.path.join(d, "edsa_4ports.pcap"), os.path.join(d, "edsa_4ports_tx.pcap")])
    r = Run(tmp, [os.path.join(d, "edsa_4ports.pcap")],
            ["--tagger", "edsa", "--verdict", "tx", "--gro", "off"])
    assert r.out["tx"] == frames(os.path.join(d, "edsa_4ports_tx.pcap"))
    assert r.st["tx"] == 16, r.st
    print("edsa_4ports: tx frames exact")


def case_pipeline_acl(tmp):
    """acl: exactly the frames its rules name are dropped."""
    d = os.path.join(PCAPS, "pipeline")
    files = [os.path.join(d, n) for n in ("acl_input.pcap", "acl_rules.txt",
                                          "acl_expected_pass.pcap", "acl_expected_drop.pcap")]
    need(files)
    r = Run(tmp, [files[0]], ["--verdict", "acl:" + files[1], "--gro", "off"])
    assert r.out["pass"] == frames(files[2]), "passed frames differ"
    assert r.out["drop"] == frames(files[3]), "dropped frames differ"
    assert r.st["drop_reasons"] == {"verdict_drop": len(frames(files[3]))}, r.st
    print(f"acl: {r.st['pass']} passed, {r.st['drop']} dropped")


def main():
    case = globals().get("case_" + sys.argv[2])
    if case is None:
        sys.exit(f"unknown case {sys.argv[2]}")
    with tempfile.TemporaryDirectory() as tmp:
        case(tmp)
    print(f"{sys.argv[2]}: ok")


if __name__ == "__main__":
    main()
