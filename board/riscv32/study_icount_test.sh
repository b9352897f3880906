#!/usr/bin/env bash
# Runs the RISC-V board's study (//board/riscv32:harness) on QEMU's `virt` machine with
# deterministic time (-icount) and checks it:
#   * the same command prints the same bytes twice, at a 10 ms tick (icount shift 5) and a
#     3 ms one (shift 3): time is the instruction count;
#   * each row agrees with the theory (check_study_csv.awk): averaged within its bound of
#     mtime, the zero share within (1 + (2r + w)/T)/N of 1 - d/T; and the averaged figure
#     is a whole number of ticks over N;
#   * the whole default study prints the bytes of FIXTURE, '#' lines aside;
#   * mtime as the measured clock reads no zeros; mcycle is detected and keeps the bound;
#     a bad flag exits 2 naming it once; JSON parses; the table has the host's layout.
# Skipped, saying why, where qemu-system-riscv32 is absent.
#
#   study_icount_test.sh HARNESS_ELF RUNNER FIXTURE
set -uo pipefail
harness=$1
runner=$2
fixture=$3
checker=$(dirname "$0")/check_study_csv.awk

if ! command -v qemu-system-riscv32 >/dev/null 2>&1; then
  echo "SKIPPED: qemu-system-riscv32 is not installed (tools/setup.sh --riscv); the board's study was not run"
  exit 0
fi

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
tmp=${TEST_TMPDIR:-$(mktemp -d)}
board() { "$runner" "$harness" "$@" 2>"$tmp/err"; }

for setting in "10ms 5" "3ms 3"; do
  read -r period shift_n <<<"$setting"
  for attempt in 1 2; do
    TICKBENCH_ICOUNT_SHIFT=$shift_n board --sizes=32,512,4096 --format=csv --tick_period="$period" \
      >"$tmp/$period.$attempt.csv" || fail "tick $period: exit $? ($(cat "$tmp/err"))"
  done
  cmp -s "$tmp/$period.1.csv" "$tmp/$period.2.csv" || fail "tick $period: two runs under -icount differ"
  awk -F, -v label="tick $period, shift $shift_n:" -f "$checker" "$tmp/$period.1.csv" ||
    fail "tick $period: the study disagrees with its theory"
  # The mean over runs of whole ticks over N: a multiple of T / (N runs).
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
           { q = $(c["averaged_ns"]) * $(c["iterations"]) * $(c["runs"]) / $(c["resolution_ns"])
             if ((q - int(q + 0.5)) ^ 2 > 1e-12) exit 1 }' "$tmp/$period.1.csv" ||
    fail "tick $period: an averaged figure is not whole ticks over N"
done

# The checked-in result is what the board prints today, for the command line its first
# lines give (the command line is part of the instruction count; remake it as they say
# when the code or QEMU changes).
board --clock=mtime_tick --tick_period=10ms --format=csv >"$tmp/fixture.csv" || fail "fixture run: exit $? ($(cat "$tmp/err"))"
if ! grep -v '^#' "$fixture" | cmp -s - "$tmp/fixture.csv"; then
  # The new output, to be checked in under the fixture's '#' lines.
  [[ -n "${TEST_UNDECLARED_OUTPUTS_DIR:-}" ]] && cp "$tmp/fixture.csv" "$TEST_UNDECLARED_OUTPUTS_DIR/"
  fail "the board no longer prints $fixture (the test's outputs hold the new one); now: $(head -3 "$tmp/fixture.csv")"
fi

# The fine clocks as the measured one: no zero readings, the bound kept.
for clock in mtime mcycle; do
  board --clock=$clock --sizes=512 --runs=1 --format=csv >"$tmp/$clock.csv" ||
    fail "$clock: exit $? ($(cat "$tmp/err"))"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
           { rows++; if ($(c["averaged_within_bound"]) != 1 || $(c["zero_fraction"]) != 0) exit 1 }
           END { exit rows != 1 }' "$tmp/$clock.csv" ||
    fail "$clock: expected no zero readings and the averaged bound kept: $(cat "$tmp/$clock.csv")"
done
grep -q '^mtime,512,1,1000,100.0,' "$tmp/mtime.csv" || fail "mtime: not 100 ns: $(cat "$tmp/mtime.csv")"

# A bad flag: exit 2, the flag named once.
status=0
board --tick_period=10 >"$tmp/out" || status=$?
[ "$status" -eq 2 ] || fail "bad flag: expected exit 2, got $status"
[ "$(grep -o -- '--tick_period' "$tmp/err" | wc -l)" -eq 1 ] || fail "bad flag: $(cat "$tmp/err")"

# JSON parses, with a result per size and the truth as "reference" (the host's names).
board --sizes=32,4096 --iterations=200 --runs=1 --format=json >"$tmp/out.json" || fail "json: exit $?"
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert [c["size_bytes"] for c in d["results"]] == [32, 4096] and all(c["reference"]["rtt_ns"] > 0 and c["clock"] == "mtime_tick" for c in d["results"]), d' \
    "$tmp/out.json" || fail "json: does not parse or lacks the results"
fi

# The table: the host's layout, this board's clocks.
board --sizes=32 --iterations=100 --runs=1 >"$tmp/table" || fail "table: exit $?"
grep -q "size B | truth us (sd runs) |  averaged us  err%  bound% | per-iteration us: mean" "$tmp/table" &&
  grep -q "^# reference: mtime (CLINT mtime (10 MHz)); claimed resolution 100ns" "$tmp/table" ||
  fail "table: not the host's layout: $(cat "$tmp/table")"

echo "$([ "$failures" -eq 0 ] && echo PASSED || echo FAILED): $failures failure(s)"
[ "$failures" -eq 0 ]
