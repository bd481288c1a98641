#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The shape of the code (docs/design.md): no file calls up into the file
# that calls it, no folder cycle, and every symbol librtgate.a exports
# carries its folder's prefix and has a caller (tests/codegraph.py); other
# folders include only a folder's top header, a folder uses only the
# folders docs/design.md's table gives it, and types carry the prefix too;
# every file opens with a comment, every function of a folder's top
# header has kernel-doc, every enum constant of a header the folder's
# prefix.
# Planted breaks of each rule show the checker sees what it is asked to.
source "$(dirname "$0")/../lib.sh"
CG=$TOP/tests/codegraph.py

make -s -C "$TOP" all >"$T/make.log" 2>&1
is "$?" 0 "the tree builds"

python3 "$CG" cycles >"$T/cycles.out" 2>&1
is "$?" 0 "codegraph cycles: nothing to report"
diag "$(tail -1 "$T/cycles.out")"
check "no circle of files or folders" -- \
	grep -q ' 0 circles or folder cycles$' "$T/cycles.out"
[ "$(wc -l <"$T/cycles.out")" -eq 1 ] || diag "$(head -20 "$T/cycles.out")"

python3 "$CG" symbols >"$T/symbols.out" 2>&1
is "$?" 0 "codegraph symbols: nothing to report"
diag "$(tail -1 "$T/symbols.out")"
check "every exported symbol carries its folder's prefix" -- \
	grep -q ', 0 without their folder.s prefix$' "$T/symbols.out"
[ "$(wc -l <"$T/symbols.out")" -eq 1 ] || diag "$(head -20 "$T/symbols.out")"

# ---- the checker itself: objects made to be wrong ------------------------
mkdir -p "$T/obj/runner"
cat >"$T/run.c" <<'EOF'
int runner_b(void);
int runner_a(void) { return runner_b(); }
int unprefixed_helper(void) { return 1; }
EOF
cat >"$T/rep.c" <<'EOF'
int runner_a(void);
int runner_b(void) { return runner_a(); }
EOF
cc -c -o "$T/obj/runner/runner_run.o" "$T/run.c" &&
	cc -c -o "$T/obj/runner/runner_rep.o" "$T/rep.c" &&
	ar rc "$T/obj/librtgate.a" "$T/obj/runner/runner_run.o" \
		"$T/obj/runner/runner_rep.o"
is "$?" 0 "two objects that call each other, one name without runner_"

python3 "$CG" --obj "$T/obj" cycles >"$T/bad-cycles.out" 2>&1
is "$?" 1 "codegraph cycles sees the circle (exit 1)"
check "it names both files" -- bash -c \
	"grep -q 'runner/runner_rep.c -> runner/runner_run.c' '$T/bad-cycles.out' &&
	 grep -q 'runner/runner_run.c -> runner/runner_rep.c' '$T/bad-cycles.out'"

python3 "$CG" --obj "$T/obj" symbols >"$T/bad-symbols.out" 2>&1
is "$?" 1 "codegraph symbols sees the unprefixed name (exit 1)"
check "it names the symbol and its object" -- \
	grep -q 'runner/runner_run.o: unprefixed_helper: not runner_\*' \
	"$T/bad-symbols.out"
check "and only that one" -- \
	grep -q ', 1 without their folder.s prefix$' "$T/bad-symbols.out"

# ---- headers and types: docs/design.md's rules, kept by the build -------
# Other folders include only a folder's public header (named after it);
# types carry the folder's prefix.
for kind in headers types; do
	python3 "$CG" $kind >"$T/$kind.out" 2>&1
	is "$?" 0 "codegraph $kind: no break"
	diag "$(tail -1 "$T/$kind.out")"
	[ "$(wc -l <"$T/$kind.out")" -eq 1 ] || diag "$(head -20 "$T/$kind.out")"
done
F=$T/tree
mkdir -p "$F/analyze" "$F/runner" "$F/tests"
printf 'struct an_run { int n; };\n' >"$F/analyze/analyze.h"
printf 'struct an_prep { int n; };\n' >"$F/analyze/analyze_priv.h"
printf '#include "analyze/analyze.h"\nint runner_a(void);\n' \
	>"$F/runner/runner_a.c"
