#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rtgate's command line (common/cmd/cli.h, glibc argp): every command and
# subcommand answers --help with its usage on stdout and exit 0, --version
# everywhere, a typo gets "did you mean" and exit 3, an unknown suite
# lists the suites; each command's --help lists only its own options; the
# top-level list names every subcommand (the man pages made from this text
# and `make install`: install_fhs.sh).
source "$(dirname "$0")/../lib.sh"

# Every command, and every subcommand its own --help lists ("or:" lines).
cmds=$("$RTGATE" --help | sed -n '/^Commands:/,/^$/p' | awk '/^  [a-z]/ { print $1 }')
check "rtgate --help lists the commands" -- test "$(wc -w <<<"$cmds")" -ge 14
n=0
for c in $cmds; do
	out=$("$RTGATE" $c --help 2>$T/err)
	rc=$?
	ok $([ $rc -eq 0 ] && grep -q '^Usage: rtgate' <<<"$out" && ! test -s $T/err; echo $?) \
		"rtgate $c --help: usage on stdout, exit 0 (exit $rc)"
	n=$((n + 1))
	for s in $(sed -n "s/^  or:  rtgate $c \([a-z][a-z0-9-]*\).*/\1/p" <<<"$out"); do
		out2=$("$RTGATE" $c $s --help 2>$T/err)
		rc=$?
		ok $([ $rc -eq 0 ] && grep -q "^Usage: rtgate $c $s" <<<"$out2" &&
		     ! test -s $T/err; echo $?) \
			"rtgate $c $s --help: its usage, exit 0 (exit $rc)"
		n=$((n + 1))
	done
done
diag "$n commands and subcommands answered --help"
check "the subcommands were found (history, lava, trace, kernel, patches, lab ...)" -- test $n -ge 30
out=$("$RTGATE" compare --history --help)
is "$?" 0 "compare --history --help exits 0"
check "... with its own usage" -- grep -q '^Usage: rtgate compare --history .*RUN_DIR' <<<"$out"
is "$("$RTGATE" --version)" "rtgate $(cat "$TOP/VERSION")" "rtgate --version"
is "$("$RTGATE" history import --version)" "rtgate $(cat "$TOP/VERSION")" "a subcommand's --version"
is "$("$RTGATE" lab --version)" "rtgate $(cat "$TOP/VERSION")" "a command with subcommands: --version"
"$RTGATE" report -h >$T/out
is "$?" 0 "-h is --help where a command has no -h of its own"

# Usage errors: exit 3, one line naming the word, a hint, no usage dump.
"$RTGATE" compre a b 2>$T/err
is "$?" 3 "a mistyped command: exit 3"
check "... did you mean 'compare'?" -- grep -q "unknown command 'compre' (did you mean 'compare'?)" $T/err
"$RTGATE" help comapre >$T/out 2>$T/err
is "$?" 3 "help of a mistyped command: exit 3"
check "... did you mean 'compare'?, and no list" -- bash -c \
	"grep -q \"unknown command 'comapre' (did you mean 'compare'?)\" $T/err && ! test -s $T/out"
is "$("$RTGATE" help --version)" "rtgate $(cat "$TOP/VERSION")" "help --version is the version"
"$RTGATE" history imprt x 2>$T/err
is "$?" 3 "a mistyped subcommand: exit 3"
check "... did you mean 'import'?" -- grep -q "unknown subcommand 'imprt' (did you mean 'import'?)" $T/err
"$RTGATE" compare --alhpa 0.1 a b 2>$T/err
is "$?" 3 "a mistyped option: exit 3"
check "... did you mean '--alpha'?" -- grep -q "unrecognized option '--alhpa' (did you mean '--alpha'?)" $T/err
check "... and where to look" -- grep -q "^Try 'rtgate compare --help'" $T/err
"$RTGATE" dashboard --out 2>$T/err
is "$?" 3 "an option without its argument: exit 3"
check "... named" -- grep -q "option '--out' requires an argument" $T/err
"$RTGATE" export kcidb 2>$T/err
is "$?" 3 "export kcidb without a run: exit 3"
check "... says what is missing" -- grep -q 'which run? (RUN_DIR)' $T/err
"$RTGATE" lava 2>$T/err
is "$?" 3 "lava without a subcommand: exit 3"
check "... lists them" -- grep -q 'Subcommands: job, report' $T/err
"$RTGATE" run quik 2>$T/err
is "$?" 3 "an unknown suite: exit 3"
check "... did you mean quick, and the suites there are" -- \
	grep -q "Did you mean 'quick'? Suites: .*quick.*smoke" $T/err

