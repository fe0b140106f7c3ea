#!/bin/bash
# The accounting oracle's counters: a program that locks, swaps and forks
# runs clean; a drift simulated by the test hook (MMFUZZ_ACCT_SKEW adds kB
# to the readings after the program) is reported, by a title without the
# number and the number in the body: system-wide after the program exited,
# and per process (status against smaps_rollup) at its end. AnonPages is
# not tried: on a busy host its readings move, and the oracle then keeps quiet.
. "$(dirname "$0")/lib.sh"

prog=corpus/mlock-munlock-threads.mmf
"$MMFUZZ" exec --native --quiet "$prog" >"$TMP/clean" 2>&1 ||
	{ cat "$TMP/clean"; fail "$prog: not clean without the hook"; }
"$MMFUZZ" exec --native --quiet corpus/cow-after-fork-swapped.mmf >"$TMP/clean2" 2>&1 ||
	{ cat "$TMP/clean2"; fail "cow-after-fork-swapped: not clean without the hook"; }

# expect COUNTER:KB TITLE: the hook gives exactly that report.
expect() {
	local out=$TMP/out.${1%%:*}

	MMFUZZ_ACCT_SKEW=$1 "$MMFUZZ" exec --native --quiet --no-env "$3" >"$out" 2>&1 && true
	cat "$out"
	grep -qx "REPORT: $2" "$out" || fail "$1: no '$2' report"
	# System-wide: the skew itself; per process: the gap it opened.
	grep -Eq "by ${1#*:} kB|[0-9]+ kB apart" "$out" || fail "$1: the amount is not in the body"
	[ "$(grep -c '^REPORT: ' "$out")" -eq 1 ] || fail "$1: more than the one report"
}
expect Mlocked:4096 "ACCOUNTING: Mlocked grew after the program exited" "$prog"
expect Unevictable:4096 "ACCOUNTING: Unevictable grew after the program exited" "$prog"
expect RssAnon:2048 \
	"ACCOUNTING: RssAnon differs from smaps_rollup Anonymous at the end of the program" "$prog"
expect VmSwap:8192 \
	"ACCOUNTING: VmSwap differs from smaps_rollup Swap at the end of the program" \
	corpus/cow-after-fork-swapped.mmf
check_clean
