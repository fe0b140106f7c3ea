#!/bin/bash
# Every finding a guest makes reaches the host's store, in one boot: the
# guest's fuzzer corrupts pages behind its model (test hook), so its data
# oracle reports, and writes a real report's line into /dev/kmsg, which
# leaves the kernel running. The DATA CORRUPTION reports come on the
# findings channel while the guest goes on fuzzing; the kernel's report is
# cut from the console at its end and the guest is restarted after it.
# Every finding the guest printed is in the store with its program, and a
# SIGKILL of the campaign right after the guest printed one loses nothing.
# The guest gets its seed from the host and runs it first: the finding it
# makes is credited to that file, the others to the fuzzer.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

out=$TMP/c
rc=0
mkdir "$TMP/seeds"
cat >"$TMP/seeds/corrupt.mmf" <<'P'
m0 = mmap(0, 4, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m0, 0, 4, 0x5a)
read(m0, 0, 4)
read(m0, 0, 4)
read(m0, 0, 4)
P
# The boot that ran programs first (b), and the one after the kernel's
# report (r): 1 and 2 unless a boot failed (a guest that QEMU ends before
# the fuzzer starts is booted again, and takes a number).
first_boot() { sed -n 's/^mmfuzz: vm 0: boot \([0-9]*\): first program.*/\1/p' "$TMP/log" | head -n 1; }
after_report() {
	awk '/REPORT: BUG: Bad rss-counter state/ { r = 1 }
	     r && /^mmfuzz: vm 0: boot [0-9]+: first program/ { split($0, w, /[ :]+/); print w[5]; exit }' \
		"$TMP/log"
}
# Until the guest restored after the kernel's report runs programs (100 s at most).
restored() { [ -n "$(after_report)" ]; }
stop_when restored "$MMFUZZ" campaign --arch x86_64 --vms 1 --duration 100s --kernel debian \
	--guest-arg --corrupt-after --guest-arg 3 --guest-arg --kmsg-after --guest-arg 40 \
	--corpus "$TMP/seeds" --out "$out" >"$TMP/log" 2>&1 || rc=$?
grep -v '^mmfuzz: vm 0: qemu' "$TMP/log" | grep -v 'REPORT: DATA CORRUPTION' | tail -n 30
[ $rc -eq 3 ] || fail "campaign exit status $rc, expected 3 (new titles)"
b=$(first_boot)
r=$(after_report)
[ -n "$b" ] && [ -n "$r" ] || fail "no boot ran programs after the kernel's report"
[ "$b" -eq 1 ] || echo "INFO: $((b - 1)) boot(s) failed before the first that ran programs"

# The kernel's report: taken from the console, with the programs and log.
grep -q '^mmfuzz: vm 0: REPORT: BUG: Bad rss-counter state ' "$TMP/log" ||
	fail "the kernel's report did not reach the store"
bug=$("$MMFUZZ" triage show "$out" 'BUG: Bad rss-counter state' | sed -n 's/^directory: //p')
[ -d "$bug" ] || fail "no Bad rss-counter state bug in the store"
grep -q 'type:MM_SWAPENTS' "$bug/log.0" || fail "the kernel's report saved without its console"
grep -q '^# mmfuzz: executing program' "$bug/progs.0" || fail "the kernel's report without programs"

# The seed: sent, run first, its finding credited to it.
grep -aq ', 1 seed(s) run first, ' "$out/vm-0/boot-$b/console.log" ||
	fail "the guest did not get its seed: $(grep -a 'fuzzing natively' "$out/vm-0/boot-$b/console.log")"
grep -lqx "found_by: seed $TMP/seeds/corrupt.mmf" "$out"/crashes/*/meta ||
	fail "no finding is credited to the seed: $(cat "$out"/crashes/*/meta | grep found_by)"
grep -lqx 'found_by: fuzzer' "$out"/crashes/*/meta ||
	fail "no finding is credited to the fuzzer: $(cat "$out"/crashes/*/meta | grep found_by)"