# The top-level list names every subcommand ("lab run|gate|initramfs ...").
for c in $cmds; do
	subs=$("$RTGATE" $c --help | sed -n "s/^  or:  rtgate $c \([a-z][a-z0-9-]*\).*/\1/p")
	[ -n "$subs" ] || continue
	line=$("$RTGATE" --help | awk -v c="$c" '$1 == c { print $2; exit }')
	for s in $subs; do
		check "rtgate --help lists '$c $s' ($c $line)" -- \
			grep -qE "(^|\|)$s(\||$)" <<<"$line"
	done
done

# Each --help lists only its command's options: report has no --family or
# --labels (compare's alone), compare has them.
"$RTGATE" report --help >$T/report.help
ok $(grep -qE -- '--(family|labels)' $T/report.help; [ $? -eq 1 ]; echo $?) \
	"report --help lists no compare-only option (--family, --labels)"
check "... but its own (--min-increase-us, --report)" -- bash -c \
	"grep -q -- --min-increase-us= $T/report.help && grep -q -- --report= $T/report.help"
check "compare --help lists --family and --labels" -- bash -c \
	"'$RTGATE' compare --help | grep -q -- --family= &&
	 '$RTGATE' compare --help | grep -q -- --labels="
"$RTGATE" report --family 2 $T 2>$T/err
is "$?" 3 "report --family: a usage error (exit 3)"
"$RTGATE" trace compare --help >$T/tc.help
ok $(grep -qE -- '^ +--json' $T/tc.help; [ $? -eq 1 ]; echo $?) \
	"trace compare --help lists no --json (explain's alone)"
check "trace explain --help lists --json" -- bash -c "'$RTGATE' trace explain --help | grep -q -- --json"

# kernel and lab: a subcommand's --help lists its options, not a sibling's
# (the shared groups are argp children: common/cmd/cli.h, cli_share_input).
# hasnt HELP OPTION: the option is not in HELP's option lines.
hasnt() { ! grep -qE -- "^ +(-[a-z?], )?$2[= ]" "$1"; }
has() { grep -qE -- "^ +(-[a-z?], )?$2[= ]" "$1"; }
"$RTGATE" kernel build --help >$T/kb.help
"$RTGATE" kernel matrix --help >$T/km.help
"$RTGATE" lab run --help >$T/lr.help
"$RTGATE" lab gate --help >$T/lg.help
"$RTGATE" lab initramfs --help >$T/li.help
for o in --models --accel --cpus --suite --scenario; do
	ok $(hasnt $T/kb.help $o; echo $?) "kernel build --help: no $o (matrix's, lab's)"
done
check "... its own --model, --name, --patches" -- bash -c \
	"$(declare -f has); has $T/kb.help --model && has $T/kb.help --name && has $T/kb.help --patches"
for o in --model --name --config-only; do
	ok $(hasnt $T/km.help $o; echo $?) "kernel matrix --help: no $o (build's)"
done
check "... its own --models, --patches" -- bash -c \
	"$(declare -f has); has $T/km.help --models && has $T/km.help --patches"
for o in --scenario --append-a --append-b --model --patches --jobs; do
	ok $(hasnt $T/lr.help $o; echo $?) "lab run --help: no $o (gate's, kernel build's)"
done
check "... its own --kernel, --exec, --cpus, --duration" -- bash -c \
	"$(declare -f has); has $T/lr.help --kernel && has $T/lr.help --exec &&
	 has $T/lr.help --cpus && has $T/lr.help --duration"
for o in --kernel --debian-kernel --exec --model; do
	ok $(hasnt $T/lg.help $o; echo $?) "lab gate --help: no $o (run's: gate takes KERNEL_A KERNEL_B)"
done
check "... its own --scenario, --append-a, --suite, --duration" -- bash -c \
	"$(declare -f has); has $T/lg.help --scenario && has $T/lg.help --append-a &&
	 has $T/lg.help --suite && has $T/lg.help --duration"
for o in --cpus --accel --repeat --duration --exec --scenario; do
	ok $(hasnt $T/li.help $o; echo $?) "lab initramfs --help: no $o (it boots nothing)"
