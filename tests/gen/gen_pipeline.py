#!/usr/bin/python3
"""Generate pcaps/pipeline/: inputs and independently built expected outputs
for tagpipe-replay runs of the pipeline (see pcaps/pipeline/README.md).

Expected frames are built here from the wire formats (net/dsa/tag_dsa.c for edsa; the acl verdict of each frame is decided by construction),
never recorded from tagpipe's output.

usage: gen_pipeline.py OUTDIR
"""
import os
import sys

from scapy.all import ICMP, IP, IPv6, TCP, UDP, Ether, Raw, conf

import tpgen

conf.verb = 0

MAC_HOST = "02:00:00:00:00:01"   # behind the switch ports
MAC_CPU = "02:00:00:00:00:02"    # the CPU / router
PORTS = 4
SEGS = 4
PAY = 200


def edsa_forward(port):
    """edsa RX tag, FORWARD from switch port `port`, untagged, dev 0 (docs/ref/dsa-tags.md §4.4)."""
    return bytes([0xDA, 0xDA, 0x00, 0x00, 0xC0, port << 3, 0x00, 0x00])


def edsa_from_cpu(port):
    """edsa TX tag, FROM_CPU to switch port `port`, dev 0, VID 0 (docs/ref/dsa-tags.md §4.4)."""
    return bytes([0xDA, 0xDA, 0x00, 0x00, 0x40, port << 3, 0x00, 0x00])


def with_tag(frame, tag):
    """Insert a DSA tag after the source MAC (12 bytes in)."""
    return frame[:12] + tag + frame[12:]


def swap_macs(frame):
    return frame[6:12] + frame[0:6] + frame[12:]


def segment(port, i):
    """Segment i of the bulk TCP flow behind switch port `port`: in order,
    incrementing IPv4 IDs, ACK only, so GRO merges the four and egress
    re-segmentation gives back these exact bytes."""
    payload = bytes((port * 16 + i * PAY + j) & 0xFF for j in range(PAY))
    pkt = (Ether(dst=MAC_CPU, src=MAC_HOST) /
           IP(src="192.0.2.%d" % (10 + port), dst="198.51.100.1", id=1000 + i,
              flags="DF", ttl=64) /
           TCP(sport=10000 + port, dport=5201, seq=5000 + i * PAY, ack=1,
               flags="A", window=65535) /
           Raw(payload))
    return bytes(pkt)


def edsa_four_ports(out):
    # Round robin over the ports: p0s0 p1s0 p2s0 p3s0 p0s1 ...
    frames = []
    for i in range(SEGS):
        for p in range(PORTS):
            frames.append((p, segment(p, i)))
    tpgen.write_pcap(os.path.join(out, "edsa_4ports.pcap"),
                     [with_tag(f, edsa_forward(p)) for p, f in frames])
    # by-switch-port: entry p gets the frames of port p, re-tagged FROM_CPU
    # for port p (the entry keeps the packet's switch port).
    for p in range(PORTS):
        tpgen.write_pcap(os.path.join(out, "edsa_4ports_redirect_%d.pcap" % p),
                         [with_tag(f, edsa_from_cpu(q)) for q, f in frames if q == p])
    # tx with --gro off: every frame back, MACs swapped, FROM_CPU tag, in
    # input order.
    tpgen.write_pcap(os.path.join(out, "edsa_4ports_tx.pcap"),
                     [with_tag(swap_macs(f), edsa_from_cpu(p)) for p, f in frames])


RULES = """\
# tagpipe acl rules for acl_input.pcap (format: lib/prog/tp_prog.h, "ACL rules")
# VERDICT PROTO SRC DST SPORT DPORT
drop tcp any any any 22                  # no ssh
drop udp 203.0.113.0/24 any any any      # a noisy subnet
pass udp any 198.51.100.53 any 53        # DNS to the resolver
drop udp any any any 53                  # other DNS
drop any any 2001:db8:bad::/48 any any   # a blocked IPv6 prefix
pass tcp any any 1024-65535 80
default pass
"""


def acl_frames():
    """(frame bytes, 'pass'|'drop') in capture order; the verdict of each
    frame is the first rule above that matches it."""
    e = Ether(dst=MAC_CPU, src=MAC_HOST)
    v4 = "192.0.2.7"
    rows = [
        (e / IP(src=v4, dst="198.51.100.9") / TCP(sport=40001, dport=22, flags="S"), "drop"),
        (e / IP(src=v4, dst="198.51.100.9") / TCP(sport=40002, dport=80, flags="S"), "pass"),
        (e / IP(src="203.0.113.5", dst="198.51.100.9") / UDP(sport=5000, dport=9999) / Raw(b"x" * 20), "drop"),
        (e / IP(src="203.0.114.5", dst="198.51.100.9") / UDP(sport=5000, dport=9999) / Raw(b"x" * 20), "pass"),
        (e / IP(src=v4, dst="198.51.100.53") / UDP(sport=5353, dport=53) / Raw(b"q" * 30), "pass"),
        (e / IP(src=v4, dst="198.51.100.54") / UDP(sport=5353, dport=53) / Raw(b"q" * 30), "drop"),
        (e / IP(src=v4, dst="198.51.100.9") / ICMP(type=8, id=7, seq=1) / Raw(b"ping" * 8), "pass"),
        (e / IPv6(src="2001:db8::7", dst="2001:db8:bad::1") / UDP(sport=1, dport=2) / Raw(b"z" * 10), "drop"),
        (e / IPv6(src="2001:db8::7", dst="2001:db8:bae::1") / UDP(sport=1, dport=2) / Raw(b"z" * 10), "pass"),
        (e / IPv6(src="2001:db8::7", dst="2001:db8::1") / TCP(sport=50000, dport=22, flags="S"), "drop"),
        (e / IP(src=v4, dst="198.51.100.9") / TCP(sport=1023, dport=80, flags="S"), "pass"),
        (e / IP(src=v4, dst="198.51.100.9") / TCP(sport=2222, dport=22, flags="PA") / Raw(b"s" * 40), "drop"),
    ]
    return [(bytes(p), v) for p, v in rows]


def acl(out):
    rows = acl_frames()
    with open(os.path.join(out, "acl_rules.txt"), "w") as f:
        f.write(RULES)
    tpgen.write_pcap(os.path.join(out, "acl_input.pcap"), [b for b, _ in rows])
    tpgen.write_pcap(os.path.join(out, "acl_expected_pass.pcap"),
                     [b for b, v in rows if v == "pass"])
    tpgen.write_pcap(os.path.join(out, "acl_expected_drop.pcap"),
                     [b for b, v in rows if v == "drop"])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen_pipeline.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    edsa_four_ports(out)
    acl(out)


if __name__ == "__main__":
    main()
