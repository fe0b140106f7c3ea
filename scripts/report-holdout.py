#!/usr/bin/env python3
"""Title accuracy on reports the parser was not tuned on.

    scripts/report-holdout.py SYZKALLER_CHECKOUT [MMFUZZ]

Every file of syzkaller's pkg/report/testdata/linux/report/ that
tests/data/kernel-reports/ does not hold (same name and bytes) is a held-out
case: its console log goes through 'mmfuzz triage parse --json' and the
first report's title is compared with the file's TITLE (no TITLE: no report
wanted). Prints the share exact and each miss. Nothing is copied.
"""
import json
import os
import subprocess
import sys

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
src = os.path.join(sys.argv[1], 'pkg/report/testdata/linux/report')
mmfuzz = sys.argv[2] if len(sys.argv) > 2 else os.path.join(top, 'build/mmfuzz')
ours = os.path.join(top, 'tests/data/kernel-reports')
misses, total = [], 0
for name in sorted(os.listdir(src)):
    data = open(os.path.join(src, name), 'rb').read()
    mine = os.path.join(ours, name)
    if os.path.exists(mine) and open(mine, 'rb').read() == data:
        continue
    head, _, log = data.partition(b'\n\n')
    want = None
    for line in head.split(b'\n'):
        if line.startswith(b'TITLE: '):
            want = line[7:].decode('utf-8', 'replace')
    log = log.split(b'\nREPORT:\n')[0]
    out = subprocess.run([mmfuzz, 'triage', 'parse', '--json', '-'], input=log,
                         capture_output=True).stdout.decode('utf-8', 'replace')
    got = next((json.loads(l)['title'] for l in out.splitlines() if l.strip()), None)
    total += 1
    if got != want:
        misses.append((name, want, got))
print(f'report-holdout: {total - len(misses)} of {total} titles exact '
      f'({100 * (total - len(misses)) / max(total, 1):.1f}%)')
for name, want, got in misses:
    print(f'  {name}: want {want!r}, got {got!r}')
