#!/bin/bash
# Build a fuzzing kernel out of tree: scripts/build-kernel.sh ARCH [KSRC
# [PATCH...]] (make kernel ARCH=x86_64|arm64 [KSRC=path] [PATCHES=...]
# [FLAVOUR=kcsan|16k] [KCOV_FILES="mm/memcontrol.c ..."]).
#
# KCOV_FILES: files of mm/ compiled with KCOV whatever mm/Makefile says
# (it turns KCOV off for page_alloc.c, memcontrol.c, vmstat.c and others
# as noise for syzkaller): mmfuzz validate counts the programs that reach
# a patch's functions there. Only mm/: elsewhere KCOV is off for safety
# (entry code, kcov.c itself), not noise.
#
# The tree built is a hard-linked copy of KSRC with kvm/patches/*.patch
# (the fuzzing kernel's own; a flavour's in kvm/patches/FLAVOUR/ after
# them) and then PATCH... applied (scripts/work-tree.sh);
# KSRC itself is never written.
# The config is allnoconfig plus kvm/config/{base,debug,<arch>}.config,
# merged by the kernel's own merge_config.sh; FLAVOUR=NAME adds
# kvm/config/NAME.config last (kcsan: KCSAN in place of KASAN; 16k: arm64
# with 16 KiB pages), and the entry keeps the name in a file "flavour".
# Without KSRC the source is Debian's linux-source-6.12, unpacked once into
# the cache. The result goes
# to $MMFUZZ_CACHE/kernel/<arch>-<version>-<tree hash>-<config hash>/, built
# in a temporary directory and renamed into place, so an entry is either
# whole or absent; an entry that exists makes the build a no-op. Object
# files stay in $MMFUZZ_CACHE/obj/ so that rebuilding a patched tree only
# compiles what changed. A build with PATCH... keeps them (patches) and
# the patched versions of the files they touch (source/) in its entry.
set -eu
{ # read whole before running: editing this file cannot derail a build in progress
top=$(cd "$(dirname "$0")/.." && pwd)

die() {
	echo "build-kernel: $*" >&2
	exit 1
}

arch=${1:-x86_64}
ksrc=${2:-}
shift $(($# < 2 ? $# : 2))
extra=("$@")
flavour=${FLAVOUR:-}
case $flavour in
'' | kcsan | 16k) ;;
*) die "FLAVOUR must be kcsan, 16k or empty, not '$flavour'" ;;
esac
# A flavour's own patches (kvm/patches/FLAVOUR/) come after the common ones.
patches=("$top"/kvm/patches/*.patch)
[ -z "$flavour" ] || [ ! -d "$top/kvm/patches/$flavour" ] ||
	patches+=("$top"/kvm/patches/"$flavour"/*.patch)
patches+=("$@")
for p in "${patches[@]}"; do
	[ -f "$p" ] || die "patch $p: no such file"
done
case $arch in
x86_64 | x86)
	arch=x86_64 karch=x86_64 srcarch=x86 cross='' image=arch/x86/boot/bzImage ;;
arm64 | aarch64)
	arch=arm64 karch=arm64 srcarch=arm64 cross=aarch64-linux-gnu- image=arch/arm64/boot/Image ;;
*)
	die "ARCH must be x86_64 or arm64, not '$arch'" ;;
esac
[ "$flavour" != 16k ] || [ "$arch" = arm64 ] ||
	die "FLAVOUR=16k is for ARCH=arm64 (16 KiB pages are arm64's)"
iname=$(basename "$image")
# Sorted, one space between, "" for none (the key and the entry say it).
kcov_files=$(printf '%s\n' ${KCOV_FILES:-} | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/^ *//; s/ *$//')
kcovvars=()
for f in $kcov_files; do
	case $f in
	mm/*.c) ;;
	*) die "KCOV_FILES: $f is not a .c file of mm/" ;;
	esac
	# A command-line variable beats the Makefile's ":= n" in every directory.
	kcovvars+=("KCOV_INSTRUMENT_$(basename "$f" .c).o=y")
done

# A kernel make inside our make (make check) must not inherit its jobserver.
unset MAKEFLAGS MFLAGS MAKELEVEL KBUILD_OUTPUT
for tool in make "${cross}gcc" bc flex bison perl xz; do
	command -v "$tool" >/dev/null ||
		die "$tool not found: run scripts/setup.sh to install what the kernel build needs"
done
[ -e /usr/include/gelf.h ] || die "libelf-dev is missing: run scripts/setup.sh"

cache=${MMFUZZ_CACHE:-/var/cache/mmfuzz}
mkdir -p "$cache/kernel" "$cache/obj" "$cache/src" || die "cannot create the cache in $cache"

# The source tree and what identifies its content.
treeid=
if [ -z "$ksrc" ]; then
	{ read -r ksrc && read -r treeid; } < <("$top/scripts/kernel-source.sh") ||
		die "no kernel source"
else
	[ -d "$ksrc" ] || die "KSRC=$ksrc is not a directory"
	ksrc=$(cd "$ksrc" && pwd -P)
	# Our own unpacked tarball, named: the same kernel as without KSRC.
	[ "$ksrc" = "$(cd "$cache/src" && pwd -P)/linux-source-6.12" ] &&
		treeid=$(cat "$ksrc.id" 2>/dev/null)
fi
for f in Makefile Kconfig scripts/kconfig/merge_config.sh "arch/$srcarch/Kconfig"; do
	[ -f "$ksrc/$f" ] || die "KSRC=$ksrc is not a Linux kernel source tree (no $f)"
done
[ ! -e "$ksrc/.config" ] && [ ! -d "$ksrc/include/config" ] &&
	[ ! -d "$ksrc/arch/$srcarch/include/generated" ] ||
	die "KSRC=$ksrc has an in-tree build: run 'make mrproper' there (out-of-tree builds need a clean tree)"
if [ -z "$treeid" ]; then
	if [ "$(git -C "$ksrc" rev-parse --show-toplevel 2>/dev/null)" = "$ksrc" ]; then
		# Commit, uncommitted changes and untracked files.
		treeid=$({
			git -C "$ksrc" rev-parse HEAD
			git -C "$ksrc" --no-optional-locks diff HEAD
			git -C "$ksrc" ls-files -o --exclude-standard -z |
				(cd "$ksrc" && xargs -0r sha256sum)
		} | sha256sum)
	else
		treeid=$(cd "$ksrc" && find . -name .git -prune -o -type f -printf '%P %s %T@\n' |
			LC_ALL=C sort | sha256sum)
	fi
fi
version=$(make -s -C "$ksrc" kernelversion 2>/dev/null) || die "KSRC=$ksrc: 'make kernelversion' failed"
treehash=$({ printf '%s' "$treeid"; cat "${patches[@]}"; } | sha256sum | cut -c1-12)

frags=("$top/kvm/config/base.config" "$top/kvm/config/debug.config")
[ -f "$top/kvm/config/$arch.config" ] && frags+=("$top/kvm/config/$arch.config")
[ -z "$flavour" ] || frags+=("$top/kvm/config/$flavour.config")
# The key is what merge_config.sh makes of the fragments (the last value
# of each option wins), not their text: comments and moves cost no build.
cfghash=$({
	awk '/^CONFIG_/ { split($0, kv, "="); v[kv[1]] = $0 }
		/^# CONFIG_.* is not set$/ { v[$2] = $0 }
		END { for (k in v) print v[k] }' "${frags[@]}" | LC_ALL=C sort
	"${cross}gcc" --version | head -n1	# another compiler is another kernel
	[ -z "$kcov_files" ] || echo "kcov: $kcov_files"
} | sha256sum | cut -c1-12)

key=$arch${flavour:+-$flavour}-$version-$treehash-$cfghash
entry=$cache/kernel/$key
if [ -f "$entry/$iname" ] && [ -f "$entry/vmlinux" ]; then
	echo "build-kernel: cache hit, nothing to build" >&2
	echo "$entry"
	exit 0
fi

# One kernel build at a time on this machine: each takes every CPU, and
# two at once only finish later (a second waits, then finds its entry if
# the first made it). A flavour has objects of its own: switching back
# costs no rebuild. MMFUZZ_BUILD_IDLE=1 is a build ahead of need (the
# suite's, scripts/run-tests.sh): under SCHED_IDLE and idle I/O it gets
# only the time no other task wants, so it leaves the one-build lock to
# the builds somebody waits for; an object directory is one build's.
srcid=$arch${flavour:+-$flavour}-$(printf '%s' "$ksrc" | sha256sum | cut -c1-12)
objdir=$cache/obj/$srcid
mkdir -p "$objdir" "$cache/work"
# hold FILE WHAT: FILE's lock, held until exit; saying so when it waits.
hold() {
	local fd
	exec {fd}>"$1"
	flock -n "$fd" || { echo "build-kernel: waiting for $2 to end" >&2; flock "$fd"; }
}
if [ -n "${MMFUZZ_BUILD_IDLE:-}" ]; then
	chrt -i -p 0 $$ >/dev/null && ionice -c 3 -p $$ || die "cannot make this build idle"
else
	hold "$cache/obj/build.lock" "another kernel build"
fi
hold "$objdir.lock" "the build of the same objects ($srcid)"
if [ -f "$entry/$iname" ]; then
	echo "build-kernel: cache hit (built meanwhile), nothing to build" >&2
	echo "$entry"
	exit 0
fi

work=$("$top/scripts/work-tree.sh" "$ksrc" "$treeid" "$cache/work/$srcid" "${patches[@]}") ||
	die "cannot prepare the tree to build"
log=$objdir/build.log
how="from scratch"
[ -f "$objdir/vmlinux" ] && how="incremental"
kmake=(make -C "$work" O="$objdir" ARCH="$karch" CROSS_COMPILE="$cross" -j"$(nproc)" ${kcovvars[@]+"${kcovvars[@]}"})
start=$(date +%s)
echo "build-kernel: building $key from $ksrc (log: $log)" >&2
{
	echo "# $key from $ksrc"
	echo "# patches: ${patches[*]}"
	echo "# fragments: ${frags[*]}"
	[ -z "$kcov_files" ] || echo "# KCOV also in: $kcov_files"
} >"$log"
# merge_config.sh -n: allnoconfig with the fragments as KCONFIG_ALLCONFIG;
# it warns about every requested value the kernel did not keep. It runs in
# the object directory, through the Makefile kbuild itself puts there, so
# that nothing is written into the source tree.
echo "include $work/Makefile" >"$objdir/Makefile"
(cd "$objdir" && ARCH=$karch CROSS_COMPILE=$cross \
	"$work/scripts/kconfig/merge_config.sh" -n "${frags[@]}") >>"$log" 2>&1 ||
	{ tail -n 20 "$log" >&2; die "merging the config fragments failed, see $log"; }
grep -A2 '^Value requested for' "$log" | grep -v '^--' | sed 's/^/build-kernel: config: /' || true
# A line every 30 s while make runs (a build from scratch takes minutes):
# the time so far and the objects compiled.
"${kmake[@]}" "$iname" vmlinux >>"$log" 2>&1 &
mk=$!
while kill -0 "$mk" 2>/dev/null; do
	for _ in $(seq 30); do
		kill -0 "$mk" 2>/dev/null || break
		sleep 1
	done
	kill -0 "$mk" 2>/dev/null || break
	printf 'build-kernel: [%6ds] %s objects compiled\n' $(( $(date +%s) - start )) \
		"$(grep -c '^  CC ' "$log" || true)" >&2
done
if ! wait "$mk"; then
	grep -E 'error|Error' "$log" | tail -n 10 >&2 || true
	die "kernel build failed, see $log"
fi
secs=$(( $(date +%s) - start ))
echo "# built in ${secs}s on $(nproc) CPUs ($how)" >>"$log"

tmp=$(mktemp -d "$cache/kernel/.tmp-$key.XXXXXX")
cp "$objdir/$image" "$objdir/vmlinux" "$objdir/.config" "$objdir/System.map" "$tmp/" &&
	cp "$log" "$tmp/build.log" &&
	# A kernel with patches of the caller's is never "the newest fuzzing
	# kernel" that campaigns boot by default.
	{ [ ${#extra[@]} -eq 0 ] || cat "${extra[@]}" >"$tmp/patches"; } &&
	{ [ -z "$flavour" ] || echo "$flavour" >"$tmp/flavour"; } &&
	{ [ -z "$kcov_files" ] || echo "$kcov_files" >"$tmp/kcov-files"; } &&
	# What the caller's patches made of the files they touch, for the
	# functions they change (mmfuzz validate).
	sed -n 's|^+++ [^/	]*/\([^	 ]*\).*|\1|p' "${extra[@]}" /dev/null | sort -u |
	while IFS= read -r f; do
		[ ! -f "$work/$f" ] || install -D -m 644 "$work/$f" "$tmp/source/$f" || exit 1
	done && chmod 755 "$tmp" && rm -rf "$entry" && mv -T "$tmp" "$entry" ||
	{ rm -rf "$tmp"; die "cannot store the build in $entry"; }
printf 'build-kernel: built (%s) in %dm%02ds, vmlinux %s MiB\n' "$how" $((secs / 60)) $((secs % 60)) \
	$(( $(stat -c %s "$entry/vmlinux") >> 20 )) >&2
echo "$entry"
exit 0
}
