#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A real LAVA instance (lava/lava-local.sh): lava-server, its
# scheduler, a worker and PostgreSQL started without systemd, on
# loopback only; its REST API answers with the admin token, refuses a
# wrong one, and lists the worker online and two QEMU devices.
source "$(dirname "$0")/../lib.sh"
LOCAL=$TOP/lava/lava-local.sh
export LAVA_LOCAL_DIR=${LAVA_LOCAL_DIR:-/var/lib/rtgate/lava}
was_up=0
"$LOCAL" status >/dev/null 2>&1 && was_up=1
# Stop only what this test started.
[ $was_up -eq 1 ] || trap '"$LOCAL" down >/dev/null 2>&1; _tap_cleanup' EXIT

start=$SECONDS
"$LOCAL" up >"$T/up.log" 2>&1
ok $? "lava-local.sh up brings the instance up"
diag "up took $((SECONDS - start)) s (was up before: $was_up)"
sed 's/^/# /' "$T/up.log" | tail -8
eval "$("$LOCAL" env)"
check "the admin token is a file only its owner reads" -- \
	test "$(stat -c %a "$RTGATE_LAVA_TOKEN_FILE")" = 600
api() { curl -sS -m 20 -H "Authorization: Token $(cat "$RTGATE_LAVA_TOKEN_FILE")" \
	"${RTGATE_LAVA_URL}api/v0.2/$1"; }
js() { /usr/bin/python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

is "$(api system/version/ | js 'd["version"]')" 2023.01 "the API answers: lava-server 2023.01"
is "$(api system/whoami/ | js 'd["user"]')" rtgate-admin "the token authenticates the admin"
code=$(curl -s -o /dev/null -w '%{http_code}' -m 20 -H "Authorization: Token not-a-token" \
	"${RTGATE_LAVA_URL}api/v0.2/system/whoami/")
check "a wrong token is refused (HTTP $code)" -- grep -Eqx '401|403' <<<"$code"
is "$(api workers/rtgate-worker/ | js 'd["state"]')" Online "the worker is online"
api "devices/?device_type=qemu" >"$T/devices.json"
is "$(js 'd["count"]' <"$T/devices.json")" 2 "two devices of type qemu"
is "$(js '" ".join(sorted(r["hostname"] for r in d["results"]))' <"$T/devices.json")" \
	"rtgate-qemu-01 rtgate-qemu-02" "named rtgate-qemu-01 and -02"
is "$(js '" ".join(sorted(set(r["worker_host"] for r in d["results"])))' <"$T/devices.json")" \
	rtgate-worker "both on the worker"
check "both can take jobs (Idle, health Good or Unknown)" -- bash -c \
	"$(declare -f js); js 'all(r[\"state\"] == \"Idle\" and r[\"health\"] in (\"Good\", \"Unknown\") for r in d[\"results\"]) or sys.exit(1)' <'$T/devices.json'"
# Each device carries a tag of its own name: a job asks for a board so.
for b in rtgate-qemu-01 rtgate-qemu-02; do
	tags=$(api "devices/$b/" | js 'd["tags"]')
	names=$(for t in $(tr -d '[],' <<<"$tags"); do api "tags/$t/" | js 'd["name"]'; done)
	check "$b carries the tag $b" -- grep -qx "$b" <<<"$names"
done

# Loopback only: every listening socket of the services is on 127.0.0.1.
pids=$(cat "$LAVA_LOCAL_DIR"/pids/*.pid | tr '\n' ' ')
ss -Hltnp >"$T/listen.txt"
mine=$(grep -E "pid=($(tr ' ' '|' <<<"${pids% }"))," "$T/listen.txt"; grep -F '"postgres"' "$T/listen.txt")
diag "$(awk '{ print $4 }' <<<"$mine" | sort -u | tr '\n' ' ')"
check "the services listen" -- test -n "$mine"
check "... on loopback only" -- bash -c "! awk '{ print \$4 }' <<<'$mine' | grep -qvE '^(127\\.0\\.0\\.1|\\[::1\\]):'"

"$LOCAL" up >"$T/up2.log" 2>&1
ok $? "a second up keeps what runs"
check "... and starts nothing again" -- bash -c "! grep -q '^lava-local: started' '$T/up2.log'"
is "$(api devices/ | js 'd["count"]')" 2 "... and still two devices"
done_testing
