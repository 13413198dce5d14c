#!/usr/bin/python3
"""Share-nothing scaling: tagpipe-replay --workers 1 against --workers 2.

usage: replay_scaling.py REPLAY OUTDIR [FLOWS...]
  env: FRAMES (frames per input, default 32768), REPEATS (runs per worker
       count, alternating 1, 2, 1, 2, ...; default 5), LOOPS (--loops per
       run, default 3), GRO (default age:1000, as the sweep), CSUM (default
       trust, as the sweep), BURST (default 32)

For each flow count (default 32 and 256) it generates a bulk TCP input
(gen_flows.py: interleaved flows, MSS segments), then runs the replay with
one and with two workers, alternating so that what else the machine does
falls on both alike. Each run's --json gives every worker's cycles per
packet (its own TSC cycles inside the pipeline calls, the single-lcore
figure's definition) and the wall-clock Mpps from the common start to the
last worker's end. Printed: medians and [min-max] over the runs, and the
2/1 ratios taken pair by pair (run k of 2 workers over run k of 1).
It never fails on a figure, only when a tool fails.
"""
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = os.environ.get("PYTHON", "/usr/bin/python3")


def spread(v):
    return "%8.2f [%7.2f-%7.2f]" % (statistics.median(v), min(v), max(v)) if v else "-"


def topology():
    """What the machine says about its CPUs (a guest sees what its
    hypervisor presents)."""
    lines = []
    try:
        cpus = sorted(os.sched_getaffinity(0))
        lines.append("CPUs this process may use: %s" % ",".join(map(str, cpus)))
        for c in cpus:
            p = "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list" % c
            if os.path.exists(p):
                lines.append("  cpu%d shares its core with: %s" % (c, open(p).read().strip()))
        with open("/proc/cpuinfo") as f:
            info = f.read()
        model = [l.split(":", 1)[1].strip() for l in info.splitlines()
                 if l.startswith("model name")]
        if model:
            lines.append("  model: %s" % model[0])
        lines.append("  hypervisor flag: %s" % ("yes" if " hypervisor" in info else "no"))
    except OSError as e:
        lines.append("topology unknown: %s" % e)
    return lines


