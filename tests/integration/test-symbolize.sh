#!/bin/bash
# test: parallel
# mmfuzz symbolize gives every frame of a report its source line and the
# functions inlined there. No kernel is built: a small program plays the
# vmlinux, a relocatable object built with -ffunction-sections plays a
# module (every function at offset 0 of its own section, so a lookup
# outside the right section gives the wrong function), an arm64 build of
# the program is read with the cross binutils, and the expected lines come
# from markers in the sources.
. "$(dirname "$0")/lib.sh"

S=$TMP/src
mkdir -p "$S/inc" "$TMP/k" "$TMP/modsrc" "$TMP/mods/kernel/drivers" "$TMP/mods/extra/sub" \
	"$TMP/bin" "$TMP/ktree/init" "$TMP/ktree/mm"

cat >"$S/inc/helper.h" <<'EOF'
int leaf(int x);
static inline __attribute__((always_inline)) int helper(int x)
{
	return leaf(x + 1) + 1;	/* HELPER_CALL */
}
EOF
cat >"$S/t.c" <<'EOF'
#include "inc/helper.h"
__attribute__((noipa)) int leaf(int x) { asm volatile("" ::: "memory"); return x * 3; } /* LEAF */
__attribute__((noipa)) int middle(int x)
{
	return helper(x) * 2;	/* MIDDLE_CALL */
}
__attribute__((noipa)) int top(int x)
{
	int a = middle(x);	/* TOP_CALL1 */
	int b = leaf(a);	/* TOP_CALL2 */
	return a + b;
}
int main(int argc, char **argv) { (void)argv; return top(argc); }
EOF
cat >"$TMP/modsrc/mymod.c" <<'EOF'
int mod_leaf(int x);
static inline __attribute__((always_inline)) int mod_helper(int x)
{
	return mod_leaf(x ^ 5) + 7;	/* MOD_HELPER_CALL */
}
__attribute__((noipa)) int mod_leaf(int x) { asm volatile("" ::: "memory"); return x + 2; }
__attribute__((noipa)) int mod_entry(int x)
{	/* MOD_ENTRY: gcc gives the function's first instruction this line */
	return mod_helper(x) * 3;	/* MOD_ENTRY_CALL */
}
EOF
(cd "$S" && gcc -g -O2 t.c -o "$TMP/k/vmlinux")
(cd "$TMP/modsrc" &&
	gcc -g -O2 -ffunction-sections -c mymod.c -o "$TMP/mods/kernel/drivers/mymod.ko")
cp "$TMP/mods/kernel/drivers/mymod.ko" "$TMP/mods/extra/sub/other-mod.ko"

line_of() {
	grep -n "$2" "$1" | cut -d: -f1
}

hex() {
	printf '0x%x' "$1"
}

size_of() {
	hex "$((16#$(${CROSS:-}nm -S "$1" | awk -v s="$2" '$4 == s { print $2 }')))"
}

