#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Latency over time, for real: a short run of an idle baseline against a
# planted spike (inject: a 30 ms SCHED_FIFO spin on CPU 1 every 2.5 s)
# records each repetition's per-second maxima (timeline.json, one entry
# per second of the measurement), every report carries them, report.html
# draws them, and the seconds the spin hit are marked as spikes. Then a
# suite with `timeline = off`, and an old results directory without a
# series: "no time series in these runs".
source "$(dirname "$0")/../lib.sh"

if [ "$(nproc)" -lt 2 ] || [ "$(id -u)" != 0 ]; then
	skip "needs root and 2 CPUs" "latency over time of a real run"
	done_testing
	exit
fi

cat >"$T/tl.suite" <<'EOF'
[suite]
name        = timeline
description = per-second maxima with a planted spike
repetitions = 1
requires    = root

[measure]
cyclictest  = --smp -p95 -m -i 1000
duration    = 4s
histogram   = 50000

[gate]
metric           = max
min_increase_us  = 5
min_increase_pct = 10

[scenario idle]
description = cyclictest alone

[scenario inject]
description = a 30 ms spin on CPU 1 every 2.5 s
compare     = idle
workload    = cpus=1 inject --cpu 1 --width-us 30000 --period-us 2500000 --jitter-us 0
expect      = inject.spins > 0
EOF

# One rtgate run per machine: wait for another one to end.
run_waiting() {
	local i
	for i in 1 2 3 4 5 6; do
		run_suite "$@"
		grep -q 'another rtgate run is using this machine' "$T/err" ||
			return 0
		diag "the runner lock is held: waiting a minute"
		sleep 60
	done
}

run_waiting "$T/tl.suite"
check "the run exits 0, 1 or 2 (a verdict)" -- test "$rc" -le 2
is "$(jget "$m" .status)" complete "the run is complete"
argv=$(jget "$m" '.scenarios[0].repetitions[0].processes[] | select(.name == "cyclictest") | .argv | join(" ")')
check "cyclictest runs with -v -o10 (10 ms windows at -i 1000)" -- \
	grep -qE -- ' -v -o10( |$)' <<<"$argv"
for sc in idle inject; do
	tl=$dir/$sc/1/timeline.json
	check "$sc: timeline.json written" -- test -s "$tl"
	is "$(jget "$tl" .schema)" rtgate-timeline/1 "$sc: its schema"
	is "$(jget "$tl" .seconds)" 4 "$sc: as many seconds as the 4 s duration"
	is "$(jget "$tl" '[.threads[] | .max_us | length] | unique | join(" ")')" \
		4 "$sc: every CPU has its 4 seconds"
	is "$(jget "$tl" '[.threads[].max_us[] | select(. == null)] | length')" \
		0 "$sc: no second without a sample"
	is "$(jget "$tl" '[.threads[].max_us | max] | max')" \
		"$(jq '[.thread[].max] | max' "$dir/$sc/1/cyclictest.json")" \
		"$sc: the series' worst second is cyclictest's max"
	check "$sc: cyclictest.log has T: lines (rebuilt from its JSON)" -- \
		grep -q '^T: 1 ' "$dir/$sc/1/cyclictest.log"
	is "$(jget "$j" ".scenarios[] | select(.name == \"$sc\") | .repetitions[0].timeline.seconds")" \
		4 "$sc: report.json carries the repetition's timeline"
done
# 8000 windows went through the runner: none of them is kept.
check "no sample stream is kept on disk (cyclictest.log stays small)" -- \
	test "$(stat -c %s "$dir/inject/1/cyclictest.log")" -lt 4096

# The spikes: every second the 30 ms spin hit is marked.
hit=$(jget "$dir/inject/1/timeline.json" \
	'[.threads[].max_us | to_entries[] | select(.value >= 20000) | .key] | unique | join(" ")')
diag "seconds of inject at 20 ms or more: $hit"
ceiling=$(jget "$j" '.comparisons[0].timeline.baseline_ceiling_us')
diag "idle's worst second: $ceiling us; threshold $(jget "$j" '.comparisons[0].timeline.threshold_us') us"
check "the spin hit at least one second" -- test -n "$hit"
if [ "${ceiling%.*}" -ge 20000 ] 2>/dev/null; then
	skip "a host pause of $ceiling us in idle hides the spin" \
		"the seconds of the spin are marked"
else
	is "$(jget "$j" '[.comparisons[0].timeline.spikes[] | select(.us >= 20000) | .second] | unique | join(" ")')" \
		"$hit" "the seconds of the spin are marked as spikes"
fi
check "... and the reports say it" -- \
	grep -q 'over time: [0-9]* of 4 seconds of inject beyond idle' \
		"$dir/report.txt"

check "report.html has the time plot (a wide figure)" -- \
	grep -q '<figure class="plot wide">' "$dir/report.html"
check "... an inline SVG with the threshold" -- \
	bash -c "sed -n '/plot wide/,/<\/figure>/p' '$dir/report.html' | grep -q 'spike threshold'"
# A host pause in idle raises the threshold above every second of the
# spin: then there is no spike to circle, and none may be drawn.
nspikes=$(jget "$j" '.comparisons[0].timeline.spikes | length')
if [ "${nspikes:-0}" -gt 0 ] 2>/dev/null; then
	check "... and its $nspikes spikes circled" -- \
		grep -q 'spike second' "$dir/report.html"
else
	check "... no spike, none circled" -- \
		bash -c "! grep -q 'spike second' '$dir/report.html'"
fi
check "... captioned" -- grep -q \
	'<figcaption>Latency over time (per-second maxima, spikes circled)</figcaption>' \
	"$dir/report.html"

# `timeline = off`: cyclictest as before, no series.
sed -e 's/^duration .*/duration    = 1s\ntimeline    = off/' \
	-e '/^\[scenario inject\]/,$d' "$T/tl.suite" >"$T/off.suite"
run_waiting "$T/off.suite"
check "timeline = off: the run exits 0" -- test "$rc" = 0
check "... cyclictest without -v" -- bash -c "! jq -r '.scenarios[0].repetitions[0].processes[0].argv[]' '$m' | grep -qx -- -v"
check "... no timeline.json" -- test ! -e "$dir/idle/1/timeline.json"
check "... its T: lines as cyclictest printed them (a tid)" -- \
	grep -qE '^T: 0 \( *[1-9][0-9]*\)' "$dir/idle/1/cyclictest.log"

# A run recorded before the series existed still reports, and says so.
OLD=$T/old
cp -r "$TOP/tests/fixtures/analyze/run-inject" "$OLD"
"$RTGATE" report -q "$OLD" --report html
check "an old run's report.html says it has no time series" -- \
	grep -q 'Latency over time: no time series in these runs' \
		"$OLD/report.html"
check "... and draws no time plot" -- \
	bash -c "! grep -q 'plot wide' '$OLD/report.html'"
done_testing
