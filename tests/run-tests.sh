#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs every test and prints one summary line: "N passed, N failed[, N skipped]".
#   tests/run-tests.sh [--slow] [PATTERN...]
# Unit tests: tests/unit/<folder>/test_*.c (cmocka), built with ASan+UBSan.
# Integration tests: tests/integration/*.sh; slow tier: tests/slow/*.sh.
# Every test program speaks TAP; a program that dies, times out or leaves
# a result line missing counts as a failure.
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top" || exit 4

slow=0
patterns=()
for a in "$@"; do
	case "$a" in
	--slow) slow=1 ;;
	*) patterns+=("$a") ;;
	esac
done

passed=0 failed=0 skipped=0
failures=() skips=() failed_logs=()
logdir=build/test-logs
mkdir -p "$logdir"

selected() {
	local p
	[ ${#patterns[@]} -eq 0 ] && return 0
	for p in "${patterns[@]}"; do
		[[ "$1" == *"$p"* ]] && return 0
	done
	return 1
}

# Runs one TAP program and folds its results into the totals.
run_tap() {
	local name=$1 limit=$2 log rc planned=0 seen=0 line nfail=${#failures[@]}
	shift 2
	log=$logdir/$(basename "$name").log
	local start=$SECONDS
	timeout --kill-after=10 "$limit" "$@" >"$log" 2>&1
	rc=$?
	while IFS= read -r line; do
		case "$line" in
		1..*) planned=${line#1..}; planned=${planned%% *} ;;
		# cmocka 1.1.5 writes a skipped test "not ok N # SKIP name".
		"ok "*"# SKIP"* | "ok "*"# skip"* | "not ok "*"# SKIP"* | \
		"not ok "*"# skip"*)
			seen=$((seen + 1)); skipped=$((skipped + 1))
			skips+=("$name: ${line#*# [Ss][Kk][Ii][Pp]}") ;;
		"ok "*) seen=$((seen + 1)); passed=$((passed + 1)) ;;
		"not ok "*)
			seen=$((seen + 1)); failed=$((failed + 1))
			failures+=("$name: ${line#not ok }") ;;
		esac
	done <"$log"
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		failed=$((failed + 1)); failures+=("$name: timed out after ${limit}s")
	elif [ "$planned" != "$seen" ] && [ "$planned" != 0 ]; then
		failed=$((failed + 1))
		failures+=("$name: planned $planned results, saw $seen (exit $rc)")
	elif [ $seen -eq 0 ]; then
		failed=$((failed + 1)); failures+=("$name: no results (exit $rc)")
	elif [ $rc -ne 0 ] && [ ${#failures[@]} -eq 0 ]; then
		failed=$((failed + 1)); failures+=("$name: exited $rc")
	fi
	[ ${#failures[@]} -gt $nfail ] && failed_logs+=("$log")
	local nok nnot nskip
	nok=$(grep '^ok ' "$log" | grep -vc '# [Ss][Kk][Ii][Pp]')
	nnot=$(grep '^not ok ' "$log" | grep -vc '# [Ss][Kk][Ii][Pp]')
	nskip=$(grep -c '^\(not \)\?ok .*# [Ss][Kk][Ii][Pp]' "$log")
	printf '%-44s %4ds  %s\n' "$name" $((SECONDS - start)) \
		"$nok ok, $nnot not ok$([ "$nskip" -gt 0 ] &&
		echo ", $nskip skipped")"
}

# Fixtures are recordings: a test that writes into them changes what the
# next test reads (it happened: an export judged a recorded run in place).
fixtures_state() {
	git status --porcelain --untracked-files=all -- tests/fixtures \
		${RTGATE_GOLDEN_UPDATE:+':!tests/fixtures/golden'} 2>/dev/null
}
fixtures_before=$(fixtures_state)

echo "== building unit tests (ASan+UBSan)"
if ! make -j"$(nproc)" SAN=1 tests >"$logdir/build-san.log" 2>&1; then
	grep -E 'error' "$logdir/build-san.log" | head -20
	echo "0 passed, 1 failed"
	exit 1
fi

echo "== unit tests"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export CMOCKA_MESSAGE_OUTPUT=TAP
# From the sources (tests/unit/<folder>/), so a binary left by a renamed
# test never runs.
for src in tests/unit/*/test_*.c; do
	t=build/san/tests/$(basename "$src" .c)
	[ -x "$t" ] || continue
	selected "$t" || continue
	run_tap "unit/$(basename "$t")" 300 "$t"
done

tiers=(integration)
[ $slow -eq 1 ] && tiers+=(slow)
for tier in "${tiers[@]}"; do
	echo "== $tier tests"
	for t in tests/$tier/*.sh; do
		[ -f "$t" ] || continue
		selected "$t" || continue
		limit=600
		[ "$tier" = slow ] && limit=5400
		run_tap "$tier/$(basename "$t" .sh)" $limit bash "$t"
	done
done

if [ "$(fixtures_state)" != "$fixtures_before" ]; then
	failed=$((failed + 1))
	failures+=("tests/fixtures: a test wrote into the recordings: $(diff <(echo "$fixtures_before") <(fixtures_state) | grep '^>' | head -3 | tr '\n' ' ')")
fi

echo
for f in "${failures[@]}"; do echo "FAILED  $f"; done
for s in "${skips[@]}"; do echo "SKIPPED $s"; done
if [ ${#failures[@]} -gt 0 ]; then
	# What a failing test said about itself, for a CI log that keeps
	# only the tail: its last diagnostics, and the machine.
	for l in "${failed_logs[@]}"; do
		echo "--- $(basename "$l" .log): its last diagnostics"
		grep '^#' "$l" | tail -8 | cut -c1-200
	done
	echo "(kernel $(uname -r), $(nproc) CPUs; logs: $logdir/)"
fi
summary="$passed passed, $failed failed"
[ $skipped -gt 0 ] && summary="$summary, $skipped skipped"
echo "$summary"
[ $failed -eq 0 ]
