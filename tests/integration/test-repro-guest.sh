#!/bin/bash
# kernels: x86_64
# mmfuzz repro in guests: the host sends candidates to a guest serving on
# its control port. A user-space finding (a page changed behind the
# model's back after the write of tag 0xee) is narrowed to the guilty one
# of three programs and minimized in one guest; a kernel WARNING (LKDTM,
# after the write of tag 0xdd) kills the guest at each hit, and every run
# after that gets a freshly booted one.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

crash() {	# crash TITLE PROGS: a crash store entry as a campaign saves it
	echo "$1" >"$TMP/report"
	"$MMFUZZ" triage add "$TMP/crashes" --title "$1" --report "$TMP/report" \
		--progs "$2" >/dev/null
	"$MMFUZZ" triage show "$TMP/crashes" "$1" | sed -n 's/^directory: //p'
}

title='DATA CORRUPTION: garbage anon page'
{
	echo '# mmfuzz: executing program'
	cat corpus/cow-after-fork-swapped.mmf
	echo '# mmfuzz: executing program'
	sed -n '/^[^#]/p' corpus/madv-free-vs-dontneed-swapped.mmf | head -6
	echo 'm3 = mmap(0, 64, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, MAP_POPULATE)'
	echo 'write(m3, 0, 64, 0xee)'
	echo 'madvise(m3, 0, 64, MADV_PAGEOUT)'
	echo 'read(m3, 0, 64)'
	echo '# mmfuzz: executing program'
	cat corpus/cow-after-fork-swapped.mmf
} >"$TMP/progs"
bug=$(crash "$title" "$TMP/progs")
"$MMFUZZ" repro --kernel debian --arch x86_64 --corrupt-tag 0xee --attempts 2 \
	--work "$TMP/w1" "$bug" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "not reproduced"; }
grep -v '^mmfuzz: repro guest: \(1 program\|hit\|no hit\)' "$TMP/out"
grep -q "hit rate 2/2" "$TMP/out" || fail "hit rate not 2/2"
# A guest is replaced only after a run that did not end clean (a slow host
# can make a run time out); every clean run keeps its kernel for the next.
unclean=$(grep -c '^mmfuzz: repro guest: [0-9]* program(s): \(died\|hung\|failed\|.*, [1-9][0-9]* kernel report\)' \
	"$TMP/out" || true)
grep -q "^repro: $((unclean + 1)) guest boot(s)" "$TMP/out" ||
	{ cat "$TMP/out"; fail "a clean kernel was not kept for the next run ($unclean unclean runs)"; }
grep -q '^write(m3, 0, [0-9]*, 0xee)$' "$bug/repro.prog" || fail "the guilty write is gone"
calls=$(grep -vc '^#' "$bug/repro.prog")
[ "$calls" -le 4 ] || fail "reproducer has $calls calls, expected at most 4"
echo "INFO: reproduced in a guest, minimized to $calls calls"

k=$(fuzzing_kernel)
{
	echo '# mmfuzz: executing program'
	echo 'm1 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)'
	echo 'write(m1, 0, 16, 0xdd)'
	echo 'read(m1, 0, 16)'
} >"$TMP/progs2"
bug=$(crash 'WARNING in lkdtm_WARNING' "$TMP/progs2")
"$MMFUZZ" repro --kernel "$k/bzImage" --arch x86_64 --lkdtm-tag 0xdd:WARNING --attempts 1 \
	--max-steps 0 --work "$TMP/w2" "$bug" >"$TMP/out" 2>&1 ||
	{ cat "$TMP/out"; fail "LKDTM WARNING not reproduced"; }
cat "$TMP/out"
grep -A1 'died, 1 kernel report(s)' "$TMP/out" | grep -q ': hit$' ||
	fail "the hit did not come from the console"
grep -q '^repro: 2 guest boot(s)' "$TMP/out" || fail "no fresh guest after the kernel report"
grep -q 'WARNING: .*lkdtm_WARNING' "$TMP/w2/boot-1/console.log" || fail "console not kept"
grep -q '^write(m1, 0, 16, 0xdd)$' "$bug/repro.prog" || fail "reproducer not saved"
[ ! -e "$TMP/w2/boot-1/ctl.sock" ] || fail "control socket left behind"
check_clean
