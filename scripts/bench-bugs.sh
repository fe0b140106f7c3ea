#!/bin/bash
# Time to first finding on the bugs of tests/bugs/: scripts/bench-bugs.sh
# [BUDGET [ENGINES [PATCH...]]] (make bench-bugs [BUDGET=10m]). For each
# patch, the fuzzing kernel with it applied (an incremental build of the
# work tree), then one campaign per engine for BUDGET; prints the seconds
# from the campaign's start to its first title in the store, and the title.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
budget=${1:-10m}
engines=${2:-afl mmfuzz}
shift $(($# < 2 ? $# : 2))
bugs=("$@")
[ ${#bugs[@]} -gt 0 ] || bugs=("$top"/tests/bugs/*.patch)
mmfuzz=$top/build/mmfuzz
[ -x "$mmfuzz" ] || { echo "bench-bugs: build mmfuzz first (make)" >&2; exit 1; }
out=$(mktemp -d "${TMPDIR:-/var/tmp}/mmfuzz-bugs.XXXXXX")
echo "bench-bugs: campaigns of $budget in $out"
printf '%-22s %-7s %8s  %s\n' bug engine seconds "first title"
for p in "${bugs[@]}"; do
	bug=$(basename "$p" .patch)
	kdir=$("$top/scripts/build-kernel.sh" x86_64 "" "$p")
	for e in $engines; do
		o=$out/$bug-$e
		start=$(date +%s.%N)
		"$mmfuzz" campaign --engine "$e" --kernel "$kdir/bzImage" --vmlinux "$kdir/vmlinux" \
			--duration "$budget" --out "$o" >"$o.log" 2>&1 || true
		first=$(find "$o/crashes" -mindepth 2 -maxdepth 2 -name title -printf '%T@ %h\n' \
			2>/dev/null | sort -n | head -n1)
		if [ -z "$first" ]; then
			printf '%-22s %-7s %8s  %s\n' "$bug" "$e" "-" "none in $budget"
			continue
		fi
		secs=$(echo "${first%% *} - $start" | bc)
		printf '%-22s %-7s %8.0f  %s\n' "$bug" "$e" "$secs" "$(cat "${first#* }/title")"
	done
done
