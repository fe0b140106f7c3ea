# Shared by the integration tests: run from the repository root, as root,
# on a real kernel. Each test checks that it left nothing of ours behind.
set -eu
MMFUZZ=${MMFUZZ:-build/mmfuzz}
TMP=$(mktemp -d /tmp/mmfuzz-test.XXXXXX)

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_error WANT CMD...: CMD fails with one line of error that has WANT.
expect_error() {
	local want=$1
	shift
	local rc=0
	"$@" >"$TMP/o" 2>"$TMP/e" || rc=$?
	[ $rc -ne 0 ] || fail "'$*' exited 0"
	[ "$(wc -l <"$TMP/e")" -eq 1 ] || { cat "$TMP/e"; fail "'$*': not one line of error"; }
	grep -q "$want" "$TMP/e" || { cat "$TMP/e"; fail "'$*': error lacks '$want'"; }
}

vmstat() {
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}

# What of ours may be left: swap entries, swap and loop files, loop devices,
# cgroups, journals.
# Each name carries its run's pid; a run still alive (a developer's fuzzer
# beside the tests) is not a leftover, nor what lies in the directory of
# another test still running (a host test's stress-ng swap file, beside a
# guest test: scripts/run-tests.sh runs them in two lanes).
leftovers() {
	{
		grep -h 'mmfuzz' /proc/swaps || true
		ls /var/tmp 2>/dev/null | grep '^mmfuzz-\(swap\|loop\)' || true
		cat /sys/block/loop*/loop/backing_file 2>/dev/null | grep mmfuzz-loop || true
		find /sys/fs/cgroup -maxdepth 6 -type d -name 'mmfuzz.*' 2>/dev/null || true
		ls /run/mmfuzz 2>/dev/null | grep journal || true
	} | while read -r line; do
		other=$(grep -o '/tmp/mmfuzz-test\.[A-Za-z0-9]*' <<<"$line" | head -n 1 || true)
		[ -n "$other" ] && [ "$other" != "$TMP" ] && [ -d "$other" ] && continue
		pid=$(sed -n 's/.*\(mmfuzz-swap\|mmfuzz-loop\|mmfuzz\|journal\)\.\([0-9]*\).*/\2/p' \
			<<<"$line")
		[ -n "$pid" ] && [ -d "/proc/$pid" ] && continue
		echo "$line"
	done
}

zram_devices() {
	ls /sys/block | grep '^zram' || true
}

# The knobs the stressors change, with their values.
THP=/sys/kernel/mm/transparent_hugepage
our_knobs() {
	local f
	for f in $THP/enabled $THP/shmem_enabled $THP/defrag $THP/hugepages-*/enabled \
		$THP/hugepages-*/shmem_enabled $THP/khugepaged/scan_sleep_millisecs \
		$THP/khugepaged/pages_to_scan /sys/kernel/mm/ksm/run \
		/sys/kernel/mm/ksm/pages_to_scan /sys/kernel/mm/ksm/sleep_millisecs; do
		[ -r "$f" ] && echo "$f $(cat "$f")"
	done
	return 0
}

