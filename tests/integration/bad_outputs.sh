#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Nothing is rewritten unless it was rebuilt, and nothing is written where
# it should not be (issue 35): an output path is never written through a
# symlink, an empty -o is a usage error that says so, a command that only
# reads the history never creates a database, and no temporary file or
# folder outlives a failed gnuplot or dashboard, nor a SIGTERM that
# arrives while gnuplot draws.
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

# compare --json's private folder, whatever the outcome.
mkdir -p "$T/tmp3"
TMPDIR=$T/tmp3 "$RTGATE" compare --json "$run:idle" "$T/none.json" \
	>/dev/null 2>&1
is "$?" 3 "compare --json of an input that is not there: exit 3"
TMPDIR=$T/tmp3 "$RTGATE" compare --json "$run:idle" "$run:hackbench" \
	>/dev/null 2>&1
is "$(find "$T/tmp3" -mindepth 1 | wc -l)" 0 \
	"compare --json leaves no private folder, failed or not"

# ---- temporaries when a stop signal arrives while gnuplot draws -------------
# A gnuplot that starts the first SVG it was told to write, then hangs.
mkdir -p "$T/hang" "$T/tmp2"
cat >"$T/hang/gnuplot" <<'EOF'
#!/bin/sh
echo $$ >"$HANG_PID"
dir=$(sed -n "s/^cd '\(.*\)'$/\1/p" "$1" | head -1)
[ -z "$dir" ] || cd "$dir" || exit 1
out=$(sed -n "s/^set output '\(.*\)'$/\1/p" "$1" | head -1)
[ -n "$out" ] && echo '<svg' >"$out"
exec sleep 60
EOF
chmod +x "$T/hang/gnuplot"
# stopped COMMAND...: COMMAND gets SIGTERM once gnuplot hangs; sets rc.
stopped() {
	local pid n
	rm -f "$T/hang.pid"
	PATH=$T/hang:$PATH HANG_PID=$T/hang.pid TMPDIR=$T/tmp2 "$@" \
		>/dev/null 2>&1 &
	pid=$!
	for n in $(seq 100); do [ -s "$T/hang.pid" ] && break; sleep 0.1; done
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
}
cp -r "$run" "$T/r2"
rm -f "$T/r2"/report.*
stopped "$RTGATE" report -q --report html "$T/r2"
is "$rc" 143 "report: SIGTERM while gnuplot draws ends it (143: the signal's)"
is "$(find "$T/tmp2" -mindepth 1 | wc -l)" 0 "... after its private folder went"
check "... gnuplot went with it" -- bash -c "! kill -0 $(cat "$T/hang.pid") 2>/dev/null"
check "... and no report was written" -- test ! -e "$T/r2/report.html"
stopped "$RTGATE" dashboard --db "$T/h.db" --out "$T/dash2"
is "$rc" 143 "dashboard: SIGTERM while gnuplot draws ends it"
is "$(find "$T/dash2" -name '*.tmp*' | wc -l)" 0 \
	"... and its half SVG went first"
check "... gnuplot went with it" -- bash -c "! kill -0 $(cat "$T/hang.pid") 2>/dev/null"
check "... no index.html claiming a dashboard" -- test ! -e "$T/dash2/index.html"

done_testing
