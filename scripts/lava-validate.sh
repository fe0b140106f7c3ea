#!/bin/sh
# Check LAVA job definitions against LAVA's own schema (lava-common's
# validator, the one lava-server runs on submission), strictly:
#
#   scripts/lava-validate.sh JOB.yaml...
#
# One line per file; exit 1 at the first that is not valid.
set -eu
[ $# -gt 0 ] || { echo "usage: $0 JOB.yaml..." >&2; exit 2; }
exec /usr/bin/python3 - "$@" <<'PY'
import sys
import yaml
from lava_common.schemas import validate

for path in sys.argv[1:]:
    try:
        with open(path) as f:
            validate(yaml.safe_load(f), strict=True)
    except Exception as e:
        print(f"{path}: not a valid LAVA job: {e}", file=sys.stderr)
        sys.exit(1)
    print(f"{path}: valid")
PY
