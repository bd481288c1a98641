#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The system facts in every report's header (analyze/report/analyze_report_facts.c):
# a manifest with a planted "system" object (docs/results.md) shows each
# fact in report.txt, .md, .html, .json and junit.xml in the words of the
# header; facts the kernel had no interface for say "absent"; and the
# recorded fixtures, whose manifests predate the facts, still report,
# saying "not recorded".
source "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures

# The recorded fixture: no "system" in its manifest.
cp -r "$FIX/analyze/run-inject" "$T/old"
check "the fixture has no system facts" -- \
	test "$(jget "$T/old/manifest.json" .system)" = null
"$RTGATE" report "$T/old" >"$T/out" 2>"$T/err"
is "$?" 1 "an old manifest still reports (a REGRESSION, exit 1)"
check "report.txt says the facts were not recorded" -- \
	grep -q '^facts  *not recorded' "$T/old/report.txt"
is "$(jget "$T/old/report.json" '.systems[0].facts')" null \
	"report.json: facts null"
check "no clocksource row is invented" -- \
	bash -c "! grep -q '^clocksource' '$T/old/report.txt'"

# Every recorded run directory still reports: a verdict or an input
# error, never a crash (a signal, an ASan report).
bad=0 n=0
for m in $(find "$FIX" -name manifest.json -path '*/recorded/*' -o \
	   -name manifest.json -path '*/scaled/*' -o \
	   -name manifest.json -path '*/run-*/*' | sort); do
	d=$T/each/$(basename "$(dirname "$m")")
	mkdir -p "$T/each"
	cp -r "$(dirname "$m")" "$d"
	"$RTGATE" report "$d" >/dev/null 2>"$T/err.each"
	rc=$?
	n=$((n + 1))
	if [ $rc -gt 5 ] || grep -q 'Sanitizer' "$T/err.each"; then
		diag "${m#"$FIX"/}: exit $rc"
		bad=1
	fi
done
diag "$n recorded run directories reported"
check "the recorded runs were found" -- test "$n" -gt 3
is "$bad" 0 "every recorded fixture run reports without crashing"

# A run that recorded them: the planted facts of an isolated RT machine.
cp -r "$FIX/analyze/run-inject" "$T/new"
jq '.system = {
	"clocksource": "tsc",
	"cpuidle": { "driver": "intel_idle", "states": [
		{ "name": "POLL", "latency_us": 0, "disabled_cpus": "" },
		{ "name": "C1", "latency_us": 2, "disabled_cpus": "" },
		{ "name": "C6", "latency_us": 133, "disabled_cpus": "2-3" } ] },
	"sched_rt_runtime_us": -1, "sched_rt_period_us": 1000000,
	"irq_affinity": { "irqs": 42,
		"per_cpu": { "0": 42, "1": 42, "2": 40, "3": 2 } },
	"thp": "never", "smt_active": false,
	"numa": { "node0": "0-1", "node1": "2-3" },
	"microcode": "0xf0",
	"dmi_sys_vendor": "Dell Inc.", "dmi_product_name": "PowerEdge R650" }
	| .host.smt = "off"
	| .kernel.isolcpus = "2-3" | .kernel.nohz_full = "2-3"
	| .environment.stalld_running = true
	| .environment.tuned_running = false' \
	"$FIX/analyze/run-inject/manifest.json" >"$T/new/manifest.json"
"$RTGATE" report "$T/new" >"$T/out" 2>"$T/err"
is "$?" 1 "a manifest with facts reports (exit 1)"
txt=$T/new/report.txt
row() { sed -n "s/^$1  *//p" "$txt"; }
is "$(row machine)" "Dell Inc. PowerEdge R650, microcode 0xf0" \
	"txt: DMI vendor, product and microcode"
is "$(row topology)" "SMT inactive (control off), NUMA 2 nodes: node0 0-1 node1 2-3" \
	"txt: SMT and NUMA"
is "$(row clocksource)" tsc "txt: clocksource"
is "$(row cpuidle)" \
	"intel_idle: POLL 0 us, C1 2 us, C6 133 us (disabled on CPUs 2-3)" \
	"txt: cpuidle states, latencies, where disabled"
is "$(row 'rt throttle')" "off (sched_rt_runtime_us -1)" \
	"txt: RT throttling off"
is "$(row irqs)" "42 IRQs; CPUs 0-1 may take 42, CPU 2 may take 40, CPU 3 may take 2" \
	"txt: IRQs per CPU, grouped"
is "$(row thp)" never "txt: THP"
is "$(row isolation)" \
	"isolcpus 2-3, nohz_full 2-3, stalld running, tuned not running" \
	"txt: isolation"
check "txt: no 'not recorded' row" -- \
	bash -c "! grep -q '^facts' '$txt'"
J=$T/new/report.json
is "$(jget "$J" '.systems[0].facts.irqs')" "$(row irqs)" \
	"report.json: the same words as report.txt"
is "$(jget "$J" '.systems[0].facts | keys | join(" ")')" \
	"clocksource cpuidle irqs machine rt_throttle thp topology" \
	"report.json: every fact"
is "$(jget "$J" '.systems[0].isolation')" "$(row isolation)" \
	"report.json: isolation"
check "report.md: the cpuidle row" -- \
	grep -qF -- '- cpuidle: intel_idle: POLL 0 us' "$T/new/report.md"
check "report.html: the clocksource row" -- \
	grep -qF '<tr><th>clocksource</th><td>tsc</td></tr>' \
	"$T/new/report.html"
check "junit.xml: the facts as properties" -- \
	grep -qF '<property name="rt_throttle" value="off (sched_rt_runtime_us -1)"/>' \
	"$T/new/junit.xml"

# A VM with none of the interfaces: every fact null, each "absent".
jq '.system |= with_entries(.value = null)' "$T/new/manifest.json" \
	>"$T/m" && mv "$T/m" "$T/new/manifest.json"
"$RTGATE" report "$T/new" >"$T/out" 2>"$T/err"
is "$?" 1 "a manifest with every fact null reports"
is "$(row machine)" "DMI absent, microcode absent" "txt: no DMI, no microcode"
is "$(row topology)" "SMT absent (control off), NUMA absent" \
	"txt: no SMT, no NUMA"
is "$(row cpuidle)" absent "txt: no cpuidle"
is "$(row 'rt throttle')" absent "txt: no RT throttling file"
is "$(row irqs)" absent "txt: no /proc/irq"
done_testing
