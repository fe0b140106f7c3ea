#!/bin/bash
# The guests' initramfs: busybox-static, kvm/init as /init, its perf-hold
# (kvm/perf-hold.c) and kernel modules, packed with cpio and gzip, and the
# guests' static mmfuzz (stressors are linked in) beside it. Both are
# cached by the hash of what goes in, in $MMFUZZ_CACHE/initramfs/; prints
# the initramfs's path, then that of mmfuzz's disk image.
#
#   scripts/build-initramfs.sh [--with-mmfuzz] x86_64|arm64 [MODULES_DIR]
#
# mmfuzz is not in the initramfs: the host gives it to the guest on a disk
# of its own, which init reads after the snapshot point (fuzzers/vm/vm.c),
# so that a new mmfuzz restores the guests saved with the old one. The
# image is made here once per build: "mmfuzz SIZE" in its first 4 KiB, then
# the binary, 32 MiB in all (sparse), a size that never changes, since a
# restored guest's block layer keeps the size it saw at boot. With
# --with-mmfuzz it is in it, as /bin/mmfuzz, and only the initramfs is
# printed: for guests without the host's disks, a farm's (docs/farms.md).
#
# MODULES_DIR (.../lib/modules/VERSION, with modules.dep) is for kernels
# with modules, like Debian's (scripts/fetch-kernel.sh): the modules init
# loads and their dependencies go in, decompressed, with their load order.
#
# MMFUZZ_STRESSNG=1 adds the host's stress-ng and its shared libraries
# (x86_64 only: Debian's is dynamic, ~33 MB with them, so it is opt-in)
# for guests run with '--stress stressng,...'.
set -eu
cd "$(dirname "$0")/.."

declare -A debarch=([x86_64]=amd64 [arm64]=arm64)
declare -A target=([x86_64]=static [arm64]=static-arm64)
declare -A build=([x86_64]=build [arm64]=build-arm64)
# What kvm/init needs that Debian's cloud kernels build as modules.
modules=(virtio_blk zram)

inside=0
[ "${1:-}" = --with-mmfuzz ] && { inside=1; shift; }
arch=${1:-}
moddir=${2:-}
[ -n "$arch" ] && [ -n "${debarch[$arch]:-}" ] && [ $# -le 2 ] ||
	{ echo "usage: $0 [--with-mmfuzz] x86_64|arm64 [MODULES_DIR]" >&2; exit 2; }
deb=${debarch[$arch]}
cache=${MMFUZZ_CACHE:-/var/cache/mmfuzz}
# Only the result goes to stdout.
exec 3>&1 1>&2

# One at a time: two campaigns started together after a rebuild would both
# relink mmfuzz-static, and one would read it while the other's linker
# had emptied it (a guest then got a 0-byte mmfuzz and powered off).
mkdir -p "$cache/initramfs"
exec 9>"$cache/initramfs/.lock"
flock 9
make -s -j2 --no-print-directory "${target[$arch]}"
mmfuzz=${build[$arch]}/mmfuzz-static
hold=${build[$arch]}/perf-hold-static

# busybox-static of the guest's arch: the host's own, or the package's
# binary, unpacked (never installed) into the cache once.
if [ "$(dpkg --print-architecture)" = "$deb" ]; then
	busybox=/bin/busybox
else
	bbdir=$cache/busybox/$deb
	busybox=$bbdir/bin/busybox
	if [ ! -x "$busybox" ]; then
		mkdir -p "$cache/busybox"
		tmp=$(mktemp -d "$cache/busybox/.tmp.XXXXXX")
		(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root \
			"busybox-static:$deb") ||
			{ rm -rf "$tmp"; echo "build-initramfs: cannot download busybox-static:$deb" \
				"(scripts/setup.sh adds the $deb architecture)" >&2; exit 1; }
		dpkg-deb -x "$tmp"/busybox-static_*.deb "$tmp/root"
		rm -rf "$bbdir"
		mv "$tmp/root" "$bbdir"
		rm -rf "$tmp"
	fi
fi
[ -x "$busybox" ] || { echo "build-initramfs: no $busybox (scripts/setup.sh)" >&2; exit 1; }

# Modules in load order: kmod's modprobe reads modules.dep of the tree.
kos=()
if [ -n "$moddir" ]; then
	root=${moddir%/lib/modules/*}
	version=${moddir##*/}
	[ -f "$moddir/modules.dep" ] ||
		{ echo "build-initramfs: $moddir has no modules.dep" >&2; exit 1; }
	while read -r verb path _; do
		[ "$verb" = insmod ] || continue
		case " ${kos[*]} " in *" $path "*) continue ;; esac
		kos+=("$path")
	done < <(for m in "${modules[@]}"; do
		modprobe -d "$root" -S "$version" --show-depends "$m"
	done)
