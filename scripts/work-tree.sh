#!/bin/bash
# The tree a kernel is built from: scripts/work-tree.sh TREE TREEID WORK
# [PATCH...] makes WORK a hard-linked copy of TREE (TREEID names TREE's
# content) with the patches applied in order, and prints WORK. patch
# writes new files, so TREE is never changed.
#
# WORK keeps one path per tree, so kbuild's objects of the last build
# serve the next, whatever its patches: the files the last patches touched
# (listed in WORK.files) come back as fresh copies, newer than their
# objects, before the new patches go on. The caller holds WORK's lock.
set -eu
die() {
	echo "work-tree: $*" >&2
	exit 1
}
[ $# -ge 3 ] || die "usage: work-tree.sh TREE TREEID WORK [PATCH...]"
tree=$(realpath "$1")
treeid=$2
work=$3
shift 3
[ -f "$tree/Makefile" ] || die "$tree is not a kernel tree"
patches=()
for p; do
	[ -f "$p" ] || die "patch $p: no such file"
	patches+=("$(realpath "$p")")
done

if [ "$(cat "$work/.mmfuzz-tree" 2>/dev/null)" != "$treeid" ]; then
	rm -rf "$work" "$work.tmp"
	mkdir -p "$(dirname "$work")"
	cp -al "$tree" "$work.tmp"
	echo "$treeid" >"$work.tmp/.mmfuzz-tree"
	mv "$work.tmp" "$work"
fi
if [ -f "$work.files" ]; then
	while IFS= read -r f; do
		rm -f "$work/$f"
		[ ! -e "$tree/$f" ] || cp "$tree/$f" "$work/$f"
	done <"$work.files"
	rm -f "$work.files"
fi
# Listed before patching: a patch that fails half-way is undone next time.
for p in "${patches[@]}"; do
	sed -n 's|^[-+][-+][-+] [^/	]*/\([^	 ]*\).*|\1|p' "$p"
done | grep -vx 'dev/null' | sort -u >"$work.files" || true
for p in "${patches[@]}"; do
	patch -s -p1 --no-backup-if-mismatch -d "$work" -i "$p" >&2 ||
		die "$p does not apply to $tree"
done
echo "$work"
