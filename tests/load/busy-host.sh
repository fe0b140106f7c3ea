#!/bin/bash
# A busy host for proving the test suite holds on one (not part of it):
# while CMD runs, two processes lock and unlock 16 MiB in a loop (one as
# fast as it can, one holding each state for 250 ms) and a memory hog in a
# memory cgroup of its own keeps swapping to a swap file of its own, made
# with the highest priority so that the hog's pages go there rather than
# to the devices the tests make. Everything is removed when CMD ends.
#   tests/load/busy-host.sh CMD...   e.g. tests/load/busy-host.sh make check
set -eu
[ $# -gt 0 ] || { echo "usage: $0 CMD..." >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "busy-host: needs root" >&2; exit 1; }
cd "$(dirname "$0")/../.."

dir=$(mktemp -d /var/tmp/busy-host.XXXXXX)
swap=$dir/swap
cg=
pids=()
stop() {
	for p in "${pids[@]}"; do
		kill -9 "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	swapoff "$swap" 2>/dev/null || true
	[ -z "$cg" ] || rmdir "$cg" 2>/dev/null || true
	rm -rf "$dir"
}
trap stop EXIT

gcc -O2 -Wall -o "$dir/mlock-loop" tests/load/mlock-loop.c
"$dir/mlock-loop" 16 0 &
pids+=($!)
"$dir/mlock-loop" 16 250 &
pids+=($!)

fallocate -l 2G "$swap"
chmod 600 "$swap"
mkswap -q "$swap"
swapon -p 32767 "$swap"
if [ -e /sys/fs/cgroup/cgroup.controllers ]; then
	cg=/sys/fs/cgroup/busy-host.$$
	mkdir "$cg"
	echo 256M >"$cg/memory.max"
else
	cg=/sys/fs/cgroup/memory/busy-host.$$
	mkdir "$cg"
	echo 256M >"$cg/memory.limit_in_bytes"
fi
# The hog: 768 MiB of random words dirtied over and over in 256 MiB.
sh -c 'echo $$ >"$1/cgroup.procs"; exec stress-ng --vm 1 --vm-bytes 768M \
	--vm-method rand-set --vm-keep --timeout 0 --quiet' hog "$cg" &
pids+=($!)
sleep 5
echo "busy-host: mlock loops and a hog swapping in $cg; swap $(grep "$swap" /proc/swaps)" >&2
rc=0
"$@" || rc=$?
echo "busy-host: pswpout $(awk '$1 == "pswpout" { print $2 }' /proc/vmstat)" >&2
exit $rc
