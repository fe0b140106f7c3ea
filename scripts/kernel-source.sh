#!/bin/bash
# Debian's linux-source-6.12, unpacked once into the cache: prints the
# tree's path on stdout and its identity (the tarball's name, size and
# time) on the second line. Unpacked again when the package brings
# another tarball; under a lock, so that a kernel build and the style
# check can ask at once.
set -eu
die() {
	echo "kernel-source: $*" >&2
	exit 1
}
cache=${MMFUZZ_CACHE:-/var/cache/mmfuzz}
tarball=${MMFUZZ_KTARBALL:-/usr/src/linux-source-6.12.tar.xz}
[ -f "$tarball" ] || die "$tarball not found: install linux-source-6.12 (scripts/setup.sh) or give KSRC=path"
mkdir -p "$cache/src" || die "cannot create the cache in $cache"
ksrc=$cache/src/linux-source-6.12
treeid=$(stat -c '%n %s %Y' "$tarball")
exec 8>"$cache/src/.lock"
flock 8
if [ "$(cat "$ksrc.id" 2>/dev/null)" != "$treeid" ] || [ ! -f "$ksrc/Makefile" ]; then
	echo "kernel-source: unpacking $tarball into $cache/src (once)" >&2
	tmp=$(mktemp -d "$cache/src/.unpack.XXXXXX")
	tar -xJf "$tarball" -C "$tmp" || { rm -rf "$tmp"; die "cannot unpack $tarball"; }
	rm -rf "$ksrc"
	mv "$tmp/linux-source-6.12" "$ksrc" && rmdir "$tmp" ||
		die "$tarball does not hold linux-source-6.12/"
	echo "$treeid" >"$ksrc.id"
fi
printf '%s\n%s\n' "$ksrc" "$treeid"
