#!/bin/bash
# test: parallel
# kernels: x86_64
# mmfuzz cover on the fuzzing kernel (built or taken from the cache by
# make kernel): PCs of coverage callbacks in do_swap_page (mm/memory.c) and
# madvise_cold_or_pageout_pte_range (mm/madvise.c, the page-out walk
# madvise_pageout_page_range inlines), and one in pgd_alloc
# (arch/x86/mm/pgtable.c: KCOV traces the arch's mm/ too, outside focus mm).
# The mm/ functions are covered, pgd_alloc is outside the default focus, the
# page marks the callbacks' lines, the second run reads the caches, and bad
# input is one line and exit 1 before any work.
. "$(dirname "$0")/lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL	# our make check's jobserver is not the kernel's

make --no-print-directory kernel ARCH=x86_64 >"$TMP/build.log" 2>&1 ||
	{ tail -20 "$TMP/build.log"; fail "make kernel failed"; }
entry=$(tail -n 1 "$TMP/build.log")
[ -f "$entry/vmlinux" ] || fail "make kernel gave no vmlinux (last line: '$entry')"
# A link of our own: the caches go beside it, and this test starts cold.
mkdir -p "$TMP/k"
V=$TMP/k/vmlinux
ln -s "$entry/vmlinux" "$V"

# "CALL RET" of the first N calls of __sanitizer_cov_trace_pc in function $1.
sites() {
	local start size
	read -r start size < <(nm -S "$V" | awk -v f="$1" '$4 == f { print $1, $2; exit }')
	[ -n "$start" ] || fail "no $1 in vmlinux"
	objdump -d -w --start-address=0x"$start" \
		--stop-address="$(printf '0x%x' $((16#$start + 16#$size)))" "$V" |
		awk -v n="$2" 'call { sub(":", "", $1); print call, $1; call = ""; if (++k == n) exit }
			/call +[0-9a-f]+ <__sanitizer_cov_trace_pc>$/ { call = $1; sub(":", "", call) }'
}

sites do_swap_page 3 >"$TMP/swap.sites"
sites madvise_cold_or_pageout_pte_range 2 >"$TMP/madv.sites"
sites pgd_alloc 1 >"$TMP/outside.sites"
[ "$(cat "$TMP"/*.sites | wc -l)" -eq 6 ] || fail "not 6 callbacks found: $(cat "$TMP"/*.sites)"
{
	echo "# KCOV PCs: the callbacks' return addresses"
	awk '{ print "0x" $2 }' "$TMP/swap.sites" "$TMP/outside.sites"
	awk '{ print $2 }' "$TMP/madv.sites"		# without 0x
	awk 'NR == 1 { print "0x" $2 }' "$TMP/swap.sites"	# a duplicate
} >"$TMP/pcs"

cover() {
	"$MMFUZZ" cover --vmlinux "$V" "$@" >"$TMP/out" 2>"$TMP/err" ||
		{ cat "$TMP/err"; fail "cover $* exited $?"; }
}

# "COVERED INSTR" of a file or function line of the report.
counts() {
	awk -v n="$1" '$4 == n && NF == 4 { print $1, $2; exit }' "$TMP/out"
}

start=$(date +%s%N)
cover --html "$TMP/page.html" "$TMP/pcs"
first=$(( ($(date +%s%N) - start) / 1000000 ))
sed -n '1,3p' "$TMP/out"
grep -E ' (do_swap_page|madvise_cold_or_pageout_pte_range|mm/memory\.c|mm/madvise\.c|total)$' \
	"$TMP/out"
read -r c n < <(counts do_swap_page)
[ "${c:-}" = 3 ] && [ "$n" -gt 3 ] || fail "do_swap_page: '$c' of '$n' covered, not 3"
read -r c n < <(counts madvise_cold_or_pageout_pte_range)
[ "${c:-}" = 2 ] && [ "$n" -gt 2 ] || fail "madvise_cold_or_pageout_pte_range: '$c' of '$n'"
read -r c n < <(counts mm/memory.c)
[ "${c:-}" = 3 ] || fail "mm/memory.c: '$c' covered, not 3"
read -r c n < <(counts total)
[ "${c:-}" = 5 ] || fail "total: '$c' covered, not 5"
grep -qx 'PCs: 6 distinct: 5 in the focus, 1 outside it' "$TMP/out" || fail "PC counts"
! grep -qE ' (pgd_alloc|arch/x86/mm/pgtable\.c)$' "$TMP/out" || fail "pgd_alloc is in focus mm"
! grep -q '^note:' "$TMP/out" || fail "a KCOV PC taken for none: $(grep '^note:' "$TMP/out")"
grep -qx "wrote $TMP/page.html" "$TMP/out" || fail "no page written"
# The files are in order, each once, all under mm/
awk '$1 ~ /^[0-9]+$/ && NF == 4 && $4 != "total" && substr($0, 28, 1) != " " { print $4 }' \
	"$TMP/out" >"$TMP/files"
