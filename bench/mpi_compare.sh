#!/usr/bin/env bash
# tickbench's --transport=mpi against the least an MPI round trip costs (//bench:mpi_bare_loop:
# MPI_Send and MPI_Recv, or MPI_Irecv and MPI_Test, and nothing else) and against NetPIPE's
# NPmpi, on this host, alternating the tools run by run, size by size and case by case, so
# that drift in the machine's load falls on all of them.
#
#   bench/mpi_compare.sh [--reps=21] [--iterations=20000] [--warmup=1000] [--sizes=1,64,1024]
#                        [--cases=split:blocking,split:busy_poll,same:blocking] [--cpus=0,1]
#                        [--harness=bazel-bin/harness/harness] [--bare=bazel-bin/bench/mpi_bare_loop]
#                        [--npmpi=auto|none|PATH] [--tickbench_flag=FLAG]... [--raw=FILE]
#
# Needs both binaries built with MPI (bazel build --config=mpi //harness //bench:mpi_bare_loop),
# mpirun (Open MPI) and taskset. Every run is one job of two ranks on this host over shared
# memory: `mpirun --allow-run-as-root --bind-to none --mca btl self,vader -np 1 taskset -c
# CPU0 PROGRAM ... : -np 1 taskset -c CPU1 PROGRAM ...`, so that each tool's rank 0 and rank 1
# are placed alike, by CPU number, whatever mpirun's own mapping would do. A case is
# PLACEMENT:MODE. Placement `split` puts rank 0 on the first of --cpus and rank 1 on the
# second; `same` puts both on the first, and adds --mca mpi_yield_when_idle 1: Open MPI's
# receives spin in its progress engine, and two spinning ranks on one CPU hand over only
# when the scheduler preempts one (milliseconds a round trip), so on one CPU every tool's
# progress calls give the CPU away when they find nothing, as Open MPI does by itself when
# it knows it runs more ranks than CPUs. Mode `blocking` (tickbench's default receive,
# the bare loop's MPI_Recv) or `busy_poll` (tickbench --busy_poll, mpi_bare_loop
# --busy_poll: both ranks spin on MPI_Test).
#
# Each tickbench run: --experiment=sweep --runs=1 --batch=1 --clock=clock_gettime
# (CLOCK_MONOTONIC, the clock the bare loop reads too) --reference_clock=none, and each
# --tickbench_flag given (one flag each, e.g. --tickbench_flag=--receive_timeout=none).
# Four figures of each run are compared with the bare loop's, as bench/bare_compare.sh
# does: the mean round trip (CSV averaged_rtt_ns: the whole loop's time over its round
# trips) and the round trips' p50, p90 and p99 (per_iteration_p50_ns, _p90_ns, _p99_ns).
# NPmpi (Debian's netpipe-openmpi installs it as NPopenmpi; --npmpi=auto takes NPmpi or
# NPopenmpi from PATH, none leaves it out) runs in the blocking cases only (it receives
# with MPI_Recv; it has no busy-poll mode), `-l SIZE -u SIZE -p 0 -n ITERATIONS`. It
# prints a one-way time, half the mean round trip, and no quantile: its round trip here is
# twice its one-way time, computed from its Mbps column (bits / (Mbps x 2^20) seconds: six
# decimals, where its time column has 10 ns steps), and it has no p50, p90 or p99. Its
# mean is the lowest of its three trials' means, ITERATIONS round trips each, each trial
# timed by one pair of clock reads. So tickbench is compared with it as it measures: a
# second tickbench job in those cases, --runs=3 --batch=ITERATIONS (the averaged figure
# alone, the clock read around each run), the lowest of the three means; neither tool is
# then favoured by the choice of its best trial, nor charged a clock read per round trip
# (25 ns, 2.5% of a round trip over shared memory) that the other does not make.
#
# Prints the machine, the MPI library, then two tables (bench/compare_lib.sh): tickbench
# against the bare loop, for each case, size and figure (mean, p50, p90, p99), and tickbench
# against NPmpi, the mean only: the median over the repetitions of each tool's figure (µs),
# and the ratio tickbench / other, the median of the repetitions' paired ratios with a
# bootstrap 95% interval; after each, how many mean and p99 rows meet the overhead
# criterion of docs/overhead.md (ratio at most 1.02, interval's upper end at most 1.05),
# naming those that do not. Odd repetitions run tickbench first, even ones last. A run that
# fails is reported and left out of the pairs. Exits 2 for a bad option, naming it.
set -euo pipefail

