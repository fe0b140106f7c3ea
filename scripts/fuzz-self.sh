#!/bin/bash
# make fuzz-self: mmfuzz's own parsers under AFL++.
#
#	scripts/fuzz-self.sh O DURATION [NAME...]
#
# Runs each harness O/afl/fuzz-NAME (tests/fuzz/fuzz-NAME.c, built by make
# afl; default: all of them) under afl-fuzz for DURATION (90, 60s, 5m, 1h),
# FUZZ_JOBS (default 2) at a time, each with its seeds in O/afl/seeds/NAME
# and its output in O/afl-out/NAME; then prints execs/s, execs, corpus,
# crashes and hangs of each (from fuzzer_stats) and fails if any target
# found a crash or a hang, or did not run.
#
# FUZZ_TIMEOUT_MS (default 2000) is afl-fuzz's -t: a test case slower than
# that is a hang. FUZZ_NICE (default 0) runs afl-fuzz under nice -n.
set -eu
cd "$(dirname "$0")/.."

usage() {
	echo "usage: scripts/fuzz-self.sh O DURATION [NAME...]" >&2
	exit 2
}

[ $# -ge 2 ] || usage
o=$1
dur=$2
shift 2
case $dur in
*[!0-9smh]* | "" | [smh]*) usage ;;
*s) secs=${dur%s} ;;
*m) secs=$(( ${dur%m} * 60 )) ;;
*h) secs=$(( ${dur%h} * 3600 )) ;;
*) secs=$dur ;;
esac
case $secs in
'' | *[!0-9]*) usage ;;
esac
[ "$secs" -gt 0 ] || usage
jobs=${FUZZ_JOBS:-2}
tmout=${FUZZ_TIMEOUT_MS:-2000}
nice_n=${FUZZ_NICE:-0}

