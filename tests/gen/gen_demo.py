#!/usr/bin/python3
"""Generate pcaps/demo.pcap: the capture the README's run command replays.

Interleaved bulk TCP transfers (three over IPv4, two over IPv6) as a NIC would
receive them, plus ARP, ICMP echo and UDP frames sprinkled in between. Each
bulk flow sends MSS-sized segments (1448 bytes of payload, timestamps option)
in order with incrementing IPv4 IDs, so a GRO stage has real work to do.

usage: gen_demo.py OUTDIR   (writes OUTDIR/demo.pcap)
"""
import os
import random
import sys

from scapy.all import ARP, ICMP, IP, IPv6, TCP, UDP, Ether, Raw, conf

import tpgen

conf.verb = 0
MSS = 1448
SEGS_PER_FLOW = 64
MAC_A = "02:00:00:00:00:0a"
MAC_B = "02:00:00:00:00:0b"


def bulk_flow(i, v6):
    """Segments of one bulk transfer, in order."""
    rnd = random.Random(1000 + i)
    seq = rnd.randrange(1 << 32)
    ack = rnd.randrange(1 << 32)
    ipid = rnd.randrange(1 << 16)
    sport = 40000 + i
    out = []
    for k in range(SEGS_PER_FLOW):
        payload = bytes((i * 31 + k + j) & 0xFF for j in range(MSS))
        tcp = TCP(sport=sport, dport=5201, seq=(seq + k * MSS) % (1 << 32), ack=ack,
                  flags="A" if k < SEGS_PER_FLOW - 1 else "PA", window=512,
                  options=[("NOP", None), ("NOP", None), ("Timestamp", (1000 + i, 2000 + i))])
        if v6:
            l3 = IPv6(src="2001:db8::a", dst="2001:db8::%x" % (0x100 + i), hlim=64)
        else:
            l3 = IP(src="10.0.0.1", dst="10.0.1.%d" % (i + 1), id=(ipid + k) & 0xFFFF,
                    flags="DF", ttl=64)
        out.append(Ether(src=MAC_A, dst=MAC_B) / l3 / tcp / Raw(payload))
    return out


def others():
    return [
        Ether(src=MAC_A, dst="ff:ff:ff:ff:ff:ff") / ARP(op=1, hwsrc=MAC_A, psrc="10.0.0.1", pdst="10.0.0.2"),
        Ether(src=MAC_B, dst=MAC_A) / ARP(op=2, hwsrc=MAC_B, psrc="10.0.0.2", hwdst=MAC_A, pdst="10.0.0.1"),
        Ether(src=MAC_A, dst=MAC_B) / IP(src="10.0.0.1", dst="10.0.0.2", id=7) / ICMP(id=1, seq=1) / Raw(b"tagpipe-ping" * 4),
        Ether(src=MAC_B, dst=MAC_A) / IP(src="10.0.0.2", dst="10.0.0.1", id=8) / ICMP(type=0, id=1, seq=1) / Raw(b"tagpipe-ping" * 4),
        Ether(src=MAC_A, dst=MAC_B) / IP(src="10.0.0.1", dst="10.0.0.53", id=9) / UDP(sport=33333, dport=53) / Raw(b"\x12\x34\x01\x00\x00\x01" + bytes(34)),
        Ether(src=MAC_A, dst=MAC_B) / IPv6(src="2001:db8::a", dst="2001:db8::53") / UDP(sport=33334, dport=53) / Raw(b"\x56\x78\x01\x00\x00\x01" + bytes(34)),
    ]


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "pcaps"
    flows = [bulk_flow(i, v6=i >= 3) for i in range(5)]
    extra = others()
    frames = []
    # Round-robin the flows in runs of 4 segments, as several senders would
    # interleave on one link; the small frames go in between runs.
    for k in range(0, SEGS_PER_FLOW, 4):
        for f in flows:
            frames.extend(f[k:k + 4])
        if extra:
            frames.append(extra.pop(0))
    frames.extend(extra)
    os.makedirs(outdir, exist_ok=True)
    tpgen.write_pcap(os.path.join(outdir, "demo.pcap"), frames)


if __name__ == "__main__":
    main()
