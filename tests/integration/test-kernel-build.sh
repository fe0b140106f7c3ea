#!/bin/bash
# kernels: x86_64
# make kernel ARCH=x86_64 builds the minimal fuzzing kernel (or finds it in
# the cache), keeps every option that matters, is a no-op the second time,
# and boots under TCG with 2 CPUs, KASAN and working swap.
. "$(dirname "$0")/lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL	# our make check's jobserver is not the kernel's
set -o pipefail

# Options a fuzzing kernel is useless without.
must=(KASAN KCOV DEBUG_VM PROVE_LOCKING LKDTM VIRTIO_BLK ZRAM SWAP MEMCG
	TRANSPARENT_HUGEPAGE VM_EVENT_COUNTERS PROC_PAGE_MONITOR)

start=$(date +%s)
make --no-print-directory kernel ARCH=x86_64 2>&1 | tee "$TMP/build.out" ||
	fail "make kernel ARCH=x86_64 failed"
took=$(( $(date +%s) - start ))
entry=$(tail -n 1 "$TMP/build.out")
[ -d "$entry" ] || fail "make kernel did not print the cache entry (got '$entry')"
for f in bzImage vmlinux .config build.log; do
	[ -s "$entry/$f" ] || fail "$entry/$f missing"
done
# The plain fuzzing kernel, which campaigns boot by default: no mark of a
# caller's patches, flavour or KCOV files.
for f in patches flavour kcov-files; do
	[ ! -e "$entry/$f" ] || fail "make kernel marked its entry with '$f'"
done
built=$(sed -n 's/^# built in \([0-9]*\)s on \([0-9]*\) CPUs\(.*\)$/\1s on \2 CPUs\3/p' "$entry/build.log")
echo "INFO: kernel: make kernel took ${took}s here; the cached build took $built;" \
	"vmlinux $(( $(stat -c %s "$entry/vmlinux") >> 20 )) MiB"

