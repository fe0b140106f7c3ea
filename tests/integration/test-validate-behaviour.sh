#!/bin/bash
# kernels: x86_64
# mmfuzz validate's differential verdict, on series as they come from a
# mailing list, on the default kernel's tree (both kernels of each built
# with KCOV in the mm/ files the series touches):
# - an mbox of three comment-only patches, two to do_mprotect_pkey() and
#   one to __mem_cgroup_try_charge_swap() in memcontrol.c (which
#   mm/Makefile builds without KCOV), a cover letter first, as b4 am writes
#   it: the subjects quoted, both functions reached, no behaviour change,
#   Tested-by:, exit 0;
# - a git format-patch file that makes mprotect() of a range with nothing
#   mapped fail with EFAULT instead of ENOMEM: a behaviour change, the
#   statement where the kernels part named with both errnos, no crash, not
#   a regression (exit 0); with --bench auto (the default), the benchmarks
#   chosen by what their traced run reaches: only mlock-scaling reaches
#   do_mprotect_pkey() (its threads' stacks get guard pages from
#   mprotect), the benchmarks of swap and madvise do not.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

fuzzing_kernel >/dev/null	# the objects both builds start from
base=${MMFUZZ_CACHE:-/var/cache/mmfuzz}/src/linux-source-6.12
[ -f "$base/Makefile" ] || fail "no $base: make kernel unpacks it"

# Fuzzing starts from a program that reaches the changed functions: its
# swap-out charges the swap to the memory cgroup. It runs however short
# the budget (1s, less than the boot): a campaign's
# seeds run first and all of them once.
mkdir "$TMP/seeds"
cat >"$TMP/seeds/mprotect-hole.mmf" <<'PROG'
m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m0, 0, 16, 0x5a)
madvise(m0, 0, 8, MADV_PAGEOUT)
munmap(m0, 8, 8)
mprotect(m0, 8, 8, PROT_READ)
mprotect(m0, 0, 8, PROT_READ)
read(m0, 0, 8)
PROG
common=(--base "$base" --budget 1s --seeds "$TMP/seeds" --attempts 2 --behaviour 3)

# A file with no diff in it is refused before anything is built.
printf 'Subject: [PATCH] nothing\n\nno diff here\n' >"$TMP/empty.patch"
expect_error "patch $TMP/empty.patch: no diff in it" "$MMFUZZ" validate "${common[@]}" \
	--patch "$TMP/empty.patch" --out "$TMP/empty"

# 1. Comments only.
rc=0
"$MMFUZZ" validate "${common[@]}" --bench none --patch tests/data/patches/comments.mbox \
	--out "$TMP/c" >"$TMP/c.out" 2>&1 || rc=$?
v=$TMP/c/verdict.txt
cat "$v" || { tail -30 "$TMP/c.out"; fail "no verdict"; }
grep '^validate: phase' "$TMP/c.out" | sed 's/^/INFO: /'
[ $rc -eq 0 ] || fail "comments: exit $rc, expected 0"
grep -q '^mmfuzz validate: no regression$' "$v" || fail "comments: not 'no regression'"
grep -q '^           1/3: \[PATCH 1/3\] mm/mprotect: reword the comment on unallocated pkeys$' "$v" &&
	grep -q '^           3/3: \[PATCH 3/3\] mm/memcontrol: say why tail pages take references$' "$v" ||
	fail "the series' subjects are not quoted (the cover letter is no patch)"
grep -q '^  KCOV in  mm/mprotect.c mm/memcontrol.c ' "$v" || fail "the series' files were not built with KCOV"
grep -Eq '^  reached +do_mprotect_pkey \(mm/mprotect.c; diff\), [0-9]+ program' "$v" ||
	fail "do_mprotect_pkey is not changed and reached"
grep -Eq '^  reached +__mem_cgroup_try_charge_swap \(mm/memcontrol.c; diff\), [0-9]+ program' "$v" ||
	fail "__mem_cgroup_try_charge_swap (memcontrol.c, no KCOV of its own) is not reached"
grep -Eq '^Behaviour: [1-3] program\(s\) that reached a changed function' "$v" &&
	grep -q '^  no behaviour change ([1-3] compared)$' "$v" ||
	fail "comments: a behaviour change, or nothing compared"
grep -q '^Tested-by: ' "$v" || fail "comments: no Tested-by:"
grep -q '"subjects":\["\[PATCH 1/3\]' "$TMP/c/verdict.json" || fail "verdict.json has no subjects"

# 2. An errno changed on purpose.
rc=0
"$MMFUZZ" validate "${common[@]}" --runs 2 --patch tests/data/patches/mprotect-hole-errno.patch \
	--out "$TMP/errno" >"$TMP/errno.out" 2>&1 || rc=$?
v=$TMP/errno/verdict.txt
cat "$v" || { tail -30 "$TMP/errno.out"; fail "no verdict"; }
[ $rc -eq 0 ] || fail "errno: exit $rc, expected 0 (a behaviour change is no regression)"
grep -q '^mmfuzz validate: no regression$' "$v" || fail "errno: called a regression"
grep -q '^  BEHAVIOUR CHANGED in [1-9]' "$v" || fail "errno: no behaviour change"
grep -Eq '^    statement [0-9]+, result: base ENOMEM; patched EFAULT$' "$v" ||
	fail "errno: the result classes are not given"
grep -Eq '^    the kernels part at statement [0-9]+: mprotect\(' "$v" ||
	fail "errno: the first statement where the kernels part is not named"
grep -q '^Fuzzing, 1s per kernel (AFL++ over KCOV): ' "$v" && ! grep -q '^  patched-only ' "$v" ||
	fail "errno: not fuzzed, or a crash of the patch's"
grep -q '"what":"result","base":"ENOMEM","patched":"EFAULT"' "$TMP/errno/verdict.json" ||
	fail "verdict.json disagrees"
grep -q '^Benchmarks chosen by what they reach on the patched kernel (KCOV):$' "$v" &&
	grep -q '^  mlock-scaling  reaches do_mprotect_pkey' "$v" &&
	grep -q '^  pageout-4k     reaches no changed function: not run$' "$v" ||
	fail "the benchmarks were not chosen by their reach"
grep -q '^  mlock-scaling  ns_per_call_t1 ' "$v" && ! grep -Eq '^  pageout-4k +[a-z_0-9]+ +base ' "$v" ||
	fail "not the benchmarks chosen ran"
check_clean
