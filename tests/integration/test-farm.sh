#!/bin/bash
# kernels: x86_64 arm64
# A farm on LAVA, for real: shards of the fuzzing kernel written as LAVA
# jobs, checked against LAVA's schema, run one after another by Debian's
# lava-run on a qemu device of our own (TCG), and their logs collected
# into one store by two collectors at once. Shard jobs a1, a2 corrupt a
# page after writes of tag 238 (the data oracle's findings travel as frame
# lines); job b provokes an LKDTM WARNING (panic_on_warn: a kernel report
# on the console, the guest's end). Job c is job b on arm64 (the arm64
# fuzzing kernel, an incremental build after test-arm64-bug's, on an arm64
# qemu device), collected into a store of its own with the arm64 vmlinux. A log collected twice counts once; a log cut short is refused
# before anything is saved.
. "$(dirname "$0")/lib.sh"

k=$(fuzzing_kernel)
initramfs=$(scripts/build-initramfs.sh --with-mmfuzz x86_64)
k64=$(kernel_entry arm64 "")
initramfs64=$(scripts/build-initramfs.sh --with-mmfuzz arm64)
store=$TMP/store

"$MMFUZZ" farm jobs --kernel "$k/bzImage" --initramfs "$initramfs" --shards 2 --budget 10s \
	--seed 7 --guest-arg --corrupt-tag --guest-arg 238 --out "$TMP/a" >"$TMP/jobs.out"
"$MMFUZZ" farm jobs --kernel "$k/bzImage" --initramfs "$initramfs" --shards 1 --budget 60s \
	--seed 9 --guest-arg --lkdtm --guest-arg WARNING:3 --out "$TMP/b" >>"$TMP/jobs.out"
"$MMFUZZ" farm jobs --arch arm64 --kernel "$k64/Image" --initramfs "$initramfs64" --shards 1 \
	--budget 90s --seed 11 --guest-arg --lkdtm --guest-arg WARNING:3 --out "$TMP/c" >>"$TMP/jobs.out"
cat "$TMP/jobs.out"
grep -q "shard-2.yaml: shard 2 of 2, seed 8$" "$TMP/jobs.out" || fail "shard 2 has not seed 8"
scripts/lava-validate.sh "$TMP"/a/shard-*.yaml "$TMP/b/shard-1.yaml" "$TMP/c/shard-1.yaml"
# Jobs are never replaced.
expect_error "exists" "$MMFUZZ" farm jobs --kernel "$k/bzImage" --initramfs "$initramfs" \
	--budget 20s --out "$TMP/a"
"$MMFUZZ" farm device --out "$TMP/device.yaml"
"$MMFUZZ" farm device --arch arm64 --out "$TMP/device-arm64.yaml"

# lava-run prints the job's log: what lava-server keeps of it.
n=0
for job in a/shard-1 a/shard-2 b/shard-1 c/shard-1; do
	n=$((n + 1))
	log=$TMP/job-$n.log
	start=$(date +%s)
	dev=$TMP/device.yaml
	[ "${job%/*}" != c ] || dev=$TMP/device-arm64.yaml
	lava-run --job-id "$n" --output-dir "$TMP/run-$n" --device "$dev" \
		"$TMP/$job.yaml" >"$log" 2>&1 || { tail -n 20 "$log"; fail "lava-run of $job failed"; }
	grep -q '"case": "job", "definition": "lava", "result": "pass"' "$log" ||
		{ grep '"results"' "$log" | tail -n 5; fail "$job: the LAVA job did not pass"; }
	echo "INFO: $job: LAVA job of $(($(date +%s) - start)) s," \
		"$(grep -c '"lvl": "target"' "$log") console lines"
done
# The test monitor's cases: a class per finding, a kernel panic.
grep -q '"case": "data_corruption", "definition": "mmfuzz", .*"result": "fail"' "$TMP/job-1.log" ||
	fail "no data_corruption test case failed in job 1"
grep -q '"case": "kernel_report", "definition": "mmfuzz", .*"result": "pass"' "$TMP/job-1.log" ||
	fail "job 1 passed no kernel_report case at its end"
grep -q '"case": "kernel_panic", "definition": "mmfuzz", .*"result": "fail"' "$TMP/job-3.log" ||
	fail "no kernel_panic test case failed in job 3"
