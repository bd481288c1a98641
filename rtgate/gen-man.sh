#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The man pages, made by help2man from the same --help and --version text
# the programs print (one usage text, two readers):
#   rtgate.1, rtgate-COMMAND.1, rtgate-COMMAND-SUBCOMMAND.1 and, for each
#   workload (installed beside rtgate, not on PATH), rtgate-WORKLOAD.1.
#   gen-man.sh BIN_DIR OUT_DIR
set -eu
bin=${1:?usage: gen-man.sh BIN_DIR OUT_DIR}
out=${2:?usage: gen-man.sh BIN_DIR OUT_DIR}
mkdir -p "$out"
version=$("$bin/rtgate" --version | cut -d' ' -f2)
h2m() {	# h2m PAGE "SUMMARY" COMMAND...: the page is named PAGE
	page=$1 summary=$2
	shift 2
	help2man --no-info --no-discard-stderr --section=1 \
		--source="rtgate $version" --version-string="$page $version" \
		--name="$summary" --output="$out/$page.1" "$*"
}
# A subcommand's one line in its command's "Subcommands:" list: after a
# run of spaces on its line, or alone on the next line when that is long.
summary_of() {	# summary_of CMD SUB
	"$bin/rtgate" "$1" --help | awk -v want_sub="$2" '
		/^Subcommands:/ { on = 1; next }
		on && /^$/ { exit }
		on && want { sub(/^ +/, ""); print; exit }
		on && $1 == want_sub && substr($0, 1, 3) != "   " {
			if (match($0, /[^ ]   +[^ ].*$/)) {
				s = substr($0, RSTART + 1)
				sub(/^ +/, "", s)
				print s
				exit
			}
			want = 1
		}'
}

h2m rtgate "a real-time latency regression suite for Linux kernels" \
	"$bin/rtgate"
# Commands: "  NAME ARGS    summary" lines of the Commands: section.
"$bin/rtgate" --help | sed -n '/^Commands:/,/^$/p' | sed '1d;$d' |
	awk 'NF && $0 !~ /^    / { print $1 }' |
	while read -r cmd; do
		case $cmd in help | version) continue ;; esac
		summary=$("$bin/rtgate" --help | grep -A1 "^  $cmd " |
			  sed -n 's/^  .*[^ ]  \{2,\}\(.*\)$/\1/p' | head -1)
		h2m "rtgate-$cmd" "${summary:-rtgate $cmd}" "$bin/rtgate $cmd"
		# Subcommands: the "  or:  rtgate CMD SUB ..." lines.
		"$bin/rtgate" "$cmd" --help |
			sed -n "s/^  or:  rtgate $cmd \([a-z][a-z0-9-]*\).*/\1/p" |
			while read -r sub; do
				summary=$(summary_of "$cmd" "$sub")
				h2m "rtgate-$cmd-$sub" \
					"${summary:-rtgate $cmd $sub}" \
					"$bin/rtgate $cmd $sub"
			done
	done
for w in "$bin"/*; do
	n=$(basename "$w")
	[ "$n" = rtgate ] && continue
	[ -x "$w" ] || continue
	# The first sentence of the description under the usage line.
	summary=$("$w" --help | sed -n '2,/^$/p' | tr '\n' ' ' |
		  sed 's/\([.;]\) .*//; s/ *$//')
	h2m "rtgate-$n" "rtgate's $n workload: ${summary:-a load generator}" \
		"$w"
done
