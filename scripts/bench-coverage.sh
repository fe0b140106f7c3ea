#!/bin/bash
# make bench-coverage: the AFL++ engine against the mmfuzz engine, side by
# side on the same fuzzing kernel (one guest each, at the same time, so a
# busy host slows both), RUNS times for DURATION each: distinct mm/ PCs
# (mmfuzz cover), edges, programs/s and new titles, with the ratios.
#   scripts/bench-coverage.sh BUILD_DIR [DURATION] [RUNS] [OUT]
# BENCH_CORPUS=none starts both from generation alone (default: corpus/,
# whose programs are heavier than generated ones).
set -eu
mmfuzz=$1/mmfuzz
dur=${2:-10m}
runs=${3:-3}
case ${BENCH_CORPUS:=corpus} in
corpus) seeds=$(cd "$(dirname "$0")/.." && pwd)/corpus ;;
none) seeds=none ;;
*) echo "bench-coverage: BENCH_CORPUS=$BENCH_CORPUS: corpus or none" >&2; exit 2 ;;
esac
out=${4:-$(mktemp -d /var/tmp/mmfuzz-bench-coverage.XXXXXX)}
k=$("$(dirname "$0")/build-kernel.sh" x86_64) || exit 1
[ -n "$k" ] && [ -e "$k/vmlinux" ] ||
	{ echo "bench-coverage: no fuzzing kernel: run 'make kernel' first" >&2; exit 1; }
mkdir -p "$out"
echo "bench-coverage: $runs run(s) of $dur per engine, seeds $BENCH_CORPUS, kernel $k, output in $out"

# The figures of one campaign's OUT: mm/ PCs, edges, programs/s, new titles.
figures() {
	local o=$1 eng=$2 pcs edges progs secs
	pcs=$(grep -v '^#' "$o/vm-0/pcs" | "$mmfuzz" cover --vmlinux "$k/vmlinux" --focus mm - \
		2>/dev/null | awk '$4 == "total" { print $1 }')
	if [ "$eng" = afl ]; then
		edges=$(tail -1 "$o/vm-0/cover.jsonl" | sed 's/.*"edges":\([0-9]*\).*/\1/')
	else
		edges=$(grep '^# edges' "$o/vm-0/pcs" | tail -1 | cut -d' ' -f3)
	fi
	progs=$(sed -n 's/.*"programs":\([0-9]*\).*/\1/p' "$o/summary.json")
	secs=$(sed -n 's/.*, for \([0-9]*\)s, .*/\1/p' "$o/log" | head -1)
	echo "${pcs:-0} ${edges:-0} $(awk -v p="${progs:-0}" -v s="${secs:-1}" \
		'BEGIN { printf "%.2f", p / s }') $(sed -n 's/.*"new_titles":\([0-9]*\).*/\1/p' \
		"$o/summary.json")"
}

for r in $(seq 1 "$runs"); do
	for eng in afl mmfuzz; do
		o="$out/run$r-$eng"
		extra=
		[ "$eng" = mmfuzz ] && extra=--cover
		"$mmfuzz" campaign --engine "$eng" $extra --arch x86_64 --vms 1 --duration "$dur" \
			--corpus "$seeds" \
			--kernel "$k/bzImage" --vmlinux "$k/vmlinux" --out "$o" >"$o.log" 2>&1 &
	done
	wait || true
	for eng in afl mmfuzz; do
		mv "$out/run$r-$eng.log" "$out/run$r-$eng/log"
		echo "$r $eng $(figures "$out/run$r-$eng" "$eng")" >>"$out/figures"
	done
done
awk '{ n[$2]++; pcs[$2] += $3; edges[$2] += $4; ps[$2] += $5; nt[$2] += $6
       printf "run %d %-6s  mm/ PCs %6d  edges %6d  programs/s %5.2f  new titles %d\n",
	      $1, $2, $3, $4, $5, $6 }
     END { for (e in n) printf "mean   %-6s  mm/ PCs %6.0f  edges %6.0f  programs/s %5.2f  new titles %.1f\n",
			 e, pcs[e] / n[e], edges[e] / n[e], ps[e] / n[e], nt[e] / n[e]
	   if (pcs["mmfuzz"] && edges["mmfuzz"] && ps["mmfuzz"])
		printf "ratio  afl/mmfuzz  mm/ PCs %.2fx  edges %.2fx  programs/s %.2fx\n",
		       pcs["afl"] / pcs["mmfuzz"], edges["afl"] / edges["mmfuzz"],
		       ps["afl"] / ps["mmfuzz"] }' "$out/figures"
