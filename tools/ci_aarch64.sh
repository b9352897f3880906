#!/usr/bin/env bash
# CI for arm64: cross-builds //... for linux_aarch64, checks that the harness really is an
# arm64 program, and runs the tests under QEMU user-mode emulation (docs/platforms.md).
# Prints Bazel's output, with its per-target result lines ("//pkg:name  PASSED in 0.4s"),
# then the tests that emulation cannot run, on lines of their own that do not start
# with "//".
#
#   tools/ci_aarch64.sh [BAZEL_OPTION...]   e.g. --jobs=2
#
# Environment: BAZEL, the Bazel command with any startup options (default "bazel");
# CI_AARCH64_MINUTES, the time the whole run may take (default 25), after which it stops
# Bazel and fails. Most of a cold run is compiling; docs/ci.md has its measured time.
set -uo pipefail
cd "$(dirname "$0")/.."

read -ra bazel <<<"${BAZEL:-bazel}"
deadline=$((SECONDS + ${CI_AARCH64_MINUTES:-25} * 60))

# Runs a Bazel command with what is left of the time. SIGINT is what Ctrl-C sends: the
# client asks the server to cancel the command, so the next run finds it idle.
bounded() {
  local left=$((deadline - SECONDS))
  if [ "$left" -le 0 ]; then
    echo "ci_aarch64.sh: out of time before: $*" >&2
    return 124
  fi
  timeout --signal=INT --kill-after=60 "$left" "$@"
  local status=$?
  if [ "$status" -eq 124 ]; then
    echo "ci_aarch64.sh: stopped after ${CI_AARCH64_MINUTES:-25} minutes: $*" >&2
  fi
  return "$status"
}

bash tools/setup.sh --arm64 || { echo "ci_aarch64.sh: the arm64 packages are not installed" >&2; exit 1; }

failed=0
# The tests emulation does not run (the tags below) are not built either: every library
# and program is, and their test code builds natively and under the sanitizers.
not_emulated=(--build_tag_filters=-requires_native_exec,-emulation_heavy)
bounded "${bazel[@]}" build --config=aarch64 "${not_emulated[@]}" --keep_going "$@" -- //... 2>&1 || failed=1

# What was built must be an arm64 program, not a host one that passes the tests natively.
bin=$("${bazel[@]}" info --config=aarch64 "$@" bazel-bin 2>/dev/null)
harness_type=$(file -bL "$bin/harness/harness" 2>&1)
echo "harness/harness: $harness_type"
if [[ "$harness_type" != ELF\ 64-bit*ARM\ aarch64* ]]; then
  echo "ci_aarch64.sh: harness/harness is not an ARM aarch64 ELF program" >&2
  failed=1
fi

bounded "${bazel[@]}" test --config=aarch64 "${not_emulated[@]}" --keep_going "$@" -- //... 2>&1 || failed=1

# Tests --config=aarch64 filters out (tests/BUILD.bazel and harness/study/BUILD.bazel say why).
list_not_run() {
  local tag=$1 why=$2 target
  while read -r target; do
    [ -n "$target" ] && echo "not run under emulation ($tag: $why): $target"
  done < <("${bazel[@]}" query --keep_going "attr(tags, \"$tag\", tests(//...))" 2>/dev/null)
}
list_not_run requires_native_exec "runs a script or starts another arm64 program, which qemu-aarch64 alone cannot"
list_not_run emulation_heavy "CPU-bound statistics, run natively and under the sanitizers"

echo "ci_aarch64.sh: $([ "$failed" -eq 0 ] && echo succeeded || echo failed) in $((SECONDS / 60))m$((SECONDS % 60))s"
exit "$failed"
