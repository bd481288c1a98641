#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# suites/stress.suite end to end, scaled down (3 s repetitions, two of
# them): the runner starts stress-ng through the stress workload for each
# stressor scenario, every repetition reports bogo-ops from stress-ng's own
# metrics, the report shows them, and each scenario is judged against idle.
# No latency is asserted: this machine's maxima are host noise.
source "$(dirname "$0")/../lib.sh"

jtest() { jq -e "$1" "$2" >/dev/null; }

cd "$TOP" || exit 1
run_suite stress --duration-scale 0.1 --repeat 2
is "$(jget "$m" .suite.name)" stress "the stress suite ran"
is "$(jget "$m" .status)" complete "the run completes"
check "exit 0, 1 or 2 (a verdict, not an error)" -- test "$rc" -le 2

declare -A stressor=([cpu-vm]="cpu vm" [timer]=timer [switch]=switch)
for s in cpu-vm timer switch; do
	for r in 1 2; do
		f=$dir/$s/$r/stress.json
		check "$s/$r: stress-ng's metrics give work done > 0" -- \
			jtest '.work_done > 0 and .errors == 0' "$f"
		for n in ${stressor[$s]}; do
			check "$s/$r: bogo-ops of the $n stressor" -- \
				jtest ".stressors.$n.bogo_ops > 0" "$f"
		done
	done
	v=$(jget "$j" ".comparisons[] | select(.candidate == \"$s\") | .verdict")
	diag "$s vs idle: $v"
	check "$s vs idle is judged" -- \
		grep -qE '^(NO CHANGE|REGRESSION|IMPROVEMENT|INCONCLUSIVE)$' <<<"$v"
done
check "the text report says what stress did" -- \
	grep -qE 'workload stress: work done [0-9]+ \| [0-9]+ bogo-ops' \
	"$dir/report.txt"
check "the verdict table names the three stressor scenarios" -- \
	bash -c "grep -cE '^(cpu-vm|timer|switch) +idle +[A-Z]' '$T/out' | grep -qx 3"
is "$(leftover_procs | wc -l)" 0 "no process left behind"
done_testing
