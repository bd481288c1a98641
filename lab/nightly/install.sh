#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Installs the nightly on this machine (root):
#   lab/nightly/install.sh            systemd timer (default)
#   lab/nightly/install.sh --cron     /etc/cron.d/rtgate-nightly instead
# Either way /etc/rtgate/nightly.conf is created from the example when
# absent, and rtgate is built once so the first night does not wait.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mode=${1:-systemd}

[ "$(id -u)" -eq 0 ] || { echo "install.sh: run as root" >&2; exit 4; }
install -d -m 0755 /etc/rtgate /var/lib/rtgate
[ -e /etc/rtgate/nightly.conf ] ||
	install -m 0644 "$here/nightly.conf.example" /etc/rtgate/nightly.conf
"$top/run.sh" build

case "$mode" in
--cron)
	sed "s|@RTGATE_DIR@|$top|g" "$here/rtgate-nightly.cron" \
		>/etc/cron.d/rtgate-nightly
	chmod 0644 /etc/cron.d/rtgate-nightly
	echo "installed /etc/cron.d/rtgate-nightly (02:00 every night)"
	;;
systemd)
	for u in rtgate-nightly.service rtgate-nightly.timer; do
		sed "s|@RTGATE_DIR@|$top|g" "$here/$u" >/etc/systemd/system/$u
	done
	systemctl daemon-reload
	systemctl enable --now rtgate-nightly.timer
	systemctl list-timers rtgate-nightly.timer --no-pager
	;;
*)
	echo "usage: install.sh [--cron]" >&2
	exit 3
	;;
esac
