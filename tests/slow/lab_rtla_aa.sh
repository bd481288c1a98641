#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rtla's auto-analysis of the timerlat suite, for real: `rtgate kernel
# tools` builds the 7.3 tree's rtla into out/tools/rtla (bookworm's 6.1
# has none), the lab's initramfs carries it beside the distribution's
# rtla, and the timerlat suite on a Debian 7.x rt image (RTGATE_RTLA_KERNEL,
# default debian:7.2-rt) runs with --trace spikes:
# every repetition's histogram is measured whole (by PATH's rtla, as
# before), then `rtla timerlat top --aa-only` catches a wake-up half as
# late as the histogram's worst and its analysis lands in rtla-aa.txt,
# the manifest's rtla_aa and the reports. RTGATE_RTLA_TREE names the tree
# (default: the unpacked linux-source-7.3 under the cache, else skipped).
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}
jqe() { jq -e "$1" "$2" >/dev/null; }

tree=${RTGATE_RTLA_TREE:-$(ls -d "$RTGATE_CACHE_DIR"/src/linux-source-7.3* 2>/dev/null | head -1)}
if [ ! -d "$tree/tools/tracing/rtla" ]; then
	skip "no kernel tree with tools/tracing/rtla (RTGATE_RTLA_TREE)" \
		"rtla auto-analysis in the lab"
	done_testing
	exit
fi

start=$SECONDS
"$RTGATE" kernel tools --src "$tree" >"$T/tools.out" 2>"$T/tools.err"
is $? 0 "kernel tools built the tree's rtla"
check "into out/tools/rtla, described in rtla.json" -- \
	jqe '.tool == "rtla" and (.version | test("^[0-9]+\\.[0-9]+")) and
	     (.libraries | index("libtracefs.so.1"))' "$RTGATE_OUT_DIR/tools/rtla.json"
check "it has the auto-analysis" -- \
	bash -c "'$RTGATE_OUT_DIR/tools/rtla' timerlat top --help 2>&1 | grep -q -- --aa-only"
diag "rtla built in $((SECONDS - start)) s"

start=$SECONDS
"$RTGATE" lab run --kernel "${RTGATE_RTLA_KERNEL:-debian:7.2-rt}" --suite timerlat --duration-scale 0.2 \
	--trace spikes --timeout 30m --on-crash rerun --out "$T/results" \
	>"$T/out" 2>"$T/err"
rc=$?
diag "lab run: exit $rc in $((SECONDS - start)) s"
check "the run ended with a verdict (not an error)" -- test "$rc" -le 2
man=$(ls -t "$T"/results/*/manifest.json 2>/dev/null | head -1)
dir=$(dirname "${man:-x}")
check "a complete run" -- jqe '.status == "complete"' "$man"
# On a 7.x kernel bookworm's rtla 6.1 is older than the kernel: rtgate's
# own then measures too, and the manifest names it once (rtla_path).
check "the manifest names rtgate's rtla (analysing, or both)" -- \
	jqe '(.tools.rtla_aa_path // .tools.rtla_path) == "/opt/rtgate/tools/rtla"' "$man"
check "each repetition's histogram holds its samples (rows sum to count)" -- \
	bash -c "for f in '$(dirname "${man:-x}")'/*/*/timerlat.txt; do
		awk '/^[0-9]/ { for (i = 2; i <= NF; i++) s[i] += \$i }
		     /^over:/ { for (i = 2; i <= NF; i++) s[i] += \$i }
		     /^count:/ { for (i = 2; i <= NF; i++) if (s[i] != \$i) bad = 1 }
		     END { exit bad }' \"\$f\" || exit 1
	done"
check "the histograms were measured as before (rtla timerlat hist)" -- \
	jqe '[.scenarios[].repetitions[].processes[] | select(.name == "rtla") | .argv[1:3] | join(" ")] | all(. == "timerlat hist")' "$man"
check "every repetition has an rtla_aa object with its threshold" -- \
	jqe '[.scenarios[].repetitions[].rtla_aa | .threshold_us > 0 and (.command | index("--aa-only"))] | length == 10 and all' "$man"
check "and its rtla-aa.txt" -- \
	test "$(ls "$dir"/*/*/rtla-aa.txt 2>/dev/null | wc -l)" -eq 10
check "rtla analysed a wake-up in at least one repetition" -- \
	jqe '[.scenarios[].repetitions[].rtla_aa.hit] | any' "$man"
check "report.txt has the auto-analysis section" -- \
	grep -q '^== rtla auto-analysis: inject' "$dir/report.txt"
check "report.json carries it, with rtla's breakdown of a hit" -- \
	jqe '[.rtla_aa[].repetitions[] | select(.hit) | .cpus[0] | .latency_us > 0 and (.text | test("^CPU [0-9]+, (thread|IRQ) latency"))] | length > 0 and all' "$dir/report.json"
check "report.html and report.md too" -- \
	bash -c "grep -q 'id=\"rtla-aa\"' '$dir/report.html' && grep -q '^## rtla auto-analysis' '$dir/report.md'"
done_testing
