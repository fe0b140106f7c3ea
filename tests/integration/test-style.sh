#!/bin/bash
# test: parallel
# The style check (checkpatch --no-tree -f, which 'make layers' runs over
# the tree) fails on a file that breaks the kernel's coding style.
. "$(dirname "$0")/lib.sh"

printf 'int f(void);\nint g(void)\n{\n\tint x;\n\n\tif ((x = f()))\n\t\treturn 1;\n\treturn x;\n}\n' \
	>"$TMP/bad.c"
rc=0
scripts/style.sh "$TMP/bad.c" >"$TMP/bad" 2>&1 || rc=$?
[ $rc -eq 1 ] && grep -q "^$TMP/bad.c:6: ERROR:ASSIGN_IN_IF:" "$TMP/bad" ||
	fail "an assignment in if passed the style check (exit $rc): $(cat "$TMP/bad")"
# Remembered as failed is never remembered: the second run says it again.
! scripts/style.sh "$TMP/bad.c" >/dev/null 2>&1 || fail "the bad file passed the second time"
