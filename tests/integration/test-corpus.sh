#!/bin/bash
# test: host
# Every corpus program runs natively with no report, and its effect shows:
# programs that page out see pages swapped, and pswpout grows.
. "$(dirname "$0")/lib.sh"

out0=$(vmstat pswpout)
for f in corpus/*.mmf; do
	before=$(vmstat pswpout)
	if ! "$MMFUZZ" exec --native --quiet "$f" >"$TMP/out" 2>&1; then
		cat "$TMP/out"
		fail "$f: exit status not 0 (a report or an error)"
	fi
	line=$(head -n 1 "$TMP/out")
	echo "$line"
	case "$line" in
	*": ok, "*) ;;
	*) fail "$f: program did not finish: $line" ;;
	esac
	# Locked and long-term pinned (io_uring fixed buffer) pages are not
	# paged out: only the other programs must swap.
	if grep -q 'MADV_PAGEOUT' "$f" && ! grep -Eq 'mlock|uring_register' "$f"; then
		# pagemap shows swap entries of anonymous pages only; shmem's
		# pageout shows in pswpout.
		swapped=$(sed -n 's/.* \([0-9]*\) pages seen swapped.*/\1/p' <<<"$line")
		[ "${swapped:-0}" -gt 0 ] || [ "$(vmstat pswpout)" -gt "$before" ] ||
			fail "$f: pages out but nothing reached swap"
	fi
done
out1=$(vmstat pswpout)
echo "INFO: pswpout grew by $((out1 - out0)) over the corpus"
[ "$out1" -gt "$out0" ] || fail "pswpout did not grow"
check_clean
