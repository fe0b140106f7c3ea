#!/bin/bash
# Install the Debian packages mmfuzz needs to build, run and test, if any is
# missing, then run make with the arguments given (e.g. "fuzz", "check").
# Idempotent; needs root (apt-get) only when something is missing.
set -eu
cd "$(dirname "$0")/.."

pkgs=(
	gcc make libc6-dev		# build
	ccache		# object files shared by clones (a fresh CI clone compiles little)
	kmod		# modprobe zram
	util-linux		# swapon/swapoff/losetup for tests and triage
	procps		# ps, free: test diagnostics
	python3		# test helpers
	stress-ng	# the stressng stressor (and, opt-in, x86_64 guests)
	chromium	# renders the triage HTML page in a test (headless)
	afl++		# make fuzz-self: afl-fuzz and afl-clang-fast (clang) fuzz our parsers
	# fuzzing kernels (make kernel) and booting them under QEMU
	bc bison flex libelf-dev libssl-dev cpio xz-utils	# kernel build
	linux-source-6.12	# the source make kernel builds without KSRC
	gcc-aarch64-linux-gnu	# make kernel ARCH=arm64 (cross)
	qemu-system-x86 qemu-system-arm	# guests (TCG when there is no KVM)
	busybox-static		# the test guest's initramfs
	libc6-dev-arm64-cross	# the static mmfuzz of arm64 guests
	liburing-dev liburing-dev:arm64	# io_uring, in both arches' static builds
	lava-dispatcher lavacli	# farms: lava-run runs a job here, lavacli submits
)

# arm64 guests: Debian's arm64 kernel and busybox-static:arm64 are fetched
# with apt-get download (unpacked, never installed), which needs the arch.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup: dpkg lacks the arm64 architecture; run as root to add it" >&2
		exit 1
	fi
	echo "setup: adding the arm64 architecture (for apt-get download)"
	dpkg --add-architecture arm64
	apt-get update -q
fi

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup: missing packages: ${missing[*]}; run as root to install them" >&2
		exit 1
	fi
	echo "setup: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
[ $# -eq 0 ] || exec make -j"$(nproc)" "$@"
