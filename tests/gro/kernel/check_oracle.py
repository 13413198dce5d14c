#!/usr/bin/python3
"""The oracle itself: kernel_gro.py on three hand-built inputs whose kernel
output is known from the kernel sources, expected bytes built here with scapy.

1. ten in-order IPv4 segments -> one aggregate of ten (gso_size 1000);
2. five IPv6 segments, PSH on the third -> aggregates of three and of two
   (tcp_gro_receive(), net/ipv4/tcp_offload.c: a PSH segment is appended and
   then the aggregate is flushed);
3. IPv4 segments 0 1 2 3 with a bad TCP checksum on 2 -> 2 first, untouched
   (tcp4_gro_receive() flags it before any flow lookup, so dev_gro_receive()
   in net/core/gro.c hands it on at once while 0+1 stay held), then 0+1
   (completed when 3 does not follow it), then 3 (held alone, delivered
   untouched at the end of the poll).
Each input runs three times and must give the same frames every time.
Exit 77 when the namespaces/veth cannot be created.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_gro  # noqa: E402

from scapy.all import Ether, IP, IPv6, TCP  # noqa: E402

MAC = dict(src="02:00:00:00:20:01", dst="02:00:00:00:20:02")


def fold(s):
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def words(b):
    b = bytes(b) + b"\0" * (len(b) % 2)
    return sum(int.from_bytes(b[i:i + 2], "big") for i in range(0, len(b), 2))


def seg(v6, seq, n, flags="A", ip_id=0, bad_csum=False):
    l3 = IPv6(src="2001:db8::1", dst="2001:db8::2") if v6 else \
        IP(src="10.9.0.1", dst="10.9.0.2", id=ip_id, flags="DF")
    payload = bytes((seq + i) & 0xFF for i in range(n))
    p = Ether(**MAC) / l3 / TCP(sport=1234, dport=80, seq=seq, ack=77, flags=flags, window=500) / payload
    if bad_csum:
        p = Ether(bytes(p))
        p[TCP].chksum ^= 0x00A5
    return bytes(p)


def aggregate(v6, seq, sizes, flags, ip_id=0):
    """The kernel's merged frame: the first segment's headers, IP length
    covering all payload, the last segment's PSH/FIN ORed in, IPv4 header
    checksum valid (inet_gro_complete(), net/ipv4/af_inet.c) and TCP checksum
    = folded uncomplemented pseudo-header sum with the TCP length
    (tcp4_gro_complete(), tcp6_gro_complete())."""
    payload = b"".join(bytes((s + i) & 0xFF for i in range(n))
                       for s, n in zip([seq + sum(sizes[:k]) for k in range(len(sizes))], sizes))
    l3 = IPv6(src="2001:db8::1", dst="2001:db8::2") if v6 else \
        IP(src="10.9.0.1", dst="10.9.0.2", id=ip_id, flags="DF")
    tcp = TCP(sport=1234, dport=80, seq=seq, ack=77, flags=flags, window=500)
    tcp_len = 20 + len(payload)
    if v6:
        ph = words(bytes.fromhex("20010db8" + "0" * 23 + "1")) + words(bytes.fromhex("20010db8" + "0" * 23 + "2"))
    else:
        ph = words(bytes([10, 9, 0, 1, 10, 9, 0, 2]))
    tcp.chksum = fold(ph + 6 + tcp_len)
    return bytes(Ether(**MAC) / l3 / tcp / payload)


def main():
    s0 = 1_000_000
    cases = [
        ("ten in-order IPv4 segments",
         [seg(False, s0 + 1000 * i, 1000, ip_id=5 + i) for i in range(10)],
         [(aggregate(False, s0, [1000] * 10, "A", ip_id=5), 1000)]),
        ("IPv6, PSH on the third of five",
         [seg(True, s0 + 500 * i, 500, flags="PA" if i == 2 else "A") for i in range(5)],
         [(aggregate(True, s0, [500] * 3, "PA"), 500), (aggregate(True, s0 + 1500, [500] * 2, "A"), 500)]),
        ("bad TCP checksum on the third of four",
         [seg(False, s0 + 800 * i, 800, ip_id=9 + i, bad_csum=(i == 2)) for i in range(4)],
         [(seg(False, s0 + 1600, 800, ip_id=11, bad_csum=True), 0),
          (aggregate(False, s0, [800] * 2, "A", ip_id=9), 800),
          (seg(False, s0 + 2400, 800, ip_id=12), 0)]),
    ]
    failed = 0
    try:
        with kernel_gro.KernelGro() as k:
            for name, frames, want in cases:
                runs = [k.run(frames) for _ in range(3)]
                if runs[0] != want:
                    failed += 1
                    print("FAIL %s:\n  got  %s\n  want %s" % (
                        name, [(len(f), g) for f, g in runs[0]], [(len(f), g) for f, g in want]))
                    for j, ((gf, _), (wf, _)) in enumerate(zip(runs[0], want)):
                        if gf != wf:
                            off = next((i for i in range(min(len(gf), len(wf))) if gf[i] != wf[i]), None)
                            print("  frame %d first differs at byte %s" % (j, off))
                elif any(r != runs[0] for r in runs[1:]):
                    failed += 1
                    print("FAIL %s: the three runs differ" % name)
                else:
                    print("ok   %s: %s" % (name, [(len(f), g) for f, g in want]))
    except kernel_gro.SetupError as e:
        print("SKIP: %s" % e)
        return 77
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
