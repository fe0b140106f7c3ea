#!/bin/bash
# A program that outlives its timeout is killed with its whole process group
# and the runner goes on with the next program; the execution log holds
# each program before it ran.
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
"$MMFUZZ" exec --native --quiet --timeout 2s --hang-after 4 --exec-log "$TMP/exec.log" \
	"$TMP/fork.mmf" "$TMP/quick.mmf" >"$TMP/out" 2>&1 || true
cat "$TMP/out"
grep -q "fork.mmf: timeout" "$TMP/out" || fail "hung program not timed out"
grep -q "quick.mmf: ok, 3 calls" "$TMP/out" || fail "runner did not go on after the timeout"
[ $(( $(date +%s) - start )) -lt 20 ] || fail "the timeout took too long"
[ "$(grep -c '^# mmfuzz: executing program' "$TMP/exec.log")" -eq 2 ] || fail "exec log lacks a program"
grep -q '^write(m0, 0, 64, 0x03)' "$TMP/exec.log" || fail "exec log lacks the hung program's text"
# Nothing of the run may stay: no program, child or guardian process.
for _ in $(seq 50); do
	pgrep -f "exec-log $TMP/exec.log" >/dev/null || break
	sleep 0.2
done
pgrep -f "exec-log $TMP/exec.log" >/dev/null && fail "a process of the run outlived it"
check_clean
