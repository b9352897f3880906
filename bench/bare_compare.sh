#!/usr/bin/env bash
# tickbench's round trip against the bare loop (//bench:bare_loop: send and receive and
# nothing else) on every transport, alternating the two run by run, size by size,
# placement by placement and mode by mode, so that drift in the machine's load falls on
# both alike.
#
#   bench/bare_compare.sh [--reps=21] [--iterations=5000] [--warmup=1000] [--sizes=1,1024]
#                         [--transports=unix_stream,unix_dgram,udp,tcp,pipe]
#                         [--cpus=0,1] [--cases=same:blocking,split:blocking,split:busy_poll]
#                         [--harness=bazel-bin/harness/harness] [--bare=bazel-bin/bench/bare_loop]
#                         [--raw=FILE] [--against=HARNESS] [--tickbench_warmup=default]
#
# Needs both binaries built (bazel build //harness //bench:bare_loop); each pins itself
# and its peer (--pin). A case is PLACEMENT:MODE: placement `same` pins client and
# peer to the first of --cpus, `split` the client to the first and the peer to the
# second; mode `blocking` or `busy_poll` (tickbench --busy_poll, bare_loop --busy_poll:
# both sides spin). same:busy_poll is left out by default: two spinning processes on one
# CPU hand over only when the scheduler preempts one, and a round trip then takes a
# scheduler slice (about 8 ms on a 2-vCPU VM), which measures the scheduler, not the
# transport; asked for, it runs a hundredth of --iterations and --warmup (at least 10).
#
# tickbench warms up as its users' runs do, by its own rule (until the round trip is steady:
# no --warmup flag), while the bare loop makes --warmup round trips first:
# --tickbench_warmup=N gives tickbench a count instead (N = --warmup compares like with like).
#
# Each run: tickbench --experiment=sweep --runs=1 --batch=1 --clock=clock_gettime (CLOCK_MONOTONIC,
# the clock bare_loop reads too) --reference_clock=none. Four figures of each run are
# compared: the mean round trip (the whole loop's time over its round trips: tickbench's
# averaged figure, CSV averaged_rtt_ns, what its users read first), and the round trips'
# p50, p90 and p99 (CSV per_iteration_p50_ns, _p90_ns, _p99_ns; tickbench's quantiles come
# from its histogram, within 0.4% of the exact ones bare_loop prints). A harness that adds
# a tail shows in the mean and the p90/p99 while the median stays equal: the criterion is
# the mean and the p99, not the median alone. Odd repetitions run tickbench first, even
# ones the bare loop first.
#
# --against=HARNESS puts a second tickbench build where the bare loop was, run with the
# same flags, so that a change to the harness is measured against the build before it
# (the ratio is then this build / that one).
#
# The defaults are what resolves 2% on a 2-vCPU VM, whose host moves a run's round trips
# as a whole: 7 repetitions are too few there, 21 of 5000 round trips resolve a few
# percent (docs/overhead.md); about 5 minutes for the three default cases.
#
# Prints, for each case, transport, size and figure (mean, p50, p90, p99): the median
# over the repetitions of each tool's figure (µs), and the ratio tickbench / bare: the
# median of the repetitions' paired ratios (each tickbench run over the bare run beside
# it) with a bootstrap 95% interval (2000 resamples of the repetitions, percentile
# method). Then how many rows of the mean and of the p99 meet the overhead criterion of
# docs/overhead.md (ratio at most 1.02, interval's upper end at most 1.05), naming those
# that do not.
set -euo pipefail

reps=21
iterations=5000
warmup=1000
sizes=1,1024
transports=unix_stream,unix_dgram,udp,tcp,pipe
cpus=0,1
cases=same:blocking,split:blocking,split:busy_poll
harness=bazel-bin/harness/harness
bare=bazel-bin/bench/bare_loop
raw=""
against=""
tickbench_warmup=default
for arg in "$@"; do
  case "$arg" in
    --reps=*) reps=${arg#*=} ;;
    --iterations=*) iterations=${arg#*=} ;;
    --warmup=*) warmup=${arg#*=} ;;
    --sizes=*) sizes=${arg#*=} ;;
    --transports=*) transports=${arg#*=} ;;
    --cpus=*) cpus=${arg#*=} ;;
    --cases=*) cases=${arg#*=} ;;
    --harness=*) harness=${arg#*=} ;;
    --bare=*) bare=${arg#*=} ;;
    --raw=*) raw=${arg#*=} ;;
    --against=*) against=${arg#*=} ;;
    --tickbench_warmup=*) tickbench_warmup=${arg#*=} ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "bare_compare.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "bare_compare.sh: --reps must be a positive number" >&2; exit 2; }
[[ "$tickbench_warmup" =~ ^(default|[0-9]+)$ ]] || { echo "bare_compare.sh: --tickbench_warmup takes default or a count" >&2; exit 2; }
[[ "$cpus" =~ ^[0-9]+,[0-9]+$ ]] || { echo "bare_compare.sh: --cpus takes CLIENT,PEER" >&2; exit 2; }
for binary in "$harness" "${against:-$bare}"; do
  [ -x "$binary" ] || { echo "bare_compare.sh: no binary at $binary (bazel build //harness //bench:bare_loop, or --harness=/--bare=/--against=)" >&2; exit 2; }
done
command -v timeout >/dev/null || { echo "bare_compare.sh: timeout is missing" >&2; exit 2; }
client_cpu=${cpus%,*}
peer_cpu=${cpus#*,}
IFS=, read -r -a size_list <<<"$sizes"
IFS=, read -r -a transport_list <<<"$transports"
IFS=, read -r -a case_list <<<"$cases"
for c in "${case_list[@]}"; do
  case "$c" in
    same:blocking|same:busy_poll|split:blocking|split:busy_poll) ;;
    *) echo "bare_compare.sh: unknown case '$c' (PLACEMENT:MODE, same|split : blocking|busy_poll)" >&2; exit 2 ;;
  esac
