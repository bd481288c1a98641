#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Nothing is rewritten unless it was rebuilt, and nothing is written where
# it should not be (issue 35): an output path is never written through a
# symlink, an empty -o is a usage error that says so, a command that only
# reads the history never creates a database, and no temporary file or
# folder outlives a failed gnuplot or dashboard.
source "$(dirname "$0")/../lib.sh"
"$TOP/tests/fixtures/nightly/make-week.py" \
	"$TOP/tests/fixtures/nightly/recorded" "$T/week" >/dev/null
run=$T/week/20261127-020000-quick
JOB=(lava job --kernel https://lab.example/bzImage --suite quick
     --device-type qemu)

# ---- no write through a link ------------------------------------------------
echo keep >"$T/target"
ln -s "$T/target" "$T/link"
check "lava job -o LINK" -- "$RTGATE" "${JOB[@]}" -o "$T/link"
is "$(cat "$T/target")" keep "the file the link pointed at is untouched"
check "... the link was replaced by the job" -- \
	bash -c "[ ! -L '$T/link' ] && grep -q 'device_type: \"qemu\"' '$T/link'"
"$RTGATE" report -q --report json "$run" >/dev/null 2>&1
ln -sf "$T/target" "$T/klink"
check "export kcidb -o LINK" -- "$RTGATE" export kcidb -o "$T/klink" "$run"
is "$(cat "$T/target")" keep "... the same"

# ---- -o "" ------------------------------------------------------------------
"$RTGATE" "${JOB[@]}" -o "" >/dev/null 2>"$T/e1"
is "$?" 3 "lava job -o '': exit 3"
check "... saying the name is empty" -- grep -q "empty file name" "$T/e1"
"$RTGATE" export kcidb -o "" "$run" >/dev/null 2>"$T/e2"
is "$?" 3 "export kcidb -o '': exit 3"
check "... saying the name is empty" -- grep -q "empty file name" "$T/e2"

# ---- a --db that is not there -----------------------------------------------
for cmd in "history list" "history changepoints" "dashboard --out $T/d0" \
	   "compare $run --history"; do
	# shellcheck disable=SC2086
	"$RTGATE" $cmd --db "$T/none.db" >"$T/out" 2>"$T/err"
	is "$?" 3 "$cmd --db MISSING: exit 3"
	check "... the path named" -- grep -q "none.db: no history database" "$T/err"
	check "... and no database made" -- test ! -e "$T/none.db"
done

# ---- temporaries of a failed gnuplot ----------------------------------------
# A gnuplot that writes one SVG of its own and fails.
mkdir -p "$T/fake" "$T/tmp"
cat >"$T/fake/gnuplot" <<'EOF'
#!/bin/sh
for a in "$@"; do d=$(dirname "$a"); done
echo '<svg/>' >"$d/hist-0.svg"
exit 1
EOF
chmod +x "$T/fake/gnuplot"
cp -r "$run" "$T/r"
PATH=$T/fake:$PATH TMPDIR=$T/tmp "$RTGATE" report -q --report html "$T/r" \
	>/dev/null 2>"$T/gp.err"
check "report with a failing gnuplot still writes its HTML" -- test -s "$T/r/report.html"
is "$(find "$T/tmp" -mindepth 1 | wc -l)" 0 "... and leaves nothing in TMPDIR"

"$RTGATE" history import --db "$T/h.db" "$T/week" >/dev/null 2>&1
PATH=$T/fake:$PATH "$RTGATE" dashboard --db "$T/h.db" --out "$T/dash" \
	>/dev/null 2>&1
ok $(($? == 0)) "a dashboard whose gnuplot fails: not exit 0"
is "$(find "$T/dash" -name '*.tmp*' | wc -l)" 0 \
	"... and no index.html.tmp or half SVG left"
check "... nor an index.html claiming a dashboard" -- test ! -e "$T/dash/index.html"

done_testing