# Runs of mmfuzz alive now (their journals): a developer's fuzzer beside
# the tests makes zram devices and flips knobs of its own meanwhile.
live_runs() {
	local j
	for j in /run/mmfuzz/journal.*; do
		[ -e "$j" ] || continue
		j=${j##*/journal.}
		[ -d "/proc/${j%%.*}" ] && echo "${j%%.*}"
	done
	return 0
}

ZRAM_BEFORE=$(zram_devices)
KNOBS_BEFORE=$(our_knobs)
LIVE_BEFORE=$(live_runs)
check_clean() {
	local left others new
	left=$(leftovers)
	# A run of another test that was ending removed its journal and
	# exited between the listing and the look at its pid: a second
	# listing no longer has it. What was left behind stays.
	[ -z "$left" ] || left=$(comm -12 <(sort <<<"$left") <(leftovers | sort))
	[ -z "$left" ] || fail "left behind: $left"
	others=$(live_runs | tr '\n' ' ')
	if [ -n "$others" ]; then
		echo "INFO: mmfuzz run(s) $others alive beside the test: zram and knobs not compared"
		return 0
	fi
	# A device another run removed meanwhile is not ours; a new one that
	# stays is. One that goes within seconds was another process's (a
	# unit test of swap beside the suite makes and removes its own).
	new=$(comm -13 <(echo "$ZRAM_BEFORE") <(zram_devices))
	for _ in $(seq 50); do
		[ -n "$new" ] || break
		sleep 0.2
		new=$(comm -13 <(echo "$ZRAM_BEFORE") <(zram_devices))
	done
	[ -z "$new" ] || fail "zram devices left: $new (before: '$ZRAM_BEFORE')"
	if [ -n "$LIVE_BEFORE" ]; then
		echo "INFO: mmfuzz run(s) $LIVE_BEFORE were alive at the start: knobs not compared"
		return 0
	fi
	[ "$(our_knobs)" = "$KNOBS_BEFORE" ] ||
		fail "knobs not restored: $(diff <(echo "$KNOBS_BEFORE") <(our_knobs) | grep '^[<>]')"
}

# kernel_entry ARCH FLAVOUR [PATCH...]: that fuzzing kernel's cache entry
# (built if need be; with PATCH..., an incremental build), not the newest
# entry: that may be a kernel with a bug on purpose.
kernel_entry() {
	local arch=$1 flavour=$2 out
	shift 2
	# run-tests.sh builds the kernels the scripts name ahead of need.
	grep -Eq "^# kernels:.* $arch${flavour:+-$flavour}( |\$)" "$0" ||
		fail "$0 does not name $arch${flavour:+-$flavour} on its '# kernels:' line"
	out=$(make --no-print-directory -s kernel ARCH="$arch" FLAVOUR="$flavour" PATCHES="$*" \
		2>"$TMP/build.log") || { tail -20 "$TMP/build.log" >&2; fail "make kernel failed"; }
	grep '^build-kernel: built' "$TMP/build.log" | sed "s/^/INFO: $arch${flavour:+ $flavour}: /" >&2 || true
	printf '%s\n' "${out##*$'\n'}"
}

# fuzzing_kernel [PATCH...]: the x86_64 fuzzing kernel's.
fuzzing_kernel() {
	kernel_entry x86_64 "" "$@"
}

# covered_functions VMLINUX PCFILE [FOCUS]: the functions of FOCUS (mm/)
# of which a PC in PCFILE is a covered call site ('mmfuzz cover'); '#'
# lines are skipped.
covered_functions() {
	grep -v '^#' "$2" | "$MMFUZZ" cover --vmlinux "$1" --focus "${3:-mm}" - |
		awk 'NF == 4 && $1 > 0 && $3 ~ /%$/ && $4 !~ /\// && $4 != "total" { print $4 }'
}

# wait_for PID SECONDS CMD...: poll CMD every 0.1 s while PID lives, for
# SECONDS at most (a busy host makes swap files and devices slowly).
wait_for() {
	local pid=$1 n=$(( $2 * 10 ))
	shift 2
	while [ $n -gt 0 ] && kill -0 "$pid" 2>/dev/null; do
		"$@" && return 0
		sleep 0.1
		n=$(( n - 1 ))
	done
	"$@"
}

# stop_when PRED CMD...: run CMD and, once PRED (a command, polled every
# second) holds, end it with SIGTERM as a user would (its summary and exit
# status stay what they are about). A test waits for the event it is about,
# not for a fixed budget: CMD's own budget is the upper bound. Returns CMD's
# exit status.
stop_when() {
	local pred=$1 pid rc=0
	shift
	"$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if $pred; then
			kill -TERM "$pid" 2>/dev/null || true
			break
		fi
		sleep 1
	done
	wait "$pid" || rc=$?
	return $rc
}

# render PAGE [ARG...]: headless Chromium's DOM of the page after it ran
# (or with ARG, e.g. --screenshot=FILE, what that asks), offline.
render() {
	local profile page=$1
	shift
	profile=$(mktemp -d "$TMP/chromium.XXXXXX")
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" "${@:---dump-dom}" "file://$page" 2>"$TMP/chromium.err" ||
		{ tail -n 5 "$TMP/chromium.err"; fail "chromium could not render $page"; }
}

# The processes below PID (its children, theirs, ...).
descendants() {
	local kids k
	kids=$(pgrep -P "$1" || true)
	for k in $kids; do
		echo "$k"
		descendants "$k"
	done
}

# After a SIGKILL: 'mmfuzz cleanup', then (the guardian may still be at
# work; swapoff reads back what other processes' pages took of our
# devices) up to 60 s for the leftovers to go, then check_clean.
cleanup_after_kill() {
	"$MMFUZZ" cleanup
	for _ in $(seq 300); do
		[ -z "$(leftovers)" ] && break
		sleep 0.2
	done
	check_clean
}

# A test that fails leaves no run of its own going: its guardian then
# undoes what the run made before the next test starts. What it wrote
# stays, for finding why (images and swap files aside).
cleanup_tmp() {
	local rc=$? j keep
	j=$(jobs -p)
	[ -z "$j" ] || kill -9 $j 2>/dev/null || true
	if [ $rc -ne 0 ]; then
		keep=${TMP/mmfuzz-test./mmfuzz-failed.$(basename "$0" .sh).}
		find "$TMP" -type f -size +16M -delete 2>/dev/null || true
		mv "$TMP" "$keep" && echo "the test's files are in $keep" >&2
	fi
	rm -rf "$TMP"
}
trap cleanup_tmp EXIT
