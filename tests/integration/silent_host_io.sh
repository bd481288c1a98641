#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What a silent run records reaches the verdicts (docs/runner.md, "A
# silent run"): a repetition whose host_io says something crossed to the
# host while it measured is named in the comparison's notes; a spike in a
# silent repetition measured in the lab's virtual time is the kernel's (no
# host pause reaches it), while the same spike without host_io still
# waits for a noise profile. Replays the quiet lab's tune-1 sitting with
# host_io added by jq. Seconds.
source "$(dirname "$0")/../lib.sh"

FIX=$TOP/tests/fixtures/quietlab/tune-1

# with_io DIR SILENT_JQ: a copy whose repetitions carry host_io.
with_io() {
	mkdir -p "$1"
	cp -r "$FIX"/. "$1/"
	jq "$2" "$FIX/manifest.json" >"$1/manifest.json"
}

with_io "$T/mixed" '.scenarios |= map(.repetitions |= map(.host_io =
	{console_messages: 0, host_interrupts:
	 (if .rep == 2 then 7 else 0 end), silent: (.rep != 2)}))'
"$RTGATE" compare "$T/mixed:idle" "$T/mixed:idle2" --report json,txt \
	--out "$T/aa" >"$T/aa.out" 2>"$T/aa.err"
notes=$(jq -r '.comparisons[0].notes[]?' "$T/aa/report.json")
check "the loud repetition of idle2 is named in the notes" -- \
	grep -q "idle2: 1 of 4 repetitions not silent (rep 2)" <<<"$notes"
check "and of idle too" -- \
	grep -q "idle: 1 of 4 repetitions not silent (rep 2)" <<<"$notes"
check "the text report says it" -- grep -q "not silent" "$T/aa/report.txt"

with_io "$T/silent" '.scenarios |= map(.repetitions |= map(.host_io =
	{console_messages: 0, host_interrupts: 0, silent: true}))'
# inject's worst is 6 ms, idle's rep 4 has one of 67 ms: idle as the
# candidate has a spike.
"$RTGATE" compare "$T/silent:inject" "$T/silent:idle" --report json \
	--out "$T/sp" >"$T/sp.out" 2>"$T/sp.err"
ev=$(jq -r '.comparisons[0].lines[] | select(.kind == "spike") |
	.evidence' "$T/sp/report.json")
diag "spike, silent: $ev"
check "a spike in a silent virtual-time repetition is the kernel's" -- \
	grep -q "silent repetition in virtual time" <<<"$ev"
notes=$(jq -r '.comparisons[0].notes[]?' "$T/sp/report.json")
ok "$(grep -c 'not silent' <<<"$notes")" \
	"no repetition is named loud when all were silent"

"$RTGATE" compare "$FIX:inject" "$FIX:idle" --report json \
	--out "$T/np" >"$T/np.out" 2>"$T/np.err"
ev=$(jq -r '.comparisons[0].lines[] | select(.kind == "spike") |
	.evidence' "$T/np/report.json")
check "without host_io the spike still asks for a noise profile" -- \
	grep -q "no noise profile" <<<"$ev"

done_testing