reps=21
iterations=20000
warmup=1000
sizes=1,64,1024
cases=split:blocking,split:busy_poll,same:blocking
cpus=0,1
harness=bazel-bin/harness/harness
bare=bazel-bin/bench/mpi_bare_loop
npmpi=auto
raw=""
tickbench_flags=()
for arg in "$@"; do
  case "$arg" in
    --reps=*) reps=${arg#*=} ;;
    --iterations=*) iterations=${arg#*=} ;;
    --warmup=*) warmup=${arg#*=} ;;
    --sizes=*) sizes=${arg#*=} ;;
    --cases=*) cases=${arg#*=} ;;
    --cpus=*) cpus=${arg#*=} ;;
    --harness=*) harness=${arg#*=} ;;
    --bare=*) bare=${arg#*=} ;;
    --npmpi=*) npmpi=${arg#*=} ;;
    --tickbench_flag=*) tickbench_flags+=("${arg#*=}") ;;
    --raw=*) raw=${arg#*=} ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "mpi_compare.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
  esac
done
usage() { echo "mpi_compare.sh: $*" >&2; exit 2; }
[[ "$reps" =~ ^[1-9][0-9]{0,2}$ ]] || usage "--reps must be a number from 1 to 999"
[[ "$iterations" =~ ^[1-9][0-9]{0,7}$ ]] || usage "--iterations must be a number from 1 to 99999999"
[[ "$warmup" =~ ^[0-9]{1,8}$ ]] || usage "--warmup must be a number from 0 to 99999999"
[[ "$sizes" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || usage "--sizes takes sizes in bytes, comma-separated (1,64,1024)"
[[ "$cpus" =~ ^[0-9]+,[0-9]+$ ]] || usage "--cpus takes CPU0,CPU1 (rank 0's and rank 1's CPU)"
[[ "$cases" =~ ^(same|split):(blocking|busy_poll)(,(same|split):(blocking|busy_poll))*$ ]] ||
  usage "--cases takes PLACEMENT:MODE,... (same|split : blocking|busy_poll), not '$cases'"
for f in "${tickbench_flags[@]}"; do
  [[ "$f" =~ ^--[a-z_]+(=.*)?$ ]] || usage "--tickbench_flag takes one flag (--name or --name=value), not '$f'"
done
for binary in "$harness" "$bare"; do
  [ -x "$binary" ] || usage "no binary at $binary (bazel build --config=mpi //harness //bench:mpi_bare_loop, or --harness=/--bare=)"
done
case "$npmpi" in
  none) npmpi="" ;;
  auto) npmpi=$(command -v NPmpi || command -v NPopenmpi || true) ;;
  *) [ -x "$npmpi" ] || usage "--npmpi: no program at $npmpi (auto, none or a path)" ;;
esac
for tool in mpirun taskset timeout; do
  command -v "$tool" >/dev/null || usage "$tool is missing"
