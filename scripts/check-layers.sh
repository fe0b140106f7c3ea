#!/bin/bash
# The layering rule: each layer includes only headers of the layers it may
# use. A lower layer that reaches up fails the check.
set -eu
cd "$(dirname "$0")/.."

declare -A allowed=(
	[runtime]="runtime"
	[util]="util"
	[model]="model util"
	[report]="report util"
	[oracle]="oracle model report runtime util"
	[csource]="csource oracle model runtime util"
	[sys]="sys util"
	[store]="store report util"
	[exec]="exec cover oracle model runtime util"
	[repro]="repro model util"
	[symbolize]="symbolize report util"
	[cover]="cover symbolize report util"
	[fuzz]="fuzz cover csource exec repro bench oracle model runtime sys store report symbolize util stressors"
	[vm]="vm util"
	[campaign]="campaign cover csource vm store report symbolize repro model util"
	[stressors]="stressors sys util"
	[bench]="bench sys util"
	[validate]="validate cover campaign bench vm store report repro symbolize model util"
	[nightly]="nightly cover campaign vm store report symbolize repro model util"
	[farm]="farm nightly campaign vm store report symbolize util"
	[afl]="afl model util"
	[cmd]="cmd cover farm nightly csource validate bench vm campaign fuzz exec repro oracle model sys store report symbolize util stressors"
)

bad=0
for f in fuzzers/*/*.[ch] fuzzers/*/*/*.[ch] stressors/*.[ch]; do
	[ -e "$f" ] || continue
	layer=${f#fuzzers/}
	layer=${layer%%/*}
	[ "${f#stressors/}" = "$f" ] || layer=stressors
	while read -r inc; do
		dep=${inc%%/*}
		case " ${allowed[$layer]:-} " in
		*" $dep "*) ;;
		*) echo "layering: $f includes $inc ($layer may use: ${allowed[$layer]:-nothing})"
		   bad=1 ;;
		esac
	done < <(sed -n 's/^#include "\([^"]*\/[^"]*\)".*/\1/p' "$f")
done
[ $bad -eq 0 ] && echo "layers: ok"
exit $bad