grep -q 'qemu-system-aarch64 ' "$TMP/job-4.log" || fail "job 4 did not boot an arm64 guest"
grep -q '"case": "kernel_panic", "definition": "mmfuzz", .*"result": "fail"' "$TMP/job-4.log" ||
	fail "no kernel_panic test case failed in job 4 (arm64)"

# Two collectors at once on one store.
rc1=0 rc2=0
"$MMFUZZ" farm collect --store "$store" "$TMP/job-1.log" "$TMP/job-2.log" >"$TMP/c1" 2>&1 &
p1=$!
"$MMFUZZ" farm collect --store "$store" --vmlinux "$k/vmlinux" "$TMP/job-3.log" >"$TMP/c2" 2>&1 &
p2=$!
wait $p1 || rc1=$?
wait $p2 || rc2=$?
grep '^farm: ' "$TMP/c1" "$TMP/c2"
[ $rc1 -eq 3 ] && [ $rc2 -eq 3 ] || fail "collectors exited $rc1 and $rc2, want 3 and 3"
findings=$(sed -n 's/^farm: .* collected (0 never fuzzed): \([0-9]*\) findings.*/\1/p' \
	"$TMP/c1" "$TMP/c2" | awk '{ s += $1 } END { print s }')
stored=$("$MMFUZZ" triage list "$store/crashes" | awk '{ s += $1 } END { print s }')
[ "$findings" -gt 2 ] && [ "$findings" -eq "$stored" ] ||
	fail "collectors saw $findings findings, the store holds $stored"
"$MMFUZZ" triage list "$store/crashes"
warn=$(ls -d "$store"/crashes/WARNING_in_lkdtm_WARNING-*) || fail "no WARNING in lkdtm_WARNING"
grep -q '^# mmfuzz: executing program' "$warn/progs.0" || fail "the WARNING has no programs"
grep -q 'Kernel panic - not syncing' "$warn/log.0" || fail "the WARNING's console has no panic"
grep -q 'drivers/misc/lkdtm/bugs.c:[0-9]' "$warn/report.0.sym" ||
	fail "the WARNING's report is not symbolized"
for d in "$store"/crashes/DATA_CORRUPTION_*; do
	grep -q 'write(' "$d/progs.0" || fail "$d: no program"
	grep -q '^stressors, the last to act first: ' "$d/report.0" || fail "$d: not the whole report"
done
[ "$(ls "$store/nights" | wc -l)" -eq 2 ] || fail "not a night per collector"
grep -h '^findings: ' "$store"/nights/*/night

# Again: counted once. Cut short: refused, the store as it was.
"$MMFUZZ" farm collect --store "$store" "$TMP/job-1.log" >"$TMP/c3" ||
	fail "collecting a log again exited $?"
grep -q 'collected before' "$TMP/c3" || fail "a log collected again was not skipped"
head -c 30000 "$TMP/job-2.log" >"$TMP/cut.log"
expect_error "the log cut short" "$MMFUZZ" farm collect --store "$store" "$TMP/cut.log"
[ "$("$MMFUZZ" triage list "$store/crashes" | awk '{ s += $1 } END { print s }')" -eq "$stored" ] ||
	fail "the store changed"
# The arm64 job's finding, symbolized with the cross binutils.
rc=0
"$MMFUZZ" farm collect --store "$TMP/store64" --vmlinux "$k64/vmlinux" "$TMP/job-4.log" \
	>"$TMP/c4" 2>&1 || rc=$?
grep '^farm: ' "$TMP/c4"
[ $rc -eq 3 ] || fail "the arm64 collector exited $rc, not 3"
warn64=$(ls -d "$TMP"/store64/crashes/WARNING_in_lkdtm_WARNING-*) || fail "arm64: no WARNING in lkdtm_WARNING"
grep -qx 'arch: arm64' "$warn64/meta" || fail "arm64: the finding is not saved as arm64's"
grep -q 'drivers/misc/lkdtm/bugs.c:[0-9]' "$warn64/report.0.sym" ||
	fail "arm64: the WARNING's report is not symbolized"
echo "INFO: $findings findings in $(ls "$store/crashes" | wc -l) bugs from 3 LAVA jobs;" \
	"an arm64 job of $(grep -c '"lvl": "target"' "$TMP/job-4.log") console lines"
check_clean
