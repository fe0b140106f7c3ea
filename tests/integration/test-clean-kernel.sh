#!/bin/bash
# kernels: x86_64
# The clean fuzzing kernel's own bugs (tests/bugs/clean-titles), which
# bench-bugs does not credit to a bug of the set: each has a program in
# tests/bugs/clean/ that still gives its title there, so that the list is
# dropped from when a kernel update fixes one, and every title listed has
# its program.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

k=$(fuzzing_kernel)
n=0
for prog in tests/bugs/clean/*.mmf; do
	title=$(sed -n 's/^# title: //p' "$prog")
	[ -n "$title" ] || fail "$prog: no '# title:' line"
	awk -F '\t' -v t="$title" '$1 == t { f = 1 } END { exit !f }' tests/bugs/clean-titles ||
		fail "$prog: '$title' not in clean-titles"
	rc=0
	"$MMFUZZ" exec --kernel "$k/bzImage" "$prog" >"$TMP/out" 2>&1 || rc=$?
	grep -qxF "REPORT: $title" "$TMP/out" ||
		{ cat "$TMP/out"; fail "$prog: no '$title' on the clean kernel (fixed? drop it)"; }
	[ $rc -eq 3 ] || fail "$prog: exec exited $rc with a report, not 3"
	n=$((n + 1))
done
listed=$(grep -c '^[^#]' tests/bugs/clean-titles)
[ "$listed" -eq "$n" ] || fail "clean-titles lists $listed titles, tests/bugs/clean/ has $n programs"
echo "INFO: $n title(s) of the clean kernel reproduced"
check_clean
