# Shared by the guest tests (test-guest-*.sh), after lib.sh: boot Debian's
# prebuilt 6.12 kernel with the project's initramfs under TCG, fuzz for a
# short budget, and check what the guest and the runner printed.

# The runner's output, the guest's console and its execution log.
guest_fuzz() {
	local arch=$1 budget=$2 out=$TMP/$1 rc=0
	local console=$out/vm-0/boot-1/console.log exec=$out/vm-0/boot-1/exec.log
	local summary n marks pswpout

	# TCG as CI has it, whatever /dev/kvm this machine may have. A report
	# of Debian's kernel (a finding, not the runner's failure: CI saw
	# "WARNING in ctx_sched_in" on arm64) is shown, and a second guest on
	# another seed is the test.
	MMFUZZ_ACCEL=tcg "$MMFUZZ" vm --arch "$arch" --kernel debian --duration "$budget" \
		--corpus none --out "$out" >"$out.out" 2>&1 || rc=$?
	if [ $rc -eq 3 ]; then
		echo "INFO: $arch: Debian's kernel reported; its report, then a second guest:"
		head -n 60 "$out"/crashes/*/report.0 | sed 's/^/    /'
		mv "$out" "$out.first"
		rc=0
		MMFUZZ_ACCEL=tcg "$MMFUZZ" vm --arch "$arch" --kernel debian --duration "$budget" \
			--corpus none --out "$out" >"$out.out" 2>&1 || rc=$?
	fi
	cat "$out.out"
	grep -a 'mmfuzz' "$console" | grep -av 'executing program' | tail -n 30 || true
	[ $rc -eq 0 ] || fail "$arch: mmfuzz vm exited with $rc"

	# The runner: its QEMU command line, the accelerator, the boot time,
	# one boot that ended with the guest's power-off.
	grep -q "^mmfuzz: vm 0: qemu-system-[a-z0-9_]* .*-accel tcg,thread=multi .*-smp 2,sockets=2 " \
		"$out.out" || fail "$arch: no QEMU command line printed"
	grep -q "^mmfuzz: using Debian's 6.12 kernel, KASAN is off" "$out.out" ||
		fail "$arch: the runner did not say it uses Debian's kernel without KASAN"
	grep -Eq '^mmfuzz: vm 0: boot 1: first program [0-9.]+ s after QEMU started' "$out.out" ||
		fail "$arch: no boot-to-first-program time"
	grep -q '^mmfuzz: vm 0: boot 1: the fuzzer ended (exit status 0); the guest powered off$' \
		"$out.out" || fail "$arch: the guest did not power off"
	grep -q '^mmfuzz: vm: 1 boot(s), 0 restart(s)' "$out.out" || fail "$arch: not one boot"
	[ ! -e "$out/vm-0/boot-2" ] || fail "$arch: the guest was booted twice"
	! ls "$out"/vm-0/boot-1/*.img >/dev/null 2>&1 || fail "$arch: scratch disks left"

	# The guest: both CPUs, programs run, swap used.
	grep -aq '^mmfuzz-init: 2 CPUs online' "$console" || fail "$arch: the guest saw no 2 CPUs"
	grep -aq '^mmfuzz-init: NUMA nodes online: 0-1' "$console" ||
		fail "$arch: the guest has no two NUMA nodes"
	summary=$(grep -a '^mmfuzz: [0-9]* programs, ' "$console" | tail -n 1)
	n=$(sed 's/^mmfuzz: \([0-9]*\) programs.*/\1/' <<<"$summary")
	[ -n "$n" ] && [ "$n" -gt 0 ] || fail "$arch: no program ran: '$summary'"
	pswpout=$(sed -n 's/^mmfuzz-init: vmstat pswpout \([0-9]*\).*/\1/p' "$console" | tail -n 1)
	[ -n "$pswpout" ] && [ "$pswpout" -gt 0 ] || fail "$arch: nothing swapped out in the guest"
	for dev in /dev/zram0 /dev/vda /dev/vdb /var/tmp/swapfile; do
		grep -aq "^$dev " "$console" || fail "$arch: $dev not in the guest's /proc/swaps"
	done

	# The execution log on the host: every program, before it ran, as written.
	marks=$(grep -c '^# mmfuzz: executing program$' "$exec" || true)
	[ "$marks" -ge "$n" ] || fail "$arch: $marks programs on the execution log, $n ran"
	! grep -q $'\r' "$exec" || fail "$arch: the execution log has carriage returns"
	echo "INFO: $arch: $n programs, pswpout $pswpout," \
		"$(sed -n 's/^mmfuzz: vm 0: boot 1: \(first program .*\)/\1/p' "$out.out")"
}
