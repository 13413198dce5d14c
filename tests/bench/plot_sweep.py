#!/usr/bin/python3
"""Plot a GRO sweep: cycles per packet of tagpipe and DPDK's librte_gro.

usage: plot_sweep.py OUT.png [--save-json SWEEP.json] FLOWS=RUN.json ...
       plot_sweep.py OUT.png SWEEP.json

Each RUN.json is what `tagpipe-replay --compare dpdk-gro --json FILE` wrote
for an input of FLOWS interleaved flows. The points are joined into one
sweep document ({"points": [{"flows": N, "run": {...}}, ...]}), optionally
saved, printed as a table and drawn: cycles per packet (log-log) for
tagpipe's whole pipeline, tagpipe's GRO stage, DPDK's GRO, and DPDK's GRO
plus the packet-type parse it needs; below it, the merge ratios.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(args):
    save = None
    if "--save-json" in args:
        i = args.index("--save-json")
        save = args[i + 1]
        del args[i:i + 2]
    if len(args) == 1 and "=" not in args[0]:
        with open(args[0]) as f:
            doc = json.load(f)
    else:
        points = []
        for a in args:
            flows, path = a.split("=", 1)
            with open(path) as f:
                points.append({"flows": int(flows), "run": json.load(f)})
        doc = {"points": sorted(points, key=lambda p: p["flows"])}
    if save:
        with open(save, "w") as f:
            json.dump(doc, f, indent=1)
    return doc


def series(doc):
    rows = []
    for p in doc["points"]:
        tp, dp = p["run"]["tagpipe"], p["run"]["dpdk_gro"]
        if dp is None:
            sys.exit(f"point {p['flows']}: run without --compare dpdk-gro")
        # The cheapest loop when there were several: other work on the
        # machine inflates some loops, never deflates one.
        tb, db = tp.get("best_loop"), dp.get("best_loop")
        if tb and db:
            tp, dp = dict(tp, **tb), dict(dp, **db)
        rows.append({
            "flows": p["flows"],
            "tp": tp["cycles_per_packet"],
            "tp_gro": tp["stage_cycles_per_packet"].get("gro"),
            "dpdk": dp["cycles_per_packet"],
            "dpdk_parse": dp["with_parse_cycles_per_packet"],
            "tp_ratio": p["run"]["tagpipe"]["gro"]["merge_ratio"],
            "dpdk_ratio": p["run"]["dpdk_gro"]["gro"]["merge_ratio"],
            "tp_mpps": tp["mpps"],
            "dpdk_mpps": dp["mpps"],
        })
    return rows


def describe(doc):
    """One line saying how the runs were made (from the first point)."""
    run = doc["points"][0]["run"]
    c = run["config"]
    best = f"best of {run['loops']} loops, " if run["loops"] > 1 else ""
    return (f"{best}burst {run['burst']}, --gro {c['gro']}, checksums: {c.get('gro_csum', '?')}"
            f" (DPDK checks none), {run['tsc_hz'] / 1e9:.2f} GHz TSC")


def show(v):
    return "-" if v is None else "%.1f" % v


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = sys.argv[1]
    doc = load(sys.argv[2:])
    rows = series(doc)
    print("%6s %10s %10s %10s %12s %8s %8s %9s" % (
        "flows", "tp c/p", "tp gro", "dpdk c/p", "dpdk+parse", "tp mr", "dpdk mr", "dpdk/tp"))
    for r in rows:
        print("%6d %10.1f %10s %10.1f %12.1f %8.2f %8.2f %9.2f" % (
            r["flows"], r["tp"], show(r["tp_gro"]), r["dpdk"], r["dpdk_parse"],
            r["tp_ratio"], r["dpdk_ratio"], r["dpdk"] / r["tp"] if r["tp"] else 0))

    x = [r["flows"] for r in rows]
    run0 = describe(doc)
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(8, 8), sharex=True,
                                  gridspec_kw={"height_ratios": [3, 1]})
    tp_c, dp_c = "tab:blue", "tab:red"
    ax.plot(x, [r["tp"] for r in rows], "o-", color=tp_c, label="tagpipe: whole pipeline")
    if all(r["tp_gro"] is not None for r in rows):
        ax.plot(x, [r["tp_gro"] for r in rows], "o--", color=tp_c, alpha=0.6,
                label="tagpipe: GRO stage")
    ax.plot(x, [r["dpdk"] for r in rows], "s-", color=dp_c, label="DPDK librte_gro")
    ax.plot(x, [r["dpdk_parse"] for r in rows], "s--", color=dp_c, alpha=0.6,
            label="DPDK librte_gro + ptype parse")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_ylabel("cycles per packet")
    ax.set_title("GRO cost vs interleaved flows (lower is better)\n" + run0, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    ax2.plot(x, [r["tp_ratio"] for r in rows], "o-", color=tp_c, label="tagpipe")
    ax2.plot(x, [r["dpdk_ratio"] for r in rows], "s-", color=dp_c, label="DPDK")
    ax2.set_xscale("log", base=2)
    ax2.set_xticks(x)
    ax2.set_xticklabels([str(v) for v in x])
    ax2.set_xlabel("interleaved TCP flows")
    ax2.set_ylabel("merge ratio (in/out)")
    ax2.grid(True, alpha=0.3)
    ax2.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"plot: {out}")


if __name__ == "__main__":
    main()
