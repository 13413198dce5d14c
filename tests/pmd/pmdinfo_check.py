#!/usr/bin/python3
"""The plugins' PMD info (dpdk-pmdinfo.py, as DPDK's tooling reads it):
librte_net_aqc lists net_aqc alone, with every A1 device ID of
docs/ref/aqc.md §1 and the vfio-pci dependency;
librte_net_aqc_sim lists net_aqc_sim, with every devarg the parser
accepts (AQC_SIM_KEYS of aqc_sim_devargs.c). Exit 77 (skip) when
dpdk-pmdinfo.py cannot run here.

usage: pmdinfo_check.py PLUGIN SIM_PLUGIN AQC_SIM_DEVARGS_C"""
import json
import re
import shutil
import subprocess
import sys

# docs/ref/aqc.md §1: vendor 0x1D6A, the IDs the DPDK table lists (A0/B0 pre-production,
# A1 production, AQC111E/112E)
A1_IDS = {"0001", "d100", "d107", "d108", "d109", "00b1", "07b1", "08b1", "09b1",
          "11b1", "12b1", "80b1", "87b1", "88b1", "89b1", "91b1", "92b1", "51b1", "52b1"}
# docs/ref/aqc.md §1: the A2 (AQC113 family) IDs of LNX and FBSD
A2_IDS = {"00c0", "04c0", "14c0", "34c0", "94c0", "93c0", "12c0", "11c0"}
ALL_IDS = A1_IDS | A2_IDS


def pmdinfo(tool, path):
    r = subprocess.run([tool, path], capture_output=True, text=True)
    if r.returncode != 0:
        print("dpdk-pmdinfo.py failed:", r.stderr)
        sys.exit(77)
    return {d["name"]: d for d in json.loads(r.stdout)}


def main():
    tool = shutil.which("dpdk-pmdinfo.py")
    if tool is None:
        print("dpdk-pmdinfo.py not installed")
        sys.exit(77)
    info, sim_info = pmdinfo(tool, sys.argv[1]), pmdinfo(tool, sys.argv[2])
    text = open(sys.argv[3]).read()
    keys = re.search(r'#define AQC_SIM_KEYS ((?:"[^"]*"\s*\\?\s*)+)', text).group(1)
    keys = [k.strip() for k in "".join(re.findall(r'"([^"]*)"', keys)).split(",")]
    bad = []
    if sorted(info) != ["net_aqc"]:
        bad.append(f"{sys.argv[1]}: drivers {sorted(info)}, expected net_aqc alone")
    # dpdk-pmdinfo.py reads the libraries a binary needs too (ldd): the
    # sim plugin shows net_aqc from librte_net_aqc.so beside its own
    if sorted(sim_info) not in (["net_aqc_sim"], ["net_aqc", "net_aqc_sim"]):
        bad.append(f"{sys.argv[2]}: drivers {sorted(sim_info)}, expected net_aqc_sim "
                   f"(and net_aqc of the library it needs)")
    aqc = info.get("net_aqc")
    if aqc is None:
        sys.exit(f"net_aqc missing from PMD info: {sorted(info)}")
    if aqc.get("kmod") != "* vfio-pci":
        bad.append(f"kmod {aqc.get('kmod')!r}")
    ids = {p["device"] for p in aqc.get("pci_ids", []) if p.get("vendor") == "1d6a"}
    if ids != ALL_IDS or len(aqc["pci_ids"]) != len(ALL_IDS):
        bad.append(f"device IDs differ: missing {sorted(ALL_IDS - ids)}, extra {sorted(ids - ALL_IDS)}")
    sim = sim_info.get("net_aqc_sim", {})
    given = set(re.findall(r"(?:^|\s)(\w+)=", sim.get("params", "")))
    # the list is read from the parser; these must be among it at least
    for key in ("model", "wire", "rx_pcap", "tx_pcap", "peer", "mac", "link_speed", "fw",
                "mode", "fw_fault", "rx_loops", "faults", "fault_seed", "sfp"):
        if key not in keys:
            bad.append(f"AQC_SIM_KEYS lacks {key}: {keys}")
    for key in keys:
        if key not in given:
            bad.append(f"net_aqc_sim params lack {key}=")
    if bad:
        sys.exit("\n".join(bad))
    print(f"net_aqc: {len(ids)} device IDs of vendor 1d6a, kmod * vfio-pci; "
          f"net_aqc_sim params list all {len(keys)} devargs: {', '.join(keys)}")


if __name__ == "__main__":
    main()
