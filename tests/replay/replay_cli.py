#!/usr/bin/python3
"""tagpipe-replay's command-line contract, one case per meson test.

usage: replay_cli.py REPLAY_BINARY CASE
Every case asserts exact frames or exact counters; bad-input cases assert exit
status 2, a one-line error naming the problem, and no output file left behind.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "gen"))
import tpgen  # noqa: E402

SRC = os.environ.get("TP_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
DEMO = os.path.join(SRC, "pcaps", "demo.pcap")
REPLAY = sys.argv[1]


def run(args, expect_rc=0):
    p = subprocess.run([REPLAY] + args, capture_output=True, text=True, timeout=120)
    if p.returncode != expect_rc:
        sys.exit(f"exit {p.returncode}, expected {expect_rc}: {args}\n"
                 f"stdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p


def stats_from_stdout(out):
    line = next(l for l in out.splitlines() if l.startswith("{"))
    return json.loads(line)


def check_conservation(st):
    out = st["pass"] + st["tx"] + st["redirect"] + st["drop"] + st["aborted"]
    assert st["rx"] == out, f"rx {st['rx']} != out {out}: {st}"
    assert st["drop"] == sum(st["drop_reasons"].values()), st
    assert st["mbufs_in_use_end"] == 0, st


def case_identity(tmp):
    """Frames come out identical to the input; counters add up."""
    out = os.path.join(tmp, "out.pcap")
    p = run(["-i", DEMO, "--write", "pass=" + out, "--stats", "-"])
    _, want = tpgen.read_pcap(DEMO)
    _, got = tpgen.read_pcap(out)
    assert got == want, f"{len(got)} frames out, {len(want)} in, or bytes differ"
    st = stats_from_stdout(p.stdout)
    assert st["rx"] == len(want) and st["pass"] == len(want), st
    assert st["rx_bytes"] == sum(len(f) for f in want), st
    check_conservation(st)
    assert "Mpps" in p.stdout and "cycles/packet" in p.stdout, p.stdout


def case_loops_burst(tmp):
    """--loops N replays N times, whatever the burst size."""
    _, want = tpgen.read_pcap(DEMO)
    for burst in ("1", "7", "32", "256"):
        out = os.path.join(tmp, f"out{burst}.pcap")
        stats = os.path.join(tmp, f"st{burst}.json")
        run(["-i", DEMO, "--burst", burst, "--loops", "3", "--write", "pass=" + out,
             "--stats", stats])
        _, got = tpgen.read_pcap(out)
        assert got == want * 3, f"burst {burst}: {len(got)} frames"
        with open(stats) as f:
            st = json.load(f)
        assert st["rx"] == 3 * len(want), st
        check_conservation(st)


def case_two_inputs(tmp):
    """Several -i inputs are replayed in order."""
    out = os.path.join(tmp, "out.pcap")
    run(["-i", DEMO, "-i", DEMO, "--write", "pass=" + out])
    _, want = tpgen.read_pcap(DEMO)
    _, got = tpgen.read_pcap(out)
    assert got == want + want


def case_meta(tmp):
    """--meta writes one JSON object per output frame, in order."""
    meta = os.path.join(tmp, "m.jsonl")
    run(["-i", DEMO, "--meta", meta])
    _, want = tpgen.read_pcap(DEMO)
    with open(meta) as f:
        rows = [json.loads(l) for l in f]
    assert len(rows) == len(want)
    for r, fr in zip(rows, want):
        assert r == {"verdict": "pass", "len": len(fr), "switch_port": None,
                     "vlan": [], "gso_segs": 1, "gso_size": 0}, r


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
    lines = [l for l in p.stderr.splitlines() if l.strip()]
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


def case_bad_option(tmp):
    bad(tmp, ["-i", DEMO, "--frobnicate"], ["--frobnicate"])


def case_bad_number(tmp):
    bad(tmp, ["-i", DEMO, "--burst", "12x"], ["--burst", "12x"])
    bad(tmp, ["-i", DEMO, "--loops", "0"], ["--loops", "'0'"])


def case_bad_write(tmp):
    bad(tmp, ["-i", DEMO, "--write", "sideways=x.pcap"], ["sideways"])


def case_bad_no_input(tmp):
    bad(tmp, [], ["-i"])


def main():
    case = globals().get("case_" + sys.argv[2])
    if case is None:
        sys.exit(f"unknown case {sys.argv[2]}")
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, "w")
        os.mkdir(work)
        case(work)
    print(f"{sys.argv[2]}: ok")


if __name__ == "__main__":
    main()
