#!/bin/bash
# test: host
# The C reproducer (mmfuzz gen --csource) behaves like the program: it
# builds with plain gcc and no warning, runs clean on this kernel where
# mmfuzz exec runs the program clean, gives each call the result the
# executor gave it, and reports a page changed behind its back
# (--corrupt-after, as the executor's hook) with the executor's title, in
# the main line and in a fork child.
. "$(dirname "$0")/lib.sh"

CC=${CC:-gcc}

# Emit the reproducer of program $1 and build it as $2.
build() {
	"$MMFUZZ" gen --csource "$1" >"$2.c" || fail "$1: gen --csource failed"
	! grep -q '#include "' "$2.c" || fail "$1: the C source includes a project header"
	"$CC" -O2 -Wall -pthread -o "$2" "$2.c" 2>"$2.warn" ||
		{ cat "$2.warn"; fail "$1: the C source does not compile"; }
	[ ! -s "$2.warn" ] || { cat "$2.warn"; fail "$1: compiler warnings"; }
}

# Run program $1 both ways with --no-env, no swap device, cgroup or knob
# of ours: swapoff, cg_limit and thp_knob fail with ENODEV in both. Neither
# may report anything, and each call must return the same in both (the
# value, or -1 and the errno), but for those whose result depends on
# timing: from the first thread or racing group on (what they change
# changes what follows), and the calls on a child (cN), which runs beside.
run_clean() {
	local f=$1 bin=$TMP/$2 rc=0

	build "$f" "$bin"
	timeout 300 "$bin" -v --no-env >"$bin.out" 2>"$bin.err" || rc=$?
	if [ $rc -ne 0 ] || grep -q 'DATA CORRUPTION' "$bin.out"; then
		cat "$bin.out" "$bin.err"
		fail "$f: the reproducer exited with $rc"
	fi
	"$MMFUZZ" exec --native --no-env "$f" >"$bin.exec" 2>&1 ||
		{ cat "$bin.exec"; fail "$f: mmfuzz exec did not run it clean"; }
	python3 - "$f" "$bin.exec" "$bin.err" <<'PY' || fail "$f: the reproducer's results differ"
import re, sys
prog, ex, rep = sys.argv[1:]
# Statements whose results depend on timing: from the first thread or
# racing group on, and the calls on a child.
apart, timed = set(), False
for i, line in enumerate(open(prog)):
	t = line.strip()
	timed |= not line.startswith("\t") and bool(re.match(r"(\w+ = )?thread \{$|race\(", t))
	if timed or re.search(r"\(.*\bc[0-3]\b", t):
		apart.add(i)
def results(path, pattern):
	r = {}
	for l in open(path):
		m = re.match(pattern, l)
		if m and int(m.group(1)) not in apart:
			r.setdefault(int(m.group(1)), []).append(m.group(2))
	return r
# The executor's "N [in B] call = R[ ERRNO][ notes]", the reproducer's "N: call = R[ ERRNO]".
a = results(ex, r"\s*([0-9]+) .* = (-1 [A-Z0-9]+|-?[0-9]+)( [a-z_]+=.*)?$")
b = results(rep, r"([0-9]+): .* = (-1 [A-Z0-9]+|-?[0-9]+)$")
bad = [k for k in sorted(set(a) | set(b)) if sorted(a.get(k, [])) != sorted(b.get(k, []))]
for k in bad:
	print("statement %d: executor %s, reproducer %s" % (k, a.get(k), b.get(k)))
print("INFO: %s: %d calls the same both ways, %d left out (timing)" %
      (prog, len(a) - len(bad), len(apart)))
sys.exit(1 if bad or not a else 0)
PY
	# A call that returned what the generator did not predict stops the
	# checks; say how often, so that a drop in coverage shows.
	grep -q 'only touched from here' "$bin.err" && echo "INFO: $f: $(grep 'only touched from here' "$bin.err")"
	return 0
}

