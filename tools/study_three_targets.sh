#!/usr/bin/env bash
# One study configuration on three targets, each checked against its own theory: the
# host's deterministic simulation (--transport=sim, a simulated 10 ms tick), the Cortex-M3
# board (SysTick at 10 ms) and the RISC-V board (the CLINT's mtimecmp tick at 10 ms), all
# with --sizes=32,512,4096 --iterations=1000 --runs=4 and CSV out. For every row of each,
# board/riscv32/check_study_csv.awk checks that the averaged figure is within its bound of
# the target's reference and that the share of single round trips reading 0 is within
# (1 + (2r + w)/T)/N of 1 - d/T. Bazel 4 builds one target platform per invocation, so
# this runs three builds; the boards run under their QEMU runners.
#
#   tools/study_three_targets.sh [BAZEL_OPTION...]
#
# Environment: BAZEL, the Bazel command with any startup options (default "bazel").
# Prints a line per row and ends with "N passed, N failed" (one per target).
set -uo pipefail
cd "$(dirname "$0")/.."

read -ra bazel <<<"${BAZEL:-bazel}"
study=(--sizes=32,512,4096 --iterations=1000 --runs=4 --format=csv)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# run_target NAME CONFIG_FLAGS RUNNER CLOCK_FLAGS...: builds //harness, runs it, checks it.
run_target() {
  local name=$1 config=$2 runner=$3
  shift 3
  local bin
  # shellcheck disable=SC2086 # $config is zero or one flag
  if ! "${bazel[@]}" build $config "${BAZEL_OPTIONS[@]}" //harness >"$tmp/$name.build" 2>&1 ||
    ! bin=$("${bazel[@]}" info $config "${BAZEL_OPTIONS[@]}" bazel-bin 2>/dev/null); then
    tail -5 "$tmp/$name.build"
    echo "FAIL: $name: //harness did not build"
    failed=$((failed + 1))
    return
  fi
  if ! $runner "$bin/harness/harness" "$@" "${study[@]}" >"$tmp/$name.csv" 2>"$tmp/$name.err"; then
    echo "FAIL: $name: the study exited non-zero: $(cat "$tmp/$name.err")"
    failed=$((failed + 1))
  elif awk -F, -v label="$name:" -f board/riscv32/check_study_csv.awk "$tmp/$name.csv"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
}

BAZEL_OPTIONS=("$@")
run_target host "" "" --experiment=study --transport=sim --clocks=tick:10ms
run_target cortex_m3 --config=cortex_m3 bazel/toolchains/cortex_m3/qemu_mps2.sh \
  --clock=systick --tick_period=10ms
run_target riscv32 --config=riscv32 bazel/toolchains/riscv32/qemu_virt.sh \
  --clock=mtime_tick --tick_period=10ms
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
