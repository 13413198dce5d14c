#!/usr/bin/python3
"""GRO then egress, for tunnels and UDP: tagpipe-replay merges the frames of
gen_encap.py's sequences (every kind, in-frame tags included) and sends them
back out (--verdict tx, whose program swaps the MAC addresses), which splits
every merged tunnel and UDP packet in software (tp_gro_segment; a NIC's plain
TSO cannot, lib/gro/tp_gro.h tp_gro_plain_tcp). What leaves must be exactly
the frames that came in, byte for byte (MAC addresses swapped back), and GRO
must have merged some.

usage: check_encap_egress.py --replay PATH/tagpipe-replay [--count N]
Exit 0: every sequence came back whole; 1: a difference.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "kernel"))
sys.path.insert(0, os.path.join(HERE, "..", "gen"))
import tpgen  # noqa: E402
import gen_encap  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--replay", required=True)
    ap.add_argument("--count", type=int, default=24)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="tp_gro_egress_")
    bad = merged = 0
    for i in range(a.count):
        kinds = (gen_encap.KINDS[i % len(gen_encap.KINDS)],) if i % 3 else gen_encap.KINDS
        frames = gen_encap.sequence(41, i, kinds)[0]
        pin, pout = os.path.join(work, "in%d.pcap" % i), os.path.join(work, "out%d.pcap" % i)
        tpgen.write_pcap(pin, frames)
        for order in ("flow", "kernel"):
            cmd = [a.replay, "--no-huge", "--no-shconf", "-m", "256", "-l", "0", "--no-pci",
                   "--file-prefix=tp_gro_eg_%d_%d" % (os.getpid(), i), "--", "-i", pin,
                   "--burst", "64", "--gro", "burst", "--gro-order", order,
                   "--gro-tunnels", "vxlan:4789+8472,geneve,ipip", "--gro-udp",
                   "--verdict", "tx", "--write", "tx=" + pout]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            if p.returncode != 0:
                print("sequence %d: tagpipe-replay exit %d\n%s" % (i, p.returncode, p.stderr))
                return 1
            m = re.search(r"gro: (\d+) in, (\d+) out", p.stdout + p.stderr)
            if m and int(m.group(2)) < int(m.group(1)):
                merged += int(m.group(1)) - int(m.group(2))
            out = [f[6:12] + f[0:6] + f[12:] for f in tpgen.read_pcap(pout)[1]]
            if sorted(out) != sorted(frames):
                bad += 1
                print("sequence %d (%s, %s order): %d frames in, %d out, not the same frames"
                      % (i, ",".join(sorted(set(kinds)))[:40], order, len(frames), len(out)))
    print("%d sequences x 2 orders: frames merged away by GRO then split back: %d"
          % (a.count, merged))
    if merged == 0:
        print("nothing was merged: the test proves nothing")
        bad += 1
    print("%d passed, %d failed" % (2 * a.count - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
