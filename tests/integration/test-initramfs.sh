#!/bin/bash
# scripts/build-initramfs.sh started twice at once after a change (two
# campaigns started together): both make mmfuzz-static, one at a time,
# and both give the same guest's mmfuzz disk, whose header says the size
# of the binary it holds. Unlocked, two makes at once failed to link or
# gave a guest an empty mmfuzz.
. "$(dirname "$0")/lib.sh"

# A source newer than its objects: both builds compile and link.
touch fuzzers/util/util.c
scripts/build-initramfs.sh x86_64 >"$TMP/a" 2>"$TMP/a.err" &
p1=$!
scripts/build-initramfs.sh x86_64 >"$TMP/b" 2>"$TMP/b.err" &
p2=$!
wait $p1 || { cat "$TMP/a.err"; fail "the first build failed"; }
wait $p2 || { cat "$TMP/b.err"; fail "the second build failed"; }
cmp -s "$TMP/a" "$TMP/b" || fail "two builds, two answers: $(cat "$TMP/a" "$TMP/b")"
img=$(sed -n 2p "$TMP/a")
size=$(stat -c %s build/mmfuzz-static)
[ "$(head -c 4096 "$img" | tr -d '\0')" = "mmfuzz $size" ] ||
	fail "$img: header '$(head -c 64 "$img" | head -1)', the binary has $size bytes"
cmp -s -n "$size" -i 4096:0 "$img" build/mmfuzz-static || fail "$img does not hold build/mmfuzz-static"
check_clean
