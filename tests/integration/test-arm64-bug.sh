#!/bin/bash
# kernels: arm64
# arm64 end to end on the arm64 fuzzing kernel (make kernel ARCH=arm64,
# built once and cached) with one bug of the set
# (tests/bugs/zap-batch-partial-rmap.patch: zapping part of a large folio
# drops the rmap of all of it, and the pages still mapped are bad page
# maps when their turn comes; guests turn every mTHP size on, so a
# partial unmap of an aligned anonymous range meets it every time): a
# default campaign (the mmfuzz engine, the project's corpus) in an arm64
# TCG guest finds it, the store has it with its programs and the report
# symbolized against the arm64 vmlinux (cross binutils), and 'repro
# --arch arm64' hits it again with the saved programs. (A bug that needs
# swap slots left stale by earlier programs, as swap-uncharge-batch-record
# does, hits again only by chance in a guest fresh from its snapshot.)
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

k=$(kernel_entry arm64 "" tests/bugs/zap-batch-partial-rmap.patch)
[ -f "$k/Image" ] || fail "$k: no arm64 Image"
grep -qx 'CONFIG_ARM64_4K_PAGES=y' "$k/.config" && grep -qx 'CONFIG_KASAN=y' "$k/.config" &&
	grep -qx 'CONFIG_ARM64_CONTPTE=y' "$k/.config" ||
	fail "$k: not the arm64 fuzzing kernel's config (4 KiB pages, KASAN, contiguous PTEs)"
title_re='BUG: Bad page map in [a-z_]+'
out=$TMP/c
found() { grep -Eq "REPORT: $title_re \(" "$TMP/log"; }
rc=0
start=$SECONDS
# Until the bug is in (10 minutes at most: 40 s when this was written).
stop_when found "$MMFUZZ" campaign --arch arm64 --kernel "$k/Image" --vmlinux "$k/vmlinux" \
	--duration 10m --out "$out" >"$TMP/log" 2>&1 || rc=$?
grep -v '^mmfuzz: vm 0: qemu' "$TMP/log" | tail -n 25
[ $rc -eq 3 ] || fail "the campaign exited $rc, not 3 (a new bug)"
grep -q 'qemu-system-aarch64 .*-machine virt' "$TMP/log" || fail "not an arm64 virt guest"
title=$(grep -Eo "REPORT: $title_re \(" "$TMP/log" | head -n 1 | sed 's/^REPORT: //; s/ ($//')
echo "INFO: arm64: '$title' in the store, the campaign stopped $((SECONDS - start)) s after its start"
bug=$("$MMFUZZ" triage show "$out" "$title" | sed -n 's/^directory: //p')
[ -d "$bug" ] || fail "'$title' is not in the crash store"
grep -q '^# mmfuzz: executing program' "$bug/progs.0" || fail "saved without its programs"
grep -qx 'arch: arm64' <("$MMFUZZ" triage show "$out" "$title") || fail "not saved as an arm64 bug"
# Frames of mm/ with their lines, read by aarch64-linux-gnu-addr2line.
grep -Eq 'mm/memory\.c:[0-9]+' "$bug/report.0.sym" ||
	{ head -n 40 "$bug/report.0.sym"; fail "the report is not symbolized against the arm64 vmlinux"; }

rc=0
"$MMFUZZ" repro --kernel "$k/Image" --arch arm64 --attempts 2 --max-steps 0 --work "$TMP/r" \
	"$bug" >"$TMP/r.out" 2>&1 || rc=$?
grep -v '^mmfuzz: repro guest: ' "$TMP/r.out"
[ $rc -eq 0 ] || fail "repro --arch arm64 exited $rc"
grep -Eq 'hit rate [1-9][0-9]*/[0-9]+' "$TMP/r.out" || fail "the reproducer did not hit the bug again"
[ -s "$bug/repro.prog" ] || fail "no reproducer saved"
check_clean
