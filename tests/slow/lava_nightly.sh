#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The nightly through a real LAVA server (issue 26): lava/lava-local.sh
# brings up lava-server, its scheduler, a worker and two QEMU boards; the
# nightly submits the smoke suite on Debian's prebuilt PREEMPT_RT kernel to
# both boards, and a kernel that does not boot (the first 64 KiB of it) to
# the second; it waits for LAVA, fetches the runs back, stores them under
# each board's name and judges each board against its own history; the
# dashboard shows the boards side by side. Two nights, so that the second
# is judged against the first. NIGHTS=1 for one.
source "$(dirname "$0")/../lib.sh"
LOCAL=$TOP/lava/lava-local.sh
NIGHTS=${NIGHTS:-2}
export LAVA_LOCAL_DIR=${LAVA_LOCAL_DIR:-/var/lib/rtgate/lava}
command -v qemu-system-x86_64 >/dev/null ||
	{ skip "qemu-system-x86 is not installed" "the nightly through LAVA"; done_testing; exit 0; }
was_up=0
"$LOCAL" status >/dev/null 2>&1 && was_up=1
[ $was_up -eq 1 ] || trap '"$LOCAL" down >/dev/null 2>&1; _tap_cleanup' EXIT
t0=$SECONDS
"$LOCAL" up >"$T/up.log" 2>&1
ok $? "the LAVA instance is up"
diag "bring-up: $((SECONDS - t0)) s (was up before: $was_up)"
eval "$("$LOCAL" env)"

# The artifacts the server's worker downloads: Debian's RT kernel, the
# lab's initramfs (rtgate, cyclictest, the suites) and a broken kernel.
"$RTGATE" lab initramfs --debian-kernel rt >"$T/img.path" 2>"$T/img.err"
is "$?" 0 "rtgate lab initramfs --debian-kernel rt"
cache=${RTGATE_CACHE_DIR:-$TOP/out/cache}
VMLINUZ=$(ls -t "$cache"/debian/*/boot/vmlinuz-*-rt-* 2>/dev/null | head -1)
check "a PREEMPT_RT kernel ($VMLINUZ)" -- grep -q '^CONFIG_PREEMPT_RT=y' \
	"$(dirname "$VMLINUZ")/config-${VMLINUZ##*/vmlinuz-}"
art=$LAVA_LOCAL_ARTIFACTS/test-$$
mkdir -p "$art"
cp "$VMLINUZ" "$art/vmlinuz-rt"
head -c 65536 "$VMLINUZ" >"$art/vmlinuz-broken"
gzip -1 <"$(cat "$T/img.path")" >"$art/rtgate.cpio.gz"
chmod -R a+rX "$art"
AURL=${LAVA_LOCAL_ARTIFACT_URL}test-$$

# The token is a file; the configuration only names it.
cat >"$T/nightly.conf" <<EOF
[nightly]
results   = $T/results
dashboard = $T/dashboard

[lava]
token_file  = $RTGATE_LAVA_TOKEN_FILE
device_type = qemu
ramdisk     = $AURL/rtgate.cpio.gz
; noirqdebug: under TCG the RT kernel's serial IRQ thread can fall behind
; a burst of output, and the kernel would then disable IRQ 4
kernel_args = console=ttyS0,115200 rtgate.lab=shell noirqdebug
prompt      = rtgate# 
budget      = 40m
poll        = 5s
timeout     = 40

[board rtgate-qemu-01]
device_type = qemu

[board rtgate-qemu-02]
device_type = qemu

[kernel debian-rt]
url = $AURL/vmlinuz-rt

[suite smoke]
file = /opt/rtgate/suites/smoke.suite
EOF
"$RTGATE" nightly --config "$T/nightly.conf" --check >"$T/check.txt" 2>&1
ok $? "nightly --check accepts the configuration"
check "... with both boards and the smoke suite" -- bash -c \
	"grep -q 'board rtgate-qemu-02' '$T/check.txt' && grep -q 'suite smoke' '$T/check.txt'"
printf 'token = x\n' >"$T/bad.conf"
sed -i '1i [lava]' "$T/bad.conf"
"$RTGATE" nightly --config "$T/bad.conf" --check >/dev/null 2>"$T/bad.err"
is "$?" 3 "a token in the configuration is refused"

