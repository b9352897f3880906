#!/usr/bin/env bash
# End-to-end test of the round-trip matrix across three hosts under mpirun: three network
# namespaces on a bridge (tools/netlab_mpi.sh), the third host's link limited to 800 kbit/s
# in both directions through one token bucket. For CI, as root, after
# `bazel build --config=mpi //harness`:
#   tests/netlab_mpi_e2e_test.sh [TICKBENCH]      (default: bazel-bin/harness/harness)
# Not a Bazel test: namespaces need root, which the Bazel sandbox does not reliably give.
#
# Checks, for each of --transport=udp, tcp and mpi:
#   matrix         mpirun -np 3 over the three hosts exits 0 and writes a 3 x 3 matrix:
#                  three hosts, named as the namespaces, and every ordered pair of distinct
#                  ranks measured
#   shaped host    the matrix's own slowest pairs all involve the shaped host (rank 2), and
#                  the median RTT of its four pairs exceeds that of the other two by the
#                  serialization the bucket adds, 2 x frame bits / 800 kbit/s (a 64-byte
#                  message in a 106-byte UDP frame: 2.12 ms; a 130-byte TCP one: 2.6 ms),
#                  within 0.6x..1.6x (mpi: TCP's estimate, though its frames carry Open
#                  MPI's few bytes of headers besides)
# and once:
#   killed rank    SIGKILL to the rank on the second host mid-run ends mpirun within 10 s,
#                  non-zero, with the pairs measured before written (a partial matrix)
#   interrupted    a lab stopped by TERM tears down within 10 s, exit 143
#   nothing left   namespaces and links are as before the test
# Robust on a loaded 2-CPU machine: the bucket's 2 ms dwarf the 20-300 us of the unshaped
# pairs, whatever the load; the bounds are wide.
# Prints one line per check, then "N passed, N failed"; exits 1 when any check failed.
set -uo pipefail
cd "$(dirname "$0")/.."

tickbench=${1:-bazel-bin/harness/harness}
netlab=tools/netlab_mpi.sh
readonly rate_bits=800000 size=64
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=tests/netlab_checks.sh
source tests/netlab_checks.sh

if [ "$(id -u)" -ne 0 ]; then fail "must run as root (network namespaces)"; finish; fi
for tool in mpirun jq; do
  command -v "$tool" >/dev/null || { fail "needs '$tool' (tools/setup.sh --mpi)"; finish; }
done
if [ ! -x "$tickbench" ]; then
  fail "no tickbench binary at $tickbench; run 'bazel build --config=mpi //harness'"
  finish
fi
if "$tickbench" --experiment=matrix 2>&1 | grep -q "needs a build with Open MPI"; then
  fail "$tickbench is built without MPI; run 'bazel build --config=mpi //harness'"
  finish
fi

lab_state | sort >"$work/before"

# Runs the matrix over transport $1 in a new lab, into $work/$1.json; the lab's PID (the
# hosts' suffix) into $work/$1.lab. Bounded: 120 s.
matrix() {
  "$netlab" --rate=800kbit --timeout=120 -- -np 3 "$tickbench" --experiment=matrix \
    --transport="$1" --sizes="$size" --iterations=150 --runs=2 --format=json \
    --output="$work/$1.json" >/dev/null 2>"$work/$1.err" &
  local lab=$!
  echo "$lab" >"$work/$1.lab"
  wait "$lab"
}

# The expected excess of the shaped host's pairs, in ns: 2 frames of $1 bytes of headers.
expected_excess() {
  awk -v h="$1" -v s="$size" -v r="$rate_bits" 'BEGIN { printf "%.0f", 2 * (s + h) * 8 / r * 1e9 }'
}