# "CALL RET": offsets in function $2 of its first call and of the
# instruction after it, the return address a stack trace shows.
call_offsets() {
	local a rest start="" call=""

	while read -r a rest; do
		if [[ $a =~ ^[0-9a-f]+$ && $rest == "<$2>:" ]]; then
			start=$((16#$a))
		elif [[ -n $start && $a =~ ^[0-9a-f]+:$ ]]; then
			a=$((16#${a%:}))
			if [ -n "$call" ]; then
				echo "$(hex $((call - start))) $(hex $((a - start)))"
				return
			fi
			[[ $rest == call* || $rest == bl[[:space:]]* ]] && call=$a
		fi
	done < <(${CROSS:-}objdump -d --no-show-raw-insn --disassemble="$2" "$1")
	fail "no call in $2"
}

V=$TMP/k/vmlinux
M=$TMP/mods/kernel/drivers/mymod.ko
read -r TOP_CALL TOP_RET < <(call_offsets "$V" top)
read -r MID_CALL MID_RET < <(call_offsets "$V" middle)
read -r _ MOD_RET < <(call_offsets "$M" mod_entry)
TOP_SIZE=$(size_of "$V" top)
MID_SIZE=$(size_of "$V" middle)
LEAF_SIZE=$(size_of "$V" leaf)
MOD_SIZE=$(size_of "$M" mod_entry)
L_HELPER=$(line_of "$S/inc/helper.h" HELPER_CALL)
L_MIDDLE=$(line_of "$S/t.c" MIDDLE_CALL)
L_TOP1=$(line_of "$S/t.c" TOP_CALL1)
L_LEAF=$(line_of "$S/t.c" '/\* LEAF')
L_MODH=$(line_of "$TMP/modsrc/mymod.c" MOD_HELPER_CALL)
L_MODE=$(line_of "$TMP/modsrc/mymod.c" MOD_ENTRY_CALL)
L_MODDEF=$(line_of "$TMP/modsrc/mymod.c" 'MOD_ENTRY:')

P='[  100.000005][ T4242]'
cat >"$TMP/x86.txt" <<EOF
[  100.000001][ T4242] BUG: unable to handle page fault for address: ffff888000000000
[  100.000002][ T4242] RIP: 0010:top+$TOP_CALL/$TOP_SIZE
[  100.000003][ T4242] Call Trace:
[  100.000004][ T4242]  <TASK>
$P  middle+$MID_RET/$MID_SIZE
$P  ? top+$TOP_RET/$TOP_SIZE
$P  ? middle+$MID_RET/$MID_SIZE
$P  [<ffffffff81234567>] top+$TOP_RET/$TOP_SIZE
$P  nosuch_func+0x10/0x20
$P  ? nosuch_other+0x10/0x20
$P  mod_entry+$MOD_RET/$MOD_SIZE [mymod]
$P  mod_entry+$MOD_RET/$MOD_SIZE [other_mod]
$P  mod_entry+$MOD_RET/$MOD_SIZE [mymod 0123456789abcdef]
$P  </TASK>
[  100.000006][ T4242] Modules linked in: mymod other_mod
EOF
cat >"$TMP/arm64.txt" <<EOF
pc : top+$TOP_CALL/$TOP_SIZE
lr : top+$TOP_RET/$TOP_SIZE
pc : mod_entry+0x0/$MOD_SIZE [mymod]
pc : middle+$MID_CALL/$MID_SIZE
Call trace:
 leaf+0x0/$LEAF_SIZE (P)
 middle+$MID_RET/$MID_SIZE
EOF

# Wrappers record every binutils process the symbolizer starts.
for t in addr2line nm readelf; do
	printf '#!/bin/sh\necho "%s $*" >>"%s"\nexec %s "$@"\n' "$t" "$TMP/calls" "$t" >"$TMP/bin/$t"
	chmod +x "$TMP/bin/$t"
done

sym() {
	"$MMFUZZ" symbolize --cross "$TMP/bin/" "$@" >"$TMP/out" 2>"$TMP/err" ||
		{ cat "$TMP/err"; fail "symbolize $* exited $?"; }
}

has() {
	grep -qxF -- "$1" "$TMP/out" || { cat "$TMP/out"; fail "no line '$1'"; }
}

# $1 immediately followed by $2
has_pair() {
	awk -v a="$1" -v b="$2" 'prev == a && $0 == b { ok = 1 } { prev = $0 } END { exit !ok }' \
		"$TMP/out" || { cat "$TMP/out"; fail "no line '$1' followed by '$2'"; }
}

sym --vmlinux "$V" --modules "$TMP/mods" "$TMP/x86.txt"
cat "$TMP/out" "$TMP/err"
has "[  100.000002][ T4242] RIP: 0010:top+$TOP_CALL/$TOP_SIZE t.c:$L_TOP1"
has_pair "$P  helper inc/helper.h:$L_HELPER [inline]" "$P  middle+$MID_RET/$MID_SIZE t.c:$L_MIDDLE"
# a return address is looked up one byte early: the call, not the line after
raw=$(printf '0x%x\n' $((16#$(nm "$V" | awk '$3 == "top" { print $1 }') + TOP_RET)) |
	addr2line -e "$V")
[ "${raw##*:}" != "$L_TOP1" ] || fail "test program: top's return address is on the call's line"
has "$P  ? top+$TOP_RET/$TOP_SIZE t.c:$L_TOP1"
has_pair "$P  ? helper inc/helper.h:$L_HELPER [inline]" \
	"$P  ? middle+$MID_RET/$MID_SIZE t.c:$L_MIDDLE"
has "$P  [<ffffffff81234567>] top+$TOP_RET/$TOP_SIZE t.c:$L_TOP1"
has "$P  nosuch_func+0x10/0x20"
has "$P  ? nosuch_other+0x10/0x20"
has_pair "$P  mod_helper mymod.c:$L_MODH [inline]" \
	"$P  mod_entry+$MOD_RET/$MOD_SIZE mymod.c:$L_MODE [mymod]"
has "$P  mod_entry+$MOD_RET/$MOD_SIZE mymod.c:$L_MODE [other_mod]"
has "$P  mod_entry+$MOD_RET/$MOD_SIZE mymod.c:$L_MODE [mymod 0123456789abcdef]"
# nothing else changed: without the added lines and locations it is the input
sed -E '/ \[inline\]$/d; s# (inc/)?[a-z]+\.[ch]:[0-9]+##' "$TMP/out" | diff - "$TMP/x86.txt" ||
	fail "lines other than frames changed"
[ "$(grep -c 'unknown symbols' "$TMP/err")" -eq 1 ] || fail "unknown symbols not noted once"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "notes other than the unknown symbols"
# the symbolized report keeps its title
[ "$("$MMFUZZ" triage parse "$TMP/out")" = "$("$MMFUZZ" triage parse "$TMP/x86.txt")" ] ||
	fail "symbolized report has another title"

sym --vmlinux "$V" --modules "$TMP/mods" - <"$TMP/arm64.txt"
cat "$TMP/out"
has "pc : top+$TOP_CALL/$TOP_SIZE t.c:$L_TOP1"
has "lr : top+$TOP_RET/$TOP_SIZE t.c:$L_TOP1"
# at offset 0 of its section, where mod_leaf's section starts too
has "pc : mod_entry+0x0/$MOD_SIZE mymod.c:$L_MODDEF [mymod]"
# an exact pc inside an inlined call: the inlined function's line first
has_pair "pc : helper inc/helper.h:$L_HELPER [inline]" \
	"pc : middle+$MID_CALL/$MID_SIZE t.c:$L_MIDDLE"
has " leaf+0x0/$LEAF_SIZE t.c:$L_LEAF (P)"
has_pair " helper inc/helper.h:$L_HELPER [inline]" " middle+$MID_RET/$MID_SIZE t.c:$L_MIDDLE"

# A real arm64 object, read by the cross binutils (--cross); no libc needed.
A=$TMP/k/vmlinux-arm64
(cd "$S" && aarch64-linux-gnu-gcc -g -O2 -nostdlib -ffreestanding -Wl,-e,main t.c -o "$A")
CROSS=aarch64-linux-gnu-
read -r A_TOP_CALL A_TOP_RET < <(call_offsets "$A" top)
read -r _ A_MID_RET < <(call_offsets "$A" middle)
A_TOP_SIZE=$(size_of "$A" top)
A_MID_SIZE=$(size_of "$A" middle)
CROSS=
printf 'pc : top+%s/%s\nlr : top+%s/%s\nCall trace:\n middle+%s/%s\n' "$A_TOP_CALL" \
	"$A_TOP_SIZE" "$A_TOP_RET" "$A_TOP_SIZE" "$A_MID_RET" "$A_MID_SIZE" >"$TMP/a64.txt"
sym --cross aarch64-linux-gnu- --vmlinux "$A" "$TMP/a64.txt"
cat "$TMP/out"
has "pc : top+$A_TOP_CALL/$A_TOP_SIZE t.c:$L_TOP1"
has "lr : top+$A_TOP_RET/$A_TOP_SIZE t.c:$L_TOP1"
has_pair " helper inc/helper.h:$L_HELPER [inline]" " middle+$A_MID_RET/$A_MID_SIZE t.c:$L_MIDDLE"

# An explicit base path; module frames without a modules directory stay.
sym --vmlinux "$V" --basepath "$TMP/" "$TMP/x86.txt"
has "$P  middle+$MID_RET/$MID_SIZE src/t.c:$L_MIDDLE"
has "$P  helper src/inc/helper.h:$L_HELPER [inline]"
has "$P  mod_entry+$MOD_RET/$MOD_SIZE [mymod]"
grep -q "module mymod: no mymod.ko under $TMP/k" "$TMP/err" ||
	{ cat "$TMP/err"; fail "no module note"; }

# A kernel-like tree built elsewhere with absolute paths: the base path is
# guessed from kernel_init's init/main.c, as decode_stacktrace.sh does.
cat >"$TMP/ktree/init/main.c" <<'EOF'
int handle_mm_fault(int x);
__attribute__((noipa)) int kernel_init(int x) { return handle_mm_fault(x) + 1; }
int main(int argc, char **argv) { (void)argv; return kernel_init(argc); }
EOF
cat >"$TMP/ktree/mm/memory.c" <<'EOF'
__attribute__((noipa)) int do_swap_page(int x) { asm volatile("" ::: "memory"); return x - 1; }
__attribute__((noipa)) int handle_mm_fault(int x)
{
	return do_swap_page(x) * 5;	/* FAULT_CALL */
}
EOF
(cd / && gcc -g -O2 "$TMP/ktree/init/main.c" "$TMP/ktree/mm/memory.c" -o "$TMP/kvmlinux")
read -r _ F_RET < <(call_offsets "$TMP/kvmlinux" handle_mm_fault)
F_SIZE=$(size_of "$TMP/kvmlinux" handle_mm_fault)
echo " handle_mm_fault+$F_RET/$F_SIZE" >"$TMP/k.txt"
sym --vmlinux "$TMP/kvmlinux" "$TMP/k.txt"
has " handle_mm_fault+$F_RET/$F_SIZE mm/memory.c:$(line_of "$TMP/ktree/mm/memory.c" FAULT_CALL)"

# Without debug info every line stays, and the note says why, once.
strip --strip-debug -o "$TMP/k/vmlinux.nodebug" "$V"
sym --vmlinux "$TMP/k/vmlinux.nodebug" "$TMP/x86.txt"
cmp -s "$TMP/out" "$TMP/x86.txt" || fail "lines changed without debug info"
grep -q 'has no debug info' "$TMP/err" || { cat "$TMP/err"; fail "no debug info note"; }
[ "$(grep -c 'vmlinux.nodebug has no debug info' "$TMP/err")" -eq 1 ] ||
	fail "debug info note not once"

# A vmlinux given but unusable is an error of one line.
expect_error() {
	local want=$1 rc=0
	shift
	"$MMFUZZ" symbolize "$@" >/dev/null 2>"$TMP/e" || rc=$?
	[ $rc -eq 1 ] || fail "'$*' exited $rc"
	[ "$(wc -l <"$TMP/e")" -eq 1 ] || { cat "$TMP/e"; fail "'$*': not one line of error"; }
	grep -q "$want" "$TMP/e" || { cat "$TMP/e"; fail "'$*': error lacks '$want'"; }
}
expect_error "vmlinux $TMP/none: No such file" --vmlinux "$TMP/none" "$TMP/x86.txt"
expect_error "not an ELF file" --vmlinux "$TMP/x86.txt" "$TMP/x86.txt"
expect_error "modules $TMP/x86.txt: Not a directory" --vmlinux "$V" --modules "$TMP/x86.txt" \
	"$TMP/x86.txt"

# 40 frames: one nm and one addr2line per object (the module: per section).
for i in $(seq 10); do
	echo "$P  middle+$MID_RET/$MID_SIZE"
	echo "$P  ? top+$TOP_RET/$TOP_SIZE"
	echo "$P  leaf+0x1/$LEAF_SIZE"
	echo "$P  mod_entry+$MOD_RET/$MOD_SIZE [mymod]"
done >"$TMP/40.txt"
rm -f "$TMP/calls"
start=$(date +%s%N)
sym --vmlinux "$V" --modules "$TMP/mods" "$TMP/40.txt"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "INFO: 40-frame report symbolized in $ms ms"
cat "$TMP/calls"
[ "$(grep -cE '\.[ch]:[0-9]+( \[mymod\])?$' "$TMP/out")" -eq 40 ] || fail "not 40 frames symbolized"
[ "$(grep -c '^addr2line ' "$TMP/calls")" -eq 2 ] || fail "not one addr2line per object"
[ "$(grep -c '^nm ' "$TMP/calls")" -eq 2 ] || fail "not one nm per object"
[ "$ms" -lt 5000 ] || fail "40 frames took $ms ms"
check_clean
