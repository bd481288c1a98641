#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Documentation that cannot drift: every output example of README.md and
# docs/ between "example:" markers is what tests/docs/examples.py makes
# now from the recordings in tests/fixtures, with today's bin/rtgate (the
# golden reports' way, tests/integration/golden_replay.sh). A change that
# means to alter an output writes the examples again and shows the diff in
# review:
#
#   tests/docs/examples.py write
source "$(dirname "$0")/../lib.sh"

cd "$TOP" || exit 1
X=tests/docs/examples.py
export RTGATE

python3 "$X" check >"$T/check.out" 2>"$T/check.err"
rc=$?
sed 's/^/# /' "$T/check.err"
is "$rc" 0 "examples.py check: every example is as made now"
n=0
while read -r name doc; do
	n=$((n + 1))
	if ! grep -qx "ok $name ($doc)" "$T/check.out"; then
		sed -n "/^DIFFERS $name /,/^\(ok\|DIFFERS\) /p" "$T/check.out" |
			head -40 | sed 's/^/# /'
		ok 1 "$name: the example in $doc is what $X makes from the recording"
		continue
	fi
	ok 0 "$name: the example in $doc is what $X makes from the recording"
done < <(python3 "$X" list)
check "examples.py knows some examples" -- [ "$n" -ge 8 ]
markers=$(cat README.md docs/*.md | grep -c '^<!-- example: ')
is "$markers" "$n" "one marker pair in the documents for every example"

# Not vacuous: a copy of the documents with one word changed in an
# example fails the check, names the example and shows the line; write
# mends it; a marker that names no example fails too.
mkdir -p "$T/copy"
cp -r README.md docs "$T/copy/"
sed -i '/^<!-- example: runsh /,/^<!-- end example: runsh /s/REGRESSION/NO CHANGE/' \
	"$T/copy/README.md"
check "the planted change is inside the example" -- \
	bash -c "! cmp -s README.md '$T/copy/README.md'"
python3 "$X" --docs "$T/copy" check >"$T/planted.out" 2>&1
is "$?" 1 "a changed example fails the check (exit 1)"
check "... naming it" -- grep -q '^DIFFERS runsh (README.md)' "$T/planted.out"
check "... with the line as kept and as made" -- \
	grep -q '^-.*NO CHANGE' "$T/planted.out"
python3 "$X" --docs "$T/copy" write runsh >/dev/null 2>&1
check "write puts the example back" -- cmp -s README.md "$T/copy/README.md"
printf '\n<!-- example: nosuch (tests/docs/examples.py) -->\n```\n```\n<!-- end example: nosuch -->\n' \
	>>"$T/copy/docs/runner.md"
python3 "$X" --docs "$T/copy" check >"$T/unknown.out" 2>&1
is "$?" 1 "a marker that names no example fails the check"
check "... naming it" -- grep -q 'example nosuch is none of' "$T/unknown.out"
done_testing
