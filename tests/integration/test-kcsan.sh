#!/bin/bash
# kernels: x86_64 x86_64-kcsan
# The KCSAN fuzzing kernel (make kernel FLAVOUR=kcsan): it boots with two
# CPUs online, init turns KCSAN on when the fuzzer starts, the fuzzer runs
# programs, and a known data race (the kernel's test counter, written from
# two CPUs by the fuzzer's hook) reaches the store titled as syzbot titles
# KCSAN's pairs, with its report and programs. Any other KCSAN report the
# run brings is titled the same way: "KCSAN: data-race in A / B", the
# compiler's suffixes and offsets gone.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

k=$(kernel_entry x86_64 kcsan)
[ "$(cat "$k/flavour")" = kcsan ] || fail "$k: not marked as the kcsan flavour"
grep -qx 'CONFIG_KCSAN=y' "$k/.config" || fail "$k: KCSAN is off"
! grep -qx 'CONFIG_KASAN=y' "$k/.config" || fail "$k: KASAN is on beside KCSAN"
# Never the default kernel of a campaign.
[ "$(fuzzing_kernel)" != "$k" ] || fail "the KCSAN kernel is the default fuzzing kernel"

rc=0
# Until the known race is in (60 s at most).
raced() { grep -q 'REPORT: KCSAN: data-race in race_count_add / race_count_add' "$TMP/log"; }
stop_when raced "$MMFUZZ" campaign --kernel "$k/bzImage" --vmlinux "$k/vmlinux" --engine mmfuzz \
	--corpus none --duration 60s --guest-arg --kcsan-race --guest-arg 5 --out "$TMP/c" \
	>"$TMP/log" 2>&1 || rc=$?
grep -v '^mmfuzz: vm 0: qemu' "$TMP/log" | tail -n 20
[ $rc -eq 3 ] || fail "campaign exit status $rc, expected 3 (new titles)"
console=$(ls "$TMP"/c/vm-0/boot-1/console.log)
grep -q 'mmfuzz-init: 2 CPUs online' "$console" || fail "not two CPUs online"
grep -q 'mmfuzz-init: KCSAN on' "$console" || fail "init did not turn KCSAN on"

title='KCSAN: data-race in race_count_add / race_count_add'
bug=$("$MMFUZZ" triage show "$TMP/c" "$title" | sed -n 's/^directory: //p')
[ -d "$bug" ] || fail "no '$title' in the store"
grep -q '^BUG: KCSAN: data-race in race_count_add / race_count_add' "$bug/report.0" ||
	fail "the report is not KCSAN's"
grep -q 'value changed: ' "$bug/report.0" || fail "the report lacks its value change"
grep -q '^# mmfuzz: executing program' "$bug/progs.0" || fail "no programs with the report"
# Every KCSAN title of the run: the pair form or KCSAN's one-function forms.
sed -n 's/^mmfuzz: vm 0: REPORT: \(KCSAN: [^(]*\) (.*/\1/p' "$TMP/log" | sort -u >"$TMP/titles"
cat "$TMP/titles"
! grep -v -E '^KCSAN: (data-race in [a-z0-9_]+ / [a-z0-9_]+|data-race in [a-z0-9_]+|assert: race in [a-z0-9_]+) *$' \
	"$TMP/titles" || fail "a KCSAN title not in syzbot's form"
echo "INFO: KCSAN: $(wc -l <"$TMP/titles") title(s), $(grep -o '[0-9]* program(s)' "$TMP/log" | tail -1)"
check_clean
