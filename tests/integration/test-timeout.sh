#!/bin/bash
# test: host
# A program that outlives its timeout is killed with its whole process group
# and the runner goes on with the next program; the execution log holds
# each program before it ran. The hang oracle looks at the hung call before
# the kill: "HANG: <call>" with the task's kernel stack, at the timeout or,
# with a long timeout, once the call's bound has passed without progress
# or with CPU time alone.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/quick.mmf" <<'P'
m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m0, 0, 16, 0x01)
read(m0, 0, 16)
P
cat >"$TMP/fork.mmf" <<'P'
m0 = mmap(0, 64, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
c0 = fork {
	write(m0, 0, 64, 0x02)
}
write(m0, 0, 64, 0x03)
P
# The first program hangs (test hook) with a forked child alive.
start=$(date +%s)
"$MMFUZZ" exec --native --quiet --timeout 5s --hang-after 4 --exec-log "$TMP/exec.log" \
	"$TMP/fork.mmf" "$TMP/quick.mmf" >"$TMP/out" 2>&1 || true
cat "$TMP/out"
grep -q "fork.mmf: timeout" "$TMP/out" || fail "hung program not timed out"
grep -q "quick.mmf: ok, 3 calls" "$TMP/out" || fail "runner did not go on after the timeout"
grep -q '^REPORT: HANG: write$' "$TMP/out" || fail "no HANG report for the hung call"
grep -q '^statement 4: write(m0, 0, 64, 0x03)$' "$TMP/out" || fail "HANG report names no statement"
grep -q '^\[<0>\] .*pause' "$TMP/out" || fail "HANG report lacks the kernel stack"
[ "$(grep -c '^REPORT: ' "$TMP/out")" -eq 1 ] || fail "reports besides the one hang"
# With a timeout far away the bound (5 s and a little per page) ends it.
start=$(date +%s%N)
"$MMFUZZ" exec --native --quiet --no-env --timeout 60s --hang-after 1 "$TMP/quick.mmf" \
	>"$TMP/out2" 2>&1 || true
cat "$TMP/out2"
grep -q '^REPORT: HANG: write$' "$TMP/out2" || fail "no HANG report before the timeout"
grep -q 'no progress for' "$TMP/out2" || fail "HANG report does not say the task stalled"
[ $(( ($(date +%s%N) - start) / 1000000 )) -lt 20000 ] || fail "the hang was not seen at its bound"
[ $(( ($(date +%s%N) - start) / 1000000000 )) -lt 20 ] || fail "the timeout took too long"
# A call that keeps its task on the CPU but neither faults nor does I/O
# (a loop in the kernel) is hung once its bound has passed, though its
# task never stops running.
"$MMFUZZ" exec --native --quiet --no-env --timeout 60s --hang-after 1 --hang-spins \
	"$TMP/quick.mmf" >"$TMP/out4" 2>&1 || true
grep -q '^REPORT: HANG: write$' "$TMP/out4" || { cat "$TMP/out4"; fail "no HANG report for a spinning call"; }
grep -q 'spinning (CPU time, no faults, no I/O) for' "$TMP/out4" ||
	{ cat "$TMP/out4"; fail "HANG report does not say the task spun"; }
# On a machine twice as slow the bound is 10 s: the 8 s timeout ends the
# call first (stalled for more than the 6 s a slowed timeout asks).
"$MMFUZZ" exec --native --quiet --no-env --timeout 8s --slowdown 2 --hang-after 1 \
	"$TMP/quick.mmf" >"$TMP/out3" 2>&1 || true
grep -q "no progress for .*, at the program's timeout" "$TMP/out3" ||
	{ cat "$TMP/out3"; fail "--slowdown 2: the hang was not left to the timeout"; }
[ "$(grep -c '^# mmfuzz: executing program' "$TMP/exec.log")" -eq 2 ] || fail "exec log lacks a program"
grep -q '^write(m0, 0, 64, 0x03)' "$TMP/exec.log" || fail "exec log lacks the hung program's text"
# Nothing of the run may stay: no program, child or guardian process.
for _ in $(seq 50); do
	pgrep -f "exec-log $TMP/exec.log" >/dev/null || break
	sleep 0.2
done
pgrep -f "exec-log $TMP/exec.log" >/dev/null && fail "a process of the run outlived it"
check_clean
