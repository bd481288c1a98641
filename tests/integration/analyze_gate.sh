#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The gate's rules on a recorded real run (tests/fixtures/real/busy-1,
# whose manifest declares no comparison: each case below gives it some):
# a suite's comparisons share alpha, controls outside the family; budgets
# fail a candidate over them whatever the statistics; a noise profile in
# the manifest is the prior; a candidate --until-decided stopped early is
# judged on the repetitions it had then; INCONCLUSIVE says what the
# measurement could have seen. No cyclictest runs here.
source "$(dirname "$0")/../lib.sh"
SRC=$TOP/tests/fixtures/real/busy-1

# run_with JQ_FILTER: a copy of the sitting whose manifest the filter edits.
run_with() {
	rm -rf "$T/run"
	cp -r "$SRC" "$T/run"
	jq "$1" "$SRC/manifest.json" >"$T/run/manifest.json"
	"$RTGATE" report "$T/run" --report json >"$T/out" 2>"$T/err"
	rc=$?
	j=$T/run/report.json
}
cmp_of() { jget "$j" ".comparisons[] | select(.candidate == \"$1\") | $2"; }

two='(.scenarios[] | select(.name == "inject100" or .name == "hackbench")).compare = "idle"'
run_with "$two"
is "$rc" 1 "inject100 and hackbench against idle: exit 1 (the spinner)"
is "$(cmp_of inject100 .verdict)" REGRESSION "inject100 (100 us on CPU 1): REGRESSION"
is "$(cmp_of inject100 .line_level)" "$(jq -n '0.05 / 2 / 2 / '"$(cmp_of inject100 .family)")" \
	"... each line at alpha / 2 comparisons / 2 sides / the family"
check "... and the notes say alpha is shared by the suite's 2 comparisons" -- \
	grep -q 'shared by the suite.s 2 comparisons' <<<"$(cmp_of inject100 '.notes[]')"
check "... its deciding line is on CPU 1 and inside its interval" -- test \
	"$(cmp_of inject100 '.lines[.decisive] | .cpu == 1 and .interval[0] <= .delta and .delta <= .interval[1]')" = true
check "... and for every tested line, its interval excludes 0 exactly when its p is below the level" -- test \
	"$(cmp_of inject100 '. as $c | [.lines[] | select((.kind == "tail" or .kind == "max") and .interval != null) | ((.interval[0] > 0) == (.p_worse < $c.line_level)) and ((.interval[1] < 0) == (.p_better < $c.line_level))] | all')" = true
is "$(cmp_of hackbench .verdict)" INCONCLUSIVE "hackbench: INCONCLUSIVE (no pass without evidence)"
check "... the reason says what the measurement could have seen" -- \
	grep -Eq 'could only have seen a CPU [01] (typical max|p[0-9.]+) rise of [0-9.]+ us or more' \
	<<<"$(cmp_of hackbench .reason)"
check "... and report.json carries could_see and more_repetitions" -- test \
	"$(cmp_of hackbench '.lines[.decisive] | (.could_see > 0) and (.more_repetitions != null)')" = true

# A positive control is judged at the share but is not in the family.
run_with "$two | (.scenarios[] | select(.name == \"inject300\")) |= (.compare = \"idle\" | .control = \"positive\")"
check "the control inject300 is flagged (counts as a pass)" -- test \
	"$(cmp_of inject300 .counts_as)" = "NO CHANGE"
check "... and the family is still the 2 comparisons" -- \
	grep -q 'shared by the suite.s 2 comparisons' <<<"$(cmp_of inject300 '.notes[]')"

# Budgets: any valid repetition above fails, no statistics needed.
run_with "(.scenarios[] | select(.name == \"idle2\")).compare = \"idle\" | .suite.gate.budgets = {\"max_us\": 100000, \"p99_us\": 30}"
is "$(cmp_of idle2 .verdict)" REGRESSION "idle2 with a p99 budget of 30 us: REGRESSION"
check "... over budget, naming the repetition and CPU" -- \
	grep -Eq '^over budget: the candidate.s worst p99 is [0-9]+ us \(rep [0-9]+, CPU [01]\) against a budget of 30 us' \
	<<<"$(cmp_of idle2 .reason)"