# The oracle's reports: in boot b, before the kernel's, with their program.
first=$(grep -n 'REPORT: DATA CORRUPTION' "$TMP/log" | head -n 1 | cut -d: -f1)
kern=$(grep -n 'REPORT: BUG: Bad rss-counter state' "$TMP/log" | head -n 1 | cut -d: -f1)
[ -n "$first" ] && [ "$first" -lt "$kern" ] || fail "no DATA CORRUPTION before the kernel's report"
! grep -q "boot $r: first program" <(head -n "$first" "$TMP/log") ||
	fail "the first DATA CORRUPTION came only after a restart"
# The call a report names as the last to touch the page is in the program
# saved with it (a page corrupted before any call touched it names none).
for d in "$out"/crashes/DATA_CORRUPTION*; do
	call=$(sed -n '/^calls that touched it/{n;s/^ *[0-9]*: //p;q}' "$d/report.0")
	[ -z "$call" ] || break
done
[ -n "$call" ] || fail "no DATA CORRUPTION report names a call"
grep -qF "$call" "$d/progs.0" || fail "$d: saved without the program that made it ('$call')"
[ -s "$d/log.0" ] || fail "$d: saved without the console before it"

# Each finding the guest printed is on the host: the host saved at least
# as many, and at most the one in flight when the guest was stopped.
guest=$(cat "$out"/vm-0/boot-*/console.log | grep -ac '^REPORT: DATA CORRUPTION' || true)
host=$(grep -c '^mmfuzz: vm 0: REPORT: DATA CORRUPTION' "$TMP/log" || true)
stored=$(cat "$out"/crashes/DATA_CORRUPTION*/meta | awk '/^count:/ { n += $2 } END { print n + 0 }')
echo "INFO: DATA CORRUPTION printed in the guests $guest, saved on the host $host, store count $stored"
[ "$guest" -gt 0 ] && [ "$host" -ge "$guest" ] && [ "$host" -le $((guest + 1)) ] ||
	fail "the guest printed $guest, the host saved $host"
[ "$stored" -eq "$host" ] || fail "the store counts $stored, the host saved $host"
lat=$(sed -n 's/.*REPORT: .*saved \([0-9.]*\) s after it arrived.*/\1/p' "$TMP/log" | sort -n |
	tail -n 1)
# A figure, not a bound: a timed assertion fails on a busy host's disk;
# that findings are saved while the guest runs is asserted above.
echo "INFO: the slowest finding was on disk $lat s after it arrived"
grep -q '"new_titles":[1-9]' "$out/summary.json" || fail "summary.json: $(cat "$out/summary.json")"

# The restart after the kernel's report is no boot: boot b was saved at its
# snapshot point (or restored from the snapshot cache, where an earlier run
# left this guest), boot r is that guest restored, with a seed of its own.
grep -q "^mmfuzz: vm 0: boot $b: saved at its snapshot point in \\|^mmfuzz: vm 0: the snapshot cache has this guest\$" \
	"$TMP/log" || fail "boot $b was not saved at its snapshot point"
grep -q "^mmfuzz: vm 0: boot $r: restored from its snapshot in " "$TMP/log" ||
	fail "boot $r was not restored from the snapshot"
t1=$(sed -n "s/^mmfuzz: vm 0: boot $b: first program \([0-9.]*\) s.*/\1/p" "$TMP/log")
t2=$(sed -n "s/^mmfuzz: vm 0: boot $r: first program \([0-9.]*\) s.*/\1/p" "$TMP/log")
echo "INFO: first program after QEMU started: boot $b ${t1:-none} s, boot $r (restored) ${t2:-none} s"
# It runs the host's build, read from its disk after the point: a new
# build restores the guests that the last one saved.
ver=$("$MMFUZZ" --version)
grep -aq "^mmfuzz-init: mmfuzz from /dev/vd[a-z]*: [0-9]* bytes, $ver" \
	"$out/vm-0/boot-$r/console.log" || fail "the restored guest did not run $ver"
seeds=$(grep -ah '^mmfuzz-init: the host says: --seed' "$out/vm-0/boot-$b/console.log" \
	"$out/vm-0/boot-$r/console.log" | awk '{ print $6 }' | sort -u | wc -l)
[ "$seeds" -eq 2 ] || fail "boots $b and $r did not get seeds of their own"
first() { grep -a -m 1 -A 12 '^# mmfuzz: executing program' "$1"; }
! cmp -s <(first "$out/vm-0/boot-$b/exec.log") <(first "$out/vm-0/boot-$r/exec.log") ||
	fail "the restored guest ran boot $b's first program again"
