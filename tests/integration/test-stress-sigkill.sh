#!/bin/bash
# test: alone
# SIGKILL of 'mmfuzz stress' in the middle of a run (its runner and
# stress-ng die with it, stress-ng's swap file on), then 'mmfuzz cleanup' (or the guardian that
# watches the run): no swap device, swap or loop file, loop or
# zram device or cgroup of ours is left, and every knob the stressors
# changed (THP sizes, khugepaged, KSM) has its value from before.
. "$(dirname "$0")/lib.sh"

# stress-ng's swap profile: its swap file is on when the run dies.
"$MMFUZZ" stress memcg,swap,folios,ksm,reclaim,stressng:seconds=20:profile=3 --duration 60s \
	--out "$TMP/out" --swap-size 64 >"$TMP/log" 2>&1 &
pid=$!
wait_for $pid 120 grep -q '^stress: running' "$TMP/log" ||
	fail "the stressors never started: $(cat "$TMP/log")"
wait_for $pid 60 grep -q "^$TMP/out/stress-ng/" /proc/swaps ||
	fail "stress-ng's swap file never went on: $(cat "$TMP/log")"
runner=$(sed -n 's/.*(runner \([0-9]*\)).*/\1/p' "$TMP/log")
# Ours only: other stress-ng processes may run on this machine.
ours=$(for p in $(descendants $pid); do
	[ "$(cat /proc/$p/comm 2>/dev/null)" != stress-ng ] || echo $p
done)
[ -n "$ours" ] || fail "stress-ng is not running"
[ "$(our_knobs)" != "$KNOBS_BEFORE" ] || fail "no knob was changed: nothing to restore"
losetup -a | grep -q "mmfuzz-loop\.$runner\|mmfuzz-loop\.$pid" || fail "no loop device was made"
kill -9 $pid
wait $pid 2>/dev/null || true
for _ in $(seq 50); do
	[ -d "/proc/$runner" ] || break
	sleep 0.1
done
[ ! -d "/proc/$runner" ] || fail "the runner outlived its parent"
for _ in $(seq 50); do
	left=$(for p in $ours; do
		ps -o stat= -p $p 2>/dev/null | grep -v Z && echo $p
	done || true)
	[ -z "$left" ] && break
	sleep 0.1
done
[ -z "$left" ] || fail "stress-ng outlived the run: $left"
cleanup_after_kill
