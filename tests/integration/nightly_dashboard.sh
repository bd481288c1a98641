#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# rtgate dashboard over the recorded week: gnuplot SVGs per scenario, the
# step marked, every point a link to its run; rendered by headless
# Chromium, which must load every plot.
source "$(dirname "$0")/../lib.sh"
W=$T/week
DB=$T/rtgate.db
"$TOP/tests/fixtures/nightly/make-week.py" \
	"$TOP/tests/fixtures/nightly/recorded" "$W" >/dev/null
"$RTGATE" history import --db "$DB" "$W" >/dev/null
check "rtgate dashboard" -- "$RTGATE" dashboard --db "$DB" --out "$T/dash"
S=$T/dash/quick--$(hostname)--idle.svg
for s in idle hackbench; do
	f=$T/dash/quick--vm--$s.svg
	[ -f "$f" ] || f=$(ls "$T"/dash/quick--*--$s.svg 2>/dev/null | head -1)
	check "a plot for $s" -- test -s "$f"
	check "... that is well-formed SVG" -- /usr/bin/python3 -c \
		'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$f"
done
I=$T/dash/index.html
is "$(grep -o 'class="point' "$I" | wc -l)" 14 "14 points link to runs (7 nights x 2 scenarios)"
check "regression points are marked" -- grep -q 'class="point regression"' "$I"
check "the step is drawn in the plot" -- grep -q 'step' "$T"/dash/quick--*--idle.svg
check "... at night 5, where it began (held that night, confirmed on night 6)" -- \
	grep -q "set arrow from 5, graph 0 to 5, graph 1" "$T"/dash/quick--*--idle.gp
check "points link to the run's results, relative to the dashboard" -- \
	grep -q 'href="../week/20261127-020000-quick/manifest.json"' "$I"
check "no absolute file:// link" -- bash -c "! grep -q 'file://' '$I'"
cx=$(grep -o 'cx="[0-9.]*"' "$I" | sort | uniq -c | awk '{ print $1 }' | sort -u | tr '\n' ' ')
is "$cx" "2 " "seven nights: seven x positions, one per night (each shared by idle and hackbench)"

# Runs of one day: the recordings as they were made, minutes apart.
"$RTGATE" history import --db "$T/day.db" "$TOP/tests/fixtures/nightly/recorded" >/dev/null
"$RTGATE" dashboard --db "$T/day.db" --out "$T/day" >/dev/null
n=$(grep -o 'cx="[0-9.]*"' "$T/day/index.html" | sort -u | wc -l)
is "$n" 7 "seven runs of one day: seven distinct x positions"
labels=$(grep -o "xtics ([^)]*)" "$T"/day/quick--*--idle.gp)
diag "$labels"
is "$(grep -o "'11-30 [0-9:]*'" <<<"$labels" | sort -u | wc -l)" 7 \
	"... each labelled with its date and time, no two alike"

# Scaled runs and ns metrics: real runs of the setparam suite (x0.1, three
# in one day) and one quick run at x0.2 (tests/fixtures/nightly/scaled).
"$RTGATE" history import --db "$DB" "$TOP/tests/fixtures/nightly/scaled" >/dev/null
"$RTGATE" dashboard --db "$DB" --out "$T/dash2" >/dev/null
D=$T/dash2
check "setparam's default scenario has a plot" -- test -s "$D"/setparam--*--default.svg
check "... trending its gate metric, ns per call" -- \
	grep -q "ylabel 'setparam.ns_per_call (ns)'" "$D"/setparam--*--default.gp
is "$(awk '!/^#/ { print $9 }' "$D"/setparam--*--default.dat | grep -cE '^[0-9.]+$')" 3 \
	"... three runs, each with a median ns/call"
check "... no '-1 -1 -1' rows in its table" -- \
	bash -c "! grep -A1000 'id=\"setparam--vm--default\"' '$D/index.html' | grep -q '<td>-1</td>'"
check "a metric scenario's table shows the metric's unit" -- \
	grep -q '<th>median (ns)</th>' "$D/index.html"
check "the scaled quick run is marked in idle's plot" -- \
	grep -q "title 'scaled run (--duration-scale)'" "$D"/quick--*--idle.gp
check "... and its point and row say so" -- \
	grep -q 'class="point scaled".*scaled run x0.2' "$D/index.html"
check "... in the table too" -- grep -q '<td>x0.2 (scaled)</td>' "$D/index.html"
check "the full-scale nights are not marked" -- grep -q '<td>x1</td>' "$D/index.html"

CHROMIUM=$(command -v chromium || command -v chromium-browser)
if [ -z "$CHROMIUM" ]; then
	skip "chromium not installed" "dashboard renders in Chromium"
	done_testing
	exit
fi
chrome() {
	timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$T/chrome" \
		--allow-file-access-from-files --virtual-time-budget=5000 "$@" \
		2>>"$T/chrome.log"
}
chrome --dump-dom "file://$I" >"$T/dom.html"
check "Chromium rendered the page" -- grep -q 'data-plots-rendered=' "$T/dom.html"
is "$(sed -n 's/.*data-plots-rendered="\([0-9]*\)".*/\1/p' "$T/dom.html" | head -1)" 2 \
	"both plots loaded in the browser"
chrome --dump-dom "file://$D/index.html" >"$T/dom2.html"
is "$(sed -n 's/.*data-plots-rendered="\([0-9]*\)".*/\1/p' "$T/dom2.html" | head -1)" \
	"$(ls "$D"/*.svg | wc -l)" "every plot, ns trends included, loaded in the browser"
# To look at it: RTGATE_KEEP_SCREENSHOT=/tmp/dash.png tests/integration/...
if [ -n "${RTGATE_KEEP_SCREENSHOT:-}" ]; then
	chrome --screenshot="$T/dash.png" --window-size=1000,4000 "file://$D/index.html" >/dev/null
	check "a screenshot was taken" -- test -s "$T/dash.png"
	cp "$T/dash.png" "$RTGATE_KEEP_SCREENSHOT"
fi
done_testing
