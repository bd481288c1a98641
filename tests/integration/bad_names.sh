#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Names that would do harm (issue 35): a gnuplot command hidden in a
# quote, HTML/XML markup, control characters and bytes that are not UTF-8,
# in a results folder's name (which nobody can refuse: it is escaped), in
# a manifest (refused where it enters, exit 3) and in a history database
# (escaped). Every command that writes a report, a plot, a dashboard, a
# database or an export runs on them; nothing may run, every file written
# must be valid (JSON, XML, SVG, HTML, UTF-8).
source "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3
PWNED=$T/PWNED
H="x'; system \"touch $PWNED\"; print '"
# A '|' and a newline break Markdown tables; [x](y) is a link.
BAD="$H <pwned>&amp; \"q\" |x|"$'\n''| [y](javascript:z)'$'\x01\xff\xfe'
"$TOP/tests/fixtures/nightly/make-week.py" \
	"$TOP/tests/fixtures/nightly/recorded" "$T/week" >/dev/null
src=$T/week/20261127-020000-quick

# Every file below DIR: UTF-8; JSON parses; XML and SVG are well-formed;
# HTML has no element the input named (<pwned>) and no parse error; in
# HTML and SVG every id is unique and every #reference finds its element
# (inlined plots, names alike once made safe); a Markdown table keeps its
# columns in every row and no name becomes markup.
valid_outputs() {	# valid_outputs DESCRIPTION DIR...
	local desc=$1
	shift
	$PY - "$@" <<'EOF' >"$T/valid.log" 2>&1
import collections, html.parser, json, os, re, subprocess, sys
bad = []
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = collections.Counter()
        self.refs = []
    def handle_starttag(self, tag, attrs):
        if tag == "pwned":
            bad.append(self.name + ": a <pwned> from a name")
        for k, v in attrs:
            if k == "id":
                self.ids[v] += 1
            elif k in ("href", "xlink:href") and v and v.startswith("#"):
                self.refs.append(v[1:])
    handle_startendtag = handle_starttag
    def check_ids(self):
        for i, n in self.ids.items():
            if n > 1:
                bad.append("%s: id %r %d times" % (self.name, i, n))
                break
        for r in self.refs:
            if r not in self.ids:
                bad.append("%s: #%s refers to no element" % (self.name, r))
                break
# A pipe not escaped by a backslash ends a Markdown table cell.
PIPE = re.compile(r"(?<!\\)(?:\\\\)*\|")
# Code spans and fenced blocks are literal: markup counts outside them.
SPAN = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)")
def check_md(name, text):
    fence, prose = None, []
    for line in text.splitlines():
        m = re.match(r"^(`{3,})\s*$", line)
        if fence and m and len(m.group(1)) >= len(fence):
            fence = None
        elif not fence and m:
            fence = m.group(1)
        elif not fence:
            prose.append(SPAN.sub("", line))
    prose = "\n".join(prose)
    if re.search(r"(?<!\\)<pwned", prose):
        bad.append(name + ": a raw <pwned> from a name")
    if re.search(r"(?<!\\)\[y\]\(javascript", prose):
        bad.append(name + ": a link from a name")
    cols = None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.startswith("|"):
            cols = None
            continue
        k = len(PIPE.findall(line))
        if cols is None:
            cols = k
        elif k != cols:
            bad.append("%s:%d: %d cells in a table of %d" % (name, n, k - 1,
                                                               cols - 1))
            break
