#!/usr/bin/env bash
# Runs the board's study (//board:harness) on the emulated board with deterministic time
# (-icount) and checks its figures against the theory, exactly:
#   * the same command prints the same bytes twice (time is the instruction count);
#   * every run's averaged figure is within (T + r + w)/N of the reference's (the columns'
#     terms T/N, r/N, w/N and their sum total_bound_ns, core/study_columns.h), and the
#     averaged figure is a whole number of ticks over N (it is read by the tick);
#   * the per-iteration zero share is within (1 + (2r + w)/T)/N of 1 - d/T, with d the
#     reference's mean round trip, at 10 ms and 20 ms ticks;
#   * the whole default study prints the bytes of FIXTURE (the board result that
#     tests/board_results_test reads with the host's --analyze and --plot), '#' lines aside;
#   * dwt is refused with its reason, a bad flag exits 2, JSON parses.
# Skipped, saying why, where qemu-system-arm is absent.
#
#   study_icount_test.sh HARNESS_ELF RUNNER FIXTURE
set -uo pipefail
harness=$1
runner=$2
fixture=$3

if ! command -v qemu-system-arm >/dev/null 2>&1; then
  echo "SKIPPED: qemu-system-arm is not installed (tools/setup.sh --mcu); the board's study was not run"
  exit 0
fi

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# Checks one CSV report by column name; prints one line per row.
check_csv() {
  local csv=$1 label=$2
  awk -F, -v label="$label" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    function v(name) { return $(col[name]) + 0 }
    function abs(x) { return x < 0 ? -x : x }
    {
      rows++
      T = v("resolution_ns"); r = v("reference_resolution_ns"); N = v("iterations")
      w = v("pair_skew_ns")
      bound = (T + r + w) / N
      zbound = (1 + (2 * r + w) / T) / N
      printf "%s %s B: truth %.3f us, averaged %.3f us (bound %.3f us); zero %.6f, 1 - d/T %.6f (bound %.6f)\n",
             label, $(col["size_bytes"]), v("truth_ns") / 1e3, v("averaged_ns") / 1e3, bound / 1e3,
             v("zero_fraction"), v("predicted_zero_share"), zbound
      if (abs(v("averaged_bound_ns") - T / N) > 1e-3) { print "FAIL: " label ": averaged_bound_ns is not T/N"; bad++ }
      if (abs(v("total_bound_ns") - bound) > 1e-3) { print "FAIL: " label ": total_bound_ns is not (T + r + w)/N"; bad++ }
      if (!(v("worst_run_error_ns") < bound)) { print "FAIL: " label ": a run averaged outside (T + r + w)/N"; bad++ }
      if (!(abs(v("averaged_ns") - v("truth_ns")) < bound)) { print "FAIL: " label ": averaged outside (T + r + w)/N"; bad++ }
      # The mean over runs of whole ticks over N: a multiple of T / (N runs).
      q = v("averaged_ns") * N * v("runs") / T
      if (abs(q - int(q + 0.5)) > 1e-6) { print "FAIL: " label ": averaged is not whole ticks over N"; bad++ }
      if (v("zero_within_bound") != 1) { print "FAIL: " label ": zero_within_bound is not 1"; bad++ }
      if (!(abs(v("zero_fraction") - v("predicted_zero_share")) < zbound)) { print "FAIL: " label ": zero share outside (1 + (2r + w)/T)/N of 1 - d/T"; bad++ }
      if (abs(v("predicted_zero_share") - (1 - v("per_iteration_truth_ns") / T)) > 1e-6) { print "FAIL: " label ": predicted zero share is not 1 - d/T"; bad++ }
      if (v("faults") != 0 || v("averaged_within_bound") != 1) { print "FAIL: " label ": faults or averaged_within_bound"; bad++ }
    }
    END { if (rows != 3) { print "FAIL: " label ": expected 3 rows, got " rows; bad++ } exit bad > 0 }
  ' "$csv" || failures=$((failures + 1))
}

tmp=${TEST_TMPDIR:-$(mktemp -d)}
study=(--clock=systick --sizes=32,512,4096 --format=csv)