done
IFS=, read -r -a size_list <<<"$sizes"
IFS=, read -r -a case_list <<<"$cases"
cpu0=${cpus%,*}
cpu1=${cpus#*,}

# shellcheck source=bench/compare_lib.sh
source "$(dirname "$0")/compare_lib.sh"

make_work_dir

# mpirun_two PLACEMENT PROGRAM ARGS...: the program as ranks 0 and 1, placed; output to
# $work/out, errors to $work/err; fails as the job does.
mpirun_two() {
  local placement=$1
  shift
  local second=$cpu1 yield=()
  if [ "$placement" = same ]; then second=$cpu0; yield=(--mca mpi_yield_when_idle 1); fi
  timeout "$run_limit" mpirun --allow-run-as-root --bind-to none --mca btl self,vader "${yield[@]}" \
    -np 1 taskset -c "$cpu0" "$@" : -np 1 taskset -c "$second" "$@" >"$work/out" 2>"$work/err"
}

failed() {
  echo "mpi_compare.sh: $1 $2 $3 failed:" >&2
  tail -3 "$work/err" >&2
}

# run_TOOL SIZE PLACEMENT MODE: prints "mean p50 p90 p99" (µs, "-" where the tool has no
# such figure), nothing when it failed or does not run in that mode.
run_tickbench() {
  local mode_flag=()
  [ "$3" = busy_poll ] && mode_flag=(--busy_poll)
  if mpirun_two "$2" "$harness" --transport=mpi --experiment=sweep --sizes="$1" --runs=1 \
      --iterations="$iterations" --warmup="$warmup" --format=csv --csv_context=false \
      --clock=clock_gettime --reference_clock=none --batch=1 "${mode_flag[@]}" \
      "${tickbench_flags[@]}"; then
    awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
             $1 == "mpi" { printf "%.3f %.3f %.3f %.3f\n", $col["averaged_rtt_ns"] / 1e3,
                           $col["per_iteration_p50_ns"] / 1e3, $col["per_iteration_p90_ns"] / 1e3,
                           $col["per_iteration_p99_ns"] / 1e3 }' "$work/out"
  else
    failed tickbench "$1" "$2:$3"
  fi
}

# tickbench as NPmpi measures (blocking cases, with NPmpi only): three runs of the averaged
# figure alone (--batch=ITERATIONS: the clock read at the start and end of a run, as NPmpi
# reads it around a trial), the lowest of their means (NPmpi keeps its best trial).
run_tickbench_averaged() {
  [ -n "$npmpi" ] && [ "$3" = blocking ] || return 0
  if mpirun_two "$2" "$harness" --transport=mpi --experiment=sweep --sizes="$1" --runs=3 \
      --iterations="$iterations" --warmup="$warmup" --format=csv --csv_context=false \
      --clock=clock_gettime --reference_clock=none --batch="$iterations" \
      "${tickbench_flags[@]}"; then
    awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
             $1 == "mpi" { mean = $col["averaged_rtt_ns"] / 1e3; if (best == "" || mean < best) best = mean }
             END { if (best != "") printf "%.3f - - -\n", best }' "$work/out"
  else
    failed "tickbench (averaged only)" "$1" "$2:$3"
  fi
}

run_bare() {
  local mode_flag=()
  [ "$3" = busy_poll ] && mode_flag=(--busy_poll)
  if mpirun_two "$2" "$bare" --size="$1" --iterations="$iterations" --warmup="$warmup" \
      "${mode_flag[@]}"; then
    awk '$1 == "mpi" && NF == 8 { print $6, $5, $7, $8 }' "$work/out"
  else
    failed mpi_bare_loop "$1" "$2:$3"
  fi
}

run_npmpi() {
  [ -n "$npmpi" ] && [ "$3" = blocking ] || return 0
  rm -f "$work/np.out"
  if mpirun_two "$2" "$npmpi" -l "$1" -u "$1" -p 0 -n "$iterations" -o "$work/np.out" &&
      [ -s "$work/np.out" ]; then
    # bytes, Mbps (bits / 2^20 per second), one-way seconds: the round trip is twice it.
    awk -v size="$1" '$1 == size && $2 > 0 {
      printf "%.3f - - -\n", 2 * 8 * $1 / ($2 * 1048576) * 1e6 }' "$work/np.out"
  else
    failed NPmpi "$1" "$2:$3"
  fi
}

machine_line
echo "# MPI: $(mpirun --version 2>/dev/null | head -1); NPmpi: ${npmpi:-none}"
echo "# $reps repetitions; $iterations round trips a run after $warmup untimed; cpus $cpus" \
     "(rank 0, rank 1); cases $cases"
if ((${#tickbench_flags[@]} > 0)); then echo "# tickbench flags: ${tickbench_flags[*]}"; fi
echo "# load average at start: $(load)"

results="$work/results"  # tool case transport size rep mean p50 p90 p99 (µs)
: >"$results"
for ((rep = 1; rep <= reps; ++rep)); do
  for c in "${case_list[@]}"; do
    for size in "${size_list[@]}"; do
      order=(tickbench bare tickbench_averaged npmpi)
      if ((rep % 2 == 0)); then order=(npmpi tickbench_averaged bare tickbench); fi
      for tool in "${order[@]}"; do
        value=$("run_$tool" "$size" "${c%:*}" "${c#*:}" || true)
        if [ -n "$value" ]; then echo "$tool $c mpi $size $rep $value" >>"$results"; fi
      done
    done
  done
  echo "# repetition $rep of $reps done; load average $(load)" >&2
done
echo "# load average at end: $(load)"
if [ -n "$raw" ]; then cp "$results" "$raw"; fi

echo
echo "## tickbench against the bare MPI loop (//bench:mpi_bare_loop)"
paired_table "$results" bare bare "mean p50 p90 p99"
if [ -n "$npmpi" ]; then
  echo
  echo "## tickbench against NPmpi, blocking cases (mean only: NPmpi prints no p50, p90 or p99;"
  echo "## its round trip is twice its one-way time, the lowest of its three trials' means; and"
  echo "## tickbench's as NPmpi measures: the lowest of three runs' means, the clock read around"
  echo "## each run, not at each round trip)"
  awk '$1 == "npmpi" || $1 == "tickbench_averaged" { if ($1 != "npmpi") $1 = "tickbench"; print }' \
    "$results" >"$work/blocking"
  paired_table "$work/blocking" npmpi NPmpi "mean"
fi