for top in sys.argv[1:]:
    for d, _, files in os.walk(os.fsencode(top)):
        for f in files:
            path = os.path.join(d, f)
            name = path.decode("utf-8", "replace")
            data = open(path, "rb").read()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as e:
                bad.append(name + ": not UTF-8: " + str(e))
                continue
            if f.endswith(b".json"):
                try:
                    json.loads(text)
                except ValueError as e:
                    bad.append(name + ": not JSON: " + str(e))
            elif f.endswith((b".xml", b".svg")):
                r = subprocess.run(["xmllint", "--noout", path],
                                   capture_output=True)
                if r.returncode:
                    bad.append(name + ": " + r.stderr.decode("utf-8", "replace"))
                if f.endswith(b".svg"):
                    p = P()
                    p.name = name
                    p.feed(text)
                    p.check_ids()
            elif f.endswith(b".md"):
                check_md(name, text)
            elif f.endswith(b".html"):
                p = P()
                p.name = name
                p.feed(text)
                p.check_ids()
                r = subprocess.run(["xmllint", "--html", "--noout", path],
                                   capture_output=True)
                # libxml2 knows no HTML5 tags; duplicate ids of inlined
                # SVGs are validity, not well-formedness.
                errs = [l for l in r.stderr.decode("utf-8", "replace").splitlines()
                        if "error" in l and "invalid" not in l
                        and "validity error" not in l]
                if errs:
                    bad.append(name + ": " + errs[0])
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
	local rc=$?
	[ $rc -eq 0 ] || diag "$(head -5 "$T/valid.log")"
	ok $rc "$desc"
}
nothing_ran() {	# nothing_ran DESCRIPTION
	[ ! -e "$PWNED" ]
	ok $? "$1: nothing ran"
	rm -f "$PWNED"
}
command -v xmllint >/dev/null || { skip "xmllint not installed" "bad names"; done_testing; }

# ---- a results folder with such a name: escaped everywhere ----------------
D=$T/$BAD
mkdir -p "$D/a" "$D/b"
cp -r "$src" "$D/run"
"$RTGATE" report -q --report all "$D/run" >/dev/null 2>&1
rc=$?
ok $((rc > 2)) "report of a run in a hostile folder judges it (exit $rc)"
nothing_ran "report --report all"
valid_outputs "report: every file valid" "$D/run"

# Two inputs named alike: compare names them by their paths.
cp "$src/idle/1/cyclictest.json" "$D/a/"
cp "$src/hackbench/1/cyclictest.json" "$D/b/"
"$RTGATE" compare -q --report all -o "$T/cmp" "$D/a/cyclictest.json" \
	"$D/b/cyclictest.json" >/dev/null 2>&1
rc=$?
ok $((rc > 2)) "compare of two files in it (exit $rc)"
nothing_ran "compare --report all"
valid_outputs "compare: every file valid" "$T/cmp"
check "the plots were drawn (the names are in them, quoted)" -- \
	grep -q "<svg" "$T/cmp/report.html"
cp -r "$src" "$D/run2"
"$RTGATE" compare -q --report all -o "$T/cmp2" "$D/run" "$D/run2" \
	>/dev/null 2>&1
rc=$?
ok $((rc > 2)) "compare of two runs in it (exit $rc)"
nothing_ran "compare RUN RUN"
valid_outputs "compare RUN RUN: every file valid" "$T/cmp2"
mkdir -p "$T/cj"
"$RTGATE" compare --json "$D/run:idle" "$D/run:hackbench" \
	>"$T/cj/out.json" 2>/dev/null
nothing_ran "compare --json"
valid_outputs "compare --json: stdout is JSON" "$T/cj"

mkdir -p "$T/db" "$T/exp"
check "history import of it" -- "$RTGATE" history import --db "$T/db/h.db" \
	"$D/run" "$T/week"
"$RTGATE" export kcidb -o "$T/exp/k.json" "$D/run" >/dev/null 2>&1
is "$?" 0 "export kcidb of it"
"$RTGATE" export kcidb "$D/run" >"$T/exp/k-stdout.json" 2>/dev/null
"$RTGATE" lava report --print "$D/run" >"$T/exp/lava.txt" 2>/dev/null
ok $(($? > 2)) "lava report of it"
nothing_ran "exports"
valid_outputs "exports: every file valid" "$T/exp"
check "dashboard" -- "$RTGATE" dashboard --db "$T/db/h.db" --out "$T/dash"
nothing_ran "dashboard"
valid_outputs "dashboard: every file valid" "$T/dash"

