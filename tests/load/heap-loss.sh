#!/bin/bash
# Whose is the stress runner's zeroed heap? (not part of the suite)
# Under heavy swapping (one 'mmfuzz stress all' and one uring,reclaim run),
# a third run of uring,reclaim under valgrind: memcheck checks every store
# of ours, so valgrind's own heap metadata found zeroed ("Assertion
# 'bszB != 0' failed" with 0 errors before it) was zeroed by something else.
# On 6.18.44 it came in both tries, within 2 minutes of the start. It needs
# io_uring's MADV_DONTNEED: VG=uring:ops=1:advice=4 (DONTNEED alone) hits,
# advice=11 (PAGEOUT, COLD, WILLNEED) does not, and neither does madvise(2).
# The native counterpart, the same traffic with no valgrind and each page
# checked, zap-swap-check.sh, never found a wrong page (7.4 M page checks
# in 10 min beside the same load): valgrind and io_uring, not mmfuzz.
#   tests/load/heap-loss.sh [MINUTES]   (default 5; needs root and valgrind)
# To take the setup apart: BESIDE (default "all", "none" for nothing) is
# what runs beside valgrind, VG (default "uring,reclaim") what runs in it;
# KEEP=DIR keeps valgrind's logs of a hit.
set -eu
[ "$(id -u)" -eq 0 ] || { echo "heap-loss: needs root" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "heap-loss: needs valgrind" >&2; exit 1; }
cd "$(dirname "$0")/../.."
mins=${1:-5}
make -s all
dir=$(mktemp -d /var/tmp/heap-loss.XXXXXX)
# valgrind cannot swapon: its run cycles a swap file made here.
fallocate -l 512M "$dir/swap"
chmod 600 "$dir/swap"
mkswap "$dir/swap" >/dev/null
swapon -p 0 "$dir/swap"
pids=()
stop() {
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	swapoff "$dir/swap" 2>/dev/null || true
	rm -rf "$dir"
}
trap stop EXIT
beside=${BESIDE:-all}
vg=${VG:-uring,reclaim}
if [ "$beside" != none ]; then
	build/mmfuzz stress "$beside" --duration "${mins}m" --out "$dir/all" >"$dir/all.log" 2>&1 &
	pids+=($!)
	build/mmfuzz stress uring,reclaim --duration "${mins}m" --out "$dir/ur" >"$dir/ur.log" 2>&1 &
	pids+=($!)
	sleep 3
fi
valgrind --trace-children=yes --log-file="$dir/vg.%p" build/mmfuzz stress "$vg" \
	--duration "${mins}m" --out "$dir/vg" --swap "$dir/swap" >"$dir/vg.log" 2>&1 || true
wait "${pids[@]}" || true
pids=()
if grep -l "Assertion 'bszB != 0' failed" "$dir"/vg.* >/dev/null 2>&1; then
	grep -h "ERROR SUMMARY\|Invalid" "$dir"/vg.* | sort | uniq -c
	# The assertion's stacks, for the next look: KEEP=DIR keeps them.
	[ -z "${KEEP:-}" ] || { mkdir -p "$KEEP"; cp "$dir"/vg.* "$KEEP"/; }
	echo "heap-loss: valgrind's heap was zeroed behind the program"
	exit 3
fi
echo "heap-loss: not seen in $mins min (beside: $beside; in valgrind: $vg)"
