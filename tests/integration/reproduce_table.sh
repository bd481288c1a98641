#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `rtgate reproduce`: the seeds it knows, its refusals of bad input, and
# its table rebuilt from disk. The table is checked against a recorded
# real run (tests/fixtures/analyze/run-inject, renamed into the shape of
# slice-ext-7's scenarios, with extend-sched counts in its manifest): its
# measured numbers must be the report's own, its verdicts the
# comparisons', its grants the manifest's sums. The end-to-end
# reproductions (kernel builds and lab boots) are in the slow tier
# (tests/slow/reproduce_seeds.sh).
source "$(dirname "$0")/../lib.sh"

"$RTGATE" reproduce --list >"$T/list" 2>"$T/err"
is $? 0 "reproduce --list"
is "$(grep -c '^00[0-4]  ' "$T/list")" 4 "four seeds listed"
check "004 runs on non-RT and RT, RT with its own layout" -- \
	grep -q 'suites slice-ext-7-solo (full), slice-ext-7-solo-rt (rt),' "$T/list"
check "004 on one vCPU, where the silent lab's max decides" -- \
	grep -q 'suites slice-ext-7-solo (full), slice-ext-7-solo-rt (rt), clock icount:3, 1 vCPU$' "$T/list"
check "a seed with one suite still says it once" -- \
	grep -q 'suite hrtick, model full, clock icount:0, 2 vCPUs$' "$T/list"

"$RTGATE" reproduce 002 >/dev/null 2>"$T/err"
is $? 3 "a seed rtgate does not know: exit 3"
check "says which seeds there are" -- grep -q "no seed '002' (000, 001, 003 or 004)" "$T/err"
"$RTGATE" reproduce 004 --src /nonexistent --debian 7.3 >/dev/null 2>"$T/err"
is $? 3 "--src with --debian: exit 3"
"$RTGATE" reproduce 004 --clock icount:x >/dev/null 2>"$T/err"
is $? 3 "a bad --clock: exit 3"
"$RTGATE" reproduce 000 --model rt --src /nonexistent >/dev/null 2>"$T/err"
is $? 3 "a model the seed is not judged on: exit 3"
check "names the seed's models" -- grep -q 'the seed is judged on full' "$T/err"

# A run in slice-ext-7's shape: idle -> off, inject -> grant-30us.
run=$T/run
cp -r "$TOP/tests/fixtures/analyze/run-inject" "$run"
mv "$run/idle" "$run/off"
mv "$run/inject" "$run/grant-30us"
jq '.scenarios |= map(select(.name != "rt-only"))
  | (.scenarios[] | select(.name == "idle")) |= (.name = "off")
  | (.scenarios[] | select(.name == "inject")) |=
	(.name = "grant-30us" | .compare = "off")
  | .scenarios[].repetitions[] |= (.dir |= sub("^idle"; "off")
	| .dir |= sub("^inject"; "grant-30us"))
  | (.scenarios[] | select(.name == "grant-30us") | .repetitions[]
	| .workloads) |= {"extend-sched": {"extension_requests": 100,
	"extensions_granted": 40, "work_done": 1, "errors": 0}}
  | (.scenarios[] | select(.name == "grant-30us") | .repetitions[]
	| .rseq_stats) |= {"sgrant": 50, "sexpir": 3, "srevok": 7}
  | .order |= map(.[0] |= (if . == "idle" then "off" else "grant-30us" end))' \
	"$TOP/tests/fixtures/analyze/run-inject/manifest.json" >"$run/manifest.json"
"$RTGATE" report "$run" --report json >/dev/null 2>"$T/err"
is $? 1 "the renamed run is judged: the injected latency is a REGRESSION"

r=$T/reproduce-004
mkdir -p "$r"
cat >"$r/reproduce.json" <<EOF
{"schema": "rtgate-reproduce/1", "seed": "004", "title": "t", "source": "s",
 "suite": "slice-ext-7", "kind": "scenarios", "tree": "debian", "series": "7.3",
 "clock": "icount", "duration_scale": "1", "note": "n", "command": "rtgate reproduce 004",
 "wall_s": 100, "status": "complete",
 "models": [{"model": "full", "runs": [{"label": "full", "wall_s": 95}],
	     "report": "$run", "exit_code": 1}]}