# ---- the same names in a history database: escaped ------------------------
$PY - "$T/db/h.db" "$BAD" <<'EOF'
import sqlite3, sys
bad = sys.argv[2].encode("utf-8", "surrogateescape")
db = sqlite3.connect(sys.argv[1])
db.text_factory = bytes
t = "CAST(? AS TEXT)"	# text, not a blob: bytes as any writer left them
db.execute("UPDATE runs SET suite = %s, host = %s, kernel_release = %s,"
           " kernel_version = %s, run_id = run_id || %s" % ((t,) * 5),
           (bad,) * 5)
db.execute("UPDATE scenarios SET name = %s WHERE name = 'hackbench'" % t,
           (bad,))
# Another name that is the same once made safe for a file name and an id.
db.execute("UPDATE scenarios SET name = %s WHERE name = 'idle'" % t,
           (bad.replace(b"<", b">"),))
db.execute("UPDATE verdicts SET verdict = %s, metric = %s, reason = %s"
           % ((t,) * 3), (bad,) * 3)
db.commit()
EOF
"$RTGATE" dashboard --db "$T/db/h.db" --out "$T/dash2" >/dev/null 2>&1
nothing_ran "dashboard of a database holding such names"
valid_outputs "that dashboard: every file valid" "$T/dash2"
check "... and it drew the plots" -- bash -c "ls '$T/dash2'/*.svg >/dev/null"
# Two scenarios whose names sanitise alike: two plots, two files, two ids.
nplots=$(grep -c '<section class="plot"' "$T/dash2/index.html")
is "$(grep -o '<img src="[^"]*"' "$T/dash2/index.html" | sort -u | wc -l)" \
	"$nplots" "names alike once sanitised: each plot its own SVG"
is "$(ls "$T/dash2"/*.svg | wc -l)" "$nplots" "... and each SVG its own file"
"$RTGATE" history list --db "$T/db/h.db" >/dev/null 2>&1
nothing_ran "history list"

# ---- the same names in a manifest: refused where they enter ---------------
for field in '.scenarios[1].name' '.suite.name' '.host.hostname' '.run_id'; do
	rm -rf "$T/m"
	cp -r "$src" "$T/m"
	jq --arg b "$H <pwned>" "$field = \$b" "$src/manifest.json" \
		>"$T/m/manifest.json"
	"$RTGATE" report -q --report all "$T/m" >/dev/null 2>"$T/m.err"
	is "$?" 3 "report: $field with a quote and markup, exit 3"
	check "... the file and the field named" -- \
		grep -qF "m/manifest.json: ${field#.}" "$T/m.err"
	"$RTGATE" history import --db "$T/db/m.db" "$T/m" >/dev/null 2>&1
	is "$?" 3 "history import: $field refused, exit 3"
	"$RTGATE" export kcidb -o "$T/m.json" "$T/m" >/dev/null 2>&1
	is "$?" 3 "export kcidb: $field refused, exit 3"
	"$RTGATE" lava report --print "$T/m" >"$T/m.lava" 2>/dev/null
	is "$?" 3 "lava report: $field refused, exit 3"
	check "... with no case printed" -- test ! -s "$T/m.lava"
	nothing_ran "manifest $field"
	check "no report written" -- test ! -e "$T/m/report.json"
done
# A name that is not UTF-8, in any string of the manifest.
rm -rf "$T/m"
cp -r "$src" "$T/m"
sed 's/"idle"/"id\xffle"/' "$src/manifest.json" >"$T/m/manifest.json"
"$RTGATE" report -q "$T/m" >/dev/null 2>"$T/m.err"
is "$?" 3 "a manifest string that is not UTF-8: exit 3"
check "... the field named" -- grep -q "manifest.json: .*not UTF-8" "$T/m.err"

done_testing
