#!/bin/bash
# kernels: x86_64
# Cause bisection on a history the test makes: the mm/ of Debian's kernel
# tree (the default fuzzing kernel's source) as commit 0, then three
# commits of which the second adds tests/bugs/madv-free-swapents.patch. The
# bug's reproducer swaps pages out and frees them with MADV_FREE; the
# kernel then reports a bad MM_SWAPENTS count at exit. With --base, every
# step builds the default kernel's tree with the commits as a patch, on its
# objects: incremental; so the history holds mm/ only, which the commits
# change (a whole tree took 36 s to commit and a work tree to check out at
# every step). bisect checks both ends and names the second commit.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

k=$(fuzzing_kernel)	# the base's objects, and the good end's kernel
base=${MMFUZZ_CACHE:-/var/cache/mmfuzz}/src/linux-source-6.12
[ -f "$base/Makefile" ] || fail "no $base: make kernel unpacks it"

# The history: hard links to the base's mm/; every change makes a new file.
T=$TMP/linux
mkdir "$T"
cp -al "$base/mm" "$T/mm"
git() { command git -C "$T" -c user.name=mmfuzz -c user.email=mmfuzz@localhost \
	-c core.compression=0 -c gc.auto=0 "$@"; }
start=$(date +%s)
git init -q
git add -A
git commit -qm 'Linux 6.12 (Debian)'
good=$(git rev-parse HEAD)
sed -i '1a /* mlock: a comment, no change */' "$T/mm/mlock.c"
git commit -qam 'mm/mlock: a comment'
patch -s -p1 -d "$T" <"tests/bugs/madv-free-swapents.patch"
git commit -qam 'mm/madvise: miscount swap entries freed by MADV_FREE'
culprit=$(git rev-parse HEAD)
sed -i '1a /* mprotect: a comment, no change */' "$T/mm/mprotect.c"
git commit -qam 'mm/mprotect: a comment'
echo "INFO: the history made in $(( $(date +%s) - start )) s"
! grep -q 'mlock: a comment' "$base/mm/mlock.c" && ! grep -q 'nr_swap -= nr + 1' "$base/mm/madvise.c" ||
	fail "the base tree was changed"

# The bug, as a crash store holds it, with its reproducer.
title='BUG: Bad rss-counter state'
echo "$title mm:00000000a1b2c3d4 type:MM_SWAPENTS val:-1" >"$TMP/report"
"$MMFUZZ" triage add "$TMP/crashes" --title "$title" --report "$TMP/report" >/dev/null
bug=$("$MMFUZZ" triage show "$TMP/crashes" "$title" | sed -n 's/^directory: //p')
cat >"$bug/repro.prog" <<'EOF'
m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m0, 0, 16, 0x11)
madvise(m0, 0, 16, MADV_PAGEOUT)
madvise(m0, 0, 16, MADV_FREE)
EOF

start=$(date +%s)
rc=0
"$MMFUZZ" bisect --tree "$T" --good "$good" --bad HEAD --base "$base" --tries 2 "$bug" \
	>"$TMP/out" 2>"$TMP/err" || rc=$?
grep -v '^mmfuzz: repro guest' "$TMP/out"
work=$(sed -n 's/^bisect: work tree //p' "$TMP/out")
[ -n "$work" ] && rm -rf "$work" "$work".* && git worktree prune
[ $rc -eq 0 ] || { tail -n 20 "$TMP/err"; fail "bisect exit status $rc"; }
echo "INFO: bisected in $(( $(date +%s) - start )) s: $(grep -c 'build-kernel: built (incremental)' "$TMP/err") incremental build(s), $(grep -c 'build-kernel: built (from scratch)' "$TMP/err") from scratch"
grep -q "^bisect: the first bad commit is $culprit " "$TMP/out" ||
	fail "bisect did not name $culprit"
grep -q '^# first bad commit: \['"$culprit"'\]' "$TMP/out" || fail "no bisection log"
! grep -q 'built (from scratch)' "$TMP/err" || fail "a step built from scratch"
[ -z "$(git status --porcelain)" ] || fail "the tree was changed"

# Bad ends: one line, non-zero.
expect_error "is not a git tree" "$MMFUZZ" bisect --tree "$TMP" --good a --bad b "$bug"
expect_error "no commit nosuchrev" "$MMFUZZ" bisect --tree "$T" --good nosuchrev --bad HEAD "$bug"
mkdir "$TMP/norepro"
echo "$title" >"$TMP/norepro/title"
expect_error "no repro.prog" "$MMFUZZ" bisect --tree "$T" --good "$good" --bad HEAD "$TMP/norepro"
check_clean
