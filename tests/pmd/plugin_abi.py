#!/usr/bin/python3
"""The net_aqc plugins packaged as DPDK packages its PMDs
(drivers/atlantic_pmd/meson.build):
  - librte_net_aqc.so.<ABI> with SONAME librte_net_aqc.so.<ABI major>; its
    dynamic symbols are exactly the version map's globals (aqc_vdev_attach
    in node INTERNAL), no chip-model symbol (aqc_model_*, aqm_*), no
    libpcap among what it needs, and no use of rte_eth_fp_ops (the burst
    pointers ethdev copies there at start are not the driver's to change);
  - librte_net_aqc_sim.so.<ABI>, SONAME likewise, exports nothing, needs
    librte_net_aqc.so.<ABI major> and finds it next to itself ($ORIGIN);
  - the archives: librte_net_aqc.a holds the driver and no model object,
    librte_net_aqc_sim.a the vdev and the model, and no driver object.

usage: plugin_abi.py PLUGIN SIM_PLUGIN ARCHIVE SIM_ARCHIVE"""
import os
import re
import subprocess
import sys

DRV_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "drivers",
                       "atlantic_pmd")


def out(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def map_globals(path):
    """{symbol: node} of a GNU ld version script."""
    text = re.sub(r"#[^\n]*", "", open(path).read())
    names = {}
    for node, body in re.findall(r"(\w+)\s*\{(.*?)\}\s*(?:\w+\s*)?;", text, re.S):
        part = re.split(r"local\s*:", body)[0]
        part = part.split("global:", 1)[1] if "global:" in part else ""
        for sym in re.findall(r"(\w+)\s*;", part):
            names[sym] = node
    return names


def dynamic(path):
    """Dynamic symbols the library defines, as name@@NODE (version nodes
    themselves, type A, left out)."""
    syms = []
    for ln in out("nm", "-D", "--defined-only", path).splitlines():
        f = ln.split()
        if len(f) == 3 and f[1] != "A":
            syms.append(f[2])
    return sorted(syms)


def dyn_tags(path):
    d = out("readelf", "-d", path)
    return (re.findall(r"\(NEEDED\).*\[(.*)\]", d),
            (re.findall(r"\(SONAME\).*\[(.*)\]", d) or [None])[0],
            (re.findall(r"\((?:RUNPATH|RPATH)\).*\[(.*)\]", d) or [""])[0])


def archive_symbols(path, kind):
    """Symbols an archive's objects define (kind 'defined') or use
    without defining ('undefined')."""
    syms = set()
    for ln in out("nm", "--defined-only" if kind == "defined" else "--undefined-only",
                  path).splitlines():
        f = ln.split()
        if len(f) >= 2 and len(f[-2]) == 1:
            syms.add(f[-1])
    return syms


def main():
    plugin, sim, arch, sim_arch = sys.argv[1:5]
    bad = []

    def check(what, ok):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            bad.append(what)

    for path, name in ((plugin, "librte_net_aqc"), (sim, "librte_net_aqc_sim")):
        m = re.fullmatch(re.escape(name) + r"\.so\.((\d+)\.\d+)", os.path.basename(path))
        check(f"{os.path.basename(path)}: named {name}.so.<ABI>", m is not None)
        if m:
            soname = dyn_tags(path)[1]
            check(f"{name}: SONAME {soname} = {name}.so.{m.group(2)}",
                  soname == f"{name}.so.{m.group(2)}")
    major = re.search(r"\.so\.(\d+)", os.path.basename(plugin)).group(1)

    allowed = map_globals(os.path.join(DRV_DIR, "version.map"))
    want = sorted(f"{s}@@{n}" for s, n in allowed.items())
    got = dynamic(plugin)
    print(f"     nm -D --defined-only {os.path.basename(plugin)}: {len(got)} symbols {got}")
    check(f"net_aqc exports exactly its version map's globals {want}", got == want)
    check("net_aqc exports no chip-model symbol",
          not [s for s in got if s.startswith(("aqc_model_", "aqm_"))])
    undef = out("nm", "-D", "--undefined-only", plugin).split()
    check("net_aqc leaves rte_eth_fp_ops alone (ethdev fills it at dev_start)",
          "rte_eth_fp_ops" not in undef)
    needed, _, _ = dyn_tags(plugin)
    check(f"net_aqc needs no libpcap and no sim plugin ({', '.join(needed)})",
          not [n for n in needed if "pcap" in n or "net_aqc_sim" in n])

    got = dynamic(sim)
    print(f"     nm -D --defined-only {os.path.basename(sim)}: {len(got)} symbols {got}")
    check("net_aqc_sim exports nothing (its version map: local *)",
          got == sorted(map_globals(os.path.join(DRV_DIR, "sim", "version.map"))))
    needed, _, runpath = dyn_tags(sim)
    check(f"net_aqc_sim needs librte_net_aqc.so.{major}", f"librte_net_aqc.so.{major}" in needed)
    check(f"net_aqc_sim looks next to itself (RUNPATH {runpath!r})",
          "$ORIGIN" in runpath.split(":") or "$ORIGIN/" in runpath.split(":"))

    # undefined in one object and defined in none: what the archive needs
    d = archive_symbols(arch, "defined")
    u = archive_symbols(arch, "undefined") - d
    check("librte_net_aqc.a defines aqc_vdev_attach and the hardware layer",
          {"aqc_vdev_attach", "aqc_dev_init", "aqc_gen_detect"} <= d)
    check("librte_net_aqc.a neither defines nor uses a model symbol",
          not [s for s in d | u if s.startswith(("aqc_model_", "aqm_"))])
    d = archive_symbols(sim_arch, "defined")
    u = archive_symbols(sim_arch, "undefined") - d
    check("librte_net_aqc_sim.a defines the vdev and the model",
          {"aqc_sim_parse_devargs", "aqc_model_create"} <= d)
    check("librte_net_aqc_sim.a holds no driver object and uses only aqc_vdev_attach of it",
          not [s for s in d if s.startswith(("aqc_dev_", "aqc_recv_", "aqc_xmit_", "aqc_hw_"))]
          and sorted(s for s in u if s.startswith("aq")) == ["aqc_vdev_attach"])
    if bad:
        sys.exit(f"{len(bad)} check(s) failed")


if __name__ == "__main__":
    main()
