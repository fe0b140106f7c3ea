#!/bin/bash
# test: host
# The pin oracle fires: data the kernel put in a pinned page, or a page a
# pipe holds after vmsplice, changed behind the model's back (through
# /proc/self/mem, --corrupt-pin N) is reported when read back.
. "$(dirname "$0")/lib.sh"

run() {	# expect-title program [--corrupt-pin N]
	local want=$1 prog=$2 rc=0
	shift 2
	"$MMFUZZ" exec --native --quiet "$prog" >"$TMP/clean" 2>&1 ||
		{ cat "$TMP/clean"; fail "$prog: clean run reported something"; }
	"$MMFUZZ" exec --native --quiet "$@" "$prog" >"$TMP/out" 2>&1 || rc=$?
	cat "$TMP/out"
	[ $rc -eq 3 ] || fail "$prog $*: exit status $rc, expected 3 (report)"
	grep -q "^REPORT: $want" "$TMP/out" || fail "$prog $*: no '$want' report"
}

cat >"$TMP/pipe.mmf" <<'P'
m0 = mmap(0, 8, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m0, 0, 8, 0x11)
vmsplice(m0, 0, 8, 0)
munmap(m0, 0, 8)
pipe_read(0, 8)
P
run 'DATA CORRUPTION: garbage pipe data after vmsplice' "$TMP/pipe.mmf" --corrupt-pin 2
grep -q '^pipe: p0, page 0 of the read by statement 4, spliced by statement 2' "$TMP/out" ||
	fail "report lacks the pipe and the vmsplice"

cat >"$TMP/uring.mmf" <<'P'
f0 = memfd(16)
m1 = mmap(0, 16, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)
write(m1, 0, 16, 0x21)
m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
uring_register(m0, 0, 16)
madvise(m0, 0, 16, MADV_FREE)
uring_read_fixed(m0, 0, 16, f0, 0)
madvise(m0, 0, 16, MADV_PAGEOUT)
read(m0, 0, 16)
P
run 'DATA CORRUPTION: garbage anon page' "$TMP/uring.mmf" \
	--corrupt-pin 6

cat >"$TMP/dio.mmf" <<'P'
f1 = dio_file(16)
m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m0, 0, 16, 0x31)
dio_write(m0, 0, 16, f1, 0)
m2 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
dio_read(m2, 0, 16, f1, 0)
c0 = fork {
	read(m2, 0, 16)
}
join
read(m2, 0, 16)
P
run 'DATA CORRUPTION: garbage anon page' "$TMP/dio.mmf" --corrupt-pin 5

cat >"$TMP/pvm.mmf" <<'P'
m0 = mmap(0, 8, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
m1 = mmap(0, 8, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m0, 0, 8, 0x41)
process_vm_writev(m0, 0, 8, self, m1, 0)
madvise(m1, 0, 8, MADV_PAGEOUT)
read(m1, 0, 8)
P
run 'DATA CORRUPTION: garbage anon page' "$TMP/pvm.mmf" \
	--corrupt-pin 3
check_clean
