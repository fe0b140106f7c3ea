#!/bin/bash
# test: parallel
# Every command answers -h/--help with its usage (exit 0) and --version
# with the build, refuses an unknown option with one line (exit 2) and a
# bad number with one line (exit 1), before doing anything.
. "$(dirname "$0")/lib.sh"

version=$("$MMFUZZ" --version)
echo "$version" | grep -Eq '^mmfuzz [0-9.]+ \(.+\)$' || fail "--version: '$version'"
cmds=$("$MMFUZZ" --help | awk '/^commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
[ "$(echo "$cmds" | wc -l)" -ge 12 ] || fail "commands listed: $cmds"
for c in $cmds "triage list" "triage show" "triage html" "triage add" "triage parse" \
	"farm jobs" "farm device" "farm collect"; do
	rc=0
	# shellcheck disable=SC2086 # "triage add" is two words
	"$MMFUZZ" $c --help >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ $rc -eq 0 ] && [ ! -s "$TMP/err" ] || fail "$c --help: exit $rc, $(cat "$TMP/err")"
	head -1 "$TMP/out" | grep -q "^usage: mmfuzz $c" || fail "$c --help: $(head -1 "$TMP/out")"
	# shellcheck disable=SC2086
	"$MMFUZZ" $c -h | cmp -s - "$TMP/out" || fail "$c -h differs from --help"
	# shellcheck disable=SC2086
	[ "$("$MMFUZZ" $c --version)" = "$version" ] || fail "$c --version"
	# shellcheck disable=SC2086
	expect_error "unknown option '--frobnicate'" "$MMFUZZ" $c --frobnicate
	rc=0
	# shellcheck disable=SC2086
	"$MMFUZZ" $c --frobnicate >/dev/null 2>&1 || rc=$?
	[ $rc -eq 2 ] || fail "$c --frobnicate: exit $rc, not 2"
done

# Numbers are checked, not read by atoi: one line, exit 1, nothing booted.
for args in "campaign --cpus abc" "campaign --vms 0" "vm --mem 12" "repro --attempts x y" \
	"bench all --runs 1001" "gen --count -1" "fuzz --native --calls 1e3" \
	"stress all --swap-size 0" "triage add $TMP/s --keep nine --report /dev/null" \
	"nightly --tree . --store $TMP/s --vms 0" "bisect --tries x --tree . --good a --bad b ."; do
	rc=0
	# shellcheck disable=SC2086
	"$MMFUZZ" $args >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "is not a number from" "$TMP/err" ||
		fail "$args: exit $rc, $(cat "$TMP/err")"
done
[ ! -e "$TMP/s" ] || fail "a store was made before its options were checked"
expect_error "campaign: --duration 'soon' is not a duration" "$MMFUZZ" campaign --duration soon
check_clean
