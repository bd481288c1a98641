#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `rtgate export kcidb` over recorded runs: the document validates against
# the KCIDB v5 schema (tests/schemas), its paths and numbers are the run's.
source "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3
SCHEMA=$TOP/tests/schemas/kcidb-v5.schema.json
"$TOP/tests/fixtures/nightly/make-week.py" \
	"$TOP/tests/fixtures/nightly/recorded" "$T/week" >/dev/null
run=$T/week/20261127-020000-quick
# An export is made from a judged report only (export_judged.sh).
judged() {	# judged FIXTURE NAME: a judged copy of a recorded run
	cp -r "$1" "$T/$2"
	"$RTGATE" report --report json -q "$T/$2" >/dev/null 2>&1
}
"$RTGATE" report --report json -q "$run" >/dev/null 2>&1

check "export kcidb exits 0" -- "$RTGATE" export kcidb -o "$T/k.json" "$run"
check "the export validates against the KCIDB v5 schema" -- \
	$PY "$TOP/tests/schemas/validate-kcidb.py" "$SCHEMA" "$T/k.json"
is "$(jget "$T/k.json" '.version.major')" 5 "schema major version"
is "$(jget "$T/k.json" '[.tests[].path] | map(select(. == "rtgate.quick.idle.max")) | length')" \
	1 "one rtgate.quick.idle.max test"
