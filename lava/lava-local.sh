#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A real LAVA instance on this machine, on loopback only: Debian's
# lava-server and lava-dispatcher (2023.01 in bookworm) with PostgreSQL,
# an admin token, one worker and two QEMU (TCG) devices of device type
# qemu -- two "boards" for `rtgate lava submit` and `rtgate nightly --lava`.
# It needs no systemd: every service is started as a process of its own
# session, its pid kept in the state directory, and `down` stops exactly
# those.
#
#   lava/lava-local.sh up      install what is missing, start, set up
#   lava/lava-local.sh env     the variables a client needs (sh syntax)
#   lava/lava-local.sh status  what runs
#   lava/lava-local.sh down    stop what `up` started
#
# `up` is idempotent: a second `up` keeps what runs and what exists (the
# database, the user, its token, the worker, the devices).
#
# Environment:
#   LAVA_LOCAL_DIR     state: pids, logs, tokens, the worker's directory,
#                      the artifact directory (default /var/lib/rtgate/lava)
#   LAVA_LOCAL_PORT    lava-server's HTTP port on 127.0.0.1 (default 18080)
#   LAVA_LOCAL_ARTIFACT_PORT  the artifact server's port (default 18081)
#   LAVA_LOCAL_DEVICES how many QEMU devices (default 2)
#   LAVA_LOCAL_ACCEL   tcg (default) or kvm, for the devices' QEMU
#
# docs/nightly.md ("A LAVA instance on one machine") explains the pieces.
set -u

dir=${LAVA_LOCAL_DIR:-/var/lib/rtgate/lava}
port=${LAVA_LOCAL_PORT:-18080}
aport=${LAVA_LOCAL_ARTIFACT_PORT:-18081}
ndev=${LAVA_LOCAL_DEVICES:-2}
accel=${LAVA_LOCAL_ACCEL:-tcg}
url=http://127.0.0.1:$port
worker=rtgate-worker
user=rtgate-admin
dtype=qemu
devdir=/etc/lava-server/dispatcher-config/devices

say() { echo "lava-local: $*" >&2; }
die() { say "$*"; exit 1; }

manage() { lava-server manage "$@"; }

install_missing() {
	local p missing=()
	for p in lava-server lava-dispatcher postgresql qemu-system-x86 curl; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || die "missing packages: ${missing[*]} (run as root)"
	say "installing ${missing[*]}"
	# lava-server's postinst skips the database while PostgreSQL is
	# down; `up` runs it again once the cluster runs.
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		-o DPkg::Lock::Timeout=600 --no-install-recommends \
		"${missing[@]}" >"$dir/log/apt.log" 2>&1 ||
		{ tail -20 "$dir/log/apt.log" >&2; die "apt-get install failed"; }
}

