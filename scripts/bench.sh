#!/bin/bash
# make bench: run every benchmark binary built under $1/bench.
set -eu
for b in "$1"/bench/*; do
	echo "== $(basename "$b")"
	"$b"
done