printf 'struct runner_ok { int n; };\n' >"$F/runner/runner_a.h"
python3 "$CG" --top "$F" headers >"$T/f-headers.out" 2>&1
is "$?" 0 "a tree that keeps the rules: headers clean"
python3 "$CG" --top "$F" types >"$T/f-types.out" 2>&1
is "$?" 0 "... and types clean"
printf '#include "analyze/analyze_priv.h"\n' >>"$F/runner/runner_a.c"
printf 'struct state { int n; };\ntypedef int guard_t;\n' >>"$F/runner/runner_a.h"
python3 "$CG" --top "$F" headers >"$T/f-headers.out" 2>&1
is "$?" 1 "a planted include of analyze's private header fails (exit 1)"
check "... naming both files" -- grep -qx \
	'headers runner/runner_a.c includes analyze/analyze_priv.h' "$T/f-headers.out"
# A part of a folder is a folder: report/ may not take judge/'s private.
mkdir -p "$F/analyze/judge" "$F/analyze/report"
printf 'struct an_line_test { int n; };\n' >"$F/analyze/judge/judge_priv.h"
printf '#include "analyze/judge/judge_priv.h"\nint an_x(void);\n' \
	>"$F/analyze/report/analyze_x.c"
python3 "$CG" --top "$F" headers >"$T/f-headers.out" 2>&1
check "... and one part's private header taken by another part" -- grep -qx \
	'headers analyze/report/analyze_x.c includes analyze/judge/judge_priv.h' \
	"$T/f-headers.out"
python3 "$CG" --top "$F" types >"$T/f-types.out" 2>&1
is "$?" 1 "planted unprefixed types fail (exit 1)"
check "... the struct and the typedef, by name" -- bash -c \
	"grep -qx 'types runner/runner_a.h: state' '$T/f-types.out' &&
	 grep -qx 'types runner/runner_a.h: guard_t' '$T/f-types.out'"

# Part headers serve their own folder: analyze/report/ may take
# analyze/input/input.h, runner/ may not; bench/ and fuzz/ take the part
# headers codegraph.py's OUTSIDE lists, no other.
F=$T/parts
mkdir -p "$F/analyze/input" "$F/analyze/report" "$F/analyze/judge" \
	"$F/runner" "$F/bench"
printf 'struct an_run { int n; };\n' >"$F/analyze/analyze.h"
printf 'struct an_hist { int n; };\n' >"$F/analyze/input/input.h"
printf 'struct an_line { int n; };\n' >"$F/analyze/judge/judge.h"
printf '#include "analyze/input/input.h"\n' >"$F/analyze/report/analyze_r.c"
printf '#include "analyze/analyze.h"\n' >"$F/runner/runner_a.c"
printf '#include "analyze/input/input.h"\n' >"$F/bench/analyze_bench.c"
python3 "$CG" --top "$F" headers >"$T/p-headers.out" 2>&1
is "$?" 0 "a part header taken by its own folder, a listed one by bench/: clean"
printf '#include "analyze/input/input.h"\n' >>"$F/runner/runner_a.c"
printf '#include "analyze/judge/judge.h"\n' >>"$F/bench/analyze_bench.c"
python3 "$CG" --top "$F" headers >"$T/p-headers.out" 2>&1
is "$?" 1 "a planted include of another folder's part header fails (exit 1)"
check "... runner/ taking analyze/input/input.h" -- grep -qx \
	'headers runner/runner_a.c includes analyze/input/input.h' "$T/p-headers.out"
check "... bench/ taking a part header not on its list" -- grep -qx \
	'headers bench/analyze_bench.c includes analyze/judge/judge.h' \
	"$T/p-headers.out"
check "... and nothing else" -- grep -qx '2 headers breaks' "$T/p-headers.out"

# ---- folders: the table in docs/design.md is the allowed graph ----------
python3 "$CG" folders >"$T/folders.out" 2>&1
is "$?" 0 "codegraph folders: every folder edge is in docs/design.md's table"
[ "$(wc -l <"$T/folders.out")" -eq 1 ] || diag "$(head -20 "$T/folders.out")"
F=$T/edges
mkdir -p "$F/docs" "$F/runner" "$F/history" "$F/analyze" "$F/common/core"
cat >"$F/docs/design.md" <<'EOD'
# design

