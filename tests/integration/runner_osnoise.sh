#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tool = osnoise, the third measuring tool (analyze/input/analyze_tool.c's
# entry, one line in runner/measure/runner_tool.c): on this machine's
# kernel, which has no osnoise tracer, every osnoise scenario is SKIPPED
# with the reason and rtla never starts; the suite keys the runner owns
# are refused with the file and line; and the analyzer reads what `rtla
# osnoise hist` prints. For that there is no recording of osnoise here:
# the thread columns of a recorded timerlat lab run (the same rtla
# histogram, Thr-NNN) are recast as osnoise's CPU-NNN columns, and the
# comparison must come out as the timerlat run's thread comparison did.
source "$(dirname "$0")/../lib.sh"

jqe() { jq -e "$1" "$2" >/dev/null; }

tracers=$(tracefs_dir)/available_tracers
"$RTGATE" run osnoise --duration-scale 0.4 --no-history >"$T/out" 2>"$T/err"
rc=$?
m=$RTGATE_RESULTS_DIR/$(readlink "$RTGATE_RESULTS_DIR/latest")/manifest.json
is "$(jget "$m" .suite.measure.tool)" osnoise "the manifest says tool osnoise"
if ! grep -qw osnoise "$tracers" 2>/dev/null; then
	is "$rc" 2 "no tracer: everything SKIPPED, nothing measured: exit 2"
	check "every scenario is SKIPPED" -- \
		jqe '[.scenarios[].status] | all(. == "skipped")' "$m"
	check "saying the kernel has no osnoise tracer" -- \
		jqe '.scenarios[0].reason | test("tool osnoise: this kernel has no osnoise tracer .*CONFIG_OSNOISE_TRACER")' "$m"
	check "rtla never started" -- \
		jqe '[.scenarios[].repetitions[]] | length == 0' "$m"
	check "one comparison, SKIPPED (osnoise has one side: no .irq)" -- \
		bash -c "grep -qE '^inject +idle +SKIPPED ' '$T/out' &&
			 ! grep -q 'inject\.irq' '$T/out'"
else
	check "a kernel with the tracer: a verdict" -- test "$rc" -le 2
	for i in 1 2 3 4; do skip "this kernel has osnoise" "SKIPPED $i"; done
fi

bad() {	# bad NAME MEASURE-LINES EXPECTED-MESSAGE
	printf '[suite]\nrequires = root\n[measure]\ntool = osnoise\n%b\n[scenario a]\n' \
		"$2" >"$T/$1.suite"
	"$RTGATE" run "$T/$1.suite" --no-history >/dev/null 2>"$T/$1.err"
	is $? 3 "$1: exit 3"
	check "$1: says so with the file and line" -- \
		grep -qF "$T/$1.suite:$3" "$T/$1.err"
}
bad runner-entries 'osnoise = -P f:95 -E 10\nduration = 2s' \
	"5: osnoise: '-E' is the runner's"
bad stops-early 'osnoise = -s 100\nduration = 2s' \
	"5: osnoise: '-s' is the runner's"
bad stop-abbrev 'osnoise = --stop-t=100\nduration = 2s' \
	"5: osnoise: '--stop-t=100' (to osnoise, an abbreviation of --stop-total)"
bad loops 'loops = 1000' "3: [measure] needs duration (e.g. 20s) for osnoise"
printf '[suite]\nrequires = root\n[measure]\ntool = hwnoise\nduration = 2s\n[scenario a]\n' \
	>"$T/unknown.suite"
"$RTGATE" run "$T/unknown.suite" --no-history >/dev/null 2>"$T/unknown.err"
is $? 3 "a tool no entry has: exit 3, never cyclictest"
check "... naming the line and the tools there are" -- grep -qF \
	"$T/unknown.suite:4: tool: 'hwnoise' is not cyclictest, none, timerlat or osnoise" \
	"$T/unknown.err"

# ---- the analyzer reads rtla osnoise hist -------------------------------
FIX=$TOP/tests/fixtures/lab/timerlat-7.2-rt
cp -r "$FIX" "$T/tl"
cp -r "$FIX" "$T/os"
# timerlat.txt's Thr columns as osnoise.txt's CPU columns.
for f in "$T"/os/*/*/timerlat.txt; do
	awk '
	/^# RTLA timerlat histogram/ { print "# RTLA osnoise histogram"; next }
	/^#/ { print; next }
	/^Index/ {
		n = 0
		for (i = 2; i <= NF; i++)
			if ($i ~ /^Thr-/) { keep[++n] = i; sub(/^Thr-/, "CPU-", $i) }
	}
	NF {
		line = $1
		for (k = 1; k <= n; k++) line = line "   " $(keep[k])
		print line
	}' "$f" >"${f%timerlat.txt}osnoise.txt"
	rm "$f"
done
jq '.suite.measure.tool = "osnoise" | .suite.measure.osnoise_args = ["-P", "f:95"]
    | del(.suite.measure.timerlat_args)
    | .scenarios[].tool = "osnoise"' "$FIX/manifest.json" >"$T/os/manifest.json"
check "the recast run holds osnoise.txt, CPU columns, no timerlat.txt" -- \
	bash -c "grep -q '^Index *CPU-000 *CPU-001\$' '$T/os/idle/1/osnoise.txt' &&
		 ! ls '$T'/os/*/*/timerlat.txt 2>/dev/null"

"$RTGATE" report "$T/tl" --metric max --out "$T/tl-out" >"$T/tl.txt" 2>&1
"$RTGATE" report "$T/os" --metric max --out "$T/os-out" >"$T/os.txt" 2>&1
is "$?" 0 "rtgate report reads the osnoise run (exit 0: the control flagged)"
tl_reason=$(jq -r '.comparisons[] | select(.candidate == "inject") | .reason' \
	"$T/tl-out/report.json")
os_reason=$(jq -r '.comparisons[] | select(.candidate == "inject") | .reason' \
	"$T/os-out/report.json")
is "$(jq -r '.comparisons[] | select(.candidate == "inject") | .verdict' \
	"$T/os-out/report.json")" REGRESSION "the positive control is flagged"
check "with the very reason timerlat's thread latency got" -- \
	test -n "$os_reason" -a "$os_reason" = "$tl_reason"
is "$(jq '.comparisons | length' "$T/os-out/report.json")" 1 \
	"one comparison: osnoise measures one latency a CPU (timerlat two)"
is "$(jq '.comparisons | length' "$T/tl-out/report.json")" 2 \
	"... where timerlat's run makes two"

# A manifest naming a tool no entry has is refused, never read as cyclictest.
jq '.scenarios[0].tool = "hwnoise"' "$T/os/manifest.json" >"$T/m.json" &&
	mv "$T/m.json" "$T/os/manifest.json"
"$RTGATE" report "$T/os" --out "$T/os-bad" >"$T/bad.txt" 2>&1
is "$?" 3 "an unknown tool in a manifest: bad input (exit 3)"
check "... naming the scenario and the tool" -- \
	grep -q "scenario idle: unknown tool 'hwnoise'" "$T/bad.txt"
done_testing
