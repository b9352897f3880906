#!/usr/bin/env bash
# Builds the fuzzers with --config=fuzz (clang, libFuzzer, ASan, UBSan) and runs each for
# SECONDS (default 30) on a copy of its checked-in corpus, so that the corpus in the tree is
# never written; one fuzzer per core runs at a time. Prints "fuzzer NAME: ok (N runs)" or "fuzzer NAME: FAILED ..." per fuzzer
# and a closing "N passed, N failed"; exits non-zero when any fuzzer crashed, hung or broke
# a property (fuzz/fuzz_check.h), or the build failed.
#
#   tools/run_fuzzers.sh [SECONDS] [BAZEL BUILD OPTIONS...]
#
# A failing fuzzer's input and log stay in the temporary directory the script names; copy
# the input into fuzz/corpus/NAME/ once fixed, so that fuzz:corpus_regression_test keeps
# checking it. BAZEL_STARTUP_OPTIONS (e.g. --output_base=...) go before the bazel command.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

# One line per tickbench_fuzzer() in fuzz/BUILD.bazel.
fuzzers=(
  size_list_fuzzer
  control_frame_fuzzer
  csv_reader_fuzzer
  remote_control_fuzzer
  analyze_fuzzer
  compare_fuzzer
  echo_stream_fuzzer
)

seconds=${1:-30}
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "run_fuzzers.sh: SECONDS must be a whole number above 0, not '$seconds'" >&2
  exit 2
fi
shift $(($# > 0 ? 1 : 0))

fuzz_runtime="$(clang --print-runtime-dir 2>/dev/null)/libclang_rt.fuzzer-$(uname -m).a"
if [ ! -e "$fuzz_runtime" ]; then
  echo "run_fuzzers.sh: clang with libFuzzer is missing (Debian: apt-get install clang libclang-rt-14-dev)" >&2
  echo "0 passed, ${#fuzzers[@]} failed"
  exit 1
fi

# Startup options are words on purpose: "--output_base=DIR --host_jvm_args=...".
# shellcheck disable=SC2206
bazel=(bazel ${BAZEL_STARTUP_OPTIONS:-})
# --symlink_prefix=/ leaves no bazel-* links in the tree; the binaries are found through
# `bazel info`, which answers for the same configuration.
build_options=(--config=fuzz --symlink_prefix=/ "$@")
targets=("${fuzzers[@]/#///fuzz:}")
if ! "${bazel[@]}" build "${build_options[@]}" "${targets[@]}"; then
  echo "run_fuzzers.sh: the fuzzers did not build" >&2
  echo "0 passed, ${#fuzzers[@]} failed"
  exit 1
fi
bin=$("${bazel[@]}" info "${build_options[@]}" bazel-bin 2>/dev/null) || {
  echo "run_fuzzers.sh: bazel info bazel-bin failed" >&2
  echo "0 passed, ${#fuzzers[@]} failed"
  exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/tickbench-fuzz.XXXXXX")
# Runs one fuzzer for SECONDS on a copy of its corpus; its exit status goes to NAME/status.
run_one() {
  local name=$1 corpus="$work/$1/corpus" log="$work/$1/log"
  mkdir -p "$corpus"
  cp -R "fuzz/corpus/$name/." "$corpus/"
  # -timeout: one input taking 10 s is a hang for these parsers, so a failure. Crash inputs
  # go to the work directory (libFuzzer's default is the current directory: the tree).
  UBSAN_OPTIONS=print_stacktrace=1 \
    "$bin/fuzz/$name" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$work/$name/" "$corpus" >"$log" 2>&1
  echo $? >"$work/$name/status"
}

# One fuzzer per core at a time (each is single-threaded): every fuzzer still gets its
# SECONDS, the stage takes SECONDS x fuzzers / cores. FUZZ_JOBS overrides the count.
parallel=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ "$parallel" =~ ^[1-9][0-9]*$ ]] || parallel=1
for name in "${fuzzers[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do
    wait -n
  done
  run_one "$name" &
done
wait

passed=0
failed=0
for name in "${fuzzers[@]}"; do
  log="$work/$name/log"
  status=$(cat "$work/$name/status" 2>/dev/null || echo "none")
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  if [ "$status" = 0 ]; then
    echo "fuzzer $name: ok (${runs:-0} runs)"
    passed=$((passed + 1))
  else
    artifacts=$(find "$work/$name" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' \
      -o -name 'oom-*' -o -name 'leak-*' -o -name 'slow-unit-*' \) | tr '\n' ' ')
    echo "fuzzer $name: FAILED with status $status after ${runs:-?} runs; log $log; input ${artifacts:-none}"
    grep -m 1 -E 'ERROR: (AddressSanitizer|libFuzzer)|runtime error:|fuzz property broken' "$log" | sed 's/^/  /'
    failed=$((failed + 1))
  fi
done

if [ "$failed" -eq 0 ]; then
  rm -rf "$work"
else
  echo "run_fuzzers.sh: inputs and logs kept in $work"
fi
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
