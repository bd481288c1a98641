#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kill -9 leaves the tracefs instance (and a stream's spool) behind: the
# next start of any tracing session removes them, as tunables are restored.
source "$(dirname "$0")/../lib.sh"

export TMPDIR=$T

if ! "$RTGATE" trace clean >/dev/null 2>"$T/clean.err"; then
	skip "$(cat "$T/clean.err")" "tracing unavailable"
	done_testing
	exit
fi

"$RTGATE" trace record -m on -o "$T/x.dat" -- sleep 60 2>/dev/null &
rec=$!
for _ in $(seq 200); do
	ls $(tracefs_dir)/instances 2>/dev/null | grep -q "^rtgate-$rec-" &&
		compgen -G "$T/rtgate-trace-$rec-*" >/dev/null && break
	sleep 0.1
done
inst=$(ls $(tracefs_dir)/instances | grep "^rtgate-$rec-")
check "the session's instance exists ($inst)" -- test -n "$inst"
check "its stream spool exists" -- compgen -G "$T/rtgate-trace-$rec-*"
child=$(cat /proc/$rec/task/$rec/children 2>/dev/null)
kill -9 "$rec"
wait "$rec" 2>/dev/null
[ -n "$child" ] && kill "$child" 2>/dev/null
check "after kill -9 the instance is still there" -- \
	test -d "$(tracefs_dir)/instances/$inst"

"$RTGATE" trace clean >"$T/clean.out" 2>"$T/clean.err"
is $? 0 "the next start exits 0"
check "it says what it removed" -- grep -q "removed tracefs instance $inst" "$T/clean.err"
check "the instance is gone" -- test ! -e "$(tracefs_dir)/instances/$inst"
check "the spool is gone" -- test -z "$(compgen -G "$T/rtgate-trace-$rec-*")"

# A live session is never taken for a stale one.
"$RTGATE" trace record -o "$T/y.dat" -- sleep 3 2>"$T/y.err" &
rec=$!
for _ in $(seq 100); do
	ls $(tracefs_dir)/instances 2>/dev/null | grep -q "^rtgate-$rec-" && break
	sleep 0.1
done
"$RTGATE" trace clean >/dev/null 2>&1
check "a running session's instance is left alone" -- \
	bash -c "ls $(tracefs_dir)/instances | grep -q '^rtgate-$rec-'"
wait "$rec"
is $? 0 "that session ends normally"

done_testing
