#!/bin/bash
# Install the Debian packages mmfuzz needs to build, run and test, if any is
# missing, then run make with the arguments given (e.g. "fuzz", "check").
# Idempotent; needs root (apt-get) only when something is missing.
set -eu
cd "$(dirname "$0")/.."

pkgs=(
	gcc make libc6-dev		# build
	kmod		# modprobe zram
	util-linux		# swapon/swapoff/losetup for tests and triage
	procps		# ps, free: test diagnostics
	python3		# test helpers
)

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
