#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The flattened-mail decoder (`rtgate patches recover`, pick = recover) on
# a tiny fake tree: the test makes a real diff of it with git, mails it as
# quoted-printable (python3's quopri, the soft breaks at 76 columns), then
# loses every line break and indentation as the hrtick seed did. The
# decoder must give back the diff byte for byte; a hunk whose context is
# in the tree twice, or not at all, is an error naming file and hunk (exit
# 3), never a guess.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=$T/out RTGATE_CACHE_DIR=$T/cache
has() { grep -q -- "$1" "$2"; }
rg() { "$RTGATE" "$@" >"$T/out.txt" 2>"$T/err"; }

# A tree that rtgate takes for a kernel tree (kernel_tree_src()).
tree=$T/tree
mkdir -p "$tree/kernel/sched" "$tree/scripts/kconfig"
: >"$tree/scripts/kconfig/merge_config.sh"
printf 'kernelversion:\n\t@echo 0.0.1\n' >"$tree/Makefile"
cat >"$tree/kernel/sched/toy.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0-only
#include "sched.h"

static int toy_weight(struct toy_rq *rq, int nice)
{
	int w = 1024;

	if (nice > 0)
		w >>= nice;

	return w;
}

/*
 * A comment line long enough that quoted-printable must break it somewhere in the middle.
 */
static void toy_set_next(struct toy_rq *rq, struct toy_task *p, bool first)
{
	struct toy_entity *se = &p->se;
	bool throttled = false;

	se->exec_start = rq->clock;
	if (!first)
		return;

	toy_push(rq);

	if (toy_hrtick(rq))
		toy_hrtick_start(rq, p);
}

static void toy_other(void)
{
}
EOF
cat >"$tree/kernel/sched/toy.h" <<'EOF'
struct toy_class {
	void (*set_next)(struct toy_rq *rq, struct toy_task *p, bool first);
};
EOF
# The change, made on a git copy of the tree (so the diff is git's own).
work=$T/work
cp -r "$tree" "$work"
git -C "$work" init -q . && git -C "$work" add -A &&
	git -C "$work" -c user.name=t -c user.email=t@example.org \
		commit -qm base || exit 1
python3 - "$work" <<'EOF'
import sys
d = sys.argv[1]
p = d + '/kernel/sched/toy.c'
s = open(p).read()
s = s.replace('''static void toy_set_next(struct toy_rq *rq, struct toy_task *p, bool first)
{
	struct toy_entity *se = &p->se;
	bool throttled = false;

	se->exec_start''', '''static void toy_set_next(struct toy_rq *rq, struct toy_task *p, enum toy_snt type_of_the_call)
{
	struct toy_entity *se = &p->se;
	bool first = type_of_the_call == TOY_PICK;

	if (type_of_the_call == TOY_REPICK)
		goto repick;

	se->exec_start''')
s = s.replace('''	toy_push(rq);

	if (toy_hrtick(rq))
		toy_hrtick_start(rq, p);
}''', '''	toy_push(rq);
	if (rq->nr_running > 1) {
		toy_balance(rq);
		rq->flags |= 4;
	}

repick:
	if (toy_hrtick(rq))
		toy_hrtick_start(rq, p);
}''')
open(p, 'w').write(s)
p = d + '/kernel/sched/toy.h'
s = open(p).read()
s = s.replace('struct toy_class {', '''enum toy_snt {
	TOY_NORMAL,
	TOY_PICK,
	TOY_REPICK,
};

struct toy_class {''')
s = s.replace('bool first);', 'enum toy_snt type);')
open(p, 'w').write(s)
EOF
git -C "$work" diff >"$T/orig.diff"
check "the test made a diff of two files" -- \
	test "$(grep -c '^diff --git' "$T/orig.diff")" -eq 2

# mkmail DIFF OUT: the diff as a quoted-printable mail, then flattened.
mkmail() {
	python3 - "$1" "$2" <<'EOF'
import quopri, re, sys
diff = open(sys.argv[1], 'rb').read()
body = (b'A toy change for the decoder.\n\nSigned-off-by: T <t@example.org>\n'
	b'---\n' + diff)
qp = quopri.encodestring(body)
mail = (b'From nobody Mon Sep 17 00:00:00 2001\nFrom: T <t@example.org>\n'
	b'Date: Mon, 30 Nov 2026 12:00:00 +0000\n'
	b'Subject: [PATCH] toy: a change\nMessage-Id: <toy-1@example.org>\n'
	b'MIME-Version: 1.0\nContent-Type: text/plain; charset="utf-8"\n'
	b'Content-Transfer-Encoding: quoted-printable\n\n' + qp)
open(sys.argv[2], 'wb').write(re.sub(rb'\s+', b' ', mail))
EOF
}
mkmail "$T/orig.diff" "$T/mail.txt"
check "the mail is one line" -- test "$(wc -l <"$T/mail.txt")" -eq 0
check "quoted-printable broke lines (soft breaks) and encoded '='" -- \
	grep -q '= .*=3D' "$T/mail.txt"

