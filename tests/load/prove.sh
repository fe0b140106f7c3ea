#!/bin/bash
# The suite proven on a fresh and on a busy machine: from fresh clones of
# COMMIT, with the cache removed first, the whole test command three times
# in a row, then once under busy-host.sh. Results, a line a run, in
# DIR/results.txt; each run's output in DIR/run-N.log.
#   tests/load/prove.sh COMMIT DIR     (about 100 min on 2 cores)
set -u
[ $# -eq 2 ] || { echo "usage: $0 COMMIT DIR" >&2; exit 1; }
repo=$(cd "$(dirname "$0")/../.." && pwd)
commit=$1 dir=$2
mkdir -p "$dir" || exit 1
rm -rf "${MMFUZZ_CACHE:-/var/cache/mmfuzz}"
echo "commit $commit, cache removed $(date -u +%T)" >>"$dir/results.txt"
for i in 1 2 3 4; do
	d=$dir/clone-$i
	rm -rf "$d"
	git clone -q "$repo" "$d" && git -C "$d" checkout -q "$commit" || exit 1
	start=$(date +%s)
	if [ $i -lt 4 ]; then
		(cd "$d" && CI=true bash .ci/run) >"$dir/run-$i.log" 2>&1
	else
		(cd "$d" && tests/load/busy-host.sh env CI=true bash .ci/run) >"$dir/run-$i.log" 2>&1
	fi
	rc=$?
	echo "run $i: exit $rc, $(( $(date +%s) - start )) s," \
		"$(grep -E '[0-9]+ passed, [0-9]+ failed' "$dir/run-$i.log" | tr '\n' ' ')" \
		>>"$dir/results.txt"
done
