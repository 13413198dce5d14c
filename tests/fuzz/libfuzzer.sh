#!/usr/bin/env bash
# Build the fuzz targets with clang's libFuzzer (+ ASan, UBSan) and run each
# for a bounded time from its committed corpus (tests/fuzz/corpus/<target>).
#
# usage: tests/fuzz/libfuzzer.sh WORKDIR SECONDS [TARGET...]
#   TARGET: dsa vlan gro pcap (default: all). New inputs go to
#   WORKDIR/corpus-<target>; a failing input is kept as WORKDIR/crash-*
#   (its bytes are printed as hex too, so CI logs hold the reproducer).
#   Exit 0: every target ran clean; 1: a target failed; 77: libFuzzer is
#   not available (clang without libclang-rt-14-dev).
# The library sources are compiled into each target with coverage, the
# same files meson builds (lib/*/*.c), against the installed DPDK.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:?usage: $0 WORKDIR SECONDS [TARGET...]}
secs=${2:?usage: $0 WORKDIR SECONDS [TARGET...]}
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(dsa vlan gro pcap)
mkdir -p "$work"

cc=${CLANG:-clang}
san=(-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
if ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return d && n; }' |
	"$cc" "${san[@]}" -x c - -o "$work/probe" 2>/dev/null; then
	echo "libfuzzer: $cc cannot build with -fsanitize=fuzzer (install libclang-rt-14-dev)"
	exit 77
fi

read -r -a dpdk_cflags <<<"$(pkg-config --cflags libdpdk)"
read -r -a dpdk_libs <<<"$(pkg-config --libs libdpdk)"
cflags=(-O1 -g -std=c11 -D_GNU_SOURCE -DALLOW_EXPERIMENTAL_API "${dpdk_cflags[@]}"
	-I"$top/tests/fuzz" -I"$top/lib" -I"$top/lib/dsa_tag" -I"$top/lib/vlan" -I"$top/lib/gro"
	-I"$top/src" -I"$top/apps/replay")
declare -A srcs=(
	[dsa]="tests/fuzz/fuzz_dsa.c lib/dsa_tag/*.c"
	[vlan]="tests/fuzz/fuzz_vlan.c lib/vlan/*.c"
	[gro]="tests/fuzz/fuzz_gro.c lib/gro/*.c"
	[pcap]="tests/fuzz/fuzz_pcap.c apps/replay/capture.c apps/replay/linktype.c apps/replay/pcapng.c"
)

rc=0
for t in "${targets[@]}"; do
	[ -n "${srcs[$t]:-}" ] || { echo "libfuzzer: unknown target $t"; exit 2; }
	bin="$work/fuzz_$t"
	# shellcheck disable=SC2086  # the globs are meant to expand
	files=$(cd "$top" && ls ${srcs[$t]} tests/fuzz/fuzz_common.c)
	if ! (cd "$top" && "$cc" "${san[@]}" "${cflags[@]}" $files -o "$bin" \
		"${dpdk_libs[@]}" -lpcap) >"$work/build-$t.log" 2>&1; then
		echo "libfuzzer: building $t failed:"
		tail -30 "$work/build-$t.log"
		rc=1
		continue
	fi
	mkdir -p "$work/corpus-$t"
	log="$work/fuzz-$t.log"
	# A fixed seed (TP_FUZZ_SEED, default 1) makes a CI failure reproducible:
	# the same mutations in the same order, only the run's length varies.
	"$bin" -seed="${TP_FUZZ_SEED:-1}" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=4096 -print_final_stats=1 \
		-artifact_prefix="$work/" "$work/corpus-$t" "$top/tests/fuzz/corpus/$t" \
		>"$log" 2>&1
	st=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	echo "libfuzzer: $t: ${execs:-?} executions in ${secs}s, ${cov:-cov: ?}, exit $st"
	if [ $st -ne 0 ]; then
		rc=1
		grep -E "ERROR|property failed|SUMMARY|Test unit written" "$log" | head -20
		for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
			[ -f "$a" ] || continue
			echo "reproducer $(basename "$a") (hex):"
			od -An -tx1 -v "$a" | head -64
		done
	fi
done
exit $rc
