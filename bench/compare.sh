#!/usr/bin/env bash
# tickbench's round trip against the established tools, over loopback, in one run:
# sockperf ping-pong (UDP and TCP) and qperf (udp_lat, tcp_lat), at the same sizes, with
# the same CPU pinning, alternating tickbench and the peer tools size by size and
# repetition by repetition, so that drift in the machine's load falls on all of them.
#
#   bench/compare.sh [--reps=7] [--seconds=2] [--iterations=20000] [--pin=0,1]
#                    [--placement=split|same] [--sizes=1,64,1024,16384] [--transports=udp,tcp]
#                    [--harness=bazel-bin/harness/harness] [--bare=bazel-bin/bench/bare_loop]
#                    [--tickbench_flags='--warmup=1000'] [--raw=FILE] [--busy_poll] [--all]
#
# --placement=split (the default) puts the clients on the first CPU of --pin and the
# servers and echo peer on the second; same puts them all on the first.
# --transports picks udp, tcp or both (the default), to retake one transport's rows.
# --all runs the whole comparison: this script once per placement (same, split) and mode
# (blocking, busy polling), then bench/bare_compare.sh, tickbench against the bare loop
# (//bench:bare_loop, --bare=) on every transport, over the same four cases, reps and
# CPUs. Busy polling on one CPU hands over only when the scheduler preempts a spinner
# (milliseconds a round trip), so that case runs --iterations / 100 round trips.
#
# Needs sockperf and qperf (tools/setup.sh --compare) and a built harness
# (bazel build //harness); a peer tool that is missing is left out, saying so, and a run
# with neither (busy polling: without sockperf) exits 2. --all needs neither: it skips
# the runs that have no peer tool, saying why, and still runs the bare-loop comparison
# (bazel build //harness //bench:bare_loop), which exits as that comparison does, or 1
# if a peer-tool run failed. Prints, for each transport, size and figure (mean, p50, p90,
# p99), the median over the repetitions of each tool's RTT in µs and the ratio
# tickbench / peer: the median of the paired ratios (repetition r of tickbench over
# repetition r of the peer, run side by side) with its bootstrap 95% interval
# (bench/paired_ratios.awk). The mean is what users read first and where a harness's tail
# shows, so the table ends with how many rows' mean ratio to sockperf is at most 1.00,
# naming the others.
#  * tickbench: the averaged RTT (CSV averaged_rtt_ns: the whole loop over its round
#    trips) as the mean, and the round trips' p50, p90, p99 (per_iteration_p50_ns, ...);
#  * sockperf: the mean RTT of its run (avg-rtt) and its percentiles 50, 90 and 99;
#    sockperf reports one-way latency,
#    RTT / 2, unless given --full-rtt, which this script passes: its figures are whole
#    round trips.
#    sockperf's messages carry a 14-byte header: it refuses smaller ones, so every tool
#    runs a size below 14 at 14 bytes (said in the header; bare_compare.sh, under --all,
#    keeps the sizes asked for);
#  * qperf: its "latency" is one-way too, the mean RTT / 2: this script doubles it; it
#    has a mean only.
# --busy_poll compares the spinning receives: tickbench --busy_poll (client and echo peer)
# against sockperf with non-blocking sockets, which its recvfrom() loop then spins on
# (--nonblocked, on both sides); qperf has no such mode and is left out.
# The peer tools' servers are started here and stopped by process group id; every run is
# bounded by timeout; EXIT, INT and TERM clean up. The servers stay in this script's
# session, as tickbench's echo peer (forked by the harness) stays in the harness's: with
# the kernel's autogroup scheduling (one group per session), a server in a session of its
# own (setsid) gets a full share of its CPU instead of half of its session's, and on a
# loaded machine its mean RTT drops markedly (docs/overhead.md has the figure).
set -euo pipefail