# Ethernet 14 + IPv4 20 + UDP 8; TCP 20 + its timestamp option 12.
for transport_and_headers in udp:42 tcp:66 mpi:66; do
  transport=${transport_and_headers%:*} headers=${transport_and_headers#*:}
  matrix "$transport"
  status=$?
  if [ "$status" -ne 0 ]; then
    fail "$transport matrix: the lab exited $status: $(grep -v '^#' "$work/$transport.err" | tail -3)"
    continue
  fi
  json="$work/$transport.json" lab=$(cat "$work/$transport.lab")
  # "ranks hosts-as-expected measured distinct-ordered-pairs"
  shape=$(jq -r --arg id "$lab" '[.ranks,
      (.hosts == ["tbh1-" + $id, "tbh2-" + $id, "tbh3-" + $id]),
      ([.pairs[] | select(.status == "measured")] | length),
      ([.pairs[] | select(.client != .server) | "\(.client)\(.server)"] | unique | length)]
    | map(tostring) | join(" ")' "$json")
  if [ "$shape" = "3 true 6 6" ]; then
    pass "$transport matrix: 3 x 3 on hosts $(jq -r '.hosts | join(", ")' "$json"), 6 pairs measured"
  else
    fail "$transport matrix: ranks, hosts named, measured, pairs = $shape (expected 3 true 6 6): $(head -c 600 "$json")"
  fi
  slow_with_shaped=$(jq '[.slowest[] | select(.client == 2 or .server == 2)] | length' "$json")
  shaped=$(jq '[.pairs[] | select(.client == 2 or .server == 2) | .rtt_ns] | sort
    | (.[1] + .[2]) / 2' "$json")
  others=$(jq '[.pairs[] | select(.client != 2 and .server != 2) | .rtt_ns] | add / 2' "$json")
  expected=$(expected_excess "$headers")
  detail=$(awk -v a="$shaped" -v b="$others" -v e="$expected" -v n="$slow_with_shaped" 'BEGIN {
    printf "%d of 3 slowest pairs with the shaped host; its pairs %.2f ms, the others %.3f ms: %.2f ms more (expected %.2f ms)",
      n, a / 1e6, b / 1e6, (a - b) / 1e6, e / 1e6 }')
  if [ "$slow_with_shaped" = 3 ] && awk -v a="$shaped" -v b="$others" -v e="$expected" \
      'BEGIN { exit !(a - b >= 0.6 * e && a - b <= 1.6 * e) }'; then
    pass "$transport shaped host: $detail"
  else
    fail "$transport shaped host: $detail"
  fi
done

# --- killed rank: the job ends, the pairs measured stay written ---------------------------
output="$work/killed.json"
"$netlab" --timeout=120 -- -np 3 "$tickbench" --experiment=matrix --transport=udp \
  --sizes="$size" --iterations=300000 --runs=2 --format=json --output="$output" \
  >/dev/null 2>"$work/killed.err" &
lab=$!
for ((i = 0; i < 300; i++)); do [ -s "$output" ] && break; sleep 0.1; done  # a pair done
victim=""
for pid in $(ip netns pids "tbh2-$lab" 2>/dev/null); do
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$(basename "$tickbench" | cut -c1-15)" ] && victim=$pid
done
if [ -z "$victim" ]; then
  fail "killed rank: no rank found on tbh2-$lab ($( [ -s "$output" ] || echo "no pair written in 30 s"))"
  kill -TERM "$lab" 2>/dev/null
  wait "$lab"
else
  kill -KILL "$victim"
  start=$SECONDS
  for ((i = 0; i < 100; i++)); do kill -0 "$lab" 2>/dev/null || break; sleep 0.1; done
  in_time=$(kill -0 "$lab" 2>/dev/null && echo no || echo yes)
  [ "$in_time" = no ] && kill -TERM "$lab"
  wait "$lab"
  code=$?
  state=$(jq -r '[.complete, .pairs[0].status] | map(tostring) | join(" ")' "$output" 2>&1)
  detail="exit $code after $((SECONDS - start)) s; complete, first pair: $state"
  if [ "$in_time" = yes ] && [ "$code" -ne 0 ] && [ "$state" = "false measured" ]; then
    pass "killed rank: $detail"
  else
    fail "killed rank: $detail (expected non-zero within 10 s, false measured)"
  fi
fi

# --- interrupted: tear-down on TERM ------------------------------------------------------
"$netlab" -- -np 3 "$tickbench" --experiment=matrix --transport=udp --sizes="$size" \
  --iterations=300000 --runs=2 >/dev/null 2>"$work/term.err" &
lab=$!
await_running_in "tbh3-$lab"  # up to 10 s for the ranks to start
sleep 1  # into the measurement
check_interrupted TERM "$lab"

# --- nothing left behind -------------------------------------------------------------------
check_nothing_left
finish
