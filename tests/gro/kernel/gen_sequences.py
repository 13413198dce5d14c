#!/usr/bin/python3
"""Deterministic pseudo-random TCP sequences for the kernel GRO oracle.

usage: gen_sequences.py [--seed S] [--count N] OUTDIR

Writes OUTDIR/seq_NNN.pcap (at most 64 frames each: one NAPI poll, see
kernel_gro.py) and OUTDIR/seq_NNN.txt (what the sequence contains). The bytes
depend only on --seed and the sequence index.

Each sequence is 1..4 flows, or 9..12 (more than one GRO bucket holds), of
TCP over IPv4 or IPv6 (one direction each) whose segments are interleaved, with the cases on which Linux GRO decides
differently (net/ipv4/tcp_offload.c tcp_gro_receive(), net/ipv4/af_inet.c
inet_gro_receive(), net/ipv6/ip6_offload.c ipv6_gro_receive(),
net/core/gro.c dev_gro_receive()):
in-order full-size segments, pure ACKs between them, PSH, FIN, CWR,
out-of-order pairs, retransmits, a timestamp option that changes, ACK number
and window changes, short (< MSS) segments, IPv4 ID policies (incrementing;
DF with a fixed ID; fixed ID without DF; jumps), TTL/TOS and IPv6 hop limit /
flow label changes, bad TCP and IPv4 header checksums, IPv4 options, the
IPv4 reserved flag bit, and copies of the latest segment with a bad TCP
checksum, IPv4 options or the reserved bit (they take no sequence space, so
GRO may still append the next segment to what it held before them).
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gen"))
import tpgen  # noqa: E402

from scapy.all import Ether, IP, IPv6, TCP, IPOption_Router_Alert  # noqa: E402

MAX_FRAMES = 64          # one NAPI poll (NAPI_POLL_WEIGHT, include/linux/netdevice.h)
SRC_MAC = "02:00:00:00:10:01"
DST_MAC = "02:00:00:00:10:02"
MSS_CHOICES = (100, 536, 1000, 1448)

# step kind -> weight; every kind a GRO rule looks at
KINDS = {
    "data": 60, "pure_ack": 6, "psh": 4, "ooo": 4, "retransmit": 4, "ts_change": 4,
    "ack_change": 3, "window_change": 3, "short": 4, "ipid_jump": 3, "bad_tcp_csum": 3,
    "bad_ip_csum": 2, "ip_options": 2, "ttl_change": 2, "tos_change": 1,
    "cwr": 1, "flow_label_change": 2, "hlim_change": 2, "dup_bad_tcp_csum": 3, "dup_ip_options": 2,
    "ip_reserved": 2, "dup_ip_reserved": 1,
}
V4_ONLY = {"ipid_jump", "bad_ip_csum", "ip_options", "ttl_change", "tos_change", "dup_ip_options",
           "ip_reserved", "dup_ip_reserved"}
V6_ONLY = {"flow_label_change", "hlim_change"}
ID_POLICIES = ("increment", "fixed_df", "fixed_no_df", "increment_df")


class Flow:
    def __init__(self, rng, idx):
        self.idx = idx
        self.v6 = rng.random() < 0.4
        self.sport, self.dport = 40000 + rng.randrange(20000), (80, 443, 5201, 8080)[idx % 4]
        if self.v6:
            self.src, self.dst = "2001:db8::%x" % (idx + 1), "2001:db8:1::%x" % (idx + 1)
            self.flow_label, self.hlim = rng.randrange(1 << 20), 64
        else:
            self.src, self.dst = "10.0.%d.1" % idx, "10.1.%d.2" % idx
            self.ttl, self.tos = 64, 0
            self.id_policy = rng.choice(ID_POLICIES)
            self.ip_id = 0 if self.id_policy == "fixed_df" and rng.random() < 0.5 else rng.randrange(65536)
        self.mss = rng.choice(MSS_CHOICES)
        self.seq, self.ack = rng.randrange(1 << 32), rng.randrange(1 << 32)
        self.window = 502
        self.ts = [rng.randrange(1 << 32), rng.randrange(1 << 32)] if rng.random() < 0.6 else None
        self.sent = []   # frames already sent (for retransmits)
        self.kinds = []  # what happened, in order

    def next_id(self):
        if self.id_policy in ("increment", "increment_df"):
            self.ip_id = (self.ip_id + 1) & 0xFFFF
        return self.ip_id

    def frame(self, payload_len, flags="A", seq=None, ip_opts=False):
        """One frame of this flow with the current header state."""
        opts = [("NOP", None), ("NOP", None), ("Timestamp", tuple(self.ts))] if self.ts else []
        tcp = TCP(sport=self.sport, dport=self.dport, seq=self.seq if seq is None else seq,
                  ack=self.ack, flags=flags, window=self.window, options=opts)
        if self.v6:
            ip = IPv6(src=self.src, dst=self.dst, fl=self.flow_label, hlim=self.hlim)
        else:
            df = self.id_policy in ("fixed_df", "increment_df")
            ip = IP(src=self.src, dst=self.dst, ttl=self.ttl, tos=self.tos, id=self.next_id(),
                    flags="DF" if df else 0,
                    options=[IPOption_Router_Alert()] if ip_opts else [])
        payload = bytes((self.seq + i) & 0xFF for i in range(payload_len))
        return bytearray(bytes(Ether(src=SRC_MAC, dst=DST_MAC) / ip / tcp / payload))


def corrupt_tcp_csum(fr, v6):
    """A wrong TCP checksum, also when fr's was wrong already (a copy of a
    corrupted segment must stay corrupted)."""
    p = Ether(bytes(fr))
    del p[TCP].chksum
    good = Ether(bytes(p))[TCP].chksum
    l4 = 14 + (40 if v6 else (fr[14] & 0xF) * 4)
    # low byte only: never turns 0x0000 into 0xFFFF, its ones' complement twin
    fr[l4 + 16:l4 + 18] = (good ^ 0x5A).to_bytes(2, "big")


def corrupt_ip_csum(fr):
    fr[25] ^= 0x5A


def set_ip_reserved(fr):
    """The IPv4 reserved flag bit (RFC 791; "evil", RFC 3514) set and the
    header checksum made right again: Linux only flush-marks such a packet
    (inet_gro_receive: flush |= id & ~IP_DF), so its flow is looked up."""
    p = Ether(bytes(fr))
    p[IP].flags = int(p[IP].flags) | 0x4
    del p[IP].chksum
    fr[:] = bytes(p)
    return fr


def flow_frames(rng, f, n):
    """Up to n frames of flow f, in the flow's own send order."""
    out = []
    fin = n > 1 and rng.random() < 0.3
    while len(out) < n - fin:
        kinds = [k for k in KINDS if not ((k in V4_ONLY and f.v6) or (k in V6_ONLY and not f.v6))]
        k = rng.choices(kinds, [KINDS[x] for x in kinds])[0]
        if (k in ("retransmit", "dup_bad_tcp_csum", "dup_ip_options", "dup_ip_reserved")
                and not f.sent) or (k == "ooo" and len(out) + 2 > n - fin) \
                or (k == "ts_change" and not f.ts):
            k = "data"
        f.kinds.append(k)
        if k == "pure_ack":
            f.ack = (f.ack + rng.choice((0, 1448, 2896))) & 0xFFFFFFFF
            out.append((f.frame(0), k))
            continue
        if k == "dup_bad_tcp_csum":
            # A copy of the latest segment that GRO must not merge and that
            # takes no new sequence space: the next in-order segment can
            # still join the aggregate held before it.
            fr = bytearray(f.sent[-1])
            corrupt_tcp_csum(fr, f.v6)
            out.append((fr, k))
            continue
        if k == "dup_ip_options":
            p = Ether(f.sent[-1])
            p[IP].options = [IPOption_Router_Alert()]
            del p[IP].ihl, p[IP].len, p[IP].chksum, p[TCP].chksum
            out.append((bytearray(bytes(p)), k))
            continue
        if k == "dup_ip_reserved":
            out.append((set_ip_reserved(bytearray(f.sent[-1])), k))
            continue
        if k == "retransmit":
            out.append((bytearray(rng.choice(f.sent[-4:])), k))
            continue
        if k == "ooo":
            a = f.frame(f.mss, seq=(f.seq + f.mss) & 0xFFFFFFFF)
            b = f.frame(f.mss)
            f.seq = (f.seq + 2 * f.mss) & 0xFFFFFFFF
            out += [(a, "ooo_later_first"), (b, "ooo_earlier_second")]
            f.sent += [bytes(a), bytes(b)]
            continue
        if k == "ts_change":
            f.ts[0] = (f.ts[0] + rng.choice((1, 4, 1000))) & 0xFFFFFFFF
        elif k == "ack_change":
            f.ack = (f.ack + 1448) & 0xFFFFFFFF
        elif k == "window_change":
            f.window = rng.choice((501, 503, 1024, 65535))
        elif k == "ipid_jump":
            f.ip_id = (f.ip_id + rng.choice((2, 100, 40000))) & 0xFFFF
        elif k == "ttl_change":
            f.ttl = 63 if f.ttl == 64 else 64
        elif k == "tos_change":
            f.tos = 0x10 if f.tos == 0 else 0
        elif k == "flow_label_change":
            f.flow_label = (f.flow_label + 1) & 0xFFFFF
        elif k == "hlim_change":
            f.hlim = 63 if f.hlim == 64 else 64
        size = f.mss
        if k == "short":
            size = rng.randrange(1, f.mss)
        flags = {"psh": "PA", "cwr": "CA"}.get(k, "A")
        fr = f.frame(size, flags=flags, ip_opts=(k == "ip_options"))
        if k == "ip_reserved":
            set_ip_reserved(fr)
        elif k == "bad_tcp_csum":
            corrupt_tcp_csum(fr, f.v6)
        elif k == "bad_ip_csum":
            corrupt_ip_csum(fr)
        f.seq = (f.seq + size) & 0xFFFFFFFF
        out.append((fr, k))
        f.sent.append(bytes(fr))
    if fin:
        # The flow ends with a data segment carrying FIN.
        f.kinds.append("fin")
        out.append((f.frame(rng.randrange(1, f.mss + 1), flags="FA"), "fin"))
    return [(bytes(fr), "flow %d %s" % (f.idx, k)) for fr, k in out]