reps=7
seconds=2
iterations=20000
pin=0,1
sizes=1,64,1024,16384
transports=udp,tcp
harness=bazel-bin/harness/harness
tickbench_flags=""
raw=""
busy_poll=0
placement=split
bare=bazel-bin/bench/bare_loop
all=0
for arg in "$@"; do
  case "$arg" in
    --reps=*) reps=${arg#*=} ;;
    --seconds=*) seconds=${arg#*=} ;;
    --iterations=*) iterations=${arg#*=} ;;
    --pin=*) pin=${arg#*=} ;;
    --sizes=*) sizes=${arg#*=} ;;
    --transports=*) transports=${arg#*=} ;;
    --harness=*) harness=${arg#*=} ;;
    --tickbench_flags=*) tickbench_flags=${arg#*=} ;;
    --raw=*) raw=${arg#*=} ;;
    --busy_poll) busy_poll=1 ;;
    --placement=*) placement=${arg#*=} ;;
    --bare=*) bare=${arg#*=} ;;
    --all) all=1 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "compare.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
  esac
done
case "$placement" in
  same|split) ;;
  *) echo "compare.sh: --placement must be same or split, not '$(printf %q "$placement")'" >&2; exit 2 ;;
esac
case "$transports" in
  udp|tcp|udp,tcp|tcp,udp) ;;
  *) echo "compare.sh: --transports takes udp, tcp or udp,tcp, not '$(printf %q "$transports")'" >&2; exit 2 ;;
esac
[[ "$pin" =~ ^[0-9]+,[0-9]+$ ]] || { echo "compare.sh: --pin takes CLIENT,PEER (CPU numbers)" >&2; exit 2; }
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: --iterations must be a positive number" >&2; exit 2; }
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: --reps must be a positive number" >&2; exit 2; }

# The peer tools a run can use: sockperf and qperf blocking, sockperf alone busy polling.
available_peer_tools() {
  local tool mode=$1
  for tool in sockperf qperf; do
    [ "$mode" = busy_poll ] && [ "$tool" = qperf ] && continue
    command -v "$tool" >/dev/null && echo "$tool"
  done
  true
}

if [ "$all" = 1 ]; then
  # Every placement and mode, then the bare loops over the same cases.
  here=$(dirname "$0")
  common=(--reps="$reps" --seconds="$seconds" --pin="$pin" --sizes="$sizes" --harness="$harness"
          --transports="$transports")
  [ -n "$tickbench_flags" ] && common+=(--tickbench_flags="$tickbench_flags")
  failed=0
  for p in same split; do
    for mode in blocking busy_poll; do
      echo "## placement $p, $mode receives"
      if [ -z "$(available_peer_tools "$mode")" ]; then
        echo "# skipped: no peer tool installed for $mode receives (sockperf$([ "$mode" = blocking ] &&
          echo " or qperf"): tools/setup.sh --compare)"
        continue
      fi
      n=$iterations
      [ "$p:$mode" = same:busy_poll ] && n=$(((iterations + 99) / 100))
      flags=("${common[@]}" --placement="$p" --iterations="$n")
      [ "$mode" = busy_poll ] && flags+=(--busy_poll)
      [ -n "$raw" ] && flags+=(--raw="$raw.$p.$mode")
      "$0" "${flags[@]}" || { failed=1; echo "# compare.sh: this run failed (exit $?)" >&2; }
    done
  done
  echo "## tickbench against the bare loop"
  bare_flags=(--reps="$reps" --sizes="$sizes" --cpus="$pin" --harness="$harness" --bare="$bare"
              --cases=same:blocking,split:blocking,same:busy_poll,split:busy_poll)
  [ -n "$raw" ] && bare_flags+=(--raw="$raw.bare")
  status=0
  "$here/bare_compare.sh" "${bare_flags[@]}" || status=$?
  [ "$status" -eq 0 ] && [ "$failed" -eq 1 ] && status=1
  exit "$status"
fi

sockperf_mode=()
mode=blocking
if [ "$busy_poll" = 1 ]; then
  tickbench_flags+=" --busy_poll"
  sockperf_mode=(--nonblocked)
  mode=busy_poll
fi
mapfile -t peer_tools < <(available_peer_tools "$mode")
if [ "${#peer_tools[@]}" -eq 0 ]; then
  echo "compare.sh: no peer tool to compare with: sockperf$([ "$mode" = blocking ] && echo " and qperf")" \
    "missing (tools/setup.sh --compare)" >&2
  exit 2
fi
missing_tools=""
for tool in sockperf qperf; do
  [ "$mode" = busy_poll ] && [ "$tool" = qperf ] && continue
  command -v "$tool" >/dev/null || missing_tools+=" $tool"
