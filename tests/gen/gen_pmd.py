#!/usr/bin/python3
"""Generate pcaps/pmd/pmd_fwd.pcap: the frames the net_aqc integration test
forwards through dpdk-testpmd over the chip model.

A mix that exercises the driver and model: IPv4/IPv6 TCP and UDP of many
sizes (minimum to 1514 bytes), ICMP, ARP, broadcast and multicast, an
802.1Q-tagged frame, a QinQ frame, a frame with a wrong IPv4 header checksum
(forwarded unchanged: the model only reports it), and jumbo frames of 4000
and 9014 bytes that arrive over several RX buffers and leave as multi-segment
mbufs. Deterministic: fixed seed, fixed timestamps.

usage: gen_pmd.py OUTDIR   (writes OUTDIR/pmd/pmd_fwd.pcap)
"""
import os
import random
import sys

from scapy.all import ARP, ICMP, IP, IPv6, TCP, UDP, Dot1Q, Dot1AD, Ether, Raw, conf

import tpgen

conf.verb = 0
A = "02:00:00:00:00:0a"
B = "02:00:00:00:00:0b"


def payload(rnd, n):
    return bytes(rnd.randrange(256) for _ in range(n))


def frames():
    rnd = random.Random(6)
    out = []
    for i, size in enumerate([0, 1, 17, 64, 100, 255, 512, 999, 1000, 1400, 1460]):
        out.append(Ether(src=A, dst=B) / IP(src="10.1.0.1", dst="10.1.0.%d" % (i + 2), id=i) /
                   TCP(sport=1000 + i, dport=80, seq=i * 7919, flags="PA") / Raw(payload(rnd, size)))
        out.append(Ether(src=B, dst=A) / IPv6(src="2001:db8::1", dst="2001:db8::%x" % (i + 2)) /
                   UDP(sport=2000 + i, dport=53) / Raw(payload(rnd, size)))
    out.append(Ether(src=A, dst="ff:ff:ff:ff:ff:ff") / ARP(op=1, hwsrc=A, psrc="10.1.0.1", pdst="10.1.0.2"))
    out.append(Ether(src=A, dst="01:00:5e:00:00:fb") / IP(src="10.1.0.1", dst="224.0.0.251") /
               UDP(sport=5353, dport=5353) / Raw(payload(rnd, 40)))
    out.append(Ether(src=A, dst=B) / IP(src="10.1.0.1", dst="10.1.0.9") / ICMP(id=7, seq=1) / Raw(b"ping" * 8))
    out.append(Ether(src=A, dst=B) / Dot1Q(vlan=100, prio=3) / IP(src="10.2.0.1", dst="10.2.0.2") /
               UDP(sport=7, dport=7) / Raw(payload(rnd, 80)))
    out.append(Ether(src=A, dst=B) / Dot1AD(vlan=20) / Dot1Q(vlan=300) / IP(src="10.3.0.1", dst="10.3.0.2") /
               TCP(sport=9, dport=9) / Raw(payload(rnd, 60)))
    bad = Ether(src=A, dst=B) / IP(src="10.4.0.1", dst="10.4.0.2", chksum=0x1234) / UDP(sport=1, dport=2) / Raw(b"x" * 30)
    out.append(bad)
    for size in (4000, 9014):
        eth = Ether(src=A, dst=B) / IP(src="10.5.0.1", dst="10.5.0.2") / UDP(sport=4, dport=4)
        out.append(eth / Raw(payload(rnd, size - len(eth))))
    # a burst of minimum-size frames (pad to 60 bytes, as on the wire without FCS)
    for k in range(200):
        f = bytes(Ether(src=A, dst=B) / IP(src="10.6.0.1", dst="10.6.0.2", id=k) / UDP(sport=k, dport=9))
        out.append(f + bytes(60 - len(f)))
    return out


def main():
    outdir = os.path.join(sys.argv[1], "pmd")
    os.makedirs(outdir, exist_ok=True)
    tpgen.write_pcap(os.path.join(outdir, "pmd_fwd.pcap"), frames())


if __name__ == "__main__":
    main()
