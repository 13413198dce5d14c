#!/usr/bin/python3
"""A statically linked DPDK application with net_aqc (tests/pmd/static_fwd.c):
it needs no DPDK shared library and loads no plugin, starts the EAL with two
net_aqc_sim ports (rx_pcap -> port 0, port 1 -> tx_pcap) and forwards; every
frame of the input must come out unchanged and in order.

usage: static_fwd.py STATIC_FWD INPUT_PCAP [MODEL]"""
import os
import re
import struct
import subprocess
import sys
import tempfile


def read_pcap(path):
    with open(path, "rb") as f:
        hdr = f.read(24)
        end = "<" if struct.unpack("<I", hdr[:4])[0] in (0xA1B2C3D4, 0xA1B23C4D) else ">"
        frames = []
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return frames
            caplen = struct.unpack(end + "IIII", rec)[2]
            frames.append(f.read(caplen))


def main():
    exe, inp = sys.argv[1], sys.argv[2]
    model = sys.argv[3] if len(sys.argv) > 3 else "aqc107"
    failures = []
    needed = re.findall(r"\(NEEDED\).*\[(.*)\]",
                        subprocess.run(["readelf", "-d", exe], capture_output=True, text=True,
                                       check=True).stdout)
    dpdk = [n for n in needed if n.startswith("librte_")]
    if dpdk:
        failures.append(f"{exe} needs DPDK shared libraries: {dpdk}")
    frames = read_pcap(inp)
    with tempfile.TemporaryDirectory(prefix="tp_static_fwd_") as work:
        out = os.path.join(work, "out.pcap")
        prefix = f"tp_static_fwd_{os.getpid()}"
        args = [exe, "-l", "0", "--no-huge", "--no-shconf", "-m", "256", "--no-pci",
                f"--file-prefix={prefix}", "--log-level=pmd.net.aqc.*:notice",
                "--vdev", f"net_aqc_sim0,wire=pcap,rx_pcap={inp},model={model}",
                "--vdev", f"net_aqc_sim1,wire=pcap,tx_pcap={out},model={model}",
                "--", str(len(frames))]
        r = subprocess.run(args, capture_output=True, text=True, timeout=60)
        print(r.stdout, end="")
        print(r.stderr, end="", file=sys.stderr)
        subprocess.run(["rm", "-rf", f"/var/run/dpdk/{prefix}"], check=False)
        if r.returncode != 0:
            failures.append(f"static_fwd exit status {r.returncode}")
        got = read_pcap(out) if os.path.exists(out) else []
    if got != frames:
        failures.append(f"output: {len(got)} frames, expected the {len(frames)} input "
                        f"frames unchanged and in order")
    if failures:
        sys.exit("\n".join(failures))
    print(f"static ({model}): {len(frames)} frames forwarded unchanged, no DPDK shared "
          f"library needed ({', '.join(needed)})")


if __name__ == "__main__":
    main()
