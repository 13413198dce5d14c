#!/usr/bin/python3
"""Frames for the XDP object tests, and what each test program must leave
of them, built with scapy from the programs' documented behaviour
(tests/bpf/progs/*.c headers), never recorded from tagpipe.

usage: gen_bpf_frames.py OUTDIR
Writes OUTDIR/in.pcap (frames 0..7), parse_out.pcap, push_out.pcap,
pop_out.pcap, trim_out.pcap, tail_out.pcap, fib_out.pcap, lb_out.pcap
(one expected frame per input frame).
"""
import os
import sys

from scapy.all import ARP, IP, IPv6, TCP, UDP, Dot1Q, Ether, Raw, conf, wrpcap

conf.verb = 0
A = "02:00:00:00:00:01"
B = "02:00:00:00:00:02"


def frames():
    return [
        Ether(src=A, dst=B) / IP(src="10.0.0.1", dst="192.168.1.1") /
        TCP(sport=1234, dport=80),
        Ether(src=A, dst=B) / IP(src="10.0.0.1", dst="192.168.1.1") /
        TCP(sport=1234, dport=22),
        Ether(src=A, dst=B) / IP(src="10.0.0.2", dst="192.168.1.2") /
        UDP(sport=5555, dport=9) / Raw(b"x" * 58),
        Ether(src=A, dst=B) / IP(src="10.0.0.2", dst="192.168.1.7") /
        UDP(sport=5555, dport=53) / Raw(b"q" * 10),
        Ether(src=A, dst="ff:ff:ff:ff:ff:ff") /
        ARP(op=1, hwsrc=A, psrc="10.0.0.9", pdst="10.0.0.1"),
        Raw(bytes(range(10))),
        Ether(src=A, dst=B) / IPv6(src="2001:db8::1", dst="2001:db8::2") /
        UDP(sport=5555, dport=53),
        Ether(src=A, dst=B) / Dot1Q(vlan=5) /
        IP(src="10.0.0.3", dst="192.168.1.1") / UDP(sport=5555, dport=9),
    ]


# t_lb's configuration, as test_bpf.c and test_bpf_kernel.c set it: VIPs
# 192.168.1.1:80/TCP (vip_num 0) and 192.168.1.2:9/UDP (vip_num 1); ring
# slot i holds real i % 5; real r < 4 is 10.1.0.(10 + r) behind MAC
# 02:00:00:00:01:0r, real 4 has address 0 (drop).
LB_VIPS = {("192.168.1.1", 80, 6): 0, ("192.168.1.2", 9, 17): 1}
LB_RING = 16


def rol32(w, s):
    return ((w << s) | (w >> (32 - s))) & 0xFFFFFFFF


def jhash_3words(a, b, c, seed):
    """Bob Jenkins' lookup3 final mix over three words (lookup3.c)."""
    m = 0xFFFFFFFF
    init = (0xDEADBEEF + (3 << 2) + seed) & m
    a, b, c = (a + init) & m, (b + init) & m, (c + init) & m
    c ^= b; c = (c - rol32(b, 14)) & m
    a ^= c; a = (a - rol32(c, 11)) & m
    b ^= a; b = (b - rol32(a, 25)) & m
    c ^= b; c = (c - rol32(b, 16)) & m
    a ^= c; a = (a - rol32(c, 4)) & m
    b ^= a; b = (b - rol32(a, 14)) & m
    c ^= b; c = (c - rol32(b, 24)) & m
    return c


def ip_word(a):
    return int.from_bytes(bytes(int(x) for x in a.split(".")), "big")