done

# shellcheck source=bench/compare_lib.sh
source "$(dirname "$0")/compare_lib.sh"

make_work_dir

# The round trips of a run, and its warm-up, for a case: a hundredth on same:busy_poll.
count_of() {
  if [ "$2:$3" = same:busy_poll ]; then echo $((($1 + 99) / 100 < 10 ? 10 : ($1 + 99) / 100)); else echo "$1"; fi
}
pin_of() { [ "$1" = same ] && echo "$client_cpu,$client_cpu" || echo "$client_cpu,$peer_cpu"; }
flag_of() { [ "$1" = busy_poll ] && echo --busy_poll || true; }
# tickbench's warm-up flag for a case: none (its own rule) or --tickbench_warmup's count.
warmup_of() {
  [ "$tickbench_warmup" = default ] || echo "--warmup=$(count_of "$tickbench_warmup" "$1" "$2")"
}

# Prints "mean p50 p90 p99" (µs) of a run of the tickbench build $5 (default --harness),
# or nothing on failure.
run_tickbench() {
  local transport=$1 size=$2 placement=$3 mode=$4 binary=${5:-$harness} csv="$work/tickbench.csv"
  # shellcheck disable=SC2046  # flag_of prints one flag or nothing
  if timeout "$run_limit" "$binary" --experiment=sweep --transport="$transport" \
      --sizes="$size" --runs=1 --iterations="$(count_of "$iterations" "$placement" "$mode")" \
      $(warmup_of "$placement" "$mode") --format=csv \
      --csv_context=false \
      --clock=clock_gettime --reference_clock=none --batch=1 --pin="$(pin_of "$placement")" \
      $(flag_of "$mode") >"$csv" 2>"$work/tickbench.err"; then
    awk -F, -v transport="$transport" 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
             $1 == transport { printf "%.3f %.3f %.3f %.3f\n", $col["averaged_rtt_ns"] / 1e3,
                               $col["per_iteration_p50_ns"] / 1e3, $col["per_iteration_p90_ns"] / 1e3,
                               $col["per_iteration_p99_ns"] / 1e3 }' "$csv"
  else
    echo "bare_compare.sh: $binary $transport $size $placement $mode failed:" >&2
    tail -3 "$work/tickbench.err" >&2
  fi
}

# Prints the bare loop's "mean p50 p90 p99" (µs) (with --against, that build's), or
# nothing on failure.
run_bare() {
  local transport=$1 size=$2 placement=$3 mode=$4
  if [ -n "$against" ]; then
    run_tickbench "$transport" "$size" "$placement" "$mode" "$against"
    return
  fi
  # shellcheck disable=SC2046
  if timeout "$run_limit" "$bare" --transport="$transport" --size="$size" \
      --iterations="$(count_of "$iterations" "$placement" "$mode")" \
      --warmup="$(count_of "$warmup" "$placement" "$mode")" --pin="$(pin_of "$placement")" \
      $(flag_of "$mode") >"$work/bare.out" 2>"$work/bare.err"; then
    awk 'NF == 8 { print $6, $5, $7, $8 }' "$work/bare.out"
  else
    echo "bare_compare.sh: bare_loop $transport $size $placement $mode failed:" >&2
    tail -3 "$work/bare.err" >&2
  fi
}

machine_line
echo "# $reps repetitions; $iterations round trips a run after $warmup untimed; cpus $cpus;" \
     "cases $cases"
if [ -n "$against" ]; then echo "# against: $against in the bare loop's column"; fi
echo "# load average at start: $(load)"

results="$work/results"  # tool case transport size rep mean p50 p90 p99 (µs)
: >"$results"
for ((rep = 1; rep <= reps; ++rep)); do
  for c in "${case_list[@]}"; do
    placement=${c%:*}
    mode=${c#*:}
    for transport in "${transport_list[@]}"; do
      for size in "${size_list[@]}"; do
        order=(tickbench bare)
        if ((rep % 2 == 0)); then order=(bare tickbench); fi
        for tool in "${order[@]}"; do
          value=$("run_$tool" "$transport" "$size" "$placement" "$mode" || true)
          if [ -n "$value" ]; then echo "$tool $c $transport $size $rep $value" >>"$results"; fi
        done
      done
    done
  done
  echo "# repetition $rep of $reps done; load average $(load)" >&2
done
echo "# load average at end: $(load)"
if [ -n "$raw" ]; then cp "$results" "$raw"; fi

paired_table "$results" bare bare "mean p50 p90 p99"
