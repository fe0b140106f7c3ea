#!/bin/bash
# test: parallel
# The crash store through mmfuzz itself: triage add builds a store of three
# bugs, triage list and show read it, and triage html writes a page that
# headless Chromium renders: the table has one row per bug with the right
# title, count, times, arch and reproducer, and every link leads to a file.
. "$(dirname "$0")/lib.sh"

OUT=$TMP/out
S=$OUT/crashes
mkdir -p "$OUT"
touch "$OUT/exec.log"	# a fuzz output directory: triage finds crashes/ in it

cat >"$TMP/kasan.log" <<'EOF'
[   12.345678] ==================================================================
[   12.345679] BUG: KASAN: use-after-free in swap_entry_free+0x1a/0x80
[   12.345680] Read of size 8 at addr ffff888012345678 by task mmfuzz/123
[   12.345681] Call Trace:
[   12.345682]  <TASK>
[   12.345683]  dump_stack_lvl+0x4c/0x70
[   12.345684]  kasan_report+0xb9/0xf0
[   12.345685]  swap_entry_free+0x1a/0x80
[   12.345686]  free_swap_and_cache+0x2c/0x60
[   12.345687]  zap_pte_range+0x3d2/0x9a0
[   12.345688]  </TASK>
[   12.345689] ==================================================================
EOF
printf 'm0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\nmadvise(m0, 0, 16, MADV_FREE)\n' >"$TMP/prog"
echo 'symbolized: swap_entry_free mm/swapfile.c:1234' >"$TMP/sym"
echo 'console around it' >"$TMP/console"
echo 'report text' >"$TMP/r"

# The title comes from the parser; occurrences arrive out of order.
add() { "$MMFUZZ" triage add "$@" >>"$TMP/add.out" || fail "triage add $*"; }
add "$S" --report "$TMP/kasan.log" --progs "$TMP/prog" --log "$TMP/console" --arch x86_64 \
	--kernel '6.1.0-18-amd64 #1 SMP' --time 1700000100
add "$S" --report "$TMP/kasan.log" --progs "$TMP/prog" --sym "$TMP/sym" --arch arm64 \
	--time 1700000000
add "$S" --report "$TMP/kasan.log" --arch x86_64 --time 1700000200
kasan=$(sed -n '1s/^[^ ]*\/report\.0: //; 1s/ (count 1)$//p' "$TMP/add.out")
[[ $kasan == KASAN:*swap_entry_free* ]] || fail "title from the parser: '$kasan'"

# Characters a page must escape, a '/', UTF-8 and a byte that is not UTF-8.
odd=$'WARNING in <b>mm/rmap.c</b> & "q" \'s\' \xc3\xa9 \xff'
add "$S" --report "$TMP/r" --title "$odd" --arch x86_64 --time 1690000000

# Past the keep limit only the count grows; a reproducer as `mmfuzz repro` saves it.
dc='DATA CORRUPTION: zeroed anon page after madvise(MADV_FREE)'
for i in $(seq 12); do
	add "$S" --report "$TMP/r" --progs "$TMP/prog" --title "$dc" --arch x86_64 \
		--time $((1695000000 + i))
done
dcdir=$(ls -d "$S"/DATA_CORRUPTION_zeroed_anon_page_after_madvise_MADV_FREE-*)
cp "$TMP/prog" "$dcdir/repro.prog"
cp "$dcdir/report.0" "$TMP/dc-report.0"

# list: newest last seen first, one line each.
"$MMFUZZ" triage list "$OUT" >"$TMP/list" || fail "triage list"
cat "$TMP/list"
[ "$(wc -l <"$TMP/list")" -eq 3 ] || fail "list: not 3 lines"
awk 'NR == 1 && $1 == 3 && $2 == "2023-11-14T22:16:40Z" && $3 == "none" { ok = 1 } END { exit !ok }' \
	"$TMP/list" || fail "list: first line is not the KASAN bug"
sed -n 2p "$TMP/list" | grep -qF "    12  2023-09-18T01:20:12Z  prog    $dc" || fail "list: second line"
sed -n 3p "$TMP/list" | grep -qF "$odd" || fail "list: third line"

# show: by unique prefix; meta, the newest report and its programs.
"$MMFUZZ" triage show "$OUT" 'KASAN: use' >"$TMP/show" || fail "triage show"
grep -qx 'count: 3' "$TMP/show" && grep -qx 'arch: x86_64 arm64' "$TMP/show" &&
	grep -qx 'first_seen: 2023-11-14T22:13:20Z' "$TMP/show" &&
	grep -qx 'kernel: 6.1.0-18-amd64 #1 SMP' "$TMP/show" && grep -qx 'kept: 0 1 2' "$TMP/show" ||
	{ cat "$TMP/show"; fail "show: meta"; }
grep -q '^--- .*/report\.2 ---$' "$TMP/show" && grep -q 'swap_entry_free+0x1a/0x80' "$TMP/show" ||
	{ cat "$TMP/show"; fail "show: newest report"; }
"$MMFUZZ" triage show "$S" "$dc" >"$TMP/show" || fail "triage show by title"
grep -q '^--- .*/progs\.9 ---$' "$TMP/show" && grep -qx 'kept: 0 1 2 3 4 5 6 7 8 9' "$TMP/show" ||
	{ cat "$TMP/show"; fail "show: programs of the newest kept report"; }