[ ! -e "$out/vm-0/snapshot" ] || fail "the snapshot outlived the campaign"

# SIGKILL right after the guest printed a finding: the store has it. In
# whichever boot: Debian's kernel may end one under TCG on its own.
out2=$TMP/k
"$MMFUZZ" campaign --arch x86_64 --vms 1 --corpus none --duration 10m --kernel debian \
	--guest-arg --corrupt-after --guest-arg 3 --out "$out2" >"$TMP/log2" 2>&1 &
pid=$!
printed() { cat "$out2"/vm-0/boot-*/console.log 2>/dev/null | grep -a -m 1 '^REPORT: DATA CORRUPTION'; }
wait_for $pid 180 printed >/dev/null ||
	fail "the guest printed no finding: $(grep -a 'boot [0-9]' "$TMP/log2"; tail -n 20 "$TMP/log2")"
kill -9 $pid
wait $pid 2>/dev/null || true
title=$(printed | sed 's/^REPORT: \(.*\) (s[ae][ev][en].*/\1/')
"$MMFUZZ" triage list "$out2" | grep -qF "$title" || fail "'$title' is not in the store"
echo "INFO: killed after the guest printed '$title': in the store"
# The same guest with other options: its first boot is the first run's
# guest, restored from the snapshot cache.
grep -q '^mmfuzz: vm 0: the snapshot cache has this guest$' "$TMP/log2" &&
	grep -q '^mmfuzz: vm 0: boot 1: restored from its snapshot in ' "$TMP/log2" ||
	fail "the second campaign's first boot was not restored from the snapshot cache"
grep -aq '^mmfuzz-init: the host says: --seed [0-9]* .*--corrupt-after 3' \
	"$out2"/vm-0/boot-1/console.log || fail "the restored guest did not get its own options"
for _ in $(seq 50); do
	pgrep -f "path=$out2/vm-0" >/dev/null || break
	sleep 0.1
done
! pgrep -f "path=$out2/vm-0" >/dev/null || fail "QEMU outlived the killed campaign"

# A kernel that is not there: one line, exit 1, nothing booted or stored.
rc=0
"$MMFUZZ" campaign --kernel /nonexistent --duration 5s --out "$TMP/none" >"$TMP/o" 2>"$TMP/e" ||
	rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] || fail "missing kernel: rc $rc, $(cat "$TMP/e")"
grep -q 'kernel /nonexistent: No such file' "$TMP/e" || fail "missing kernel: $(cat "$TMP/e")"
[ ! -e "$TMP/none/crashes" ] || fail "missing kernel: a store was made"
expect_error 'is not an x86_64 kernel image' "$MMFUZZ" campaign --kernel /etc/passwd \
	--duration 5s --out "$TMP/none"
# A kernel image that boots nothing: boot failures, not findings; the
# campaign backs off and gives up after three in a row with exit 1.
python3 -c "b = bytearray(8192); b[0x202:0x206] = b'HdrS'; open('$TMP/bzImage', 'wb').write(b)"
rc=0
start=$(date +%s)
"$MMFUZZ" campaign --kernel "$TMP/bzImage" --duration 5m --out "$TMP/fail" >"$TMP/fail.log" 2>&1 ||
	rc=$?
cat "$TMP/fail.log" | grep -v qemu-system
[ $rc -eq 1 ] || fail "a kernel that boots nothing: exit $rc, not 1"
grep -q 'campaign: vm 0: 3 boots in a row failed' "$TMP/fail.log" || fail "no give-up line"
# QEMU's own end is told: it refuses the image, exit status 1.
[ "$(grep -c 'boot [0-9] failed (QEMU exited before the fuzzer started, exit status 1)' "$TMP/fail.log")" -eq 3 ] ||
	fail "not 3 failed boots"
! grep -q 'lost connection' "$TMP/fail.log" || fail "a boot failure called a lost connection"
[ ! -e "$TMP/fail/crashes" ] || fail "a boot failure went into the store"
[ $(( $(date +%s) - start )) -ge 6 ] || fail "no back-off between the boots"
expect_error "cpus 'abc' is not a number" "$MMFUZZ" campaign --cpus abc --out "$TMP/none"
check_clean
