#!/bin/bash
# Run test binaries or scripts of one suite; print one line per test with
# its time, the ten slowest and a closing "N passed, N failed" line. Exit
# non-zero if any failed.
#
#	scripts/run-tests.sh SUITE TEST...
#
# Test binaries (unit tests) and scripts with the line "# test: parallel"
# (those that boot no guest and change nothing machine-wide) run first,
# TEST_JOBS (default: the CPUs, at most 2) at a time, each output kept whole
# and printed when it ends. Then two lanes side by side, one test at a time
# in each: the scripts with the line "# test: host" (they boot no guest but
# change this machine's swap, cgroups or knobs, so never two at once), and
# every other script (guests, each alone among them). A script with the
# line "# test: alone" holds both lanes: a guest test that also runs mmfuzz
# natively, a test that leaves what a killed run left for a while.
# TEST_JOBS=1 runs the lanes one after the other.
#
# A script that boots kernels of make kernel names them on a line
# "# kernels: x86_64 arm64-16k" (ARCH or ARCH-FLAVOUR; lib.sh's
# kernel_entry refuses an undeclared one). From the start those kernels
# are built ahead of need, one after another, the one most tests name
# first, as idle builds (build-kernel.sh's MMFUZZ_BUILD_IDLE: only the CPU
# time the tests leave), and each lane runs its scripts in that order of
# their kernels, those with none first: on a new machine the tests run
# while the kernels build, and wait only for the one they need.
set -eu
suite=$1
shift
jobs=${TEST_JOBS:-$(nproc)}
[ "$jobs" -le 2 ] || jobs=2
pass=0
fail=0
times=$(mktemp)
outs=$(mktemp -d)
ahead=
trap '[ -z "$ahead" ] || kill -- -"$ahead" 2>/dev/null; rm -rf "$times" "$outs"' EXIT

# One test, its verdict line and output into $outs/N.
run_one() {
	local t=$1 out=$2 name log rc=0 start took
	name=$(basename "$t")
	log=$out.log
	start=$(date +%s)
	"$t" >"$log" 2>&1 || rc=$?
	took="$(( $(date +%s) - start ))"
	echo "$took $suite/$name" >>"$times"
	took="${took}s"
	# A KTAP test (tests/unit/tap.h) counts its cases.
	if grep -q '^KTAP version' "$log"; then
		took="$took, $(grep -c '^ok ' "$log" || true) of $(sed -n 's/^1\.\.//p' "$log") cases ok"
	fi
	{
		if [ $rc -eq 0 ]; then
			echo "PASS $suite/$name ($took)"
			grep -E '^(RATE|INFO):' "$log" || true
		else
			echo "FAIL $suite/$name ($took)"
			# The failed cases first when the tail below may not show them.
			[ "$(wc -l <"$log")" -le 40 ] ||
				grep -E '^(not ok |# .*CHECK\()' "$log" | head -20 | sed 's/^/    /' || true
			tail -n 40 "$log" | sed 's/^/    /'
		fi
	} >"$out"
	rm -f "$log"
	return $rc
}

# Tests running now: pid -> output file, pid -> the lane it holds.
declare -A running=() lane=()
reap() {
	local pid rc=0
	wait -n -p pid "${!running[@]}" || rc=$?
	cat "${running[$pid]}"
	if [ $rc -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
	unset "running[$pid]" "lane[$pid]"
}

n=0
# start TEST LANE
start() {
	n=$((n + 1))
	run_one "$1" "$outs/$n" &
	running[$!]=$outs/$n
	lane[$!]=$2
}

# in_use LANE: a running test holds LANE (or both).
in_use() {
	local l
	for l in "${lane[@]}"; do
		[ "$l" = "$1" ] || [ "$l" = both ] && return 0
	done
	return 1
}

# The kernels each script names; their order: most named first.
declare -A kernels=() named=() rank=()
for t in "$@"; do
	[ "${t%.sh}" != "$t" ] && [ -e "$t" ] || continue
	kernels[$t]=$(sed -n 's/^# kernels: //p' "$t")
	for k in ${kernels[$t]}; do
		named[$k]=$(( ${named[$k]:-0} + 1 ))
	done
done
order=()
while read -r _ k; do
	order+=("$k")
	rank[$k]=${#order[@]}
done < <(for k in "${!named[@]}"; do echo "${named[$k]} $k"; done | sort -k1,1rn -k2)
# The scripts by the last kernel (in that order) each waits for, stably.
sorted=()
while read -r _ _ t; do
	sorted+=("$t")
done < <(i=0; for t in "$@"; do
	r=0
	for k in ${kernels[$t]:-}; do
		[ "${rank[$k]}" -le $r ] || r=${rank[$k]}
	done
	echo "$r $i $t"
	i=$((i + 1))
done | sort -k1,1n -k2,2n)
set -- "${sorted[@]}"

if [ ${#order[@]} -gt 0 ]; then
	set -m
	(
		for k in "${order[@]}"; do
			a=${k%%-*} f=
			[ "$a" = "$k" ] || f=${k#*-}
			MMFUZZ_BUILD_IDLE=1 FLAVOUR=$f "$(dirname "$0")/build-kernel.sh" "$a" \
				>/dev/null 2>"$outs/ahead-$k.log" || echo "build failed" >>"$outs/ahead-$k.log"
		done
	) &
	ahead=$!
	set +m
fi

shared=()
guests=()
hosts=()
declare -A alone=()
for t in "$@"; do
	[ -e "$t" ] || continue
	case $t in
	*.sh)
		kind=$(sed -n 's/^# test: //p' "$t")
		# A parallel one that names a kernel waits for its build in the host lane.
		[ "$kind" != parallel ] || [ -z "${kernels[$t]}" ] || kind=host
		if [ "$kind" = parallel ]; then
			shared+=("$t")
		elif [ "$kind" = host ] && [ "$jobs" -ge 2 ]; then
			hosts+=("$t")
		else
			guests+=("$t")
			[ "$kind" != alone ] || alone[$t]=1
		fi
		;;
	*) shared+=("$t") ;;
	esac
done
for t in "${shared[@]}"; do
	[ ${#running[@]} -lt "$jobs" ] || reap
	start "$t" shared
done
while [ ${#running[@]} -gt 0 ]; do
	reap
done
g=0
h=0
while [ $g -lt ${#guests[@]} ] || [ $h -lt ${#hosts[@]} ] || [ ${#running[@]} -gt 0 ]; do
	next=${guests[$g]:-}
	both=${next:+${alone[$next]:-}}
	if [ -n "$next" ] && ! in_use guest; then
		if [ -z "$both" ]; then
			start "$next" guest
			g=$((g + 1))
		elif ! in_use host; then
			start "$next" both
			g=$((g + 1))
		fi
	fi
	# The host lane waits while the next guest test waits for both.
	if [ $h -lt ${#hosts[@]} ] && ! in_use host && { in_use guest || [ -z "$both" ]; }; then
		start "${hosts[$h]}" host
		h=$((h + 1))
	fi
	reap
done
if [ -n "$ahead" ]; then
	wait "$ahead" || true
	ahead=
	for k in "${order[@]}"; do
		grep -E '^(build-kernel: built|build failed)' "$outs/ahead-$k.log" |
			sed "s/^\(build-kernel: \)\?/ahead of need: $k: /" || true
	done
fi
echo "$suite: the ten slowest:"
sort -rn "$times" | head -n 10 | awk '{ printf "    %5ds  %s\n", $1, $2 }'
echo "$suite: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
