#!/usr/bin/env bash
# tools/check_one_core.sh, which CI's checks stage runs over the whole tree, against what
# it must find: a copy of core's loop or stamp planted outside core/ fails it; the host's
# loop policy and stamp wrappers, which use core's, pass.
set -uo pipefail
check=tools/check_one_core.sh
failures=0
expect() {  # expect pass|fail FILE...
  local want=$1
  shift
  if "$check" "$@" >"$TEST_TMPDIR/out" 2>&1; then got=pass; else got=fail; fi
  if [ "$got" != "$want" ]; then
    echo "FAIL: expected $want on $*, got $got: $(cat "$TEST_TMPDIR/out")"
    failures=$((failures + 1))
  else
    echo "PASS: $want on $*"
  fi
}

expect pass harness/engine/round_trip_loop.h transport/io/message_pattern.h \
  harness/study/study_runner.cc
planted="$TEST_TMPDIR/planted"
mkdir -p "$planted"
cp core/round_trip_loop.h "$planted/second_loop.h"
expect fail "$planted/second_loop.h"
cp core/message_stamp.h "$planted/second_stamp.h"
expect fail "$planted/second_stamp.h"
printf 'for (i = 0; i < n; ++i) {\n  starts_[k] = clock.NowTicks();\n  Trip();\n}\n' \
  >"$planted/bracketed_pass.cc"
expect fail "$planted/bracketed_pass.cc"
printf 'inline char PatternByte(size_t i) { return static_cast<char>((i * 131 + 7) & 0xff); }\n' \
  >"$planted/board_pattern.h"
expect fail "$planted/board_pattern.h"
printf 'bool EchoStampMatches(const char* r, size_t n, uint64_t s) { return true; }\n' \
  >"$planted/own_check.cc"
expect fail "$planted/own_check.cc"
[ "$failures" -eq 0 ] || exit 1
