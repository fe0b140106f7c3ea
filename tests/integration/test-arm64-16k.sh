#!/bin/bash
# kernels: arm64-16k
# arm64 with 16 KiB pages (make kernel ARCH=arm64 FLAVOUR=16k): the guest
# says its page size, PMD and mTHP sizes; every corpus program and 16
# generated ones run once with no report (the arena, the shadow model and
# pagemap reading at another page size: a wrong page size in any of them
# is a false DATA CORRUPTION or pagemap report), and the runs folded and
# unfolded contiguous-PTE mappings (CONFIG_ARM64_CONTPTE, 2 MiB with 16
# KiB pages) by the programs' own calls: KCOV saw arch/arm64/mm/contpte.c.
# And the data oracle fires there, as the test hook asks.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

k=$(kernel_entry arm64 16k)
[ "$(cat "$k/flavour")" = 16k ] || fail "$k: not marked as the 16k flavour"
grep -qx 'CONFIG_ARM64_16K_PAGES=y' "$k/.config" && grep -qx 'CONFIG_ARM64_CONTPTE=y' "$k/.config" &&
	grep -qx 'CONFIG_KASAN=y' "$k/.config" || fail "$k: not 16 KiB pages with CONTPTE and KASAN"
expect_error "FLAVOUR=16k is for ARCH=arm64" env FLAVOUR=16k scripts/build-kernel.sh x86_64

"$MMFUZZ" gen --seed 16 --count 16 >"$TMP/gen.txt"
mkdir -p "$TMP/gen"
awk -v d="$TMP/gen" '/^# program / { n++ } n { print > (d "/" n ".mmf") }' "$TMP/gen.txt"
ls "$TMP"/gen/*.mmf >"$TMP/progs"
ls corpus/*.mmf >>"$TMP/progs"
n=$(wc -l <"$TMP/progs")
rc=0
"$MMFUZZ" exec --kernel "$k/Image" --arch arm64 --cover "$TMP/pcs" $(cat "$TMP/progs") \
	>"$TMP/out" 2>&1 || rc=$?
grep -v '^mmfuzz: repro guest: ' "$TMP/out" | tail -n 30
work=$(sed -n 's/^exec: .* consoles in //p' "$TMP/out")
[ $rc -eq 0 ] || fail "exit $rc: a program reported or could not run on 16 KiB pages"
[ "$(grep -c ': no report$' "$TMP/out")" -eq "$n" ] || fail "not all $n programs ran clean"
line=$(cat "$work"/*/console.log | grep -a -m 1 '^mmfuzz-init: pages of ')
echo "INFO: $line"
[[ $line == *'pages of 16 kB, PMD 32768 kB, mTHP 32kB 64kB '*' 2048kB '*' 16384kB 32768kB '* ]] ||
	fail "the guest's sizes are not those of 16 KiB pages: $line"
covered_functions "$k/vmlinux" "$TMP/pcs" arch/arm64/mm/contpte.c >"$TMP/contpte"
grep -Exq 'contpte_convert|__contpte_try_fold' "$TMP/contpte" ||
	{ cat "$TMP/contpte"; fail "no contiguous-PTE run was folded"; }
echo "INFO: $n programs clean on 16 KiB pages; $(sort -u "$TMP/pcs" | wc -l) PCs;" \
	"contpte.c functions reached:" $(cat "$TMP/contpte")
rm -rf "$work"

# The data oracle still sees a page changed behind the model at this size.
cat >"$TMP/tag.mmf" <<'P'
m1 = mmap(0, 64, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m1, 0, 64, 0xee)
madvise(m1, 0, 64, MADV_PAGEOUT)
read(m1, 0, 64)
P
rc=0
"$MMFUZZ" exec --kernel "$k/Image" --arch arm64 --corrupt-tag 0xee "$TMP/tag.mmf" >"$TMP/tag.out" 2>&1 ||
	rc=$?
grep -v '^mmfuzz: repro guest: ' "$TMP/tag.out" | tail -n 5
[ $rc -eq 3 ] && grep -q '^REPORT: DATA CORRUPTION: ' "$TMP/tag.out" ||
	fail "exit $rc: the data oracle did not see the corrupted page on 16 KiB pages"
rm -rf "$(sed -n 's/^exec: .* consoles in //p' "$TMP/tag.out")"
check_clean