fi

stressng=()
if [ "${MMFUZZ_STRESSNG:-0}" = 1 ]; then
	[ "$arch" = x86_64 ] || { echo "build-initramfs: stress-ng only for x86_64" >&2; exit 1; }
	[ -x /usr/bin/stress-ng ] ||
		{ echo "build-initramfs: no stress-ng (scripts/setup.sh)" >&2; exit 1; }
	stressng=(/usr/bin/stress-ng
		$(ldd /usr/bin/stress-ng | awk '/=> \// { print $3 } /^\t\// { print $1 }'))
fi

# Each rebuilt mmfuzz makes a new one of each KIND: keep the 4 newest of
# the arch, and any used in the last week (a long campaign boots its
# guests again from its own).
prune() {
	ls -t "$cache/initramfs/"$1 | tail -n +5 | xargs -r -I{} find {} -mtime +7 -delete
}

# The guest's mmfuzz disk, by its content: a campaign's guests keep the
# one it started with, whatever is built meanwhile.
img=$cache/initramfs/mmfuzz-$arch-$(sha256sum <"$mmfuzz" | cut -c1-16).img
if [ -f "$img" ]; then
	touch "$img"
else
	size=$(stat -c %s "$mmfuzz")
	[ "$size" -gt 0 ] || { echo "build-initramfs: $mmfuzz is empty" >&2; exit 1; }
	[ "$size" -le $(((32 << 20) - 4096)) ] ||
		{ echo "build-initramfs: $mmfuzz is larger than its 32 MiB disk" >&2; exit 1; }
	printf 'mmfuzz %s\n' "$size" >"$img.tmp.$$"
	truncate -s 4096 "$img.tmp.$$"
	cat "$mmfuzz" >>"$img.tmp.$$"
	truncate -s 32M "$img.tmp.$$"
	mv "$img.tmp.$$" "$img"
	prune "mmfuzz-$arch-*.img"
fi
inner=()
[ $inside = 1 ] && inner=("$mmfuzz")

hash=$({
	sha256sum scripts/build-initramfs.sh kvm/init kvm/kcsan-filter "$busybox" "$hold" \
		"${inner[@]}" "${stressng[@]}" | cut -d" " -f1
	for ko in "${kos[@]}"; do
		echo "${ko##*/}"
		sha256sum <"$ko"
	done
} | sha256sum | cut -c1-16)
# Those with mmfuzz by a name of their own: each build makes one, and the
# one without, which changes seldom, must not be pruned for them.
kind=$arch-
[ $inside = 0 ] || kind=$arch-with-mmfuzz-
out=$cache/initramfs/$kind$hash.cpio.gz
# Only what the caller has no other way to get.
result() {
	echo "$out" >&3
	[ $inside = 1 ] || echo "$img" >&3
}
# Never touched when reused: the snapshot cache's key has its time.
if [ -f "$out" ]; then
	result
	exit 0
fi

tmp=$(mktemp -d "$cache/initramfs/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
r=$tmp/root
mkdir -p "$r/bin" "$r/dev" "$r/lib/modules"
install -m 755 kvm/init "$r/init"
install -m 644 kvm/kcsan-filter "$r/kcsan-filter"
install -m 755 "$busybox" "$r/bin/busybox"
install -m 755 "$hold" "$r/bin/perf-hold"
[ $inside = 0 ] || install -m 755 "$mmfuzz" "$r/bin/mmfuzz"
# At their own paths: the dynamic loader finds them there as on the host.
for f in "${stressng[@]}"; do
	install -D -m 755 "$(readlink -f "$f")" "$r$f"
done
# Where the kernel has none of its own, init's stdio needs this node.
mknod -m 600 "$r/dev/console" c 5 1 2>/dev/null || true
for ko in "${kos[@]}"; do
	name=${ko##*/}
	name=${name%.xz}
	name=${name%.zst}
	name=${name%.gz}
	# busybox insmod takes plain .ko files.
	case $ko in
	*.xz) xz -dc "$ko" ;;
	*.zst) zstd -dc "$ko" ;;
	*.gz) gzip -dc "$ko" ;;
	*) cat "$ko" ;;
	esac >"$r/lib/modules/$name"
	echo "$name" >>"$r/lib/modules/load"
done
(cd "$r" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) | gzip -9n >"$tmp/initramfs.cpio.gz"
mv "$tmp/initramfs.cpio.gz" "$out"
prune "$kind[0-9a-f]*.cpio.gz"
echo "build-initramfs: $out ($(( $(stat -c %s "$out") >> 10 )) KiB," \
	"${#kos[@]} module(s))"
result