def interleave(rng, lists, trains=True):
    """Merge the flows, keeping each flow's order: trains or single frames."""
    out, lists = [], [list(x) for x in lists if x]
    train = trains and rng.random() < 0.5
    while lists:
        i = rng.randrange(len(lists))
        take = rng.randint(1, 6) if train else 1
        out += lists[i][:take]
        del lists[i][:take]
        lists = [x for x in lists if x]
    return out


def sequence(seed, idx):
    """(frames, description, labels) of sequence idx: labels[i] names the
    flow and the step kind that made frames[i]."""
    rng = random.Random("%d/%d" % (seed, idx))
    nflows = rng.choice((1, 1, 2, 3, 4, 4, 0, 0))
    many = nflows == 0
    if many:
        # More flows than one GRO bucket holds (MAX_GRO_SKBS 8,
        # net/core/gro.c): frames without a hash all share bucket 0.
        nflows = rng.randint(9, 12)
    total = rng.randint(max(8, 2 * nflows), MAX_FRAMES)
    flows = [Flow(rng, i) for i in range(nflows)]
    shares = [total // nflows + (1 if i < total % nflows else 0) for i in range(nflows)]
    items = interleave(rng, [flow_frames(rng, f, n) for f, n in zip(flows, shares)], trains=not many)
    desc = []
    for i, f in enumerate(flows):
        ip = "ipv6" if f.v6 else "ipv4 id=%s" % f.id_policy
        desc.append("flow %d: %s mss=%d ts=%s: %s" % (i, ip, f.mss, "yes" if f.ts else "no",
                                                     " ".join(f.kinds)))
    return [fr for fr, _ in items], desc, [lb for _, lb in items]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--count", type=int, default=50)
    a = ap.parse_args()
    if a.count < 1:
        ap.error("--count %d: must be >= 1" % a.count)
    os.makedirs(a.outdir, exist_ok=True)
    for i in range(a.count):
        frames, desc, labels = sequence(a.seed, i)
        base = os.path.join(a.outdir, "seq_%03d" % i)
        tpgen.write_pcap(base + ".pcap", frames)
        with open(base + ".txt", "w") as f:
            f.write("%d frames\n%s\n" % (len(frames), "\n".join(desc)))
            for j, lb in enumerate(labels):
                f.write("frame %d: %s\n" % (j, lb))


if __name__ == "__main__":
    main()
