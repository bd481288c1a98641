#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A lab run that outlives its wall-clock limit ends, and says where (issue
# 22, item 7): Debian's 6.1-rt guest runs a suite far longer than the
# lab's --timeout; QEMU is killed at the limit, and what finished comes
# back: the results directory with the repetitions that completed, its
# manifest `incomplete` with the reason (the limit, the scenario and
# repetition it cut), the console log beside it, exit 5 -- never a pass.
# About 8 minutes: the limit leaves a TCG boot (70 s on a quiet 2-CPU
# host, minutes on a loaded one) time to finish a few repetitions.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=$T/out
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$TOP/out/cache}

cat >"$T/long.suite" <<SUITE
[suite]
name = long
repetitions = 100
requires = root
[measure]
cyclictest = --smp -p95 -m -i 1000
duration = 3s
[scenario idle]
[scenario idle2]
compare = idle
SUITE

start=$(date +%s)
"$RTGATE" lab run --debian-kernel rt --timeout 420s --suite "$T/long.suite" \
	--out "$T/results" -- --no-history >"$T/out.txt" 2>"$T/err"
rc=$?
took=$(( $(date +%s) - start ))
sed 's/^/# /' "$T/err" | tail -12
is "$rc" 5 "the lab run cut by its limit exits 5"
check "it ended near its limit (420 s; took $took s)" -- test "$took" -lt 900
man=$(ls "$T"/results/*/manifest.json 2>/dev/null | head -1)
check "the results directory came back" -- test -f "$man"
is "$(jget "$man" .status)" incomplete "its manifest is incomplete"
reason=$(jget "$man" .status_reason)
diag "reason: $reason"
check "the reason names the limit" -- \
	grep -q "wall-clock limit (--timeout 420 s) ran out" <<<"$reason"
check "and the scenario and repetition it cut" -- \
	grep -Eq "during idle2? rep [0-9]+" <<<"$reason"
done_reps=$(jq '[.scenarios[].repetitions[]? | select(.status == "ok")] |
	length' "$man")
diag "$done_reps repetitions completed"
check "the repetitions that completed are there" -- test "$done_reps" -ge 2
check "each of them with its histogram" -- bash -c \
	"ls '$(dirname "$man")'/idle/1/cyclictest.json >/dev/null"
check "the console log is kept beside it" -- \
	test -s "$(dirname "$man")/lab-console.log"
is "$(jget "$(dirname "$man")/lab.json" .timed_out)" true \
	"lab.json says QEMU was killed at the limit"
is "$(jget "$(dirname "$man")/report.json" .exit_code)" 5 \
	"its report says incomplete (exit 5), not a pass"
done_testing
