#!/bin/bash
# kernels: x86_64
# One bug, one entry: a campaign on a kernel with one bug of the set
# (tests/bugs/madv-free-redirty-discard.patch: reclaim discards a lazy-free
# page written again after MADV_FREE), whose seed program has two calls
# lose data that way, madvise(MADV_PAGEOUT) and process_madvise() on the
# program's own process, each page the guest finds zeroed reported: the
# store has one bug with the reports of both calls, and the triage table
# one row. (How many pages a call loses varies: a page still in a per-CPU
# LRU batch holds a reference, and reclaim keeps it.)
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

k=$(fuzzing_kernel tests/bugs/madv-free-redirty-discard.patch)
mkdir -p "$TMP/corpus"
cat >"$TMP/corpus/redirty.mmf" <<'P'
m0 = mmap(0, 64, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
madvise(m0, 0, 64, MADV_NOHUGEPAGE)
write(m0, 0, 64, 0x31)
madvise(m0, 0, 32, MADV_FREE)
write(m0, 0, 32, 0x32)
madvise(m0, 0, 32, MADV_PAGEOUT)
read(m0, 0, 32)
madvise(m0, 32, 32, MADV_FREE)
write(m0, 32, 32, 0x33)
process_madvise(m0, 32, 32, self, MADV_PAGEOUT)
read(m0, 32, 32)
P
out=$TMP/c
# The guest printed reports of pages read after each call (statements 6
# and 10), and the host has saved as many.
printed() { cat "$out"/vm-0/boot-*/console.log 2>/dev/null | grep -ac "$1" || true; }
count() { cat "$out"/crashes/*/meta 2>/dev/null | awk '/^count:/ { n += $2 } END { print n + 0 }'; }
both() {
	local a b
	a=$(printed 'read by statement 6')
	b=$(printed 'read by statement 10')
	[ "$a" -gt 0 ] && [ "$b" -gt 0 ] && [ "$(count)" -ge $((a + b)) ]
}
rc=0
# Stopped there (2 minutes at most): the fuzzer's own programs do not count.
stop_when both "$MMFUZZ" campaign --kernel "$k/bzImage" --corpus "$TMP/corpus" --duration 2m \
	--out "$out" >"$TMP/log" 2>&1 || rc=$?
grep -v ' REPORT: ' "$TMP/log"
[ $rc -eq 3 ] || fail "the campaign exited $rc, not 3 (a new bug)"
"$MMFUZZ" triage list "$out" >"$TMP/list"
cat "$TMP/list"
[ "$(wc -l <"$TMP/list")" -eq 1 ] || fail "$(wc -l <"$TMP/list") bugs in the store, not 1"
grep -q ' DATA CORRUPTION: zeroed anon page$' "$TMP/list" || fail "not the bug's title"
both || fail "no reports of both calls: $(printed 'read by statement 6') and" \
	"$(printed 'read by statement 10') printed, $(count) saved"
echo "INFO: $(printed 'read by statement 6') pages lost by madvise()," \
	"$(printed 'read by statement 10') by process_madvise(), one bug of $(count) reports"
"$MMFUZZ" triage html "$out" >/dev/null
rows=$(grep -c '<tr class="bug' "$out/crashes/index.html" || true)
[ "$rows" -eq 1 ] || fail "the triage table has $rows rows, not 1"
check_clean
