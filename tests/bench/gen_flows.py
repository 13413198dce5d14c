#!/usr/bin/python3
"""Bulk TCP input for the GRO sweep: N interleaved flows, MSS-sized segments.

usage: gen_flows.py OUT.pcap FLOWS FRAMES [--v6-share PCT]

Flow f sends in-order 1448-byte segments (ACK only, timestamps option, DF,
IPv4 ID incrementing), so every engine that follows the kernel's rules can
merge them; the flows are interleaved round-robin, which is what a switch
CPU port with many busy ports delivers and what makes a GRO table hold many
flows at once. PCT percent of the flows (default 0) are TCP/IPv6.

Each flow's first frame is built with scapy; later frames reuse its bytes
with the sequence number, IP ID and checksums patched, so thousands of flows
stay quick to generate. Deterministic: fixed seeds and timestamps.
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gen"))

from scapy.all import IP, IPv6, TCP, Ether, Raw, conf  # noqa: E402

import tpgen  # noqa: E402

conf.verb = 0
MSS = 1448


def csum_fold(s):
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def sum16(b):
    if len(b) % 2:
        b += b"\0"
    return sum(struct.unpack("!%dH" % (len(b) // 2), b))


class Flow:
    """One flow: template frame bytes and the offsets to patch per segment."""

    def __init__(self, f, v6, rnd):
        self.seq = rnd.randrange(1 << 32)
        self.ipid = rnd.randrange(1 << 16)
        self.v6 = v6
        payload = bytes(rnd.randrange(256) for _ in range(MSS))
        tcp = TCP(sport=10000 + f % 50000, dport=5201, seq=self.seq,
                  ack=rnd.randrange(1 << 32), flags="A", window=1024,
                  options=[("NOP", None), ("NOP", None), ("Timestamp", (f + 1, 7))])
        if v6:
            l3 = IPv6(src="2001:db8::1", dst="2001:db8:1::%x" % (f + 1), hlim=64)
        else:
            l3 = IP(src="10.%d.%d.1" % (f >> 8 & 0xFF, f & 0xFF), dst="10.200.0.2",
                    id=self.ipid, flags="DF", ttl=64)
        frame = bytes(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / l3 / tcp /
                      Raw(payload))
        self.frame = bytearray(frame)
        self.l3 = 14
        self.l4 = 14 + (40 if v6 else 20)
        tcp_len = len(frame) - self.l4
        # Pseudo-header + payload + TCP header without seq and checksum:
        # constant for the flow; only the sequence number changes.
        if v6:
            ph = frame[22:54] + struct.pack("!IxxxB", tcp_len, 6)
        else:
            ph = frame[26:34] + struct.pack("!xBH", 6, tcp_len)
        hdr = bytearray(frame[self.l4:])
        hdr[4:8] = b"\0\0\0\0"
        hdr[16:18] = b"\0\0"
        self.base_sum = sum16(bytes(ph)) + sum16(bytes(hdr))
        self.k = 0

    def next(self):
        fr = self.frame
        seq = (self.seq + self.k * MSS) & 0xFFFFFFFF
        struct.pack_into("!I", fr, self.l4 + 4, seq)
        s = csum_fold(self.base_sum + (seq >> 16) + (seq & 0xFFFF))
        struct.pack_into("!H", fr, self.l4 + 16, (~s) & 0xFFFF)
        if not self.v6:
            struct.pack_into("!H", fr, self.l3 + 4, (self.ipid + self.k) & 0xFFFF)
            struct.pack_into("!H", fr, self.l3 + 10, 0)
            ipsum = csum_fold(sum16(bytes(fr[self.l3:self.l3 + 20])))
            struct.pack_into("!H", fr, self.l3 + 10, (~ipsum) & 0xFFFF)
        self.k += 1
        return bytes(fr)


def main():
    args = sys.argv[1:]
    v6_share = 0
    if "--v6-share" in args:
        i = args.index("--v6-share")
        v6_share = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    out, nflows, nframes = args[0], int(args[1]), int(args[2])
    rnd = random.Random(4242 + nflows)
    flows = [Flow(f, (f * 100) // nflows < v6_share if v6_share else False, rnd)
             for f in range(nflows)]
    frames = [flows[i % nflows].next() for i in range(nframes)]
    tpgen.write_pcap(out, frames, step_us=1)


if __name__ == "__main__":
    main()
