# SPDX-License-Identifier: GPL-2.0-only
#
# TAP helpers for integration tests (bash). Source it, call the checks,
# end with done_testing. Every test gets a private temporary directory
# ($T), its own rtgate state directory and results directory, so tests
# never see each other's leftovers.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=$TOP/bin
RTGATE=$BIN/rtgate
T=$(mktemp -d /tmp/rtgate-test.XXXXXX)
export RTGATE_STATE_DIR=$T/state
export RTGATE_RESULTS_DIR=$T/results
_tap_n=0
_tap_failed=0

_tap_cleanup() { [ -n "${KEEP_TMP:-}" ] || rm -rf "$T"; }
trap _tap_cleanup EXIT

ok() {	# ok CONDITION_EXIT_STATUS DESCRIPTION
	local status=$1
	shift
	_tap_n=$((_tap_n + 1))
	if [ "$status" -eq 0 ]; then
		echo "ok $_tap_n - $*"
	else
		echo "not ok $_tap_n - $*"
		_tap_failed=$((_tap_failed + 1))
	fi
}

check() {	# check DESCRIPTION -- COMMAND...: passes when COMMAND succeeds
	local desc=$1
	shift
	[ "${1:-}" = -- ] && shift
	"$@"
	ok $? "$desc"
}

is() {	# is GOT EXPECTED DESCRIPTION
	local got=$1 want=$2
	shift 2
	[ "$got" = "$want" ]
	ok $? "$* (got '$got', want '$want')"
}

skip() {	# skip REASON DESCRIPTION
	local reason=$1
	shift
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $* # SKIP $reason"
}

diag() { echo "# $*"; }

done_testing() {
	echo "1..$_tap_n"
	[ $_tap_failed -eq 0 ]
}

# jq (a test dependency, not a runtime one) reads JSON in tests:
#   jget FILE '.status'
jget() { jq -r "$2" "$1"; }

# run_suite ARGS...: `rtgate run ARGS --no-history`, stdout in $T/out and
# stderr in $T/err (its head as diagnostics); sets rc, dir (the results
# directory), m (its manifest.json) and j (its report.json).
run_suite() {
	"$RTGATE" run "$@" --no-history >"$T/out" 2>"$T/err"
	rc=$?
	diag "rtgate run $* exited $rc"
	sed 's/^/# /' "$T/err" | head -20
	dir=$RTGATE_RESULTS_DIR/$(readlink "$RTGATE_RESULTS_DIR/latest")
	m=$dir/manifest.json
	j=$dir/report.json
}

# No process of ours may be left behind: the runner gives every process it
# starts RTGATE_OWNER=<its state directory> in the environment, so survivors
# are found by it (other tests or runs on the machine are not ours).
# Prints "PID COMM" per survivor.
leftover_procs() {
	local e pid
	# One grep over every environ (-z: NUL-separated entries); processes
	# that exit meanwhile are silently skipped.
	grep -lzxF "RTGATE_OWNER=$RTGATE_STATE_DIR" /proc/[0-9]*/environ \
		2>/dev/null | while read -r e; do
		pid=${e#/proc/}; pid=${pid%/environ}
		echo "$pid $(cat /proc/$pid/comm 2>/dev/null)"
	done
}

# tracefs_dir: where tracefs is mounted, as libtracefs finds it (the first
# tracefs in /proc/mounts: /sys/kernel/debug/tracing once something has
# mounted debugfs, /sys/kernel/tracing otherwise). Every mount of tracefs
# shows the same instances; before any is mounted, the documented place.
tracefs_dir() {
	awk '$3 == "tracefs" { print $2; found = 1; exit }
		END { if (!found) print "/sys/kernel/tracing" }' /proc/mounts
}

# guardian_of PID: the guardian (rtgate-guard) of the rtgate run PID.
guardian_of() {
	ps -o pid=,comm= --ppid "$1" | awk '$2 == "rtgate-guard" { print $1 }'
}

# wait_measuring FILE VALUE PID: until the tunable FILE reads VALUE and a
# cyclictest of ours measures (60 s at most); fails when PID is gone.
wait_measuring() {
	local i
	for i in $(seq 1 600); do
		[ "$(cat "$1")" = "$2" ] && leftover_procs 2>/dev/null |
			grep -q cyclictest && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