done
"$RTGATE" lab run --debian-kernel rt --suite smoke --append-a x 2>$T/err
is "$?" 3 "lab run --append-a (gate's): a usage error"
check "... that names it" -- grep -q "unrecognized option '--append-a'" $T/err
"$RTGATE" lab run --debian-kernel rt --suite smoke --duration 1m --duration-scale 2 2>$T/err
is "$?" 3 "lab run --duration with --duration-scale: a usage error"
check "... as rtgate run says it" -- grep -q -- "--duration and --duration-scale both set the time" $T/err
"$RTGATE" lab gate a b --suite smoke --duration soon 2>$T/err
is "$?" 3 "lab gate --duration soon: a usage error"
check "... naming the option" -- grep -q -- "--duration: 'soon' is not a duration" $T/err
"$RTGATE" kernel build --model rt --models rt,full 2>$T/err
is "$?" 3 "kernel build --models (matrix's): a usage error"

# A shared option reads the same in every command that takes it (its one
# definition, common/cmd/cli.c or lab.h's lab_boot_options): the kernel
# tree, -o, --jobs, --clock, a lab boot's options.
# optline CMD OPT: OPT's lines in CMD's --help.
optline() {
	"$RTGATE" $1 --help | awk -v o="$2" 'f && (/^ *-/ || /^$/) { exit }
		f { print } $0 ~ "^ +(-[a-zA-Z?], )?" o "[= ]" { f = 1; print }'
}
for group in "--src|kernel build|kernel tools|patches recover|patches check|reproduce" \
	     "--debian|kernel build|kernel matrix|patches fetch|reproduce" \
	     "--output|export kcidb|lava job|patches recover" \
	     "--jobs|kernel build|bisect|reproduce" \
	     "--clock|bisect|reproduce|lab run" \
	     "--accel|lab run|lab gate|bisect" \
	     "--timeout|lab run|bisect"; do
	IFS='|' read -ra w <<<"$group"
	want=$(optline "${w[1]}" "${w[0]}")
	check "${w[1]} --help lists ${w[0]}" -- test -n "$want"
	for c in "${w[@]:2}"; do
		is "$(optline "$c" "${w[0]}")" "$want" "$c --help: ${w[0]} as ${w[1]} says it"
	done
done

# One spelling of the history window: --history-runs K; --history K of
# changepoints and dashboard is a hidden alias that warns.
for c in "history changepoints" "dashboard" "compare --history"; do
	"$RTGATE" $c --help >$T/out
	check "$c --help: --history-runs=K" -- grep -q -- '--history-runs=K' $T/out
	ok $(grep -q -- '--history=K' $T/out; [ $? -eq 1 ]; echo $?) \
		"$c --help: no --history=K"
done
# (a history to read: a reading command never creates one)
"$RTGATE" history import --db $T/h.db "$TOP/tests/fixtures/analyze/run-inject" >/dev/null 2>&1
"$RTGATE" history changepoints --db $T/h.db --history-runs 3 >$T/out 2>$T/err
is "$?" 0 "history changepoints --history-runs 3"
check "... without a warning" -- test ! -s $T/err
"$RTGATE" history changepoints --db $T/h.db --history 3 >$T/out 2>$T/err
is "$?" 0 "history changepoints --history 3 (the old spelling) still works"
check "... and says it is deprecated" -- grep -q 'deprecated, say --history-runs K' $T/err
"$RTGATE" history changepoints --db $T/h.db --history-runs 0 2>$T/err
is "$?" 3 "--history-runs 0 is refused"
check "... by that name" -- grep -q -- "--history-runs: '0'" $T/err
"$RTGATE" dashboard --db $T/h.db --out $T/dash --history 2 >$T/out 2>$T/err
is "$?" 0 "dashboard --history 2 (the old spelling) still works"
check "... and says it is deprecated" -- grep -q 'deprecated, say --history-runs K' $T/err
"$RTGATE" dashboard --db $T/h.db --out $T/dash -q 2 >$T/out 2>$T/err
is "$?" 3 "dashboard has no accidental -q (it was --history)"

# Workloads: --help and --version for help2man.
for w in $(cd "$BIN" && ls | grep -v '^rtgate$'); do
	"$BIN/$w" --help >$T/out 2>$T/err
	ok $([ $? -eq 0 ] && grep -q "^Usage: $w" $T/out; echo $?) "$w --help: usage, exit 0"
	is "$("$BIN/$w" --version)" "$w (rtgate) $(cat "$TOP/VERSION")" "$w --version"
done

done_testing
