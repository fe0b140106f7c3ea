#!/bin/bash
# kernels: x86_64
# The silent bug classes of the bug set, on one fuzzing kernel with two of
# its bugs (tests/bugs/), each caught by a default oracle in a guest with
# the default stressors, and nothing else reported:
# - zap-swap-batch-leak: unmapping swapped pages leaks their swap entries;
#   swapoff then loops in the kernel for good, killable, and no hung-task
#   detector sees it: "HANG: swapoff" (the spinning kind: test-timeout.sh);
# - munlock-large-nr: munlock of a large folio leaves NR_MLOCK too high:
#   "ACCOUNTING: Mlocked grew after the program exited".
# The clean kernel's runs of the same programs are the control, in
# test-corpus-guest.sh's way: no report.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

k=$(fuzzing_kernel tests/bugs/zap-swap-batch-leak.patch tests/bugs/munlock-large-nr.patch)
clean=$(fuzzing_kernel)
cat >"$TMP/mlock.mmf" <<'P'
m0 = mmap(0, 1024, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
madvise(m0, 0, 1024, MADV_HUGEPAGE)
write(m0, 0, 1024, 0x41)
mlock(m0, 0, 1024)
munlock(m0, 0, 1024)
P
# Every swap device gets a swapoff: the leaked entries are on one of them.
cat >"$TMP/leak.mmf" <<'P'
m0 = mmap(0, 256, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
madvise(m0, 0, 256, MADV_NOHUGEPAGE)
write(m0, 0, 256, 0x31)
madvise(m0, 0, 256, MADV_PAGEOUT)
munmap(m0, 0, 256)
swapoff(s0)
swapoff(s1)
swapoff(s2)
swapoff(s3)
P
# The hang oracle's bounds at twice native, not TCG's ten times: the
# swapoff is seen 10 s after it started, not 50 (these programs are small).
run() {	# run KERNEL LOG: both programs in one guest; its exit status in $rc
	rc=0
	"$MMFUZZ" exec --kernel "$1/bzImage" --slowdown 2 "$TMP/mlock.mmf" "$TMP/leak.mmf" \
		>"$2" 2>&1 || rc=$?
	grep -v '^mmfuzz: repro guest: ' "$2"
	rm -rf "$(sed -n 's/^exec: .* consoles in //p' "$2")"
}
run "$k" "$TMP/bug"
[ $rc -eq 3 ] || fail "bug kernel: exit $rc, expected 3"
grep -qx 'REPORT: ACCOUNTING: Mlocked grew after the program exited' "$TMP/bug" ||
	fail "no Mlocked report"
grep -qx 'REPORT: HANG: swapoff' "$TMP/bug" || fail "no HANG report for swapoff"
! grep '^REPORT: ' "$TMP/bug" | grep -v 'Mlocked grew\|HANG: swapoff' ||
	fail "reports besides the two bugs'"
run "$clean" "$TMP/clean"
[ $rc -eq 0 ] || fail "clean kernel: exit $rc, expected 0"
check_clean
