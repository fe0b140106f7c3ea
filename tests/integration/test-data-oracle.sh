#!/bin/bash
# test: host
# The data-integrity oracle fires: a page changed behind the model's back
# (through /proc/self/mem) is reported as DATA CORRUPTION, with the page,
# the expected and observed content and the calls that touched it.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/p.mmf" <<'P'
m0 = mmap(0, 64, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m0, 0, 64, 0x5a)
madvise(m0, 0, 64, MADV_PAGEOUT)
read(m0, 0, 64)
P
# Without the fault: clean.
"$MMFUZZ" exec --native --quiet "$TMP/p.mmf" >"$TMP/clean" 2>&1 ||
	{ cat "$TMP/clean"; fail "clean run reported something"; }
rc=0
"$MMFUZZ" exec --native --quiet --corrupt-after 2 "$TMP/p.mmf" >"$TMP/out" 2>&1 || rc=$?
cat "$TMP/out"
[ $rc -eq 3 ] || fail "exit status $rc, expected 3 (report)"
grep -q '^REPORT: DATA CORRUPTION: garbage anon page' "$TMP/out" ||
	fail "no DATA CORRUPTION report"
grep -q '^expected: 0x' "$TMP/out" || fail "report lacks the expected content"
grep -q '^observed: 0x5a5a5a5a' "$TMP/out" || fail "report lacks the observed content"
grep -q '1: write(m0, 0, 64, 0x5a)' "$TMP/out" || fail "report lacks the calls that touched it"
check_clean
