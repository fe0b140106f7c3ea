#!/bin/bash
# Debian's prebuilt 6.12 cloud kernel for a guest architecture, for guests
# when no fuzzing kernel was built (no KASAN). Fetched with apt-get download
# (never installed) and unpacked once into $MMFUZZ_CACHE/debian-kernel/ARCH/.
# Prints two lines: the kernel image and the modules directory.
#
#   scripts/fetch-kernel.sh x86_64|arm64
set -eu

declare -A debarch=([x86_64]=amd64 [arm64]=arm64)
arch=${1:-}
[ -n "$arch" ] && [ -n "${debarch[$arch]:-}" ] ||
	{ echo "usage: $0 x86_64|arm64" >&2; exit 2; }
deb=${debarch[$arch]}
dest=${MMFUZZ_CACHE:-/var/cache/mmfuzz}/debian-kernel/$arch

show() {
	local image modules
	image=$(find "$dest/root/boot" -name 'vmlinuz-*' | head -n 1)
	modules=$(find "$dest/root" -path '*/modules/*' -maxdepth 4 -mindepth 3 \
		-type d -name '6.12*' | head -n 1)
	[ -n "$image" ] && [ -n "$modules" ] || return 1
	echo "$image"
	echo "$modules"
}

mkdir -p "$dest"
exec 9>"$dest/.lock"
flock 9
if [ -e "$dest/root/.complete" ]; then
	show
	exit 0
fi

# The newest 6.12 build the package lists know; arm64 ones need the arch.
newest() {
	apt-cache search --names-only "^linux-image-6\\.12\\..*-cloud-$deb-unsigned\$" |
		cut -d' ' -f1 | sort -V | tail -n 1
}
pkg=$(newest)
if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ]; then
	apt-get update -q >&2	# lists older than the arch, or none yet
	pkg=$(newest)
fi
if [ -z "$pkg" ]; then
	echo "fetch-kernel: no linux-image-6.12.*-cloud-$deb-unsigned in the package lists" \
		"(run scripts/setup.sh: it adds the arm64 architecture and updates them)" >&2
	exit 1
fi
tmp=$(mktemp -d "$dest/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "fetch-kernel: apt-get download $pkg:$deb" >&2
(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg:$deb" >&2)
dpkg-deb -x "$tmp"/*.deb "$tmp/root"
# The package ships no modules.dep (its postinst makes it): make it here,
# for scripts/build-initramfs.sh to find what a module depends on.
for m in "$tmp"/root/lib/modules/* "$tmp"/root/usr/lib/modules/*; do
	if [ -d "$m" ]; then
		depmod -b "${m%/lib/modules/*}" "${m##*/}"
	fi
done
echo "$pkg" >"$tmp/root/.complete"
rm -rf "$dest/root"
mv "$tmp/root" "$dest/root"
show
