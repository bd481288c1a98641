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