for f in corpus/*.mmf; do
	run_clean "$f" "$(basename "$f" .mmf)"
done
for seed in 3 10 21 33 41 57; do
	"$MMFUZZ" gen --seed "$seed" >"$TMP/gen-$seed.mmf"
	run_clean "$TMP/gen-$seed.mmf" "gen-$seed"
done

# A reproducer that writes a knob puts it back however it ends: at exit
# (the runs above), on SIGTERM, and on SIGKILL through its guardian. It is
# held after its first call by a full pipe on its trace (-v).
K=/sys/kernel/mm/transparent_hugepage/shmem_enabled
{
	echo "thp_knob(SHMEM, within_size)"
	echo "m0 = mmap(0, 1024, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)"
	echo "write(m0, 0, 1024, 0x16)"
	echo "read(m0, 0, 1024)"
} >"$TMP/knob.mmf"
build "$TMP/knob.mmf" "$TMP/knob"
for sig in TERM KILL; do
	python3 - "$TMP/knob" "$sig" "$K" <<'PY' || fail "SIG$sig: the knob was not put back"
import os, signal, subprocess, sys, time
binary, sig, knob = sys.argv[1:]
before = open(knob).read()
r, w = os.pipe()
os.set_blocking(w, False)
try:
	while True:
		os.write(w, b"x" * 4096)
except BlockingIOError:
	os.set_blocking(w, True)
p = subprocess.Popen([binary, "-v"], stderr=w, stdout=subprocess.DEVNULL)
for _ in range(100):
	if open(knob).read() != before:
		break
	time.sleep(0.05)
changed = open(knob).read() != before
p.send_signal(getattr(signal, "SIG" + sig))
p.wait()
os.close(w)
for _ in range(100):
	if open(knob).read() == before:
		break
	time.sleep(0.05)
print("INFO: SIG%s: knob %s, then %s" % (sig, "changed" if changed else "NOT changed",
      "put back" if open(knob).read() == before else "NOT put back"))
sys.exit(0 if changed and open(knob).read() == before else 1)
PY
done

# -v traces each call with its result; a swap device not given is ENODEV.
"$TMP/swapoff-vs-fault" -v 2>"$TMP/trace" >/dev/null || fail "swapoff-vs-fault -v failed"
traced() {
	grep -qxF "$1" "$TMP/trace" || { cat "$TMP/trace"; fail "-v does not print '$1'"; }
}
traced '3: m0 = mmap(0, 512, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0) = 0'
traced '9: swapoff(s0) = -1 ENODEV'
traced '12: read(m0, 0, 512) = 512'

# The fault hook: the reproducer's report and status, the executor's title.
corrupt() {
	local f=$1 n=$2 title=$3 rc=0 bin=$TMP/$(basename "$1" .mmf)

	build "$f" "$bin"
	"$bin" >/dev/null || fail "$f: reported without a fault"
	"$bin" --corrupt-after "$n" >"$bin.out" 2>&1 || rc=$?
	cat "$bin.out"
	[ $rc -eq 1 ] || fail "$f: exit status $rc with a fault, expected 1"
	[ "$(grep '^DATA CORRUPTION: ' "$bin.out")" = "DATA CORRUPTION: $title" ] ||
		fail "$f: not the title '$title'"
	grep -q '^expected: 0x' "$bin.out" || fail "$f: report lacks the expected content"
	grep -q '^observed: 0x5a5a5a5a00000000 at byte 0' "$bin.out" ||
		fail "$f: report lacks the observed content"
	rc=0
	"$MMFUZZ" exec --native --no-env --quiet --corrupt-after "$n" "$f" >"$bin.exec" 2>&1 ||
		rc=$?
	[ $rc -eq 3 ] || { cat "$bin.exec"; fail "$f: mmfuzz exec status $rc, expected 3"; }
	grep -qx "REPORT: DATA CORRUPTION: $title" "$bin.exec" ||
		{ cat "$bin.exec"; fail "$f: mmfuzz exec gives another title"; }
}

cat >"$TMP/pageout.mmf" <<'P'
m0 = mmap(0, 64, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m0, 0, 64, 0x5a)
madvise(m0, 0, 64, MADV_PAGEOUT)
read(m0, 0, 64)
P
corrupt "$TMP/pageout.mmf" 2 "garbage anon page"
grep -q '^  1: write(m0, 0, 64, 0x5a)$' "$TMP/pageout.out" ||
	fail "report lacks the calls that touched the page"

# In a fork child: the child reports, the parent exits 1 at the join.
cat >"$TMP/child.mmf" <<'P'
m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)
write(m0, 0, 16, 0x21)
c0 = fork {
	madvise(m0, 0, 16, MADV_COLD)
	read(m0, 0, 16)
}
join
read(m0, 0, 16)
P
corrupt "$TMP/child.mmf" 3 "garbage anon page"
check_clean
