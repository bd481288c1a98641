#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Behaviour pinned byte for byte: recorded real runs replayed through
# `rtgate compare` and `rtgate report` in every format, against the outputs
# kept in tests/fixtures/golden/. A change that moves code (issue 25's
# folder split) must leave every byte as it was; a change that means to
# alter an output regenerates the goldens and shows the diff in review:
#
#   RTGATE_GOLDEN_UPDATE=1 ./run.sh test golden_replay
#
# The HTML's SVG plots are kept as their SHA-256 (gnuplot's bytes, a few
# hundred kB); the version string is written VERSION. Each case is one
# line: NAME, then the rtgate command line after the binary, with OUT for
# the output directory.
source "$(dirname "$0")/../lib.sh"

cd "$TOP" || exit 1
G=tests/fixtures/golden
R=tests/fixtures/real
V=tests/fixtures/validation
cases="busy1-inject100 compare $R/busy-1:idle $R/busy-1:inject100 --report all --out OUT
busy1-hackbench compare $R/busy-1:idle $R/busy-1:hackbench --report all --out OUT
quiet1-aa compare $R/quiet-1:idle $R/quiet-1:idle2 --report all --out OUT
quietv1-p99 compare $V/quiet-v1:idle $V/quiet-v1:inject30 --metric p99 --report all --out OUT
shapes-avg compare $V/shapes-v1:idle $V/shapes-v1:idle2 --metric avg --report txt,json --out OUT
nightly-run report tests/fixtures/nightly/recorded/20261130-195359-quick --report all --out OUT"

# The outputs as kept: SVG bodies as their hash, the version as VERSION.
normalize() {
	local f
	for f in "$1"/*; do
		case $f in
		*.html)
			python3 - "$f" <<-'EOF'
			import hashlib, re, sys
			p = sys.argv[1]
			s = open(p, encoding="utf-8").read()
			s = re.sub(r"<svg\b.*?</svg>",
				   lambda m: "<svg sha256=%s/>" %
				   hashlib.sha256(m.group(0).encode()).hexdigest(),
				   s, flags=re.S)
			open(p, "w", encoding="utf-8").write(s)
			EOF
			;;
		esac
		sed -i "s/$(sed 's/\./\\./g' VERSION)/VERSION/g" "$f"
	done
}

update=${RTGATE_GOLDEN_UPDATE:-}
while read -r name cmd; do
	out=$T/$name
	mkdir -p "$out"
	# shellcheck disable=SC2086
	"$RTGATE" ${cmd//OUT/$out} >"$T/$name.stdout" 2>"$T/$name.stderr"
	echo "exit $?" >"$out/exit"
	normalize "$out"
	if [ -n "$update" ]; then
		rm -rf "${G:?}/$name"
		mkdir -p "$G/$name"
		cp "$out"/* "$G/$name/"
		diag "$name: goldens written"
	fi
	check "$name: the files are the kept ones" -- \
		diff <(cd "$G/$name" 2>/dev/null && ls) <(cd "$out" && ls)
	for f in "$out"/*; do
		b=$(basename "$f")
		if ! cmp -s "$G/$name/$b" "$f"; then
			diff -u "$G/$name/$b" "$f" 2>&1 | head -20 | while IFS= read -r l; do
				diag "$l"
			done
		fi
		check "$name: $b byte for byte" -- cmp -s "$G/$name/$b" "$f"
	done
done <<<"$cases"
# Not vacuous: a golden that differs is seen.
f=$G/busy1-inject100/report.txt
sed 's/REGRESSION/NO CHANGE/' "$f" >"$T/planted"
check "a planted difference fails the comparison" -- \
	bash -c "! cmp -s '$f' '$T/planted'"
check "the cases judge something: busy1-inject100 is a REGRESSION (exit 1)" -- \
	grep -qx 'exit 1' "$G/busy1-inject100/exit"
done_testing