run_with "(.scenarios[] | select(.name == \"idle2\")).compare = \"idle\" | .suite.gate.budgets = {\"max_us\": 100000}"
check "a budget nobody passes decides nothing (A/A: no REGRESSION)" -- \
	test "$(cmp_of idle2 .verdict)" != REGRESSION

# A noise profile in the manifest is the prior.
prof=$(jq -c '{schema: "rtgate-noise-profile/1", origin: "test", key: "k", repetitions: 20, df: 18,
	lines: [range(0; 2) as $c | {cpu: $c, metric: "p99", mean: 3.9, var: 0.04, bursts: 0}]}' -n)
run_with "(.scenarios[] | select(.name == \"idle2\")).compare = \"idle\" | .noise_profile = $prof"
is "$(cmp_of idle2 .profile_used)" true "a manifest's noise_profile is used"
echo "$prof" >"$T/prof.json"
"$RTGATE" compare "$SRC:idle" "$SRC:idle2" --profile "$T/prof.json" --report json --out "$T/cp" >/dev/null 2>&1
is "$(jget "$T/cp/report.json" '.comparisons[0].profile_used')" true "compare --profile FILE is used"
echo '{"schema": "nope"}' >"$T/bad.json"
is "$("$RTGATE" compare "$SRC:idle" "$SRC:idle2" --profile "$T/bad.json" >/dev/null 2>"$T/err"; echo $?)" 3 \
	"a file that is not a profile: exit 3"
check "... naming it" -- grep -q 'bad.json: not a noise profile' "$T/err"

# --until-decided: a candidate stopped at look 0 keeps its 3 repetitions.
seq='{"budget_s": 600, "max_repetitions": 10, "looks": [{"repetitions": 3, "level": 0.02}, {"repetitions": 10, "level": 0.01}], "stopped": {"inject100": {"look": 0, "baseline_repetitions": 3, "candidate_repetitions": 3}}}'
run_with "$two | .sequential = $seq"
is "$(cmp_of inject100 '"\(.baseline_repetitions) \(.candidate_repetitions)"')" "3 3" \
	"a candidate stopped at look 0 is judged on its 3 + 3 repetitions"
is "$(cmp_of inject100 .line_level)" "$(jq -n '0.02 / 2 / 2 / '"$(cmp_of inject100 .family)")" \
	"... at look 0's level"
is "$(cmp_of hackbench .line_level)" "$(jq -n '0.01 / 2 / 2 / '"$(cmp_of hackbench .family)")" \
	"... and one never stopped at the last look's"

# A record with the looks' information fractions: each line is judged at its
# group-sequential boundary, the first look's its increment, the last look
# less strict than its increment and stricter than the whole share.
seq='{"budget_s": 600, "max_repetitions": 10, "looks": [{"repetitions": 3, "t": 0.3, "level": 0.020774}, {"repetitions": 10, "t": 1, "level": 0.029226}], "stopped": {"inject100": {"look": 0, "baseline_repetitions": 3, "candidate_repetitions": 3}}}'
run_with "$two | .sequential = $seq"
check "with ts, look 0 is judged at its increment (the boundary's first)" -- test \
	"$(jq -n "($(cmp_of inject100 .line_level) / (0.020774 / 2 / 2 / $(cmp_of inject100 .family)) - 1) | fabs < 1e-3")" = true
check "... the last look at its boundary: above its increment, below the share" -- test \
	"$(jq -n "$(cmp_of hackbench .line_level) as \$l | (0.029226 / 2 / 2 / $(cmp_of hackbench .family)) < \$l and \$l < (0.05 / 2 / 2 / $(cmp_of hackbench .family))")" = true
done_testing
