"""eBPF object files as instruction streams for the xbpf fuzz target.

programs(elf_bytes, map_index, tail_map) -> [(section, entries, insns)]: for
each program section, the instructions laid out as tagpipe's loader does
(lib/bpf/bpf_load.c: the section first, then the object's other program
sections when it has a tail-call map (one map_index() gives tail_map),
then .text) with the relocations
applied in the form lib/bpf/bpf_insns.h reads: a map reference becomes
ld_imm64 src_reg BPF_PSEUDO_MAP_IDX (5) with imm the index map_index(name)
gives, global data BPF_PSEUDO_MAP_IDX_VALUE (6) into the fuzz target's
".data" map, calls and function addresses pc-relative. entries: the other
program sections' first pcs (tail-call targets).

ELF64 little-endian only (what clang -target bpf writes on x86-64); the
formats are the System V gABI's (section headers, Elf64_Sym, Elf64_Rel)
and the BPF relocation types of LLVM's ELFRelocs/BPF.def.
"""
import struct

SHT_SYMTAB, SHT_REL = 2, 9
SHF_EXECINSTR = 4
R_BPF_64_64, R_BPF_64_32 = 1, 10
LD_IMM64 = 0x18
CALL = 0x85
PSEUDO_CALL, PSEUDO_MAP_IDX, PSEUDO_MAP_IDX_VALUE, PSEUDO_FUNC = 1, 5, 6, 4
DATA_SIZE = 64  # the fuzz target's ".data" map value


class Elf:
    def __init__(self, b):
        if b[:4] != b"\x7fELF" or b[4] != 2 or b[5] != 1:
            raise ValueError("not an ELF64 little-endian object")
        self.b = b
        shoff, = struct.unpack_from("<Q", b, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3A)
        self.secs = []
        for i in range(shnum):
            f = struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize)
            self.secs.append(dict(name=f[0], type=f[1], flags=f[2], off=f[4], size=f[5],
                                  link=f[6], info=f[7], entsize=f[9]))
        strtab = self.secs[shstrndx]
        for s in self.secs:
            s["name"] = self.cstr(strtab["off"] + s["name"])
        self.syms = []
        for s in self.secs:
            if s["type"] == SHT_SYMTAB:
                names = self.secs[s["link"]]["off"]
                for k in range(s["size"] // 24):
                    n, info, _, shndx, value, size = struct.unpack_from(
                        "<IBBHQQ", b, s["off"] + 24 * k)
                    self.syms.append(dict(name=self.cstr(names + n), type=info & 15,
                                          bind=info >> 4, shndx=shndx, value=value))

    def cstr(self, at):
        return self.b[at:self.b.index(b"\0", at)].decode()

    def data(self, i):
        s = self.secs[i]
        return self.b[s["off"]:s["off"] + s["size"]]

    def rels(self, i):
        for s in self.secs:
            if s["type"] == SHT_REL and s["info"] == i:
                for k in range(s["size"] // 16):
                    off, info = struct.unpack_from("<QQ", self.b, s["off"] + 16 * k)
                    yield off, info >> 32, info & 0xffffffff


def programs(elf_bytes, map_index, tail_map):
    e = Elf(elf_bytes)
    text = next((i for i, s in enumerate(e.secs) if s["name"] == ".text" and s["size"]), None)
    progs = [i for i, s in enumerate(e.secs)
             if s["flags"] & SHF_EXECINSTR and s["size"] and i != text]
    map_secs = {i for i, s in enumerate(e.secs) if s["name"] in (".maps", "maps")}
    tails = any(map_index(s["name"]) == tail_map for s in e.syms if s["shndx"] in map_secs)
    out = []
    for sel in progs:
        order = [sel] + ([p for p in progs if p != sel] if tails else []) + \
                ([text] if text is not None else [])
        base, insns = {}, bytearray()
        for i in order:
            base[i] = len(insns) // 8
            insns += e.data(i)
        for i in order:
            for off, symi, rtype in e.rels(i):
                pc = base[i] + off // 8
                sym = e.syms[symi]
                ins = insns[pc * 8:pc * 8 + 8]
                code, regs, o, imm = struct.unpack("<BBhi", ins)
                tsec = e.secs[sym["shndx"]] if sym["shndx"] < len(e.secs) else None
                if rtype == R_BPF_64_32 and code == CALL and regs >> 4 == PSEUDO_CALL:
                    t = base[sym["shndx"]] + sym["value"] // 8 + imm + 1
                    imm = t - pc - 1
                elif rtype == R_BPF_64_64 and code == LD_IMM64 and tsec is not None:
                    if tsec["flags"] & SHF_EXECINSTR:
                        t = base[sym["shndx"]] + (sym["value"] + imm) // 8
                        regs, imm = (regs & 15) | PSEUDO_FUNC << 4, t - pc - 1
                    elif sym["shndx"] in map_secs:
                        regs, imm = (regs & 15) | PSEUDO_MAP_IDX << 4, map_index(sym["name"])
                    else:  # .data, .rodata, .bss: into ".data"
                        at = (imm + (sym["value"] if sym["type"] != 3 else 0)) % DATA_SIZE
                        regs, imm = (regs & 15) | PSEUDO_MAP_IDX_VALUE << 4, map_index(".data")
                        struct.pack_into("<i", insns, pc * 8 + 12, at)
                struct.pack_into("<BBhi", insns, pc * 8, code, regs, o, imm)
        entries = [base[p] for p in order[1:] if p != text]
        out.append((e.secs[sel]["name"], entries, bytes(insns)))
    return out