def lb_out(f):
    """What t_lb's xdp_lb leaves of frame f (its file header)."""
    if Ether not in f or f[Ether].type != 0x0800:
        return bytes(f)
    ip = f[IP]
    l4 = ip[TCP] if TCP in ip else ip[UDP] if UDP in ip else None
    vip = LB_VIPS.get((ip.dst, l4.dport, ip.proto)) if l4 is not None else None
    if vip is None:
        return bytes(f)
    h = jhash_3words(ip_word(ip.src), ip_word(ip.dst), l4.sport << 16 | l4.dport,
                     ip.proto)
    real = (vip * LB_RING + h % LB_RING) % 5
    if real == 4:
        return bytes(f)
    return bytes(Ether(src=f[Ether].dst, dst="02:00:00:00:01:%02x" % real) /
                 IP(src="10.255.0.1", dst="10.1.0.%d" % (10 + real), proto=4, ttl=64,
                    id=0, flags=0, tos=ip.tos) / ip)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    fs = [bytes(f) for f in frames()]
    wrpcap(os.path.join(out, "in.pcap"), [Raw(f) for f in fs], linktype=1)

    # t_parse: frame 2 (UDP to port 9) gets its MACs swapped.
    parse = list(fs)
    p2 = frames()[2]
    p2[Ether].src, p2[Ether].dst = B, A
    parse[2] = bytes(p2)
    wrpcap(os.path.join(out, "parse_out.pcap"), [Raw(f) for f in parse], linktype=1)

    # t_tail xdp_tail_entry: the IPv4/UDP frames (2 and 3) reach tail_udp,
    # which swaps their MACs.
    tail = list(fs)
    for i in (2, 3):
        t = frames()[i]
        t[Ether].src, t[Ether].dst = t[Ether].dst, t[Ether].src
        tail[i] = bytes(t)
    wrpcap(os.path.join(out, "tail_out.pcap"), [Raw(f) for f in tail], linktype=1)

    # t_adjust xdp_vlan_push: an 802.1Q tag, VID 100, after the MACs of
    # every frame that has an Ethernet header (the runt is unchanged).
    push = []
    for f in frames():
        if Ether not in f:
            push.append(bytes(f))
            continue
        inner = f[Ether].payload
        push.append(bytes(Ether(src=f[Ether].src, dst=f[Ether].dst) /
                          Dot1Q(vlan=100, type=f[Ether].type) / inner))
    wrpcap(os.path.join(out, "push_out.pcap"), [Raw(f) for f in push], linktype=1)

    # xdp_vlan_pop: frame 7 loses its tag.
    pop = list(fs)
    pop[7] = bytes(Ether(src=A, dst=B) / IP(src="10.0.0.3", dst="192.168.1.1") /
                   UDP(sport=5555, dport=9))
    wrpcap(os.path.join(out, "pop_out.pcap"), [Raw(f) for f in pop], linktype=1)

    # t_fib xdp_fib with test_bpf.c's routes (FIB_ROUTES there): frames 0
    # and 1 (to 192.168.1.1, via the /24) get the gateway's MAC as
    # destination, the route's smac as source, TTL 63 and the checksum for
    # it; frame 6 (to 2001:db8::2, the /64) likewise with hop limit 63.
    # Frame 2 needs fragmenting (86 > mtu 80), frame 3 is blackholed: both
    # unchanged, as is everything not IP.
    fib = list(fs)
    for i in (0, 1):
        f = frames()[i]
        f[Ether].dst, f[Ether].src = "02:00:00:00:00:99", "02:00:00:00:00:aa"
        f[IP].ttl = 63
        del f[IP].chksum
        fib[i] = bytes(f)
    f6 = frames()[6]
    f6[Ether].dst, f6[Ether].src = "02:00:00:00:00:66", "02:00:00:00:00:bb"
    f6[IPv6].hlim = 63
    fib[6] = bytes(f6)
    wrpcap(os.path.join(out, "fib_out.pcap"), [Raw(f) for f in fib], linktype=1)

    wrpcap(os.path.join(out, "lb_out.pcap"), [Raw(lb_out(f)) for f in frames()],
           linktype=1)

    # xdp_trim: longer than 60 bytes -> the first 60; else 4 zero bytes more.
    trim = [f[:60] if len(f) > 60 else f + bytes(4) for f in fs]
    wrpcap(os.path.join(out, "trim_out.pcap"), [Raw(f) for f in trim], linktype=1)


if __name__ == "__main__":
    main()