def run(replay, pcap, workers, table, out):
    args = [replay, "-i", pcap, "--workers", str(workers), "--burst", os.environ.get("BURST", "32"),
            "--loops", os.environ.get("LOOPS", "3"), "--gro", os.environ.get("GRO", "age:1000"),
            "--gro-flows", str(table), "--gro-csum", os.environ.get("CSUM", "trust"),
            "--json", out, "-q"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit("replay failed (%d): %s\n%s" % (p.returncode, " ".join(args), p.stderr))
    with open(out) as f:
        return json.load(f)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    replay, outdir = sys.argv[1], sys.argv[2]
    flows = [int(a) for a in sys.argv[3:]] or [32, 256]
    frames = int(os.environ.get("FRAMES", "32768"))
    repeats = int(os.environ.get("REPEATS", "5"))
    os.makedirs(outdir, exist_ok=True)
    print("tagpipe-replay --workers 1 vs 2: bulk TCP, --gro %s, --gro-csum %s, burst %s, "
          "--loops %s, %d runs each, alternating" % (os.environ.get("GRO", "age:1000"),
                                                    os.environ.get("CSUM", "trust"),
                                                    os.environ.get("BURST", "32"),
                                                    os.environ.get("LOOPS", "3"), repeats))
    for line in topology():
        print(line)
    rows = []
    for n in flows:
        pcap = os.path.join(outdir, "flows-%d.pcap" % n)
        subprocess.run([PY, os.path.join(HERE, "gen_flows.py"), pcap, str(n), str(frames)],
                       check=True, timeout=600)
        res = {1: [], 2: []}
        for k in range(repeats):
            for w in (1, 2):
                res[w].append(run(replay, pcap, w, max(n, 1024),
                                  os.path.join(outdir, "flows-%d-w%d-%d.json" % (n, w, k))))
        os.unlink(pcap)
        rows.append((n, res))
    print()
    print("%-6s %-8s %-7s %9s %-28s %-28s %-28s" % (
        "flows", "workers", "worker", "frames", "cycles/packet med [min-max]",
        "pipeline Mpps med [min-max]", "wall Mpps (all) med [min-max]"))
    ratios = []
    for n, res in rows:
        for w in (1, 2):
            wall = [r["workers"]["wall_mpps"] for r in res[w]]
            for i in range(w):
                ws = [r["workers"]["workers"][i] for r in res[w]]
                print("%-6d %-8d %-7d %9d %-28s %-28s %-28s" % (
                    n, w, i, ws[0]["frames"], spread([x["cycles_per_packet"] for x in ws]),
                    spread([x["mpps"] for x in ws]), spread(wall) if i == 0 else ""))
            bad = [r["tagpipe"]["mbufs_in_use_end"] for r in res[w]
                   if r["tagpipe"]["mbufs_in_use_end"] != 0]
            if bad:
                print("  WARNING: mbufs in use at the end: %s" % bad)
        wall_ratio = [b["workers"]["wall_mpps"] / a["workers"]["wall_mpps"]
                      for a, b in zip(res[1], res[2])]
        # The pipeline alone: each worker's cycles for its share; the pair
        # of lcores goes as fast as the slower one.
        pipe1 = [a["workers"]["workers"][0]["mpps"] for a in res[1]]
        pipe2 = [sum(x["frames"] for x in b["workers"]["workers"]) /
                 max(x["cycles"] for x in b["workers"]["workers"]) * b["tsc_hz"] / 1e6
                 for b in res[2]]
        cpp_ratio = [statistics.mean(x["cycles_per_packet"] for x in b["workers"]["workers"]) /
                     a["workers"]["workers"][0]["cycles_per_packet"]
                     for a, b in zip(res[1], res[2])]
        ratios.append((n, wall_ratio, [q / p for p, q in zip(pipe1, pipe2)], cpp_ratio))
    print()
    print("2/1 ratios, pair by pair, median [min-max]:")
    print("%-6s %-28s %-28s %-28s" % ("flows", "wall-clock Mpps", "pipeline Mpps (slower lcore)",
                                      "cycles/packet per worker"))
    for n, wr, pr, cr in ratios:
        print("%-6d %-28s %-28s %-28s" % (n, spread(wr), spread(pr), spread(cr)))
    print("""
What this machine can say: it has two vCPUs. Whether they are two cores or
two hyperthreads of one core, and whether other guests run on them, is the
hypervisor's choice (the topology above is what it presents); the main
lcore is worker 0 and shares its CPU with the OS and with everything else
this machine runs, while worker 1 shares the other. So a 2/1 ratio below 2
here does not locate a bottleneck in the design, and a ratio near 2 does not
promise linear scaling beyond two: the figure shows that two instances run
side by side without a shared lock or a shared counter to slow each other,
and what a worker pays per packet next to another (the cycles/packet
ratio: 1.0 = nothing shared costs anything). The wall clock also counts
copying the frames into mbufs (as a NIC's DMA would, but here on the CPU);
the pipeline columns do not.

The model for N cores (one pipeline per lcore fed by RSS): each lcore owns
its pipeline instance, GRO table, scratch, counters and merge histogram,
and nothing it writes is read by another lcore on the datapath. Shared:
the mbuf pool, but each lcore allocates from and frees to its own
per-lcore cache and touches the pool's ring only a cache's worth at a time
(256 here); the program, ACL rules and BPF maps, read-only (per-CPU maps
are per lcore); the redirect map, read-only; the TSC. Flows do not cross
lcores, so GRO merges what one queue's flows give it; with N lcores each
sees about 1/N of the flows, which also makes its GRO table and the bursts
it forms different from one lcore's (more merges per burst). What can limit
N lcores: memory bandwidth and the last-level cache (every frame is
touched), the pool's ring when caches run dry, and RSS balance (a few
elephant flows land on few queues).""")


if __name__ == "__main__":
    main()