```
rtgate/    -> every folder   (the command table)
runner/    -> analyze        (judges through the contract)
history/   -> analyze
analyze/
common/    <- every folder   (it uses none)
```
EOD
printf 'int an_x(void);\n' >"$F/analyze/analyze.h"
printf 'int history_x(void);\n' >"$F/history/history.h"
printf 'void log_x(void);\n' >"$F/common/core/log.h"
printf '#include "analyze/analyze.h"\n#include "log.h"\n' \
	>"$F/runner/runner_a.c"
printf '#include "analyze/analyze.h"\n' >"$F/history/history_a.c"
python3 "$CG" --top "$F" --obj "$T/none" folders >"$T/e-folders.out" 2>&1
is "$?" 0 "a tree whose folders use what the table allows: clean"
printf '#include "history/history.h"\n' >>"$F/runner/runner_a.c"
printf '#include "runner/runner.h"\n' >>"$F/analyze/analyze.h"
printf 'int runner_x(void);\n' >"$F/runner/runner.h"
python3 "$CG" --top "$F" --obj "$T/none" folders >"$T/e-folders.out" 2>&1
is "$?" 1 "planted edges the table does not give fail (exit 1)"
check "... runner -> history, naming the include" -- grep -q \
	'^folders runner -> history: .*runner/runner_a.c -> history/history.h' \
	"$T/e-folders.out"
check "... analyze -> runner (a line with no arrow uses none)" -- grep -q \
	'^folders analyze -> runner: ' "$T/e-folders.out"
sed -i 's|^runner/    -> analyze |runner/    -> analyze, history |' \
	"$F/docs/design.md"
python3 "$CG" --top "$F" --obj "$T/none" folders >"$T/e-folders.out" 2>&1
check "the edge written into the table is allowed" -- \
	bash -c "! grep -q 'runner -> history' '$T/e-folders.out'"
sed -i 's|^analyze/|analyze/ => runner|' "$F/docs/design.md"
python3 "$CG" --top "$F" --obj "$T/none" folders >"$T/e-folders.out" 2>&1
is "$?" 2 "a table line it cannot read is bad use (exit 2), not a pass"

# ---- callers: every exported symbol has one ----------------------------
python3 "$CG" callers >"$T/callers.out" 2>&1
is "$?" 0 "codegraph callers: every exported symbol has a caller"
diag "$(tail -1 "$T/callers.out")"
[ "$(wc -l <"$T/callers.out")" -eq 2 ] || diag "$(head -20 "$T/callers.out")"
F=$T/orphan
mkdir -p "$F/runner" "$F/obj/runner"
cat >"$F/runner/runner_a.c" <<'EOD'
int runner_a(void);
int runner_used(void) { return 1; }
int runner_self(void) { return 2; }
int runner_a(void) { return runner_self(); }
int runner_orphan(void) { return 3; }
EOD
printf 'int runner_used(void);\nint runner_a(void);\n%s\n' \
	'int runner_b(void) { return runner_used() + runner_a(); }' \
	>"$F/runner/runner_b.c"
cc -O0 -c -o "$F/obj/runner/runner_a.o" "$F/runner/runner_a.c" &&
	cc -O0 -c -o "$F/obj/runner/runner_b.o" "$F/runner/runner_b.c"
is "$?" 0 "objects: functions called across files, in their own, and by none"
mkdir -p "$F/tests/unit/runner"
printf 'int runner_b(void);\nint main(void) { return runner_b(); }\n' \
	>"$F/tests/unit/runner/test_runner.c"
python3 "$CG" --top "$F" --obj obj callers >"$T/o-callers.out" 2>&1
is "$?" 1 "codegraph callers sees the function nobody calls (exit 1)"
check "... by name and file" -- grep -qx \
	'callers runner/runner_a.c: runner_orphan: no caller' "$T/o-callers.out"
is "$(grep -c '^callers ' "$T/o-callers.out")" 1 "... and only that one"
printf 'int runner_orphan(void);\nint f(void) { return runner_orphan(); }\n' \
	>>"$F/tests/unit/runner/test_runner.c"
