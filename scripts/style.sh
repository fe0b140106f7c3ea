#!/bin/bash
# The kernel's coding style on our C: scripts/style.sh [FILE...] (make
# style), every tracked .c and .h file without FILE. Runs the kernel's
# own checkpatch.pl (--no-tree -f) and prints its errors, one per line;
# exits 1 if there is one. A file that passed is remembered by its
# content and checkpatch's, so a second run checks only what changed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${MMFUZZ_CACHE:-/var/cache/mmfuzz}/style
ksrc=$("$top/scripts/kernel-source.sh" | head -n 1)
checkpatch=$ksrc/scripts/checkpatch.pl
[ -x "$checkpatch" ] || { echo "style: no $checkpatch" >&2; exit 1; }
mkdir -p "$cache"
[ $# -gt 0 ] || { cd "$top" && set -- $(git ls-files '*.c' '*.h'); }
tool=$(sha256sum "$checkpatch" | cut -c1-16)
todo=()
for f in "$@"; do
	[ -f "$f" ] || { echo "style: $f: no such file" >&2; exit 1; }
	[ -e "$cache/$tool-$(sha256sum "$f" | cut -c1-32)" ] || todo+=("$f")
done
bad=0
for f in "${todo[@]}"; do
	out=$("$checkpatch" --no-tree -q -f --terse --show-types "$f" 2>&1 | grep ': ERROR:' || true)
	if [ -n "$out" ]; then
		echo "$out"
		bad=1
	else
		touch "$cache/$tool-$(sha256sum "$f" | cut -c1-32)"
	fi
done
echo "style: $# file(s), ${#todo[@]} checked, $([ $bad = 0 ] && echo "no error" || echo "errors above")" >&2
exit $bad