EOF
"$RTGATE" reproduce --table "$r" >"$T/table" 2>"$T/err"
is $? 1 "reproduce --table rebuilds the table, exiting as the reproduction did (1)"
rows=$r/reproduce.json
is "$(jget "$rows" '.rows | length')" 3 "one row per published pair of the model (5, 30, 50 us)"
row='.rows[] | select(.scenario == "grant-30us")'
is "$(jget "$rows" "$row | .verdict")" \
	"$(jget "$run/report.json" '.comparisons[] | select(.candidate == "grant-30us") | .verdict')" \
	"the verdict is the comparison's"
want_max=$(jget "$run/report.json" '[.scenarios[] | select(.name == "grant-30us") | .summary[].max_us] | max')
is "$(jget "$rows" "$row | .measured_after")" "$want_max" \
	"measured is the T: lines' largest Max"
is "$(jget "$rows" "$row | .grants")" 150 "grants: the kernel's rseq/stats sgrant, the repetitions' sum"
is "$(jget "$rows" "$row | .grants_seen")" 120 "grants seen: extend-sched's own count"
is "$(jget "$rows" "$row | .requests")" 300 "requests: the same"
is "$(jget "$rows" '.rows[] | select(.scenario == "grant-5us") | .verdict')" \
	"not measured" "a scenario the run lacks is not measured, never a verdict"