LC_ALL=C sort -uc "$TMP/files" || fail "files not sorted, or one twice"
grep -qx 'mm/memory.c' "$TMP/files" && ! grep -qv '^mm/' "$TMP/files" ||
	fail "files of focus mm: $(grep -v '^mm/' "$TMP/files" | head -3)"

# The page: mm/memory.c's source with the lines of the covered callbacks
# (where do_swap_page itself is when a helper was inlined) marked covered
# or partly covered, and other callbacks' lines not covered.
sed -n '/^<h2 id="f[0-9]*">mm\/memory\.c<\/h2>$/,/^<h2 /p' "$TMP/page.html" >"$TMP/memory.html"
[ -s "$TMP/memory.html" ] || fail "no mm/memory.c section in the page"
while read -r call _; do
	line=$(addr2line -i -e "$V" "0x$call" | grep '/mm/memory\.c:' | tail -n 1 | sed 's/.*://; s/ .*//')
	[ -n "$line" ] || fail "addr2line gave no mm/memory.c line for 0x$call"
	grep -qE "^<span class=\"[cp]\"> *$line  " "$TMP/memory.html" ||
		{ grep -E "^(<span[^>]*>)? *$line  " "$TMP/memory.html"; fail "line $line not marked covered"; }
done <"$TMP/swap.sites"
[ "$(grep -c '^<span class="u">' "$TMP/memory.html")" -gt 10 ] || fail "no lines marked not covered"
grep -q '^ *[0-9]*  .*vmf-&gt;' "$TMP/memory.html" || fail "source not in the page, or not escaped"
! grep -q 'arch/x86/mm/pgtable\.c' "$TMP/page.html" || fail "pgd_alloc's file is on the page"
grep -q '<a href="#f[0-9]*">mm/memory\.c</a>' "$TMP/page.html" || fail "no link to mm/memory.c"

# Again: from the caches beside the vmlinux.
[ -s "$V.mmfuzz-funcs" ] && [ -s "$V.mmfuzz-sites" ] || fail "no caches beside $V"
cp "$TMP/out" "$TMP/out.first"
start=$(date +%s%N)
cover "$TMP/pcs"
again=$(( ($(date +%s%N) - start) / 1000000 ))
diff <(grep -v '^wrote ' "$TMP/out.first") "$TMP/out" || fail "the cached run reports otherwise"
echo "INFO: cover: first run ${first} ms (with the page), cached run ${again} ms"
[ "$again" -lt 5000 ] || fail "the cached run took $again ms"

# Other foci: the whole text has pgd_alloc; one file has only its functions.
cover --focus all "$TMP/pcs"
read -r c n < <(counts pgd_alloc)
[ "${c:-}" = 1 ] || fail "focus all: pgd_alloc '$c' covered, not 1"
grep -qx 'PCs: 6 distinct: 6 in the focus, 0 outside it' "$TMP/out" || fail "focus all: PC counts"
cover --focus mm/madvise.c "$TMP/pcs"
read -r c n < <(counts madvise_cold_or_pageout_pte_range)
[ "${c:-}" = 2 ] || fail "focus mm/madvise.c: '$c' covered"
! grep -q ' do_swap_page$' "$TMP/out" || fail "focus mm/madvise.c has do_swap_page"
grep -qx 'PCs: 6 distinct: 2 in the focus, 4 outside it' "$TMP/out" || fail "focus file: PC counts"

# A call's own address is no KCOV PC: counted apart, not as covered.
awk 'NR == 1 { print $1 }' "$TMP/swap.sites" >"$TMP/calls"
cover "$TMP/calls"
grep -q '^note: 1 PCs of the focus are no return address' "$TMP/out" || fail "no note"
read -r c n < <(counts total)
[ "${c:-}" = 0 ] || fail "a call address counted as covered"

