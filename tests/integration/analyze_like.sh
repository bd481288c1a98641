#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Like with like (issue 36 item 3): two recorded runs of the quick suite,
# given the same planted settings, are compared; then the candidate's
# manifest is edited one setting at a time. Each difference is named in
# every comparison's reason and makes it INVALID (exit 2), for `compare
# RUN_A RUN_B`, `compare A:S B:S` (the lab gate's form) and a night
# against its history; --intended SETTING turns it back.
source "$(dirname "$0")/../lib.sh"
R=$TOP/tests/fixtures/nightly/recorded

# The settings the runner records (runner/machine), planted alike.
plant() {	# plant RUN_DIR: the same settings in its manifest
	jq '.system = {
		clocksource: "tsc", cpu_dma_latency_us: 2000000000,
		cpuidle: { driver: "intel_idle", governor: "menu",
			   states: [ { name: "POLL", latency_us: 0,
				       disabled_cpus: "" },
				     { name: "C6", latency_us: 133,
				       disabled_cpus: "" } ] },
		irq_affinity: { irqs: 20, per_cpu: { "0": 20, "1": 20 } },
		smt_active: false }
	    | .host.governor = "performance" | .host.smt = "notsupported"
	    | .kernel.isolcpus = "" | .kernel.nohz_full = ""
	    | .kernel.cmdline = "BOOT_IMAGE=/boot/vmlinuz-6.18 root=/dev/vda1 console=ttyS0"' \
		"$1/manifest.json" >"$1/m" && mv "$1/m" "$1/manifest.json"
}
mkdir -p "$T/runs"
cp -r "$R/20261130-195359-quick" "$T/a"
cp -r "$R/20261130-195420-quick" "$T/b0"
plant "$T/a"
plant "$T/b0"

verdicts() {	# verdicts REPORT_JSON: every comparison's verdict, sorted
	jq -r '.comparisons[].verdict' "$1" | sort -u | tr '\n' ' '
}

"$RTGATE" compare "$T/a" "$T/b0" --out "$T/same" >/dev/null 2>&1
check "alike runs: no comparison says 'not like with like'" -- \
	bash -c "! grep -q 'not like with like' '$T/same/report.json'"

