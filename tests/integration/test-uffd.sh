#!/bin/bash
# test: host
# userfaultfd: the handler thread resolves a MISSING and
# a WP fault the way the model predicts, so that the program sees the data
# the model expects and never hangs, also while a fork changes the mm; the data oracle still checks pages
# UFFDIO_COPY filled; a uffd call the kernel refuses (or lacks) gives its
# errno, not a report.
. "$(dirname "$0")/lib.sh"

# Statement results of a run: "N call = result" lines.
result() {
	sed -n "s/^ *$1 .* = \(.*\)\$/\1/p" "$2" | sed 's/ swapped=.*//'
}

cat >"$TMP/faults.mmf" <<'P'
m0 = mmap(0, 64, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m0, 0, 32, 0x71)
uffd_register(m0, 0, 64, UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP)
uffd_writeprotect(m0, 0, 32, UFFDIO_WRITEPROTECT_MODE_WP)
write(m0, 0, 16, 0x72)
read(m0, 32, 32)
uffd_copy(m0, 32, 32, 0x73, 0)
uffd_copy(m0, 48, 16, 0x74, 0)
madvise(m0, 0, 64, MADV_PAGEOUT)
read(m0, 0, 64)
P
# Statement 4 writes WP pages: without the handler clearing WP it would
# block until the timeout. Statement 5 reads missing pages: the handler
# gives them zero pages, so COPY over them is EEXIST.
"$MMFUZZ" exec --native --timeout 20 "$TMP/faults.mmf" >"$TMP/out" 2>&1 ||
	{ cat "$TMP/out"; fail "the fault program reported or failed"; }
cat "$TMP/out"
grep -q ': ok, ' "$TMP/out" || fail "the fault program did not finish"
[ "$(result 4 "$TMP/out")" = 16 ] || fail "the write to WP pages did not complete"
[ "$(result 5 "$TMP/out")" = 32 ] || fail "the read of missing pages did not complete"
[ "$(result 6 "$TMP/out")" = "-1 EEXIST" ] || fail "missing faults were not filled"
[ "$(result 7 "$TMP/out")" = "-1 EEXIST" ] || fail "a present page was filled again"

# A missing fault while a fork with EVENT_FORK is under way: ZEROPAGE says
# EAGAIN (the mm is changing) and wakes no one, so the handler must wake
# the thread to fault again, or the write hangs (HANG: write in 29 runs of
# 30 before it did). The reproducer's handler is the same code.
cat >"$TMP/forking.mmf" <<'P'
uffd_create(UFFD_SYSCALL, UFFD_FEATURE_EVENT_FORK)
m0 = mmap(0, 256, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
uffd_register(m0, 0, 256, UFFDIO_REGISTER_MODE_MISSING)
thread {
	write(m0, 0, 256, 0x63)
}
c0 = fork {
	read(m0, 0, 1)
}
c1 = fork {
	read(m0, 0, 1)
}
join
read(m0, 0, 256)
P
for i in 1 2 3 4 5; do
	"$MMFUZZ" exec --native --no-env --quiet "$TMP/forking.mmf" >"$TMP/out" 2>&1 ||
		{ cat "$TMP/out"; fail "run $i: a fault during fork was left unresolved"; }
done

# The model predicts what COPY stored: a page changed behind it after the
# copy is reported (the first predicted page is m0+0, changed after 7).
cat >"$TMP/copy.mmf" <<'P'
m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
uffd_register(m0, 0, 16, UFFDIO_REGISTER_MODE_MISSING)
uffd_copy(m0, 0, 16, 0x75, 0)
read(m0, 0, 16)
P
"$MMFUZZ" exec --native --quiet "$TMP/copy.mmf" >"$TMP/clean" 2>&1 ||
	{ cat "$TMP/clean"; fail "the copy program reported something"; }
rc=0
"$MMFUZZ" exec --native --quiet --corrupt-after 2 "$TMP/copy.mmf" >"$TMP/out" 2>&1 || rc=$?
[ $rc -eq 3 ] || { cat "$TMP/out"; fail "exit status $rc, expected 3 (report)"; }
grep -q '^REPORT: DATA CORRUPTION: garbage anon page' "$TMP/out" ||
	{ cat "$TMP/out"; fail "no DATA CORRUPTION after uffd_copy"; }

# Refused calls: MINOR on anonymous memory, MOVE into shmem. And a kernel
# without /dev/userfaultfd (an empty /dev in a mount namespace): ENOENT,
# then the lazy uffd from userfaultfd(2) serves the rest.
cat >"$TMP/errno.mmf" <<'P'
m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
f0 = memfd(16)
m1 = mmap(0, 16, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)
uffd_create(UFFD_DEV, 0)
uffd_register(m0, 0, 16, UFFDIO_REGISTER_MODE_MINOR)
uffd_register(m1, 0, 16, UFFDIO_REGISTER_MODE_MISSING)
uffd_move(m1, 0, 16, m0, 0, 0)
uffd_register(m0, 0, 16, UFFDIO_REGISTER_MODE_MISSING)
read(m0, 0, 16)
P
unshare -m sh -c "mount -t tmpfs none /dev && exec '$MMFUZZ' exec --native --no-env \
	'$TMP/errno.mmf'" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "refused calls made a report"; }
cat "$TMP/out"
[ "$(result 3 "$TMP/out")" = "-1 ENOENT" ] || fail "uffd_create(UFFD_DEV) without the device"
[ "$(result 4 "$TMP/out")" = "-1 EINVAL" ] || fail "MINOR on anonymous memory"
[ "$(result 6 "$TMP/out")" = "-1 EINVAL" ] || fail "MOVE into shmem"
[ "$(result 8 "$TMP/out")" = 16 ] || fail "the lazy uffd did not serve the missing faults"
check_clean