rg patches recover "$T/mail.txt" --src "$tree" --output "$T/rec.patch"
is $? 0 "the flattened mail's patch is recovered"
check "its diff is the original, byte for byte" -- \
	cmp <(sed -n '/^diff --git/,$p' "$T/rec.patch") "$T/orig.diff"
check "the mail's own headers are kept" -- \
	has '^Subject: \[PATCH\] toy: a change$' "$T/rec.patch"
check "it applies with --fuzz=0" -- \
	patch -d "$(cp -r "$tree" "$T/applied" && echo "$T/applied")" \
	-p1 --fuzz=0 -s -i "$T/rec.patch"
check "the patched files are git's" -- \
	diff -r -x .git "$work" "$T/applied"

# A fetch with pick = recover: the set's pin is checked.
P=$T/patches
mkdir -p "$P/toy"
printf '[set]\nmail = mail.txt\npick = recover\n' >"$P/toy/manifest.ini"
export RTGATE_PATCHES_DIR=$P
rg patches fetch toy --seeds "$T" --src "$tree" --pin
is $? 0 "patches fetch (pick = recover) pins it"
rg patches fetch toy --seeds "$T" --src "$tree"
is $? 0 "a second fetch matches the pin"
check "the fetched patch is the recovered one" -- cmp "$T/rec.patch" \
	"$RTGATE_OUT_DIR/patches/toy/0001-toy-a-change.patch"
rg patches fetch toy --seeds "$T"
is $? 3 "pick = recover without a base tree: exit 3"
check "and it says what to give" -- has 'needs the base tree' "$T/err"

# Not placeable: a context line that the tree does not have.
cp -r "$tree" "$T/tree2"
sed -i 's/toy_push(rq);/toy_push_all(rq);/' "$T/tree2/kernel/sched/toy.c"
rg patches recover "$T/mail.txt" --src "$T/tree2"
is $? 3 "a hunk whose context is not in the tree: exit 3"
check "the error names the file and the hunk" -- \
	has 'kernel/sched/toy.c hunk 1 of 1 (@@ -14,17 +14,25 @@): its context and removed lines are nowhere' \
	"$T/err"
check "and nothing was written" -- test ! -s "$T/out.txt"

# Ambiguous: the hunk's lines are in the tree's file twice.
amb=$T/amb
mkdir -p "$amb/kernel" "$amb/scripts/kconfig"
cp "$tree/Makefile" "$amb/"
: >"$amb/scripts/kconfig/merge_config.sh"
printf '\tx = 1;\n\ty = 2;\n\tz = 3;\n\tw = 4;\n' >"$T/block"
cat "$T/block" "$T/block" "$T/block" >"$amb/kernel/twice.c"
{ printf 'diff --git a/kernel/twice.c b/kernel/twice.c\n'
  printf -- '--- a/kernel/twice.c\n+++ b/kernel/twice.c\n'
  printf '@@ -5,4 +5,4 @@\n \tx = 1;\n-\ty = 2;\n+\ty = 20;\n \tz = 3;\n \tw = 4;\n'
} >"$T/amb.diff"
mkmail "$T/amb.diff" "$T/amb.txt"
rg patches recover "$T/amb.txt" --src "$amb"
is $? 3 "a hunk that fits two places: exit 3"
check "the error names file, hunk and both places" -- \
	has 'kernel/twice.c hunk 1 of 1 (@@ -5,4 +5,4 @@): it matches the tree.s file at line 1 and at line 5: refusing to guess' \
	"$T/err"

sed 's/=3D/=ZZ/' "$T/mail.txt" >"$T/badqp.txt"
rg patches recover "$T/badqp.txt" --src "$tree"
is $? 3 "a '=' that is not quoted-printable: exit 3"
check "says where" -- has "badqp.txt: offset [0-9]*: '=ZZ' is not quoted-printable" "$T/err"

rg patches recover "$T/orig.diff" --src "$tree"
is $? 3 "a mail that is not flattened: exit 3"
check "says so" -- has 'not a flattened mail' "$T/err"

done_testing