check "the text table has the published pair" -- grep -q 'grant-30us .*12 -> 39' "$T/table"
want_line=$(jget "$run/report.json" '.comparisons[] | select(.candidate == "grant-30us")
	| [.lines[] | select(.kind == "max" and .metric == "max")][0].verdict')
check "the max line's own verdict is the row's (the seeds are judged on the maximum)" -- \
	bash -c "jq -r '$row | .max_line' '$rows' | grep -q '^CPU 0 typical max .* us $want_line'"
check "... printed under the row" -- grep -q "^      the max line: CPU 0 typical max .* $want_line" "$T/table"
check "... and in the Markdown table's last column" -- \
	grep -q "^| full | grant-30us | .* | CPU 0 typical max .* $want_line |\$" "$r/reproduce.md"
check "and the grants, the kernel's and those seen" -- grep -q 'grant-30us .* 150 (120 seen)' "$T/table"
check "and says what the clock was" -- grep -q 'virtual microseconds at a fixed instruction rate' "$T/table"
check "a table from before the seeds chose vCPUs says two" -- grep -q 'the QEMU lab (2 vCPUs), clock icount' "$T/table"
jq '.vcpus = 1' "$r/reproduce.json" >"$T/one.json" && mv "$T/one.json" "$r/reproduce.json"
"$RTGATE" reproduce --table "$r" >"$T/table1" 2>"$T/err"
check "one vCPU, as the run recorded it" -- grep -q 'the QEMU lab (1 vCPU), clock icount' "$T/table1"
check "... in the Markdown table too" -- grep -q 'in the QEMU lab (1 vCPU), clock icount' "$r/reproduce.md"
check "the Markdown table too" -- grep -q '^| full | grant-30us | max (us) | 12 -> 39 |' "$r/reproduce.md"

# The repetitions a boot, as the reproduction recorded them.
check "a table written before counts were kept: no count claimed" -- sh -c "! grep -q 'repetitions' '$T/table1'"
jq '.repetitions = null' "$r/reproduce.json" >"$T/rp.json" && mv "$T/rp.json" "$r/reproduce.json"
"$RTGATE" reproduce --table "$r" >"$T/tablen" 2>&1
check "no count asked for (null): the suite's own" -- grep -q "duration scale [0-9.]*, the suite's repetitions, status" "$T/tablen"
jq '.repetitions = 14' "$r/reproduce.json" >"$T/rp.json" && mv "$T/rp.json" "$r/reproduce.json"
"$RTGATE" reproduce --table "$r" >"$T/table14" 2>&1
check "a count recorded: '14 repetitions a boot' in the text table" -- grep -q '14 repetitions a boot, status' "$T/table14"
check "... and in the Markdown one" -- grep -q 'duration scale [0-9.]*, 14 repetitions a boot\.' "$r/reproduce.md"

# Its exit code is the reproduction's: never 0 for what was not judged.
jq 'del(.models[0].exit_code)' "$r/reproduce.json" >"$T/nx.json"
mkdir -p "$T/nx" && cp "$T/nx.json" "$T/nx/reproduce.json"
"$RTGATE" reproduce --table "$T/nx" >/dev/null 2>"$T/err"
is $? 5 "a model without an exit code: exit 5 (incomplete), never a pass"
jq '.models = []' "$r/reproduce.json" >"$T/nx/reproduce.json"
"$RTGATE" reproduce --table "$T/nx" >/dev/null 2>"$T/err"
is $? 5 "no model at all: exit 5"

# The runs moved away: the table is not rebuilt from nothing (issue 35).
cp "$r/reproduce.json" "$T/before.json"
cp "$r/reproduce.md" "$T/before.md"
mv "$run" "$run.moved"
"$RTGATE" reproduce --table "$r" >/dev/null 2>"$T/err"
rc=$?
ok $((rc == 0)) "reproduce --table whose runs are gone: not exit 0 (exit $rc)"
check "... saying which report and that nothing was rewritten" -- 	grep -q "cannot be read.*left as it was" "$T/err"
check "... reproduce.json as it was" -- cmp -s "$T/before.json" "$r/reproduce.json"
check "... reproduce.md as it was" -- cmp -s "$T/before.md" "$r/reproduce.md"
mv "$run.moved" "$run"

# A reproduction moved and renamed as a whole (lab CI's artifacts): its
# reports are found below the new folder, and the table is the same.
"$RTGATE" reproduce --table "$r" >/dev/null 2>&1
want=$?
jq -S .rows "$r/reproduce.json" >"$T/rows.orig"
mv "$r" "$T/elsewhere"
mv "$run" "$T/elsewhere/${run##*/}"
"$RTGATE" reproduce --table "$T/elsewhere" >"$T/moved.txt" 2>"$T/err"
is $? "$want" \
	"a reproduction moved whole: its table again, the same exit code"
jq -S .rows "$T/elsewhere/reproduce.json" >"$T/rows.moved"
check "... the same rows, read below the new folder" -- cmp -s "$T/rows.orig" "$T/rows.moved"
check "... no report missing" -- sh -c "! grep -q 'cannot be read' '$T/err'"
mv "$T/elsewhere/${run##*/}" "$run"
mv "$T/elsewhere" "$r"

# reproduce.json is read back from disk: its strings are data in the
# Markdown table, and a vCPU count that is none is refused.
jq '.title = "t | x\n## injected" | .source = "s`[a](b)`"' "$r/reproduce.json" >"$T/h.json" &&
	mv "$T/h.json" "$r/reproduce.json"
"$RTGATE" reproduce --table "$r" >/dev/null 2>"$T/err"
is $? 1 "a table with a hostile title is rendered"
check "the title stays on its heading line, its '|' escaped" -- \
	grep -q '^## Seed 004: t \\| x ## injected$' "$r/reproduce.md"
check "no heading was injected" -- test "$(grep -c '^## ' "$r/reproduce.md")" = 1
check "the source's backticks and brackets escaped" -- \
	grep -qF 'Published: s\`\[a\](b)\`.' "$r/reproduce.md"
for v in '0' '1e30' '"two"'; do
	jq ".vcpus = $v" "$r/reproduce.json" >"$T/v.json"
	mkdir -p "$T/v" && cp "$T/v.json" "$T/v/reproduce.json"
	"$RTGATE" reproduce --table "$T/v" >/dev/null 2>"$T/err"
	is $? 3 "vcpus $v: exit 3"
	check "... naming the file and the field" -- grep -q "$T/v/reproduce.json: vcpus is not a vCPU count" "$T/err"
done

echo '{"seed": "004", "models": [' >"$T/bad.json"
mkdir -p "$T/bad" && mv "$T/bad.json" "$T/bad/reproduce.json"
"$RTGATE" reproduce --table "$T/bad" >/dev/null 2>"$T/err"
is $? 3 "a truncated reproduce.json: exit 3"
check "names the file" -- grep -q "$T/bad/reproduce.json" "$T/err"

# A max line in the milliseconds (a VM's host pauses) reads as microseconds,
# whole, never in e-notation ("4416 -> 4629 us", not "4.42e+03").
msrun=$T/msrun
cp -r "$run" "$msrun"
jq '(.comparisons[] | select(.candidate == "grant-30us") | .lines[]
	| select(.kind == "max" and .metric == "max")) |= (.baseline = 4416.27 | .candidate = 4629.4)' \
	"$run/report.json" >"$msrun/report.json"
mkdir -p "$T/ms"
jq --arg d "$msrun" '.models[0].report = $d' "$r/reproduce.json" >"$T/ms/reproduce.json"
"$RTGATE" reproduce --table "$T/ms" >"$T/mstable" 2>"$T/err"
check "a millisecond max line prints whole microseconds" -- \
	grep -q "the max line: CPU 0 typical max 4416 -> 4629 us" "$T/mstable"
check "... and no e-notation anywhere in the table" -- \
	bash -c "! grep -q '[0-9]e[+-][0-9]' '$T/mstable'"

done_testing
