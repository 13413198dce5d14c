#!/usr/bin/python3
"""tagpipe's GRO against the running kernel's GRO, frame for frame.

usage: compare.py --replay PATH/tagpipe-replay [--gro-order kernel|flow]
                  [--seed S] [--count N] [--repeat R] [--save DIR] [--verbose]

For each sequence of gen_sequences.py: the kernel's output (kernel_gro.py,
veth + netns, one NAPI poll) and tagpipe-replay's output
(--gro burst --burst 64 --gro-csum verify --vlan keep --write pass=...), both
from the same input pcap; then every output frame compared field by field,
order included. Prints "N sequences, N identical, N differ" and, for each
difference, which frame and which fields.

Exit status: 0 all identical, 1 any difference (or a failure), 77 when the
namespaces/veth cannot be created (kernel_gro.SetupError).

What is normalised, and why (everything else is compared byte for byte):
 - the TCP checksum of a GRO aggregate. The kernel leaves a merged skb
   CHECKSUM_PARTIAL: tcp4_gro_complete()/tcp6_gro_complete()
   (net/ipv4/tcp_offload.c, net/ipv6/tcpv6_offload.c) store in th->check the
   folded, uncomplemented pseudo-header sum INCLUDING the TCP length, for
   whoever completes it (TSO or skb_checksum_help()). tp_gro stores the
   pseudo-header sum WITHOUT the length, what DPDK's TSO expects
   (lib/gro/tp_gro.h, "OUTPUT FORMAT"). Neither is the packet's checksum;
   both are seeds of a checksum still to be computed. So each side's field
   is checked against its own documented seed, a wrong seed is a difference,
   and then both are compared as equal.
 - the IPv4 header checksum of an aggregate. The kernel updates it
   incrementally (inet_gro_complete(), net/ipv4/af_inet.c, csum_replace2()),
   tp_gro recomputes it; both must verify, and with identical headers they
   are the same number except that ones' complement has two zeros, so a
   0x0000/0xFFFF difference where both verify is not a difference.
A frame is an aggregate when the kernel says so: the receiving packet
socket's virtio_net_hdr carries gso_type TCPV4/TCPV6 and gso_size
(net/packet/af_packet.c, virtio_net_hdr_from_skb()); a one-segment "aggregate"
is delivered untouched with gso_size 0 (napi_gro_complete(), net/core/gro.c).
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "gen"))
import tpgen  # noqa: E402
import gen_sequences  # noqa: E402
import kernel_gro  # noqa: E402

from scapy.all import Ether, IP, IPv6, TCP  # noqa: E402

SKIP = 77
BURST = gen_sequences.MAX_FRAMES  # one tagpipe burst = one kernel NAPI poll


def csum16(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


class Frame:
    """The header fields and payload of one output frame."""

    def __init__(self, raw, gso_size=None):
        self.raw = bytes(raw)
        self.gso_size = gso_size
        p = Ether(self.raw)
        self.eth = (p.dst, p.src, p.type)
        self.ip = p.getlayer(IP) or p.getlayer(IPv6)
        self.tcp = p.getlayer(TCP)
        self.fields = {"eth": "%s > %s type 0x%04x" % self.eth, "frame_len": len(self.raw)}
        if self.ip is None or self.tcp is None:
            self.fields["bytes"] = self.raw.hex()
            return
        ip, t = self.ip, self.tcp
        self.l3 = len(self.raw) - len(bytes(ip))
        if isinstance(ip, IP):
            f = {"ip.tos": ip.tos, "ip.len": ip.len, "ip.id": ip.id, "ip.flags+frag": "%s/%d" % (ip.flags, ip.frag),
                 "ip.ttl": ip.ttl, "ip.proto": ip.proto, "ip.chksum": ip.chksum,
                 "ip.addrs": "%s > %s" % (ip.src, ip.dst), "ip.options": bytes(self.raw[self.l3 + 20:self.l3 + ip.ihl * 4]).hex()}
            self.l4 = self.l3 + ip.ihl * 4
        else:
            f = {"ip6.tc": ip.tc, "ip6.fl": ip.fl, "ip6.plen": ip.plen, "ip6.nh": ip.nh, "ip6.hlim": ip.hlim,
                 "ip6.addrs": "%s > %s" % (ip.src, ip.dst)}
            self.l4 = len(self.raw) - len(bytes(t))
        f.update({"tcp.ports": "%d > %d" % (t.sport, t.dport), "tcp.seq": t.seq, "tcp.ack": t.ack,
                  "tcp.doff": t.dataofs, "tcp.flags": str(t.flags), "tcp.window": t.window,
                  "tcp.chksum": t.chksum, "tcp.urgptr": t.urgptr,
                  "tcp.options": bytes(self.raw[self.l4 + 20:self.l4 + t.dataofs * 4]).hex()})
        pl = bytes(t.payload)
        f["payload.len"] = len(pl)
        f["payload.sha1"] = hashlib.sha1(pl).hexdigest()[:12]
        f["trailer"] = self.raw[self.l4 + len(bytes(t)):].hex()
        self.fields.update(f)

    def tcp_len(self):
        return len(self.raw) - self.l4 - len(bytes.fromhex(self.fields["trailer"]))

    def pseudo_sum(self, with_length):
        """Folded pseudo-header sum (RFC 9293 3.1, RFC 8200 8.1), uncomplemented."""
        ip = self.ip
        if isinstance(ip, IP):
            ph = self.raw[self.l3 + 12:self.l3 + 20] + bytes([0, 6])
        else:
            ph = self.raw[self.l3 + 8:self.l3 + 40] + bytes([0, 0, 0, 6])
        if with_length:
            ph += self.tcp_len().to_bytes(4 if not isinstance(ip, IP) else 2, "big")
        return csum16(ph)

    def ip_csum_ok(self):
        return isinstance(self.ip, IP) and csum16(self.raw[self.l3:self.l3 + self.ip.ihl * 4]) == 0xFFFF

    def summary(self):
        if self.tcp is None:
            return "non-TCP %d bytes" % len(self.raw)
        f = self.fields
        return "%s %s seq=%d len=%d flags=%s%s" % (f.get("ip.addrs", f.get("ip6.addrs")), f["tcp.ports"],
                                                 f["tcp.seq"], f["payload.len"], f["tcp.flags"],
                                                 " gso=%d" % self.gso_size if self.gso_size else "")


def compare_frames(k, t):
    """Differences between kernel frame k and tagpipe frame t, as strings."""
    diffs = []
    kf, tf = dict(k.fields), dict(t.fields)
    # Only when both frames are the same aggregate (same segment, same size)
    # are both checksum fields seeds; otherwise they are compared as they are.
    if k.gso_size and k.tcp is not None and t.tcp is not None \
            and all(kf.get(x) == tf.get(x) for x in ("tcp.ports", "tcp.seq", "payload.len")):
        want_k = k.pseudo_sum(with_length=True)
        if kf["tcp.chksum"] != want_k:
            diffs.append("kernel aggregate tcp.chksum 0x%04x is not its pseudo-header seed 0x%04x"
                         % (kf["tcp.chksum"], want_k))
        want_t = t.pseudo_sum(with_length=False)
        if tf["tcp.chksum"] != want_t:
            diffs.append("tagpipe aggregate tcp.chksum 0x%04x is not its documented seed "
                         "(pseudo-header without length) 0x%04x" % (tf["tcp.chksum"], want_t))
        kf["tcp.chksum"] = tf["tcp.chksum"] = "seed"
        if "ip.chksum" in kf and "ip.chksum" in tf and kf["ip.chksum"] != tf["ip.chksum"] \
                and k.ip_csum_ok() and t.ip_csum_ok() and {kf["ip.chksum"], tf["ip.chksum"]} == {0, 0xFFFF}:
            kf["ip.chksum"] = tf["ip.chksum"] = "valid"
    for name in list(dict.fromkeys(list(kf) + list(tf))):
        a, b = kf.get(name), tf.get(name)
        if a != b:
            fmt = (lambda v: "0x%04x" % v) if name.endswith("chksum") and isinstance(a, int) and isinstance(b, int) \
                else str
            diffs.append("%s kernel=%s tagpipe=%s" % (name, fmt(a), fmt(b)))
    return diffs


def order_key(f):
    """A frame without its TCP checksum field (a seed in aggregates)."""
    return f.raw[:f.l4 + 16] + f.raw[f.l4 + 18:] if f.tcp is not None else f.raw


def classify(kernel, tagpipe):
    """'order' when the same frames come out in another order, else 'merge'."""
    return "order" if sorted(map(order_key, kernel)) == sorted(map(order_key, tagpipe)) else "merge"


def flow_of(f):
    """The kernel's flow identity: addresses, ports and, for IPv6, the flow
    label (ipv6_gro_receive(), net/ipv6/ip6_offload.c, takes a different
    label for a different flow; MAC headers are all equal here)."""
    return (f.fields.get("ip.addrs", f.fields.get("ip6.addrs")), f.fields.get("ip6.fl"),
            f.fields.get("tcp.ports"))


def input_map(inputs, outputs):
    """For each output frame, the indices of the input frames it holds: the
    very same bytes, or else a chain of the flow's unused inputs that starts
    at its sequence number and covers its payload."""
    used, res = set(), []
    for o in outputs:
        same = [i for i, f in enumerate(inputs) if i not in used and f.raw == o.raw]
        if same or o.tcp is None:
            res.append(same[:1])
            used.update(same[:1])
            continue
        chain, seq, left = [], o.fields["tcp.seq"], o.fields["payload.len"]
        while left > 0:
            nxt = next((i for i, f in enumerate(inputs) if i not in used and f.tcp is not None
                        and flow_of(f) == flow_of(o) and f.fields["tcp.seq"] == seq
                        and 0 < f.fields["payload.len"] <= left), None)
            if nxt is None:
                break
            chain.append(nxt)
            used.add(nxt)
            seq = (seq + inputs[nxt].fields["payload.len"]) & 0xFFFFFFFF
            left -= inputs[nxt].fields["payload.len"]
        res.append(chain)
    return res


def describe_inputs(idx, labels):
    if not idx:
        return "inputs ?"
    kinds = sorted(set(labels[i].split(" ", 2)[2] for i in idx))
    return "input%s #%s (%s, %s)" % ("s" if len(idx) > 1 else "", ",".join(map(str, idx)),
                                     labels[idx[0]].rsplit(" ", 1)[0] if labels[idx[0]].count(" ") >= 2
                                     else labels[idx[0]], "+".join(kinds))


def splits(kmap, tmap, inputs, labels):
    """Aggregates of the kernel that tagpipe delivers in pieces (or the
    reverse), each with the same-flow input frames that arrived in between."""
    ks, ts = set(map(tuple, kmap)), set(map(tuple, tmap))
    out = []
    for whole_set, part_set, who in ((ks - ts, ts - ks, "kernel"), (ts - ks, ks - ts, "tagpipe")):
        other = "tagpipe" if who == "kernel" else "kernel"
        for g in sorted(whole_set):
            parts = [p for p in part_set if p and set(p) <= set(g)]
            if len(parts) < 2 or sorted(sum(parts, ())) != sorted(g):
                continue
            between = [i for i in range(min(g), max(g)) if i not in g
                       and flow_of(inputs[i]) == flow_of(inputs[g[0]])]
            out.append(("%s merges inputs #%s into one frame, %s delivers %s; same-flow inputs in "
                        "between: %s" % (who, ",".join(map(str, g)), other,
                                         " + ".join("#" + ",".join(map(str, p)) for p in sorted(parts)),
                                         ", ".join("#%d %s" % (i, labels[i].split(" ", 2)[2]) for i in between)
                                         or "none"),
                        [labels[i].split(" ", 2)[2] for i in between]))
    return out


def overtakes(kf, tf):
    """Pairs (a, b) of kernel frame indices where the kernel delivers a
    before b and tagpipe delivers b before a; only meaningful for 'order'."""
    pos, taken = [], set()
    for f in kf:
        j = next(j for j, g in enumerate(tf) if j not in taken and order_key(g) == order_key(f))
        taken.add(j)
        pos.append(j)
    pairs = []
    for a in range(len(kf)):
        for b in range(a + 1, len(kf)):
            if pos[a] > pos[b]:
                pairs.append((a, b))
    return pairs


def replay_has(replay, option):
    p = subprocess.run([replay, "--help"], capture_output=True, text=True)
    return option in p.stdout + p.stderr


def run_replay(replay, pcap_in, pcap_out, order, n):
    cmd = [replay, "--no-huge", "--no-shconf", "-m", "256", "-l", "0", "--no-pci",
           "--file-prefix=tp_kgro_%d_%d" % (os.getpid(), n), "--",
           "-i", pcap_in, "--burst", str(BURST), "--gro", "burst", "--gro-csum", "verify",
           "--vlan", "keep", "--write", "pass=" + pcap_out]
    if order:
        cmd[cmd.index("--gro") + 2:cmd.index("--gro") + 2] = ["--gro-order", order]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return tpgen.read_pcap(pcap_out)[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--replay", required=True, help="path of tagpipe-replay")
    ap.add_argument("--gro-order", choices=["kernel", "flow"], default=None,
                    help="passed to tagpipe-replay (omitted: its default order)")
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=2,
                    help="kernel runs per sequence that must agree (default 2)")
    ap.add_argument("--save", metavar="DIR", help="keep input, kernel and tagpipe pcaps here")
    ap.add_argument("--verbose", action="store_true", help="list both outputs of differing sequences")
    a = ap.parse_args()
    if a.count < 1 or a.repeat < 1:
        ap.error("--count and --repeat must be >= 1")
    if not os.access(a.replay, os.X_OK):
        ap.error("--replay %s: not an executable" % a.replay)
    order = a.gro_order
    if order and not replay_has(a.replay, "--gro-order"):
        print("NOTE: %s has no --gro-order yet: running its default order "
              "(asked for %s)" % (a.replay, order))
        order = None

    work = a.save or tempfile.mkdtemp(prefix="tp_kgro_")
    os.makedirs(work, exist_ok=True)
    identical, differ, kinds, overtakers, across = 0, [], {}, {}, {}
    try:
        with kernel_gro.KernelGro() as oracle:
            for i in range(a.count):
                name = "seq_%03d" % i
                frames, desc, labels = gen_sequences.sequence(a.seed, i)
                pin = os.path.join(work, name + ".pcap")
                tpgen.write_pcap(pin, frames)
                kout = oracle.run(frames)
                for r in range(1, a.repeat):
                    if oracle.run(frames) != kout:
                        raise RuntimeError("%s: kernel run %d differs from run 1: the oracle is not "
                                           "deterministic here (see README.md)" % (name, r + 1))
                tpgen.write_pcap(os.path.join(work, name + ".kernel.pcap"), [f for f, _ in kout])
                tout = run_replay(a.replay, pin, os.path.join(work, name + ".tagpipe.pcap"), order, i)
                kf = [Frame(f, g) for f, g in kout]
                tf = [Frame(f) for f in tout]
                lines = []
                if len(kf) != len(tf):
                    lines.append("kernel %d frames, tagpipe %d" % (len(kf), len(tf)))
                for j in range(min(len(kf), len(tf))):
                    d = compare_frames(kf[j], tf[j])
                    if d:
                        lines.append("frame %d: %s" % (j, "; ".join(d)))
                if not lines:
                    identical += 1
                    continue
                kind = classify(kf, tf) if len(kf) == len(tf) else "merge"
                kinds[kind] = kinds.get(kind, 0) + 1
                differ.append(name)
                inf = [Frame(f) for f in frames]
                kmap, tmap = input_map(inf, kf), input_map(inf, tf)
                print("%s (%d frames in; %s) differs [%s]:" % (name, len(frames), "; ".join(desc), kind))
                if kind == "order":
                    other = 0
                    for x, y in overtakes(kf, tf):
                        if flow_of(kf[x]) != flow_of(kf[y]):
                            # Mostly a consequence: the aggregate tagpipe
                            # completed early also went out ahead of other
                            # flows' frames; with more than 8 held skbs the
                            # kernel's bucket limit reorders flows too.
                            other += 1
                            continue
                        lx = labels[kmap[x][0]] if kmap[x] else "? ?"
                        why = lx.split(" ", 2)[2] if lx.count(" ") >= 2 else lx
                        overtakers[why] = overtakers.get(why, 0) + 1
                        print("  kernel delivers %s before %s of the same flow; tagpipe the other way round"
                              % (describe_inputs(kmap[x], labels), describe_inputs(kmap[y], labels)))
                    if other:
                        print("  and %d pairs of frames of different flows in the other order" % other)
                for ln in lines[:12 if a.verbose else 4]:
                    print("  " + ln)
                if len(lines) > (12 if a.verbose else 4):
                    print("  ... %d more frame differences" % (len(lines) - (12 if a.verbose else 4)))
                if kind == "merge":
                    for text, between in splits(kmap, tmap, inf, labels):
                        print("  " + text)
                        for b in set(between) or ["no same-flow frame (other flows only)"]:
                            across[b] = across.get(b, 0) + 1
                if a.verbose:
                    for j in range(max(len(kf), len(tf))):
                        ks = "%s <- %s" % (kf[j].summary(), describe_inputs(kmap[j], labels)) if j < len(kf) else "-"
                        ts = "%s <- %s" % (tf[j].summary(), describe_inputs(tmap[j], labels)) if j < len(tf) else "-"
                        print("  %2d kernel:  %s\n     tagpipe: %s" % (j, ks, ts))
    except kernel_gro.SetupError as e:
        print("SKIP: %s" % e)
        return SKIP
    finally:
        if not a.save:
            shutil.rmtree(work, ignore_errors=True)
    print("%d sequences, %d identical, %d differ%s" % (
        a.count, identical, len(differ),
        "" if not differ else " (%s)" % ", ".join("%d %s" % (v, k) for k, v in sorted(kinds.items()))))
    if overtakers:
        print("same-flow frames the kernel delivers ahead of a held aggregate, by the input step that made them: %s"
              % ", ".join("%s %d" % kv for kv in sorted(overtakers.items(), key=lambda kv: -kv[1])))
    if across:
        print("aggregates merged by one side only, by the kind of same-flow input between the pieces: %s"
              % ", ".join("%s %d" % kv for kv in sorted(across.items(), key=lambda kv: -kv[1])))
    print("tagpipe order: %s" % (order or "default"))
    return 0 if not differ else 1


if __name__ == "__main__":
    sys.exit(main())
