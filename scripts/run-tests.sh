#!/bin/bash
# Run test binaries or scripts of one suite; print one line per test and a
# closing "N passed, N failed" line. Exit non-zero if any failed.
set -eu
suite=$1
shift
pass=0
fail=0
for t in "$@"; do
	[ -e "$t" ] || continue
	name=$(basename "$t")
	log=$(mktemp)
	start=$(date +%s)
	rc=0
	"$t" >"$log" 2>&1 || rc=$?
	took="$(( $(date +%s) - start ))s"
	# A KTAP test (tests/unit/tap.h) counts its cases.
	if grep -q '^KTAP version' "$log"; then
		took="$took, $(grep -c '^ok ' "$log" || true) of $(sed -n 's/^1\.\.//p' "$log") cases ok"
	fi
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
		echo "PASS $suite/$name ($took)"
		grep -E '^(RATE|INFO):' "$log" || true
	else
		fail=$((fail + 1))
		echo "FAIL $suite/$name ($took)"
		# The failed cases first when the tail below may not show them.
		[ "$(wc -l <"$log")" -le 40 ] ||
			grep -E '^(not ok |# .*CHECK\()' "$log" | head -20 | sed 's/^/    /' || true
		tail -n 40 "$log" | sed 's/^/    /'
	fi
	rm -f "$log"
done
echo "$suite: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
