#!/bin/bash
# test: host
# Bad input gets one clear line and a non-zero exit; saved reports survive.
. "$(dirname "$0")/lib.sh"

printf 'm0 = mmap(0, 16, anon, PROT_READ, MAP_PRIVATE, 0)\nmadvise(m0, 0, 16, MADV_BOGUS)\n' >"$TMP/bad.mmf"
expect_error 'bad.mmf: line 2: madvise: bad advice' "$MMFUZZ" exec --native "$TMP/bad.mmf"
expect_error 'No such file' "$MMFUZZ" exec --native "$TMP/missing.mmf"
expect_error 'without --native' "$MMFUZZ" exec corpus/cow-after-fork-swapped.mmf
expect_error 'need --native' "$MMFUZZ" exec --kernel debian --hang-after 2 corpus/cow-after-fork-swapped.mmf
expect_error 'without --native' "$MMFUZZ" fuzz --duration 1s
expect_error "fuzz: --duration 'soon' is not a duration" "$MMFUZZ" fuzz --native --duration soon
expect_error 'unknown command' "$MMFUZZ" frobnicate
# An unknown name is a bad value (1), whichever command takes it; usage is 2.
for cmd in "bench nosuch" "stress nosuch"; do
	rc=0
	# shellcheck disable=SC2086 # the command and its word
	"$MMFUZZ" $cmd 2>/dev/null || rc=$?
	[ $rc -eq 1 ] || fail "'mmfuzz $cmd' exited $rc, not 1"
done
rc=0
"$MMFUZZ" bench --no-such-option 2>/dev/null || rc=$?
[ $rc -eq 2 ] || fail "'mmfuzz bench --no-such-option' exited $rc, not 2"
# 'default', the kernel the help names, is no file to check: the output
# directory is what is refused.
expect_error 'cannot create output directory /proc/nope/out' "$MMFUZZ" campaign \
	--kernel default --out /proc/nope/out
# A bad engine is refused with the options, before a kernel is looked for.
expect_error "vm: --engine 'nope' is neither afl nor mmfuzz" "$MMFUZZ" vm --engine nope \
	--kernel "$TMP/nope/bzImage"
expect_error "farm jobs: --accel 'z' is neither tcg nor kvm" "$MMFUZZ" farm jobs --accel z
# farm: a missing kernel, a bad shard count, an unwritable store, a log that is none.
expect_error 'nope/bzImage: no such file' "$MMFUZZ" farm jobs --kernel "$TMP/nope/bzImage" \
	--initramfs "$TMP/nope/i" --out "$TMP/jobs"
expect_error "farm jobs: --shards 'many' is not a number" "$MMFUZZ" farm jobs --kernel k \
	--initramfs i --shards many --out "$TMP/jobs"
printf 'not\0a log' >"$TMP/bin.log"
expect_error 'bin.log: neither a LAVA job log nor a console log' \
	"$MMFUZZ" farm collect --store "$TMP/farm-store" "$TMP/bin.log"
[ ! -e "$TMP/farm-store" ] || fail "a bad log made the store"
expect_error 'cannot write the store' "$MMFUZZ" farm collect --store "$TMP/bin.log/store" \
	tests/data/farm/server.log
# repro: where to run, a crash without programs, a malformed saved program.
mkdir -p "$TMP/bug" && echo 'WARNING in foo' >"$TMP/bug/title"
expect_error 'say where' "$MMFUZZ" repro "$TMP/bug"
expect_error 'no programs' "$MMFUZZ" repro --kernel debian --arch x86_64 "$TMP/bug"
cp "$TMP/bad.mmf" "$TMP/bug/progs.0"
expect_error 'progs.0: program 0: line 2: madvise: bad advice' \
	"$MMFUZZ" repro --kernel debian --arch x86_64 "$TMP/bug"
expect_error "unknown arch 'vax'" "$MMFUZZ" repro --kernel debian --arch vax "$TMP/bug"
touch "$TMP/file"
expect_error 'cannot create output directory' "$MMFUZZ" fuzz --native --duration 1s --out "$TMP/file/out"
mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
# root ignores mode bits: make the directory immutable instead where possible
if chattr +i "$TMP/ro" 2>/dev/null; then
	expect_error 'not writable' "$MMFUZZ" fuzz --native --duration 1s --out "$TMP/ro"
	chattr -i "$TMP/ro"
fi

# A second run into the same directory keeps what the first saved, also
# when it hits the same bug again: a kernel report written to /dev/kmsg.
title='BUG: Bad rss-counter state'
echo precious >"$TMP/precious"
"$MMFUZZ" triage add "$TMP/keep/crashes" --report "$TMP/precious" --title "$title" >/dev/null
bug=$(ls -d "$TMP/keep/crashes/BUG_Bad_rss-counter_state-"*)
"$MMFUZZ" fuzz --native --duration 4s --out "$TMP/keep" >"$TMP/keep.log" 2>&1 &
pid=$!
# Setting up swap takes seconds on a busy machine: write once it fuzzes.
for _ in $(seq 300); do
	grep -q '^mmfuzz: fuzzing natively' "$TMP/keep.log" && break
	sleep 0.1
done
sleep 1
printf 'BUG: Bad rss-counter state mm:00000000b6fe4a1c type:MM_ANONPAGES val:1\n' >/dev/kmsg
rc=0
wait $pid || rc=$?
# The title was in the store already: not new. The host's own kernel may
# give the fuzzer a finding of its own in those seconds (exit 3): shown.
grep -q 'known BUG: Bad rss-counter state$' "$TMP/keep.log" || fail "not counted as known"
if [ $rc -eq 3 ]; then
	for d in "$TMP"/keep/crashes/*; do
		[ "$d" = "$bug" ] || head -n 2 "$d/report.0" | sed "s/^/INFO: the host's kernel, $(uname -r): /"
	done
	! grep -q 'new *BUG: Bad rss-counter state$' "$TMP/keep.log" || fail "counted as new"
	rc=0
fi
[ $rc -eq 0 ] || { cat "$TMP/keep.log"; fail "fuzz exited with $rc"; }
[ "$(cat "$bug/report.0")" = precious ] || fail "saved report overwritten"
grep -q 'Bad rss-counter state mm:' "$bug/report.1" || fail "second occurrence not saved beside"
grep -Eqx 'count: ([2-9]|[1-9][0-9]+)' "$bug/meta" || { cat "$bug/meta"; fail "not counted"; }
check_clean
