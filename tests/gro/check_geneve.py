#!/usr/bin/python3
"""GENEVE GRO, which the test machine's kernel cannot run (no CONFIG_GENEVE),
against expected outputs built here with scapy from the kernel's rules.

usage: check_geneve.py --replay PATH/tagpipe-replay

Rules (drivers/net/geneve.c geneve_gro_receive, as of Linux 6.18; outer
levels as net/ipv4/af_inet.c inet_gro_receive, net/ipv4/udp_offload.c
udp4_gro_receive + udp_gro_receive; inner as for plain TCP):
  - a GENEVE header with version != 0 or the O (OAM) bit is refused before
    any flow lookup: delivered at once, a held aggregate stays held;
  - two packets are one flow only when opt_len and every header byte
    (flags, protocol type, VNI, options) are equal; the protocol type says
    whether an Ethernet frame (0x6558) or an IP packet follows;
  - a bad non-zero outer UDP checksum is refused before the lookup;
  - outer TTL / TOS / DF / ID are flush rules (gro_receive_network_flush);
  - in-frame VLAN tags belong to the compared MAC header (vlan_gro_receive;
    the test kernel has no VLAN GRO either, so tagged tunnels are checked here);
  - at the end of the poll the held aggregates leave oldest first (one
    bucket: frames from a pcap carry no hash).
Each case: input frames, and the expected frames in order, each either an
input frame unchanged or the merge of input frames (first frame's headers,
payloads concatenated, lengths and checksums of every level recomputed).
Merged frames are compared with their pseudo-header seeds blanked (tagpipe
leaves the TCP and a non-zero outer UDP checksum as the pseudo-header sum
without the length, lib/gro/tp_gro.h; each is checked against that rule).
Exit 0: every case as expected; 1: a difference.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "kernel"))
sys.path.insert(0, os.path.join(HERE, "..", "gen"))
import tpgen  # noqa: E402
import encap_frames as ef  # noqa: E402

from scapy.all import Ether, Dot1Q, IP, IPv6, TCP, UDP, Raw  # noqa: E402

MAC = dict(src="02:00:00:00:60:01", dst="02:00:00:00:60:02")
IMAC = dict(src="02:00:00:00:61:01", dst="02:00:00:00:61:02")


class Flow:
    def __init__(self, vni=10, opts=b"", ov6=False, iv6=False, ucsum=False, proto=0x6558,
                 mss=500, sport=40000, vlan=None):
        self.vni, self.opts, self.ov6, self.iv6 = vni, opts, ov6, iv6
        self.ucsum, self.proto, self.mss, self.sport = ucsum, proto, mss, sport
        self.seq, self.oid, self.iid, self.ttl = 1000, 100, 200, 64
        self.vlan = vlan

    def frame(self, plen=None, ver=0, oam=False, opts=None, flags="A", bad_udp=False):
        """(frame bytes, TCP payload) of the next segment."""
        plen = self.mss if plen is None else plen
        opts = self.opts if opts is None else opts
        pay = bytes((self.seq + i) & 0xFF for i in range(plen))
        iip = IPv6(src="2001:db8:1::1", dst="2001:db8:1::2") if self.iv6 else \
            IP(src="10.9.0.1", dst="10.9.0.2", id=self.iid, flags="DF")
        inner = iip / TCP(sport=self.sport, dport=80, seq=self.seq, ack=1, flags=flags,
                          window=1000) / Raw(pay)
        if self.proto == 0x6558:
            inner = Ether(**IMAC) / inner
        gh = bytes([ver << 6 | len(opts) // 4, 0x80 if oam else 0, self.proto >> 8,
                    self.proto & 0xFF, self.vni >> 16, (self.vni >> 8) & 0xFF,
                    self.vni & 0xFF, 0]) + opts
        oip = IPv6(src="2001:db8::a", dst="2001:db8::b", hlim=self.ttl) if self.ov6 else \
            IP(src="192.0.2.10", dst="198.51.100.10", id=self.oid, ttl=self.ttl, flags="DF")
        u = UDP(sport=50000, dport=ef.GENEVE_PORT)
        if not self.ucsum:
            u.chksum = 0
        eth = Ether(**MAC) / Dot1Q(vlan=self.vlan) if self.vlan is not None else Ether(**MAC)
        raw = bytearray(bytes(eth / oip / u / Raw(gh) / inner))
        if bad_udp:
            uoff = 14 + (4 if self.vlan is not None else 0) + (40 if self.ov6 else 20)
            raw[uoff + 6] ^= 0x5A
        self.seq += plen
        self.oid += 1
        self.iid += 1
        return bytes(raw), pay


def merged(frames):
    """The merge of [(frame, payload)]: the first frame's headers (offsets
    from encap_frames.parse, independent of lib/gro), every payload, PSH/FIN
    of the last; the length of every level and the IPv4 header checksums
    recomputed (the L4 checksums are seeds, compared blanked)."""
    raw0 = bytearray(frames[0][0])
    h = ef.parse(raw0)
    l4 = h["l4"][1]
    doff = (raw0[l4 + 12] >> 4) * 4
    out = bytearray(raw0[:l4 + doff]) + b"".join(p for _, p in frames)
    last = frames[-1][0]
    lh = ef.parse(last)
    out[l4 + 13] |= last[lh["l4"][1] + 13] & 0x09
    for off, v6, _, _ in h["ips"]:
        if v6:
            out[off + 4:off + 6] = (len(out) - off - 40).to_bytes(2, "big")
        else:
            out[off + 2:off + 4] = (len(out) - off).to_bytes(2, "big")
            out[off + 10:off + 12] = b"\0\0"
            out[off + 10:off + 12] = (0xFFFF - ef.csum16(bytes(out[off:off + 20]))).to_bytes(2, "big")
    u = h["vxlan_udp"]
    out[u + 4:u + 6] = (len(out) - u).to_bytes(2, "big")
    return bytes(out)



def blank(raw, tagpipe, problems):
    """The seeds of a merged frame blanked (tagpipe's checked first)."""
    b = bytearray(raw)
    for field, ipoff, v6, proto, l4len in ef.seeds(raw):
        if tagpipe:
            want = ef.pseudo(raw, ipoff, v6, proto, None)
            got = raw[field] << 8 | raw[field + 1]
            if got != want:
                problems.append("tagpipe seed at %d is 0x%04x, want 0x%04x" % (field, got, want))
        b[field:field + 2] = b"SS"
    return bytes(b)


def cases():
    """name -> (input frames, expected [(bytes, is_merged)])."""
    out = {}
    a = Flow()
    fr = [a.frame() for _ in range(5)] + [a.frame(123)]
    out["same_flow_short_last"] = (fr, [(merged(fr), True)])

    a, b = Flow(vni=10), Flow(vni=11)
    fa, fb = [], []
    seq = []
    for _ in range(3):
        fa.append(a.frame())
        fb.append(b.frame())
        seq += [fa[-1], fb[-1]]
    out["vni_is_key"] = (seq, [(merged(fa), True), (merged(fb), True)])

    a = Flow(opts=b"\x01\x02\x03\x04")
    f1, f2 = a.frame(), a.frame()
    f3 = a.frame(opts=b"\x01\x02\x03\x05")
    f4 = a.frame()
    out["options_are_key"] = ([f1, f2, f3, f4], [(merged([f1, f2]), True), (f3[0], False),
                                                 (f4[0], False)])

    for name, kw in (("oam_refused_early", dict(oam=True)), ("version_refused_early", dict(ver=1))):
        a = Flow()
        f1, f2, f3, f4 = a.frame(), a.frame(**kw), a.frame(), a.frame()
        out[name] = ([f1, f2, f3, f4], [(f2[0], False), (f1[0], False), (merged([f3, f4]), True)])

    a = Flow(proto=0x0800)
    fr = [a.frame() for _ in range(4)]
    out["ip_directly"] = (fr, [(merged(fr), True)])

    a = Flow(ucsum=True)
    f1, f2 = a.frame(), a.frame()
    f3 = a.frame(bad_udp=True)
    f4 = a.frame()
    out["bad_udp_csum_early"] = ([f1, f2, f3, f4], [(f3[0], False), (merged([f1, f2]), True),
                                                    (f4[0], False)])

    a = Flow()
    f1, f2 = a.frame(), a.frame()
    a.ttl = 63
    f3, f4 = a.frame(), a.frame()
    out["outer_ttl_flushes"] = ([f1, f2, f3, f4], [(merged([f1, f2]), True), (merged([f3, f4]), True)])

    # in-frame tags are part of the compared MAC header (vlan_gro_receive);
    # the test kernel has no VLAN GRO, so tagged tunnels are checked here
    a, b = Flow(vlan=5), Flow(vlan=6)
    fa, fb, seq = [], [], []
    for _ in range(3):
        fa.append(a.frame())
        fb.append(b.frame())
        seq += [fa[-1], fb[-1]]
    out["outer_vlan_is_key"] = (seq, [(merged(fa), True), (merged(fb), True)])

    a = Flow(ov6=True, iv6=True, ucsum=True, opts=bytes(8))
    fr = [a.frame() for _ in range(4)] + [a.frame(flags="PA")]
    out["ipv6_psh_last"] = (fr, [(merged(fr), True)])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--replay", required=True)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="tp_geneve_")
    bad = 0
    cs = cases()
    for i, (name, (frames, expect)) in enumerate(cs.items()):
        pin, pout = os.path.join(work, name + ".pcap"), os.path.join(work, name + ".out.pcap")
        tpgen.write_pcap(pin, [f for f, _ in frames])
        cmd = [a.replay, "--no-huge", "--no-shconf", "-m", "256", "-l", "0", "--no-pci",
               "--file-prefix=tp_geneve_%d_%d" % (os.getpid(), i), "--", "-i", pin,
               "--burst", "64", "--gro", "burst", "--gro-order", "kernel", "--gro-tunnels", "geneve",
               "--gro-csum", "verify", "--vlan", "keep", "--write", "pass=" + pout]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            print("%s: tagpipe-replay exit %d\n%s" % (name, p.returncode, p.stderr))
            return 1
        got = tpgen.read_pcap(pout)[1]
        problems = []
        if len(got) != len(expect):
            problems.append("%d frames, expected %d" % (len(got), len(expect)))
        for j, (g, (e, is_merged)) in enumerate(zip(got, expect)):
            gn = blank(g, True, problems) if is_merged else g
            en = blank(e, False, problems) if is_merged else e
            if gn != en:
                d = next((x for x in range(min(len(gn), len(en))) if gn[x] != en[x]),
                         min(len(gn), len(en)))
                problems.append("frame %d differs from offset %d (%d vs %d bytes)"
                                % (j, d, len(g), len(e)))
        print("%-24s %2d in, %d out: %s" % (name, len(frames), len(got),
                                             "as expected" if not problems else "; ".join(problems)))
        bad += bool(problems)
    print("%d passed, %d failed" % (len(cs) - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
