#!/usr/bin/python3
"""tagpipe's tunnel and UDP GRO against the running kernel's, frame for frame.

usage: compare_encap.py --replay PATH/tagpipe-replay [--seed S] [--count N]
                        [--kinds K,K] [--save DIR] [--verbose]

For each sequence of gen_encap.py: the kernel's output (kernel_gro.py: veth +
netns, one NAPI poll, with two collect-metadata VXLAN devices on UDP ports
4789 and 8472 in the receiving namespace and rx-udp-gro-forwarding on) and
tagpipe-replay's (--gro burst --gro-order kernel --gro-tunnels
vxlan:4789+8472,ipip --gro-udp --burst 64), then every frame compared, order
included. Prints per kind the sequences, identical ones, input frames and the
kernel's aggregates, then "N sequences, N identical, N differ".

Normalised, as compare.py does for plain TCP (everything else byte for byte):
in an aggregate (the kernel's virtio_net_hdr says GSO) the checksum fields
that hold a pseudo-header seed: the innermost TCP or UDP checksum, and a
non-zero outer UDP checksum of VXLAN. The kernel stores the folded sum WITH
the length (tcp4/6_gro_complete, udp4/6_gro_complete in
net/ipv4/udp_offload.c and net/ipv6/udp_offload.c: ~udp_v4_check(len, ..., 0)),
tp_gro WITHOUT it (lib/gro/tp_gro.h). Each side is checked against its rule,
then both count as equal. IPv4 header checksums 0x0000 and 0xFFFF are equal
when both verify (inet_gro_complete updates incrementally).

Exit status: 0 all identical, 1 any difference, 77 without namespaces/veth/VXLAN.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "gen"))
import tpgen  # noqa: E402
import gen_encap  # noqa: E402
import kernel_gro  # noqa: E402
import encap_frames as ef  # noqa: E402

SKIP = 77
BURST = gen_encap.MAX_FRAMES


def segments(frame, gso_size):
    if not gso_size:
        return 1
    n = ef.payload_len(frame)
    if not n:
        raise RuntimeError("GSO frame without L4 payload")
    return (n + gso_size - 1) // gso_size


def normalise(raw, aggregate, with_length, who, problems):
    """raw with the seeds of an aggregate checked and blanked."""
    b = bytearray(raw)
    if not aggregate:
        return bytes(b)
    for field, ipoff, v6, proto, l4len in ef.seeds(raw):
        want = ef.pseudo(raw, ipoff, v6, proto, l4len if with_length else None)
        got = raw[field] << 8 | raw[field + 1]
        if got != want:
            problems.append("%s seed at %d is 0x%04x, want 0x%04x" % (who, field, got, want))
        b[field:field + 2] = b"SS"
    for off, hl in ef.ipv4_headers(raw):
        if ef.csum16(bytes(raw[off:off + hl])) != 0xFFFF:
            problems.append("%s IPv4 header at %d does not verify" % (who, off))
        b[off + 10:off + 12] = b"II"
    return bytes(b)


def kernel_has_vlan_gro():
    """vlan_gro_receive is net/8021q/vlan_core.c's, built with CONFIG_VLAN_8021Q:
    without it the kernel merges no frame with an in-frame tag."""
    try:
        import gzip
        with gzip.open("/proc/config.gz", "rt") as f:
            return any(line.startswith("CONFIG_VLAN_8021Q=") for line in f)
    except OSError:
        return False


def run_replay(replay, pin, pout, n):
    cmd = [replay, "--no-huge", "--no-shconf", "-m", "256", "-l", "0", "--no-pci",
           "--file-prefix=tp_kgro_encap_%d_%d" % (os.getpid(), n), "--",
           "-i", pin, "--burst", str(BURST), "--gro", "burst", "--gro-order", "kernel",
           "--gro-tunnels", "vxlan:4789+8472,ipip", "--gro-udp", "--gro-csum", "verify",
           "--vlan", "keep", "--write", "pass=" + pout]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return tpgen.read_pcap(pout)[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--replay", required=True)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--count", type=int, default=48)
    ap.add_argument("--kinds", default=",".join(gen_encap.KINDS))
    ap.add_argument("--save", metavar="DIR")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    kinds = tuple(a.kinds.split(","))
    work = a.save or tempfile.mkdtemp(prefix="tp_kgro_encap_")
    os.makedirs(work, exist_ok=True)
    per = {k: [0, 0, 0, 0] for k in kinds}   # sequences, identical, frames in, kernel aggregates
    tags = kernel_has_vlan_gro()
    if not tags:
        print("NOTE: this kernel has no VLAN GRO (CONFIG_VLAN_8021Q): sequences without "
              "in-frame 802.1Q tags")
    identical, differ = 0, []
    total_in = total_agg = 0
    try:
        with kernel_gro.KernelGro(vxlan_ports=ef.VXLAN_PORTS, udp_fwd=True, segments=segments) as k:
            for i in range(a.count):
                # every kind gets its turn (sequence i: kind i % len(kinds)),
                # one round in four mixes kinds
                frames, desc, labels = gen_encap.sequence(a.seed, i, (kinds[i % len(kinds)],)
                                                          if (i // len(kinds)) % 4 != 3 else kinds,
                                                          tags)
                name = "encap_%03d" % i
                pin = os.path.join(work, name + ".pcap")
                tpgen.write_pcap(pin, frames)
                kout = k.run(frames)
                if k.run(frames) != kout:
                    raise RuntimeError("%s: two kernel runs differ" % name)
                tpgen.write_pcap(os.path.join(work, name + ".kernel.pcap"), [f for f, _ in kout])
                tout = run_replay(a.replay, pin, os.path.join(work, name + ".tagpipe.pcap"), i)
                lines = []
                if len(kout) != len(tout):
                    lines.append("kernel %d frames, tagpipe %d" % (len(kout), len(tout)))
                for j, ((kf, g), tf) in enumerate(zip(kout, tout)):
                    probs = []
                    kn = normalise(kf, g > 0, True, "kernel", probs)
                    tn = normalise(tf, g > 0, False, "tagpipe", probs)
                    if kn != tn:
                        d = next(x for x in range(min(len(kn), len(tn)) + 1)
                                 if x >= min(len(kn), len(tn)) or kn[x] != tn[x])
                        probs.append("bytes differ from offset %d (kernel %d bytes gso %d, tagpipe "
                                     "%d bytes)" % (d, len(kf), g, len(tf)))
                    if probs:
                        lines.append("frame %d: %s" % (j, "; ".join(probs)))
                kind_names = desc[0].split(": ")[1].split(",")
                total_in += len(frames)
                total_agg += sum(1 for _, g in kout if g)
                for kn_ in set(kind_names):
                    if kn_ in per:
                        per[kn_][0] += 1
                        per[kn_][1] += not lines
                        per[kn_][2] += len(frames)
                        per[kn_][3] += sum(1 for _, g in kout if g)
                if not lines:
                    identical += 1
                    continue
                differ.append(name)
                print("%s (%d frames; %s) differs:" % (name, len(frames), "; ".join(desc)))
                for line in lines[:8]:
                    print("  " + line)
                if a.verbose:
                    for j, lab in enumerate(labels):
                        print("    in #%d %s" % (j, lab))
                    for j, (f, g) in enumerate(kout):
                        print("    kernel #%d len %d gso %d" % (j, len(f), g))
                    for j, f in enumerate(tout):
                        print("    tagpipe #%d len %d" % (j, len(f)))
    except kernel_gro.SetupError as e:
        print("SKIP: %s" % e)
        return SKIP
    print("%-8s %9s %9s %9s %17s" % ("kind", "sequences", "identical", "frames_in", "kernel_aggregates"))
    for kname, (s, ok, fin, agg) in per.items():
        print("%-8s %9d %9d %9d %17d" % (kname, s, ok, fin, agg))
    print("(a sequence that mixes kinds counts for each)")
    print("all: %d frames in, %d kernel aggregates" % (total_in, total_agg))
    print("%d sequences, %d identical, %d differ" % (a.count, identical, len(differ)))
    return 0 if not differ else 1


if __name__ == "__main__":
    sys.exit(main())
