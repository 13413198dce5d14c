#!/usr/bin/env bash
# Install what tagpipe needs on Debian 12, fetch the DPDK driver SDK headers,
# configure and build. Idempotent: a second run only rebuilds what changed.
#
# usage: scripts/bootstrap.sh [BUILDDIR]   (default: build)
# Needs root for apt-get (run as root or with sudo); skips apt when every
# package is already installed.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
builddir=${1:-build}
case "$builddir" in /*) ;; *) builddir="$top/$builddir" ;; esac

say() { printf 'bootstrap: %s\n' "$*"; }
die() { printf 'bootstrap: error: %s\n' "$*" >&2; exit 1; }

# Debian packages, one purpose each:
packages=(
	dpdk dpdk-dev libdpdk-dev libnuma-dev   # DPDK 22.11: libraries, testpmd, telemetry client
	python3-pyelftools                      # dpdk-pmdinfo.py (only a Recommends of dpdk)
	gcc meson ninja-build pkg-config        # the build
	dpkg-dev                                # dpkg-source, to unpack the DPDK source package
	libcmocka-dev libpcap-dev               # unit tests, pcap input/output
	python3 python3-scapy                   # capture generators and expected outputs
	python3-matplotlib                      # benchmark plots
	clang llvm libbpf-dev                   # eBPF verdict programs (libelf-dev comes with libbpf-dev)
	libxdp1                                 # the XDP objects Debian ships: tests/bpf runs them unmodified
	tcpdump iperf3 iproute2 ethtool         # integration tests (netns, veth, real TCP)
	valgrind                                # instruction counts in benchmarks
	abigail-tools                           # abidiff: ABI check against abi/
)

[ -r /etc/debian_version ] || die "this script supports Debian 12 (no /etc/debian_version here)"
command -v apt-get >/dev/null || die "apt-get not found: install the packages listed in $0 by hand"

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || die "need root to install: ${missing[*]} (rerun with sudo)"
	say "installing ${#missing[@]} Debian packages: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q || die "apt-get update failed"
	# With Recommends, as the machines the tests were written on.
	apt-get install -y -q "${missing[@]}" || die "apt-get install failed"
else
	say "all ${#packages[@]} Debian packages present"
fi

say "DPDK $(pkg-config --modversion libdpdk): fetching driver SDK headers if needed"
bash "$top/scripts/fetch-dpdk-sdk.sh" || die "could not get the DPDK driver SDK headers"

if [ -f "$builddir/build.ninja" ]; then
	say "reconfiguring $builddir"
	meson setup --reconfigure "$builddir" "$top" >/dev/null || die "meson setup failed (see $builddir/meson-logs/meson-log.txt)"
else
	say "configuring $builddir"
	meson setup "$builddir" "$top" >/dev/null || die "meson setup failed (see $builddir/meson-logs/meson-log.txt)"
fi
say "building"
meson compile -C "$builddir" >/dev/null || { meson compile -C "$builddir" 2>&1 | tail -40; die "build failed"; }
say "built into $builddir"
