#!/bin/bash
# An arm64 guest (virt, GICv3, TCG) fuzzes on Debian's prebuilt kernel,
# with a cross-built static mmfuzz and busybox, and powers off.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/guest.sh"

guest_fuzz arm64 10s
check_clean
