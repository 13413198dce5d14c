#!/usr/bin/env bash
# Instructions per packet of tp_gro and of DPDK's librte_gro on the benchmark's
# input (bench_gro.c: bulk TCP/IPv4, MSS 1448, bursts of 32, flushed every K
# bursts), counted by callgrind inside the GRO calls only (merge and flush,
# callees included), one flow count at a time. Instruction counts do not
# depend on how busy the machine is, which cycle counts do, nor on the page
# size (valgrind cannot map the EAL's hugepage area: TP_TEST_NO_HUGE=1).
#
# usage: callgrind_gro.sh BENCH_GRO [FLOWS...]     (default flows: 1 32)
# Prints one line per engine and flow count; exits 0 unless a run fails.
set -euo pipefail

bench=$1
shift
flows=("$@")
[ ${#flows[@]} -gt 0 ] || flows=(1 32)
command -v valgrind >/dev/null || { echo "callgrind_gro: valgrind not installed, skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# the frame count of one pass, as bench_gro.c's TOTAL
total=65536
printf '%-8s %6s %14s %10s\n' engine flows instructions instr/pkt
for f in "${flows[@]}"; do
	for eng in tagpipe dpdk; do
		case $eng in
		tagpipe) fns=(tp_gro_merge_burst tp_gro_flush_all) ;;
		dpdk) fns=(rte_gro_reassemble rte_gro_timeout_flush) ;;
		esac
		toggles=()
		for fn in "${fns[@]}"; do toggles+=("--toggle-collect=$fn"); done
		TP_GRO_BENCH_FLOWS=$f TP_GRO_BENCH_ENGINE=$eng TP_GRO_BENCH_REPS=1 \
			TP_GRO_BENCH_AGE_ONLY=1 TP_TEST_NO_HUGE=1 \
			valgrind --tool=callgrind --callgrind-out-file="$out/cg.$eng.$f" \
			"${toggles[@]}" "$bench" >"$out/log.$eng.$f" 2>&1 ||
			{ tail -20 "$out/log.$eng.$f"; exit 1; }
		ir=$(callgrind_annotate "$out/cg.$eng.$f" 2>/dev/null |
			awk '/PROGRAM TOTALS/ && !done { gsub(",", "", $1); print $1; done = 1 }')
		awk -v e="$eng" -v f="$f" -v ir="$ir" -v n="$total" \
			'BEGIN { printf "%-8s %6s %14s %10.1f\n", e, f, ir, ir / n }'
	done
done
