#!/bin/bash
# kernels: x86_64
# KCOV in the guest's executor: a program that pages its memory out and
# faults it back in (corpus/swapin-exclusive-reuse.mmf) reaches the
# PAGEOUT walk and do_swap_page, PCs from the program's own tasks (its
# fork child's too), with the state feedback beside KCOV's edges; a
# program with no memory calls does not.
. "$(dirname "$0")/lib.sh"
export MMFUZZ_ACCEL=tcg

k=$(fuzzing_kernel)
"$MMFUZZ" exec --kernel "$k/bzImage" --cover "$TMP/pcs" corpus/swapin-exclusive-reuse.mmf \
	>"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "exec --cover failed"; }
cat "$TMP/out"
# KCOV's edges and, beside them, the program's effects on its pages.
grep -q '^coverage: ok, [0-9]* PCs, [0-9]* edges (kcov+state)$' "$TMP/out" ||
	fail "no coverage line with KCOV and state feedback"
covered_functions "$k/vmlinux" "$TMP/pcs" >"$TMP/hit"
for f in do_swap_page madvise_cold_or_pageout_pte_range copy_page_range; do
	grep -qx "$f" "$TMP/hit" || fail "no PC in $f"
done
printf '%s\n' 'm0 = mmap(0, 1, anon, PROT_READ, MAP_PRIVATE, 0)' >"$TMP/tiny.mmf"
"$MMFUZZ" exec --kernel "$k/bzImage" --cover "$TMP/pcs2" "$TMP/tiny.mmf" >"$TMP/out2" 2>&1 ||
	{ cat "$TMP/out2"; fail "exec --cover of a tiny program failed"; }
covered_functions "$k/vmlinux" "$TMP/pcs2" >"$TMP/hit2"
! grep -Exq 'do_swap_page|madvise_cold_or_pageout_pte_range|copy_page_range' "$TMP/hit2" ||
	fail "a program with no swap traffic or fork reached $(tr '\n' ' ' <"$TMP/hit2")"
echo "INFO: $(wc -l <"$TMP/pcs") PCs in $(wc -l <"$TMP/hit") mm/ functions"
check_clean
