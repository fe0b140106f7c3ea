#!/bin/bash
# The native counterpart of heap-loss.sh (not part of the suite): the uring
# stressor's traffic beside a checked working set that swaps, with no
# valgrind and no mmfuzz code in the checked process, so that a page that
# reads back wrong is the kernel's (tests/load/zap-swap-check.c says how).
#   tests/load/zap-swap-check.sh [MINUTES]   (default 5; needs root, gcc, liburing)
# LIMIT is the memory cgroup's limit in MiB (default 64), MB the working set
# (default 1.5 x LIMIT), MODE u|s|n and ADVICE the tool's --mode and
# --advice (default u and 15). BESIDE="memcg,swap,ksm" runs
# 'build/mmfuzz stress $BESIDE' beside it for the same time. The swap file
# and the cgroup are made here and removed at the end; nothing else is
# touched. Exits with the tool's status: 0 clean, 3 a page read back wrong.
set -eu
[ "$(id -u)" -eq 0 ] || { echo "zap-swap-check: needs root" >&2; exit 1; }
cd "$(dirname "$0")/../.."
mins=${1:-5}
limit=${LIMIT:-64}
for n in "$mins" "$limit"; do
	case $n in
	'' | *[!0-9]* | 0) echo "zap-swap-check: '$n' is not a positive number" >&2; exit 1 ;;
	esac
done
mb=${MB:-$((limit * 3 / 2))}
beside=${BESIDE:-}
v2=
if [ -e /sys/fs/cgroup/cgroup.controllers ]; then
	v2=1
	grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
		{ echo "zap-swap-check: the memory controller is not enabled for child cgroups" >&2; exit 1; }
fi
[ -z "$beside" ] || make -s all

dir=$(mktemp -d /var/tmp/zap-swap-check.XXXXXX)
cg=
pids=()
stop() {
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	swapoff "$dir/swap" 2>/dev/null || true
	[ -z "$cg" ] || rmdir "$cg" 2>/dev/null || true
	rm -rf "$dir"
}
trap stop EXIT
# A signal ends the script at once (not after the tool), through stop.
trap 'exit 130' INT TERM HUP

gcc -std=gnu11 -O2 -Wall -pthread -o "$dir/zap-swap-check" tests/load/zap-swap-check.c -luring
fallocate -l 512M "$dir/swap"
chmod 600 "$dir/swap"
mkswap "$dir/swap" >/dev/null
swapon -p 0 "$dir/swap"
if [ -n "$v2" ]; then
	cg=/sys/fs/cgroup/zap-swap-check.$$
	mkdir "$cg"
	echo $((limit << 20)) >"$cg/memory.max"
else
	cg=/sys/fs/cgroup/memory/zap-swap-check.$$
	mkdir "$cg"
	echo $((limit << 20)) >"$cg/memory.limit_in_bytes"
fi

if [ -n "$beside" ]; then
	build/mmfuzz stress "$beside" --duration "${mins}m" --out "$dir/beside" \
		>"$dir/beside.log" 2>&1 &
	pids+=($!)
	sleep 3
fi
swapped() { awk '$1 == "pswpin" || $1 == "pswpout" { printf "%s ", $2 }' /proc/vmstat; }
before=$(swapped)
sh -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' tool "$cg" "$dir/zap-swap-check" \
	--mode "${MODE:-u}" --seconds $((10#$mins * 60)) --mb "$mb" --advice "${ADVICE:-15}" &
pids+=($!)
rc=0
wait $! || rc=$?
read -r in0 out0 <<<"$before"
read -r in1 out1 <<<"$(swapped)"
echo "zap-swap-check: ${mb} MiB in a ${limit} MiB cgroup for $mins min (beside: ${beside:-nothing});" \
	"pswpin +$((in1 - in0)), pswpout +$((out1 - out0)) machine-wide"
exit $rc
