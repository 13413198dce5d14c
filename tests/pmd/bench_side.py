#!/usr/bin/python3
"""Side-by-side burst cost of net_aqc and Debian's net_atlantic on the same
chip model (bench_side.c): cycles per packet from a plain run, then (when
valgrind is installed) instructions per packet from callgrind runs, counted
inclusively in the wrappers bench_rx_burst / bench_tx_burst. Prints a table
and the ratio net_aqc / net_atlantic. Never fails on the figures; the exit
code says whether the runs worked. net_atlantic is skipped (with the
reason) when its Debian plugin is not installed.

usage: bench_side.py BENCH_SIDE_EXE"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SIZES = ("64", "1500")
CG_ITERS = 100      # bursts of 32 per callgrind run


def run_plain(exe, drv, size):
    out = subprocess.run([exe, drv, "20000", size], capture_output=True, text=True)
    if out.returncode == 77:
        return None
    if out.returncode != 0:
        sys.stderr.write(out.stdout + out.stderr)
        raise SystemExit(f"bench_side {drv} {size} failed")
    m = re.search(r"RX\+refill\s+([\d.]+) cyc/pkt, TX\+reclaim\s+([\d.]+)", out.stdout)
    return float(m.group(1)), float(m.group(2))


def run_callgrind(exe, drv, size, tmp):
    cg = os.path.join(tmp, f"cg.{drv}.{size}")
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg,
                    exe, drv, str(CG_ITERS), size], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", cg],
                         check=True, capture_output=True, text=True).stdout
    res = []
    for fn in ("bench_rx_burst", "bench_tx_burst"):
        m = re.search(r"^\s*([\d,]+)\s.*[:?]%s\s" % fn, ann, re.M)
        if not m:
            raise SystemExit(f"callgrind: {fn} not found for {drv}")
        res.append(int(m.group(1).replace(",", "")) / (CG_ITERS * 32))
    return tuple(res)


def table(title, unit, rows):
    print(f"{title} ({unit} per packet, bursts of 32)")
    print(f"  {'driver':13s} {'RX+refill 64B':>14s} {'1500B':>8s} {'TX+reclaim 64B':>15s} {'1500B':>8s}")
    for drv, vals in rows.items():
        if vals is None:
            print(f"  {drv:13s} skipped: Debian's net_atlantic plugin is not installed")
            continue
        print(f"  {drv:13s} {vals['64'][0]:14.1f} {vals['1500'][0]:8.1f} "
              f"{vals['64'][1]:15.1f} {vals['1500'][1]:8.1f}")
    a, u = rows.get("net_aqc"), rows.get("net_atlantic")
    if a and u:
        print(f"  {'ratio aqc/atl':13s} {a['64'][0] / u['64'][0]:14.2f} "
              f"{a['1500'][0] / u['1500'][0]:8.2f} {a['64'][1] / u['64'][1]:15.2f} "
              f"{a['1500'][1] / u['1500'][1]:8.2f}")


def main():
    exe = sys.argv[1]
    cycles = {}
    for drv in ("net_aqc", "net_atlantic"):
        per = {s: run_plain(exe, drv, s) for s in SIZES}
        cycles[drv] = None if any(v is None for v in per.values()) else per
    table("TSC cycles", "cycles", cycles)
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        print("callgrind: valgrind not installed, instruction counts skipped")
        return
    instr = {}
    with tempfile.TemporaryDirectory() as tmp:
        for drv, c in cycles.items():
            instr[drv] = None if c is None else {s: run_callgrind(exe, drv, s, tmp) for s in SIZES}
    table("callgrind instructions", "instructions", instr)
    print("aim (issue 12): net_aqc RX+refill <= 40 instructions/packet and <= 0.7x net_atlantic")


if __name__ == "__main__":
    main()
