#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# report.html in a real browser (Debian's chromium, headless): the page
# renders, the verdict is on it, gnuplot's plots are inline SVG with their
# curves, and nothing is fetched from elsewhere.
source "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures/analyze
RUN=$T/run
cp -r "$FIX/run-inject" "$RUN"
"$RTGATE" report -q "$RUN" --report html
check "report.html written" -- test -s "$RUN/report.html"
check "self-contained: no external URL is loaded" -- \
	bash -c "! grep -Eiq '(src|href)=\"(https?:)?//' '$RUN/report.html'"

browser=$(command -v chromium || command -v chromium-browser)
if [ -z "$browser" ]; then
	skip "chromium is not installed" "the page renders in chromium"
	done_testing
	exit
fi
chrome() {
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$T/profile" \
		"$@" "file://$RUN/report.html" 2>>$T/chrome.log
}
chrome --dump-dom >$T/dom.html
check "chromium renders the page (its DOM comes back)" -- \
	grep -q '</html>' $T/dom.html
check "the overall verdict is on the page" -- \
	grep -q 'class="badge v-REGRESSION">REGRESSION' $T/dom.html
is "$(grep -o '<figure class="plot">' $T/dom.html | wc -l)" 3 \
	"three plots: a histogram per CPU and the maxima per repetition"
is "$(grep -o '<svg' $T/dom.html | wc -l)" 3 "each plot is an inline SVG"
check "the histograms overlay both sides on a log axis" -- \
	grep -q 'samples per million (log)' $T/dom.html
check "the plots carry the curves (gnuplot paths)" -- \
	test "$(grep -o '<path' $T/dom.html | wc -l)" -gt 20
check "the page leads with the system: kernel and preemption model" -- \
	grep -q '<tr><th>preemption</th><td>unknown (not PREEMPT_RT)</td></tr>' $T/dom.html
check "the verdict table has the measured column" -- \
	grep -q '<th>measured</th>' $T/dom.html
check "... naming the line the verdict rests on" -- \
	grep -q '<td class="n">CPU 1 p99 42.3 -&gt; 273 us</td>' $T/dom.html
check "the histograms shade what lies beyond the 2000 us limit" -- \
	grep -q 'shaded: beyond the 2000 us histogram' $T/dom.html
# A scenario gated on a workload metric (ns per call) gets its plot.
SP=$T/sp
cp -r "$TOP/tests/fixtures/nightly/scaled/20261201-103223-setparam" "$SP"
"$RTGATE" report -q "$SP" --report html
check "setparam's ns/call comparison has a plot of its rounds" -- \
	grep -q '<figcaption>setparam.ns_per_call per round</figcaption>' "$SP/report.html"
check "... an SVG with the points of both sides" -- \
	test "$(sed -n '/id="cmp-0"/,/<\/section>/p' "$SP/report.html" | grep -c '<svg')" -ge 1
check "... and the published column where the candidate has a publication" -- \
	grep -q '<td class="n">163 -&gt; 619 ns</td>' "$SP/report.html"
chrome --screenshot="$T/shot.png" --window-size=1280,1600 >/dev/null
check "a screenshot is taken" -- test -s "$T/shot.png"
is "$(head -c 8 "$T/shot.png" | od -An -tx1 | tr -d ' \n')" \
	89504e470d0a1a0a "the screenshot is a PNG"
done_testing