done
client_cpu=${pin%,*}
peer_cpu=${pin#*,}
if [ "$placement" = same ]; then peer_cpu=$client_cpu; fi
for tool in taskset timeout; do
  command -v "$tool" >/dev/null || { echo "compare.sh: $tool is missing" >&2; exit 2; }
done
[ -x "$harness" ] || { echo "compare.sh: no harness at $harness (bazel build //harness, or --harness=)" >&2; exit 2; }
[[ "$sizes" =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "compare.sh: --sizes takes sizes in bytes, comma-separated" >&2; exit 2; }
# Every tool at the same size: sizes below sockperf's smallest message (14 B, its header)
# run at 14 B, once.
asked_sizes=$sizes
sizes=$(tr ',' '\n' <<<"$sizes" | awk '{ s = $1 < 14 ? 14 : $1 + 0; if (!(s in seen)) { seen[s] = 1; out = out (out == "" ? "" : ",") s } } END { print out }')

# Ports away from both tools' defaults (11111, 19765), so that a server someone else left
# running is not measured by mistake.
sockperf_port=17311
qperf_port=17312
run_limit=$((seconds + 30))   # a peer tool's run: its --time plus start-up and warm-up
tickbench_limit=300           # a tickbench run: N round trips, even at 10 ms each, plus start-up

work=$(mktemp -d)
server_pids=()
cleanup() {
  for pid in "${server_pids[@]}"; do
    kill -TERM -- "-$pid" 2>/dev/null || true  # the server's process group (start_server)
  done
  for pid in "${server_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Starts a server pinned to the peer CPU in a process group of its own (job control on
# for this one job), so that it and anything it forks are stopped together by its id; it
# stays in this session (see the top).
start_server() {
  local name=$1
  shift
  set -m
  taskset -c "$peer_cpu" "$@" >"$work/$name.log" 2>&1 &
  local pid=$!
  set +m
  server_pids+=("$pid")
  sleep 0.5
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "compare.sh: $name did not start:" >&2
    cat "$work/$name.log" >&2
    exit 1
  fi
}

# Stops the server start_server started last, and forgets it.
stop_last_server() {
  local pid=${server_pids[-1]}
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  unset 'server_pids[-1]'
}

strip_colour() { sed 's/\x1b\[[0-9;]*m//g'; }

# tickbench: prints "mean p50 p90 p99" (µs) for one size, or nothing on failure.
run_tickbench() {
  local transport=$1 size=$2 csv="$work/tickbench.csv"
  # shellcheck disable=SC2086  # tickbench_flags is a list of flags
  if timeout "$tickbench_limit" "$harness" --experiment=sweep --transport="$transport" \
      --sizes="$size" --runs=1 --iterations="$iterations" --format=csv --clock=rdtsc \
      --csv_context=false \
      --reference_clock=none --batch=1 --pin="$client_cpu,$peer_cpu" $tickbench_flags \
      >"$csv" 2>"$work/tickbench.err"; then
    awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
             { printf "%.3f %.3f %.3f %.3f\n", $col["averaged_rtt_ns"] / 1e3, $col["per_iteration_p50_ns"] / 1e3,
                      $col["per_iteration_p90_ns"] / 1e3, $col["per_iteration_p99_ns"] / 1e3 }' "$csv"
  else
    echo "compare.sh: tickbench $transport $size failed:" >&2
    tail -3 "$work/tickbench.err" >&2
  fi
}

# sockperf ping-pong: prints "mean p50 p90 p99" (µs) of the RTT (--full-rtt: whole round
# trips), or nothing when its output lacks one of them.
run_sockperf() {
  local transport=$1 size=$2 protocol=()
  if [ "$transport" = tcp ]; then protocol=(--tcp); fi
  timeout "$run_limit" taskset -c "$client_cpu" sockperf ping-pong -i 127.0.0.1 \
      -p "$sockperf_port" "${protocol[@]}" "${sockperf_mode[@]}" -m "$size" -t "$seconds" \
      --full-rtt 2>&1 |
    strip_colour | awk '/percentile 50.000 =/ { p50 = $NF }
                        /percentile 90.000 =/ { p90 = $NF }
                        /percentile 99.000 =/ { p99 = $NF }
                        match($0, /avg-rtt=[0-9.]+/) { mean = substr($0, RSTART + 8, RLENGTH - 8) }
                        END { if (p50 != "" && p90 != "" && p99 != "" && mean != "") print mean, p50, p90, p99
                              else print "compare.sh: sockperf gave no mean, p50, p90 or p99" > "/dev/stderr" }'
}

# qperf udp_lat / tcp_lat: prints the mean RTT in µs, twice its one-way "latency".
run_qperf() {
  local transport=$1 size=$2
  timeout "$run_limit" taskset -c "$client_cpu" qperf -lp "$qperf_port" 127.0.0.1 -m "$size" \
      -t "$seconds" -e 6 "${transport}_lat" 2>&1 |
    awk '/latency/ { v = $3; u = $4
                     f = u == "ns" ? 1e-3 : u == "us" ? 1 : u == "ms" ? 1e3 : u == "sec" ? 1e6 : 0
                     if (f > 0) { printf "%.3f\n", 2 * v * f; found = 1 } }
         END { if (!found) print "compare.sh: qperf gave no latency" > "/dev/stderr" }'
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "# machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1); $(nproc) CPUs; Linux $(uname -r);" \
     "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
sockperf_version() {
  command -v sockperf >/dev/null || { echo "(missing)"; return; }
  sockperf --version 2>&1 | strip_colour | grep -m1 -o "version [^ ]*" | cut -d" " -f2 || true
}
qperf_version() {
  command -v qperf >/dev/null || { echo "(missing)"; return; }
  qperf --version 2>&1 | awk '{ print $2 }'
}
echo "# sockperf $(sockperf_version);" \
     "qperf $(qperf_version); placement $placement: client $client_cpu, peers $peer_cpu;" \
     "$reps repetitions; peers ${seconds}s a run; tickbench $iterations round trips a run"
if [ "$sizes" != "$asked_sizes" ]; then
  echo "# sizes $sizes (asked: $asked_sizes): below 14 B every tool runs at 14 B, sockperf's smallest"
fi
echo "# load average at start: $(load)"

[ -z "$missing_tools" ] ||
  echo "# not run, not installed (tools/setup.sh --compare):$missing_tools; their columns show -"
echo "# receives: $([ "$busy_poll" = 1 ] && echo "busy polling (tickbench --busy_poll;" \
  "sockperf --nonblocked; qperf not run)" || echo "blocking")"

if [ "$busy_poll" = 0 ]; then
  if command -v sockperf >/dev/null; then
    start_server sockperf_udp sockperf server -i 127.0.0.1 -p "$sockperf_port"
    start_server sockperf_tcp sockperf server -i 127.0.0.1 -p "$sockperf_port" --tcp
  fi
  if command -v qperf >/dev/null; then start_server qperf qperf -lp "$qperf_port"; fi
fi

# Adds a run's "mean p50 p90 p99" to the results, one line a figure; nothing for a run
# that failed.
record() {
  local tool=$1 transport=$2 size=$3 rep=$4 mean p50 p90 p99
  read -r mean p50 p90 p99 <<<"$5"
  [ -n "${p99:-}" ] || return 0
  printf '%s_mean %s %s %s %s\n%s_p50 %s %s %s %s\n%s_p90 %s %s %s %s\n%s_p99 %s %s %s %s\n' \
    "$tool" "$transport" "$size" "$rep" "$mean" "$tool" "$transport" "$size" "$rep" "$p50" \
    "$tool" "$transport" "$size" "$rep" "$p90" "$tool" "$transport" "$size" "$rep" "$p99" >>"$results"
}

results="$work/results"   # tool_figure transport size rep value_us (qperf: the mean alone)
: >"$results"
IFS=, read -r -a size_list <<<"$sizes"
IFS=, read -r -a transport_list <<<"$transports"
for ((rep = 1; rep <= reps; ++rep)); do
  for transport in "${transport_list[@]}"; do
    for size in "${size_list[@]}"; do
      # Odd repetitions run tickbench first, even ones last.
      order=(tickbench "${peer_tools[@]}")
      if ((rep % 2 == 0)); then order=("${peer_tools[@]}" tickbench); fi
      for tool in "${order[@]}"; do
        case "$tool" in
          tickbench)
            record tickbench "$transport" "$size" "$rep" "$(run_tickbench "$transport" "$size" || true)" ;;
          sockperf)
            # A non-blocking sockperf server spins on its CPU even while no client talks
            # to it, so with --busy_poll it runs only for its own client's run: left
            # running, it would take the peer CPU from every other tool's echo.
            if [ "$busy_poll" = 1 ]; then
              start_server "sockperf_$transport" sockperf server -i 127.0.0.1 \
                -p "$sockperf_port" $([ "$transport" = tcp ] && echo --tcp) "${sockperf_mode[@]}"
            fi
            figures=$(run_sockperf "$transport" "$size" || true)
            if [ "$busy_poll" = 1 ]; then stop_last_server; fi
            record sockperf "$transport" "$size" "$rep" "$figures" ;;
          qperf)
            value=$(run_qperf "$transport" "$size" || true)
            if [ -n "$value" ]; then echo "qperf_mean $transport $size $rep $value" >>"$results"; fi ;;
        esac
      done
    done
  done
  echo "# repetition $rep of $reps done; load average $(load)" >&2
