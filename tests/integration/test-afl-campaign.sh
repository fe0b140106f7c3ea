#!/bin/bash
# kernels: x86_64
# The AFL++ engine end to end on the fuzzing kernel: afl-fuzz on the host
# drives a serving guest through 'mmfuzz afl-target'; the guest's KCOV
# edges make AFL++ keep new inputs (its queue grows past the seeds) and
# the PCs reached are in mm/. A crash provoked while it fuzzes (LKDTM
# WARNING, at the 30th execution) reaches the crash store with its
# program, the guest is replaced and the same afl-fuzz goes on with its
# queue intact. A second campaign seeded from the first one's OUT starts
# from its queue and reaches most of its PCs; the two queues minimize to
# fewer inputs; on Debian's kernel (no KCOV) the state feedback still
# makes the queue grow. What found each bug is in its meta: the fuzzer's
# own program, or a seed run unchanged. No run is a timeout to AFL++.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

k=$(fuzzing_kernel)
# A few small seeds: each execution is seconds under TCG.
mkdir "$TMP/seeds"
for f in swapin-exclusive-reuse madv-free-vs-dontneed-swapped mlock-munlock-threads; do
	cp "corpus/$f.mmf" "$TMP/seeds/"
done
out="$TMP/a"
# The number of key in the proxy's last sample of OUT $1, 0 before one.
sample() {
	local v
	v=$(tail -n 1 "$1/vm-0/cover.jsonl" 2>/dev/null | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p")
	echo "${v:-0}"
}
queued() { ls "$1/afl/vm0/queue" 2>/dev/null | grep -c '^id:' || true; }
# Until afl-fuzz went on past the crash in a fresh guest with a grown queue
# (150 s at most).
went_on() {
	grep -q 'boot 2 ready' "$out/vm-0/work/afl-target.log" 2>/dev/null &&
		[ "$(sample "$out" execs)" -gt 40 ] && [ "$(queued "$out")" -gt 3 ]
}
stop_when went_on "$MMFUZZ" campaign --engine afl --arch x86_64 --vms 1 --duration 150s --kernel "$k/bzImage" \
	--corpus "$TMP/seeds" --selftest-lkdtm WARNING --out "$out" >"$TMP/log" 2>&1 &&
	rc=0 || rc=$?
cat "$TMP/log"
[ $rc -eq 3 ] || fail "campaign exit $rc, not 3 (a new title)"
q=$(queued "$out")
[ "$q" -gt 3 ] || fail "the queue did not grow past the 3 seeds ($q entries)"
# Runs of seconds are no timeouts to AFL++: their coverage counts.
stats=$out/afl/vm0/fuzzer_stats
[ "$(sed -n 's/^exec_timeout *: //p' "$stats")" -ge 600000 ] ||
	fail "AFL++'s timeout is $(sed -n 's/^exec_timeout *: //p' "$stats") ms"
[ "$(sed -n 's/^saved_hangs *: //p' "$stats")" -eq 0 ] ||
	fail "AFL++ took runs for hangs: $(ls "$out/afl/vm0/hangs" | head -3)"
log=$out/vm-0/work/afl-target.log
grep -q 'test hook: execution 30 provokes LKDTM' "$log" || fail "the crash was not provoked"
bug=$("$MMFUZZ" triage show "$out" 'WARNING in lkdtm_WARNING' | sed -n 's/^directory: //p')
[ -d "$bug" ] || fail "the LKDTM WARNING is not in the crash store"
# The guest answers any write of the tag: a mutated input may crash first.
grep -qx 'write(m7, 0, 16, 0xdd)' "$bug"/progs.* || fail "saved without its program"
grep -q 'lkdtm_WARNING' "$bug/log.0" || fail "saved without the console"
grep -qx 'found_by: fuzzer' "$bug/meta" || fail "the self-test's program is not the fuzzer's: $(cat "$bug/meta")"
grep -q 'boot 2 ready' "$log" || fail "no fresh guest after the crash"
# The same progress line as the mmfuzz engine's, with coverage and queue.
grep -Eq '^\[ +[0-9]+s\] programs [1-9][0-9]* \([0-9.]+/s\) pcs [1-9][0-9]* edges [1-9][0-9]* queue [1-9][0-9]* findings [1-9][0-9]* \([0-9]+ new\) boots [0-9]+ restarts [0-9]+, ' \
	"$TMP/log" || fail "no progress line with the crash counted"
execs=$(sample "$out" execs)
[ "$execs" -gt 31 ] || fail "afl-fuzz did not go on after the crash ($execs executions)"
# The PCs are kernel text, and mm/ functions are among them.
pcs=$(wc -l <"$out/vm-0/pcs")
[ "$pcs" -gt 1000 ] || fail "only $pcs PCs reached"
covered_functions "$k/vmlinux" "$out/vm-0/pcs" >"$TMP/hit"
grep -Exq 'do_swap_page|madvise_cold_or_pageout_pte_range' "$TMP/hit" ||
	fail "no PC in do_swap_page or the PAGEOUT walk"
echo "INFO: $q queue entries, $pcs PCs, $execs executions; in $(wc -l <"$TMP/hit") mm/ functions"
# The second campaign starts from the first one's queue.
out2="$TMP/b"
# Until it reached most of the first run's PCs (150 s at most).
most() { [ "$(cat "$out2/vm-0/pcs" 2>/dev/null | wc -l)" -ge $((pcs * 7 / 10)) ]; }
stop_when most "$MMFUZZ" campaign --engine afl --arch x86_64 --vms 1 --duration 150s --kernel "$k/bzImage" \
	--corpus "$out" --out "$out2" >"$TMP/log2" 2>&1 || true
cat "$TMP/log2"
seeds=$(sed -n 's/.*AFL++ engine, \([0-9]*\) seed(s).*/\1/p' "$TMP/log2")
distinct=$(md5sum "$out"/afl/vm0/queue/id:* | cut -d' ' -f1 | sort -u | wc -l)
[ "${seeds:-0}" -eq "$distinct" ] ||
	{ cat "$TMP/log2"; fail "$seeds seeds from a queue of $distinct distinct inputs"; }
pcs2=$(wc -l <"$out2/vm-0/pcs")
[ "$pcs2" -ge $((pcs * 6 / 10)) ] || fail "the second run reached $pcs2 PCs, the first $pcs"
echo "INFO: the second run: $seeds seeds, $pcs2 PCs"
# The queues minimized: fewer inputs, none lost that held an edge alone.
"$MMFUZZ" corpus minimize --out "$TMP/min" "$out" "$out2" >"$TMP/min.log" 2>&1 ||
	{ cat "$TMP/min.log"; fail "corpus minimize failed"; }
cat "$TMP/min.log"
kept=$(ls "$TMP/min" | wc -l)
[ "$kept" -gt 0 ] && [ "$kept" -lt $((q + $(ls "$out2/afl/vm0/queue" | wc -l))) ] ||
	fail "minimize kept $kept"
# Without KCOV (Debian's kernel) AFL++ still keeps inputs: the state feedback.
# A fourth seed writes the tag the test hook corrupts a page after: its
# finding, in AFL++'s first pass over the seeds, is the seed's.
out3="$TMP/c"
cp -r "$TMP/seeds" "$TMP/seeds3"
{
	echo 'm0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)'
	echo 'write(m0, 0, 16, 0xee)'
	echo 'read(m0, 0, 16)'
} >"$TMP/seeds3/tagged.mmf"
# Until the queue grew (60 s at most).
grew() { [ "$(queued "$out3")" -gt 5 ]; }
stop_when grew "$MMFUZZ" campaign --engine afl --arch x86_64 --vms 1 --duration 60s --kernel debian \
	--corpus "$TMP/seeds3" --guest-arg --corrupt-tag --guest-arg 0xee --out "$out3" \
	>"$TMP/log3" 2>&1 || true
cat "$TMP/log3"
grep -q 'has no KCOV' "$TMP/log3" || fail "the state feedback was not announced"
q3=$(queued "$out3")
[ "$q3" -gt 4 ] || fail "without KCOV the queue did not grow ($q3 entries)"
echo "INFO: without KCOV: $q3 queue entries"
tagged=$(grep -lx "found_by: seed $TMP/seeds3/tagged.mmf" "$out3"/crashes/*/meta) ||
	fail "no finding is the tagged seed's: $(grep -h found_by "$out3"/crashes/*/meta)"
grep -q '^DATA CORRUPTION: ' "$(dirname "$tagged")/title" || fail "the seed's finding: $(cat "$(dirname "$tagged")/title")"
check_clean
