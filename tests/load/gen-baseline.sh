#!/bin/bash
# What a change does to generation and to the C reproducers (not part of the
# suite): the output of one mmfuzz binary, to diff -r with another's.
#
#	tests/load/gen-baseline.sh MMFUZZ OUTDIR
#
# OUTDIR gets each corpus program's C reproducer (cs/NAME.c) and mutant
# (mut/NAME.mmf, seed 7), and 500 generated programs (gen/N.mmf, seeds
# 1000..1499) with their byte forms (gen/N.bin) and reproducers (cs/gN.c).
# Build the binary before and after a change, run this for each, diff -r.
set -eu
[ $# -eq 2 ] || { echo "usage: tests/load/gen-baseline.sh MMFUZZ OUTDIR" >&2; exit 2; }
m=$1
o=$2
[ -x "$m" ] || { echo "gen-baseline: $m is not an executable" >&2; exit 1; }
[ ! -e "$o" ] || { echo "gen-baseline: $o exists; give a new directory" >&2; exit 1; }
cd "$(dirname "$0")/../.."
mkdir -p "$o/gen" "$o/cs" "$o/mut"
for f in corpus/*.mmf; do
	b=$(basename "$f" .mmf)
	"$m" gen --csource "$f" >"$o/cs/$b.c"
	"$m" gen --mutate "$f" --seed 7 >"$o/mut/$b.mmf"
done
for i in $(seq 0 499); do
	"$m" gen --seed $((1000 + i)) >"$o/gen/$i.mmf"
	"$m" gen --csource "$o/gen/$i.mmf" >"$o/cs/g$i.c"
	"$m" gen --encode "$o/gen/$i.mmf" >"$o/gen/$i.bin"
done
