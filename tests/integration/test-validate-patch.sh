#!/bin/bash
# kernels: x86_64
# mmfuzz validate aimed at a patch series on the default kernel's tree: the
# first patch adds a bug to madvise_free_pte_range()
# (tests/bugs/madv-free-swapents.patch), the second changes
# swapfile_init(), which runs only at boot. The patched kernel builds on
# the base's objects; the verdict names both functions as changed, the
# first reached by fuzzing and the second not, and calls the bug
# patched-only: found on the patched kernel, never on the base, reproduced
# there, and neither its reproducer nor its mutants fail on the base.
# Then the reproducer on the patched kernel, in one serving guest that
# nothing else runs on: every run has its report, though the kernel prints
# it only when the exited task's mm is freed, which an idle CPU that ran
# it would put off (the kernel-log oracle runs on every CPU first).
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

k=$(fuzzing_kernel)	# the base, and the objects the patched build starts from
base=${MMFUZZ_CACHE:-/var/cache/mmfuzz}/src/linux-source-6.12
[ -f "$base/Makefile" ] || fail "no $base: make kernel unpacks it"
title='BUG: Bad rss-counter state'

# Fuzzing starts from one corpus program that reaches the changed code:
# from the whole corpus, AFL++'s first pass reached it 12th, after 60 s
# beside busy-host.sh; given alone, it runs first, whatever the budget.
# What the search finds is make bench-bugs' measure.
mkdir "$TMP/seeds"
cp corpus/madv-free-vs-dontneed-swapped.mmf "$TMP/seeds/"
expect_error "seeds $TMP/nope: not a directory" "$MMFUZZ" validate --base "$base" \
	--patch tests/bugs/madv-free-swapents.patch --seeds "$TMP/nope" --out "$TMP/nope-out"
[ ! -e "$TMP/nope-out" ] || fail "bad seeds, yet the output directory was made"
rc=0
"$MMFUZZ" validate --base "$base" --patch tests/bugs/madv-free-swapents.patch \
	--patch tests/data/patches/boot-only.patch --bench none --behaviour 0 --budget 20s --repro-time 30s \
	--seeds "$TMP/seeds" \
	--attempts 2 --mutants 2 --out "$TMP/v" >"$TMP/v.out" 2>&1 || rc=$?
cat "$TMP/v/verdict.txt" || { tail -30 "$TMP/v.out"; fail "no verdict"; }
grep 'kernel ready in\|built (' "$TMP/v.out" | sed 's/^/INFO: /'
[ $rc -eq 3 ] || fail "exit $rc, expected 3 (regressed)"
! grep -q 'nr_swap -= nr + 1' "$base/mm/madvise.c" || fail "the base tree was changed"

v=$TMP/v/verdict.txt
grep -q '^mmfuzz validate: REGRESSED' "$v" || fail "not called a regression"
grep -q '^What the patch changes: 2 file(s): mm/madvise.c, mm/swapfile.c' "$v" ||
	fail "the patch's files are not named"
grep -Eq '^  reached +madvise_free_pte_range \(mm/madvise.c; diff, code\), [0-9]+ program' "$v" ||
	fail "madvise_free_pte_range is not changed and reached"
grep -Eq '^  not reached +swapfile_init \(mm/swapfile.c; diff\), init code' "$v" ||
	fail "swapfile_init is not changed and unreached"
grep -Eq '^  2 function\(s\) changed; fuzzing reached 1, in [0-9]+ program' "$v" ||
	fail "the reach figure is wrong"
grep -q "^  patched-only   $title" "$v" || fail "the bug is not patched-only"
grep -Eq '^ +reproduced on patched [1-9][0-9]*/[0-9]+; on base, the reproducer and its mutants 0/6$' "$v" ||
	fail "the reproducer was not tried clean on the base 6 times (2 runs x 3 programs)"
repro=$(sed -n 's/^ *reproducer: //p' "$v")
[ -f "$repro" ] && grep -q 'MADV_FREE' "$repro" || fail "no reproducer with MADV_FREE: $repro"
! grep -q '^Tested-by:' "$v" || fail "a Tested-by: for a regression"
patched=$(sed -n 's/^  patched  //p' "$v")
echo "$title" >"$TMP/report"
"$MMFUZZ" triage add "$TMP/again" --title "$title" --report "$TMP/report" --progs "$repro" >/dev/null
"$MMFUZZ" repro --kernel "$patched" --attempts 4 --max-steps 0 --work "$TMP/r" "$TMP/again"/*/ \
	>"$TMP/r.out" 2>&1 || { tail "$TMP/r.out"; fail "the saved reproducer did not reproduce"; }
grep -q "hit rate 4/4" "$TMP/r.out" && ! grep -q 'done, [02-9] kernel report' "$TMP/r.out" ||
	{ grep 'hit\|kernel report' "$TMP/r.out"; fail "not one report in every run"; }
# The weights the patched kernel's fuzzing had: the changed function, then its files.
grep -q '^8 ' "$TMP/v/fuzz-patched/weights" && grep -q '^2 ' "$TMP/v/fuzz-patched/weights" ||
	fail "no weights for the patched kernel's fuzzing"
! [ -e "$TMP/v/fuzz-base/weights" ] || fail "the base was fuzzed with weights"
grep -q '"verdict":"patched-only"' "$TMP/v/verdict.json" &&
	grep -q '"name":"swapfile_init","file":"mm/swapfile.c","diff":true,"code":false,"init":true,"programs":0' \
		"$TMP/v/verdict.json" || fail "verdict.json disagrees"
check_clean
