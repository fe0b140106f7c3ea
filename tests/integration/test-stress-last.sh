#!/bin/bash
# test: host
# A finding names the stressors that acted before it: each stressor's
# thread carries its name (mmf-NAME, what a kernel report's Comm: shows),
# and every report the fuzzer saves ends with the stressors in the order
# they last acted. The fuzzer's test hook corrupts a page after writes of
# tag 238, so that the data oracle reports while the stressors run.
. "$(dirname "$0")/lib.sh"

"$MMFUZZ" fuzz --native --duration 10s --seed 11 --corrupt-tag 238 \
	--stress swap,folios,reclaim --out "$TMP/out" >"$TMP/log" 2>&1 &
pid=$!
names=
for _ in $(seq 100); do
	sleep 0.1
	runner=$(pgrep -P "$pid" -x mmfuzz-stress || true)
	[ -n "$runner" ] || continue
	names=$(cat /proc/"$runner"/task/*/comm 2>/dev/null | grep '^mmf-' | sort | tr '\n' ' ')
	[ "$names" = "mmf-folios mmf-reclaim mmf-swap " ] && break
done
rc=0
wait "$pid" || rc=$?
tail -n 5 "$TMP/log"
[ $rc -eq 3 ] || fail "fuzz exit status $rc, expected 3 (findings)"
[ "$names" = "mmf-folios mmf-reclaim mmf-swap " ] ||
	fail "stressor threads named '$names', want mmf-folios mmf-reclaim mmf-swap"
line=$(cat "$TMP"/out/crashes/*/report.* | grep '^stressors, the last to act first: ' | tail -n 1)
[ -n "$line" ] || fail "no saved report names the stressors"
echo "INFO: $line"
for s in swap folios reclaim; do
	grep -Eq "[:,] $s [0-9]+\.[0-9]{3} s" <<<"$line" || fail "'$s' is not in: $line"
done
check_clean
