#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A machine without gnuplot (the lab's guest) gets its reports without
# plots and is told so once a run, not once per comparison: a recorded
# quick run (three comparisons) reported with gnuplot out of PATH.
source "$(dirname "$0")/../lib.sh"

cp -r "$TOP/tests/fixtures/nightly/scaled/20261201-103331-quick" "$T/r"
n=$(jq '[.scenarios[] | select(.compare != null)] | length' "$T/r/manifest.json")
env PATH=/nonexistent "$RTGATE" report "$T/r" >"$T/out" 2>"$T/err"
rc=$?
ok $([ $rc -le 2 ]; echo $?) "reported without gnuplot (exit $rc)"
is "$(grep -c 'gnuplot is not installed' "$T/err")" 1 \
	"one warning for $n comparisons"
check "the HTML report says why it has no plots" -- \
	grep -q "No plots: gnuplot is not installed" "$T/r/report.html"

# In the lab's guest (its init sets RTGATE_LAB=1) nothing is said: the
# host renders the reports again with plots from what comes back.
env PATH=/nonexistent RTGATE_LAB=1 "$RTGATE" report "$T/r" >"$T/out" 2>"$T/err"
is "$(grep -c 'gnuplot is not installed' "$T/err")" 0 \
	"in the lab's guest: no warning (the host plots)"
check "... the guest's HTML still says why it has no plots" -- \
	grep -q "No plots: gnuplot is not installed" "$T/r/report.html"

done_testing
