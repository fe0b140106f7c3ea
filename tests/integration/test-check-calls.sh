#!/bin/bash
# test: parallel
# scripts/check-calls.sh passes on the tree, and fails on a copy where a
# call lost a layer's piece or a file outside the families tests a call id.
. "$(dirname "$0")/lib.sh"

scripts/check-calls.sh >"$TMP/out" || fail "check-calls on the tree: $(cat "$TMP/out")"
grep -q '^calls: ok' "$TMP/out" || fail "check-calls: $(cat "$TMP/out")"

mkdir -p "$TMP/t"
cp -r fuzzers stressors "$TMP/t/"
# A call whose shadow rule is gone (mincore names the neutral rule).
sed -i '/^MMF_RULE_NEUTRAL(mincore/d' "$TMP/t/fuzzers/oracle/rules/access.c"
grep -q mincore "$TMP/t/fuzzers/oracle/rules/access.c" && fail "the test's edit missed"
# A property tested by id outside the family files.
printf 'int f(const struct mmf_stmt *s)\n{\n\treturn s->id == MMF_MADVISE;\n}\n' \
	>"$TMP/t/fuzzers/exec/property.c"
rc=0
scripts/check-calls.sh "$TMP/t" >"$TMP/out" || rc=$?
[ $rc -eq 1 ] || fail "check-calls on the broken copy: exit $rc"
grep -q "MINCORE has no mmf_rule_mincore in fuzzers/oracle/rules/access.c" "$TMP/out" ||
	fail "missing rule not named: $(cat "$TMP/out")"
grep -q "outside a family's files: fuzzers/exec/property.c:3:" "$TMP/out" ||
	fail "id test not named: $(cat "$TMP/out")"
[ "$(wc -l <"$TMP/out")" -eq 2 ] || fail "more than the two faults: $(cat "$TMP/out")"
