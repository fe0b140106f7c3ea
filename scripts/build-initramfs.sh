#!/bin/bash
# The guests' initramfs: busybox-static, the static mmfuzz (stressors are
# linked in), kernel modules and kvm/init as /init, packed with cpio and
# gzip. Cached by the hash of what goes in, in
# $MMFUZZ_CACHE/initramfs/ARCH-HASH.cpio.gz; prints that path.
#
#   scripts/build-initramfs.sh x86_64|arm64 [MODULES_DIR]
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
declare -A binary=([x86_64]=build/mmfuzz-static [arm64]=build-arm64/mmfuzz-static)
# What kvm/init needs that Debian's cloud kernels build as modules.
modules=(virtio_blk zram)

arch=${1:-}
moddir=${2:-}
[ -n "$arch" ] && [ -n "${debarch[$arch]:-}" ] ||
	{ echo "usage: $0 x86_64|arm64 [MODULES_DIR]" >&2; exit 2; }
deb=${debarch[$arch]}
cache=${MMFUZZ_CACHE:-/var/cache/mmfuzz}
# Only the result goes to stdout.
exec 3>&1 1>&2

make -s -j2 --no-print-directory "${target[$arch]}"
mmfuzz=${binary[$arch]}

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

hash=$({
	sha256sum scripts/build-initramfs.sh kvm/init kvm/kcsan-filter "$busybox" "$mmfuzz" "${stressng[@]}" |
		cut -d" " -f1
	for ko in "${kos[@]}"; do
		echo "${ko##*/}"
		sha256sum <"$ko"
	done
} | sha256sum | cut -c1-16)
out=$cache/initramfs/$arch-$hash.cpio.gz
if [ -f "$out" ]; then
	echo "$out" >&3
	exit 0
fi

mkdir -p "$cache/initramfs"
tmp=$(mktemp -d "$cache/initramfs/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
r=$tmp/root
mkdir -p "$r/bin" "$r/dev" "$r/lib/modules"
install -m 755 kvm/init "$r/init"
install -m 644 kvm/kcsan-filter "$r/kcsan-filter"
install -m 755 "$busybox" "$r/bin/busybox"
install -m 755 "$mmfuzz" "$r/bin/mmfuzz"
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
# Each rebuilt mmfuzz makes a new one: keep the 4 newest per arch, and any
# of the last week (a long campaign boots its guests again from its own).
ls -t "$cache/initramfs/$arch"-*.cpio.gz | tail -n +5 |
	xargs -r -I{} find {} -mtime +7 -delete
echo "build-initramfs: $out ($(( $(stat -c %s "$out") >> 10 )) KiB," \
	"${#kos[@]} module(s))"
echo "$out" >&3
