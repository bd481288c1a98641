#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rtgate calibrate and what runs make of its noise profile, and
# --until-decided, on the smoke suite scaled to 1 s repetitions: the
# profile is stored in the history and written beside the calibration
# run, --if-missing does not calibrate twice, a run of the same
# measurement says what it can see and judges with the profile, a run of
# another measurement says it has none, and --until-decided records its
# looks with alpha spent within alpha.
source "$(dirname "$0")/../lib.sh"
DB=$RTGATE_RESULTS_DIR/rtgate.db
S=0.34		# smoke's 3 s repetitions at 1 s

"$RTGATE" calibrate --suite smoke --duration-scale $S --duration 20s \
	>"$T/cal" 2>"$T/cal.err"
is "$?" 0 "calibrate exits 0"
sed 's/^/# /' "$T/cal.err" | head -5
check "... and its run does not ask for a calibration" -- \
	bash -c "! grep -q 'no noise profile of this machine' '$T/cal'"
check "... nor prints an empty verdict table (it compares nothing)" -- \
	bash -c "! grep -q '^candidate  *baseline  *verdict' '$T/cal'"
prof=$(ls "$RTGATE_RESULTS_DIR"/*-calibrate-smoke/noise-profile.json 2>/dev/null | head -1)
check "the calibration run keeps noise-profile.json" -- test -s "$prof"
is "$(jget "$prof" .schema)" rtgate-noise-profile/1 "... of schema rtgate-noise-profile/1"
is "$(jget "$prof" '[.lines[] | select(.metric == "max")] | length')" 2 \
	"... with a max line per CPU"
check "... from at least three repetitions a scenario" -- \
	test "$(jget "$prof" .repetitions)" -ge 6
is "$(sqlite3 "$DB" 'SELECT count(*) FROM noise_profiles')" 1 \
	"the profile is in the history"
diag "$(grep "^  CPU" "$T/cal")"
check "calibrate says what the suite can see here" -- \
	grep -Eq '^  CPU 0: a p9[059] rise of [0-9]+ us or more' "$T/cal"
check "... a typical max rise it can see, or that the maxima scatter too much" -- \
	grep -Eq '^  CPU 0: .*(, a typical max rise of [0-9]+ us or more|, no typical max rise below 100 times its [0-9]+ us \(the maxima scatter too much here\));' "$T/cal"
check "... and a burst line, where there is one, says how often and what then" -- \
	bash -c "! grep '^  CPU [0-9]: in ' '$T/cal' | grep -Evq '^  CPU [0-9]: in [0-9]+ % of runs of [0-9]+ repetitions a burst lands in one \([0-9]+ of the profile.s [0-9]+ repetitions had one at p9[0-9.]+\); then a p9[0-9.]+ rise of [0-9]+ us or more$'"

"$RTGATE" calibrate --suite smoke --duration-scale $S --if-missing >"$T/cal2"
is "$?" 0 "calibrate --if-missing exits 0"
check "... finds the profile" -- grep -q 'has a noise profile' "$T/cal2"
is "$(sqlite3 "$DB" 'SELECT count(*) FROM noise_profiles')" 1 \
	"... and records nothing more"

run_suite smoke --duration-scale $S
check "a run of the measurement names its noise profile" -- \
	grep -q '^noise profile: ' "$T/out"
check "... and says what it can see" -- \
	grep -q '^on this machine, 2 repetitions a side of this suite can see:' "$T/out"
is "$(jget "$m" '.noise_profile.schema')" rtgate-noise-profile/1 \
	"the manifest keeps the profile"
is "$(jget "$j" '[.comparisons[] | select(.verdict != "SKIPPED") | .profile_used] | all')" true \
	"... and its comparisons were judged with it"
run_suite smoke --duration-scale 0.67
check "another measurement (2 s repetitions) has no profile, and says so" -- \
	grep -q '^no noise profile of this machine for this measurement yet' "$T/out"
is "$(jget "$m" '.noise_profile')" null "... nor one in its manifest"

run_suite smoke --duration-scale $S --until-decided --budget 15s
is "$(jget "$m" .status)" complete "--until-decided: the run completes"
check "... records its looks" -- test "$(jget "$m" '.sequential.looks | length')" -ge 1
check "... spending no more than alpha over them" -- test \
	"$(jget "$m" '([.sequential.looks[].level] | add) <= 0.05 + 1e-12')" = true
check "... and every comparison decided or judged at the last look" -- test \
	"$(jget "$m" '.sequential.stopped | keys | length')" -ge 0

# --max-repetitions outside 2..1000: exit 3, saying the range, nothing run.
for v in 1 x 1001; do
	"$RTGATE" run smoke --max-repetitions $v --no-history >"$T/mr" 2>"$T/mre"
	is "$?" 3 "--max-repetitions $v: exit 3"
	check "... naming the option and its range" -- \
		grep -q -- "--max-repetitions: '$v' is not a number in 2..1000" "$T/mre"
done

# --max-repetitions bounds the rounds by repetitions, with no time budget
# (the lab's clock races between repetitions): no scenario passes it, and
# a comparison still open there stays INCONCLUSIVE, said so.
run_suite smoke --duration-scale $S --max-repetitions 4
is "$(jget "$m" .status)" complete "--max-repetitions 4: the run completes"
is "$(jget "$m" .sequential.max_repetitions)" 4 "... its bound is recorded"
is "$(jget "$m" .sequential.budget_s)" null "... and no time budget"
is "$(jget "$m" '[.scenarios[] | .repetitions | length] | max <= 4')" true \
	"... no scenario has more than 4 repetitions"
is "$(jget "$m" '[.sequential.looks[].level] | add <= 0.05 + 1e-12')" true \
	"... alpha spent within alpha"
if [ "$(jget "$m" '[.sequential.looks[].repetitions] | max')" = 4 ]; then
	is "$(jget "$m" '.sequential.looks[-1].t')" 1 \
		"... the look at the bound spends what is left (t = 1)"
fi
check "no process of ours is left" -- test -z "$(leftover_procs)"
done_testing