# One setting at a time: NAME (the --intended name) and a jq edit.
cases=(
	"tool|.suite.measure.args += [\"--laptop\"]"
	"tool.version|.tools.cyclictest = \"2.50\""
	"cpu_dma_latency|.system.cpu_dma_latency_us = 0"
	"cpuidle.states|.system.cpuidle.states[1].disabled_cpus = \"1\""
	"cpuidle.governor|.system.cpuidle.governor = \"teo\""
	"cpufreq.governor|.host.governor = \"powersave\""
	"isolcpus|.kernel.isolcpus = \"1\""
	"nohz_full|.kernel.nohz_full = \"1\""
	"irq_affinity|.system.irq_affinity.per_cpu[\"1\"] = 2"
	"clocksource|.system.clocksource = \"hpet\""
	"smt|.system.smt_active = true"
	"cmdline.quiet|.kernel.cmdline += \" quiet\""
)
for c in "${cases[@]}"; do
	name=${c%%|*} edit=${c#*|}
	rm -rf "$T/b" "$T/o" "$T/oi"
	cp -r "$T/b0" "$T/b"
	jq "$edit" "$T/b0/manifest.json" >"$T/b/manifest.json"
	"$RTGATE" compare "$T/a" "$T/b" --out "$T/o" >/dev/null 2>"$T/err"
	rc=$?
	is "$rc" 2 "$name differs: compare RUN_A RUN_B exits 2"
	is "$(verdicts "$T/o/report.json")" "INVALID " \
		"... every comparison INVALID"
	check "... the reason names $name" -- bash -c "jq -r \
		'.comparisons[].reason' '$T/o/report.json' |
		grep -q 'not like with like: $name '"
	"$RTGATE" compare "$T/a" "$T/b" --out "$T/oi" --intended "$name" \
		>/dev/null 2>&1
	check "... --intended $name: judged again" -- bash -c \
		"! grep -q 'not like with like' '$T/oi/report.json' &&
		 ! jq -r '.comparisons[].verdict' '$T/oi/report.json' |
		 grep -q INVALID"
done

# The lab gate's form, DIR:SCENARIO, and the change named with its values.
cp -r "$T/b0" "$T/g"
jq '.system.cpuidle.governor = "teo"' "$T/b0/manifest.json" >"$T/g/manifest.json"
"$RTGATE" compare "$T/a:idle" "$T/g:idle" --out "$T/og" >/dev/null 2>&1
is "$?" 2 "compare A:idle B:idle with another cpuidle governor: exit 2"
check "... INVALID, naming both values" -- bash -c "jq -r \
	'.comparisons[0].verdict + \" \" + .comparisons[0].reason' \
	'$T/og/report.json' | grep -q \"^INVALID .*cpuidle.governor (the \
cpuidle governor): 'menu' -> 'teo'\""

# tsc-early is the TSC read early in a boot: the same clock as tsc.
cp -r "$T/b0" "$T/e"
jq '.system.clocksource = "tsc-early"' "$T/b0/manifest.json" >"$T/e/manifest.json"
"$RTGATE" compare "$T/a" "$T/e" --out "$T/oe" >/dev/null 2>&1
check "clocksource tsc-early against tsc: alike" -- \
	bash -c "! grep -q 'not like with like' '$T/oe/report.json'"

# The kernel is what is under test: its image on the command line is not
# a difference; a setting one run did not record is not compared.
cp -r "$T/b0" "$T/k"
jq '.kernel.cmdline |= sub("vmlinuz-6.18"; "vmlinuz-6.19")
    | .kernel.release = "6.19" | del(.system.cpu_dma_latency_us)' \
	"$T/b0/manifest.json" >"$T/k/manifest.json"
jq '.system.cpu_dma_latency_us = 0' "$T/a/manifest.json" >"$T/a2.json"
cp -r "$T/a" "$T/a2" && cp "$T/a2.json" "$T/a2/manifest.json"
"$RTGATE" compare "$T/a2" "$T/k" --out "$T/ok" >/dev/null 2>&1
check "another kernel image, a setting one run did not record: alike" -- \
	bash -c "! grep -q 'not like with like' '$T/ok/report.json'"

# Bad names are refused before anything is judged.
"$RTGATE" compare "$T/a" "$T/b0" --intended cpuidle.gouvernor \
	>/dev/null 2>"$T/bad.err"
is "$?" 3 "--intended with no such setting: exit 3"
check "... saying which settings there are" -- \
	grep -q "cpuidle.governor" "$T/bad.err"

# A night against its history: four alike nights, then one whose
# clocksource changed; the history's own --intended turns it back.
mkdir -p "$T/h"
for d in $(ls -d "$R"/*/ | head -5); do
	last=$T/h/$(basename "$d")
	cp -r "$d" "$last"
	plant "$last"
done
jq '.system.clocksource = "hpet"' "$last/manifest.json" >"$T/m" &&
	mv "$T/m" "$last/manifest.json"
"$RTGATE" history import --db "$T/h.db" "$T/h" >/dev/null 2>&1
"$RTGATE" compare --history --db "$T/h.db" --history-runs 3 "$last" \
	>"$T/hist.out" 2>&1
is "$?" 2 "a night whose clocksource changed: compare --history exits 2"
check "... INVALID, naming the night before and the setting" -- bash -c \
	"grep -q 'INVALID' '$T/hist.out' && grep -q 'not like with like' \
	'$T/hist.out' && grep -q 'differ in clocksource' '$T/hist.out'"
"$RTGATE" compare --history --db "$T/h.db" --history-runs 3 \
	--intended clocksource "$last" >"$T/hist2.out" 2>&1
check "... --intended clocksource: judged" -- bash -c \
	"! grep -q 'not like with like' '$T/hist2.out'"

# ---- cpus: CPUs are paired thread by thread (issue 35) ----------------------
# A side measured on CPUs 4 and 5 against one on 0 and 1 compares other
# CPUs: a named difference, INVALID unless --intended cpus.
move_cpus() {	# move_cpus DIR: every repetition below DIR 4 CPUs up
	local f
	find "$1" -name cyclictest.json | while read -r f; do
		jq '.thread |= with_entries(.value.cpu += 4)' "$f" >"$f.m" &&
			mv "$f.m" "$f"
	done
}
cp -r "$T/b0" "$T/c"
move_cpus "$T/c"
"$RTGATE" compare "$T/a" "$T/c" --out "$T/oc" >/dev/null 2>&1
is "$?" 2 "compare RUN_A RUN_B measured on CPUs 4-5 against 0-1: exit 2"
is "$(verdicts "$T/oc/report.json")" "INVALID " "... every comparison INVALID"
check "... the reason names cpus, the thread and both CPU lists" -- bash -c \
	"jq -r '.comparisons[].reason' '$T/oc/report.json' | grep -q \
	\"not like with like: cpus (the CPUs measured, paired thread by thread; \
thread 0 ran on CPU 0 in .*, on CPU 4 in .*): '0 1' -> '4 5'\""
"$RTGATE" compare "$T/a" "$T/c" --out "$T/oci" --intended cpus \
	>/dev/null 2>&1
check "... --intended cpus: judged again" -- bash -c \
	"! grep -q 'not like with like' '$T/oci/report.json' &&
	 ! jq -r '.comparisons[].verdict' '$T/oci/report.json' | grep -q INVALID"
"$RTGATE" compare "$T/a:idle" "$T/c:idle" --out "$T/ocs" >/dev/null 2>&1
is "$?" 2 "compare A:idle B:idle on other CPUs (the lab gate's form): exit 2"
check "... INVALID, naming cpus" -- bash -c "jq -r '.comparisons[0].verdict + \
	\" \" + .comparisons[0].reason' '$T/ocs/report.json' |
	grep -q '^INVALID not like with like: cpus '"
"$RTGATE" compare "$T/a:idle" "$T/c:idle" --out "$T/ocsi" --intended cpus \
	>/dev/null 2>&1
check "... not with --intended cpus" -- bash -c \
	"! grep -q 'not like with like' '$T/ocsi/report.json'"
# Within one run: a scenario measured on other CPUs than its baseline.
cp -r "$T/a" "$T/w"
move_cpus "$T/w/hackbench"
"$RTGATE" report -q "$T/w" >/dev/null 2>&1
is "$?" 2 "report: hackbench on other CPUs than idle, its baseline: exit 2"
check "... INVALID, naming cpus" -- bash -c "jq -r '.comparisons[] |
	select(.candidate == \"hackbench\") | .verdict + \" \" + .reason' \
	'$T/w/report.json' | grep -q '^INVALID not like with like: cpus '"
# A night against its history: the nights on CPUs 0-1, tonight on 4-5.
mkdir -p "$T/hc"
for d in $(ls -d "$R"/*/ | head -5); do
	last=$T/hc/$(basename "$d")
	cp -r "$d" "$last"
	plant "$last"
done
move_cpus "$last"
"$RTGATE" history import --db "$T/hc.db" "$T/hc" >/dev/null 2>&1
"$RTGATE" compare --history --db "$T/hc.db" --history-runs 3 "$last" \
	>"$T/histc.out" 2>&1
is "$?" 2 "a night measured on other CPUs: compare --history exits 2"
check "... INVALID, naming cpus and a night" -- bash -c \
	"grep -q 'INVALID' '$T/histc.out' && grep -q \
	'not like with like: cpus (the CPUs measured, paired thread by thread; \
thread 0 ran on CPU 0 in 20261130' '$T/histc.out'"
"$RTGATE" compare --history --db "$T/hc.db" --history-runs 3 \
	--intended cpus "$last" >"$T/histc2.out" 2>&1
check "... --intended cpus: judged" -- bash -c \
	"! grep -q 'not like with like' '$T/histc2.out'"

# The nightly's configuration says it the same way.
cat >"$T/n.conf" <<EOF
[nightly]
results = $T/nres
intended = clocksource,cmdline.quiet
EOF
"$RTGATE" nightly --check --config "$T/n.conf" >"$T/n.out"
is "$?" 0 "nightly.conf intended = clocksource,cmdline.quiet"
check "... which --check shows" -- \
	grep -q "intended  clocksource,cmdline.quiet" "$T/n.out"
printf '[nightly]\nresults = %s\nintended = clock\n' "$T/nres" >"$T/n2.conf"
"$RTGATE" nightly --check --config "$T/n2.conf" >/dev/null 2>"$T/n2.err"
is "$?" 3 "intended = clock (never intended): exit 3"
check "... naming the file's key" -- grep -q "intended = 'clock'" "$T/n2.err"
done_testing