# pid_alive NAME: the pid in pids/NAME.pid runs and is still what we
# started (its command line holds the word kept in pids/NAME.what).
pid_alive() {
	local f=$dir/pids/$1.pid pid what
	[ -f "$f" ] || return 1
	pid=$(cat "$f")
	what=$(cat "$dir/pids/$1.what" 2>/dev/null)
	[ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$what"
}

# start NAME WHAT CMD...: runs CMD in a session of its own (so `down`
# can stop its children too: lava-run, QEMU), unless it runs already.
start() {
	local name=$1 what=$2
	shift 2
	if pid_alive "$name"; then
		say "$name runs (pid $(cat "$dir/pids/$name.pid"))"
		return 0
	fi
	setsid "$@" >>"$dir/log/$name.out" 2>&1 </dev/null &
	echo $! >"$dir/pids/$name.pid"
	echo "$what" >"$dir/pids/$name.what"
	say "started $name (pid $!)"
}

stop() {
	local name=$1 pid i
	pid_alive "$name" || { rm -f "$dir/pids/$name".*; return 0; }
	pid=$(cat "$dir/pids/$name.pid")
	kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid"
	for i in $(seq 1 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	kill -0 "$pid" 2>/dev/null && kill -KILL -- "-$pid" 2>/dev/null
	rm -f "$dir/pids/$name".*
	say "stopped $name (pid $pid)"
}

pg_cluster() {	# "VERSION NAME STATUS" of the first cluster
	pg_lsclusters -h 2>/dev/null | awk 'NR == 1 { print $1, $2, $4 }'
}

postgres_up() {
	local ver name status
	read -r ver name status <<<"$(pg_cluster)"
	[ -n "${ver:-}" ] || die "no PostgreSQL cluster (pg_lsclusters is empty)"
	if [ "$status" != online ]; then
		pg_ctlcluster "$ver" "$name" start || die "pg_ctlcluster $ver $name start failed"
		echo "$ver $name" >"$dir/pids/postgres.started"
		say "started PostgreSQL $ver/$name"
	fi
	pg_isready -q -t 30 || die "PostgreSQL does not answer"
}

postgres_down() {
	local ver name
	[ -f "$dir/pids/postgres.started" ] || return 0
	read -r ver name <"$dir/pids/postgres.started"
	pg_ctlcluster "$ver" "$name" stop && say "stopped PostgreSQL $ver/$name"
	rm -f "$dir/pids/postgres.started"
}

# lava-server's own postinst creates the role, the database and its
# settings file, and migrates (what `dpkg-reconfigure lava-server` does).
database_up() {
	if [ -f /etc/lava-server/settings.d/00-database.yaml ] &&
	   manage showmigrations --plan 2>/dev/null | grep -q '^\[X\]' &&
	   ! manage showmigrations --plan 2>/dev/null | grep -q '^\[ \]'; then
		return 0
	fi
	say "creating and migrating lava-server's database"
	/usr/bin/python3 /usr/share/lava-server/postinst.py >"$dir/log/postinst.log" 2>&1 ||
		{ tail -20 "$dir/log/postinst.log" >&2; die "lava-server's postinst failed"; }
}

token_up() {
	local tok
	manage users details "$user" >/dev/null 2>&1 ||
		manage users add "$user" --superuser --staff \
			--email "$user@localhost" >/dev/null ||
		die "cannot create the user $user"
	if [ -s "$dir/token" ]; then
		tok=$(cat "$dir/token")
		manage tokens list --user "$user" --csv | grep -qF "$tok" && return 0
	fi
	(umask 077 && manage tokens add --user "$user" -d rtgate >"$dir/token") ||
		die "cannot create a token for $user"
}

worker_up() {
	local tok
	mkdir -p "$dir/worker"
	if ! manage workers details "$worker" >/dev/null 2>&1; then
		manage workers add "$worker" --description "rtgate's local worker" \
			>/dev/null || die "cannot add the worker $worker"
	fi
	tok=$(manage workers details "$worker" | awk -F': ' '/^token/ { print $2 }')
	[ -n "$tok" ] || die "the worker $worker has no token"
	(umask 077 && printf '%s\n' "$tok" >"$dir/worker/token")
}

# The device dictionary: qemu.jinja2 for an amd64 guest, TCG unless
# LAVA_LOCAL_ACCEL=kvm, no network (the image carries what it needs).
device_dict() {
	cat <<EOF
{# rtgate's local QEMU board (lava/lava-local.sh) #}
{% extends 'qemu.jinja2' %}
{% set arch = 'amd64' %}
{% set memory = 1024 %}
{% set netdevice = 'user' %}
EOF
	if [ "$accel" = kvm ]; then
		echo "{% set extra_options = ['-smp 2', '-no-reboot'] %}"
	else
		echo "{% set no_kvm = True %}"
		echo "{% set extra_options = ['-cpu qemu64', '-machine pc', '-smp 2', '-no-reboot'] %}"
	fi
}

devices_up() {
	local i name
	manage device-types details "$dtype" >/dev/null 2>&1 ||
		manage device-types add "$dtype" >/dev/null ||
		die "cannot add the device type $dtype"
	for i in $(seq 1 "$ndev"); do
		name=$(printf 'rtgate-qemu-%02d' "$i")
		device_dict >"$devdir/$name.jinja2"
		chown lavaserver:lavaserver "$devdir/$name.jinja2"
		if ! manage devices details "$name" >/dev/null 2>&1; then
			# The tag, the device's own name, lets a job ask for
			# this board (LAVA schedules by device type and tags).
			manage devices add "$name" --device-type "$dtype" \
				--worker "$worker" --tags "$name" \
				--description "rtgate's local QEMU board $i" >/dev/null ||
				die "cannot add the device $name"
		fi
	done
}

api() {	# api PATH: GET with the admin token
	curl -fsS -m 20 -H "Authorization: Token $(cat "$dir/token")" "$url/api/v0.2/$1"
}

wait_for() {	# wait_for SECONDS WHAT COMMAND...
	local t=$1 what=$2 i
	shift 2
	for ((i = 0; i < t; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 1
	done
	die "$what: not after $t s (logs in $dir/log)"
}

worker_online() {
	api "workers/$worker/" | /usr/bin/python3 -c \
		'import json,sys; sys.exit(json.load(sys.stdin)["state"] != "Online")'
}

cmd_up() {
	mkdir -p "$dir/pids" "$dir/log" "$dir/artifacts"
	chmod 755 "$dir" "$dir/artifacts"
	[ "$(id -u)" -eq 0 ] || die "run as root (it starts PostgreSQL and lava-server)"
	install_missing
	postgres_up
	database_up
	token_up
	worker_up
	devices_up
	# gunicorn drops to lavaserver, which must write its log.
	touch "$dir/log/gunicorn.log"
	chown lavaserver "$dir/log/gunicorn.log"
	start gunicorn "lava_server.wsgi" gunicorn3 lava_server.wsgi \
		--bind "127.0.0.1:$port" -u lavaserver -g lavaserver \
		--worker-class eventlet --workers 2 --timeout 60 \
		--log-level INFO --log-file "$dir/log/gunicorn.log"
	start scheduler "lava-scheduler" lava-server manage lava-scheduler \
		--level INFO --log-file "$dir/log/lava-scheduler.log"
	wait_for 60 "lava-server's API on $url" api system/version/
	# No lava-publisher: the worker pings every 5 s instead of waiting
	# for events.
	start worker "lava-worker" lava-worker --name "$worker" --url "$url/" \
		--ws-url "http://127.0.0.1:1/ws/" --ping-interval 5 \
		--token-file "$dir/worker/token" --worker-dir "$dir/worker" \
		--log-file "$dir/log/lava-worker.log" --level INFO
	start artifacts "http.server" /usr/bin/python3 -m http.server --bind 127.0.0.1 \
		--directory "$dir/artifacts" "$aport"
	wait_for 60 "the worker $worker online" worker_online
	say "up: $url ($ndev devices of type $dtype), artifacts at http://127.0.0.1:$aport/"
}

cmd_down() {
	local n
	for n in worker scheduler gunicorn artifacts; do
		stop "$n"
	done
	postgres_down
}

cmd_env() {
	echo "export RTGATE_LAVA_URL=$url/"
	echo "export RTGATE_LAVA_TOKEN_FILE=$dir/token"
	echo "LAVA_LOCAL_ARTIFACTS=$dir/artifacts"
	echo "LAVA_LOCAL_ARTIFACT_URL=http://127.0.0.1:$aport/"
	echo "LAVA_LOCAL_DEVICE_TYPE=$dtype"
	echo "LAVA_LOCAL_BOARDS=\"$(for i in $(seq 1 "$ndev"); do
		printf 'rtgate-qemu-%02d ' "$i"; done | sed 's/ $//')\""
}

cmd_status() {
	local n rc=0
	for n in gunicorn scheduler worker artifacts; do
		if pid_alive "$n"; then
			echo "$n: running (pid $(cat "$dir/pids/$n.pid"))"
		else
			echo "$n: stopped"
			rc=1
		fi
	done
	pg_isready -q && echo "postgres: running" || { echo "postgres: stopped"; rc=1; }
	return $rc
}

case "${1:-}" in
up) cmd_up ;;
down) cmd_down ;;
env) cmd_env ;;
status) cmd_status ;;
*) echo "usage: $0 up|down|env|status" >&2; exit 2 ;;
esac