# An arm64 program with the callbacks of -fsanitize-coverage=trace-pc,
# read with the cross binutils its ELF machine asks for; its directory is
# read-only, so the caches go to $XDG_CACHE_HOME.
A=$TMP/a64
mkdir -p "$A/src/mm" "$A/ro" "$TMP/xdg"
cat >"$A/src/mm/m.c" <<'EOF'
__attribute__((noipa)) int f(int x) { if (x > 3) return x * 2; return x - 1; }
__attribute__((noipa)) int g(int x) { if (x & 1) return f(x); return 0; }
int main(int c, char **v) { (void)v; return g(c); }
EOF
echo 'void __sanitizer_cov_trace_pc(void) {}' >"$A/src/cb.c"
(cd "$A/src" && aarch64-linux-gnu-gcc -g -O2 -fsanitize-coverage=trace-pc -c mm/m.c &&
	aarch64-linux-gnu-gcc -g -O2 -c cb.c &&
	aarch64-linux-gnu-gcc -nostdlib -ffreestanding -Wl,-e,main m.o cb.o -o "$A/ro/prog")
aarch64-linux-gnu-objdump -d -w "$A/ro/prog" >"$A/dis"
nsites=$(grep -c 'bl.*<__sanitizer_cov_trace_pc>$' "$A/dis")
awk '/<__sanitizer_cov_trace_pc>$/ { getline; sub(":.*", ""); print $1 }' "$A/dis" |
	head -n 3 >"$A/pcs"
# shellcheck disable=SC2016 # expanded by the inner shell
XDG_CACHE_HOME=$TMP/xdg unshare -m sh -c 'mount --bind -o ro "$1" "$1" &&
	"$2" cover --vmlinux "$1/prog" --focus mm "$3"' sh "$A/ro" "$MMFUZZ" "$A/pcs" \
	>"$TMP/out" || fail "cover of the arm64 program failed"
cat "$TMP/out"
read -r c n < <(counts mm/m.c)
[ "${c:-}" = 3 ] && [ "$n" = "$nsites" ] || fail "arm64: '$c' of '$n' covered, not 3 of $nsites"
ls "$TMP/xdg/mmfuzz/"*-prog.mmfuzz-funcs "$TMP/xdg/mmfuzz/"*-prog.mmfuzz-sites >/dev/null ||
	fail "no caches in \$XDG_CACHE_HOME/mmfuzz: $(ls -R "$TMP/xdg")"
[ "$(ls "$A/ro")" = prog ] || fail "a file beside the read-only program: $(ls "$A/ro")"

# Bad input: one line, exit 1 (2 for usage), and no work done.
mkdir -p "$TMP/cold"
ln -s "$entry/vmlinux" "$TMP/cold/vmlinux"
printf '0x1000\n# fine\n0xffffffff8152bz9d\n' >"$TMP/pcs.bad"
expect_status() {
	local rc=0 want=$1 msg=$2
	shift 2
	"$MMFUZZ" cover "$@" >/dev/null 2>"$TMP/e" || rc=$?
	[ "$rc" -eq "$want" ] || { cat "$TMP/e"; fail "'$*' exited $rc, not $want"; }
	[ "$(wc -l <"$TMP/e")" -eq 1 ] || { cat "$TMP/e"; fail "'$*': not one line of error"; }
	grep -qF -- "$msg" "$TMP/e" || { cat "$TMP/e"; fail "'$*': error lacks '$msg'"; }
}
C=$TMP/cold/vmlinux
expect_status 1 "$TMP/pcs.bad:3: '0xffffffff8152bz9d' is not a hex address" \
	--vmlinux "$C" "$TMP/pcs" "$TMP/pcs.bad"
expect_status 1 "$TMP/nosuch: No such file or directory" --vmlinux "$C" "$TMP/nosuch"
expect_status 1 "vmlinux $TMP/none: No such file" --vmlinux "$TMP/none" "$TMP/pcs"
expect_status 1 "not an ELF file" --vmlinux "$TMP/pcs" "$TMP/pcs"
expect_status 1 "focus 'mm,': an empty file or directory" --vmlinux "$C" --focus mm, "$TMP/pcs"
expect_status 1 "--html $TMP/nodir/p.html: No such file" --vmlinux "$C" \
	--html "$TMP/nodir/p.html" "$TMP/pcs"
expect_status 1 "--source $TMP/pcs: Not a directory" --vmlinux "$C" --source "$TMP/pcs" \
	"$TMP/pcs"
expect_status 2 "--vmlinux FILE is required" "$TMP/pcs"
expect_status 2 "" --vmlinux "$C"
[ "$(ls "$TMP/cold")" = vmlinux ] || fail "bad input did work: $(ls "$TMP/cold")"
# A focus entry with no function is found only once the table is read.
expect_status 1 "no function of the kernel text is in mm/nosuch.c" --vmlinux "$V" \
	--focus mm/memory.c,mm/nosuch.c "$TMP/pcs"
check_clean