python3 "$CG" --top "$F" --obj obj callers >"$T/o-callers.out" 2>&1
is "$?" 0 "once a unit test calls it, it has a caller"

# ---- comments: every file opens with what it is for --------------------
python3 "$CG" comments >"$T/comments.out" 2>&1
is "$?" 0 "codegraph comments: every .c and .h file opens with a comment"
[ "$(wc -l <"$T/comments.out")" -eq 1 ] || diag "$(head -20 "$T/comments.out")"
F=$T/opening
mkdir -p "$F/runner"
printf '// SPDX-License-Identifier: GPL-2.0-only\n/* The run: its order of business. */\nint runner_a(void);\n' \
	>"$F/runner/runner_a.c"
printf '/* SPDX-License-Identifier: GPL-2.0-only */\n/*\n * The runner, its commands.\n */\n#ifndef X\n#endif\n' \
	>"$F/runner/runner.h"
python3 "$CG" --top "$F" comments >"$T/o-comments.out" 2>&1
is "$?" 0 "files that open with what they are for: clean"
printf '// SPDX-License-Identifier: GPL-2.0-only\n#include <stdio.h>\n/* A comment too late. */\n' \
	>"$F/runner/runner_b.c"
printf '/* SPDX-License-Identifier: GPL-2.0-only */\n/* x */\n#ifndef Y\n#endif\n' \
	>"$F/runner/runner_priv.h"
python3 "$CG" --top "$F" comments >"$T/o-comments.out" 2>&1
is "$?" 1 "a file that opens with code fails (exit 1)"
check "... naming it" -- grep -q '^comments runner/runner_b.c: ' \
	"$T/o-comments.out"
check "... and a comment of no words fails too" -- \
	grep -q '^comments runner/runner_priv.h: ' "$T/o-comments.out"
check "... and nothing else" -- grep -qx '2 comments breaks' "$T/o-comments.out"

# ---- kerneldoc: every function of a folder's top header ----------------
python3 "$CG" kerneldoc >"$T/kerneldoc.out" 2>&1
is "$?" 0 "codegraph kerneldoc: every top-header function has kernel-doc"
diag "$(head -1 "$T/kerneldoc.out")"
[ "$(wc -l <"$T/kerneldoc.out")" -eq 2 ] || diag "$(head -20 "$T/kerneldoc.out")"
F=$T/kdoc
mkdir -p "$F/runner/suite"
cat >"$F/runner/runner.h" <<'EOD'
/* SPDX-License-Identifier: GPL-2.0-only */
/* The runner's commands. */
#ifndef RTGATE_RUNNER_H
#define RTGATE_RUNNER_H

/**
 * runner_cmd_run() - `rtgate run`
 * @argc: the number of arguments
 * @argv: the arguments
 *
 * Return: the exit code.
 */
int runner_cmd_run(int argc, char **argv);
/**
 * runner_each() - calls @fn for each thing
 * @fn: the callback
 * @arg: its argument
 */
void runner_each(int (*fn)(const char *name, void *arg), void *arg);
struct runner_x {
	int (*cb)(int a);
};

#endif
EOD
printf 'int runner_suite_parse(const char *path);\n' >"$F/runner/suite/suite.h"
python3 "$CG" --top "$F" kerneldoc >"$T/k-kerneldoc.out" 2>&1
is "$?" 0 "a top header whose functions have kernel-doc: clean (a part's header is not public)"
check "... and it counted both functions" -- \
	grep -qx '2 functions in top headers' "$T/k-kerneldoc.out"
sed -i 's|^#endif$||' "$F/runner/runner.h"
cat >>"$F/runner/runner.h" <<'EOD'
/* A plain comment is not kernel-doc. */
int runner_plain(void);
/**
 * runner_half() - a parameter left out, no Return:
 * @a: the first
 */
int runner_half(int a, const char *b);
static inline void runner_inline(int n)
{
	(void)n;
}
#endif
EOD
python3 "$CG" --top "$F" kerneldoc >"$T/k-kerneldoc.out" 2>&1
is "$?" 1 "planted functions without whole kernel-doc fail (exit 1)"
check "... a plain comment" -- grep -qx \
	'kerneldoc runner/runner.h: runner_plain(): no kernel-doc comment' \
	"$T/k-kerneldoc.out"
