#!/bin/bash
# test: host
# mmfuzz repro finds the program of a saved crash and minimizes it while
# the same title comes back: here a page changed behind the model's back
# after the write of tag 0xee (test hook), hidden in a longer program.
. "$(dirname "$0")/lib.sh"

title='DATA CORRUPTION: garbage anon page'
{
	# An innocent program ran before the guilty one.
	echo '# mmfuzz: executing program'
	cat corpus/cow-after-fork-swapped.mmf
	echo '# mmfuzz: executing program'
	sed -n '/^[^#]/p' corpus/madv-free-vs-dontneed-swapped.mmf | head -6
	echo 'm3 = mmap(0, 64, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, MAP_POPULATE)'
	echo 'write(m3, 0, 64, 0xee)'
	echo 'madvise(m3, 0, 64, MADV_PAGEOUT)'
	sed -n '/^[^#]/p' corpus/madv-free-vs-dontneed-swapped.mmf | tail -6
	echo 'read(m3, 0, 64)'
} >"$TMP/progs"
echo "$title" >"$TMP/report"
# A crash store as a fuzz run makes it, with the programs of the crash.
"$MMFUZZ" triage add "$TMP/crashes" --report "$TMP/report" --progs "$TMP/progs" >/dev/null
bug=$(ls -d "$TMP"/crashes/DATA_CORRUPTION*)
cp "$bug/progs.0" "$TMP/progs.orig"

"$MMFUZZ" repro --native --corrupt-tag 0xee --attempts 2 "$bug" >"$TMP/out" 2>&1 ||
	{ cat "$TMP/out"; fail "not reproduced"; }
tail -n 3 "$TMP/out"
cat "$bug/repro.prog"
calls=$(grep -vc '^#' "$bug/repro.prog")
echo "INFO: reproducer minimized to $calls calls"
[ "$calls" -le 4 ] || fail "reproducer has $calls calls, expected at most 4"
grep -q '^write(m3, 0, [0-9]*, 0xee)$' "$bug/repro.prog" || fail "the guilty write is gone"
grep -q '^read(m3, 0, ' "$bug/repro.prog" || fail "the read that sees it is gone"
grep -q 'hit rate 2/2' "$TMP/out" || fail "hit rate not 2/2"
"$MMFUZZ" exec --native --quiet --corrupt-tag 0xee "$bug/repro.prog" | grep -qF "REPORT: $title" ||
	fail "the reproducer does not bring the title back"
grep -q '^repro: c' "$bug/meta" || fail "the store's meta does not record the C reproducer"
# The C reproducer behaves like the program: quiet without the fault,
# the same title with it.
gcc -O2 -Wall -pthread -o "$TMP/repro" "$bug/repro.c" || fail "repro.c does not compile"
"$TMP/repro" >"$TMP/c.out" 2>&1 || { cat "$TMP/c.out"; fail "C reproducer reports on a clean run"; }
rc=0
"$TMP/repro" --corrupt-after 1 >"$TMP/c.out" 2>&1 || rc=$?
[ $rc -eq 1 ] && grep -qF "$title" "$TMP/c.out" || { cat "$TMP/c.out"; fail "C reproducer misses the fault"; }
"$MMFUZZ" triage list "$TMP/crashes" | awk '$3 == "c" { ok = 1 } END { exit !ok }' ||
	fail "triage list does not show the reproducer"

# A second run keeps the first reproducer and the saved programs.
"$MMFUZZ" repro --native --corrupt-tag 0xee --attempts 1 "$bug" >/dev/null 2>&1 ||
	fail "second run failed"
[ -s "$bug/repro.1.prog" ] || fail "second reproducer not saved beside the first"
cmp -s "$bug/progs.0" "$TMP/progs.orig" || fail "saved programs changed"

# Without the fault nothing reproduces, and the exit status says so.
rc=0
"$MMFUZZ" repro --native --attempts 1 --max-steps 0 "$bug" >/dev/null 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "exit status $rc for a crash that does not reproduce, expected 1"
check_clean
