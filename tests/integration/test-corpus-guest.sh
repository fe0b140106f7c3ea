#!/bin/bash
# Every corpus program runs once in a guest (Debian's kernel, TCG) with no
# report: the seeds are clean on a second kernel and arch setup, not only
# on this host's.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

rc=0
"$MMFUZZ" exec --kernel debian --arch x86_64 corpus/*.mmf >"$TMP/out" 2>&1 || rc=$?
grep -v '^mmfuzz: repro guest: ' "$TMP/out"
[ $rc -eq 0 ] || fail "exit $rc: a corpus program reported or could not run in the guest"
n=$(ls corpus/*.mmf | wc -l)
[ "$(grep -c ': no report$' "$TMP/out")" -eq "$n" ] || fail "not all $n programs ran clean"
work=$(sed -n 's/^exec: .* consoles in //p' "$TMP/out")
rm -rf "$work"
check_clean
