# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers for the workload integration tests (workloads_*.sh), on top of
# tests/lib.sh. Not a test itself (run-tests.sh runs *.sh only).
#
# A workload is started in its own session (setsid), so that its process
# group holds it and every child it starts: "no child left" is "nothing left
# in the group", found by process group and never by name (other people's
# hackbench and stress-ng run on this machine too).

# usage_error DESC EXPECTED_WORD BIN ARGS...: exit 2, one line on stderr
# naming the bad option or value, nothing on stdout.
usage_error() {
	local desc=$1 word=$2 rc
	shift 2
	timeout -k 1 10 "$@" >"$T/ue.out" 2>"$T/ue.err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/ue.err")" -eq 1 ] &&
		grep -qF -- "$word" "$T/ue.err" && [ ! -s "$T/ue.out" ]
	ok $? "$desc: exit 2 naming '$word' (exit $rc: $(head -c 200 "$T/ue.err"))"
}

# wl_start NAME BIN ARGS...: starts the workload in its own session with
# RTGATE_READY_FD; WL_PID is its pid (and process group).
wl_start() {
	local name=$1
	shift
	WL_OUT=$T/$name.json WL_ERR=$T/$name.err WL_READY=$T/$name.ready
	: >"$WL_READY"
	RTGATE_READY_FD=3 setsid "$@" 3>"$WL_READY" >"$WL_OUT" 2>"$WL_ERR" &
	WL_PID=$!
}

# wl_wait_ready SECONDS: true once the workload wrote "ready".
wl_wait_ready() {
	local i
	for ((i = 0; i < $1 * 20; i++)); do
		[ "$(cat "$WL_READY")" = ready ] && return 0
		kill -0 "$WL_PID" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# wl_group_procs: processes left in the workload's process group.
wl_group_procs() {
	ps -e -o pid=,pgid=,comm= | awk -v g="$WL_PID" '$2 == g'
}

# wl_wait_exit SECONDS: waits for the workload; WL_RC is its exit status
# (124 when it had to be killed).
wl_wait_exit() {
	local i
	for ((i = 0; i < $1 * 20; i++)); do
		kill -0 "$WL_PID" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$WL_PID" 2>/dev/null; then
		kill -KILL -- -"$WL_PID" 2>/dev/null
		wait "$WL_PID" 2>/dev/null
		WL_RC=124
		return 1
	fi
	wait "$WL_PID"
	WL_RC=$?
}

# wl_check_summary NAME: stdout is exactly one line of JSON for NAME.
wl_check_summary() {
	[ "$(wc -l <"$WL_OUT")" -eq 1 ] &&
		jq -e --arg n "$1" '.workload == $n and (.work_done | type) == "number"
			and (.errors | type) == "number"
			and (.duration_s | type) == "number"' "$WL_OUT" >/dev/null
	ok $? "$1: one-line JSON summary with the common fields"
}

# wl_sigterm_check NAME SECONDS: SIGTERM, exit 0 within SECONDS, nothing of
# its process group left, a valid summary.
wl_sigterm_check() {
	local name=$1 left
	kill -TERM "$WL_PID"
	wl_wait_exit "$2"
	is "$WL_RC" 0 "$name: exits 0 on SIGTERM"
	sleep 0.2
	left=$(wl_group_procs)
	[ -z "$left" ]
	ok $? "$name: no process of its group left after SIGTERM${left:+: $left}"
	[ -z "$left" ] || kill -KILL -- -"$WL_PID" 2>/dev/null
	wl_check_summary "$name"
}

# jv EXPR: a value from the last summary.
jv() { jq -r "$1" "$WL_OUT"; }

# need_root NAME: skips the rest when not root.
is_root() { [ "$(id -u)" -eq 0 ]; }
