#!/usr/bin/env bash
# CI for the bare-metal RISC-V board: builds the board's targets for //platform:riscv32,
# checks that the board program is a 32-bit RISC-V ELF image, runs the board's tests on
# QEMU's `virt` machine (deterministic time with -icount), then the same study on the host
# simulation, the Cortex-M3 and this board, each against its own theory
# (tools/study_three_targets.sh). Prints Bazel's per-target result lines
# ("//pkg:name  PASSED in 0.4s") and one for the three targets.
#
#   tools/ci_riscv32.sh [BAZEL_OPTION...]
#
# Environment: BAZEL, the Bazel command with any startup options (default "bazel");
# CI_RISCV32_MINUTES, the time the whole run may take (default 10).
set -uo pipefail
cd "$(dirname "$0")/.."

read -ra bazel <<<"${BAZEL:-bazel}"
budget=$((${CI_RISCV32_MINUTES:-10} * 60))

bash tools/setup.sh --riscv || { echo "ci_riscv32.sh: the board's packages are not installed" >&2; exit 1; }

failed=0
timeout --signal=INT "$budget" "${bazel[@]}" build --config=riscv32 --keep_going "$@" -- //... 2>&1 || failed=1

bin=$("${bazel[@]}" info --config=riscv32 "$@" bazel-bin 2>/dev/null)
for program in harness/harness board/riscv32/harness; do
  header=$(od -An -tx1 -N20 "$bin/$program" 2>/dev/null | tr -d ' \n')
  echo "$program: ELF header $header"
  # 7f 45 4c 46 (ELF), class 01 (32-bit), machine f3 00 (EM_RISCV).
  if [ "${header:0:10}" != 7f454c4601 ] || [ "${header:36:4}" != f300 ]; then
    echo "ci_riscv32.sh: $program is not a 32-bit RISC-V ELF image" >&2
    failed=1
  fi
done

left=$((budget - SECONDS))
timeout --signal=INT "$((left > 0 ? left : 1))" "${bazel[@]}" test --config=riscv32 --keep_going "$@" -- //... 2>&1 || failed=1

# One line in Bazel's form, so that CI counts it with the tests above.
if timeout "$((budget - SECONDS > 0 ? budget - SECONDS : 1))" bash tools/study_three_targets.sh "$@" 2>&1 | tail -12; [ "${PIPESTATUS[0]}" -eq 0 ]; then
  echo "//tools:study_three_targets                                        PASSED"
else
  echo "//tools:study_three_targets                                        FAILED"
  failed=1
fi

echo "ci_riscv32.sh: $([ "$failed" -eq 0 ] && echo succeeded || echo failed) in $((SECONDS / 60))m$((SECONDS % 60))s"
exit "$failed"
