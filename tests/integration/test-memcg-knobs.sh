#!/bin/bash
# test: host
# The cgroup, file and knob calls on the running kernel: a program and its fork child move
# between the run's sibling memory cgroups (seen in /proc/PID/cgroup while
# the program is stopped by the hang hook), limits and the mTHP, shmem and
# ksmd knobs a program changes are back to their values after the run, and
# every corpus program of those calls runs clean.
. "$(dirname "$0")/lib.sh"

my_knobs() {
	cat /sys/kernel/mm/transparent_hugepage/hugepages-*/enabled \
		/sys/kernel/mm/transparent_hugepage/shmem_enabled /sys/kernel/mm/ksm/run \
		/sys/kernel/mm/ksm/pages_to_scan 2>/dev/null
}

cat >"$TMP/move.mmf" <<'P'
m0 = mmap(0, 64, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m0, 0, 64, 0x01)
c0 = fork {
	read(m0, 0, 64)
}
cg_move(self, 1)
cg_move(c0, 2)
cg_limit(1, MEMORY_MAX, 12)
thp_knob(THP_64K, always)
thp_knob(SHMEM, within_size)
P
before=$(my_knobs)
# Stopped after the last statement (index 8); the timeout kills it.
"$MMFUZZ" exec --native --timeout 6s --hang-after 8 "$TMP/move.mmf" >"$TMP/out" 2>&1 &
run=$!
self="" child=""
moved() {
	for f in $(find /sys/fs/cgroup -maxdepth 6 -type d -name "mmfuzz.$run.sib1" 2>/dev/null); do
		self=$(head -n 1 "$f/cgroup.procs")
		child=$(head -n 1 "${f%.sib1}.sib2/cgroup.procs")
	done
	[ -n "$self" ] && [ -n "$child" ]
}
wait_for $run 120 moved || true
[ -n "$self" ] || fail "the program never showed up in the sibling cgroup sib1"
[ -n "$child" ] || fail "the fork child never showed up in the sibling cgroup sib2"
grep -q 'mmfuzz\.[0-9]*\.sib1' "/proc/$self/cgroup" || fail "/proc/$self/cgroup: not in sib1"
grep -q 'mmfuzz\.[0-9]*\.sib2' "/proc/$child/cgroup" || fail "/proc/$child/cgroup: not in sib2"
echo "INFO: program $self in $(grep -o 'mmfuzz[^ ]*sib1' /proc/$self/cgroup | head -n 1)," \
	"child $child in $(grep -o 'mmfuzz[^ ]*sib2' /proc/$child/cgroup | head -n 1)"
grep -q "\[always\]" /sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled ||
	fail "thp_knob did not write hugepages-64kB/enabled"
wait $run || true
cat "$TMP/out"
grep -q "move.mmf: timeout" "$TMP/out" || fail "the program was not stopped by the hook"
[ "$(my_knobs)" = "$before" ] || { diff <(echo "$before") <(my_knobs); fail "knobs not restored"; }

for f in corpus/memcg-move-limit-reclaim.mmf corpus/shmem-seals-punch-truncate.mmf \
	 corpus/secret-devzero-hugetlb.mmf corpus/special-maps-mlock.mmf \
	 corpus/ksm-zero-pages-mthp.mmf; do
	"$MMFUZZ" gen --check "$f" >/dev/null || fail "$f: gen --check"
	"$MMFUZZ" exec --native --quiet "$f" >"$TMP/out" 2>&1 ||
		{ cat "$TMP/out"; fail "$f: a report or an error"; }
	head -n 1 "$TMP/out"
	grep -q ": ok, " "$TMP/out" || fail "$f: did not finish"
done
[ "$(my_knobs)" = "$before" ] || fail "knobs not restored after the corpus"
check_clean