for night in $(seq 1 "$NIGHTS"); do
	# The broken kernel on the second board, on the last night.
	if [ "$night" -eq "$NIGHTS" ]; then
		printf '\n[kernel broken]\nurl = %s/vmlinuz-broken\nboards = rtgate-qemu-02\n' \
			"$AURL" >>"$T/nightly.conf"
	fi
	t1=$SECONDS
	"$RTGATE" nightly --config "$T/nightly.conf" --lava "$RTGATE_LAVA_URL" \
		>"$T/night$night.out" 2>"$T/night$night.err"
	code=$?
	diag "night $night: exit $code in $((SECONDS - t1)) s"
	sed 's/^/# /' "$T/night$night.out" | head -40
	grep -E 'LAVA job|error' "$T/night$night.err" | sed 's/^/# /' | head -20
done
# The last night had a run that did not complete: 5, whatever the rest.
is "$code" 5 "the night with a kernel that did not boot exits 5"

DB=$T/results/rtgate.db
q() { sqlite3 "$DB" "$1"; }
is "$(q "SELECT count(*) FROM runs WHERE host = 'rtgate-qemu-01' AND status = 'complete'")" \
	"$NIGHTS" "board 1: every night's run in history, complete"
is "$(q "SELECT count(*) FROM runs WHERE host = 'rtgate-qemu-02' AND status = 'complete'")" \
	"$NIGHTS" "board 2: likewise"
check "the runs are the smoke suite on the RT kernel" -- test \
	"$(q "SELECT count(*) FROM runs WHERE status = 'complete' AND suite = 'smoke' AND kernel_release LIKE '%-rt-%'")" \
	-eq $((2 * NIGHTS))
# Each run came from the board it names: LAVA's device in its manifest.
check "each run's LAVA device is its host" -- test \
	"$(q "SELECT count(*) FROM runs WHERE status = 'complete' AND json_extract(manifest, '\$.lava.device') = host")" \
	-eq $((2 * NIGHTS))
inc=$(q "SELECT host || '|' || status || '|' || status_reason FROM runs WHERE status != 'complete'")
diag "$inc"
is "$(wc -l <<<"$inc")" 1 "one run did not complete"
is "$(cut -d'|' -f1,2 <<<"$inc")" "rtgate-qemu-02|incomplete" "... the broken kernel's, on board 2, incomplete"
check "... with LAVA's verdict and reason" -- grep -Eq \
	'LAVA job [0-9]+ Incomplete on rtgate-qemu-02: .*error' <<<"$inc"
job=$(grep -Eo 'LAVA job [0-9]+' <<<"$inc" | awk '{ print $3 }')
health=$(curl -sS -H "Authorization: Token $(cat "$RTGATE_LAVA_TOKEN_FILE")" \
	"${RTGATE_LAVA_URL}api/v0.2/jobs/$job/" | /usr/bin/python3 -c \
	'import json,sys; print(json.load(sys.stdin)["health"])')
is "$health" Incomplete "LAVA itself marks job $job Incomplete"
check "no placeholder is left behind" -- test \
	"$(q "SELECT count(*) FROM runs WHERE run_id LIKE 'lava-%' AND status = 'complete'")" -eq 0
# Judged against each board's own history.
v=$(q "SELECT r.host || ' ' || v.scenario || ' ' || v.verdict FROM verdicts v JOIN runs r ON r.id = v.run WHERE v.source = 'history'" 2>&1)
diag "$(head -12 <<<"$v")"
for b in rtgate-qemu-01 rtgate-qemu-02; do
	check "$b's scenarios were judged against its history" -- grep -q "^$b idle " <<<"$v"
done
if [ "$NIGHTS" -ge 2 ]; then
	check "the second night was judged against the first (not SKIPPED)" -- \
		grep -Eq '^rtgate-qemu-01 idle (NO CHANGE|INCONCLUSIVE|REGRESSION|IMPROVEMENT)' <<<"$v"
fi
# The dashboard: the boards side by side, the failure with its reason.
H=$T/dashboard/index.html
check "the dashboard was written" -- test -s "$H"
check "it has the boards side by side" -- grep -q 'Hosts side by side' "$H"
row=$(grep -A3 '<h3>suite smoke' "$H" | grep '<tr><th></th>')
check "... one column per board" -- bash -c "grep -q '<th>rtgate-qemu-01</th><th>rtgate-qemu-02</th>' <<<'$row'"
check "... board 2's latest run is the incomplete one, with LAVA's reason" -- \
	grep -Eq 'class="incomplete".*LAVA job [0-9]+ Incomplete' "$H"
check "... and each scenario's verdict" -- grep -Eq '<tr><th>idle</th><td[^>]*>(SKIPPED|NO CHANGE|INCONCLUSIVE|REGRESSION|IMPROVEMENT)' "$H"
check "the summary names the incomplete run" -- grep -q 'incomplete' "$T/night$NIGHTS.out"
rm -rf "$art"
diag "wall time: $((SECONDS - t0)) s"
done_testing
