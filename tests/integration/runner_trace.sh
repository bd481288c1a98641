#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `rtgate run --trace spikes` for real: idle against the inject control
# (a SCHED_FIFO 99 spinner beside cyclictest on CPU 1, run as rtg-spinner
# so that other jobs' inject on this machine cannot be taken for it). Each repetition
# saves trace.dat and its attribution; the reports name the spinner as the
# root cause of the inject scenario's worst wake-ups, against a baseline
# where it never appears. Workloads see the instance's name. No tracefs
# instance and no process is left, also when rtgate is killed with -9
# (the guardian removes the instance from the state file's undo).
source "$(dirname "$0")/../lib.sh"

jqe() { jq -e "$@" >/dev/null; }

if ! "$RTGATE" trace clean >/dev/null 2>"$T/clean.err"; then
	skip "$(cat "$T/clean.err")" "tracing unavailable"
	done_testing
	exit
fi
if [ "$(nproc)" -lt 2 ]; then
	skip "one CPU" "the inject control needs CPU 1"
	done_testing
	exit
fi

# inject under a name of its own: other jobs on this machine run inject
# too, and a foreign spinner in the baseline must not blur ours.
ln -s "$BIN/inject" "$T/rtg-spinner"

# A workload that reports the instance it was given.
cat >"$T/envcheck" <<'EOF'
#!/bin/bash
trap 'printf "{\"work_done\": 1, \"instance\": \"%s\"}\n" "$RTGATE_TRACE_INSTANCE"; exit 0' TERM
echo ready >&"$RTGATE_READY_FD"
while :; do sleep 0.05; done
EOF
chmod +x "$T/envcheck"

cat >"$T/tr.suite" <<EOF
[suite]
repetitions = 1
requires = root
[measure]
; CPU 1 only: the windows of the other CPU (host noise on this VM) would
; only dilute the spinner's share
cyclictest = -t1 -a 1 -p95 -m -i 1000
duration = 3s
histogram = 5000
[scenario idle]
[scenario inject]
compare = idle
workload = cpus=1 as=inject $T/rtg-spinner --cpu 1 --width-us 400 --period-us 2003
workload = as=envcheck $T/envcheck
expect = inject.spins > 0
EOF

"$RTGATE" run "$T/tr.suite" --trace spikes --no-history >"$T/run.out" \
	2>"$T/run.err"
rc=$?
run=$RTGATE_RESULTS_DIR/$(readlink "$RTGATE_RESULTS_DIR/latest")
m=$run/manifest.json
check "the run ends with a verdict (exit $rc)" -- test $rc -le 2
is "$(jget "$m" .status)" complete "the run is complete"
is "$(jget "$m" .suite.measure.trace)" spikes "the manifest says how it traced"
for s in idle inject; do
	tr=".scenarios[] | select(.name == \"$s\") | .repetitions[0].trace"
	is "$(jget "$m" "$tr.file")" trace.dat "$s: trace.dat in the manifest"
	check "$s: it opens in trace-cmd" -- \
		bash -c "trace-cmd report -i '$run/$s/1/trace.dat' 2>/dev/null | grep -q sched_switch"
	check "$s: its attribution is saved" -- jqe \
		'.schema == "rtgate-trace-attr/1" and (.windows | length) > 0' \
		"$run/$s/1/trace-attr.json"
	check "$s: the stop armed on cyclictest's threads" -- \
		jqe "$tr.stop_armed_threads >= 1" "$m"
	check "$s: no spool files left" -- \
		test -z "$(compgen -G "$run/$s/1/*.raw*")"
done
is "$(jget "$m" '.scenarios[1].repetitions[0].workloads.envcheck.instance')" \
	"$(jget "$m" '.scenarios[1].repetitions[0].trace.instance')" \
	"workloads get the instance in RTGATE_TRACE_INSTANCE"

sed -n '/^== root causes: inject/,/^$/p' "$run/report.txt" | sed 's/^/# /'
# The headline is the culprit that grew most; host noise that grew more
# between two repetitions can take it, so a new culprit is also told.
check "report.txt: the spinner is named as a new root cause against idle" -- \
	grep -qE '^(root cause: new|also new): rtg-spinner \(rt 99\)' \
	"$run/report.txt"
check "report.txt: a worst wake-up names the spinner, its pid and time" -- \
	grep -qE '^  rep 1 at [0-9]+\.[0-9]{6} (break )?CPU 1, [0-9.]+ us: .*rtg-spinner/[0-9]+ \(rt 99\) ran' \
	"$run/report.txt"
check "report.txt: the trace file is named" -- \
	grep -qF "rep 1: $run/inject/1/trace.dat" "$run/report.txt"
check "report.html: a root-cause section names the spinner" -- \
	bash -c "sed -n '/id=\"root-causes\"/,/<\/section>/p' '$run/report.html' | grep -qE '(<b>new|also new): rtg-spinner \(rt 99\)'"
check "report.json: the spinner caused >= 5 of the 50 worst, none in idle" -- \
	jqe '.root_causes[] | select(.scenario == "inject") |
		.against_baseline.culprits[] | select(.culprit == "rtg-spinner (rt 99)") |
		.windows >= 5 and .baseline_windows == 0' "$run/report.json"
left=0
for inst in $(jq -r '.scenarios[].repetitions[].trace.instance' "$m"); do
	[ -e "$(tracefs_dir)/instances/$inst" ] && left=$((left + 1))
done
is $left 0 "every repetition's instance is removed"
is "$(leftover_procs)" "" "no process of the run is left"

# ---- kill -9 during a traced repetition: the guardian removes it -------
cat >"$T/long.suite" <<EOF
[suite]
repetitions = 1
[measure]
cyclictest = --smp -p95 -m -i 1000
duration = 60s
trace = on
[scenario idle]
EOF
"$RTGATE" run "$T/long.suite" --no-history >"$T/long.out" 2>"$T/long.err" &
pid=$!
inst=
for _ in $(seq 300); do
	inst=$(ls $(tracefs_dir)/instances 2>/dev/null | grep "^rtgate-$pid-")
	[ -n "$inst" ] && leftover_procs | grep -q cyclictest && break
	sleep 0.1
done
check "kill -9: the suite's trace = on made an instance ($inst)" -- \
	test -n "$inst"
kill -9 "$pid"
wait "$pid" 2>/dev/null
for _ in $(seq 200); do
	[ ! -e "$RTGATE_STATE_DIR/state.json" ] && [ -z "$(leftover_procs)" ] &&
		break
	sleep 0.1
done
check "kill -9: the guardian restored" -- \
	grep -q "guardian: rtgate (pid $pid) died during a run; .*removed 1 tracefs instance" \
	"$T/long.err"
check "kill -9: the instance is gone" -- test ! -e "$(tracefs_dir)/instances/$inst"
is "$(leftover_procs)" "" "kill -9: no process of the run is left"
is "$(ls $(tracefs_dir)/instances | grep -c "^rtgate-$pid-")" 0 \
	"kill -9: no instance of the run is left"

done_testing
