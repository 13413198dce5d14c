#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# hugepages.sh: 2 MiB hugepages for tagpipe (DPDK) on Linux.
#
#   hugepages.sh reserve N [DIR]   mount hugetlbfs (pagesize=2M) on DIR
#                                  (default /dev/hugepages) unless it is one
#                                  already, and make at least N 2 MiB pages
#                                  exist; remembers what it changed
#   hugepages.sh release [DIR]     undo what "reserve" did for DIR: restore
#                                  the page count it found, unmount if it
#                                  mounted
#   hugepages.sh status            page counts and hugetlbfs mounts
#
# The page count is the kernel's vm.nr_hugepages for 2 MiB pages
# (Documentation/admin-guide/mm/hugetlbpage.rst); the kernel may give fewer
# pages than asked when memory is fragmented: "reserve" then says how many
# it got and exits 1 (after putting the count back). Needs root.
# State for "release" is kept in /run/tagpipe-hugepages/<DIR as a name>.
set -eu

SYS=/sys/kernel/mm/hugepages/hugepages-2048kB
STATE_DIR=/run/tagpipe-hugepages

die() { echo "hugepages.sh: $*" >&2; exit 1; }
usage() { sed -n '4,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

state_file() { echo "$STATE_DIR/$(echo "$1" | tr '/' '_')"; }
is_hugetlbfs() { awk -v d="$1" '$2 == d && $3 == "hugetlbfs" { f = 1 } END { exit !f }' /proc/mounts; }

reserve() {
	n=$1 dir=$2
	case $n in ''|*[!0-9]*) die "reserve: bad page count '$n'" ;; esac
	[ -d "$SYS" ] || die "this kernel has no 2 MiB hugepages ($SYS)"
	[ "$(id -u)" = 0 ] || die "reserve: needs root"
	mkdir -p "$STATE_DIR"
	st=$(state_file "$dir")
	before=$(cat "$SYS/nr_hugepages")
	mounted=0
	if ! is_hugetlbfs "$dir"; then
		mkdir -p "$dir"
		mount -t hugetlbfs -o pagesize=2M nodev "$dir" || die "cannot mount hugetlbfs on $dir"
		mounted=1
	fi
	# Keep the first reservation's state: release restores the original.
	[ -f "$st" ] || printf 'before=%s\nmounted=%s\n' "$before" "$mounted" > "$st"
	if [ "$before" -lt "$n" ]; then
		echo "$n" > "$SYS/nr_hugepages" || true
	fi
	got=$(cat "$SYS/nr_hugepages")
	if [ "$got" -lt "$n" ]; then
		echo "hugepages.sh: asked for $n 2 MiB pages, the kernel gave $got" >&2
		release "$dir"
		exit 1
	fi
	echo "hugepages: $got x 2 MiB ($(cat "$SYS/free_hugepages") free) on $dir"
}

release() {
	dir=$1
	st=$(state_file "$dir")
	[ -f "$st" ] || die "release: nothing reserved for $dir by this script"
	before=$(sed -n 's/^before=//p' "$st")
	mounted=$(sed -n 's/^mounted=//p' "$st")
	if [ "$mounted" = 1 ] && is_hugetlbfs "$dir"; then
		umount "$dir" || die "release: $dir is busy (a DPDK process still running?)"
		rmdir "$dir" 2>/dev/null || true
	fi
	echo "$before" > "$SYS/nr_hugepages"
	rm -f "$st"
	echo "hugepages: back to $(cat "$SYS/nr_hugepages") x 2 MiB"
}

status() {
	for d in /sys/kernel/mm/hugepages/hugepages-*; do
		[ -d "$d" ] || continue
		echo "${d##*/}: total $(cat "$d/nr_hugepages") free $(cat "$d/free_hugepages")"
	done
	awk '$3 == "hugetlbfs" { print "hugetlbfs on " $2 " (" $4 ")" }' /proc/mounts
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
reserve) [ $# -ge 1 ] || usage; reserve "$1" "${2:-/dev/hugepages}" ;;
release) release "${1:-/dev/hugepages}" ;;
status) status ;;
*) usage ;;
esac
