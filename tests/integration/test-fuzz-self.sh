#!/bin/bash
# test: parallel
# make fuzz-self: every self-fuzzing harness (tests/fuzz/fuzz-NAME.c) runs
# under AFL++ for 5 s, two at a time (about 30 s for 7), executes
# test cases and finds no crash and no hang in mmfuzz's own parsers.
. "$(dirname "$0")/lib.sh"

O=$(dirname "$MMFUZZ")
names=()
for f in tests/fuzz/fuzz-*.c; do
	n=${f#tests/fuzz/fuzz-}
	names+=("${n%.c}")
done
[ ${#names[@]} -ge 6 ] || fail "only ${#names[@]} harnesses: ${names[*]}"

shm_before=$(ls -d /dev/shm/mmfuzz-fuzz* 2>/dev/null || true)
make --no-print-directory -s O="$O" afl >"$TMP/build" 2>&1 || { cat "$TMP/build"; fail "make afl"; }
rc=0
scripts/fuzz-self.sh "$O" 5s >"$TMP/out" 2>&1 || rc=$?
cat "$TMP/out"
[ $rc -eq 0 ] || fail "fuzz-self exited $rc"

stat() {
	sed -n "s/^$2 *: *//p" "$O/afl-out/$1/default/fuzzer_stats"
}
for n in "${names[@]}"; do
	[ -f "$O/afl-out/$n/default/fuzzer_stats" ] || fail "$n: no fuzzer_stats"
	[ "$(stat "$n" execs_done)" -gt 0 ] || fail "$n: no test case executed"
	[ "$(stat "$n" corpus_count)" -gt 0 ] || fail "$n: empty corpus"
	[ "$(stat "$n" saved_crashes)" -eq 0 ] || fail "$n: crashes in $O/afl-out/$n/default/crashes"
	[ "$(stat "$n" saved_hangs)" -eq 0 ] || fail "$n: hangs in $O/afl-out/$n/default/hangs"
	grep -q "^$n " "$TMP/out" || fail "$n: not in the summary"
done
grep -q '^fuzz-self: nothing found$' "$TMP/out" || fail "no 'nothing found' line"
for n in "${names[@]}"; do
	echo "INFO: $n: $(stat "$n" execs_per_sec) execs/s, $(stat "$n" execs_done) execs," \
		"corpus $(stat "$n" corpus_count), no crash, no hang"
done
# fuzz-meta's bug directories are gone with the run.
[ "$(ls -d /dev/shm/mmfuzz-fuzz* 2>/dev/null || true)" = "$shm_before" ] ||
	fail "left in /dev/shm: $(ls -d /dev/shm/mmfuzz-fuzz*)"
check_clean
