#!/bin/bash
# test: alone
# The accounting oracle's counters: a program that locks, swaps and forks
# runs clean; a drift simulated by the test hook (--acct-skew adds kB to
# the readings after the program) is reported, by a title without the
# number and the number in the body: per process (status against
# smaps_rollup) at its end, here; system-wide after the program exited, in
# a guest, since on this host other processes may lock and unlock memory
# all the time, and then the oracle rightly keeps quiet (its rules on such
# readings are tests/unit/test-accounting.c's).
. "$(dirname "$0")/lib.sh"

prog=corpus/mlock-munlock-threads.mmf
"$MMFUZZ" exec --native --quiet "$prog" >"$TMP/clean" 2>&1 ||
	{ cat "$TMP/clean"; fail "$prog: not clean without the hook"; }
"$MMFUZZ" exec --native --quiet corpus/cow-after-fork-swapped.mmf >"$TMP/clean2" 2>&1 ||
	{ cat "$TMP/clean2"; fail "cow-after-fork-swapped: not clean without the hook"; }

# expect COUNTER:KB TITLE: the hook gives exactly that report.
expect() {
	local out=$TMP/out.${1%%:*}

	"$MMFUZZ" exec --native --quiet --no-env --acct-skew "$1" "$3" >"$out" 2>&1 && true
	cat "$out"
	grep -qx "REPORT: $2" "$out" || fail "$1: no '$2' report"
	grep -Eq "[0-9]+ kB apart" "$out" || fail "$1: the amount is not in the body"
	[ "$(grep -c '^REPORT: ' "$out")" -eq 1 ] || fail "$1: more than the one report"
}
expect RssAnon:2048 \
	"ACCOUNTING: RssAnon differs from smaps_rollup Anonymous at the end of the program" "$prog"
expect VmSwap:8192 \
	"ACCOUNTING: VmSwap differs from smaps_rollup Swap at the end of the program" \
	corpus/cow-after-fork-swapped.mmf

# System-wide, in one guest of Debian's kernel: both counters, one boot.
rc=0
MMFUZZ_ACCEL=tcg "$MMFUZZ" exec --kernel debian --acct-skew Mlocked:4096+Unevictable:4096 \
	"$prog" >"$TMP/guest" 2>&1 || rc=$?
grep -v '^mmfuzz: repro guest: ' "$TMP/guest"
[ $rc -eq 3 ] || fail "guest: exit $rc, expected 3"
for c in Mlocked Unevictable; do
	grep -qx "REPORT: ACCOUNTING: $c grew after the program exited" "$TMP/guest" ||
		fail "guest: no '$c grew' report"
done
[ "$(grep -c '^REPORT: ' "$TMP/guest")" -eq 2 ] || fail "guest: not exactly the two reports"
rm -rf "$(sed -n 's/^exec: .* consoles in //p' "$TMP/guest")"
check_clean
