#!/bin/bash
# test: host
# The kernel-log oracle fires: a kernel report written into /dev/kmsg while
# the fuzzer runs is reported with its title and saved in the crash store
# with its program, the kernel log and the kernel's build.
. "$(dirname "$0")/lib.sh"

"$MMFUZZ" fuzz --native --duration 8s --seed 7 --out "$TMP/out" >"$TMP/log" 2>&1 &
pid=$!
# Setting up swap takes seconds on a busy machine: write once it fuzzes.
for _ in $(seq 300); do
	grep -q '^mmfuzz: fuzzing natively' "$TMP/log" && break
	sleep 0.1
done
sleep 1
printf 'BUG: Bad rss-counter state mm:00000000b6fe4a1c type:MM_ANONPAGES val:1\n' >/dev/kmsg
rc=0
wait $pid || rc=$?
cat "$TMP/log"
[ $rc -eq 3 ] || fail "fuzz exited with $rc, not 3 (a title new to the store)"
grep -q '^  *1  new   BUG: Bad rss-counter state$' "$TMP/log" || fail "no summary line for it"
grep -q '"title":"BUG: Bad rss-counter state","count":1,"new":true' "$TMP/out/summary.json" ||
	fail "summary.json: $(cat "$TMP/out/summary.json")"
grep -q '^REPORT: BUG: Bad rss-counter state' "$TMP/log" || fail "report not seen"
# Saved in the crash store with the program, the kernel log and this kernel.
bug=$(ls -d "$TMP/out/crashes/BUG_Bad_rss-counter_state-"*) || fail "no bug directory"
grep -qx 'BUG: Bad rss-counter state' "$bug/title" || fail "title: $(cat "$bug/title")"
grep -q 'Bad rss-counter state' "$bug/report.0" && grep -q 'Bad rss-counter state' "$bug/log.0" ||
	fail "report or kernel log not saved"
grep -q '[a-z](' "$bug/progs.0" || fail "program not saved"
grep -qx "arch: $(uname -m)" "$bug/meta" && grep -qxF "kernel: $(uname -r) $(uname -v)" "$bug/meta" &&
	grep -qx 'count: [1-9][0-9]*' "$bug/meta" || { cat "$bug/meta"; fail "meta"; }
grep -qF "REPORT: BUG: Bad rss-counter state (saved as $bug/report.0)" "$TMP/log" ||
	fail "the REPORT line does not name the saved file"
"$MMFUZZ" triage list "$TMP/out" | grep -Eq '^ +[1-9][0-9]*  [0-9T:-]+Z  none    BUG: Bad rss-counter state$' ||
	fail "triage list does not show it"
check_clean
