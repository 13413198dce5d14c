#!/usr/bin/env bash
# Build the fuzz targets with clang's libFuzzer (+ ASan, UBSan) and run each
# for a bounded time from its committed corpus (tests/fuzz/corpus/<target>).
#
# usage: tests/fuzz/libfuzzer.sh WORKDIR SECONDS [TARGET...]
#   TARGET: dsa vlan gro pcap acl bpf xbpf devargs replay_opts fwd_opts
#   (default: all). New inputs go to
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
[ ${#targets[@]} -gt 0 ] || targets=(dsa vlan gro pcap acl bpf xbpf devargs replay_opts fwd_opts)
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
	-I"$top/lib/prog" -I"$top/lib/pipeline" -I"$top/lib/bpf" -I"$top/src" -I"$top/tests/bpf" -I"$top/apps/replay" -I"$top/apps/fwd" -I"$top/apps/common" -I"$top/drivers/atlantic_pmd/base" -I"$top/drivers/atlantic_pmd/model" -I"$top/drivers/atlantic_pmd/sim"
	-DALLOW_INTERNAL_API -DRTE_LOG_DEFAULT_LOGTYPE=pmd.net.aqc)
# The driver's devargs parser includes the DPDK driver SDK headers that
# scripts/fetch-dpdk-sdk.sh keeps in .cache (Debian ships no driver headers).
for sdk in "$top"/.cache/dpdk-sdk/*/include; do
	[ -d "$sdk" ] && cflags+=(-I"$sdk")
done
# apps/common's --version text: the header meson configures (apps/meson.build)
ver=$(sed -n "s/^[[:space:]]*version: *'\([^']*\)'.*/\1/p" "$top/meson.build" | head -1)
printf '#pragma once\n#define TAGPIPE_VERSION "%s"\n' "${ver:-unknown}" >"$work/tp_version.h"
# src/tagpipe.h's build configuration (src/meson.build): lib/bpf is in.
printf '#pragma once\n#define TP_HAS_BPF 1\n' >"$work/tp_config.h"
cflags+=(-I"$work")
declare -A srcs=(
	[dsa]="tests/fuzz/fuzz_dsa.c lib/dsa_tag/*.c lib/vlan/*.c"
	[vlan]="tests/fuzz/fuzz_vlan.c lib/vlan/*.c"
	[gro]="tests/fuzz/fuzz_gro.c lib/gro/*.c"
	[pcap]="tests/fuzz/fuzz_pcap.c apps/replay/capture.c apps/replay/linktype.c apps/replay/pcapng.c"
	[acl]="tests/fuzz/fuzz_acl.c"
	[bpf]="tests/fuzz/fuzz_bpf.c"
	[xbpf]="tests/fuzz/fuzz_xbpf.c tests/bpf/bpf_diff.c"
	[devargs]="tests/fuzz/fuzz_devargs.c drivers/atlantic_pmd/sim/aqc_sim_devargs.c drivers/atlantic_pmd/model/*.c"
	[replay_opts]="tests/fuzz/fuzz_replay_opts.c tests/fuzz/fuzz_cli.c apps/replay/options.c apps/replay/linktype.c apps/common/cli_syntax.c apps/common/tp_eal.c"
	[fwd_opts]="tests/fuzz/fuzz_fwd_opts.c tests/fuzz/fuzz_cli.c $(cd "$top" && ls apps/fwd/*.c | grep -v /main.c) apps/common/cli_syntax.c apps/common/tp_eal.c"
)

# Targets of libtagpipe's API link every library of lib/,
# compiled once into an archive: it is most of the build's time.
declare -A whole_lib=([pcap]=1 [acl]=1 [bpf]=1 [xbpf]=1 [replay_opts]=1 [fwd_opts]=1)
libtp="$work/libtp_fuzz.a"
build_libtp() {
	# kept between runs of one WORKDIR until a source is newer
	[ -f "$libtp" ] && [ -z "$(cd "$top" && find src lib -name '*.[ch]' -newer "$libtp")" ] &&
		return 0
	local objs=() o
	mkdir -p "$work/libtp"
	for f in $(cd "$top" && ls lib/*/*.c); do
		o="$work/libtp/$(echo "$f" | tr / _).o"
		(cd "$top" && "$cc" "${san[@]/fuzzer,/fuzzer-no-link,}" "${cflags[@]}" -c "$f" -o "$o") ||
			return 1
		objs+=("$o")
	done
	ar rcs "$libtp" "${objs[@]}"
}

rc=0
for t in "${targets[@]}"; do
	[ -n "${srcs[$t]:-}" ] || { echo "libfuzzer: unknown target $t"; exit 2; }
	bin="$work/fuzz_$t"
	# shellcheck disable=SC2086  # the globs are meant to expand
	files=$(cd "$top" && ls ${srcs[$t]} tests/fuzz/fuzz_common.c)
	extra=()
	if [ -n "${whole_lib[$t]:-}" ]; then
		if ! build_libtp >"$work/build-libtp.log" 2>&1; then
			echo "libfuzzer: building the library for $t failed:"
			tail -30 "$work/build-libtp.log"
			echo "libfuzzer: $t: library build failed, exit 1"
			rc=1
			continue
		fi
		# whole: the taggers register from constructors (link_whole in meson)
		extra=(-Wl,--whole-archive "$libtp" -Wl,--no-whole-archive)
	fi
	if ! (cd "$top" && "$cc" "${san[@]}" "${cflags[@]}" $files "${extra[@]}" -o "$bin" \
		"${dpdk_libs[@]}" -lpcap -lbpf -lelf -ldl -lm -lpthread) >"$work/build-$t.log" 2>&1; then
		echo "libfuzzer: building $t failed:"
		tail -30 "$work/build-$t.log"
		echo "libfuzzer: $t: build failed, exit 1"
		rc=1
		continue
	fi
	mkdir -p "$work/corpus-$t"
	log="$work/fuzz-$t.log"
	# A fixed seed (TP_FUZZ_SEED, default 1) makes a CI failure reproducible:
	# the same mutations in the same order, only the run's length varies.
	# bpf: an input may run 4 packets of 10^6 loop iterations, interpreted
	# under ASan on a loaded machine; the others take milliseconds.
	# xbpf: each accepted program is compiled (tpb_compile), then run.
	tmo=10
	[ "$t" = bpf ] || [ "$t" = xbpf ] && tmo=60
	"$bin" -seed="${TP_FUZZ_SEED:-1}" -max_total_time="$secs" -timeout="$tmo" \
		-rss_limit_mb=4096 -print_final_stats=1 \
		-artifact_prefix="$work/" "$work/corpus-$t" "$top/tests/fuzz/corpus/$t" \
		>"$log" 2>&1
	st=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
	echo "libfuzzer: $t: ${execs:-?} executions in ${secs}s, ${cov:-cov: ?}, exit $st"
	# what the target counted itself (xbpf: programs compared in both modes)
	grep -h "^$t: [0-9]* inputs" "$log" | tail -1
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
