"""Header offsets of plain, tunnelled (VXLAN, IP in IP) and UDP frames, for
the kernel GRO oracle and its comparison (independent of lib/gro)."""

VXLAN_PORTS = (4789, 8472)
GENEVE_PORT = 6081


def be16(b, o):
    return b[o] << 8 | b[o + 1]


def csum16(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def parse(raw, vxlan_ports=VXLAN_PORTS):
    """{'ips': [(off, v6, l4off, end)...] outer first, 'l4': ('tcp'|'udp', off) or None,
    'vxlan_udp': offset of the outer UDP header or None}."""
    raw = bytes(raw)
    res = {"ips": [], "l4": None, "vxlan_udp": None}
    try:
        off, et = 14, be16(raw, 12)
        while et in (0x8100, 0x88A8):
            et, off = be16(raw, off + 2), off + 4
        for depth in range(2):
            if et == 0x0800:
                v6, proto, nxt, end = False, raw[off + 9], off + (raw[off] & 15) * 4, off + be16(raw, off + 2)
            elif et == 0x86DD:
                v6, proto, nxt, end = True, raw[off + 6], off + 40, off + 40 + be16(raw, off + 4)
                while proto in (0, 43, 60):
                    proto, nxt = raw[nxt], nxt + (raw[nxt + 1] + 1) * 8
            else:
                break
            res["ips"].append((off, v6, nxt, end))
            if proto == 6:
                res["l4"] = ("tcp", nxt)
                break
            if proto == 17:
                if depth == 0 and be16(raw, nxt + 2) == GENEVE_PORT:
                    # GENEVE (RFC 8926): 8 bytes + options, then Ethernet
                    # (protocol 0x6558) or IP
                    res["vxlan_udp"] = nxt
                    off = nxt + 8 + 8 + (raw[nxt + 8] & 0x3F) * 4
                    et = be16(raw, nxt + 10)
                    if et == 0x6558:
                        off += 14
                        et = be16(raw, off - 2)
                    while et in (0x8100, 0x88A8):
                        et, off = be16(raw, off + 2), off + 4
                    continue
                if depth == 0 and be16(raw, nxt + 2) in vxlan_ports:
                    res["vxlan_udp"] = nxt
                    off = nxt + 16 + 14
                    et = be16(raw, off - 2)
                    while et in (0x8100, 0x88A8):
                        et, off = be16(raw, off + 2), off + 4
                    continue
                res["l4"] = ("udp", nxt)
                break
            if proto in (4, 41) and depth == 0:
                et, off = (0x0800 if proto == 4 else 0x86DD), nxt
                continue
            break
    except IndexError:
        pass
    return res


def payload_len(raw, vxlan_ports=VXLAN_PORTS):
    """L4 payload bytes of the innermost TCP or UDP, or None."""
    h = parse(raw, vxlan_ports)
    if h["l4"] is None:
        return None
    kind, l4 = h["l4"]
    end = h["ips"][-1][3]
    hl = (raw[l4 + 12] >> 4) * 4 if kind == "tcp" else 8
    return end - l4 - hl


def pseudo(raw, ipoff, v6, proto, length=None):
    """Folded pseudo-header sum (with length, or without when None)."""
    raw = bytes(raw)
    if v6:
        ph = raw[ipoff + 8:ipoff + 40] + bytes([0, 0, 0, proto])
        if length is not None:
            ph += length.to_bytes(4, "big")
    else:
        ph = raw[ipoff + 12:ipoff + 20] + bytes([0, proto])
        if length is not None:
            ph += length.to_bytes(2, "big")
    return csum16(ph)


def seeds(raw, vxlan_ports=VXLAN_PORTS):
    """The checksum fields of an aggregate that hold pseudo-header seeds:
    [(field offset, ip offset, v6, proto, l4 length)]."""
    h = parse(raw, vxlan_ports)
    out = []
    if h["l4"] is not None:
        kind, l4 = h["l4"]
        ipoff, v6, _, end = h["ips"][-1]
        out.append((l4 + (16 if kind == "tcp" else 6), ipoff, v6, 6 if kind == "tcp" else 17, end - l4))
    u = h["vxlan_udp"]
    if u is not None and raw[u + 6:u + 8] != b"\0\0":
        ipoff, v6, _, end = h["ips"][0]
        out.append((u + 6, ipoff, v6, 17, end - u))
    return out


def ipv4_headers(raw, vxlan_ports=VXLAN_PORTS):
    return [(o, (raw[o] & 15) * 4) for o, v6, _, _ in parse(raw, vxlan_ports)["ips"] if not v6]