for setting in "10ms 5" "20ms 3"; do
  read -r period shift_n <<<"$setting"
  for attempt in 1 2; do
    TICKBENCH_ICOUNT_SHIFT=$shift_n "$runner" "$harness" "${study[@]}" --tick_period="$period" \
      >"$tmp/$period.$attempt.csv" 2>"$tmp/err" || fail "tick $period: exit $? ($(cat "$tmp/err"))"
  done
  cmp -s "$tmp/$period.1.csv" "$tmp/$period.2.csv" || fail "tick $period: two runs under -icount differ"
  check_csv "$tmp/$period.1.csv" "tick $period, icount shift $shift_n:"
done

# The checked-in board result is what the board prints today (time is the instruction
# count, so it is the same bytes until the code or QEMU changes). The program's start-up
# reads its command line, whose length (the program's path) moves the loop's phase against
# the reference's 40 ns count by an instruction or two: the fixture is this run's output,
# which a mismatch leaves in the test's outputs to be checked in.
"$runner" "$harness" --clock=systick --tick_period=10ms --format=csv >"$tmp/fixture.csv" 2>"$tmp/err" ||
  fail "fixture run: exit $? ($(cat "$tmp/err"))"
if ! grep -v '^#' "$fixture" | cmp -s - "$tmp/fixture.csv"; then
  kept=""
  if [[ -n "${TEST_UNDECLARED_OUTPUTS_DIR:-}" ]]; then
    cp "$tmp/fixture.csv" "$TEST_UNDECLARED_OUTPUTS_DIR/study_systick_10ms.csv"
    kept=" (the new output is in the test's outputs: study_systick_10ms.csv)"
  fi
  fail "the board no longer prints $fixture$kept; now: $(head -3 "$tmp/fixture.csv")"
fi

# The fine clock as the measured one: round trips are many of its 40 ns ticks.
"$runner" "$harness" --clock=systick_fine --sizes=512 --runs=1 --format=csv >"$tmp/fine.csv" 2>"$tmp/err" ||
  fail "systick_fine: exit $? ($(cat "$tmp/err"))"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         { if ($(col["averaged_within_bound"]) != 1 || $(col["zero_fraction"]) != 0 || $(col["resolution_ns"]) != 40) exit 1 }' \
  "$tmp/fine.csv" || fail "systick_fine: expected no zero readings and the averaged bound kept: $(cat "$tmp/fine.csv")"

# dwt: refused under QEMU, saying why and what to use.
status=0
"$runner" "$harness" --clock=dwt --sizes=32 >"$tmp/out" 2>"$tmp/err" || status=$?
[ "$status" -eq 1 ] || fail "dwt: expected exit 1, got $status"
grep -q "CYCCNT" "$tmp/err" && grep -q "systick_fine" "$tmp/err" || fail "dwt: no reason given: $(cat "$tmp/err")"

# A bad flag: exit 2, the flag named once.
status=0
"$runner" "$harness" --tick_period=10 >"$tmp/out" 2>"$tmp/err" || status=$?
[ "$status" -eq 2 ] || fail "bad flag: expected exit 2, got $status"
[ "$(grep -o -- '--tick_period' "$tmp/err" | wc -l)" -eq 1 ] || fail "bad flag: $(cat "$tmp/err")"

# JSON parses, with a result per size and the truth as "reference" (the host's names).
"$runner" "$harness" --sizes=32,4096 --iterations=200 --runs=1 --format=json >"$tmp/out.json" 2>"$tmp/err" ||
  fail "json: exit $?"
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert [c["size_bytes"] for c in d["results"]] == [32, 4096] and all(c["reference"]["rtt_ns"] > 0 for c in d["results"]), d' \
    "$tmp/out.json" || fail "json: does not parse or lacks the results"
fi

# The table: the host's layout.
"$runner" "$harness" --sizes=32 --iterations=100 --runs=1 >"$tmp/table" 2>"$tmp/err" || fail "table: exit $?"
grep -q "size B | truth us (sd runs) |  averaged us  err%  bound% | per-iteration us: mean" "$tmp/table" ||
  fail "table: not the host's layout: $(cat "$tmp/table")"

echo "$([ "$failures" -eq 0 ] && echo PASSED || echo FAILED): $failures failure(s)"
[ "$failures" -eq 0 ]