check "... a parameter not described" -- grep -qx \
	'kerneldoc runner/runner.h: runner_half(): @b not described' \
	"$T/k-kerneldoc.out"
check "... no Return: for a value" -- grep -qx \
	"kerneldoc runner/runner.h: runner_half(): no 'Return:'" \
	"$T/k-kerneldoc.out"
check "... an inline function with no comment" -- grep -qx \
	'kerneldoc runner/runner.h: runner_inline(): no kernel-doc comment' \
	"$T/k-kerneldoc.out"
check "... and nothing else" -- grep -qx '4 kerneldoc breaks' \
	"$T/k-kerneldoc.out"

# ---- enums: a header's enum constants carry the folder's prefix --------
python3 "$CG" enums >"$T/enums.out" 2>&1
is "$?" 0 "codegraph enums: every enum constant carries its prefix"
[ "$(wc -l <"$T/enums.out")" -eq 1 ] || diag "$(head -20 "$T/enums.out")"
F=$T/enums
mkdir -p "$F/runner/suite" "$F/common/core" "$F/workloads/inject"
printf 'enum runner_mode {\n\tRUNNER_MODE_A,\t/* a, b */\n\tRUNNER_MODE_B = 2,\n};\n' \
	>"$F/runner/suite/suite.h"
printf 'enum exitcode_status { EXITCODE_PASS = 0 };\n' >"$F/common/core/exitcode.h"
printf 'enum inject_kind { INJ_A };\n' >"$F/workloads/inject/inject.h"
python3 "$CG" --top "$F" enums >"$T/n-enums.out" 2>&1
is "$?" 0 "prefixed constants (a part's header, a common module's): clean"
printf 'enum runner_order { SUITE_ORDER_BLOCKED, RUNNER_ORDER_X };\n' \
	>>"$F/runner/suite/suite.h"
printf 'enum { EXIT_PASS, LOG_ERR };\n' >>"$F/common/core/exitcode.h"
python3 "$CG" --top "$F" enums >"$T/n-enums.out" 2>&1
is "$?" 1 "planted constants without the prefix fail (exit 1)"
check "... the runner's, by name" -- grep -qx \
	'enums runner/suite/suite.h: SUITE_ORDER_BLOCKED: not RUNNER_\*' \
	"$T/n-enums.out"
check "... a common module's, against its own prefix" -- bash -c \
	"grep -qx 'enums common/core/exitcode.h: EXIT_PASS: not EXITCODE_\*' '$T/n-enums.out' &&
	 grep -qx 'enums common/core/exitcode.h: LOG_ERR: not EXITCODE_\*' '$T/n-enums.out'"
check "... and nothing else (a workload's own folder has no prefix)" -- \
	grep -qx '3 enums breaks' "$T/n-enums.out"

# common/core/log.h's levels do not clash with <syslog.h>'s LOG_ERR.
printf '#include <syslog.h>\n#include "log.h"\n%s\n' \
	'int f(void) { return LOG_ERR + LOG_LEVEL_ERR; }' |
	cc -fsyntax-only -Werror -I"$TOP/common/core" -x c - 2>"$T/syslog.err"
is "$?" 0 "log.h and <syslog.h> in one file compile"

# `./run.sh` installs only deps/*-run.txt: the product must build without
# the test tier's packages. A pkg-config that knows no cmocka stands in for
# a machine without libcmocka-dev; the library flags must still be there.
mkdir -p "$T/nocmocka"
cat >"$T/nocmocka/pkg-config" <<'EOS'
#!/bin/sh
for a in "$@"; do [ "$a" = cmocka ] && exit 1; done
exec /usr/bin/pkg-config "$@"
EOS
chmod +x "$T/nocmocka/pkg-config"
PATH="$T/nocmocka:$PATH" make -s -C "$TOP" -n -B build/obj/trace/trace_marker.o \
	>"$T/nocmocka.out" 2>&1
check "without cmocka, make still passes the libraries' flags (tracefs)" -- \
	grep -q -- "$(pkg-config --cflags libtracefs | cut -d' ' -f1)" "$T/nocmocka.out"

done_testing
