#!/usr/bin/python3
"""Run bench_aqc for cycles per packet, then (if valgrind is installed) once
more under callgrind with a small iteration count and report the inclusive
instruction count per packet of the driver's burst functions, for the model
named by argv[2] (aqc107 or aqc113). Prints only;
the exit code reflects whether the runs worked, never the figures."""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def main():
    exe = sys.argv[1]
    model = sys.argv[2] if len(sys.argv) > 2 else "aqc107"
    print(f"model={model}")
    subprocess.run([exe, "0", model], check=True)
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        print("callgrind: valgrind not installed, instruction counts skipped")
        return
    iters = 200
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                        exe, str(iters), model], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                             check=True, capture_output=True, text=True).stdout
    # 2 sizes x iters bursts of 32 through each function
    pkts = 2 * iters * 32
    for fn, what in (("aqc_recv_pkts_simple", "RX+refill"), ("aqc_recv_pkts", "RX+refill offloads"),
                     ("aqc_xmit_pkts", "TX+reclaim")):
        m = re.search(r"^\s*([\d,]+)\s.*[:?]%s\s" % fn, ann, re.M)
        if not m:
            print(f"callgrind: {fn} not found")
            continue
        ir = int(m.group(1).replace(",", ""))
        print(f"callgrind {what:18s} (64 B and 1500 B frames): {ir / pkts:.1f} instructions/packet")


if __name__ == "__main__":
    main()
