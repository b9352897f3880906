#!/usr/bin/env bash
# What tickbench adds to what it measures, in two checks (docs/overhead.md has results):
#
#  1. Reading rdtsc at every round trip (--batch=1) against once per run (--batch=N, the
#     averaged case alone): the averaged 1-byte RTT of both, run in interleaved pairs
#     (the order flips every pair), on each transport given; prints the medians and the
#     median and spread of the paired ratios.
#  2. A whole --experiment=udp_rtt run, timed from outside, against the sum over its
#     records of averaged_rtt_ns x (completed + warm-up) round trips: what start-up,
#     clock probing, the peer, the control frames and the analysis cost on top.
#
#   bench/loop_overhead.sh [--pairs=11] [--iterations=20000] [--pin=0,1 | --pin=]
#                          [--transports=udp,unix_stream] [--sweeps=3] [--busy_poll]
#                          [--harness=bazel-bin/harness/harness]
#
# --pin= (empty) leaves placement to the scheduler. --busy_poll times check 1's round
# trips with busy-poll receives, whose spread is far smaller than a blocking wake-up's;
# --sweeps=0 skips check 2. Every run is bounded by timeout;
# temporary files go on EXIT, INT and TERM.
set -euo pipefail

pairs=11
iterations=20000
pin=0,1
transports=udp,unix_stream
sweeps=3
harness=bazel-bin/harness/harness
busy_flag=()
for arg in "$@"; do
  case "$arg" in
    --pairs=*) pairs=${arg#*=} ;;
    --iterations=*) iterations=${arg#*=} ;;
    --pin=*) pin=${arg#*=} ;;
    --transports=*) transports=${arg#*=} ;;
    --sweeps=*) sweeps=${arg#*=} ;;
    --harness=*) harness=${arg#*=} ;;
    --busy_poll) busy_flag=(--busy_poll) ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "loop_overhead.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
  esac
done
pin_flag=()
if [ -n "$pin" ]; then pin_flag=(--pin="$pin"); fi
[ -x "$harness" ] || { echo "loop_overhead.sh: no harness at $harness (bazel build //harness)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
load() { cut -d' ' -f1-3 /proc/loadavg; }

# Prints one column of a tickbench CSV on stdin, one line per record.
column() {
  awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == name) c = i; next } { print $c }'
}

# Prints "median min max" of the numbers on stdin.
median_range() {
  sort -g | awk '{ v[NR] = $1 } END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.6g %.6g %.6g\n", m, v[1], v[NR] }'
}

# The averaged 1-byte RTT in ns of one run with the given batch.
averaged_rtt() {
  local transport=$1 batch=$2
  timeout 300 "$harness" --experiment=sweep --transport="$transport" --sizes=1 --runs=1 \
      --iterations="$iterations" --batch="$batch" --clock=rdtsc --reference_clock=none \
      "${pin_flag[@]}" "${busy_flag[@]}" --format=csv --csv_context=false 2>/dev/null |
      column averaged_rtt_ns
}

echo "# machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1); $(nproc) CPUs; Linux $(uname -r);" \
     "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "# load average at start: $(load)"
echo
echo "1. rdtsc at every round trip (--batch=1) vs once per run (--batch=$iterations), 1 byte,"
echo "   $pairs interleaved pairs of $iterations round trips, pinned ${pin:-nowhere}${busy_flag[*]:+, busy-poll receives}; averaged RTT in us"
IFS=, read -r -a transport_list <<<"$transports"
for transport in "${transport_list[@]}"; do
  : >"$work/every" && : >"$work/once" && : >"$work/ratio"
  for ((pair = 1; pair <= pairs; ++pair)); do
    if ((pair % 2)); then
      every=$(averaged_rtt "$transport" 1)
      once=$(averaged_rtt "$transport" "$iterations")
    else
      once=$(averaged_rtt "$transport" "$iterations")
      every=$(averaged_rtt "$transport" 1)
    fi
    echo "$every" >>"$work/every"
    echo "$once" >>"$work/once"
    awk -v a="$every" -v b="$once" 'BEGIN { print a / b }' >>"$work/ratio"
  done
  read -r every_median every_min every_max < <(median_range <"$work/every")
  read -r once_median once_min once_max < <(median_range <"$work/once")
  read -r ratio_median ratio_min ratio_max < <(median_range <"$work/ratio")
  awk -v t="$transport" -v em="$every_median" -v e0="$every_min" -v e1="$every_max" \
      -v om="$once_median" -v o0="$once_min" -v o1="$once_max" \
      -v rm="$ratio_median" -v r0="$ratio_min" -v r1="$ratio_max" 'BEGIN {
    printf "   %-12s every trip %.2f [%.2f, %.2f]   once %.2f [%.2f, %.2f]   ratio median %.4f [%.4f, %.4f]\n",
           t, em / 1e3, e0 / 1e3, e1 / 1e3, om / 1e3, o0 / 1e3, o1 / 1e3, rm, r0, r1 }'
done
echo "   (median [min, max] over the pairs; ratio = every trip / once, pair by pair; load $(load))"
echo
echo "2. --experiment=udp_rtt, whole run (wall) vs the sum of its round trips"
echo "   (averaged_rtt_ns x (completed + 100 warm-up) per record)"
for ((sweep = 1; sweep <= sweeps; ++sweep)); do
  start_ns=$(date +%s%N)
  if ! timeout 600 "$harness" --experiment=udp_rtt --warmup=100 --format=csv --csv_context=false \
    >"$work/udp_rtt.csv" \
      2>"$work/udp_rtt.err"; then
    echo "   run $sweep failed; its records so far count:" >&2
    tail -2 "$work/udp_rtt.err" >&2
  fi
  wall_s=$(awk -v a="$start_ns" -v b="$(date +%s%N)" 'BEGIN { print (b - a) / 1e9 }')
  awk -F, -v wall="$wall_s" -v load="$(load)" '
    NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
    { trips += $c["averaged_rtt_ns"] * ($c["completed"] + 100) / 1e9; ++records }
    END { printf "   run %d: %d records, round trips %.2f s, wall %.2f s, ratio %.3f (load %s)\n",
                 run, records, trips, wall, wall / trips, load }' run="$sweep" "$work/udp_rtt.csv"
done
