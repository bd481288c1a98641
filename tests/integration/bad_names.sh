#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Names that would do harm (issue 35): a gnuplot command hidden in a
# quote, HTML/XML markup, control characters and bytes that are not UTF-8,
# in a results folder's name (which nobody can refuse: it is escaped), in
# a manifest (refused where it enters, exit 3) and in a history database
# (escaped). Every command that writes a report, a plot, a dashboard, a
# database or an export runs on them; nothing may run, every file written
# must be valid (JSON, XML, SVG, HTML, Markdown, UTF-8). The nightly, lava
# fetch and timerlat's S.irq sides: bad_names_imports.sh.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-bad-names.bash"
"$TOP/tests/fixtures/nightly/make-week.py" \
	"$TOP/tests/fixtures/nightly/recorded" "$T/week" >/dev/null
src=$T/week/20261127-020000-quick

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
# The plots' private folder in a TMPDIR of a newline and a byte that is
# not UTF-8, then in the hostile folder: no path is in the script.
for td in "$T/t"$'\n'"mp"$'\xff' "$D/tmp"; do
	rm -rf "$T/cmpt"
	mkdir -p "$td"
	TMPDIR=$td "$RTGATE" compare -q --report html -o "$T/cmpt" \
		"$D/a/cyclictest.json" "$D/b/cyclictest.json" >/dev/null 2>&1
	nothing_ran "compare with such a TMPDIR"
	check "... the plots drawn all the same" -- \
		grep -q "<svg" "$T/cmpt/report.html"
	is "$(find "$td" -mindepth 1 | wc -l)" 0 "... its private folder gone"
done
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
# The dashboard's script names its data and its SVG by path: --out too.
check "dashboard --out a hostile folder" -- \
	"$RTGATE" dashboard --db "$T/db/h.db" --out "$D/dash"
nothing_ran "dashboard --out a hostile folder"
valid_outputs "that dashboard: every file valid" "$D/dash"

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
