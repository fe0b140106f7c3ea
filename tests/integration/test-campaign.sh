#!/bin/bash
# A campaign under TCG with Debian's kernel: the guest fuzzes (its progress
# on the host), then goes silent (test hook); the campaign sees the hang,
# saves it with the console log and the last programs, restarts the guest
# and goes on. A SIGKILLed campaign loses nothing it saved and leaves no
# QEMU behind. A guest whose fuzzer ends before the budget is booted
# again, no finding.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

out="$TMP/c"
# Until a guest that replaced the silent one runs programs (170 s at most):
# boot 2, or a later one if Debian's kernel ended boot 2 on its own.
restarted() { grep -q 'boot \([2-9]\|[1-9][0-9]\): first program' "$TMP/log"; }
stop_when restarted "$MMFUZZ" campaign --arch x86_64 --vms 1 --corpus none --duration 170s --kernel debian \
	--hang-timeout 20s --guest-arg --stall-after --guest-arg 12 \
	--out "$out" >"$TMP/log" 2>&1 && rc=0 || rc=$?
[ $rc -eq 3 ] || { cat "$TMP/log"; fail "campaign exit $rc, not 3 (the hang is a new title)"; }
grep -v '^mmfuzz: vm 0: qemu' "$TMP/log"
grep -q '^mmfuzz: vm 0: qemu-system-x86_64 .*-accel tcg' "$TMP/log" || fail "no QEMU command line"
grep -q 'boot 1: first program .* s after QEMU started' "$TMP/log" || fail "no boot time"
grep -q 'REPORT: no output from test machine' "$TMP/log" || fail "the silent guest was not seen as a hang"
# Progress on the host every 10 s: the silence alone lasts 20 s, after programs ran.
grep -Eq '^\[ +[0-9]+s\] programs [1-9][0-9]* \([0-9.]+/s\) findings [0-9]+ \([0-9]+ new\) boots [0-9]+ restarts [0-9]+, [0-9]+m[0-9]+s left$' \
	"$TMP/log" || fail "no progress line with programs"
summary=$(grep '^mmfuzz: campaign: .* boot(s)' "$TMP/log")
boots=$(sed -n 's/.*campaign: \([0-9]*\) boot(s).*/\1/p' <<<"$summary")
progs=$(sed -n 's/.* \([0-9]*\) program(s).*/\1/p' <<<"$summary")
echo "INFO: $boots boots, $progs programs"
# More boots than the hang's restart: show why, with any kernel report
# (two runs had a restored guest of Debian's kernel panic before it ran).
if [ "$boots" -gt 2 ]; then
	grep 'REPORT\|boot [0-9]*: ' "$TMP/log" | sed 's/^/INFO: /'
	for d in "$out"/crashes/*; do
		[ -f "$d/title" ] && ! grep -q '^no output' "$d/title" || continue
		head -n 40 "$d/report.0" | sed 's/^/INFO: /'
	done
fi
[ "$boots" -ge 2 ] || fail "the guest was not restarted after the hang"
[ "$progs" -ge 12 ] || fail "too few programs ran: $progs"
bug=$(ls -d "$out"/crashes/no_output_from_test_machine-*)
grep -q '^count: [1-9]' "$bug/meta" || fail "hang not counted"
grep -q '^# mmfuzz: executing program' "$bug/progs.0" || fail "hang saved without the last programs"
grep -q 'mmfuzz: test hook: going silent' "$bug/log.0" || fail "hang saved without the console log"

# The guests' fuzzers end after 10 s: each end is a new boot, not a finding.
# A kernel report meanwhile (CI saw "kernel panic: Fatal exception" in
# boots 1 and 2: TCG's int3 artefact, which kvm/init's perf-hold ends) is
# shown, and the boot after it goes on; an end is never one.
# Until a boot after the first ended one runs programs (75 s at most).
ended_boot() {
	sed -n 's/.*boot \([0-9]*\): the fuzzer ended (exit status 0); booting again/\1/p' \
		"$TMP/log3" | head -n 1
}
ran_after() {
	sed -n 's/.*boot \([0-9]*\): first program.*/\1/p' "$TMP/log3" |
		awk -v n="$1" '$1 > n { ok = 1 } END { exit !ok }'
}
again() {
	local n
	n=$(ended_boot)
	[ -n "$n" ] && ran_after "$n"
}
stop_when again "$MMFUZZ" campaign --arch x86_64 --vms 1 --corpus none --duration 75s --kernel debian \
	--guest-arg --duration --guest-arg 10s --out "$TMP/e" >"$TMP/log3" 2>&1 && rc=0 || rc=$?
summary=$(grep '^mmfuzz: campaign: .* boot(s)' "$TMP/log3") || { cat "$TMP/log3"; fail "no summary"; }
if [ $rc -eq 3 ] && grep -q ' 0 hang(s), 0 lost,' <<<"$summary"; then
	echo "INFO: Debian's kernel reported during the run:"
	grep 'REPORT: ' "$TMP/log3" | sed 's/^/    /'
	head -n 40 "$TMP"/e/crashes/*/report.0 | sed 's/^/    /'
	rc=0
fi
[ $rc -eq 0 ] || { cat "$TMP/log3"; fail "campaign of ending guests exit $rc, not 0"; }
grep -q '0 hang(s), 0 lost' <<<"$summary" || { cat "$TMP/log3"; fail "an ended guest filed"; }
n=$(ended_boot)
[ -n "$n" ] || { cat "$TMP/log3"; fail "the end of the guest's fuzzer not seen"; }
ran_after "$n" || { cat "$TMP/log3"; fail "no boot after boot $n ran programs"; }

# Killed while it runs: what it saved stays, its guests go.
"$MMFUZZ" campaign --arch x86_64 --vms 1 --corpus none --duration 10m --kernel debian \
	--out "$out" >"$TMP/log2" 2>&1 &
pid=$!
wait_for $pid 120 grep -q 'boot 1: first program' "$TMP/log2" ||
	{ cat "$TMP/log2"; fail "the killed campaign's guest ran no program"; }
kill -9 $pid
wait $pid 2>/dev/null || true
sleep 2
pgrep -f "path=$out/vm-0" >/dev/null && fail "QEMU outlived the killed campaign"
"$MMFUZZ" triage list "$out" | grep -q 'no output from test machine' || fail "saved hang lost"
check_clean
