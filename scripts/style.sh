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
# One file: its errors, or remembered as clean. The files are checked on
# every CPU: the first check of the whole tree is minutes on one.
one() {
	local out
	out=$("$checkpatch" --no-tree -q -f --terse --show-types "$1" 2>&1 | grep ': ERROR:' || true)
	[ -z "$out" ] || { echo "$out"; return 1; }
	touch "$cache/$tool-$(sha256sum "$1" | cut -c1-32)"
}
export -f one
export checkpatch cache tool
bad=0
[ ${#todo[@]} -eq 0 ] ||
	printf '%s\0' "${todo[@]}" | xargs -0 -n 1 -P "$(nproc)" bash -c 'one "$1"' style || bad=1
echo "style: $# file(s), ${#todo[@]} checked, $([ $bad = 0 ] && echo "no error" || echo "errors above")" >&2
exit $bad
