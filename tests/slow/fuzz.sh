#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The libFuzzer targets of fuzz/ (docs/fuzzing.md), FUZZ_SECONDS (60) each,
# with ASan and UBSan, from a seed corpus of the recorded fixtures and the
# shipped suites: no crash, no leak, no undefined behaviour. The number of
# inputs each target ran is in its result line.
source "$(dirname "$0")/../lib.sh"
secs=${FUZZ_SECONDS:-60}
FIX=$TOP/tests/fixtures

if ! command -v clang >/dev/null; then
	skip "clang is not installed (deps/debian-slow.txt)" "the fuzz targets build"
	done_testing
	exit
fi
make -C "$TOP" -j"$(nproc)" fuzz >"$T/build.log" 2>&1
rc=$?
tail -3 "$T/build.log" | sed 's/^/# /'
is "$rc" 0 "make fuzz builds the targets"

# seeds TARGET: the corpus directory, seeded with copies of the fixtures.
seeds() {
	local d=$T/corpus/$1
	mkdir -p "$d"
	case $1 in
	fuzz_ct_json) cp "$FIX"/analyze/formats/*.json "$FIX"/analyze/bad/*.json \
		"$FIX"/analyze/recorded/aa1/a/1.json "$d" ;;
	fuzz_ct_hist) cp "$FIX"/analyze/formats/*.hist "$FIX"/analyze/bad/*.hist \
		"$FIX"/analyze/recorded/inject300/idle-1.hist "$d" ;;
	fuzz_ct_compare) cp "$FIX"/analyze/formats/* "$FIX"/analyze/seed/* \
		"$FIX"/analyze/bad/* "$d" ;;
	fuzz_suite) cp "$TOP"/suites/*.suite "$FIX"/nightly/*.suite "$d" ;;
	fuzz_manifest | fuzz_history_import)
		local i=0 f
		while IFS= read -r f; do
			i=$((i + 1))
			cp "$f" "$d/manifest-$i.json"
		done < <(find "$FIX" -name manifest.json | sort) ;;
	esac
	echo "$d"
}

for t in fuzz_ct_json fuzz_ct_hist fuzz_ct_compare fuzz_suite fuzz_manifest \
	 fuzz_history_import; do
	bin=$TOP/build/fuzz/bin/$t
	corpus=$(seeds $t)
	mkdir -p "$T/art"
	(cd "$TOP" && "$bin" -max_total_time="$secs" -close_fd_mask=2 \
		-print_final_stats=1 -artifact_prefix="$T/art/$t-" \
		"$corpus" >"$T/$t.log" 2>&1)
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$T/$t.log")
	grep -E "ERROR|SUMMARY|runtime error" "$T/$t.log" | head -5 | sed 's/^/# /'
	arts=$(ls "$T/art" | grep -c "^$t-")
	ok $([ "$rc" = 0 ] && [ "$arts" = 0 ] && [ -n "$runs" ]; echo $?) \
		"$t: ${runs:-?} inputs in ${secs} s, no crash (exit $rc, $arts artifacts)"
	[ "$arts" = 0 ] || cp "$T"/art/"$t"-* "$TOP/build/" 2>/dev/null
done
done_testing
