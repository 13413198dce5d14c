#!/usr/bin/python3
"""The plugin's PMD info (dpdk-pmdinfo.py, as DPDK's tooling reads it) lists
net_aqc with every A1 device ID of docs/ref/aqc.md §1 and
the vfio-pci dependency, and net_aqc_sim with its devargs. Exit 77 (skip)
when dpdk-pmdinfo.py cannot run here."""
import json
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


def main():
    tool = shutil.which("dpdk-pmdinfo.py")
    if tool is None:
        print("dpdk-pmdinfo.py not installed")
        sys.exit(77)
    r = subprocess.run([tool, sys.argv[1]], capture_output=True, text=True)
    if r.returncode != 0:
        print("dpdk-pmdinfo.py failed:", r.stderr)
        sys.exit(77)
    info = {d["name"]: d for d in json.loads(r.stdout)}
    bad = []
    aqc = info.get("net_aqc")
    if aqc is None:
        sys.exit(f"net_aqc missing from PMD info: {sorted(info)}")
    if aqc.get("kmod") != "* vfio-pci":
        bad.append(f"kmod {aqc.get('kmod')!r}")
    ids = {p["device"] for p in aqc.get("pci_ids", []) if p.get("vendor") == "1d6a"}
    if ids != ALL_IDS or len(aqc["pci_ids"]) != len(ALL_IDS):
        bad.append(f"device IDs differ: missing {sorted(ALL_IDS - ids)}, extra {sorted(ids - ALL_IDS)}")
    sim = info.get("net_aqc_sim", {})
    for key in ("wire=", "rx_pcap=", "tx_pcap=", "peer=", "mac=", "link_speed=", "fw=", "mode=",
                "model=", "fw_fault="):
        if key not in sim.get("params", ""):
            bad.append(f"net_aqc_sim params lack {key}")
    if bad:
        sys.exit("\n".join(bad))
    print(f"net_aqc: {len(ids)} device IDs of vendor 1d6a, kmod * vfio-pci; net_aqc_sim params listed")


if __name__ == "__main__":
    main()