want=$(jq -s '[.[].thread[].max] | max' "$run"/idle/*/cyclictest.json)
is "$(jget "$T/k.json" '.tests[] | select(.path == "rtgate.quick.idle.max") | .number.value')" \
	"$want" "idle max is the max of the recorded cyclictest.json files"
is "$(jget "$T/k.json" '.tests[] | select(.path == "rtgate.quick.idle.max") | .number.unit')" \
	us "numbers carry their unit"
is "$(jget "$T/k.json" '[.tests[].build_id] | unique | length')" 1 \
	"every test points at the one build"
is "$(jget "$T/k.json" '.builds[0].id == .tests[0].build_id')" true \
	"the build object is the tests' build"

# An existing KernelCI build: only tests are emitted, pointing at it.
check "export with --build-id" -- "$RTGATE" export kcidb --origin mylab \
	--checkout-id kernelci:c1 --build-id kernelci:b1 -o "$T/k2.json" "$run"
check "... validates" -- $PY "$TOP/tests/schemas/validate-kcidb.py" \
	"$SCHEMA" "$T/k2.json"
is "$(jget "$T/k2.json" '(.builds // []) | length')" 0 "no build of our own"
is "$(jget "$T/k2.json" '[.tests[].id | startswith("mylab:")] | all')" true \
	"test ids carry our origin"

# The schema check is real: a broken document fails it.
jq '.tests[0].path = "a..b" | .tests[1].status = "OK"' "$T/k.json" >"$T/bad.json"
$PY "$TOP/tests/schemas/validate-kcidb.py" "$SCHEMA" "$T/bad.json" >/dev/null
ok $((! $?)) "a bad path and a bad status fail the schema"

# An incomplete run: the gate test is ERROR, never PASS.
cp -r "$run" "$T/inc"
jq '.status = "incomplete" | .status_reason = "killed by SIGKILL"' \
	"$run/manifest.json" >"$T/inc/manifest.json"
check "export of an incomplete run" -- "$RTGATE" export kcidb -o "$T/k3.json" "$T/inc"
is "$(jget "$T/k3.json" '.tests[] | select(.path == "rtgate.quick") | .status')" \
	ERROR "an incomplete run's gate is ERROR"

# With the analyzer's report and the history: verdicts become statuses.
"$RTGATE" report --report json -q "$run" >/dev/null 2>&1
"$RTGATE" history import --db "$T/h.db" "$T/week" >/dev/null
"$RTGATE" history changepoints --db "$T/h.db" >/dev/null
check "export with the history database" -- \
	"$RTGATE" export kcidb --db "$T/h.db" -o "$T/k4.json" "$run"
check "... validates" -- $PY "$TOP/tests/schemas/validate-kcidb.py" "$SCHEMA" "$T/k4.json"
v=$(jq -r '.comparisons[] | select(.candidate == "hackbench") | .verdict' "$run/report.json")
case "$v" in
REGRESSION) want=FAIL ;; "NO CHANGE" | IMPROVEMENT) want=PASS ;;
SKIPPED) want=SKIP ;; *) want=ERROR ;;	# INCONCLUSIVE is never a pass
esac
is "$(jget "$T/k4.json" '.tests[] | select(.path == "rtgate.quick.hackbench") | .status')" \
	"$want" "hackbench's status is its report verdict ($v)"
# The step's night holds the rise (one night is not a step): never a pass.
is "$(jget "$T/k4.json" '.tests[] | select(.path == "rtgate.quick.idle.history") | .status')" \
	ERROR "the step's night against history: held, an ERROR, not a pass"
run6=$T/week/20261128-020000-quick
"$RTGATE" report --report json -q "$run6" >/dev/null 2>&1
check "export of the night after it" -- \
	"$RTGATE" export kcidb --db "$T/h.db" -o "$T/k5.json" "$run6"
is "$(jget "$T/k5.json" '.tests[] | select(.path == "rtgate.quick.idle.history") | .status')" \
	FAIL "the night that keeps the step: its regression against history is a FAIL"
is "$(jget "$T/k5.json" '.tests[] | select(.path == "rtgate.quick") | .status')" \
	FAIL "... and so is the gate"

# ---- which tree (docs/exports.md, "KCIDB: which tree") --------------------
# A kernel rtgate built from a tree without git (the quiet lab's recording):
# its config is its fragments, no patch set was applied.
judged "$TOP/tests/fixtures/quietlab/tune-1" ql
ql=$T/ql
check "export of a built kernel's lab run" -- \
	"$RTGATE" export kcidb -o "$T/q.json" "$ql"
check "... validates" -- $PY "$TOP/tests/schemas/validate-kcidb.py" "$SCHEMA" "$T/q.json"
is "$(jget "$T/q.json" '.builds[0].config_name')" \
	"$(jq -r '.kernel.build | [.defconfig] + .fragments | join("+")' "$ql/lab.json")" \
	"the build's config_name is its defconfig and fragments"
is "$(jget "$T/q.json" '.checkouts[0].patchset_hash')" "" \
	"no patch applied: patchset_hash is empty"
is "$(jget "$T/q.json" '.checkouts[0].misc.identity')" release \
	"a tree with no commit and no Debian version says so"

# The same release string, two trees: a git commit and patches, from the
# project's own control patches (their sha256 as \`kernel build\` records it).
pd=$TOP/patches/bisect-control
h1=$(sha256sum "$pd"/0001-*.patch | cut -d' ' -f1)
h2=$(sha256sum "$pd"/0002-*.patch | cut -d' ' -f1)
c1=$(printf 'tree one' | sha1sum | cut -d' ' -f1)
c2=$(printf 'tree two' | sha1sum | cut -d' ' -f1)
variant() {	# NAME COMMIT JQ-PATCHES
	cp -r "$ql" "$T/$1"
	jq --arg c "$2" --argjson p "$3" \
		'.kernel.build.source.commit = $c | .kernel.build.patches = $p' \
		"$ql/lab.json" >"$T/$1/lab.json"
}
two="[{\"set\": \"bisect-control\", \"patches\": [{\"file\": \"0001\", \"sha256\": \"$h1\"}, {\"file\": \"0002\", \"sha256\": \"$h2\"}]}]"
one="[{\"set\": \"bisect-control\", \"patches\": [{\"file\": \"0001\", \"sha256\": \"$h1\"}]}]"
variant ga "$c1" "$two"
variant gb "$c2" "$two"
variant gc "$c1" "$one"
check "export: git tree with two patches" -- "$RTGATE" export kcidb \
	--git-url https://git.kernel.org/pub/scm/linux/kernel/git/rt/linux-rt-devel.git \
	-o "$T/ga.json" "$T/ga"
check "... validates" -- $PY "$TOP/tests/schemas/validate-kcidb.py" "$SCHEMA" "$T/ga.json"
is "$(jget "$T/ga.json" '.checkouts[0].git_commit_hash')" "$c1" "the build's commit is the checkout's"
is "$(jget "$T/ga.json" '.checkouts[0].git_repository_url')" \
	https://git.kernel.org/pub/scm/linux/kernel/git/rt/linux-rt-devel.git \
	"--git-url names its repository"
is "$(jget "$T/ga.json" '.checkouts[0].patchset_hash')" \
	"$(printf '%s\n%s\n' "$h1" "$h2" | sha256sum | cut -d' ' -f1)" \
	"patchset_hash: sha256 over the patches' newline-terminated sha256, in order"
"$RTGATE" export kcidb -o "$T/gb.json" "$T/gb"
"$RTGATE" export kcidb -o "$T/gc.json" "$T/gc"
"$RTGATE" export kcidb -o "$T/ga2.json" "$T/ga"
is "$(jget "$T/ga.json" '.tests[0].misc.rtgate_run_id')" \
	"$(jget "$T/gb.json" '.tests[0].misc.rtgate_run_id')" "the same run id and release ..."
ok "$([ "$(jget "$T/ga.json" '.checkouts[0].id')" != "$(jget "$T/gb.json" '.checkouts[0].id')" ]; echo $?)" \
	"... two commits are two checkouts"
ok "$([ "$(jget "$T/ga.json" '.checkouts[0].id')" != "$(jget "$T/gc.json" '.checkouts[0].id')" ]; echo $?)" \
	"... two patch sets on one commit are two checkouts"
is "$(jget "$T/ga2.json" '.checkouts[0].id')" "$(jget "$T/ga.json" '.checkouts[0].id')" \
	"one tree is one checkout, export after export"
ok "$([ "$(jget "$T/ga.json" '.builds[0].id')" != "$(jget "$T/gb.json" '.builds[0].id')" ]; echo $?)" \
	"... and their builds differ too"

# Debian: the image's package version, and uname -v where nothing else is.
judged "$TOP/tests/fixtures/lab/timerlat-7.2-rt" dl
dl=$T/dl
check "export of a Debian image's lab run" -- "$RTGATE" export kcidb -o "$T/d1.json" "$dl"
is "$(jget "$T/d1.json" '.checkouts[0].misc.debian_version')" \
	"$(jq -r '.kernel.package_version' "$dl/lab.json")" "the image's Debian source version"
cp -r "$dl" "$T/d2"
jq '.kernel.package_version = "7.2.13-2"' "$dl/lab.json" >"$T/d2/lab.json"
"$RTGATE" export kcidb -o "$T/d2.json" "$T/d2"
ok "$([ "$(jget "$T/d1.json" '.checkouts[0].id')" != "$(jget "$T/d2.json" '.checkouts[0].id')" ]; echo $?)" \
	"two Debian versions of one release string are two checkouts"
cp -r "$run" "$T/h"
jq '.kernel.version = "#1 SMP PREEMPT_DYNAMIC Debian 6.1.158-1 (2025-11-09)"' \
	"$run/manifest.json" >"$T/h/manifest.json"
"$RTGATE" export kcidb -o "$T/h.json" "$T/h"
is "$(jget "$T/h.json" '.checkouts[0].misc.debian_version')" 6.1.158-1 \
	"a host run on a Debian kernel: the version in uname -v"

"$RTGATE" export kcidb --git-commit 12345 "$run" >/dev/null 2>"$T/err"
is $? 3 "a --git-commit that is not a hash is a usage error"
cp -r "$ql" "$T/badlab"
echo '{ "kernel": ' >"$T/badlab/lab.json"
"$RTGATE" export kcidb "$T/badlab" >/dev/null 2>"$T/err"
is $? 3 "a truncated lab.json is bad input"
check "... and the message names the file" -- grep -q "badlab/lab.json" "$T/err"

"$RTGATE" export kcidb --origin Bad-Origin "$run" >/dev/null 2>"$T/err"
is $? 3 "a bad origin is a usage error"
"$RTGATE" export kcidb "$T/nonexistent" >/dev/null 2>"$T/err"
is $? 3 "a missing run directory is bad input"
check "... and the message names the file" -- grep -q "nonexistent/manifest.json" "$T/err"
done_testing