# Every option of the fragments, as the kernel kept it.
dropped=0
while read -r want; do
	name=$(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' <<<"$want")
	got=$(grep -E "^(# )?${name}[= ]" "$entry/.config" || true)
	[ "$got" = "$want" ] && continue
	[ -z "$got" ] && [ "${want#\# }" != "$want" ] && continue	# off and invisible: off
	echo "dropped by the kernel: $want (got: ${got:-nothing})"
	for m in "${must[@]}"; do
		[ "$name" = "CONFIG_$m" ] && dropped=$((dropped + 1))
	done
done < <(grep -hE '^(CONFIG_|# CONFIG_.* is not set$)' kvm/config/base.config \
	kvm/config/debug.config kvm/config/x86_64.config)
[ "$dropped" -eq 0 ] || fail "$dropped options that matter are not in the kernel"
for m in "${must[@]}"; do
	grep -q "^CONFIG_$m=y$" "$entry/.config" || fail "CONFIG_$m is not =y"
done
! grep -q '^CONFIG_RANDOMIZE_BASE=y' "$entry/.config" || fail "KASLR is on"

# file:line for a report's frames: vmlinux has line tables.
addr=$(nm "$entry/vmlinux" | awk '$3 == "do_swap_page" { print $1 }')
[ -n "$addr" ] || fail "no do_swap_page in vmlinux"
where=$(addr2line -e "$entry/vmlinux" "0x$addr")
[[ $where == */mm/memory.c:[0-9]* ]] || fail "addr2line do_swap_page: '$where'"

# Unchanged: a no-op that says it used the cache.
start=$(date +%s)
make --no-print-directory kernel ARCH=x86_64 >"$TMP/again.out" 2>&1 ||
	fail "second make kernel failed: $(cat "$TMP/again.out")"
again=$(( $(date +%s) - start ))
grep -q 'cache hit' "$TMP/again.out" || fail "second make kernel did not use the cache"
[ "$(tail -n 1 "$TMP/again.out")" = "$entry" ] || fail "second make kernel gave another entry"
[ "$again" -le 60 ] || fail "second make kernel took ${again}s"
echo "INFO: kernel: unchanged rebuild ${again}s (cache hit)"

# What is not a kernel tree is one clear line and a failure.
if make --no-print-directory kernel ARCH=x86_64 KSRC="$TMP" >"$TMP/bad.out" 2>&1; then
	fail "make kernel KSRC=<not a kernel tree> succeeded"
fi
grep -q "^build-kernel: KSRC=$TMP is not a Linux kernel source tree" "$TMP/bad.out" ||
	fail "make kernel KSRC=<not a kernel tree>: $(cat "$TMP/bad.out")"
if make --no-print-directory kernel ARCH=mips >"$TMP/bad.out" 2>&1; then
	fail "make kernel ARCH=mips succeeded"
fi
grep -q '^build-kernel: ARCH must be x86_64 or arm64' "$TMP/bad.out" || fail "ARCH=mips: $(cat "$TMP/bad.out")"

# Boot it under TCG: an initramfs of busybox whose init counts the CPUs,
# swaps some tmpfs pages out to zram through a memcg, and powers off.
root=$TMP/initramfs
mkdir -p "$root/bin"
cp /bin/busybox "$root/bin/busybox"
cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mkdir -p /proc /sys /dev /tmp
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
echo "mmfuzz-init: up $(cut -d' ' -f1 /proc/uptime)s, $(grep -c ^processor /proc/cpuinfo) CPUs online"
echo 64M >/sys/block/zram0/disksize && mkswap /dev/zram0 >/dev/null && swapon /dev/zram0
mount -t tmpfs tmpfs /tmp
mount -t cgroup2 none /sys/fs/cgroup
echo +memory >/sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/t
echo $$ >/sys/fs/cgroup/t/cgroup.procs
dd if=/dev/urandom of=/tmp/f bs=1M count=8 2>/dev/null
echo 8M >/sys/fs/cgroup/t/memory.reclaim
echo "mmfuzz-init: $(grep '^pswpout ' /proc/vmstat)"
poweroff -f
EOF
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$TMP/initrd.gz"

start=$(date +%s)
timeout 600 qemu-system-x86_64 -M q35 -cpu max -accel tcg,thread=multi -smp 2 -m 1G \
	-nographic -no-reboot -kernel "$entry/bzImage" -initrd "$TMP/initrd.gz" \
	-append "console=ttyS0 panic=-1" </dev/null >"$TMP/console" 2>&1 ||
	{ tail -n 30 "$TMP/console"; fail "qemu failed or timed out"; }
ran=$(( $(date +%s) - start ))
grep -q 'KernelAddressSanitizer initialized' "$TMP/console" ||
	{ tail -n 30 "$TMP/console"; fail "no KASAN banner on the console"; }
grep -q 'smp: Brought up .* 2 CPUs' "$TMP/console" ||
	{ grep 'smp:' "$TMP/console"; fail "the kernel did not bring up 2 CPUs"; }
grep -q 'mmfuzz-init: up .*, 2 CPUs online' "$TMP/console" ||
	{ tail -n 30 "$TMP/console"; fail "init did not run or did not see 2 CPUs"; }
pswpout=$(sed -n 's/.*mmfuzz-init: pswpout \([0-9]*\).*/\1/p' "$TMP/console")
[ -n "$pswpout" ] || { tail -n 30 "$TMP/console"; fail "no pswpout in the guest's /proc/vmstat"; }
[ "$pswpout" -gt 0 ] || { tail -n 30 "$TMP/console"; fail "the guest swapped nothing out"; }
# A clean boot: no kernel report (lockdep, KASAN, WARNING) on the console.
"$MMFUZZ" triage parse "$TMP/console" >"$TMP/reports" 2>&1 || true
[ ! -s "$TMP/reports" ] || { cat "$TMP/reports"; fail "kernel reports during the boot"; }
up=$(sed -n 's/.*mmfuzz-init: up \([0-9.]*\)s.*/\1/p' "$TMP/console")
echo "INFO: kernel: TCG boot to init ${up}s (guest uptime), qemu ran ${ran}s, pswpout $pswpout"
check_clean
