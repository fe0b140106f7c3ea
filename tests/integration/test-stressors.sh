#!/bin/bash
# test: host
# Each stressor on its own for a few seconds ('mmfuzz stress'), its effect
# asserted from the sampler's time series; every knob, swap device, loop
# device and cgroup is gone or back to its value afterwards.
. "$(dirname "$0")/lib.sh"

# delta FILE KEY...: growth of the sum of the KEYs, first sample to last.
delta() {
	python3 - "$@" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
s = lambda r: sum(r.get(k, 0) for k in sys.argv[2:])
print(s(rows[-1]) - s(rows[0]))
PY
}

# stress NAME SECONDS [OPTION...]: run one set, output in $TMP/NAME.
stress() {
	local name=$1 secs=$2
	shift 2
	"$MMFUZZ" stress "$name" --duration "${secs}s" --out "$TMP/${name%%:*}" --swap-size 64 \
		--seed 1 "$@" >"$TMP/${name%%:*}.log" 2>&1 ||
		fail "stress $name: $(cat "$TMP/${name%%:*}.log")"
	grep -q "^stress: ${name%%:*} .* 0 failed" "$TMP/${name%%:*}.log" ||
		fail "stress $name: failed steps: $(cat "$TMP/${name%%:*}.log")"
	grep -q '^summary: .* pswpout +' "$TMP/${name%%:*}.log" ||
		fail "stress $name: no summary: $(cat "$TMP/${name%%:*}.log")"
	S=$TMP/${name%%:*}/samples.jsonl
	[ "$(wc -l <"$S")" -ge "$secs" ] || fail "stress $name: too few samples"
}

"$MMFUZZ" stress --list | grep -q '^memcg ' || fail "--list lacks memcg"
expect_error "unknown stressor 'nosuch'" "$MMFUZZ" stress memcg,nosuch
expect_error "swap:hold=x: want a number" "$MMFUZZ" stress swap:hold=x
expect_error "has no option 'speed'" "$MMFUZZ" fuzz --native --stress ksm:speed=1

# The squeeze alone drives a workload bigger than its cgroup into reclaim
# and swap. Twice the limit: half of the workload is mergeable, and a ksmd
# that another process runs on this host folds that half into a few pages.
stress memcg 5 --hog 48
scan=$(delta "$S" vmstat.pgscan_anon vmstat.pgscan_file vmstat.pgscan_kswapd \
	vmstat.pgscan_direct)
out=$(delta "$S" vmstat.pswpout)
echo "memcg: pgscan +$scan pswpout +$out, limit hits +$(delta "$S" memcg.events.max)"
[ "$scan" -gt 0 ] && [ "$out" -gt 0 ] || fail "memcg: no reclaim or swap-out"
[ "$(delta "$S" memcg.events.max)" -gt 0 ] || fail "memcg: the limit was never hit"

# Outside reclaim alone: a cgroup far bigger than its workload still swaps.
stress reclaim 4 --cgroup-limit 512 --hog 32
out=$(delta "$S" vmstat.pswpout)
echo "reclaim: pswpout +$out"
[ "$out" -gt 0 ] || fail "reclaim: process_madvise paged nothing out"

# The runner's heap canary: a page of it dropped behind its back (the test
# hook does what a kernel losing the page would) is a saved report.
rc=0
MMFUZZ_CANARY_ZAP=1 "$MMFUZZ" stress memcg --duration 3s --out "$TMP/canary" --swap-size 64 \
	>"$TMP/canary.log" 2>&1 || rc=$?
[ $rc -eq 3 ] || fail "stress with a zapped canary: exit $rc, not 3: $(cat "$TMP/canary.log")"
grep -q "^REPORT: DATA CORRUPTION: zeroed words in the stress runner's heap (in " \
	"$TMP/canary.log" || fail "canary: $(cat "$TMP/canary.log")"
grep -q '^pagemap: ' "$TMP"/canary/crashes/DATA_CORRUPTION*/report.0 ||
	fail "canary: the report lacks the page's pagemap entry"

# A runner that crashes says where, and the run ends in error: its
# stressors stopped early.
rc=0
"$MMFUZZ" stress reclaim --duration 20s --out "$TMP/segv" --swap-size 64 >"$TMP/segv.log" 2>&1 &
pid=$!
wait_for $pid 60 grep -q '(runner [0-9]*)' "$TMP/segv.log" || fail "segv: $(cat "$TMP/segv.log")"
kill -SEGV "$(sed -n 's/.*(runner \([0-9]*\)).*/\1/p' "$TMP/segv.log")"
wait $pid || rc=$?
[ $rc -eq 1 ] || fail "a crashed runner: exit $rc, not 1: $(cat "$TMP/segv.log")"
grep -q '^stress: runner: signal 11 at 0x[0-9a-f]* while stepping ' "$TMP/segv.log" &&
	grep -q 'runner died early of signal 11 (Segmentation fault)' "$TMP/segv.log" ||
	fail "a crashed runner: $(cat "$TMP/segv.log")"

# The cycler: some device leaves /proc/swaps during the run; all are back.
stress swap:hold=2500 5
python3 - "$S" <<'PY' || fail "swap: /proc/swaps never changed"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
devs = lambda r: {k for k in r if k.startswith("swap.")}
sys.exit(0 if any(devs(r) != devs(rows[0]) for r in rows) else 1)
PY
echo "swap: $(grep -c . "$S") samples, /proc/swaps changed"

# Large folios: THP knobs are switched during the run, all restored.
T=/sys/kernel/mm/transparent_hugepage
thp() { cat $T/enabled $T/shmem_enabled $T/defrag $T/hugepages-*/*enabled | md5sum; }
thp_before=$(thp)
changed=0
"$MMFUZZ" stress folios --duration 5s --out "$TMP/folios" --swap-size 64 --hog 0 \
	>"$TMP/folios.log" 2>&1 &
pid=$!
for _ in $(seq 50); do
	[ "$(thp)" != "$thp_before" ] && changed=1
	sleep 0.1
done
wait $pid || fail "stress folios: $(cat "$TMP/folios.log")"
[ $changed -eq 1 ] || fail "folios: no THP knob was switched: $(cat "$TMP/folios.log")"
[ "$(thp)" = "$thp_before" ] || fail "folios: THP knobs not restored"
echo "folios: THP knobs switched and restored, thp_split +$(delta "$TMP/folios/samples.jsonl" \
	vmstat.thp_split_page vmstat.thp_split_pmd)"

# KSM: ksmd scans (its own mergeable area is enough) and its knobs come back.
stress ksm 4 --hog 0
scanned=$(delta "$S" ksm.pages_scanned)
echo "ksm: pages_scanned +$scanned"
[ "$scanned" -gt 0 ] || fail "ksm: ksmd scanned nothing"

# io_uring: MADV_PAGEOUT from io-wq workers sends its area to swap.
stress uring 4 --hog 0
out=$(delta "$S" vmstat.pswpout)
echo "uring: pswpout +$out"
[ "$out" -gt 0 ] || fail "uring: nothing was paged out"

# stress-ng: one bounded run of a profile, reported as steps.
stress stressng:seconds=2 3
grep -q "^stress: stressng *[1-9][0-9]* steps" "$TMP/stressng.log" || fail "stress-ng never ran"
echo "stressng: $(grep '^stress: stressng' "$TMP/stressng.log")"

check_clean
