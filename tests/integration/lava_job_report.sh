#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `rtgate lava job` writes job definitions that lava-common's own schema
# (what lava-server checks on submission) accepts, for QEMU and for a
# u-boot board; `rtgate lava report` maps a run to lava-test-case calls.
source "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3
V=$TOP/tests/schemas/validate-lava.py
if ! $PY -c 'import lava_common.schemas' 2>/dev/null; then
	skip "lava-common is not installed (Debian: apt-get install lava-common)" \
		"LAVA job definitions validate"
	done_testing
	exit
fi

check "qemu job" -- "$RTGATE" lava job --kernel https://lab.example/bzImage \
	--ramdisk https://lab.example/rtgate.cpio.gz --suite quick \
	--device-type qemu -o "$T/qemu.yaml"
check "the qemu job validates (lava_common.schemas, strict)" -- $PY "$V" "$T/qemu.yaml"
check "board job" -- "$RTGATE" lava job --kernel https://lab.example/Image \
	--dtb https://lab.example/board.dtb --ramdisk https://lab.example/rd.cpio.gz \
	--modules https://lab.example/modules.tar.xz --suite quick \
	--device-type bcm2711-rpi-4-b --rtgate-args "--duration-scale 0.5" \
	--timeout 90 -o "$T/board.yaml"
check "the board job validates" -- $PY "$V" "$T/board.yaml"
is "$(yq -r '.actions[0].deploy.to' "$T/board.yaml")" tftp "a board deploys over tftp"
is "$(yq -r '.actions[0].deploy.ramdisk.install_overlay' "$T/board.yaml")" true \
	"the LAVA overlay goes into the ramdisk"
is "$(yq -r '.actions[2].test.definitions[0].repository.run.steps[1]' "$T/board.yaml")" \
	'rc=0; rtgate run quick --duration-scale 0.5 || rc=$?' \
	"the suite runs with its arguments, its exit kept under LAVA's set -e"
# Strings that YAML would misread stay strings.
check "prompt with YAML specials" -- "$RTGATE" lava job --kernel k://x \
	--suite quick --device-type qemu --prompt 'root@rt: ~#' \
	--job-name 'yes: no' -o "$T/q2.yaml"
check "... validates" -- $PY "$V" "$T/q2.yaml"
is "$(yq -r '.job_name' "$T/q2.yaml")" "yes: no" "the job name survives quoting"

# The schema check is real.
sed 's/"tmpfs"/"tmpfz"/' "$T/qemu.yaml" >"$T/bad.yaml"
$PY "$V" "$T/bad.yaml" >/dev/null
ok $((! $?)) "an unknown deploy method fails the schema"

"$RTGATE" lava job --suite quick --device-type qemu >/dev/null 2>&1
is $? 3 "no --kernel is a usage error"

# report: one case per comparison and per measured scenario.
"$TOP/tests/fixtures/nightly/make-week.py" \
	"$TOP/tests/fixtures/nightly/recorded" "$T/week" >/dev/null
run=$T/week/20261123-020000-quick
"$RTGATE" lava report --print --exit-code 1 "$run" >"$T/cases" 2>/dev/null
is $? 0 "lava report --print"
check "idle max is a measured case" -- \
	grep -Eq '^lava-test-case rtgate\.quick\.idle\.max --result pass --measurement [0-9.]+ --units us$' "$T/cases"
check "hackbench has a case" -- grep -q '^lava-test-case rtgate.quick.hackbench ' "$T/cases"
is "$(grep -c '^lava-test-case ' "$T/cases")" \
	"$(grep -c '^lava-test-case rtgate\.quick[ .]' "$T/cases")" \
	"every case name has the one prefix rtgate.SUITE"
# Per-CPU maxima: one case per CPU and scenario, each the recorded max.
for scen in idle hackbench; do
	for cpu in 0 1; do
		want=$(jq -s "[.[].thread[] | select(.cpu == $cpu) | .max] | max" \
			"$run"/$scen/*/cyclictest.json)
		is "$(awk -v n="rtgate.quick.$scen.cpu$cpu.max" '$2 == n {print $6}' "$T/cases")" \
			"$(printf '%.3f' "$want")" \
			"$scen CPU $cpu's max case is the recorded cyclictest max"
	done
done
# The suite's verdict is its own case, as the report's exit code says.
"$RTGATE" report -q "$run" >/dev/null 2>&1
code=$?
[ $code -eq 0 ] && want=pass || want=fail
check "the suite's verdict is a case (exit $code: $want)" -- grep -q \
	"^lava-test-case rtgate.quick --result $want --measurement $code.000 --units exit$" "$T/cases"
check "rtgate run's exit code is a failed case" -- \
	grep -q '^lava-test-case rtgate.quick.exit --result fail --measurement 1.000 --units exit$' "$T/cases"
check "no run-level case beside the verdict (SUITE.run is gone)" -- \
	bash -c "! grep -q '^lava-test-case [a-z]*\.run ' '$T/cases'"
done_testing
