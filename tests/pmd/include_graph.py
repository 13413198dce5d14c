#!/usr/bin/python3
"""Who may include whom in drivers/atlantic_pmd. Fails (exit 1, naming
file:line) when
  - base/ (the hardware layer) includes a header of the driver, the model
    or the vdev, or any DPDK ethdev header (it knows nothing of ethdev);
  - model/ (the chip model) includes a header of the driver or the vdev;
  - the driver (the directory's own files) includes a model or vdev header;
  - sim/ (net_aqc_sim) includes a driver header other than aqc_vdev.h, the
    driver's one internal interface -- which itself includes none of ours.
Every #include of every .c and .h is looked at, quoted or angled; a name
that is no header of these four parts (DPDK, libc, libpcap) is outside the
graph.

usage: include_graph.py [DRIVERS/ATLANTIC_PMD]   (default: the one in this tree)
"""
import glob
import os
import re
import sys

# part -> the parts whose headers it may include
ALLOWED = {
    "base": {"base"},
    "model": {"model", "base"},
    "driver": {"driver", "base", "aqc_vdev.h"},
    "sim": {"sim", "model", "base", "aqc_vdev.h"},
    "aqc_vdev.h": set(),
}
ETHDEV = re.compile(r"^(rte_ethdev\w*|ethdev_\w+|rte_eth_\w+|rte_flow\w*|rte_mtr\w*|rte_tm\w*)\.h$")


def part_of(root, path):
    rel = os.path.relpath(path, root)
    top = rel.split(os.sep)[0]
    if top in ("base", "model", "sim"):
        return top
    if rel == "aqc_vdev.h":
        return "aqc_vdev.h"
    return "driver" if os.sep not in rel else None


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "drivers", "atlantic_pmd"))
    files = [f for f in glob.glob(os.path.join(root, "**", "*.[ch]"), recursive=True)
             if part_of(root, f) is not None]
    headers = {}
    for f in files:
        if f.endswith(".h"):
            headers.setdefault(os.path.basename(f), []).append(f)
    dup = {h: p for h, p in headers.items() if len(p) > 1}
    bad = [f"header name {h} used twice: {p}" for h, p in dup.items()]
    edges = 0
    for f in sorted(files):
        part = part_of(root, f)
        rel = os.path.relpath(f, root)
        for n, line in enumerate(open(f, encoding="utf-8"), 1):
            m = re.match(r'\s*#\s*include\s*[<"]([^>"]+)[>"]', line)
            if not m:
                continue
            name = m.group(1)
            if part == "base" and ETHDEV.match(os.path.basename(name)):
                bad.append(f"{rel}:{n}: base/ includes the ethdev header {name}")
                continue
            target = None
            if "/" in name:
                for d in (os.path.dirname(f), root):
                    p = os.path.normpath(os.path.join(d, name))
                    if os.path.exists(p):
                        target = p
                        break
                if target is None and os.path.basename(name) in headers:
                    target = headers[os.path.basename(name)][0]
            elif name in headers:
                target = headers[name][0]
            if target is None:
                continue          # DPDK, libc, libpcap: outside the graph
            edges += 1
            tpart = part_of(root, target)
            if tpart is None or tpart not in ALLOWED[part] and tpart != part:
                bad.append(f"{rel}:{n}: {part} includes {name} ({tpart or 'outside'}; "
                           f"{part} may include {', '.join(sorted(ALLOWED[part])) or 'none of ours'})")
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print(f"{len(files)} files, {edges} includes between parts' headers: base <- model, "
          f"base <- driver <- (aqc_vdev.h) <- sim -> model; base includes no ethdev header")


if __name__ == "__main__":
    main()
