#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The third measuring tool for real (issue 37: "its scenario runs in the
# lab"): suites/osnoise.suite, `rtla osnoise hist` through the runner, in
# the quiet lab on a kernel with the osnoise tracer (RTGATE_OSNOISE_KERNEL,
# default Debian's 7.2-rt image) under --clock icount:3. Every
# repetition must leave osnoise.txt whose rows hold its samples, the
# manifest must say rtla osnoise measured, and the positive control (20
# ms SCHED_FIFO 99 spins on CPU 1) must be flagged, a REGRESSION against
# idle, which is the pass a control must give: exit 0, report.json and
# junit.xml alike (the guest, which does not know its clock is virtual,
# may have said otherwise: the host's judgement is the run's). ~4 minutes
# on 2 cores.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}
jqe() { jq -e "$1" "$2" >/dev/null; }

start=$SECONDS
"$RTGATE" lab run --kernel "${RTGATE_OSNOISE_KERNEL:-debian:7.2-rt}" \
	--suite osnoise --clock icount:3 --timeout 30m --on-crash rerun \
	--out "$T/results" >"$T/out" 2>"$T/err"
rc=$?
diag "lab run: exit $rc in $((SECONDS - start)) s"
is "$rc" 0 "the positive control flagged, as it must be: exit 0"
man=$(ls -t "$T"/results/*/manifest.json 2>/dev/null | head -1)
dir=$(dirname "${man:-x}")
check "a complete run" -- jqe '.status == "complete"' "$man"
check "the manifest says tool osnoise" -- \
	jqe '.suite.measure.tool == "osnoise"' "$man"
check "rtla osnoise hist measured every repetition" -- \
	jqe '[.scenarios[].repetitions[].processes[] | select(.name == "rtla") | .argv[1:3] | join(" ")] | length == 10 and all(. == "osnoise hist")' "$man"
check "every repetition has its osnoise.txt" -- \
	test "$(ls "$dir"/*/*/osnoise.txt 2>/dev/null | wc -l)" -eq 10
check "each osnoise.txt's rows hold its samples (rows sum to count)" -- \
	bash -c "for f in '$dir'/*/*/osnoise.txt; do
		awk '/^[0-9]/ { for (i = 2; i <= NF; i++) s[i] += \$i }
		     /^over:/ { for (i = 2; i <= NF; i++) s[i] += \$i }
		     /^count:/ { n++; for (i = 2; i <= NF; i++) if (s[i] != \$i) bad = 1 }
		     END { exit bad || !n }' \"\$f\" || exit 1
	done"
check "the control spun (inject.spins > 0 in every repetition)" -- \
	jqe '[.scenarios[] | select(.name == "inject") | .repetitions[].workloads.inject.spins > 0] | length == 5 and all' "$man"
check "one comparison, inject against idle (osnoise has one side: no .irq)" -- \
	jqe '[.comparisons[] | "\(.candidate) \(.baseline)"] == ["inject idle"]' "$dir/report.json"
check "report.json: the control flagged: REGRESSION" -- \
	jqe '[.comparisons[] | select(.candidate == "inject") | .verdict] == ["REGRESSION"]' "$dir/report.json"
check "junit.xml tells the same story (a control flagged is no failure)" -- \
	bash -c "grep -q 'testcase' '$dir/junit.xml' && ! grep -q '<failure' '$dir/junit.xml'"
diag "$(jq -r '.comparisons[] | "\(.candidate) vs \(.baseline): \(.verdict): \(.reason)"' "$dir/report.json")"
done_testing