done
echo "# load average at end: $(load)"
if [ -n "$raw" ]; then cp "$results" "$raw"; fi

# Medians over the repetitions and paired ratios (bench/paired_ratios.awk), then the table.
awk -v sizes="$sizes" -v transports="$transports" -v seed=1 "$(cat "$(dirname "$0")/paired_ratios.awk")"'
  function show(v) { return v < 0 ? "-" : sprintf("%.1f", v) }
  # The median of one tool'"'"'s figures over the repetitions, -1 if it has none.
  function median_of(tool, key,   a, n, rep) {
    n = 0
    for (rep = 1; rep <= reps; ++rep) if ((tool, key, rep) in value) a[++n] = value[tool, key, rep]
    return median(a, n)
  }
  # "ratio [lo, hi]" of the repetitions where both tools have a figure: the median of the
  # paired ratios a / b and its bootstrap 95% interval; "-" without a pair.
  function paired(a, b, key,   r, n, rep, interval) {
    n = 0
    for (rep = 1; rep <= reps; ++rep)
      if ((a, key, rep) in value && (b, key, rep) in value && value[b, key, rep] > 0)
        r[++n] = value[a, key, rep] / value[b, key, rep]
    paired_ratio = -1  # the unrounded ratio, for the closing count
    if (n == 0) return "-"
    bootstrap_median_interval(r, n, interval)
    paired_ratio = median(r, n)
    return sprintf("%.2f [%.2f, %.2f]", paired_ratio, interval["lo"], interval["hi"])
  }
  { value[$1, $2 " " $3, $4] = $5; if ($4 > reps) reps = $4 }
  END {
    srand(seed)
    nfig = split("mean p50 p90 p99", fig, " ")
    format = "%-9s %7s %4s | %9s %9s %18s | %9s %18s\n"
    header = sprintf(format, "", "", "", "tickbench", "sockperf", "", "qperf", "")
    sub(/ +\n$/, "\n", header)
    printf "%s", header
    printf format, "transport", "size B", "of", "", "", "ratio [95%]", "", "ratio [95%]"
    n = split(sizes, size_list, ",")
    nt = split(transports, transport_list, ",")
    for (t = 1; t <= nt; ++t) {
      transport = transport_list[t]
      for (s = 1; s <= n; ++s) {
        key = transport " " size_list[s]
        for (f = 1; f <= nfig; ++f) {
          tb = "tickbench_" fig[f]; sp = "sockperf_" fig[f]; qp = "qperf_" fig[f]
          ratio = paired(tb, sp, key)
          sockperf_ratio = paired_ratio
          printf format, transport, size_list[s], fig[f], show(median_of(tb, key)), show(median_of(sp, key)),
                 ratio, show(median_of(qp, key)), paired(tb, qp, key)
          if (f == 1 && ratio != "-") {
            ++rows
            if (sockperf_ratio <= 1.00) ++met; else missed = missed sprintf("\n#   %s %s: %s", transport, size_list[s], ratio)
          }
        }
      }
    }
    print "RTT in us, the median over the repetitions. ratio: the median of the paired ratios"
    print "tickbench / peer (repetition by repetition, run side by side) with a bootstrap 95%"
    print "interval. mean: a run'"'"'s average (tickbench'"'"'s averaged figure; qperf reports nothing"
    print "else); p50, p90, p99: of a run'"'"'s round trips."
    printf "# mean against sockperf: %d of %d rows at most 1.00%s\n", met, rows, missed == "" ? "" : "; not:" missed
  }' "$results"
