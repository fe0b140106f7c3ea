#!/bin/bash
# An x86_64 guest (q35, TCG) fuzzes on Debian's prebuilt kernel and powers
# off; then a guest whose kernel panics right after a line reached the
# execution log: the line is on the host, and the runner reports the crash.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/guest.sh"

guest_fuzz x86_64 10s

# The hook's panic comes 5 s into fuzzing. A kernel that reports something
# of its own before that (a finding on Debian's kernel, or TCG's) leaves the
# hook untested: its report is shown and a second guest, on another seed,
# is the test.
for try in 1 2; do
	out=$TMP/crash$try
	rc=0
	MMFUZZ_ACCEL=tcg "$MMFUZZ" vm --arch x86_64 --kernel debian --duration 5m --corpus none \
		--append mmfuzz.crash_after=5 --out "$out" >"$out.out" 2>&1 || rc=$?
	cat "$out.out"
	[ $rc -eq 3 ] || fail "crash: mmfuzz vm exited with $rc, not 3 (a kernel report)"
	grep -q '^mmfuzz: vm 0: REPORT: .*sysrq' "$out.out" && break
	grep -q '^mmfuzz: vm 0: REPORT: ' "$out.out" || fail "crash: the panic was not reported"
	echo "INFO: crash: the kernel reported before the hook's panic:"
	head -n 60 "$out"/crashes/*/report.0 | sed 's/^/    /'
	[ $try -eq 1 ] || fail "crash: two guests in a row reported before the hook's panic"
done
# The report ended the guest's one boot: nothing restarted it.
[ ! -e "$out/vm-0/boot-2" ] || fail "crash: the guest was booted again"
# init's line just before its crash is on the host. The fuzzer's threads
# write there too, up to the panic: a suite run had a race round's line
# after init's.
tail -n 5 "$out/vm-0/boot-1/exec.log" | grep -qx '# mmfuzz-init: crashing the kernel' ||
	fail "crash: the last line before the panic is not on the host"
grep -q '^# mmfuzz: executing program$' "$out/vm-0/boot-1/exec.log" ||
	fail "crash: no program on the execution log before the panic"
check_clean
