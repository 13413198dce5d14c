"""Shared helpers for tagpipe's deterministic capture generators.

Every generator writes classic little-endian pcap files whose bytes depend on
nothing but the script: fixed timestamps, fixed seeds, no host state.
"""
import os
import struct

PCAP_MAGIC_USEC = 0xA1B2C3D4
LINKTYPE_ETHERNET = 1
T0 = 1_700_000_000  # a fixed epoch second for all generated captures


def write_pcap(path, frames, linktype=LINKTYPE_ETHERNET, t0=T0, step_us=10):
    """Write frames (bytes or scapy packets) as a pcap, one every step_us."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<IHHiIII", PCAP_MAGIC_USEC, 2, 4, 0, 0, 65535, linktype))
        for i, fr in enumerate(frames):
            data = bytes(fr)
            us = i * step_us
            f.write(struct.pack("<IIII", t0 + us // 1_000_000, us % 1_000_000,
                                len(data), len(data)))
            f.write(data)
    os.replace(tmp, path)


def read_pcap(path):
    """Return (linktype, [frame bytes]) of a classic pcap (either byte order)."""
    with open(path, "rb") as f:
        hdr = f.read(24)
        magic = struct.unpack("<I", hdr[:4])[0]
        end = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
        linktype = struct.unpack(end + "I", hdr[20:24])[0]
        frames = []
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                break
            _, _, caplen, _ = struct.unpack(end + "IIII", rec)
            frames.append(f.read(caplen))
    return linktype, frames
