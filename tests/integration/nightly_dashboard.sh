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
check "points link to the run's results" -- grep -q "href=\"file://$W/20261127-020000-quick" "$I"

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
# To look at it: RTGATE_KEEP_SCREENSHOT=/tmp/dash.png tests/integration/...
if [ -n "${RTGATE_KEEP_SCREENSHOT:-}" ]; then
	chrome --screenshot="$T/dash.png" --window-size=1000,1400 "file://$I" >/dev/null
	check "a screenshot was taken" -- test -s "$T/dash.png"
	cp "$T/dash.png" "$RTGATE_KEEP_SCREENSHOT"
fi
done_testing
