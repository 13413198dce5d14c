#!/usr/bin/env bash
# Write the ABI baselines abi/<lib>.abi from a build (default build/):
# meson install into a staging directory, then abidw (Debian package
# abigail-tools) on each installed library, restricted to the types of the
# installed headers. Run it when a release fixes the ABI (and bump the
# version node in the version maps when a stable symbol changes);
# tests/integration/abi_check.py compares every build with these files.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
command -v abidw >/dev/null || { echo "abi-baseline: abidw not found (apt-get install abigail-tools)" >&2; exit 1; }
meson install -C "$build" --no-rebuild --destdir "$stage" --quiet
inc=$(find "$stage" -type d -path '*/include/tagpipe' | head -1)
for lib in libtp_vlan libtp_dsa_tag libtp_gro libtp_prog libtp_pipeline libtp_bpf; do
	so=$(find "$stage" -name "$lib.so" | head -1)
	abidw --no-corpus-path --no-comp-dir-path --drop-private-types \
		--headers-dir "$inc" --out-file "$top/abi/$lib.abi" "$so"
	echo "abi-baseline: abi/$lib.abi"
done
