#!/usr/bin/env bash
# Fetch the DPDK driver SDK headers that Debian's libdpdk-dev does not ship.
#
# Debian 12 installs DPDK 22.11 without ethdev_driver.h, ethdev_vdev.h,
# ethdev_pci.h, bus_vdev_driver.h, bus_pci_driver.h, bus_driver.h and
# dev_driver.h, although the installed shared libraries export the symbols
# they declare (version node INTERNAL). A PMD needs them, so we take them from
# the Debian *source* package of exactly the installed version, so that the
# structures they describe match the binaries we link against.
#
# Result: .cache/dpdk-sdk/<version>/include/*.h (ignored by git).
# Idempotent: does nothing when the headers for this version are present, or
# when the installed DPDK already ships them.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
say() { printf 'fetch-dpdk-sdk: %s\n' "$*"; }
die() { printf 'fetch-dpdk-sdk: error: %s\n' "$*" >&2; exit 1; }

headers=(ethdev_driver.h ethdev_vdev.h ethdev_pci.h bus_vdev_driver.h
         bus_pci_driver.h bus_driver.h dev_driver.h)

incdir=$(pkg-config --variable=includedir libdpdk 2>/dev/null) ||
	die "pkg-config cannot find libdpdk; install libdpdk-dev first"
if [ -f "$incdir/dpdk/ethdev_driver.h" ] || [ -f "$incdir/ethdev_driver.h" ]; then
	say "installed DPDK ships the driver SDK headers; nothing to fetch"
	exit 0
fi

# The version of the binary package that provides the libraries we link.
pkgver=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null) ||
	die "libdpdk-dev is not installed (dpkg-query found no version)"
[ -n "$pkgver" ] || die "libdpdk-dev has no installed version"
dest="$top/.cache/dpdk-sdk/$pkgver/include"
if [ -f "$dest/.complete" ]; then
	say "SDK headers for dpdk $pkgver already in $dest"
	exit 0
fi

command -v apt-get >/dev/null || die "apt-get not found: fetch the dpdk $pkgver source package by hand"
command -v dpkg-source >/dev/null || die "dpkg-source not found: install dpkg-dev"

# apt-get source needs a deb-src entry matching the configured deb entries.
if ! apt-get source --print-uris "dpdk=$pkgver" >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] || die "need root to add a deb-src entry for apt (or add one yourself)"
	srcl=/etc/apt/sources.list.d/tagpipe-deb-src.sources
	say "adding deb-src entries in $srcl"
	: > "$srcl.new"
	# deb822 stanzas: copy each Debian "deb" stanza as "deb-src".
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && [ "$f" != "$srcl" ] || continue
		awk 'BEGIN { RS = ""; ORS = "\n\n" }
		     /Types:[^\n]*deb/ && /debian/ { sub(/Types:[^\n]*/, "Types: deb-src"); print }' \
			"$f" >> "$srcl.new"
	done
	if [ -f /etc/apt/sources.list ]; then
		grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' > /etc/apt/sources.list.d/tagpipe-deb-src.list || true
	fi
	if [ -s "$srcl.new" ]; then mv "$srcl.new" "$srcl"; else rm -f "$srcl.new"; fi
	apt-get update -q >/dev/null || die "apt-get update failed after adding deb-src entries"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say "downloading the source package dpdk=$pkgver"
(cd "$work" && apt-get source -q --download-only "dpdk=$pkgver" >/dev/null 2>&1) ||
	die "apt-get source dpdk=$pkgver failed (is a deb-src entry configured?)"
dsc=$(ls "$work"/dpdk_*.dsc | head -n 1)
say "unpacking $(basename "$dsc")"
(cd "$work" && dpkg-source -x --skip-patches "$dsc" src >/dev/null 2>&1) ||
	die "dpkg-source could not unpack $dsc"

mkdir -p "$dest"
for h in "${headers[@]}"; do
	f=$(find "$work/src/lib" "$work/src/drivers/bus" -name "$h" -print -quit)
	[ -n "$f" ] || die "$h not found in the dpdk $pkgver sources"
	install -m 0644 "$f" "$dest/$h"
done
echo "$pkgver" > "$dest/.complete"
say "installed ${#headers[@]} SDK headers for dpdk $pkgver in $dest"
