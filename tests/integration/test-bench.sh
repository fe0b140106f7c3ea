#!/bin/bash
# test: host
# mmfuzz bench on the running kernel: every benchmark gives one JSON line
# per run with its metrics, the workloads really go through swap (and 64
# KiB folios are swapped out whole where the kernel has that size), the
# THP knobs are as before, and nothing of ours is left.
. "$(dirname "$0")/lib.sh"

thp_knobs() {
	grep -H . /sys/kernel/mm/transparent_hugepage/enabled \
		/sys/kernel/mm/transparent_hugepage/hugepages-*/enabled 2>/dev/null || true
}

# The benchmarks swap to their own zram at priority 10
# (stressors/swapset.c). A device of the host's at 10 or above takes pages
# too, and whether a read after PAGEOUT faults majorly, or a 64 KiB folio
# is swapped out whole, then depends on that device: those two are asserted
# only when nothing outranks ours.
outranked=$(awk 'NR > 1 && $5 >= 10 { printf "%s (priority %s) ", $1, $5 }' /proc/swaps)
[ -z "$outranked" ] || echo "INFO: host swap $outranked ranks with ours: device-specific checks skipped"

# A small budget keeps the test short; the defaults are RAM/8.
before=$(thp_knobs)
"$MMFUZZ" bench all --runs 2 --json --mem 64 >"$TMP/out" 2>"$TMP/err" ||
	{ cat "$TMP/err"; fail "bench all failed"; }
cat "$TMP/out"
[ "$(thp_knobs)" = "$before" ] || fail "THP knobs changed: before '$before' after '$(thp_knobs)'"

# The metrics each benchmark must report in each run.
declare -A want=(
	[madv-free]="elapsed_ms user_ms sys_ms pswpin pswpout"
	[madv-dontneed]="elapsed_ms user_ms sys_ms pswpin pswpout"
	[pageout-64k]="pageout_ms thp_swpout pswpout"
	[pageout-4k]="pageout_ms thp_swpout pswpout"
	[swapin-reuse]="majflt_read minflt_read minflt_write read_ms write_ms"
	[swap-free-exit]="exit_ms_1dev exit_ms_ndev"
	[mlock-scaling]="ns_per_call_t1"
)
have64=0
[ -e /sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled ] && have64=1
for b in "${!want[@]}"; do
	lines=$(grep -c "^{\"bench\":\"$b\"," "$TMP/out" || true)
	if [ "$b" = pageout-64k ] && [ $have64 = 0 ]; then
		[ "$lines" = 0 ] || fail "pageout-64k ran without the 64 KiB size"
		continue
	fi
	[ "$lines" = 2 ] || fail "$b: $lines lines, expected 2"
	for m in ${want[$b]}; do
		n=$(grep "^{\"bench\":\"$b\"," "$TMP/out" | grep -c "\"$m\":{\"value\":[0-9.e+-]*,")
		[ "$n" = 2 ] || fail "$b: metric $m in $n of 2 runs"
	done
done

metric() { # bench metric: the values, one per run
	grep "^{\"bench\":\"$1\"," "$TMP/out" |
		sed -n "s/.*\"$2\":{\"value\":\([0-9.e+-]*\),.*/\1/p"
}
# Swap was used: MADV_PAGEOUT pushed every page of madv-free out.
for v in $(metric madv-free pswpout); do
	awk -v v="$v" 'BEGIN { exit !(v > 0) }' || fail "madv-free: pswpout $v"
done
for v in $(metric madv-free elapsed_ms) $(metric swap-free-exit exit_ms_1dev); do
	awk -v v="$v" 'BEGIN { exit !(v > 0) }' || fail "a time of $v ms"
done
# The read after PAGEOUT swaps in: major faults.
for v in $(metric swapin-reuse majflt_read); do
	[ -n "$outranked" ] || awk -v v="$v" 'BEGIN { exit !(v > 0) }' ||
		fail "swapin-reuse: no major fault"
done
if [ $have64 = 1 ] && [ -z "$outranked" ]; then
	for v in $(metric pageout-64k thp_swpout); do
		awk -v v="$v" 'BEGIN { exit !(v > 0) }' || fail "pageout-64k: thp_swpout $v"
	done
	# The counters are global: other work may swap out a large folio or
	# two meanwhile, but not the area's 1024.
	for v in $(metric pageout-4k thp_swpout); do
		[ "$v" -lt 100 ] || fail "pageout-4k swapped out $v large folios"
	done
fi
echo "INFO: madv-free elapsed_ms $(metric madv-free elapsed_ms | tr '\n' ' ')"
echo "INFO: pageout-64k pageout_ms $(metric pageout-64k pageout_ms | tr '\n' ' ')," \
	"pageout-4k $(metric pageout-4k pageout_ms | tr '\n' ' ')"

# The human form: runs, then a summary with mean, stddev and median.
"$MMFUZZ" bench mlock-scaling --runs 2 >"$TMP/human" 2>&1 || { cat "$TMP/human"; fail "human"; }
grep -q '^mlock-scaling run 2: ns_per_call_t1=' "$TMP/human" || fail "no per-run line"
grep -q '^  ns_per_call_t1 .*mean .*stddev .*median ' "$TMP/human" || fail "no summary"

# A bad name or value: one line, exit 1 (README's table); nothing set up.
rc=0
"$MMFUZZ" bench no-such-bench >"$TMP/bad" 2>&1 || rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$TMP/bad")" = 1 ] || fail "unknown name: rc $rc, $(cat "$TMP/bad")"
rc=0
"$MMFUZZ" bench all --runs 0 >/dev/null 2>&1 || rc=$?
[ $rc = 1 ] || fail "--runs 0: rc $rc"
"$MMFUZZ" bench --list | grep -q '^swap-free-exit ' || fail "--list"

[ "$(thp_knobs)" = "$before" ] || fail "THP knobs changed"
check_clean
