#!/bin/bash
# make bench-arch: the fuzzing kernels of the two guest architectures side
# by side (one guest each, at the same time, so a busy host slows both;
# the mmfuzz engine from generation alone, RUNS runs of DURATION): seconds
# from QEMU's start to the first program, programs/s and mm/ PCs, with
# arm64's ratio to x86_64, the baseline.
#   scripts/bench-arch.sh BUILD_DIR [DURATION] [RUNS] [OUT]
set -eu
mmfuzz=$1/mmfuzz
dur=${2:-5m}
runs=${3:-1}
out=${4:-$(mktemp -d /var/tmp/mmfuzz-bench-arch.XXXXXX)}
declare -A k image=([x86_64]=bzImage [arm64]=Image)
for a in x86_64 arm64; do
	k[$a]=$("$(dirname "$0")/build-kernel.sh" "$a") || exit 1
done
mkdir -p "$out"
echo "bench-arch: $runs run(s) of $dur per arch (TCG unless KVM works), output in $out"

for r in $(seq 1 "$runs"); do
	for a in x86_64 arm64; do
		"$mmfuzz" campaign --engine mmfuzz --cover --arch "$a" --vms 1 --duration "$dur" \
			--corpus none --kernel "${k[$a]}/${image[$a]}" --vmlinux "${k[$a]}/vmlinux" \
			--out "$out/run$r-$a" >"$out/run$r-$a.log" 2>&1 &
	done
	wait || true
	for a in x86_64 arm64; do
		o=$out/run$r-$a
		mv "$o.log" "$o/log"
		first=$(sed -n 's/^mmfuzz: vm 0: boot 1: first program \([0-9.]*\) s.*/\1/p' "$o/log")
		# The campaign's own rate, its last progress line: boots included.
		rate=$(sed -n 's|^\[ *[0-9]*s\] programs [0-9]* (\([0-9.]*\)/s).*|\1|p' "$o/log" |
			tail -n 1)
		pcs=$(grep -v '^#' "$o/vm-0/pcs" | "$mmfuzz" cover --vmlinux "${k[$a]}/vmlinux" \
			--focus mm - 2>/dev/null | awk '$4 == "total" { print $1 }')
		echo "$r $a ${first:-0} ${rate:-0} ${pcs:-0} $(sed -n \
			's/^mmfuzz: campaign: \([0-9]*\) boot(s).*/\1/p' "$o/log")" >>"$out/figures"
	done
done
awk '{ n[$2]++; f[$2] += $3; ps[$2] += $4; pcs[$2] += $5
       printf "run %d %-7s first program %5.1f s  programs/s %5.2f  mm/ PCs %6d  boots %s\n",
	      $1, $2, $3, $4, $5, $6 }
     END { for (a in n) printf "mean   %-7s first program %5.1f s  programs/s %5.2f  mm/ PCs %6.0f\n",
			 a, f[a] / n[a], ps[a] / n[a], pcs[a] / n[a]
	   if (f["x86_64"] && ps["x86_64"] && pcs["x86_64"])
		printf "ratio  arm64/x86_64  first program %.2fx  programs/s %.2fx  mm/ PCs %.2fx\n",
		       f["arm64"] / f["x86_64"], ps["arm64"] / ps["x86_64"], pcs["arm64"] / pcs["x86_64"] }' \
	"$out/figures"
