#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What tracing costs cyclictest: the same scenario with tracing off, in
# spikes mode (ring buffer) and in on mode (streamed to disk), interleaved,
# REPS times each; prints p99 and max per run and the ratios to "off"
# (medians over the repetitions). docs/tracing.md quotes its output.
#   bench/trace_cost.sh [REPS] [SECONDS] [CPU]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
rtgate=$top/bin/rtgate
reps=${1:-3}
secs=${2:-10}
cpu=${3:-$(($(nproc) > 1 ? 1 : 0))}
loops=$((secs * 1000))
dir=$(mktemp -d /tmp/rtgate-trace-cost.XXXXXX)
trap 'rm -rf "$dir"' EXIT

# p99 and max (us) from a cyclictest --histfile, overflows counted as max.
stats() {
	awk '/^[0-9]/ { n[$1 + 0] = $2; tot += $2 }
	     /^# Max Latencies:/ { max = $4 + 0 }
	     END { want = tot * 0.99; c = 0
		   for (i = 0; i <= 100000; i++) { c += n[i]; if (c >= want) break }
		   printf "%d %d\n", i, max }' "$1"
}

run() {
	local mode=$1 rep=$2 ct
	ct=(cyclictest -t1 -a "$cpu" -p95 -i 1000 -l "$loops" -q -h 2000
	    --histfile="$dir/$mode.$rep.hist")
	case $mode in
	off) "${ct[@]}" >/dev/null ;;
	spikes) "$rtgate" trace record -m spikes -o "$dir/s.dat" -- \
		"${ct[@]}" >/dev/null 2>&1 ;;
	on) "$rtgate" trace record -m on -o "$dir/o.dat" -- \
		"${ct[@]}" >/dev/null 2>&1 ;;
	esac
	echo "$mode $rep $(stats "$dir/$mode.$rep.hist")"
}

echo "# cyclictest -t1 -a $cpu -p95 -i 1000 -l $loops, $reps reps, $(uname -r)"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# mode rep p99_us max_us"
for rep in $(seq "$reps"); do
	for mode in off spikes on; do
		run "$mode" "$rep"
	done
done | tee "$dir/all"
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '{ p[$1] = p[$1] " " $3; m[$1] = m[$1] " " $4 }
     function med(s,   a, n, i, j, t) { n = split(s, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
     END { po = med(p["off"]); mo = med(m["off"])
	   for (k in p) printf "%-7s median p99 %6.1f us (x%.2f)  median max %7.1f us (x%.2f)\n",
		k, med(p[k]), med(p[k]) / (po ? po : 1), med(m[k]), med(m[k]) / (mo ? mo : 1) }' \
	"$dir/all" | sort
