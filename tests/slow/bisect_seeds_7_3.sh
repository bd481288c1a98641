#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rtgate bisect on the real set (issue 22, item 6): base 7.3, series the
# list patches/seeds-7.3 (the seeds' sets 000, 001, 003, then the 7.x
# control knob); one bisection per seed metric, each must name its own
# set's patch as the first mover:
#
#   000  setparam     default      ns/call falls   --moves improvement
#   001  rt-sysctl    read-period  ns/read falls   --moves improvement
#   003  hrtick-      hrtick       runs past an    --moves improvement
#        kernels                   expired hrtick
#   knob lab-control  idle         cyclictest max  regression, the knob
#                                                  armed with --append-b
#                                                  (lab-control-icount,
#                                                  p99, under --clock
#                                                  icount)
#
# The knob is not armed by default, so it moves no seed's metric; the
# lab-control bisection arms it on the prefixes' command line, so only a
# prefix that holds it can be a REGRESSION.
#
# A set of the list that is not ready here (not fetched, or it does not
# apply after the ones before it) is left out: the test bisects a list of
# the ready sets, in the same order, and skips that set's metric saying
# why. The tree: RTGATE_TREE_7_3, else Debian's linux-source-7.3 extracted
# in the cache (out/cache/src/linux-source-7.3_*); none: the test skips.
# The base: RTGATE_BASE_7_3 (a built 7.3 kernel folder), else built here
# (full preemption, the rseq and hrtick fragments). RTGATE_SEED_METRICS
# picks metrics (default 000,001,003,knob); RTGATE_BISECT_ARGS adds
# bisect options (e.g. the lab's clock: `--clock icount:3` for 001, the
# knob and 000, `--clock icount:0` for 003, whose hogs' tracing at
# icount:3 outlasts the runner's stop grace). Bisections resume from their
# state (out/bisect/slow-seeds-7.3-METRIC); RTGATE_BISECT_FRESH=1 starts
# them again.
source "$(dirname "$0")/../lib.sh"

export RTGATE_OUT_DIR=${RTGATE_SLOW_OUT_DIR:-$TOP/out}
export RTGATE_CACHE_DIR=${RTGATE_CACHE_DIR:-$RTGATE_OUT_DIR/cache}
LIST="seeds-7.3"
KNOB_ARGS="rtgate_inject.width_us=30000 rtgate_inject.period_ms=100"
jqe() { jq -e "$1" "$2" >/dev/null; }

find_tree() {
	local d
	for d in "$RTGATE_CACHE_DIR"/src/linux-source-7.3_*; do
		case $d in *.lock | *.log | *.tmp.*) continue ;; esac
		[ -f "$d/Makefile" ] && tree=$d
	done
}
tree=${RTGATE_TREE_7_3:-}
[ -z "$tree" ] && find_tree
if [ -z "$tree" ]; then
	# A fresh clone's slow tier: no test before this one has fetched
	# 7.3, so fetch it here (private apt, ~150 MB, 2-5 minutes).
	"$RTGATE" kernel build --debian 7.3 --config-only --model full \
		--name slow-7.3-tree >"$T/tree" 2>&1
	is $? 0 "the 7.3 tree: kernel build --debian 7.3 --config-only fetched it"
	find_tree
fi
if [ -z "$tree" ] || [ ! -f "$tree/Makefile" ]; then
	diag "$(tail -3 "$T/tree" 2>/dev/null)"
	ok 1 "a 7.3 tree in $RTGATE_CACHE_DIR/src (RTGATE_TREE_7_3, or kernel build --debian 7.3)"
	done_testing
	exit
fi
diag "7.3 tree: $tree"
seeds=${RTGATE_SEEDS_DIR:-}
for d in "$TOP/../shared/seeds" "$TOP/../../shared/seeds"; do
	[ -z "$seeds" ] && [ -d "$d" ] && seeds=$d
done

# ---- the list's sets that are ready here, in the list's order ---------
members=$(grep -E '^sets|^ +[a-z]' "$TOP/patches/$LIST/manifest.ini" |
	  sed 's/^sets *= *//; s/;.*//; s/ //g')
ready=""
declare -A why
for s in $members; do
	: >"$T/fetch"
	if ! grep -q '^own *= *yes' "$TOP/patches/$s/manifest.ini" &&
	   [ ! -f "$RTGATE_OUT_DIR/patches/$s/series" ] && [ -n "$seeds" ]; then
		"$RTGATE" patches fetch "$s" --seeds "$seeds" >"$T/fetch" 2>&1
	fi
	if "$RTGATE" patches check "${ready:+$ready,}$s" --src "$tree" \
		>"$T/check" 2>&1; then
		ready=${ready:+$ready,}$s
	else
		why[$s]=$(cat "$T/fetch" "$T/check" | grep -m1 'error' |
			  cut -c1-200)
		diag "$s is not ready: ${why[$s]}"
	fi
