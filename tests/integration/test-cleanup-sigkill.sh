#!/bin/bash
# test: alone
# After SIGKILL of a fuzzer, 'mmfuzz cleanup' (or the guardian that watches
# the run) leaves no swap device, swap file, zram device or cgroup of ours.
. "$(dirname "$0")/lib.sh"

"$MMFUZZ" fuzz --native --duration 60s --out "$TMP/out" >"$TMP/log" 2>&1 &
pid=$!
wait_for $pid 120 grep -q "mmfuzz-swap\.$pid" /proc/swaps || fail "the fuzzer made no swap device"
sleep 1
kill -9 $pid
wait $pid 2>/dev/null || true
cleanup_after_kill
