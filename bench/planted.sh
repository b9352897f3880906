#!/usr/bin/env bash
# Planted buffer sizes: sweeps over a real kernel whose buffer sizes were set, so that the
# right answer is known, and whether --explain finds the steps they cause and names them.
#
#   bench/planted.sh [--harness=bazel-bin/harness/harness] [--runs=4] [--iterations=1000]
#                    [--configs=pipe:4096,pipe:8192,...,unix_stream:4096,...]
#
# A configuration is TRANSPORT:BYTES: pipe:B sets each pipe's capacity (--pipe_size=B),
# unix_stream:B asks for SO_SNDBUF B (--so_sndbuf=B; Linux grants 2B). With C the capacity
# granted (B for a pipe, 2B for the socket), the sweep runs 16 sizes from C/4 to 4C in
# steps of C/4, and the planted steps are at C, 2C and 3C: a message over the buffer is
# moved in parts the reader drains in turn.
#
# A planted step at P is found when --explain reports a jump between two sizes a <= P < b
# with b - a at most two sweep steps (within one sweep step of it; a message of P bytes still
# fits), and named when that
# line's "near" list holds the fact that planted it ("pipe capacity", "2 x pipe capacity",
# "SO_SNDBUF", "2 x SO_SNDBUF", ...). Every other jump reported is a false step.
#
# Prints one row per configuration (planted, found, named, false) and the totals.
set -euo pipefail

harness=bazel-bin/harness/harness
runs=4
iterations=1000
configs=pipe:4096,pipe:8192,pipe:16384,pipe:32768,pipe:65536,unix_stream:2048,unix_stream:4096,unix_stream:8192,unix_stream:16384,unix_stream:32768,unix_stream:65536,pipe:131072
for arg in "$@"; do
  case "$arg" in
    --harness=*) harness=${arg#*=} ;;
    --runs=*) runs=${arg#*=} ;;
    --iterations=*) iterations=${arg#*=} ;;
    --configs=*) configs=${arg#*=} ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "planted.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$harness" ] || { echo "planted.sh: no binary at $harness (bazel build //harness)" >&2; exit 2; }
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "planted.sh: --runs must be a positive number" >&2; exit 2; }
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] || { echo "planted.sh: --iterations must be a positive number" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

total_planted=0 total_found=0 total_named=0 total_false=0 sweeps=0
printf '%-20s %8s %8s %8s %8s %8s\n' configuration capacity planted found named false
IFS=, read -r -a config_list <<<"$configs"
for config in "${config_list[@]}"; do
  transport=${config%%:*}
  bytes=${config#*:}
  [[ "$bytes" =~ ^[1-9][0-9]*$ ]] || { echo "planted.sh: bad configuration '$config'" >&2; exit 2; }
  case "$transport" in
    pipe) knob="--pipe_size=$bytes"; capacity=$bytes; fact="pipe capacity" ;;
    unix_stream) knob="--so_sndbuf=$bytes"; capacity=$((2 * bytes)); fact="SO_SNDBUF" ;;
    *) echo "planted.sh: transport '$transport' has no knob (pipe, unix_stream)" >&2; exit 2 ;;
  esac
  step=$((capacity / 4))
  if ! "$harness" --transport="$transport" "$knob" --sizes="$step:$((4 * capacity)):$step" \
      --runs="$runs" --iterations="$iterations" --quiet --explain >"$work/out" 2>"$work/err"; then
    echo "planted.sh: $config failed:" >&2
    tail -3 "$work/err" >&2
    continue
  fi
  sweeps=$((sweeps + 1))
  # Each jump line: "  jump up between A and B bytes: ... near X, Y".
  read -r planted found named false < <(awk -v c="$capacity" -v s="$step" -v fact="$fact" '
    /^  jump (up|down) between [0-9]+ and [0-9]+ bytes/ {
      a = $4; b = $6; n = split($0, parts, "; near "); near = n > 1 ? parts[2] : ""
      matched = 0
      for (k = 1; k <= 3; ++k) {
        p = k * c
        if (a <= p && p < b && b - a <= 2 * s && !(k in hit)) {
          hit[k] = 1; matched = 1
          name = k == 1 ? fact : k " x " fact
          if (index(near, name) > 0) named_k[k] = 1
        }
      }
      if (!matched) ++false_steps
    }
    END {
      f = 0; nm = 0
      for (k = 1; k <= 3; ++k) { if (k in hit) ++f; if (k in named_k) ++nm }
      print 3, f, nm, false_steps + 0
    }' "$work/out")
  printf '%-20s %8d %8d %8d %8d %8d\n' "$config" "$capacity" "$planted" "$found" "$named" "$false"
  total_planted=$((total_planted + planted))
  total_found=$((total_found + found))
  total_named=$((total_named + named))
  total_false=$((total_false + false))
done
printf '%-20s %8s %8d %8d %8d %8d\n' "total ($sweeps sweeps)" "" "$total_planted" "$total_found" \
  "$total_named" "$total_false"