done
if [ "$ready" = "$(echo "$members" | paste -sd,)" ]; then
	series=$LIST
else
	# The ready sets as a list of their own, beside copies of the sets.
	mkdir -p "$T/patches"
	cp -r "$TOP"/patches/* "$T/patches/"
	series=$LIST-ready
	mkdir -p "$T/patches/$series"
	{
		echo "[set]"
		echo "description = the sets of $LIST that are ready here"
		echo "sets = $ready"
	} >"$T/patches/$series/manifest.ini"
	export RTGATE_PATCHES_DIR=$T/patches
fi
diag "series: $series ($ready)"
check "the knob's set is ready (our own, it must apply to 7.3)" -- \
	bash -c "echo '$ready' | grep -q control-latency-7"

# ---- the base ---------------------------------------------------------
if [ -n "${RTGATE_BASE_7_3:-}" ]; then
	base=$RTGATE_BASE_7_3
else
	start=$SECONDS
	"$RTGATE" kernel build --src "$tree" --model full \
		--fragments rseq,hrtick --name slow-7.3-full-hrtick >"$T/b" 2>&1
	is $? 0 "the base: 7.3, full preemption, rseq and hrtick"
	diag "the base took $((SECONDS - start)) s"
	base=slow-7.3-full-hrtick
fi

# ---- one bisection per seed metric ------------------------------------
# metric set suite scenario moves
table="000 setparam-default-slice setparam default improvement
001 rt-sysctl-read rt-sysctl read-period improvement
003 hrtick-repick-v2 hrtick-kernels hrtick improvement
knob control-latency-7 lab-control idle regression"
want=${RTGATE_SEED_METRICS:-000,001,003,knob}
while read -r m set suite scen moves; do
	case ",$want," in *",$m,"*) ;; *) continue ;; esac
	if ! echo ",$ready," | grep -q ",$set,"; then
		skip "$set is not ready here: ${why[$set]:-not in the list}" \
			"$m: bisect names $set"
		continue
	fi
	name=slow-seeds-7.3-$m
	B=$RTGATE_OUT_DIR/bisect/$name
	[ -n "${RTGATE_BISECT_FRESH:-}" ] && rm -rf "$B"
	args=(--base "$base" --series "$series" --suite "$suite"
	      --scenario "$scen" --moves "$moves" --name "$name"
	      --timeout 40m)
	if [ "$m" = knob ]; then
		args+=(--append-b "$KNOB_ARGS")
		# In virtual time the idle maxima scatter too much for a
		# gate on max: the quiet lab's control judges p99.
		case " ${RTGATE_BISECT_ARGS:-} " in *icount*)
			args[5]=lab-control-icount ;;
		esac
	fi
	start=$SECONDS
	# shellcheck disable=SC2086
	"$RTGATE" bisect "${args[@]}" ${RTGATE_BISECT_ARGS:-} \
		>"$T/$m.out" 2>"$T/$m.err" </dev/null
	rc=$?
	diag "$m: bisect took $((SECONDS - start)) s"
	st=$B/state.json
	[ -f "$B/report.txt" ] && while read -r l; do diag "$l"; done <"$B/report.txt"
	is $rc 1 "$m: a first mover was named (exit 1)"
	is "$(jq -r .culprit.set "$st" 2>/dev/null)" "$set" \
		"$m: it is $set's patch"
	first=$(jq -r --arg s "$set" \
		'[.patch_sets | to_entries[] | select(.value == $s) | .key][0] + 1' \
		"$st" 2>/dev/null)
	is "$(jq -r .culprit.patch "$st" 2>/dev/null)" "$first" \
		"$m: the first patch of $set in the series"
	check "$m: the whole series was judged first, and moved" -- \
		jqe '.steps[0].prefix == (.patches | length) and .steps[0].exit == 1' "$st"
	check "$m: prefixes without $set did not move, with it they did" -- \
		jqe '.culprit.patch as $c | all(.steps[] | select(.exit != 2);
		     (.prefix >= $c) == (.exit == 1))' "$st"
	if [ "$m" = knob ]; then
		check "knob: the armed prefix's console shows it armed" -- \
			grep -q 'rtgate_inject: spinning 30000 us every 100 ms' \
			"$(jq -r --argjson c "$first" '.steps[] | select(.prefix == $c) | .run' "$st" | head -1)/lab-console.log"
	fi
done <<<"$table"
done_testing
