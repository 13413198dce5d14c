#!/usr/bin/python3
"""Write the fuzz targets' seed corpora (tests/fuzz/corpus/<target>/).

usage: gen_corpus.py [OUTDIR]   (default: the corpus/ beside this file)
       gen_corpus.py --check      (exit 1 if the committed corpus differs)
Deterministic: the seeds are the committed captures' frames (pcaps/tags,
pcaps/gro, pcaps/demo.pcap) and a few hand-built edge frames, laid out as
each target reads its input (tests/fuzz/fuzz.h). Rerun after changing a
target's input layout; commit the result.
"""
import glob
import os
import struct
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gen"))
import tpgen  # noqa: E402

SRC = os.path.join(HERE, "..", "..")
COMMITTED = os.path.join(HERE, "corpus")
OUT = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "--check" else COMMITTED


def burst(frames, split=None):
    """fuzz.h burst layout: [flags][len_hi][len_lo][bytes] per frame."""
    b = b""
    for i, fr in enumerate(frames):
        flags = 0
        if split is not None and i % 2 == 1:
            flags = 1 | (split << 1)
        b += struct.pack(">BH", flags, len(fr)) + fr
    return b


def frames_of(path, limit=8):
    return tpgen.read_pcap(path)[1][:limit]


def write(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# Edge frames: empty, 1 byte, a bare Ethernet header, a minimum frame.
EDGE = [b"", b"\x01", bytes(range(14)), bytes(60)]


def dsa():
    for path in sorted(glob.glob(os.path.join(SRC, "pcaps", "tags", "*.pcap"))):
        base = os.path.basename(path)[:-5]
        if ".expected" in base:
            continue
        bad = base.startswith("bad_")
        tagger = base[4:] if bad else base
        fr = frames_of(path)
        write("dsa", base, tagger.encode() + b"\0" + bytes([0, 3]) + burst(fr))
        if not bad:
            # Chained, CPU port given, switch-side decode.
            write("dsa", base + "_chain", tagger.encode() + b"\0" + bytes([0x23, 1]) +
                  burst(fr, split=64))
            write("dsa", base + "_sw", tagger.encode() + b"\0" + bytes([1, 2]) + burst(fr[:2]))
    write("dsa", "edge", b"ksz9477\0" + bytes([0, 0]) + burst(EDGE))
    vlan_split()


def vlan_split():
    """Regressions (libFuzzer finds): a frame whose 802.1Q header straddles
    its two segments once the RX tag is gone (16 or 17 bytes in the first).
    dsa, edsa and mtk TX used to rewrite that header into their tag in
    place, which the switch-side decode then refused (tag_not_contiguous):
    the strip(insert(f)) round trip failed."""
    inner = b"\x00\x64\x08\x00" + bytes(46)  # TCI 100, IPv4, payload
    macs = bytes(range(1, 13))
    cases = (("dsa", b"\x00\x08\x00\x00", b"\x81\x00", 17),    # TO_CPU port 1
             ("edsa", b"\xda\xda\x00\x00\x00\x08\x00\x00", b"\x81\x00", 16),
             ("mtk", b"\x00\x01\x00\x00", b"\x88\xa8", 17))     # port 1
    for tagger, tag, tpid, first in cases:
        fr = macs + tag + tpid + inner
        seg = first + len(tag)                      # first segment on RX
        k = next(k for k in range(128) if len(fr) * k // 128 == seg)
        write("dsa", f"regress_{tagger}_vlan_split", tagger.encode() + b"\0" +
              bytes([0, 1]) + struct.pack(">BH", 1 | k << 1, len(fr)) + fr)


def vlan():
    fr = frames_of(os.path.join(SRC, "pcaps", "gro", "vlan_in.pcap"))
    for mode in range(4):
        write("vlan", f"vlan_mode{mode}", bytes([mode, 0x20, 0x05]) + burst(fr))
    qinq = bytes(12) + b"\x88\xa8\x00\x0a\x81\x00\x00\x14\x81\x00\x00\x1e\x08\x00" + bytes(46)
    write("vlan", "three_tags", bytes([0, 0, 1]) + burst([qinq], split=5))
    write("vlan", "edge", bytes([2, 0xff, 0xff]) + burst(EDGE + [bytes(12) + b"\x81\x00"]))


def gro():
    """[conf][conf2: tunnels | udp << 2] + burst (fuzz_gro.c)."""
    for name in ("bulk4_in", "bulk6_in", "big_in", "vlan_in"):
        path = os.path.join(SRC, "pcaps", "gro", name + ".pcap")
        if os.path.exists(path):
            fr = frames_of(path, 24)
            write("gro", name, bytes([0x08, 0]) + burst(fr))
            write("gro", name + "_kernel_verify", bytes([0x17, 0]) + burst(fr))
    write("gro", "demo", bytes([0x0f, 7]) + burst(frames_of(os.path.join(SRC, "pcaps", "demo.pcap"), 48)))
    write("gro", "edge", bytes([0, 7]) + burst(EDGE))
    gro_encap()


def gro_encap():
    """Tunnel and UDP seeds: gen_encap.py's sequences of every kind, and
    outer headers cut short, wrong lengths, nested tunnels, a non-IP inner
    frame (tests/gro/kernel/gen_encap.py builds them with scapy)."""
    sys.path.insert(0, os.path.join(HERE, "..", "gro", "kernel"))
    import gen_encap  # noqa: E402
    for i, kind in enumerate(gen_encap.KINDS):
        frames = gen_encap.sequence(7, i, (kind,))[0][:24]
        write("gro", "encap_" + kind, bytes([0x08, 7]) + burst(frames))
        write("gro", "encap_" + kind + "_kernel_chain", bytes([0x17, 7]) + burst(frames, split=70))
    from scapy.all import Ether, IP, IPv6, TCP, UDP, Raw  # noqa: E402
    from scapy.layers.vxlan import VXLAN  # noqa: E402
    inner = IP(src="10.0.0.1", dst="10.0.0.2") / TCP(sport=1, dport=2, flags="A") / Raw(bytes(100))
    # untagged, outer IPv4 at 14, UDP at 34 (offsets the cuts below rely on)
    mac = dict(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")
    vx = bytes(Ether(**mac) / IP(src="192.0.2.1", dst="198.51.100.1") / UDP(sport=5, dport=4789) /
               VXLAN(vni=7) / Ether(**mac) / inner)
    ip6 = bytes(Ether(**mac) / IPv6(src="2001:db8::1", dst="2001:db8::2") /
                IPv6(src="2001:db8::3", dst="2001:db8::4") / TCP(sport=1, dport=2, flags="A") /
                Raw(bytes(100)))
    cuts = [vx[:n] for n in (20, 34, 40, 42, 49, 50, 57, 63, 64, 70, 83, 90)] + \
        [ip6[:n] for n in (54, 60, 93, 94, 100)]
    write("gro", "encap_truncated", bytes([0x08, 7]) + burst(cuts))
    bad = []
    for delta in (-30, -1, 1, 40):                       # outer IPv4 total length
        f = bytearray(vx)
        tot = (f[16] << 8 | f[17]) + delta
        f[16:18] = (tot & 0xFFFF).to_bytes(2, "big")
        bad.append(bytes(f))
    for ulen in (0, 7, 8, 100, 0xFFFF):                  # outer UDP length
        f = bytearray(vx)
        f[38:40] = ulen.to_bytes(2, "big")
        bad.append(bytes(f))
    f = bytearray(ip6)
    f[18:20] = b"\xff\xff"                                # outer IPv6 payload length
    bad.append(bytes(f))
    nested_vx = vx[:50] + vx                             # VXLAN in VXLAN
    nested_ipip = vx[:14] + vx[14:34] + vx[14:]          # (outer proto still UDP)
    ipip_in_ipip = bytearray(vx[:34]) + vx[14:34] + vx[64:]
    ipip_in_ipip[23] = 4
    arp_inner = vx[:62] + b"\x08\x06" + bytes(28)
    write("gro", "encap_bad_lengths", bytes([0x08, 7]) + burst(bad))
    write("gro", "encap_nested", bytes([0x17, 7]) + burst([nested_vx, nested_vx, nested_ipip,
                                                          bytes(ipip_in_ipip), arp_inner]))


def pcap():
    for path in (os.path.join(SRC, "pcaps", "demo.pcap"),
                 os.path.join(SRC, "pcaps", "gro", "vlan_in.pcap")):
        fr = frames_of(path, 4)
        write("pcap", os.path.basename(path), pcap_bytes(fr))
    write("pcap", "fcs", pcap_bytes([bytes(64)], linktype=0x24000001))
    write("pcap", "empty", pcap_bytes([]))
    write("pcap", "truncated", pcap_bytes([bytes(60)])[:-10])
    # Timestamps outside pcap-savefile(5): a fraction of 1 s or more is
    # carried into the seconds; 0xFFFFFFFF (-1 as libpcap reads it) refused.
    write("pcap", "ts_fraction_carry", pcap_bytes([bytes(60)], ts=[(1, 2500000)]))
    write("pcap", "ts_all_ones", pcap_bytes([bytes(60)], ts=[(0xFFFFFFFF, 0xFFFFFFFF)]))
    write("pcap", "big_endian", struct.pack(">IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1) +
          struct.pack(">IIII", 0, 0, 20, 20) + bytes(20))


def acl():
    rules = open(os.path.join(SRC, "pcaps", "pipeline", "acl_rules.txt"), "rb").read()
    fr = frames_of(os.path.join(SRC, "pcaps", "pipeline", "acl_input.pcap"), 16)
    write("acl", "acl_rules", struct.pack(">H", len(rules)) + rules + burst(fr))
    texts = {
        "redirect": b"redirect:7 icmp 10.0.0.0/8 any any any\nredirect:65535 any ::/0 any any any\n"
                    b"aborted 17 any any 1-2 3-4\ndefault tx\n",
        "bad_verdict": b"pass any any any any any\nredirect:65536 any any any any any\n",
        "bad_proto": b"drop tcpx any any any any\n",
        "bad_prefix": b"drop any 10.0.0.0/33 any any any\n",
        "bad_port": b"drop tcp any any 5-4 any\n",
        "bad_fields": b"drop tcp any any any any extra\n",
        "two_defaults": b"default pass\ndefault drop\n",
        "long_line": b"drop " + b" " * 1100 + b"any any any any any\n",
        # Regression (libFuzzer find): a NUL inside a line was reported as
        # "line longer than 1022 bytes".
        "nul_byte": b"redirect:7 icmp 10.0.0.\x00/8 any any any\ndefault drop\n",
        "no_newline": b"# comment\n\n\tdrop udp any any any 53",
    }
    for name, t in texts.items():
        write("acl", name, struct.pack(">H", len(t)) + t + burst(fr[:4]))


def bpf():
    """The tests/bpf programs as ELF objects (the loader's real input),
    DWARF stripped (BTF kept: libbpf reads .maps from it), each after a
    burst of demo frames. Built from tests/bpf/progs with relative paths
    so the bytes do not depend on the checkout's location."""
    import subprocess
    progs = os.path.join(SRC, "tests", "bpf", "progs")
    arch = subprocess.run(["gcc", "-print-multiarch"], capture_output=True,
                          text=True).stdout.strip()
    fr = burst(frames_of(os.path.join(SRC, "pcaps", "demo.pcap"), 4))
    # built for eBPF v3 only, as tests/bpf/meson.build does (ALU32, JMP32
    # and atomics with fetch)
    v3_only = {"t_isa.c"}
    for src, extra in [(p, ["-mcpu=v3"] if os.path.basename(p) in v3_only else [])
                       for p in sorted(glob.glob(os.path.join(progs, "t_*.c")))] + \
            [(os.path.join(progs, "t_parse.c"), ["-mcpu=v3"])]:
        base = os.path.basename(src)[:-2] + \
            ("_v3" if extra and os.path.basename(src) not in v3_only else "")
        with tempfile.TemporaryDirectory() as tmp:
            obj = os.path.join(tmp, "o")
            subprocess.run(["clang", "-target", "bpf", "-O2", "-g", "-fdebug-compilation-dir=.",
                            "-I/usr/include/" + arch] + extra +
                           ["-c", os.path.basename(src), "-o", obj], cwd=progs, check=True)
            subprocess.run(["llvm-strip", "--strip-debug", obj], check=True)
            elf = open(obj, "rb").read()
        BPF_OBJECTS.append((base, elf))
        write("bpf", base, struct.pack(">H", len(fr)) + fr + elf)
        if base == "t_maps":
            # fuzz_bpf's first finding: four bytes of .BTF/.BTF.ext changed
            # make Debian 12's libbpf 1.1 crash in bpf_object__open_file
            # (bpf_load.c now opens it in a child process first)
            bad = bytearray(elf)
            bad[0x92c] = 0xa8
            bad[0x118f:0x1192] = b"\x03\x00\x00"
            write("bpf", "libbpf_btf_crash", struct.pack(">H", len(fr)) + fr + bytes(bad))
    write("bpf", "not_elf", struct.pack(">H", len(fr)) + fr + b"\x7fELF" + bytes(60))
    # a CI run's finding: a program function whose symbol value lies past
    # its section (or between instructions) was taken as the entry and the
    # verifier indexed with it; the loader now refuses the object
    elf = dict(BPF_OBJECTS)["t_adjust"]
    for name, value in (("func_past_section", 0xFFFF0000), ("func_mid_insn", 4)):
        write("bpf", name, struct.pack(">H", len(fr)) + fr + elf_set_func_value(elf, value))


def elf_set_func_value(elf, value):
    """A copy of an ELF64 little-endian BPF object with st_value of each
    function symbol in an executable section other than .text set to
    value (the ELF layout: e_shoff at 0x28, e_shentsize/e_shnum/e_shstrndx
    at 0x3a; Elf64_Shdr and Elf64_Sym as in <elf.h>)."""
    b = bytearray(elf)
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)

    def shdr(i):
        return struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize)

    strtab_off = shdr(shstrndx)[4]

    def name(i):
        off = strtab_off + shdr(i)[0]
        return bytes(b[off:b.index(b"\0", off)]).decode()

    execs = {i for i in range(shnum) if shdr(i)[2] & 0x4 and name(i) != ".text"}
    for i in range(shnum):
        if shdr(i)[1] != 2:          # SHT_SYMTAB
            continue
        off, size, entsize = shdr(i)[4], shdr(i)[5], shdr(i)[9]
        for at in range(off, off + size, entsize):
            info, shndx = b[at + 4], struct.unpack_from("<H", b, at + 6)[0]
            if info & 0xF == 2 and shndx in execs:   # STT_FUNC
                struct.pack_into("<Q", b, at + 8, value)
    return bytes(b)


BPF_OBJECTS = []  # (name, ELF bytes) that bpf() built

# fuzz_xbpf.c's maps, by index (its enum), and which the tests/bpf
# programs' maps stand for (by their names in progs/; any other: "arr")
XBPF_MAPS = ["arr", "hash", "pcpu", "lru", ".data", "dev", "jmp", "lpm"]
XBPF_LIKE = {"flows": "hash", "hosts": "hash", "outer_h": "hash", "recent": "lru",
             "runs": "pcpu", "ports": "dev", "jmp": "jmp", "routes": "lpm", ".data": ".data"}


def xbpf():
    """fuzz_xbpf: [flags][len16][burst][program]. Raw seeds (flags bit 0):
    each program section of the tests/bpf objects as an instruction stream
    (bpf_insns.py); generator seeds: fixed pseudo-random bytes, one per
    combination of the optional functions (BPF-to-BPF callee, bpf_loop
    callback, tail-call target) and of the run flags (lcore, budget)."""
    import random
    import bpf_insns

    demo = frames_of(os.path.join(SRC, "pcaps", "demo.pcap"), 3)
    fr = burst(demo[:2]) + struct.pack(">BH", 1 | 64 << 1, len(demo[2])) + demo[2]
    head = struct.pack(">H", len(fr)) + fr

    def index(name):
        return XBPF_MAPS.index(XBPF_LIKE.get(name, "arr"))
    for base, elf in BPF_OBJECTS:
        for sec, entries, insns in bpf_insns.programs(elf, index, XBPF_MAPS.index("jmp")):
            ent = entries[:3]
            prog = bytes([len(ent)]) + b"".join(struct.pack("<H", e) for e in ent) + insns
            name = base + "_" + sec.replace("/", "_").replace(".", "_")
            write("xbpf", "raw_" + name, bytes([1]) + head + prog)
    for i in range(32):
        body = random.Random(i).randbytes(400)
        write("xbpf", f"gen_{i:02d}", bytes([(i >> 2) & 6]) + head + bytes([i & 7]) + body)


def devargs():
    seeds = {
        "empty": "",
        "a2_10m": "model=aqc113,link_speed=10M,fw=1.5.44",
        "peer": "wire=peer,peer=net_aqc_sim1,mode=step",
        "pcap": "wire=pcap,rx_pcap=in.pcap,tx_pcap=out.pcap,rx_start=link,rx_delay_ms=100",
        "misc": "mac=02:00:00:00:00:01,fw=3.x,dma=translate,link_speed=2.5G,fw_fault=mute",
        "a2_fault": "model=aqc113,fw_fault=no_ack,dma=auto,rx_start=now",
        "bad_model": "model=aqc108",
        "bad_key": "wire=loop,speed=10G",
        "no_value": "wire",
        "a1_10m": "model=aqc107,link_speed=10M",
        "peer_no_wire": "peer=net_aqc_sim1",
        "delay": "rx_delay_ms=60001",
        "mac_multicast": "mac=01:00:5e:00:00:01",
        "sfp_missing": "sfp=no-such-eeprom.bin",
        "soak": "wire=pcap,rx_pcap=in.pcap,tx_pcap=out.pcap,rx_loops=0,faults=500,fault_seed=7",
        "loops_no_pcap": "wire=loop,rx_loops=3,faults=0",
        # libFuzzer find (of the target's property): a newline in a value
        # makes the one refusal line two.
        "newline_in_value": "wire=loop,\x86wh\n",
        # and a value quoting a message: the harness reads the message at
        # its place, not wherever its words appear.
        "message_in_value": "modeaqc11: unknown devarg '3,fw_fault=no_ack,dma=auto",
    }
    for name, t in seeds.items():
        write("devargs", name, t.encode())


def replay_opts():
    # NUL-separated arguments of tagpipe-replay (after the EAL's "--")
    seeds = {
        "minimal": ["-i", "in.pcap"],
        "readme": ["-i", "demo.pcap", "--tagger", "edsa", "--loops", "20",
                   "--compare", "dpdk-gro"],
        "full": ["-i", "a.pcap", "-i", "b.pcap", "--burst", "64", "--vlan", "keep",
                 "--vlan-tpid", "88a8,8100", "--gro", "age", "--gro-flows", "4096",
                 "--gro-order", "kernel", "--gro-csum", "verify", "--verdict", "tx",
                 "--write", "tx=out.pcap", "--write-format", "pcapng", "--stats", "-",
                 "--switch-cpu-port", "5", "-q"],
        "redirect": ["-i", "x.pcap", "--verdict", "redirect", "--redirect",
                     "3=port:1,queue:2,switch_port:4"],
        "equals": ["--input=x.pcap", "--burst=1", "--tagger=dsa", "--gro=off"],
        "bad_burst": ["-i", "x.pcap", "--burst", "0"],
        "bad_tagger": ["-i", "x.pcap", "--tagger", "nosuch"],
        "two_stdout": ["-i", "x.pcap", "--stats", "-", "--json", "-"],
        "no_input": ["--loops", "3"],
        "unknown": ["-i", "x.pcap", "--frobnicate"],
        "needs_value": ["-i", "x.pcap", "--burst"],
        "stray": ["-i", "x.pcap", "stray"],
        # libFuzzer finds (of the harness): glibc's getopt resumed a short
        # option cluster of the previous parse (optind = 1 does not reset
        # it; the parsers now set 0), and an old spelling adds a note line
        "cluster": ["-qi", "x.pcap", "-q"],
        "old_spelling_note": ["\xa0", "-i", "x.pcap", "--redirect", "3=port:0",
                              "--redire", "0:4"],
        "gro_tunnels": ["-i", "x.pcap", "--gro-tunnels", "vxlan:4789+8472,geneve,ipip",
                        "--gro-udp"],
        "gro_tunnels_bad": ["-i", "x.pcap", "--gro-tunnels", "vxlan:0+1+2+3+4,gre"],
    }
    for name, args in seeds.items():
        write("replay_opts", name, b"\0".join(a.encode() for a in args))


def fwd_opts():
    # NUL-separated arguments of tagpipe-fwd (after the EAL's "--")
    seeds = {
        "empty": [],
        "interactive": ["-i", "--forward-mode", "io", "--auto-start"],
        "pipeline": ["--forward-mode", "pipeline", "--port-tagger", "0:edsa",
                     "--port-vlan", "1:keep", "--gro", "age:50", "--gro-flows", "512",
                     "--gro-max-segs", "32", "--gro-order", "kernel", "--gso", "off",
                     "--verdict", "tx", "--redirect", "7=port:1,switch_port:3"],
        "testpmd": ["--rxq", "4", "--txq", "4", "--rxd", "512", "--txd", "512",
                    "--nb-cores", "1", "--burst", "64", "--total-num-mbufs", "8192",
                    "--txpkts", "128", "--eth-peer", "1,02:00:00:00:00:02",
                    "--port-topology", "chained", "--stats-period", "1"],
        "equals": ["--burst=16", "--rxq=2", "--gro=off"],
        "old_spellings": ["--gro-age", "30", "--redirect", "4:1:2"],
        "bad_burst": ["--burst", "0"],
        "bad_mode": ["--forward-mode", "nosuch"],
        "bad_mac": ["--eth-peer", "0,zz:00:00:00:00:00"],
        "bad_port": ["--port-vlan", "99:strip"],
        "queue_in_redirect": ["--redirect", "1=port:0,queue:1"],
        "unknown": ["--frobnicate"],
        "needs_value": ["--rxq"],
        "stray": ["stray"],
        "gro_tunnels": ["--gro-tunnels", "all", "--gro-udp"],
        "gro_tunnels_bad": ["--gro-tunnels", "vxlan:"],
    }
    for name, args in seeds.items():
        write("fwd_opts", name, b"\0".join(a.encode() for a in args))


def pcap_bytes(frames, linktype=1, ts=None):
    b = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, linktype)
    for i, fr in enumerate(frames):
        sec, frac = ts[i] if ts else (0, i)
        b += struct.pack("<IIII", sec, frac, len(fr), len(fr)) + fr
    return b


def tree(d):
    out = {}
    for root, _, files in os.walk(d):
        for n in files:
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, d)] = f.read()
    return out


if __name__ == "__main__":
    check = sys.argv[1:] == ["--check"]
    if check:
        tmp = tempfile.TemporaryDirectory()
        OUT = tmp.name
    dsa()
    vlan()
    gro()
    pcap()
    acl()
    bpf()
    xbpf()
    devargs()
    replay_opts()
    fwd_opts()
    if check:
        want, have = tree(OUT), tree(COMMITTED)
        diff = sorted(k for k in set(want) | set(have) if want.get(k) != have.get(k))
        if diff:
            sys.exit("corpus out of date (rerun tests/fuzz/gen_corpus.py): " + ", ".join(diff))
        print(f"corpus up to date: {len(want)} seeds")
