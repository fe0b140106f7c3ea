#!/bin/bash
# A copy of a kernel tree with a patch applied: scripts/patched-tree.sh
# TREE PATCH prints the copy's path. The copy is hard links (patch writes
# new files, so TREE is never changed), cached by tree and patch content.
set -eu
tree=$(realpath "$1")
patch=$(realpath "$2")
cache=${MMFUZZ_CACHE:-/var/cache/mmfuzz}/patched
[ -f "$tree/Makefile" ] || { echo "patched-tree: $tree is not a kernel tree" >&2; exit 1; }
key=$( (echo "$tree"; cat "$patch") | sha256sum | cut -c1-16)
dst=$cache/$key
if [ ! -e "$dst/.mmfuzz-patched" ]; then
	rm -rf "$dst.tmp"
	mkdir -p "$cache"
	cp -al "$tree" "$dst.tmp"
	patch -s -p1 -d "$dst.tmp" -i "$patch" >&2 ||
		{ rm -rf "$dst.tmp"; echo "patched-tree: $patch does not apply to $tree" >&2; exit 1; }
	touch "$dst.tmp/.mmfuzz-patched"
	rm -rf "$dst"
	mv "$dst.tmp" "$dst"
fi
echo "$dst"
