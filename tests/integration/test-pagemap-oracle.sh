#!/bin/bash
# test: host
# The pagemap flags oracle: pages a program writes are exclusively mapped,
# never present and swapped at once, and carry no uffd-wp without
# userfaultfd. It runs clean on this kernel, and fires when the test hook
# (MMFUZZ_PAGEMAP_FLIP=BIT) flips a bit of every pagemap entry read.
. "$(dirname "$0")/lib.sh"

prog=corpus/cow-after-fork-swapped.mmf
"$MMFUZZ" exec --native --quiet --no-env "$prog" >"$TMP/clean" 2>&1 ||
	{ cat "$TMP/clean"; fail "$prog: not clean without the hook"; }

# expect BIT TITLE
expect() {
	MMFUZZ_PAGEMAP_FLIP=$1 "$MMFUZZ" exec --native --quiet --no-env "$prog" >"$TMP/out.$1" 2>&1 &&
		true
	cat "$TMP/out.$1"
	grep -qx "REPORT: $2" "$TMP/out.$1" || fail "bit $1: no '$2' report"
	grep -q '^pagemap: 0x[0-9a-f]* present=' "$TMP/out.$1" || fail "bit $1: no entry in the body"
	grep -q '^  [0-9]*: write(m0' "$TMP/out.$1" || fail "bit $1: no call history in the body"
}
expect 56 "PAGEMAP: written page not exclusively mapped after write"
expect 57 "PAGEMAP: uffd-wp set without userfaultfd after write"
expect 62 "PAGEMAP: page both present and swapped after write"
check_clean
