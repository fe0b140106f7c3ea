#!/bin/bash
# Run test binaries or scripts of one suite; print one line per test and a
# closing "N passed, N failed" line. Exit non-zero if any failed.
set -eu
suite=$1
shift
pass=0
fail=0
failed=""
for t in "$@"; do
	[ -e "$t" ] || continue
	name=$(basename "$t")
	log=$(mktemp)
	start=$(date +%s)
	if "$t" >"$log" 2>&1; then
		pass=$((pass + 1))
		echo "PASS $suite/$name ($(( $(date +%s) - start ))s)"
		grep -E '^(RATE|INFO):' "$log" || true
	else
		fail=$((fail + 1))
		failed="$failed $name"
		echo "FAIL $suite/$name ($(( $(date +%s) - start ))s)"
		tail -n 40 "$log" | sed 's/^/    /'
	fi
	rm -f "$log"
done
echo "$suite: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
