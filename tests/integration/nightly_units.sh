#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# lab/nightly: the systemd service and timer pass `systemd-analyze verify`
# once installed paths are filled in, the timer fires nightly, and the cron
# line has cron.d's shape (5 time fields, a user, the same command).
source "$(dirname "$0")/../lib.sh"
L=$TOP/lab/nightly
for u in rtgate-nightly.service rtgate-nightly.timer; do
	sed "s|@RTGATE_DIR@|$TOP|g" "$L/$u" >"$T/$u"
done
if command -v systemd-analyze >/dev/null; then
	check "systemd-analyze verify accepts the units" -- \
		systemd-analyze verify "$T/rtgate-nightly.service" "$T/rtgate-nightly.timer"
	cal=$(sed -n 's/^OnCalendar=//p' "$T/rtgate-nightly.timer")
	check "the timer's calendar is valid" -- systemd-analyze calendar "$cal"
else
	skip "no systemd-analyze" "systemd units verify"
	skip "no systemd-analyze" "timer calendar"
fi
is "$(sed -n 's/^ExecStart=//p' "$T/rtgate-nightly.service")" \
	"$TOP/run.sh nightly --config /etc/rtgate/nightly.conf" "the service runs the nightly"
line=$(grep -v '^#' "$L/rtgate-nightly.cron" | grep -E '^[0-9*]')
check "the cron line has 5 time fields, a user and the command" -- \
	grep -Eq '^[0-9*,/-]+( [0-9*,/-]+){4} root cd @RTGATE_DIR@ && ./run.sh nightly --config /etc/rtgate/nightly.conf$' <<<"$line"
check "the example configuration is one rtgate accepts" -- \
	grep -q '^\[suite quick\]' "$L/nightly.conf.example"
done_testing
