#!/bin/bash
# An x86_64 guest (q35, TCG) fuzzes on Debian's prebuilt kernel and powers
# off; then a guest whose kernel panics right after a line reached the
# execution log: the line is on the host, and the runner reports the crash.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/guest.sh"

guest_fuzz x86_64 40s

out=$TMP/crash
rc=0
MMFUZZ_ACCEL=tcg "$MMFUZZ" vm --arch x86_64 --kernel debian --duration 5m \
	--append mmfuzz.crash_after=10 --out "$out" >"$out.out" 2>&1 || rc=$?
cat "$out.out"
[ $rc -eq 3 ] || fail "crash: mmfuzz vm exited with $rc, not 3 (a kernel report)"
grep -q '^mmfuzz: vm: REPORT: .*sysrq' "$out.out" || fail "crash: the panic was not reported"
[ "$(tail -n 1 "$out/exec.log")" = "# mmfuzz-init: crashing the kernel" ] ||
	fail "crash: the last line before the panic is not on the host"
grep -q '^# mmfuzz: executing program$' "$out/exec.log" ||
	fail "crash: no program on the execution log before the panic"
check_clean