# html: the default page in the store, and one written elsewhere.
"$MMFUZZ" triage html "$OUT" | grep -qx "wrote $S/index.html: 3 bugs" || fail "triage html"
mkdir "$TMP/site"
"$MMFUZZ" triage html "$S" --out "$TMP/site/bugs.html" >/dev/null || fail "triage html --out"

# The rendered table against the store: rows, cells and links.
check_page() {
	render "$1" >"$TMP/dom.html"
	python3 - "$1" "$TMP/dom.html" "$kasan" "$odd" "$dc" <<'EOF' || fail "page $1"
import html.parser, os, sys, urllib.parse

page, dom, kasan, odd, dc = sys.argv[1:6]
odd = os.fsencode(odd).decode('utf-8', 'replace')

class Table(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.cell, self.stack = [], None, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'tr' and a.get('class') == 'bug':
            self.rows.append({'dir': a['data-dir'], 'links': [], 'tags': []})
        elif tag == 'td' and self.rows:
            self.cell = a['class']
            self.rows[-1][self.cell] = ''
        elif tag == 'a' and self.cell:
            self.rows[-1]['links'].append(a['href'])
        elif self.cell == 'title':
            self.rows[-1]['tags'].append(tag)
    def handle_endtag(self, tag):
        if tag == 'td':
            self.cell = None
    def handle_data(self, data):
        if self.cell:
            self.rows[-1][self.cell] += data

t = Table()
t.feed(open(dom, encoding='utf-8').read())
want = [
    (kasan, '3', '2023-11-14T22:13:20Z', '2023-11-14T22:16:40Z', 'x86_64 arm64', 'none'),
    (dc, '12', '2023-09-18T01:20:01Z', '2023-09-18T01:20:12Z', 'x86_64', 'prog'),
    (odd, '1', '2023-07-22T04:26:40Z', '2023-07-22T04:26:40Z', 'x86_64', 'none'),
]
got = [(r['title'], r['count'], r['first'], r['last'], r['arch'], r['repro'].split()[0])
       for r in t.rows]
assert got == want, f'rows: {got!r}\nwant: {want!r}'
# The markup in a title stays text.
assert not t.rows[2]['tags'], t.rows[2]['tags']
for r in t.rows:
    linked = set()
    for href in r['links']:
        path = os.path.normpath(os.path.join(os.path.dirname(page), urllib.parse.unquote(href)))
        assert os.path.isfile(path), f'{href}: no file {path}'
        assert os.path.basename(os.path.dirname(path)) == r['dir'], href
        linked.add(os.path.basename(path))
        bugdir = os.path.dirname(path)
    files = {f for f in os.listdir(bugdir) if f not in ('title', 'meta', 'lock')}
    assert linked == files, f'{r["dir"]}: linked {sorted(linked)}, files {sorted(files)}'
kept = {r['dir']: len([l for l in r['links'] if '/report.' in l and not l.endswith('.sym')])
        for r in t.rows}
assert sorted(kept.values()) == [1, 3, 10], kept
print(f'page {page}: {len(t.rows)} rows, {sum(len(r["links"]) for r in t.rows)} links ok')
EOF
}
check_page "$S/index.html"
check_page "$TMP/site/bugs.html"

# What was saved stays: more occurrences never touch report.0.
add "$S" --report "$TMP/kasan.log" --title "$dc"
cmp -s "$dcdir/report.0" "$TMP/dc-report.0" || fail "report.0 changed"
[ -s "$dcdir/repro.prog" ] || fail "reproducer lost"

# Bad input: one line, non-zero exit.
expect_error() {
	local want=$1 rc=0
	shift
	"$@" >"$TMP/o" 2>"$TMP/e" || rc=$?
	[ $rc -ne 0 ] || fail "'$*' exited 0"
	[ "$(wc -l <"$TMP/e")" -eq 1 ] || { cat "$TMP/e"; fail "'$*': not one line of error"; }
	grep -qF "$want" "$TMP/e" || { cat "$TMP/e"; fail "'$*': error lacks '$want'"; }
}
expect_error 'mmfuzz: triage list: /nonexistent: No such file or directory' \
	"$MMFUZZ" triage list /nonexistent
expect_error "no bug titled 'BUG: nothing like it'" "$MMFUZZ" triage show "$S" 'BUG: nothing like it'
add "$TMP/two" --report "$TMP/r" --title 'BUG: one'
add "$TMP/two" --report "$TMP/r" --title 'BUG: two'
expect_error "'BUG: ' is the start of several titles" "$MMFUZZ" triage show "$TMP/two" 'BUG: '
expect_error 'No such file or directory' "$MMFUZZ" triage html /nonexistent
touch "$TMP/file"
expect_error "cannot write $TMP/file/index.html" "$MMFUZZ" triage html "$S" --out "$TMP/file/index.html"
expect_error 'cannot create' "$MMFUZZ" triage add "$TMP/file/store" --report "$TMP/r" --title x
expect_error 'no kernel report in' "$MMFUZZ" triage add "$S" --report "$TMP/r"
expect_error 'give one crash store directory' "$MMFUZZ" triage list
check_clean
