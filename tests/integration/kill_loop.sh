#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kills at random moments: a traced run changing seven sysctls with
# hackbench running is sent SIGTERM, SIGINT or SIGKILL, sometimes while it
# saves a trace, sometimes together with its guardian (the worst case);
# then the next start (`rtgate restore`) comes. After it: 0 sysctls
# changed, 0 processes of the run, 0 tracefs instances, 0 cgroups.
#   KILLS=N (default 4 here; tests/slow/kill_loop.sh runs 60)
#   KILL_SEED=S to replay a sequence (printed at the start)
source "$(dirname "$0")/../lib.sh"
kills=${KILLS:-4}
seed=${KILL_SEED:-$$}
RANDOM=$seed
diag "$kills kills, KILL_SEED=$seed"

knobs=(kernel.sched_rr_timeslice_ms kernel.printk_ratelimit
       kernel.printk_ratelimit_burst vm.stat_interval
       vm.dirty_writeback_centisecs kernel.msgmax fs.pipe-max-size)
knob() { cat "/proc/sys/${1//.//}"; }
declare -A orig
for k in "${knobs[@]}"; do orig[$k]=$(knob "$k"); done
# A new value for each: its original + 1, or a page more for pipes.
newval() {
	case $1 in
	fs.pipe-max-size) echo $((${orig[$1]} + 4096)) ;;
	*) echo $((${orig[$1]} + 1)) ;;
	esac
}
trace=spikes
"$RTGATE" trace clean >/dev/null 2>&1 || trace=off
{
	printf '[suite]\nname = killed\nrepetitions = 2\n[measure]\n'
	printf 'cyclictest = --smp -p95 -m -i 1000\nduration = 2s\n'
	printf 'trace = %s\n[scenario base]\n' "$trace"
	printf 'sysctl = kernel.sched_rr_timeslice_ms=%s\n' \
		"$(newval kernel.sched_rr_timeslice_ms)"
	printf '[scenario load]\ncompare = base\n'
	printf 'workload = hackbench-loop --groups 2 --loops 50\n'
	for k in "${knobs[@]}"; do printf 'sysctl = %s=%s\n' "$k" "$(newval "$k")"; done
} >"$T/killed.suite"

changed() {	# how many of the knobs differ from their originals
	local k n=0
	for k in "${knobs[@]}"; do
		[ "$(knob "$k")" = "${orig[$k]}" ] || n=$((n + 1))
	done
	echo $n
}
procs() { leftover_procs | wc -l; }
instances() { ls $(tracefs_dir)/instances 2>/dev/null | grep -c "^rtgate-$1-"; }
cgroups() { find /sys/fs/cgroup -maxdepth 6 -type d -name "rtgate-$1" 2>/dev/null | wc -l; }
saver() { pgrep -f "trace-cmd .*$RTGATE_RESULTS_DIR" | head -1; }
# The kinds of kill, the first ones in a fixed order so that a short loop
# still sees the worst cases.
fixed=(KILL-both-save KILL-save TERM-any INT-any KILL-both-any KILL-any)
sigs=(TERM INT KILL)
bad=0 n_changed=0 n_procs=0 n_inst=0 n_cg=0 n_save=0 n_both=0
for i in $(seq "$kills"); do
	if [ "$i" -le ${#fixed[@]} ]; then
		kind=${fixed[$((i - 1))]}
	else
		sig=${sigs[$((RANDOM % 3))]}
		when=any
		[ $trace = spikes ] && [ $((RANDOM % 3)) = 0 ] && when=save
		both=
		[ $sig = KILL ] && [ $((RANDOM % 2)) = 0 ] && both=-both
		kind=$sig$both-$when
	fi
	sig=${kind%%-*}
	[ $trace = off ] && kind=${kind/-save/-any}
	"$RTGATE" run "$T/killed.suite" --no-history >"$T/run.out" 2>"$T/run.err" &
	pid=$!
	if [[ $kind == *-save ]]; then
		for _ in $(seq 1500); do
			[ -n "$(saver)" ] && break
			kill -0 $pid 2>/dev/null || break
			sleep 0.02
		done
		[ -n "$(saver)" ] && n_save=$((n_save + 1))
	else
		# 0.1 to 14 s: from the start to the report phase.
		sleep "$((RANDOM % 140 / 10)).$((RANDOM % 10))"
	fi
	gpid=$(guardian_of $pid)
	if [[ $kind == *-both-* ]] && [ -n "$gpid" ]; then
		kill -KILL "$gpid" $pid 2>/dev/null
		n_both=$((n_both + 1))
	else
		kill -"$sig" $pid 2>/dev/null
	fi
	# rtgate (and its guardian) finish their clean-up: 60 s at most.
	for _ in $(seq 600); do
		kill -0 $pid 2>/dev/null || { [ -n "$gpid" ] && kill -0 "$gpid" 2>/dev/null; } ||
			break
		sleep 0.1
	done
	{ wait $pid; } 2>/dev/null
	rc=$?
	# What was left for the next start (only a kill of both leaves any).
	if [[ $kind == *-both-* ]]; then
		sleep 0.5
		b=$(changed)
		bp=$(procs)
		diag "  before the next start: $b sysctls changed, $bp processes, $(instances $pid) instances, $(cgroups $pid) cgroups"
	fi
	# The next start.
	"$RTGATE" restore >"$T/restore.out" 2>"$T/restore.err"
	rrc=$?
	c=$(changed) p=$(procs) ni=$(instances $pid) ng=$(cgroups $pid)
	n_changed=$((n_changed + c)) n_procs=$((n_procs + p))
	n_inst=$((n_inst + ni)) n_cg=$((n_cg + ng))
	line="kill $i/$kills: $kind (rtgate pid $pid exited $rc; restore $rrc): $c sysctls changed, $p processes, $ni instances, $ng cgroups"
	if [ "$c$p$ni$ng" != 0000 ] || [ $rrc != 0 ]; then
		bad=$((bad + 1))
		echo "not ok $((_tap_n + 1)) - $line"
		_tap_n=$((_tap_n + 1)) _tap_failed=$((_tap_failed + 1))
		sed 's/^/#   /' "$T/run.err" "$T/restore.err" | tail -8
		for k in "${knobs[@]}"; do
			echo "${orig[$k]}" >"/proc/sys/${k//.//}"
		done
	else
		diag "$line"
	fi
done
diag "kills during a trace save: $n_save; rtgate killed with its guardian: $n_both"
is "$bad" 0 "$kills kills: after the next start, $n_changed sysctls changed, $n_procs processes, $n_inst tracefs instances, $n_cg cgroups in all"
done_testing
