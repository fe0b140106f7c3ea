#!/bin/bash
# kernels: x86_64
# The crash path end to end on the fuzzing kernel (built or taken from the
# cache): LKDTM raises a real WARNING, a KASAN report and a hung task while
# the guest fuzzes; the campaign titles each as it appears, saves it with
# the console log, the symbolized report and the last programs, restarts
# the guest and goes on; the self-test ends when each was reported. The
# budget is only a bound: a loaded host boots the guest 4 times slower.
# This is the guests' own loop (--engine mmfuzz); the AFL++ engine's crash
# path is test-afl-campaign.sh's.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

k=$(fuzzing_kernel)
out="$TMP/c"
"$MMFUZZ" campaign --engine mmfuzz --arch x86_64 --vms 1 --duration 20m --kernel "$k/bzImage" \
	--corpus none --vmlinux "$k/vmlinux" --selftest-lkdtm WARNING,READ_AFTER_FREE,HUNG_TASK \
	--out "$out" >"$TMP/log" 2>&1 && rc=0 || rc=$?
[ $rc -eq 3 ] || { cat "$TMP/log"; fail "campaign exit $rc, not 3 (new titles)"; }
grep -v 'qemu-system' "$TMP/log"
for t in 'WARNING in lkdtm_WARNING' \
	 'KASAN: slab-use-after-free Read in lkdtm_READ_AFTER_FREE' \
	 'INFO: task hung in lkdtm_HUNG_TASK'; do
	grep -qF "REPORT: $t" "$TMP/log" || fail "'$t' not reported"
	bug=$("$MMFUZZ" triage show "$out" "$t" | sed -n 's/^directory: //p')
	[ -d "$bug" ] || fail "'$t' not in the crash store"
	[ -s "$bug/log.0" ] || fail "'$t' saved without its console log"
	grep -q '^# mmfuzz: executing program' "$bug/progs.0" || fail "'$t' saved without programs"
	grep -q '\.c:[0-9]' "$bug/report.0.sym" || fail "'$t' not symbolized"
done
grep -q '^mmfuzz: campaign: self-test done' "$TMP/log" || fail "the self-test did not end by itself"
boots=$(sed -n 's/^mmfuzz: campaign: \([0-9]*\) boot(s).*/\1/p' "$TMP/log")
[ "${boots:-0}" -ge 3 ] || fail "guest not restarted after each report ($boots boots)"
check_clean
