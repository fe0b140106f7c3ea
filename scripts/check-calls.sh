#!/bin/bash
# The call list's rule (fuzzers/model/calls.def): every call has its piece
# in each layer's file of its family, and no source outside those files
# tests call ids (blocks and comments are structure, not calls).
#
#	scripts/check-calls.sh [TREE]	(default: this checkout)
set -eu
cd "${1:-$(dirname "$0")/..}"

# layer directory under fuzzers/ and the prefix of its per-call pieces
pieces=("model/calls mmf_build_" "exec/calls mmf_exec_" "oracle/rules mmf_rule_"
	"csource/emit mmf_emit_")
def=fuzzers/model/calls.def
[ -f "$def" ] || { echo "calls: no $def" >&2; exit 1; }

bad=0
ids=()
while read -r id fn family; do
	ids+=("MMF_$id")
	for p in "${pieces[@]}"; do
		set -- $p
		f=fuzzers/$1/$family.c
		# A definition, or a macro that defines it (the layer's default,
		# or a row naming the functions of fn).
		if [ ! -f "$f" ] || ! grep -Eq "^[a-z].*\\b$2$fn( =|\\()|^[A-Z_]+\\($fn[,)]" "$f"; then
			echo "calls: $id has no $2$fn in $f"
			bad=1
		fi
	done
done < <(sed -n 's/^MMF_CALL(\([A-Z0-9_]*\), *\([a-z0-9_]*\), *\([a-z]*\),.*/\1 \2 \3/p' "$def")
[ ${#ids[@]} -gt 0 ] || { echo "calls: no MMF_CALL entry in $def" >&2; exit 1; }

# Call ids tested outside the family files: switch cases, comparisons and
# hand-made tables indexed by call.
alt=$(IFS='|'; echo "${ids[*]}")
while IFS= read -r hit; do
	echo "calls: call id tested outside a family's files: $hit"
	bad=1
done < <(grep -rnE "(case +|[!=]= *)($alt)\\b|\\b($alt) *[!=]=|\\[($alt)\\] *=" \
		--include='*.c' --include='*.h' fuzzers stressors |
	grep -Ev "^fuzzers/(model/calls|exec/calls|oracle/rules|csource/emit)/" || true)
[ $bad -eq 0 ] && echo "calls: ok (${#ids[@]} calls)"
exit $bad
