#!/usr/bin/env bash
# CI for the bare-metal Cortex-M3 board: builds the board's targets for //platform:cortex_m3,
# checks that the board program really is a 32-bit Arm ELF image, and runs the board's
# tests on the emulated board (qemu-system-arm -M mps2-an385, deterministic time with
# -icount). Prints Bazel's per-target result lines ("//pkg:name  PASSED in 0.4s"), then
# the study as the board prints it.
#
#   tools/ci_cortex_m3.sh [BAZEL_OPTION...]
#
# Environment: BAZEL, the Bazel command with any startup options (default "bazel");
# CI_CORTEX_M3_MINUTES, the time the whole run may take (default 10), after which it
# stops Bazel and fails. A run from a cold Bazel server took 32 s (docs/platforms.md).
set -uo pipefail
cd "$(dirname "$0")/.."

read -ra bazel <<<"${BAZEL:-bazel}"
deadline=$((SECONDS + ${CI_CORTEX_M3_MINUTES:-10} * 60))

bounded() {
  local left=$((deadline - SECONDS))
  if [ "$left" -le 0 ]; then
    echo "ci_cortex_m3.sh: out of time before: $*" >&2
    return 124
  fi
  timeout --signal=INT --kill-after=60 "$left" "$@"
  local status=$?
  if [ "$status" -eq 124 ]; then
    echo "ci_cortex_m3.sh: stopped after ${CI_CORTEX_M3_MINUTES:-10} minutes: $*" >&2
  fi
  return "$status"
}

bash tools/setup.sh --mcu || { echo "ci_cortex_m3.sh: the board's packages are not installed" >&2; exit 1; }

failed=0
bounded "${bazel[@]}" build --config=cortex_m3 --keep_going "$@" -- //... 2>&1 || failed=1

bin=$("${bazel[@]}" info --config=cortex_m3 "$@" bazel-bin 2>/dev/null)
# //harness is the board program under this config, as //board:harness is.
for program in harness/harness board/harness; do
  header=$(od -An -tx1 -N20 "$bin/$program" 2>/dev/null | tr -d ' \n')
  echo "$program: ELF header $header"
  # 7f 45 4c 46 (ELF), class 01 (32-bit), machine 28 00 (EM_ARM).
  if [ "${header:0:10}" != 7f454c4601 ] || [ "${header:36:4}" != 2800 ]; then
    echo "ci_cortex_m3.sh: $program is not a 32-bit Arm ELF image" >&2
    failed=1
  fi
done

bounded "${bazel[@]}" test --config=cortex_m3 --keep_going "$@" -- //... 2>&1 || failed=1

# The study, as the board prints it (not counted: the tests above check it).
bounded bash bazel/toolchains/cortex_m3/qemu_mps2.sh "$bin/harness/harness" --clock=systick \
  --tick_period=10ms --sizes=32,512,4096 2>&1 | sed -n '1,12p'

echo "ci_cortex_m3.sh: $([ "$failed" -eq 0 ] && echo succeeded || echo failed) in $((SECONDS / 60))m$((SECONDS % 60))s"
exit "$failed"
