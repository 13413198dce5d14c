#!/bin/sh
# GRO sweep: tagpipe vs DPDK's librte_gro over a range of interleaved flows.
#
# usage: sweep.sh REPLAY OUTDIR [FLOWS...]
#   env: FRAMES (frames per point, at least SEGS per flow; default 65536),
#        SEGS (default 32), GRO (default age:1000), LOOPS (default 2),
#        CSUM (--gro-csum: default trust, as behind a NIC that checks
#        RX checksums; DPDK's GRO checks none), BURST (default 32), V6_SHARE (percent of IPv6 flows, default 0:
#        DPDK 22.11's librte_gro has no TCP/IPv6)
# For each flow count N it generates OUTDIR/flows-N.pcap (gen_flows.py), runs
# `REPLAY -i ... --compare dpdk-gro --json OUTDIR/flows-N.json`, then joins
# the points into OUTDIR/sweep.json and plots OUTDIR/sweep.png
# (plot_sweep.py). Prints each point's figures; fails only when a tool fails.
set -eu

[ $# -ge 2 ] || { echo "usage: $0 REPLAY OUTDIR [FLOWS...]" >&2; exit 2; }
replay=$1
out=$2
shift 2
flows=${*:-1 2 4 8 16 32 64 128 256 512 1024 2048 4096}
here=$(dirname "$0")
py=${PYTHON:-/usr/bin/python3}
frames=${FRAMES:-65536}
gro=${GRO:-age:1000}
segs=${SEGS:-32}
mkdir -p "$out"

points=""
for n in $flows; do
	nframes=$frames
	[ $((n * segs)) -le "$nframes" ] || nframes=$((n * segs))
	pcap="$out/flows-$n.pcap"
	json="$out/flows-$n.json"
	"$py" "$here/gen_flows.py" "$pcap" "$n" "$nframes" --v6-share "${V6_SHARE:-0}"
	# GRO table sized for the flows (at least the default 1024).
	table=$n
	[ "$table" -ge 1024 ] || table=1024
	echo "== $n flows, $nframes frames, --gro $gro --gro-flows $table"
	"$replay" -i "$pcap" --burst "${BURST:-32}" --loops "${LOOPS:-2}" --gro "$gro" \
		--gro-flows "$table" --gro-csum "${CSUM:-trust}" --compare dpdk-gro --json "$json"
	points="$points $n=$json"
	rm -f "$pcap"
done
# shellcheck disable=SC2086
"$py" "$here/plot_sweep.py" "$out/sweep.png" --save-json "$out/sweep.json" $points