if [ $# -gt 0 ]; then
	names=("$@")
else
	names=()
	for f in tests/fuzz/fuzz-*.c; do
		n=${f#tests/fuzz/fuzz-}
		names+=("${n%.c}")
	done
fi
for n in "${names[@]}"; do
	if [ ! -x "$o/afl/fuzz-$n" ]; then
		echo "fuzz-self: no $o/afl/fuzz-$n (make afl O=$o)" >&2
		exit 1
	fi
done
if ! command -v afl-fuzz >/dev/null; then
	echo "fuzz-self: no afl-fuzz (scripts/setup.sh installs afl++)" >&2
	exit 1
fi

# Headless, in CI, beside other work: no UI, no CPU frequency or core
# pattern checks, no failure when no core is free to bind to.
export AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
export AFL_TRY_AFFINITY=1 AFL_FAST_CAL=1
# ASan as afl-fuzz wants it: abort so that it sees a crash, no symbolizer.
# Leaks are not looked for here (one process runs 10000 inputs): the
# replay of tests/fuzz/regress in make unit does that.
export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0:allocator_may_return_null=1
export UBSAN_OPTIONS=abort_on_error=1:halt_on_error=1:symbolize=0
# fuzz-meta's bug directories: here, removed at the end.
shm=/dev/shm
[ -w "$shm" ] || shm=${TMPDIR:-/tmp}
MMF_FUZZ_TMP=$(mktemp -d "$shm/mmfuzz-fuzz.XXXXXX")
export MMF_FUZZ_TMP

# afl-fuzz processes running: pid -> target.
declare -A running=()
cleanup() {
	local p
	for p in "${!running[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	rm -rf "$MMF_FUZZ_TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Seeds: text programs, their byte form, console logs (the kernel reports
# of tests/data up to 4 KiB, 2 KiB for the slower monitor and the simpler
# symbolizer), and every target's regression inputs.
seeds() {
	local n=$1 d=$o/afl/seeds/$1 f
	rm -rf "$d"
	mkdir -p "$d"
	case $n in
	text)
		cp corpus/*.mmf "$d/" ;;
	bytes)
		for f in corpus/*.mmf; do
			"$o/afl/seed-tool" encode "$f" "$d/$(basename "$f" .mmf).bin"
		done ;;
	report)
		find tests/data/kernel-reports -type f -size -4097c -name '[0-9]*' \
			-exec cp -t "$d/" {} + ;;
	monitor | symbolize)
		find tests/data/kernel-reports -type f -size -2049c -name '[0-9]*' \
			-exec cp -t "$d/" {} + ;;
	esac
	[ ! -d "tests/fuzz/regress/$n" ] || find "tests/fuzz/regress/$n" -type f \
		-exec sh -c 'for f; do cp "$f" "$0/regress-$(basename "$f")"; done' "$d" {} +
	[ -n "$(ls -A "$d")" ] || { echo "fuzz-self: no seeds for $n" >&2; exit 1; }
}

# Dictionaries: tests/fuzz/dict/NAME.dict and those it names in "# also:"
# lines; text's is made from the call table.
dicts() {
	local n=$1 d=tests/fuzz/dict/$1.dict x
	if [ "$n" = text ]; then
		"$o/afl/seed-tool" dict >"$o/afl/text.dict"
		echo "$o/afl/text.dict"
	fi
	[ -f "$d" ] || return 0
	echo "$d"
	for x in $(sed -n 's/^# also: //p' "$d"); do
		echo "tests/fuzz/dict/$x.dict"
	done
}

start() {
	local n=$1 out=$o/afl-out/$1 d
	local -a args=(-i "$o/afl/seeds/$n" -o "$out" -m none -t "$tmout" -V "$secs")
	rm -rf "$out"
	mkdir -p "$out"
	while read -r d; do
		args+=(-x "$d")
	done < <(dicts "$n")
	nice -n "$nice_n" afl-fuzz "${args[@]}" -- "$o/afl/fuzz-$n" >"$out/afl-fuzz.log" 2>&1 &
	running[$!]=$n
}

# Wait for one afl-fuzz to end and keep its exit status.
reap() {
	local pid rc=0
	wait -n -p pid "${!running[@]}" || rc=$?
	echo "$rc" >"$o/afl-out/${running[$pid]}/rc"
	unset "running[$pid]"
}

mkdir -p "$o/afl-out"
for n in "${names[@]}"; do
	seeds "$n"
done
echo "fuzz-self: ${#names[@]} targets, ${secs}s each, $jobs at a time"
for n in "${names[@]}"; do
	[ "${#running[@]}" -lt "$jobs" ] || reap
	start "$n"
done
while [ "${#running[@]}" -gt 0 ]; do
	reap
done

# A field of fuzzer_stats.
stat_of() {
	sed -n "s/^$2 *: *//p" "$1" 2>/dev/null | head -1
}

# True if each of three replays of input $2 by target $1 outlasts the timeout.
slow() {
	local i
	for i in 1 2 3; do
		timeout -k 1 "$(( (tmout + 999) / 1000 ))" "$o/afl/fuzz-$1" "$2" >/dev/null 2>&1 ||
			[ $? -ne 124 ] || continue
		return 1
	done
	return 0
}

bad=0
printf '%-10s %10s %12s %8s %8s %6s\n' target execs/s execs corpus crashes hangs
for n in "${names[@]}"; do
	out=$o/afl-out/$n
	s=$out/default/fuzzer_stats
	rc=$(cat "$out/rc" 2>/dev/null || echo "?")
	eps=$(stat_of "$s" execs_per_sec)
	execs=$(stat_of "$s" execs_done)
	corpus=$(stat_of "$s" corpus_count)
	crashes=$(stat_of "$s" saved_crashes)
	hangs=$(stat_of "$s" saved_hangs)
	printf '%-10s %10s %12s %8s %8s %6s\n' "$n" "${eps:-?}" "${execs:-?}" \
		"${corpus:-?}" "${crashes:-?}" "${hangs:-?}"
	if [ "$rc" != 0 ] || [ -z "$execs" ] || [ "$execs" -eq 0 ]; then
		echo "  $n: afl-fuzz failed (exit $rc); the end of $out/afl-fuzz.log:"
		tail -n 15 "$out/afl-fuzz.log" | sed 's/^/    /'
		bad=1
		continue
	fi
	# afl-fuzz skips a seed that crashes or hangs, and does not count it.
	seed_bad=$(sed 's/\x1b\[[0-9;]*m//g' "$out/afl-fuzz.log" |
		grep -o "Test case '[^']*' results in a [a-z]*" || true)
	if [ -n "$seed_bad" ]; then
		echo "  $n: seeds that afl-fuzz skipped (replay: $o/afl/fuzz-$n FILE):"
		sed "s|^Test case 'id:[^']*orig:\([^']*\)'|    $o/afl/seeds/$n/\1:|" <<<"$seed_bad"
		bad=1
	fi
	# A busy host makes afl-fuzz see hangs that are only waits for a CPU:
	# a hang counts when three replays, one at a time, each take longer
	# than the timeout too.
	real_hangs=0
	for f in "$out"/default/hangs/id:*; do
		[ -e "$f" ] || continue
		if slow "$n" "$f"; then
			real_hangs=$((real_hangs + 1))
		else
			echo "  $n: a hang of afl-fuzz ends in time on replay (a busy host): $f"
		fi
	done
	if [ "${crashes:-0}" -ne 0 ] || [ $real_hangs -ne 0 ]; then
		for f in "$out"/default/crashes/id:* "$out"/default/hangs/id:*; do
			if [ -e "$f" ]; then
				echo "  $n: $f"
			fi
		done
		echo "  replay one: $o/afl/fuzz-$n FILE; keep it in tests/fuzz/regress/$n/"
		bad=1
	fi
done
[ $bad -eq 0 ] && echo "fuzz-self: nothing found" || echo "fuzz-self: FAILED"
exit $bad
