#!/bin/bash
# The kernel-log oracle fires: a kernel report written into /dev/kmsg while
# the fuzzer runs is reported with its title and saved with a program.
. "$(dirname "$0")/lib.sh"

"$MMFUZZ" fuzz --native --duration 8s --seed 7 --out "$TMP/out" >"$TMP/log" 2>&1 &
pid=$!
sleep 3
printf 'BUG: Bad rss-counter state mm:00000000b6fe4a1c type:MM_ANONPAGES val:1\n' >/dev/kmsg
wait $pid || fail "fuzz exited with $?"
cat "$TMP/log"
grep -q '^REPORT: BUG: Bad rss-counter state' "$TMP/log" || fail "report not seen"
ls "$TMP/out/reports/BUG: Bad rss-counter state/report.0" "$TMP/out/reports/BUG: Bad rss-counter state/prog.0" >/dev/null ||
	fail "report not saved with its program"
check_clean
