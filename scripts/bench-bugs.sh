#!/bin/bash
# Time to first finding on the bugs of tests/bugs/, with the clean kernel
# as the control: scripts/bench-bugs.sh [BUDGET [ENGINES [CORPUS [PATCH...]]]]
# (make bench-bugs [BUDGET=6m] [ENGINES='afl mmfuzz'] [CORPUS='corpus none']
# [ARCH=x86_64|arm64]; ARCH in the environment: the guests' architecture).
# For the clean fuzzing kernel and each patch (an incremental build of the
# work tree), one campaign per engine and corpus mode for BUDGET: "corpus"
# seeds the project's corpus/, "none" starts from generation alone. Prints the
# seconds from the campaign's start to its first title in the store, what
# found it (found_by in its meta: a corpus file run unchanged, or a program
# the fuzzer made), and the title; then a summary per engine and mode. A
# finding on the clean kernel is a false positive or a real bug of it: the
# real ones are in tests/bugs/clean-titles, with why. On a bug's kernel a
# title of the clean kernel (that list, or one the control found in this
# run) is not the bug's: the first other title is the measure. A campaign
# stops there (BENCH_KEEP=1: it runs its budget).
set -eu
{ # read whole before running: editing this file cannot derail a run in progress
top=$(cd "$(dirname "$0")/.." && pwd)
# BENCH_KEEP=1: campaigns run their whole budget (every title they find).
keep=${BENCH_KEEP:-0}
budget=${1:-6m}
engines=${2:-afl mmfuzz}
modes=${3:-corpus none}
shift $(($# < 3 ? $# : 3))
bugs=("$@")
[ ${#bugs[@]} -gt 0 ] || bugs=("$top"/tests/bugs/*.patch)
mmfuzz=$top/build/mmfuzz
[ -x "$mmfuzz" ] || { echo "bench-bugs: build mmfuzz first (make)" >&2; exit 1; }
arch=${ARCH:-x86_64}
case $arch in
x86_64 | x86) arch=x86_64 image=bzImage ;;
arm64 | aarch64) arch=arm64 image=Image ;;
*) echo "bench-bugs: ARCH=$arch: x86_64 or arm64" >&2; exit 2 ;;
esac
for m in $modes; do
	case $m in
	corpus | none) ;;
	*) echo "bench-bugs: corpus mode '$m': corpus or none" >&2; exit 2 ;;
	esac
done
out=$(mktemp -d "${TMPDIR:-/var/tmp}/mmfuzz-bugs.XXXXXX")
results=$out/results.tsv
# Titles of the clean kernel: the known ones, then the control's.
cleanf=$out/clean-titles
sed -n 's/^\([^#][^\t]*\)\t.*/\1/p' "$top/tests/bugs/clean-titles" >"$cleanf"
# The oldest bug directory of OUT's store ("SECONDS DIR"), but on a bug's
# kernel not one of a title of the clean kernel.
first_title() {
	find "$1/crashes" -mindepth 2 -maxdepth 2 -name title -printf '%T@ %h\n' 2>/dev/null |
		sort -n | while read -r t d; do
			[ "$2" != clean ] && grep -qxF "$(cat "$d/title")" "$cleanf" && continue
			echo "$t $d"
			break
		done
}
# The titles of OUT's store that are the clean kernel's, '; '-separated.
known_titles() {
	cat "$1"/crashes/*/title 2>/dev/null | grep -xF -f "$cleanf" | paste -sd ';' | sed 's/;/; /g'
}
echo "bench-bugs: $arch campaigns of $budget in $out"
printf '%-24s %-7s %-7s %8s  %-30s %s\n' bug engine corpus seconds "found by" "first title"
for p in clean "${bugs[@]}"; do
	if [ "$p" = clean ]; then
		bug=clean
		kdir=$("$top/scripts/build-kernel.sh" "$arch")
	else
		bug=$(basename "$p" .patch)
		kdir=$("$top/scripts/build-kernel.sh" "$arch" "" "$p")
	fi
	for e in $engines; do
		for m in $modes; do
			o=$out/$bug-$e-$m
			start=$(date +%s.%N)
			"$mmfuzz" campaign --arch "$arch" --engine "$e" --kernel "$kdir/$image" \
				--vmlinux "$kdir/vmlinux" --duration "$budget" \
				--corpus "$([ "$m" = corpus ] && echo "$top/corpus" || echo none)" \
				--out "$o" >"$o.log" 2>&1 &
			pid=$!
			# The first title is the measure: the campaign stops there.
			while kill -0 $pid 2>/dev/null; do
				if [ "$keep" = 0 ] && [ -n "$(first_title "$o" "$bug")" ]; then
					kill -INT $pid
					break
				fi
				sleep 1
			done
			wait $pid || true
			first=$(first_title "$o" "$bug")
			if [ "$bug" = clean ]; then
				cat "$o"/crashes/*/title >>"$cleanf" 2>/dev/null || true
			else
				others=$(known_titles "$o")
				[ -z "$others" ] || echo "    (the clean kernel's, not counted: $others)"
			fi
			if [ -z "$first" ]; then
				# A bug every boot meets is no measure of the search: said so.
				boot=$(cat "$o"/boot-crashes/*/title 2>/dev/null | head -n1)
				[ -z "$boot" ] || boot="at boot: $boot"
				printf '%-24s %-7s %-7s %8s  %-30s %s\n' "$bug" "$e" "$m" - - \
					"${boot:-none in $budget}"
				printf '%s\t%s\t%s\t-\t-\n' "$bug" "$e" "$m" >>"$results"
				continue
			fi
			secs=$(echo "${first%% *} - $start" | bc)
			by=$(sed -n 's/^found_by: //p' "${first#* }/meta")
			case $by in
			seed\ *) by="corpus ${by##*/}" ;;
			'') by=unknown ;;
			esac
			printf '%-24s %-7s %-7s %8.0f  %-30s %s\n' "$bug" "$e" "$m" "$secs" "$by" \
				"$(cat "${first#* }/title")"
			printf '%s\t%s\t%s\t%.0f\t%s\n' "$bug" "$e" "$m" "$secs" "${by%% *}" \
				>>"$results"
		done
	done
done
echo "bench-bugs: per engine and corpus mode (bugs found of ${#bugs[@]}; by the fuzzer's own" \
	"programs; median seconds; findings on the clean kernel):"
awk -F '\t' '
	{ k = $2 " " $3; seen[k] = 1 }
	$1 == "clean" { if ($4 != "-") clean[k]++; next }
	$4 != "-" { found[k]++; t[k] = t[k] " " $4; if ($5 == "fuzzer") own[k]++ }
	END {
		for (k in seen) {
			n = split(t[k], s, " "); med = "-"
			if (n) {
				for (i = 1; i <= n; i++)	# insertion sort: a few values
					for (j = i; j > 1 && s[j - 1] + 0 > s[j] + 0; j--) {
						x = s[j]; s[j] = s[j - 1]; s[j - 1] = x
					}
				med = s[int((n + 1) / 2)]
			}
			printf "  %-14s found %d, by the fuzzer %d, median %s s, clean %d\n",
				k, found[k], own[k], med, clean[k]
		}
	}' "$results" | sort
exit
}
